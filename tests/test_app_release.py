"""What the app keeps out of the heap while a game runs: the menu (and the
catalog it reads) are imported like a game and released when one starts; the
crash log and the error screen are imported only after a crash and released
with the error screen."""
import sys

from firmware.screens.base import Screen
from tests.test_app import boot, choose, nudge, tap, to_menu, wait

MENU = "firmware.screens.menu"


def test_the_menu_is_released_while_a_game_runs(board, store_dir, monkeypatch):
    # as after a power-on: none of these left by an earlier test's app
    for name in (MENU, "firmware.ui.draw", "firmware.screens.puzzle", "firmware.screens.puzzle_draw"):
        unload(monkeypatch, name)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert MENU in sys.modules
    choose(board, arcade, "8-Puzzle")
    assert type(arcade.screen).__name__ == "Game"
    assert MENU not in sys.modules
    # the drawing helpers went with the menu and came back with the game:
    # one copy, the one the game draws with
    puzzle_drawing = sys.modules["firmware.screens.puzzle_draw"]
    assert puzzle_drawing.draw is sys.modules["firmware.ui.draw"]
    tap(board, arcade, "B")
    wait(arcade, 200)
    assert type(arcade.screen).__name__ == "Menu" and MENU in sys.modules


def unload(monkeypatch, name):
    """Forget a module that earlier tests imported, as the app does (put back
    after the test, so other test modules keep the one they hold)."""
    if name in sys.modules:
        parent, _, child = name.rpartition(".")
        monkeypatch.delitem(sys.modules, name)
        monkeypatch.delattr(sys.modules[parent], child, raising=False)


def test_reversi_holds_neither_the_menu_nor_the_overlays_code(board, store_dir, monkeypatch):
    for name in (MENU, "firmware.ui.draw", "firmware.screens.reversi_menu"):
        unload(monkeypatch, name)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert "firmware.ui.draw" in sys.modules          # the menu draws with it
    choose(board, arcade, "Reversi")
    assert type(arcade.screen).__name__ == "Game"
    assert MENU not in sys.modules and "firmware.ui.draw" not in sys.modules
    tap(board, arcade, "A")                            # a move to give up
    wait(arcade, 300)
    tap(board, arcade, "E")                            # the pause menu: Surrender asks...
    pause = arcade.screen
    while pause.rows[pause.cursor][1] != "Surrender":
        nudge(board, arcade, "down")
    tap(board, arcade, "A")
    assert arcade.screen.overlay
    assert "firmware.screens.reversi_menu" in sys.modules
    assert "firmware.ui.draw" in sys.modules
    tap(board, arcade, "B")                            # ...and no closes it
    assert not arcade.screen.overlay
    assert "firmware.screens.reversi_menu" not in sys.modules
    assert "firmware.ui.draw" not in sys.modules


class Boom(Screen):
    def update(self, now_ms):
        raise ValueError("boom")


def test_the_crash_modules_come_and_go_with_the_error_screen(board, store_dir):
    for name in ("firmware.crashlog", "firmware.screens.error"):
        sys.modules.pop(name, None)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert "firmware.crashlog" not in sys.modules
    arcade.switch(Boom(arcade))
    wait(arcade, 100)
    assert type(arcade.screen).__name__ == "ErrorScreen"
    assert (store_dir / "crash.log").exists()
    tap(board, arcade, "A")
    assert type(arcade.screen).__name__ == "Menu"
    assert "firmware.crashlog" not in sys.modules
    assert "firmware.screens.error" not in sys.modules
