"""Bad data never bricks the board: a damaged value in any field of a game
save (or in the settings, the records, a game's settings or the session)
boots the whole app on the emulated board and opens the screen that reads it
with no crash screen.

A game save that fails its checks is set aside as <name>.bad (its exact
text kept), the reason goes to the crash log, the game starts afresh, and
the player sees a note once. The junk tried in every field: wrong types,
out of range, huge numbers (1e400, which JSON reads as infinity), wrong
lengths, null and nested junk."""
import json
import random

import pytest

from firmware import gamelist
from firmware.games.game2048 import Game2048
from firmware.games.npuzzle import Puzzle
from firmware.games import npuzzle_setup
from tests.panel import shows
from tests.test_app import boot, frames, to_menu, choose, tap, wait, nudge

HUGE = "__HUGE__"          # written as the JSON number 1e400
NESTED = [[{"x": [None, {"y": []}]}]]
JUNK = [None, True, 1.5, "7", [], {}, -1, 10 ** 12, HUGE, NESTED]


def _puzzle_save(width, optimal):
    random.seed(width)
    p = Puzzle(width)
    npuzzle_setup.shuffle_walk(p, random, 12)
    for d in (0, 1, 2, 3, 0, 2):
        p.push(d)
    return {"size": width, "mode": "numbers", "puzzle": p.to_dict(), "ms": 12345,
            "level": 1, "optimal": optimal, "helped": False}


def _g2048_save():
    random.seed(3)
    g = Game2048(random)
    g.new_game()
    for d in (0, 2, 1, 3, 0, 2):
        g.slide(d)
    return {"game": g.to_dict()}


def _reversi_save():
    return {"v": 1, "game": {"v": 1, "moves": ["f5", "d6", "c3", "d3"]},
            "mode": 0, "level": 1, "rated": True}


# title -> (store name, a good save, the note's first line, moves made)
GAMES = {
    "15-Puzzle": ("puzzle15", _puzzle_save(4, None), "15-Puzzle reset",
                  lambda s: s.puzzle.moves),
    "8-Puzzle": ("puzzle8", _puzzle_save(3, 14), "8-Puzzle reset",
                 lambda s: s.puzzle.moves),
    "2048": ("g2048", _g2048_save(), "2048 reset", lambda s: s.game.moves),
    "Reversi": ("reversi", _reversi_save(), "Reversi reset", lambda s: s.game.ply),
}

# For each game: the fields (paths into the save) and the junk that is a
# legal value there (null for an optional field, true for a flag).
FIELDS = {
    "15-Puzzle": [(("size",), ()), (("mode",), ()), (("puzzle",), ()), (("ms",), ()),
                  (("level",), ()), (("optimal",), (None,)), (("helped",), (True,)),
                  (("puzzle", "width"), ()), (("puzzle", "tiles"), ()),
                  (("puzzle", "tiles", 0), ()), (("puzzle", "moves"), ()),
                  (("puzzle", "history"), ([],)), (("puzzle", "history", 0), ())],
    "2048": [(("game",), ()), (("game", "board"), ()), (("game", "board", 5), ()),
             (("game", "score"), ()), (("game", "moves"), ()), (("game", "won"), (True,)),
             (("game", "keep_going"), (True,)), (("game", "undo"), (None,)),
             (("game", "undo", "board"), ()), (("game", "undo", "score"), ()),
             (("game", "undo", "won"), (True,))],
    "Reversi": [(("mode",), ()), (("level",), ()), (("rated",), (True,)), (("game",), ({},)),
                (("game", "moves"), ([],)), (("game", "moves", 2), ()),
                (("game", "start"), (None,))],
}
FIELDS["8-Puzzle"] = FIELDS["15-Puzzle"]
# a 4-move Reversi game with its last move changed to "pass" or "a1" is an
# illegal game; an empty list is a legal record (no game in progress)
WRONG_LENGTHS = {
    "15-Puzzle": {("puzzle", "tiles"): "drop", ("puzzle", "history"): "long"},
    "2048": {("game", "board"): "drop", ("game", "undo", "board"): "drop"},
    "Reversi": {("game", "moves"): "long"},
}
WRONG_LENGTHS["8-Puzzle"] = WRONG_LENGTHS["15-Puzzle"]


