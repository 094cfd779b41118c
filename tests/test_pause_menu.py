"""The pause menu (firmware/screens/pause.py): E in every game, built in or in
/games, with its rows; and the mute chord, E+F held, on every screen."""
import json

import pytest

from tests.panel import shows
from tests.test_app import choose, frames, nudge, tap, to_menu, wait
from tests.test_games import boot, data, install, readme_example


def name(arcade):
    return type(arcade.screen).__name__


def with_dot(store_dir):
    install(store_dir, "dot.py", readme_example())
    return boot(store_dir)


def to_row(board, arcade, label):
    """The pause menu's cursor on the row labelled label."""
    labels = [row[1] for row in arcade.screen.rows]
    while labels[arcade.screen.cursor] != label:
        nudge(board, arcade, "down")


@pytest.mark.parametrize("entry", ["15-Puzzle", "8-Puzzle", "2048", "Reversi", "Dot"])
def test_e_opens_the_pause_menu_in_every_game_and_b_or_e_resume(board, store_dir, entry):
    arcade = with_dot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, entry)
    game = arcade.screen
    tap(board, arcade, "E")
    assert name(arcade) == "Pause" and arcade.screen.game is game
    assert shows(board.panel, "Resume")
    tap(board, arcade, "B")
    assert arcade.screen is game                   # the same game, not a new one
    tap(board, arcade, "E")
    tap(board, arcade, "E")
    assert arcade.screen is game


def test_the_game_is_frozen_while_paused(board, store_dir):
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "15-Puzzle")
    nudge(board, arcade, "left")                   # the clock starts with the first move
    wait(arcade, 2000)
    game = arcade.screen
    played = game.play_ms
    tap(board, arcade, "E")
    wait(arcade, 20000)                            # 20 s in the pause menu
    tap(board, arcade, "B")
    assert game.play_ms - played < 400             # the frames around the pause, not 20 s
    assert game.cursor_on is False                 # E never reached the game


def test_a_game_setting_changed_in_the_pause_menu_is_saved_and_used(board, store_dir):
    arcade = with_dot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Dot")
    tap(board, arcade, "E")
    to_row(board, arcade, "Step")
    assert shows(board.panel, "1 pixel")
    nudge(board, arcade, "right")
    assert shows(board.panel, "4 pixels")
    assert json.loads((store_dir / "data" / "dot_settings.json").read_text().split("\n")[0]) == {"step": 4}
    tap(board, arcade, "B")
    x = arcade.screen.x
    nudge(board, arcade, "right")
    assert arcade.screen.x == x + 4                # declared at_once: used in this very game


def test_an_action_of_the_game_runs_on_the_game(board, store_dir):
    arcade = with_dot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Dot")
    nudge(board, arcade, "right")
    nudge(board, arcade, "down")
    game = arcade.screen
    assert (game.x, game.y) != (4, 32)
    tap(board, arcade, "E")
    to_row(board, arcade, "Back to start")
    tap(board, arcade, "A")
    assert arcade.screen is game and (game.x, game.y) == (4, 32)


def test_save_and_leave_then_continue_is_the_same_position(board, store_dir):
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "2048")
    for direction in ("left", "up", "right"):
        nudge(board, arcade, direction)
    board_before = list(arcade.screen.game.board)
    tap(board, arcade, "E")
    to_row(board, arcade, "Save and leave")
    tap(board, arcade, "A")
    wait(arcade, 300)
    assert name(arcade) == "Menu" and arcade.screen.labels[0].startswith("Continue")
    tap(board, arcade, "A")
    assert name(arcade) == "Game" and list(arcade.screen.game.board) == board_before


def test_new_game_asks_first(board, store_dir):
    arcade = with_dot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Dot")
    nudge(board, arcade, "right")
    assert arcade.screen.steps == 1
    tap(board, arcade, "E")
    to_row(board, arcade, "New game")
    tap(board, arcade, "A")
    assert shows(board.panel, "New game?")
    tap(board, arcade, "B")                        # no: the list again, the game as it was
    assert name(arcade) == "Pause" and arcade.screen.game.steps == 1
    tap(board, arcade, "A")
    tap(board, arcade, "A")                        # yes
    assert name(arcade) == "Game" and arcade.screen.steps == 0
    assert data(store_dir, "dot") == {}


def test_sound_and_brightness_rows_change_the_system_settings(board, store_dir):
    arcade = with_dot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Dot")
    tap(board, arcade, "E")
    to_row(board, arcade, "Sound")
    assert shows(board.panel, "medium")            # a new board: sound on, medium volume
    nudge(board, arcade, "right")
    assert arcade.settings["volume"] == 3 and arcade.hal.sound.volume == 3
    nudge(board, arcade, "right")
    assert arcade.settings["sound"] is False and arcade.hal.sound.muted
    to_row(board, arcade, "Brightness")
    before = arcade.settings["brightness"]
    nudge(board, arcade, "right")
    assert arcade.settings["brightness"] == before % 4 + 1
    saved = json.loads((store_dir / "data" / "settings.json").read_text().split("\n")[0])
    assert saved["sound"] is False and saved["brightness"] == arcade.settings["brightness"]


