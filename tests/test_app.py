"""The launcher on the emulated board: boot, menu, settings, records, resilience."""
import importlib
import os
import re
import sys
import types

import pytest

from firmware import app as app_module
from firmware.boards import ml4m
from firmware.screens.base import Screen
from tests.panel import shows
from tools.emu.runner import Runner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRAME_MS = 1000 // ml4m.FPS


# fn(runner) called before each start of the firmware in every runner boot()
# makes: a fixture's patch that must hold in every program (it removes its own)
EVERY_PROGRAM = []


def boot(board, store_dir, games=None):
    """Power on: the firmware on the board (tools/emu/runner.py: a launch's
    soft reset starts it again, as main.py does), the app at its splash
    screen. Read it as the app: arcade.screen, arcade.hal, ..."""
    return Runner(board, store_dir, ml4m, games_folder=games, before_start=EVERY_PROGRAM)


def patch(arcade, monkeypatch, module, name, value):
    """Set module's name ("Class.method" or a function's name) to value in
    this program and in every one the runner starts after it: a soft reset
    imports the firmware afresh, as the board does."""
    def apply(_runner=None):
        target = importlib.import_module(module)
        *owner, attr = name.split(".")
        for part in owner:
            target = getattr(target, part)
        monkeypatch.setattr(target, attr, value)
    apply()
    arcade.before_start.append(apply)


def frames(arcade, n=1):
    for _ in range(n):
        arcade.step()