def _get(data, path):
    for key in path:
        data = data[key]
    return data


def _put(data, path, value):
    data = json.loads(json.dumps(data))
    _get(data, path[:-1])[path[-1]] = value
    return data


def _text(data):
    return json.dumps(data).replace('"%s"' % HUGE, "1e400")


def _cases():
    for title, fields in FIELDS.items():
        for path, legal in fields:
            for junk in JUNK:
                yield title, path, junk, any(junk == ok and type(junk) is type(ok) for ok in legal)
            if path in WRONG_LENGTHS[title]:
                yield title, path, WRONG_LENGTHS[title][path], False


CASES = list(_cases())


def _damaged(title, path, junk):
    name, good, _note, _moves = GAMES[title]
    if junk == "drop":
        return _put(good, path, _get(good, path)[:-1])
    if junk == "long":
        longer = _get(good, path) * 200
        return _put(good, path, longer)
    return _put(good, path, junk)


def _open(board, store_dir, title):
    """Boot the whole app and open the game as its menu entry does (the
    splash skipped: the menu's own tests walk it)."""
    arcade = boot(board, store_dir)
    frames(arcade, 2)
    arcade.play(title)
    frames(arcade, 2)
    return arcade


def _swap(tiles, a, b):
    tiles = list(tiles)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    return tiles


def _nonblank(tiles):
    return [i for i, t in enumerate(tiles) if t][:2]


# values of the right type and length that the rules still refuse
_P15 = GAMES["15-Puzzle"][1]["puzzle"]["tiles"]
_P8 = GAMES["8-Puzzle"][1]["puzzle"]["tiles"]
_BOARD = GAMES["2048"][1]["game"]["board"]
SEMANTIC = [
    ("15-Puzzle", ("puzzle", "tiles"), [_P15[1]] + _P15[1:]),          # a tile twice
    ("15-Puzzle", ("puzzle", "tiles"), _swap(_P15, *_nonblank(_P15))),  # unsolvable
    ("8-Puzzle", ("puzzle", "tiles"), _swap(_P8, *_nonblank(_P8))),
    ("8-Puzzle", ("puzzle", "history"), [0, 1, 9]),                    # a cell off the board
    ("8-Puzzle", ("size",), 5),                  # another puzzle's size: was replaced unseen
    ("8-Puzzle", ("size",), 4),
    ("15-Puzzle", ("size",), 3),                 # (5 is a 24-puzzle's: it may be)
    ("2048", ("game", "board"), [17, 17] + _BOARD[2:]),               # 131072 twice, side by side
    ("2048", ("game", "board"), [17, 0, 0, 17] + _BOARD[4:]),         # ...with nothing between
    ("2048", ("game", "board"), [18] + _BOARD[1:]),                   # past the largest tile
    ("Reversi", ("game", "moves"), ["f5", "a1"]),                      # an illegal move
    ("Reversi", ("game", "moves"), ["f5", "zz"]),                      # not a square
    ("Reversi", ("game", "start"), "X" * 63 + "?"),                   # not a position
]


@pytest.mark.parametrize("title,path,value", SEMANTIC,
                         ids=["%s-%s-%d" % (c[0], "/".join(c[1]), i) for i, c in enumerate(SEMANTIC)])
def test_a_save_the_rules_refuse_is_set_aside(board, store_dir, title, path, value):
    name, good, note, moves = GAMES[title]
    text = _text(_put(good, path, value))
    (store_dir / (name + ".json")).write_text(text)
    arcade = _open(board, store_dir, title)
    assert type(arcade.screen).__name__ == "Game"
    assert (store_dir / (name + ".bad")).read_text() == text
    assert moves(arcade.screen) == 0 and shows(board.panel, note)


