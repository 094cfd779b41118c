"""data/games.json, the game list kept between boots (firmware/gamelist.py),
damaged in every field: it never stops the menu.

The file is checked once a boot with the rules its entries were made with
(firmware/gamereader.py): one that does not fit is set aside as games.bad,
the reason goes to the crash log, the player sees "Game list reset" once, and
every game is read again from its file. Before, a wrong type in any field of
an entry (a title that is a number, variants that are null, ...) gave the
crash screen instead of the menu at every boot: 134 of 160 cases for one game.

The matrix runs the check alone on every field of every game's entry (fast);
the few damaged files the check lets through boot the whole app, and so do a
few it refuses, to see them set aside and the game list rebuilt."""
import json

import pytest

from firmware import check
from firmware import gamereader
from tests import saves
from tests.panel import shows
from tests.test_app import boot, choose, frames, to_menu

NESTED = [[{"x": [None, {"y": []}]}]]
JUNK = [None, True, 1.5, "7", [], {}, -1, 10 ** 12, NESTED]
ENTRIES = ["15-Puzzle", "8-Puzzle", "2048", "Reversi", "Records", "Settings"]


@pytest.fixture
def good(board, store_dir):
    """The game list as a first boot writes it."""
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    return saves.read(store_dir / "games.json")


def _paths(value, path=()):
    """Every place in value: dict keys and list positions, depth first."""
    items = value.items() if type(value) is dict else enumerate(value) if type(value) is list else ()
    for key, item in items:
        yield path + (key,)
        yield from _paths(item, path + (key,))


def _put(data, path, value):
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def _damaged(good):
    """(path, junk, damaged game list) for every field of every entry."""
    for path in _paths(good["games"], ("games",)):
        was = good
        for key in path:
            was = was[key]
        for junk in JUNK:
            if type(junk) is not type(was) or junk != was:     # no change is no damage
                yield path, junk, _put(good, path, junk)


def _boot_to_menu(board, store_dir, value):
    (store_dir / "games.json").write_text(json.dumps(value))
    arcade = boot(board, store_dir)
    to_menu(board, arcade)                        # the menu, not the crash screen
    frames(arcade, 3)
    assert type(arcade.screen).__name__ == "Menu"
    return arcade.screen.labels


def _shape(path):
    """A place with its list positions left out: one field of its kind."""
    return tuple("#" if type(key) is int else key for key in path)


def _may_pass(path, junk):
    """What the check lets through: a text where a text belongs, an empty
    list or table, null where a field is optional, anything in a file's
    stamp (a mismatch reads the game again), in a game's own options, or as
    a setting's value (a choice may be any JSON value; retitle names one)."""
    setting_value = path[2] == "settings" and len(path) == 7 and path[4] == 2 and path[6] == 0
    return (type(junk) is str or junk is None or junk == [] or junk == {}
            or path[2] == "stamp" or "options" in path or "retitle" in path or setting_value)


def test_every_damaged_field_is_refused_or_harmless(board, store_dir, good):
    cases = 0
    let_through = {}                              # one damaged file per kind of field
    for path, junk, value in _damaged(good):
        cases += 1
        try:
            gamereader._check_cache(value)
        except check.Invalid:
            continue
        assert _may_pass(path, junk), (path, junk)
        let_through.setdefault((_shape(path), type(junk)), value)
    assert cases > 900                            # every field of the 3 games, 9 junk values
    # each kind of damage the check lets through boots to a full menu
    assert len(let_through) > 20
    entries = len(_boot_to_menu(board, store_dir, good))
    for value in let_through.values():
        assert len(_boot_to_menu(board, store_dir, value)) == entries   # a title may differ
        assert not (store_dir / "games.bad").exists()


@pytest.mark.parametrize("path,junk", [
    (("games", 0, "variants"), None),             # the crash screen at every boot before
    (("games", 0, "title"), 5),
    (("games", 1, "variants", 0, "icon", 3), "7"),
    (("games", 2, "settings", 0, 2), True),
    (("games", 2, "records", 1, 2), "most"),
    (("games", 0, "path"), ["a"]),
    (("games", 1), NESTED),
])
def test_a_refused_game_list_is_set_aside_and_every_game_read_again(board, store_dir, good,
                                                                   path, junk):
    text = json.dumps(_put(good, path, junk))
    (store_dir / "games.json").write_text(text)
    arcade = boot(board, store_dir)
    frames(arcade, 2)
    assert shows(board.panel, "Game list reset") and shows(board.panel, "file damaged")
    to_menu(board, arcade)
    assert all(label in arcade.screen.labels for label in ENTRIES)
    assert (store_dir / "games.bad").read_text() == text        # kept as it was
    assert "games.json set aside" in (store_dir / "crash.log").read_text()
    assert saves.read(store_dir / "games.json") == good         # read again, written again


def test_an_entry_with_a_wrong_id_is_written_again(board, store_dir, good):
    # a text where a text belongs, but not the one the file's name gives
    labels = _boot_to_menu(board, store_dir, _put(good, ("games", 1, "id"), "reversi"))
    assert all(label in labels for label in ENTRIES)
    assert saves.read(store_dir / "games.json") == good


@pytest.mark.parametrize("failure", [MemoryError("memory allocation failed, allocating 2048 bytes"),
                                     OSError(5, "EIO")], ids=["MemoryError", "OSError"])
def test_a_one_off_failure_reading_a_game_is_tried_again_at_the_next_boot(
        board, store_dir, monkeypatch, failure):
    """The issue's repro: at the first boot after a deploy (no games.json) the
    import of 2048 fails once. That boot lists g2048.py as broken; it used to
    stay broken (remembered with the file's stamp) until the file changed."""
    import builtins
    real_import = builtins.__import__
    failed = []

    def import_failing_once(name, *args, **kwargs):
        if name == "firmware.screens.g2048" and not failed:
            failed.append(name)
            raise failure
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", import_failing_once)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert failed and "g2048.py" in arcade.screen.labels and "2048" not in arcade.screen.labels
    kept = {g["id"]: g for g in saves.read(store_dir / "games.json")["games"]}
    assert kept["g2048"]["stamp"] is None and type(kept["reversi"]["stamp"]) is list
    rebooted = boot(board, store_dir)
    to_menu(board, rebooted)
    assert "2048" in rebooted.screen.labels and "g2048.py" not in rebooted.screen.labels
    kept = {g["id"]: g for g in saves.read(store_dir / "games.json")["games"]}
    assert "error" not in kept["g2048"] and type(kept["g2048"]["stamp"]) is list
    choose(board, rebooted, "2048")
    assert type(rebooted.screen).__name__ == "Game"
