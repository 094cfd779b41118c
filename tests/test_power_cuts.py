"""Power cuts during a save, at every step, on a FAT-like and a littlefs-like
filesystem: after the reboot the file holds the old state or the new one,
never nothing and never a damaged file.

The stand-in filesystem counts the operations a save makes (open for
writing, write, close, rename, remove) and cuts the power at the k-th: a
write that is cut leaves half of its text on the flash, and nothing after
the cut runs. FAT refuses to rename onto an existing name (the store then
removes the old file first); littlefs replaces it in one step. Every k is
tried, up to the first k the save does not reach."""
import errno
import random

import pytest

from firmware.boards import ml4m
from firmware import gamelist
from firmware.app import App
from firmware.games.npuzzle import Puzzle
from firmware.games import npuzzle_setup
from firmware.hal import Hal
from firmware.hal.store import Store
from firmware.settings import Settings
from tests.test_app import frames, nudge


class PowerCut(BaseException):
    """The board loses power: nothing after this point runs."""


class FlashFs:
    """Files in memory; fat=True: rename onto an existing name raises EEXIST."""

    def __init__(self, fat):
        self.fat = fat
        self.files = {}
        self.ops = 0
        self.cut_at = None        # the operation (1, 2, ...) the power fails at

    def _step(self):
        self.ops += 1
        if self.ops == self.cut_at:
            raise PowerCut()

    def open(self, path, mode):
        if "r" in mode:
            if path not in self.files:
                raise OSError(errno.ENOENT, "ENOENT")
            return _Reader(self.files[path])
        self._step()
        self.files[path] = ""
        return _Writer(self, path)

    def rename(self, old, new):
        self._step()
        if old not in self.files:
            raise OSError(errno.ENOENT, "ENOENT")
        if self.fat and new in self.files:
            raise OSError(errno.EEXIST, "EEXIST")
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        self._step()
        if path not in self.files:
            raise OSError(errno.ENOENT, "ENOENT")
        del self.files[path]

    def mkdir(self, path):
        pass