@pytest.mark.parametrize("title", list(GAMES))
def test_a_good_save_of_every_game_is_resumed(board, store_dir, title):
    name, good, _note, moves = GAMES[title]
    (store_dir / (name + ".json")).write_text(json.dumps(good))
    arcade = _open(board, store_dir, title)
    assert type(arcade.screen).__name__ == "Game"
    assert moves(arcade.screen) > 0          # the game in progress, not a new one
    assert not (store_dir / (name + ".bad")).exists()


@pytest.mark.parametrize("title,path,junk,legal", CASES,
                         ids=["%s-%s-%r" % (c[0], "/".join(map(str, c[1])), c[2])[:60]
                              for c in CASES])
def test_a_damaged_game_save_is_set_aside_and_the_game_starts_afresh(
        board, store_dir, title, path, junk, legal):
    name, _good, note, moves = GAMES[title]
    text = _text(_damaged(title, path, junk))
    (store_dir / (name + ".json")).write_text(text)
    arcade = _open(board, store_dir, title)
    screen = arcade.screen
    assert type(screen).__name__ == "Game", "crash screen or no game"
    bad = store_dir / (name + ".bad")
    if legal:
        return                                    # a value the save may hold
    assert bad.read_text() == text                # kept as it was, not dropped
    assert moves(screen) == 0                     # a new game
    assert shows(board.panel, note)               # the player is told
    log = (store_dir / "crash.log").read_text()
    assert "%s.json set aside" % name in log


@pytest.mark.parametrize("title", list(GAMES))
def test_the_note_is_shown_once(board, store_dir, title):
    name, good, note, _moves = GAMES[title]
    (store_dir / (name + ".json")).write_text('{"game": 1, "puzzle": 1}')
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, title)
    assert shows(board.panel, note) and shows(board.panel, "file damaged")
    frames(arcade, 90)                            # 3 s later the note is gone
    assert not shows(board.panel, note)
    tap(board, arcade, "B")
    choose(board, arcade, title)                  # and does not come back
    frames(arcade, 2)
    assert not shows(board.panel, note)


# ---- settings and records: no crash at boot, the file set aside or the value
# ignored (the settings' and records' own checks add stricter tests) ----------
SETTINGS = ["sound", "volume", "brightness", "saver_s", "sleep", "reversi_hints", "reversi_level",
            "puzzle_mode", "puzzle_size"]


# the screens that read each setting (all of them: the menu and Settings)
READERS = {"reversi_hints": ["Reversi"], "reversi_level": ["Reversi"],
           "puzzle_mode": ["15-Puzzle", "8-Puzzle"], "puzzle_size": ["15-Puzzle"]}


def _visit(board, arcade, titles):
    """Open each screen from the menu and go back: none may crash."""
    to_menu(board, arcade)
    for title in titles:
        choose(board, arcade, title)
        frames(arcade, 5)
        assert type(arcade.screen).__name__ != "ErrorScreen", title
        tap(board, arcade, "B")
        frames(arcade, 3)
        assert type(arcade.screen).__name__ == "Menu", title


def _visit_everything(board, arcade):
    _visit(board, arcade, [title for _, title, _, _ in gamelist.entries(arcade)] + ["Records", "Settings"])


# where an older firmware's settings.json keys live now: (game module, setting)
MIGRATED = {"reversi_hints": ("firmware.screens.reversi", "hints"),
            "reversi_level": ("firmware.screens.reversi", "level"),
            "puzzle_mode": ("firmware.screens.puzzle", "mode"),
            "puzzle_size": ("firmware.screens.puzzle", "big")}


def _setting_fits(arcade, key):
    """The value the firmware uses now for key fits its declaration exactly."""
    if key not in MIGRATED:
        from firmware.settings import CHOICES
        default, allowed = CHOICES[key]
        value = arcade.settings[key]
        return value in allowed and type(value) is type(default)
    import importlib
    from firmware.gamereader import own_settings
    module_name, name = MIGRATED[key]
    module = importlib.import_module(module_name)
    values, _ = own_settings(arcade.hal.store, module_name)
    setting = [s for s in module.GAME["settings"] if s[0] == name][0]
    return any(type(v) is type(values[name]) and v == values[name] for v, _ in setting[2])


