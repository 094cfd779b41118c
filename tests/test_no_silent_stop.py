"""No silent stop: every way the app could stop with no screen and no log,
injected one at a time on the emulated board. Each ends on a screen that
says what happened (or the safe menu), and the next frames run."""
import builtins

import pytest

from firmware import app as app_module
from firmware import gamelist
from firmware.records import Records
from firmware.settings import Settings
from firmware.screens.base import Screen
from tests.panel import shows
from tests.test_app import boot, frames, wait, tap, nudge, patch, to_menu, choose


def _name(arcade):
    return type(arcade.screen).__name__


class DrawRaises(Screen):
    def draw(self, display):
        raise ValueError("the pen ran dry")


class SuspendRaises(Screen):
    def suspend(self):
        raise OSError(5, "EIO")


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no text for this one")


class RaisesUnprintable(Screen):
    def update(self, now_ms):
        raise Unprintable()


def test_a_screen_whose_draw_raises_reaches_the_crash_screen(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    arcade.switch(DrawRaises(arcade))
    frames(arcade, 2)
    assert _name(arcade) == "ErrorScreen"
    assert shows(board.panel, "the pen ran dry")
    assert "the pen ran dry" in (store_dir / "crash.log").read_text()
    tap(board, arcade, "A")
    assert _name(arcade) == "Menu"


def test_settings_that_raise_at_start_up_are_set_aside(board, store_dir, monkeypatch):
    # a value the settings' checks let through but the hardware refuses
    (store_dir / "settings.json").write_text('{"brightness": 4}')
    real = Settings.apply

    def apply(self, hal):
        if self.values["brightness"] == 4:
            raise ValueError("contrast register says no")
        real(self, hal)
    monkeypatch.setattr(Settings, "apply", apply)
    arcade = boot(board, store_dir)
    assert arcade.settings["brightness"] == 3                       # the default
    assert (store_dir / "settings.bad").read_text() == '{"brightness": 4}'
    frames(arcade, 2)
    assert shows(board.panel, "Settings reset")
    assert "contrast register says no" in (store_dir / "crash.log").read_text()
    to_menu(board, arcade)


def test_records_that_raise_at_start_up_are_set_aside(board, store_dir, monkeypatch):
    (store_dir / "records.json").write_text('{"2048": {"best score": 10}}')
    real = Records.__init__

    def init(self, store):
        real(self, store)
        if self.data:
            raise TypeError("records in a shape nobody expected")
    monkeypatch.setattr(Records, "__init__", init)
    arcade = boot(board, store_dir)
    assert arcade.records.data == {}
    assert (store_dir / "records.bad").exists()
    to_menu(board, arcade)


def test_a_first_screen_that_raises_gives_the_crash_screen(board, store_dir, monkeypatch):
    from firmware.screens import splash

    def broken(self, app, **options):
        raise RuntimeError("splash broke")
    monkeypatch.setattr(splash.Splash, "__init__", broken)
    arcade = boot(board, store_dir)
    frames(arcade, 2)
    assert _name(arcade) == "ErrorScreen" and shows(board.panel, "splash broke")
    tap(board, arcade, "A")
    assert _name(arcade) == "Menu"


def test_a_save_that_raises_when_the_screen_saver_starts(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    arcade.switch(SuspendRaises(arcade))
    assert arcade.settings.set("sleep", False)   # (the panel goes off again after the crash)
    wait(arcade, 121000)                      # the saver calls suspend(): it raises
    assert _name(arcade) == "ErrorScreen"
    assert "EIO" in (store_dir / "crash.log").read_text()
    tap(board, arcade, "A")
    tap(board, arcade, "A")
    assert _name(arcade) == "Menu"


def test_a_memory_error_while_logging_still_shows_the_crash(board, store_dir, monkeypatch):
    def no_memory(*args):
        raise MemoryError()
    arcade = boot(board, store_dir)
    patch(arcade, monkeypatch, "firmware.crashlog", "append", no_memory)
    patch(arcade, monkeypatch, "firmware.crashlog", "format_exception", no_memory)
    to_menu(board, arcade)
    arcade.switch(DrawRaises(arcade))
    frames(arcade, 2)
    assert _name(arcade) == "ErrorScreen" and shows(board.panel, "A: menu (no log)")


def _no_memory_to_import(monkeypatch, names):
    real = builtins.__import__

    def no_memory(name, *args, **kwargs):
        if name in names:
            raise MemoryError()
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_memory)


def test_no_memory_for_the_error_screen_gives_the_bare_one(board, store_dir, monkeypatch):
    _no_memory_to_import(monkeypatch, ("firmware.screens.error", "firmware.crashlog"))
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    arcade.switch(DrawRaises(arcade))
    frames(arcade, 2)
    assert _name(arcade) == "BareError"
    assert shows(board.panel, "Oops:") and shows(board.panel, "ValueError")
    tap(board, arcade, "A")
    assert _name(arcade) == "Menu"


def test_when_even_the_bare_error_screen_fails_the_app_carries_on(board, store_dir, monkeypatch):
    def no_draw(self, display):
        raise MemoryError()
    _no_memory_to_import(monkeypatch, ("firmware.screens.error",))
    arcade = boot(board, store_dir)
    patch(arcade, monkeypatch, "firmware.app", "BareError.draw", no_draw)
    to_menu(board, arcade)
    resets = arcade.resets
    arcade.switch(DrawRaises(arcade))
    frames(arcade, 5)                         # nothing escapes step()
    # no memory even to draw: the menu again, on a fresh heap (a soft reset)
    assert _name(arcade) == "Menu" and arcade.resets == resets + 1
    monkeypatch.undo()


def test_an_exception_that_cannot_be_made_into_text(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    arcade.switch(RaisesUnprintable(arcade))
    frames(arcade, 2)
    assert _name(arcade) == "ErrorScreen" and shows(board.panel, "Unprintable")
    tap(board, arcade, "A")
    assert _name(arcade) == "Menu"


def test_a_menu_that_fails_twice_gives_the_safe_menu(board, store_dir, monkeypatch):
    def broken(self, now_ms):
        raise KeyError("menu item")
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    patch(arcade, monkeypatch, "firmware.screens.menu", "Menu.update", broken)
    frames(arcade, 2)
    assert _name(arcade) == "ErrorScreen"
    tap(board, arcade, "A")                   # back to the menu: it fails again
    frames(arcade, 2)
    assert _name(arcade) == "ErrorScreen"
    tap(board, arcade, "A")                   # not a third time: the safe menu
    assert _name(arcade) == "SafeMenu"
    assert shows(board.panel, "Menu (safe)")
    titles = [title for _, title, _, _ in gamelist.entries(arcade)]
    for title in titles:                      # five rows fit: Settings is the sixth
        assert shows(board.panel, title)
    for _ in titles:
        nudge(board, arcade, "down")
    assert shows(board.panel, "Settings")
    nudge(board, arcade, "down")              # round to 15-Puzzle
    nudge(board, arcade, "down")              # 8-Puzzle
    tap(board, arcade, "A")
    assert _name(arcade) == "Game"
    tap(board, arcade, "B")
    frames(arcade, 3)
    assert _name(arcade) == "SafeMenu"        # the broken menu is not tried again
    for _ in range(len(titles)):
        nudge(board, arcade, "down")
    tap(board, arcade, "A")
    assert _name(arcade) == "SettingsScreen"


def test_a_menu_that_cannot_even_be_built(board, store_dir, monkeypatch):
    def broken(self, app, **options):
        raise ImportError("no module named 'catalog'")
    arcade = boot(board, store_dir)
    patch(arcade, monkeypatch, "firmware.screens.menu", "Menu.__init__", broken)
    wait(arcade, 1700)                        # the splash ends: the menu fails
    assert _name(arcade) == "ErrorScreen"
    tap(board, arcade, "A")
    assert _name(arcade) == "ErrorScreen"
    tap(board, arcade, "A")
    assert _name(arcade) == "SafeMenu"


# ---- idle is no change of input (a stuck button lets the panel sleep) ----------
@pytest.mark.parametrize("stuck", ["A", "stick"])
def test_a_stuck_input_lets_the_panel_sleep_and_the_menu_still_works(board, store_dir, stuck):
    arcade = boot(board, store_dir)
    if stuck == "A":
        board.press("A")                      # stuck since the splash (A held at power-on opens Test board)
    to_menu(board, arcade)
    # the panel alone: in light sleep only a button wakes the board (test_sleep.py)
    assert arcade.settings.set("sleep", False)
    if stuck == "stick":
        board.push("up")                      # the menu scrolls, then it sticks
    wait(arcade, 125000)                      # 2 minutes of a stuck input
    assert not board.panel.on                 # asleep: no burn-in
    nudge(board, arcade, "down" if stuck == "A" else "left")   # any change wakes it
    assert board.panel.on
    if stuck == "A":
        board.release("A")
    else:
        board.center()
    frames(arcade, 3)
    cursor = arcade.screen.cursor
    nudge(board, arcade, "down")
    assert _name(arcade) == "Menu" and arcade.screen.cursor == (cursor + 1) % len(arcade.screen.labels)
    choose(board, arcade, "8-Puzzle")
    assert _name(arcade) == "Game"            # the menu works


# ---- holding D into a game does the same at every phase of the tick counter -----
@pytest.mark.parametrize("title", ["8-Puzzle", "2048"])
@pytest.mark.parametrize("phase_s", [0, 600_000])   # ticks just past the wrap / in the upper half
def test_holding_d_into_a_game_does_not_start_the_solve(board, store_dir, title, phase_s):
    board.advance(phase_s * 1000)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    board.press("D")
    frames(arcade, 2)
    choose(board, arcade, title)
    game = arcade.screen
    moves = (lambda: game.puzzle.moves) if title == "8-Puzzle" else (lambda: game.game.moves)
    wait(arcade, 3000)                        # D held all along, never pressed here
    assert moves() == 0
    board.release("D")
    frames(arcade, 2)
    board.press("D")                          # a press seen by the game: it plays
    wait(arcade, 3000)
    assert moves() > 0
