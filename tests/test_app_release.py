"""What the app keeps out of the heap while a game runs: the menu (and the
catalog it reads) are imported like a game and released when one starts; the
crash log and the error screen are imported only after a crash and released
with the error screen."""
import sys

from firmware.screens.base import Screen
from tests.test_app import boot, choose, tap, to_menu, wait

MENU = "firmware.screens.menu"


def test_the_menu_is_released_while_a_game_runs(board, store_dir):
    sys.modules.pop(MENU, None)        # left by an earlier test's app
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert MENU in sys.modules
    choose(board, arcade, "8-Puzzle")
    assert type(arcade.screen).__name__ == "Game"
    assert MENU not in sys.modules
    # the drawing helpers the menu shared with the game were not loaded twice
    game_module = sys.modules[type(arcade.screen).__module__]
    assert game_module.draw is sys.modules["firmware.ui.draw"]
    tap(board, arcade, "B")
    wait(arcade, 200)
    assert type(arcade.screen).__name__ == "Menu" and MENU in sys.modules


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