def test_keys_shows_the_games_help_lines(board, store_dir):
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "2048")
    tap(board, arcade, "E")
    to_row(board, arcade, "Keys")
    tap(board, arcade, "A")
    assert arcade.screen.page != 0
    tap(board, arcade, "B")
    assert name(arcade) == "Pause" and arcade.screen.page == 0


def hold_chord(board, arcade):
    board.press("E")
    frames(arcade, 2)
    board.press("F")
    wait(arcade, 1200)
    board.release("E")
    board.release("F")
    frames(arcade, 4)


@pytest.mark.parametrize("where", ["menu", "game", "settings"])
def test_the_mute_chord_works_everywhere_and_is_neither_e_nor_f(board, store_dir, where):
    arcade = boot(store_dir)
    to_menu(board, arcade)
    if where == "game":
        choose(board, arcade, "15-Puzzle")
    elif where == "settings":
        choose(board, arcade, "Settings")
    screen = arcade.screen
    level = getattr(screen, "level", None)
    hold_chord(board, arcade)
    assert arcade.screen is screen                 # E did not open the pause menu
    assert getattr(screen, "level", None) == level  # F did not change the puzzle's level
    assert arcade.settings["sound"] is False and arcade.hal.sound.muted
    assert shows(board.panel, "Sound off")
    hold_chord(board, arcade)
    assert arcade.settings["sound"] is True and not arcade.hal.sound.muted
    saved = json.loads((store_dir / "data" / "settings.json").read_text().split("\n")[0])
    assert saved["sound"] is True


@pytest.mark.parametrize("entry", ["2048", "Reversi", "Dot"])
def test_the_pause_menu_leaves_nothing_behind_when_it_closes(board, store_dir, entry):
    import sys
    arcade = with_dot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, entry)
    frames(arcade, 5)
    before = set(sys.modules)
    tap(board, arcade, "E")
    to_row(board, arcade, "Sound")
    nudge(board, arcade, "right")                  # a change saved while it shows
    assert "firmware.screens.pause" in sys.modules
    tap(board, arcade, "B")
    frames(arcade, 5)
    assert set(sys.modules) - before == set()      # its code and all it brought: gone


def test_the_frozen_games_helpers_go_while_paused_and_come_back(board, store_dir):
    """Heap: while the menu shows, the game draws nothing, so the helpers it
    holds (Reversi's board drawing) are let go; the game brings them back
    when it plays again."""
    import sys
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Reversi")
    frames(arcade, 3)
    assert "firmware.screens.reversi_draw" in sys.modules
    tap(board, arcade, "E")
    assert name(arcade) == "Pause" and "firmware.screens.reversi_draw" not in sys.modules
    assert "firmware.ui.draw" not in sys.modules   # the list needs nothing of it
    tap(board, arcade, "B")
    frames(arcade, 2)
    assert "firmware.screens.reversi_draw" in sys.modules
    assert shows(board.panel, "Black")             # the board and panel drawn again


def test_the_pause_menus_list_shows_as_many_rows_as_the_screens_lists():
    from firmware.ui import draw, listing
    assert listing.rows.__defaults__[-1] == draw.LIST_ROWS   # (Settings uses the default)


@pytest.mark.parametrize("entry, label, keys", [("15-Puzzle", "Tiles", "< > CHANGE, NEXT GAME"),
                                                ("Reversi", "CPU level", "< > CHANGE  B BACK")])
def test_the_key_line_says_when_a_setting_takes_effect(board, store_dir, monkeypatch, entry, label, keys):
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, entry)
    from firmware.ui import tinyfont     # (the game's program's own)
    drawn = []
    real = tinyfont.text

    def text(fb, s, *args, **kwargs):
        drawn.append(s)
        return real(fb, s, *args, **kwargs)
    monkeypatch.setattr(tinyfont, "text", text)
    tap(board, arcade, "E")
    to_row(board, arcade, label)
    assert drawn[-1] == keys


def test_the_mute_chord_says_when_the_flash_did_not_keep_it(board, store_dir, monkeypatch):
    """A mute or unmute the flash could not keep changes nothing and says
    "Not saved!" (unmuting used to say "Sound on" and stay muted)."""
    arcade = boot(store_dir)
    to_menu(board, arcade)
    hold_chord(board, arcade)                      # muted, and saved
    assert arcade.hal.sound.muted
    wait(arcade, 3000)                             # (the note gone)
    monkeypatch.setattr(arcade.hal.store, "save", lambda name, value: False)
    hold_chord(board, arcade)                      # unmute: not kept
    assert arcade.hal.sound.muted and arcade.settings["sound"] is False
    assert shows(board.panel, "Not saved!") and not shows(board.panel, "Sound on")
    monkeypatch.undo()
    wait(arcade, 3000)
    hold_chord(board, arcade)                      # kept this time
    assert not arcade.hal.sound.muted and shows(board.panel, "Sound on")