@pytest.mark.parametrize("key", SETTINGS)
@pytest.mark.parametrize("junk", [3.0, 1.0, True, None, "x", [], {}, -1, 10 ** 12, HUGE, NESTED])
def test_a_damaged_setting_never_stops_the_board(board, store_dir, key, junk):
    (store_dir / "settings.json").write_text(_text({key: junk}))
    arcade = boot(board, store_dir)
    _visit(board, arcade, READERS.get(key, []) + ["Settings"])
    set_aside = (store_dir / "settings.bad").exists()
    assert set_aside or _setting_fits(arcade, key)


@pytest.mark.parametrize("junk", [
    "x", None, [], {}, 1.5, HUGE, NESTED, {"2048": "x"}, {"2048": {"best score": "x"}},
    {"2048": {"best score": None, "best tile": []}}, {"8-Puzzle numbers": {"fewest moves": {}}},
    {"Reversi": [1, 2]}])
def test_damaged_records_never_stop_the_board(board, store_dir, junk):
    (store_dir / "records.json").write_text(_text(junk))
    arcade = boot(board, store_dir)
    _visit(board, arcade, ["Records", "2048", "8-Puzzle"])


def test_a_brightness_that_breaks_the_panel_driver_boots_with_the_defaults(board, store_dir):
    # the brick: {"brightness": 3.0} passed `3.0 in (1, 2, 3, 4)`
    (store_dir / "settings.json").write_text('{"brightness": 3.0}')
    arcade = boot(board, store_dir)
    assert arcade.settings["brightness"] == 3 and type(arcade.settings["brightness"]) is int
    _visit_everything(board, arcade)


# ---- a game's settings (data/<game>_settings.json) and the session ----------
def _declared_settings(module_name):
    import importlib
    return importlib.import_module(module_name).GAME["settings"]


# (file, the game module declaring its settings, the entry that reads them)
GAME_SETTINGS = [("puzzle_settings", "firmware.screens.puzzle", "8-Puzzle"),
                 ("puzzle_settings", "firmware.screens.puzzle", "15-Puzzle"),
                 ("reversi_settings", "firmware.screens.reversi", "Reversi")]


@pytest.mark.parametrize("name,module_name,title", GAME_SETTINGS, ids=[c[2] for c in GAME_SETTINGS])
def test_a_damaged_game_setting_never_stops_the_game(board, store_dir, name, module_name, title):
    declared = _declared_settings(module_name)
    defaults = {s[0]: s[3] for s in declared}
    cases = 0
    for setting in declared:
        allowed = [pair[0] for pair in setting[2]] if setting[2] != "text" else None
        for junk in JUNK:
            for leftover in store_dir.iterdir():
                leftover.unlink()
            text = _text(dict(defaults, **{setting[0]: junk}))
            (store_dir / (name + ".json")).write_text(text)
            arcade = _open(board, store_dir, title)
            assert type(arcade.screen).__name__ == "Game", (setting[0], junk)
            legal = (type(junk) is str and len(junk) <= 32 if allowed is None
                     else any(type(v) is type(junk) and v == junk for v in allowed))
            if not legal:
                assert (store_dir / (name + ".bad")).read_text() == text, (setting[0], junk)
            cases += 1
    assert cases == len(declared) * len(JUNK)


@pytest.mark.parametrize("junk", JUNK + [[5], ["x" * 41], {"recent": 1}])
def test_a_damaged_session_never_stops_the_menu(board, store_dir, junk):
    value = junk if type(junk) is dict else {"recent": junk}
    text = _text(value)
    (store_dir / "session.json").write_text(text)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    frames(arcade, 3)
    assert type(arcade.screen).__name__ == "Menu"
    if junk not in ([], {}):                     # no games played yet; the default list
        assert (store_dir / "session.bad").read_text() == text