def wait(arcade, ms):
    frames(arcade, max(1, ms // FRAME_MS))


def tap(board, arcade, button):
    """Press for a few frames and let go, the way a thumb does."""
    board.press(button)
    frames(arcade, 3)
    board.release(button)
    frames(arcade, 3)


def nudge(board, arcade, direction):
    board.push(direction)
    frames(arcade, 2)
    board.center()
    frames(arcade, 3)


def to_menu(board, arcade):
    wait(arcade, 1700)  # the splash shows for 1.5 s
    assert type(arcade.screen).__name__ == "Menu"


def choose(board, arcade, label):
    """Move the menu cursor to label and press A."""
    menu = arcade.screen
    labels = menu.labels
    target = labels.index(label)
    while menu.cursor != target:
        nudge(board, arcade, "down")
    tap(board, arcade, "A")


def set_game_setting(arcade, game_id, name, value):
    """Change a game's setting as the Settings screen does (saved in its file)."""
    from firmware import gamelist
    assert gamelist.set_setting(arcade, game_id, name, value)


def test_boots_to_the_menu(board, store_dir):
    arcade = boot(board, store_dir)
    frames(arcade, 2)
    assert shows(board.panel, "ARCADE")           # the splash
    to_menu(board, arcade)
    for label in ("ML4M Arcade", "15-Puzzle", "8-Puzzle", "2048", "Reversi", "Play a friend"):
        assert shows(board.panel, label), label


def test_any_button_skips_the_splash(board, store_dir):
    arcade = boot(board, store_dir)
    frames(arcade, 2)
    tap(board, arcade, "C")
    assert type(arcade.screen).__name__ == "Menu"


def test_menu_moves_with_auto_repeat(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    board.push("down")
    wait(arcade, 700)   # first repeat after the delay, then at the repeat rate
    board.center()
    frames(arcade, 2)
    assert arcade.screen.cursor >= 3


@pytest.mark.parametrize("label,screen", [("Records", "Records"), ("Settings", "SettingsScreen"),
                                          ("About", "About")])
def test_system_entries_open_and_come_back(board, store_dir, label, screen):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, label)
    assert type(arcade.screen).__name__ == screen
    assert shows(board.panel, label)
    tap(board, arcade, "B")
    assert type(arcade.screen).__name__ == "Menu"


BUILT_IN = [("15-Puzzle", "firmware.screens.puzzle"), ("8-Puzzle", "firmware.screens.puzzle"),
            ("2048", "firmware.screens.g2048"), ("Reversi", "firmware.screens.reversi")]


MENU_MODULES = ("firmware.screens.menu", "firmware.screens.splash", "firmware.gamelist",
                "firmware.gamereader", "firmware.game_settings", "firmware.gamefiles")


@pytest.mark.parametrize("title,module", BUILT_IN)
def test_every_game_opens_in_a_program_of_its_own_and_comes_back(board, store_dir, title, module):
    sys.modules.pop(module, None)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert module not in sys.modules          # the menu knows the game without its code
    resets = arcade.resets                    # (1: the splash's program ended for the menu's)
    choose(board, arcade, title)
    assert type(arcade.screen).__name__ == "Game" and arcade.resets == resets + 1   # a soft reset
    assert module in sys.modules
    assert not [name for name in MENU_MODULES if name in sys.modules]   # a fresh heap
    wait(arcade, 300)
    tap(board, arcade, "B")
    wait(arcade, 200)
    assert type(arcade.screen).__name__ == "Menu" and arcade.resets == resets + 2
    assert arcade.screen.labels[arcade.screen.cursor] == title   # the cursor where it was
    assert module not in sys.modules          # the game's program ended with it


def test_settings_are_saved_applied_and_survive_a_reboot(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Settings")
    assert arcade.settings["sound"] is True
    tap(board, arcade, "A")                    # Sound: on -> off
    assert arcade.hal.sound.muted
    nudge(board, arcade, "down")               # Volume
    nudge(board, arcade, "down")               # Brightness
    nudge(board, arcade, "left")
    level = arcade.settings["brightness"]
    assert level == 2                          # one step down from the default 3
    assert board.panel.contrast == ml4m.DISPLAY_CONTRAST[level]

    rebooted = boot(board, store_dir)          # a new HAL on the same flash
    assert rebooted.settings["sound"] is False
    assert rebooted.hal.sound.muted
    assert rebooted.settings["brightness"] == level


def test_settings_keeps_only_what_the_games_settings_need(board, store_dir):
    """Heap: the Settings program keeps of each game's declaration its id,
    title and settings, and lets the game list's module go once read; a game
    row still changes and saves the game's setting."""
    import json
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Settings")
    assert "firmware.gamelist" not in sys.modules
    games = [what[0] for kind, _, what in arcade.screen.rows if kind == "game"]
    assert games and all(set(game) == {"id", "title", "settings"} for game in games)
    while arcade.screen.rows[arcade.screen.cursor][1] != "CPU level":
        nudge(board, arcade, "down")
    nudge(board, arcade, "right")                  # medium -> hard
    assert shows(board.panel, "hard")
    saved = json.loads((store_dir / "reversi_settings.json").read_text().split("\n")[0])
    assert saved["level"] == 2


def test_reset_records_asks_first(board, store_dir):
    arcade = boot(board, store_dir)
    arcade.records.best("2048", "best score", 1234, lower_is_better=False)
    to_menu(board, arcade)
    choose(board, arcade, "Settings")
    while arcade.screen.rows[arcade.screen.cursor][1] != "Reset records":
        nudge(board, arcade, "down")
    tap(board, arcade, "A")
    assert shows(board.panel, "Reset records?")
    tap(board, arcade, "B")                    # no
    assert arcade.records.get("2048") == {"best score": 1234}
    tap(board, arcade, "A")
    tap(board, arcade, "A")                    # yes
    assert arcade.records.data == {}


def test_records_screen_lists_what_games_saved(board, store_dir):
    arcade = boot(board, store_dir)
    arcade.records.best("8-Puzzle", "fewest moves", 24)
    arcade.records.best("8-Puzzle", "fastest time", 75)
    to_menu(board, arcade)
    choose(board, arcade, "Records")
    assert shows(board.panel, "8-Puzzle")
    assert shows(board.panel, "1:15")


class Exploding(Screen):
    def update(self, now_ms):
        raise ValueError("the dog ate the tiles")


def test_a_game_that_raises_reaches_the_error_screen_and_the_log(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    arcade.switch(Exploding(arcade))
    frames(arcade, 2)
    assert type(arcade.screen).__name__ == "ErrorScreen"
    assert shows(board.panel, "Oops: ValueError")
    assert shows(board.panel, "the dog ate the")
    log = (store_dir / "crash.log").read_text()
    assert "the dog ate the tiles" in log and "Traceback" in log
    tap(board, arcade, "A")
    assert type(arcade.screen).__name__ == "Menu"   # no reboot loop, a working menu


def test_the_crash_log_stays_bounded(board, store_dir):
    from firmware import crashlog
    for i in range(200):
        crashlog.append(str(store_dir), ValueError("x" * 100), i)
    assert os.path.getsize(store_dir / "crash.log") <= crashlog.LIMIT + 1000
    assert os.path.exists(store_dir / "crash.log.old")


class Counter(Screen):
    """Counts the moves it is given, so a test can see stray input."""
    def __init__(self, app):
        Screen.__init__(self, app)
        self.moves = 0
        self.saved = 0

    def update(self, now_ms):
        from firmware.hal.controls import A, RIGHT
        if self.hal.controls.just_pressed(A) or self.hal.controls.repeat(RIGHT):
            self.moves += 1
        return None

    def suspend(self):
        self.saved += 1


def test_screen_saver_dims_sleeps_and_wakes_without_a_stray_move(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert arcade.settings.set("sleep", False)   # the panel alone (light sleep: test_sleep.py)
    counter = Counter(arcade)
    arcade.switch(counter)
    bright = board.panel.contrast
    wait(arcade, 31000)
    assert board.panel.contrast < bright and board.panel.on    # dimmed
    wait(arcade, 120000 - 31000 + 500)
    assert not board.panel.on                                 # asleep
    assert counter.saved >= 1                                 # saved before sleeping
    tap(board, arcade, "A")
    assert board.panel.on and board.panel.contrast == bright
    assert counter.moves == 0                                 # the wake-up press was not a move
    tap(board, arcade, "A")
    assert counter.moves == 1


def test_a_key_on_a_dimmed_panel_is_a_move_and_brightens_it(board, store_dir):
    """Dimmed (30 s without input), the board is still in sight: the first
    push moves a tile, as the player meant. Only a panel that was off takes
    its first key as a wake-up (the test above)."""
    import random
    random.seed(3)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "15-Puzzle")
    game = arcade.screen
    bright = board.panel.contrast
    for direction in ("left", "right", "up", "down"):    # one move made
        nudge(board, arcade, direction)
        if game.puzzle.moves:
            break
    moves = game.puzzle.moves
    assert moves == 1
    wait(arcade, 35000)
    assert board.panel.on and board.panel.contrast < bright       # dimmed
    blank = game.puzzle.blank
    nudge(board, arcade, "left" if game.puzzle.tile_for_push(0) >= 0 else "right")
    assert game.puzzle.blank != blank and game.puzzle.moves == moves + 1
    assert board.panel.contrast == bright
    assert shows(board.panel, str(moves + 1))


def test_safe_boot_skips_the_app(board, store_dir):
    board.press("B")
    result = board.run(lambda: app_module.main(ml4m, str(store_dir)), 2000)
    assert result is None                  # main() returned: the REPL is free
    assert shows(board.panel, "Safe boot")


def test_ctrl_c_gets_through_the_app(board, store_dir):
    # The board delivers Ctrl-C as a KeyboardInterrupt inside whatever the app is
    # doing (here: the frame sleep). The app catches Exception only, so it escapes.
    def interrupt():
        raise KeyboardInterrupt
    board.after(3000, interrupt)
    runner = Runner(board, store_dir, ml4m, start=False)   # main(), again after each reset
    with pytest.raises(KeyboardInterrupt):
        board.run(runner.run_main, 5000)
    assert runner.resets == 1                 # the splash ended: the menu's program


def test_a_full_flash_is_reported_on_screen_and_the_game_goes_on(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    arcade.hal.store.error = "Flash full"
    frames(arcade, 2)
    assert shows(board.panel, "Flash full")
    wait(arcade, 2500)
    assert not shows(board.panel, "Flash full")
    assert type(arcade.screen).__name__ == "Menu"


def test_what_runs_rarely_is_in_the_heap_only_while_it_runs(board, store_dir):
    # start-up (firmware/start_up.py), the checks of stored values and the
    # store's notes are imported when needed and forgotten afterwards
    arcade = boot(board, store_dir)
    assert "firmware.start_up" not in sys.modules
    to_menu(board, arcade)
    choose(board, arcade, "2048")
    assert type(arcade.screen).__name__ == "Game"
    assert "firmware.check" not in sys.modules      # the save was read: the checks went
    assert "firmware.store_notes" not in sys.modules
    arcade.hal.store.error = "Flash full"
    arcade.hal.store.notes.append("Saved game\nreset")
    frames(arcade, 2)
    assert "firmware.store_notes" in sys.modules and shows(board.panel, "Flash full")
    wait(arcade, 2500)
    assert "firmware.store_notes" in sys.modules and shows(board.panel, "Saved game")
    wait(arcade, 2500)
    assert "firmware.store_notes" not in sys.modules
    assert not shows(board.panel, "Saved game")


def test_no_memory_for_a_note_delays_it_and_the_game_goes_on(board, store_dir, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_memory(name, *args, **kwargs):
        if name == "firmware.store_notes":
            raise MemoryError()
        return real(name, *args, **kwargs)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    monkeypatch.setattr(builtins, "__import__", no_memory)
    arcade.hal.store.error = "Flash full"
    frames(arcade, 3)                         # nothing escapes step()
    assert not shows(board.panel, "Flash full")
    monkeypatch.undo()
    frames(arcade, 2)                         # memory again: the note was kept
    assert shows(board.panel, "Flash full")
    nudge(board, arcade, "down")
    assert type(arcade.screen).__name__ == "Menu" and arcade.screen.cursor == 1


def test_a_panel_plugged_in_later_or_lost_and_back_gets_the_picture(board, store_dir):
    board.display_present = False
    arcade = boot(board, store_dir)
    to_menu(board, arcade)                   # headless, the app runs on
    assert not arcade.hal.display.present
    board.bus.reset()
    wait(arcade, 4100)
    # looked for every 2 s, with one two-byte write each time
    assert board.bus.transactions == 2 and board.bus.bytes == 2
    board.display_present = True
    wait(arcade, 2100)
    assert arcade.hal.display.present and shows(board.panel, "15-Puzzle")
    # a wire that comes loose while a game runs: the game goes on, the panel
    # is found again and shows the game as it is now
    choose(board, arcade, "2048")
    board.display_present = False
    nudge(board, arcade, "left")             # (one of the two moves some tile)
    nudge(board, arcade, "right")
    assert not arcade.hal.display.present
    board.display_present = True
    wait(arcade, 2100)
    assert arcade.hal.display.present and type(arcade.screen).__name__ == "Game"
    pixels = board.panel.pixels()
    assert all(bool(pixels[y][x]) == bool(arcade.hal.display.fb.pixel(x, y))
               for y in range(64) for x in range(128))