class _Reader:
    def __init__(self, text):
        self.text = text

    def read(self):
        return self.text

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path

    def write(self, text):
        try:
            self.fs._step()
        except PowerCut:
            self.fs.files[self.path] += text[:len(text) // 2]   # half made it
            raise
        self.fs.files[self.path] += text

    def close(self):
        self.fs._step()


def _puzzle_save(moves):
    random.seed(1)
    p = Puzzle(4)
    npuzzle_setup.shuffle_walk(p, random, 20)
    for d in (0, 2, 1, 3, 0, 2, 1, 3)[:moves]:
        p.push(d)
    return {"size": 4, "mode": "numbers", "puzzle": p.to_dict(), "ms": 1000 * moves,
            "level": 0, "optimal": None, "helped": False}


# (store name, old value, new value): a game in progress, settings, records
SAVES = [
    ("puzzle15", _puzzle_save(3), _puzzle_save(4)),
    ("settings", {"sound": True, "volume": 3, "brightness": 3},
     {"sound": False, "volume": 1, "brightness": 2}),
    ("records", {"2048": {"best score": 1200}, "8-Puzzle numbers": {"fewest moves": 22}},
     {"2048": {"best score": 1200, "best tile": 256}, "8-Puzzle numbers": {"fewest moves": 21}}),
]


def _sweep(fat, name, old, new, first_save):
    """Cut the power at every operation of saving new over old (or over
    nothing, for a first save); returns how many cuts were tried."""
    k = 0
    while True:
        k += 1
        fs = FlashFs(fat)
        if not first_save:
            assert Store("/data", fs).save(name, old)
        fs.ops = 0
        fs.cut_at = k
        try:
            Store("/data", fs).save(name, new)
            return k - 1                     # the save is done before step k
        except PowerCut:
            pass
        fs.cut_at = None
        rebooted = Store("/data", fs)
        value = rebooted.load(name, {})
        if first_save:
            assert value in ({}, new), (fat, name, k, fs.files)
        else:
            assert value in (old, new), (fat, name, k, fs.files)   # never lost
        assert rebooted.bad == [], (fat, name, k, rebooted.bad)    # never "damaged"
        # and the store goes on: the next save and load work
        assert rebooted.save(name, new) and Store("/data", fs).load(name, {}) == new


@pytest.mark.parametrize("fat", [True, False], ids=["fat", "littlefs"])
@pytest.mark.parametrize("name,old,new", SAVES, ids=[s[0] for s in SAVES])
def test_a_power_cut_at_any_step_of_a_save_keeps_the_old_or_the_new(fat, name, old, new):
    cuts = _sweep(fat, name, old, new, first_save=False)
    # write tmp (open, write, write the checksum, close), then rename; on FAT
    # the rename fails, the old file is removed and the rename tried again
    assert cuts == (7 if fat else 5)


@pytest.mark.parametrize("fat", [True, False], ids=["fat", "littlefs"])
def test_a_power_cut_during_a_first_save_leaves_nothing_or_the_new(fat):
    assert _sweep(fat, "records", None, {"2048": {"best score": 4}}, first_save=True) == 5


@pytest.mark.parametrize("fat", [True, False], ids=["fat", "littlefs"])
def test_the_fat_cut_that_lost_saves_before(fat):
    # FAT, cut between removing the old file and renaming the new one: only
    # the complete name.json.tmp is left; the boot used to delete it
    fs = FlashFs(fat)
    store = Store("/data", fs)
    store.save("puzzle15", _puzzle_save(3))
    fs.files["/data/puzzle15.json.tmp"] = fs.files.pop("/data/puzzle15.json")
    assert Store("/data", fs).load("puzzle15", {}) == _puzzle_save(3)
    assert "/data/puzzle15.json" in fs.files and "/data/puzzle15.json.tmp" not in fs.files


def test_a_cut_short_tmp_beside_a_missing_file_is_not_promoted():
    fs = FlashFs(True)
    Store("/data", fs).save("settings", {"volume": 2})
    text = fs.files.pop("/data/settings.json")
    fs.files["/data/settings.json.tmp"] = text[:-3]        # its checksum is wrong now
    store = Store("/data", fs)
    assert store.load("settings", {"volume": 3}) == {"volume": 3}
    assert "/data/settings.json.tmp" not in fs.files and store.bad == []


def _game_program(fs, title):
    """The game's own program on this flash, started as a launch starts it
    (firmware/launch.py): the note the menu writes, then the game's App."""
    hal = Hal(ml4m, "data", fs)
    menu = App(hal, Settings(hal.store))
    note = gamelist.launch_note(menu, gamelist.entry_key(menu, title))
    arcade = App(hal, menu.settings, note=note)
    arcade.start()
    return arcade


@pytest.mark.parametrize("fat", [True, False], ids=["fat", "littlefs"])
def test_a_game_in_progress_survives_a_cut_at_every_step_of_a_move(board, fat):
    """The whole app: a 15-puzzle move saves the game; the power fails at
    step k of that save; after the reboot the game opens with the moves of
    before the move or after it."""
    k = 0
    seen = set()
    while True:
        k += 1
        fs = FlashFs(fat)
        arcade = _game_program(fs, "15-Puzzle")
        frames(arcade, 2)
        game = arcade.screen
        for direction in ("left", "up", "right", "down"):   # a game in progress
            nudge(board, arcade, direction)
        before = game.puzzle.moves
        assert before > 0
        fs.ops = 0
        fs.cut_at = k
        try:
            for direction in ("right", "down", "left"):
                nudge(board, arcade, direction)
                if game.puzzle.moves != before:
                    break
        except PowerCut:
            pass
        else:
            assert k > 1
            break
        fs.cut_at = None
        rebooted = _game_program(fs, "15-Puzzle")
        frames(rebooted, 2)
        assert type(rebooted.screen).__name__ == "Game"
        moves = rebooted.screen.puzzle.moves
        assert moves in (before, before + 1), (k, moves, before)
        seen.add(moves - before)
    # littlefs: the new state appears only with the last step (the rename);
    # FAT: a cut between its remove and rename keeps the new one (the .tmp)
    assert seen == ({0, 1} if fat else {0})


# ---- a game's own settings file (data/<game>_settings.json) -----------------
def _declared(module_name):
    """The game's declaration as the arcade keeps it (gamelist.games())."""
    import importlib
    from firmware import modules
    from firmware.gamereader import read_declaration
    modules.forget(module_name)      # a game left running has let its GAME go
    game = read_declaration(importlib.import_module(module_name).GAME, module_name)
    game["id"] = module_name[module_name.rfind(".") + 1:]
    return game


# (game module, its settings before, the setting changed and its new value):
# each "before" differs from the defaults in a setting the change leaves alone,
# so settings made up afresh (a mix of old and new) would show
GAME_SETTINGS = [
    ("firmware.screens.reversi", {"hints": True, "level": 0, "mode": 1}, "hints", False),
    ("firmware.screens.puzzle", {"mode": "picture", "big": 5, "level_puzzle8": 2,
                                 "level_puzzle15": 1, "picture_puzzle8": "b.pbm",
                                 "picture_puzzle15": ""}, "mode", "numbers"),
]


@pytest.mark.parametrize("fat", [True, False], ids=["fat", "littlefs"])
@pytest.mark.parametrize("module_name,old,setting,value", GAME_SETTINGS,
                         ids=[c[0].rsplit(".", 1)[1] for c in GAME_SETTINGS])
def test_a_power_cut_at_any_step_of_a_game_setting_change(fat, module_name, old, setting, value):
    """A game's settings go through the store's one load: the cut between
    FAT's remove and rename leaves the complete .tmp, which is put in place
    (it used to be overwritten by settings made up afresh: neither old nor new)."""
    from firmware.game_settings import file_name, game_values, set_game_value
    game = _declared(module_name)
    new = dict(old, **{setting: value})
    seen = set()
    k = 0
    while True:
        k += 1
        fs = FlashFs(fat)
        assert Store("/data", fs).save(file_name(game), old)
        fs.ops = 0
        fs.cut_at = k
        try:
            assert set_game_value(Store("/data", fs), game, setting, value)
            break                              # the change is done before step k
        except PowerCut:
            pass
        fs.cut_at = None
        rebooted = Store("/data", fs)
        values = game_values(rebooted, game)
        assert values in (old, new), (fat, k, values, fs.files)
        assert rebooted.bad == [] and rebooted.notes == [], (fat, k)
        assert "/data/%s.json.tmp" % file_name(game) not in fs.files
        seen.add("new" if values == new else "old")
    # the load before the change removes a leftover .tmp (there is none: one
    # step), then the save's steps as above
    assert k - 1 == 1 + (7 if fat else 5)
    # FAT: a cut between its remove and rename keeps the new (the .tmp)
    assert seen == ({"old", "new"} if fat else {"old"})


def test_the_fat_cut_on_reversis_settings_at_boot(board, store_dir):
    """The issue's repro: only the complete .tmp of Reversi's settings is
    left; the boot (which moves an older firmware's settings first) puts it
    in place, and Reversi starts with it."""
    Store(str(store_dir)).save("reversi_settings", {"hints": False, "level": 0, "mode": 1})
    (store_dir / "reversi_settings.json").rename(store_dir / "reversi_settings.json.tmp")
    from tests.test_app import boot, to_menu, choose
    from tests import saves
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert saves.read(store_dir / "reversi_settings.json") == {"hints": False, "level": 0,
                                                               "mode": 1}
    assert not (store_dir / "reversi_settings.json.tmp").exists()
    choose(board, arcade, "Reversi")
    assert arcade.screen.settings == {"hints": False, "level": 0, "mode": 1}