# ---- what the player is told: one note per damaged file, in their words ------
def _notes_seen(arcade):
    """Every note the panel shows from now on, in order (the app's toast)."""
    seen = []
    step = arcade.step

    def step_and_look():
        step()
        if arcade.toast is not None and (not seen or seen[-1] != arcade.toast):   # (carried over a reset: equal, not the same)
            seen.append(arcade.toast)
    arcade.step = step_and_look
    return seen


def _visit_twice(board, arcade):
    to_menu(board, arcade)
    titles = [title for _, title, _, _ in gamelist.entries(arcade)] + ["Records", "Settings"]
    for _ in range(2):
        _visit(board, arcade, titles)
        wait(arcade, 3000)                         # the last note's time is up


@pytest.mark.parametrize("name,title", [("reversi_settings", "Reversi"),
                                        ("puzzle_settings", "Puzzles")])
def test_a_game_settings_file_that_is_a_folder_is_set_aside_with_one_note(
        board, store_dir, name, title):
    # it was taken for "no file yet": never set aside, every change "Not
    # saved!" and "No save folder" again at every return to the menu
    (store_dir / (name + ".json")).mkdir()
    arcade = boot(board, store_dir)
    seen = _notes_seen(arcade)
    _visit_twice(board, arcade)
    assert [text for text, _ in seen] == [title + "\nsettings reset"]
    assert (store_dir / (name + ".bad")).is_dir()
    assert (name, "unreadable") not in arcade.hal.store.bad    # logged, then dropped
    assert "%s.json set aside" % name in (store_dir / "crash.log").read_text()
    assert gamelist.set_setting(arcade, name[:name.index("_")],
                                "hints" if title == "Reversi" else "mode",
                                False if title == "Reversi" else "picture")


def test_notes_name_the_game_not_its_files(board, store_dir):
    (store_dir / "session.json").write_text('{"recent": ["puzzle/1"]}')   # 8-Puzzle
    (store_dir / "puzzle8.json").write_text("{cut short")
    (store_dir / "reversi_settings.json").write_text("[1, 2")
    (store_dir / "puzzle_prefs.json").write_text("\x00\x00")       # an older firmware's
    arcade = boot(board, store_dir)
    seen = _notes_seen(arcade)
    _visit_twice(board, arcade)
    texts = sorted(text for text, _ in seen)
    assert texts == ["8-Puzzle reset\nfile damaged", "Puzzles\nsettings reset",
                     "Reversi\nsettings reset"]
    assert max(len(line) for text in texts for line in text.split("\n")) <= 15   # the panel's


def test_a_file_where_the_save_folder_should_be_is_one_note(board, tmp_path):
    blocked = tmp_path / "data"
    blocked.write_text("")
    arcade = boot(board, blocked)
    seen = _notes_seen(arcade)
    _visit_twice(board, arcade)
    assert "2048" in arcade.screen.labels          # the games' list, though not kept
    choose(board, arcade, "2048")
    for _ in range(4):                             # moves that cannot be saved
        nudge(board, arcade, "left")
        nudge(board, arcade, "up")
    wait(arcade, 3000)
    assert type(arcade.screen).__name__ == "Game"
    assert [text for text, _ in seen] == ["No save folder\nnothing is kept"]
    assert arcade.hal.store.bad == [] and blocked.read_text() == ""


def test_a_reversi_save_with_too_many_moves_says_how_many_and_the_limit():
    from firmware.check import Invalid
    from firmware.games.reversi import MOST_PLIES
    from firmware.screens import save_checks
    save = _put(_reversi_save(), ("game", "moves"), ["f5"] * (MOST_PLIES + 1))
    with pytest.raises(Invalid, match="moves: %d, at most %d" % (MOST_PLIES + 1, MOST_PLIES)):
        save_checks.reversi(save)
