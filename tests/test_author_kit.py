"""What a game's author meets when something is wrong (README, "Write your own
game"): declaration errors that quote the field, the limit and the value; a crash
screen that names the game first; a restore() that forgets to say True."""
import pytest

from firmware import check, gamereader
from tests.test_app import choose, frames, tap, to_menu
from tests.test_games import boot, data, install, readme_example


def declared(decl):
    try:
        gamereader.read_declaration(decl, "mine.py")
    except check.Invalid as e:
        return str(e)
    return None


DOT = {"title": "Dot", "save": "dot"}


@pytest.mark.parametrize("decl,message", [
    ({"title": "Minesweeper Classic"}, "mine.py title 'Minesweeper Classic' is 19 characters, 13 at most"),
    ({"title": 42}, "mine.py title: 42 is not a text"),
    (dict(DOT, settings=(("size", "Size", ((12, "12"), (18, "18"), (24, "24")), 10),)),
     "mine.py size default: 10 is not one of 12, 18, 24"),
    (dict(DOT, settings=(("size", "Board size", ((12, "12 x 12"),), 12),)),
     "mine.py size: label 'Board size' and value '12 x 12' are 17 characters together, 15 at most"),
    (dict(DOT, settings=(("size", "Size"),)),
     "mine.py settings: ('size', 'Size') is not (name, label, values, default[, old])"),
    (dict(DOT, icon=b"\x00" * 7), "mine.py icon: 7 bytes, not 8 (8 rows of 8 pixels)"),
    (dict(DOT, records=(("best", "Best", "most", "number"),)),
     "mine.py record kind: 'most' is not one of 'fewest', 'fastest', 'highest', 'count'"),
    ("Dot", "mine.py GAME: 'Dot' is not an object"),
])
def test_a_declaration_error_states_the_field_the_limit_and_the_value(decl, message):
    assert declared(decl) == message


def test_the_menu_and_crash_screen_show_the_file_then_the_reason(board, store_dir):
    install(store_dir, "mine.py", "GAME = {'title': 'Minesweeper Classic'}\nclass Game: pass\n")
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "mine.py")
    assert arcade.screen.lines == ["mine.py title", "'Minesweeper", "Classic' is 19",
                                   "characters, 13", "at most"]     # no path in the way
    assert "games/mine.py" not in "".join(arcade.screen.lines)


def test_a_game_that_raises_while_running_is_named(board, store_dir):
    install(store_dir, "zero.py", readme_example().replace('"Dot"', '"Zero"').replace(
        'step = self.settings["step"]', "step = 1 // 0"))
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Zero")
    frames(arcade, 2)
    assert type(arcade.screen).__name__ == "ErrorScreen"
    assert arcade.screen.lines[:3] == ["zero.py:", "ZeroDivision:", "integer division"]
    log = (store_dir / "data" / "crash.log").read_text()
    assert "zero.py" in log and "ZeroDivisionError: integer division or modulo by zero" in log


def test_a_restore_that_forgets_to_say_true_is_reported_and_the_save_kept(board, store_dir):
    install(store_dir, "dot.py", readme_example().replace("        return True\n", "", 1))
    (store_dir / "data").mkdir(exist_ok=True)
    (store_dir / "data" / "dot.json").write_text('{"x": 8, "y": 32, "steps": 5}')
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Dot")
    assert arcade.screen.steps == 0                        # a new game...
    kept = (store_dir / "data" / "dot.bad").read_text()
    assert '"steps": 5' in kept                            # ...and the old one kept aside
    assert "restore() returned None, not True or False" in (store_dir / "data" / "crash.log").read_text()
    frames(arcade, 2)
    assert arcade.hal.store.bad or arcade.toast           # the player is told, once
    tap(board, arcade, "B")
    assert data(store_dir, "dot") == {}                   # nothing in progress: the new game


def test_a_package_game_imports_its_own_modules_both_ways(board, store_dir):
    folder = store_dir / "games" / "walk"
    folder.mkdir(parents=True)
    (folder / "levels.py").write_text("RING = (100, 20)\n")
    (folder / "words.py").write_text("WIN = 'there'\n")
    (folder / "__init__.py").write_text(
        "from .levels import RING\nfrom walk.words import WIN\n"
        + readme_example().replace('"Dot"', '"Walk"').replace('"save": "dot"', '"save": "walk"')
        .replace("RING_X, RING_Y = 120, 32", "RING_X, RING_Y = RING"))
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Walk")
    assert type(arcade.screen).__name__ == "Game"
