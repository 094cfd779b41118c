"""The Reversi screen on the emulated board: moves, illegal squares, passes,
the end of a game and its records, undo, surrender, the CPU and the demo,
resuming, hints."""
import json
import sys
import time

import pytest

from firmware.games.reversi import Reversi, BLACK, WHITE, square, from_alg
from firmware.games.reversi_tools import board_string, piece_at
from firmware.screens import reversi_draw, reversi_shared as shared
from tests.panel import shows, shows_tiny
from tests import saves
from tests.test_app import EVERY_PROGRAM, set_game_setting, boot, frames, tap, nudge, choose, to_menu, wait

FULL_BUT_H8 = "X" * 62 + "O-"          # Black's h8 flips g8 and fills the board
TWO_PLAYERS, YOU_BLACK, YOU_WHITE, DEMO = (shared.TWO_PLAYERS, shared.YOU_BLACK,
                                          shared.YOU_WHITE, shared.DEMO)
# its 7x7 pictures (MONO_HLSB rows), literals there too
WHITE_DISC = b"\x38\x7c\xfe\xfe\xfe\x7c\x38"
WHITE_LAST = b"\x38\x7c\xee\xc6\xee\x7c\x38"   # a plus-shaped hole
BLACK_DISC = b"\x38\x44\x82\x82\x82\x44\x38"
BLACK_LAST = b"\x38\x44\x92\xba\x92\x44\x38"   # a plus inside the ring
HINT = b"\x00\x00\x10\x38\x10\x00\x00"


# ---- helpers -------------------------------------------------------------------
def write(store_dir, name, data):
    (store_dir / (name + ".json")).write_text(json.dumps(data))


def load(store_dir, name):
    path = store_dir / (name + ".json")
    return saves.read(path)


def saved_game(store_dir, mode, moves=(), start=None, turn=BLACK, level=0, rated=True):
    g = {"v": 1, "moves": list(moves)}
    if start:
        g["start"] = start
        g["turn"] = turn
    write(store_dir, "reversi", {"v": 1, "game": g, "mode": mode, "level": level, "rated": rated})


def open_game(board, store_dir, mode=None, node_budget=400, **settings):
    if mode is not None and load(store_dir, "reversi") is None:
        write(store_dir, "reversi_prefs", {"mode": mode})
    arcade = boot(board, store_dir)
    for name, value in settings.items():
        set_game_setting(arcade, "reversi", name, value)
    to_menu(board, arcade)
    choose(board, arcade, "Reversi")
    game = arcade.screen
    assert type(game).__name__ == "Game"
    game.node_budget = node_budget     # keeps CPython's real-time search short
    frames(arcade, 2)
    return arcade


def cell_at(board, x, y):
    return [[board.panel.pixel(x + dx, y + dy) for dx in range(7)] for dy in range(7)]


def cell(board, col, row):
    x, y = col * 8 + 1, row * 8 + 1
    return [[board.panel.pixel(x + dx, y + dy) for dx in range(7)] for dy in range(7)]


def picture(bits):
    return [[(bits[r] >> (7 - c)) & 1 for c in range(7)] for r in range(7)]


def cursor_to(board, arcade, col, row):
    game = arcade.screen
    while game.cx != col:
        nudge(board, arcade, "right" if game.cx < col else "left")
    while game.cy != row:
        nudge(board, arcade, "down" if game.cy < row else "up")


def menu_item(board, arcade, label):
    """Open the pause menu with E and choose its row labelled label."""
    tap(board, arcade, "E")
    pause = arcade.screen
    assert type(pause).__name__ == "Pause"
    labels = [row[1] for row in pause.rows]
    while labels[pause.cursor] != label:
        nudge(board, arcade, "down")
    tap(board, arcade, "A")


def until(arcade, cond, ms=5000):
    for _ in range(ms // 33 + 1):
        if cond():
            return True
        frames(arcade)
    return cond()


def sounds(board):
    return len(board.pwm_log) + len(board.dac_log)


# ---- moves -------------------------------------------------------------------------
def test_a_legal_move_flips_and_shows_on_the_panel(board, store_dir):
    arcade = open_game(board, store_dir, mode=TWO_PLAYERS)
    game = arcade.screen
    g = game.game
    assert (game.cx, game.cy) == (3, 2)                       # d3, a legal first move
    assert cell(board, 3, 2) == picture(HINT)        # hints on (the default)
    assert cell(board, 3, 3) == picture(WHITE_DISC)
    tap(board, arcade, "A")
    assert piece_at(g, 3, 2) == BLACK and piece_at(g, 3, 3) == BLACK
    assert g.turn == WHITE and g.count(BLACK) == 4 and g.count(WHITE) == 1
    wait(arcade, 400)                                          # the flips have blinked
    assert cell(board, 3, 2) == picture(BLACK_LAST)   # the last move, marked
    assert cell(board, 3, 3) == picture(BLACK_DISC)   # flipped
    assert cell(board, 4, 4) == picture(WHITE_DISC)
    assert shows_tiny(board.panel, "4", 2) and shows_tiny(board.panel, "1", 2)
    assert shows(board.panel, "White") and shows(board.panel, "to move")
    assert load(store_dir, "reversi")["game"]["moves"] == ["d3"]   # saved at once
    # White's replies are hinted now, Black's old ones are gone
    assert cell(board, 2, 2) == picture(HINT)          # c3
    assert cell(board, 2, 3) == [[0] * 7] * 7                  # c4 is no move for White


def test_flipped_discs_blink_briefly(board, store_dir):
    arcade = open_game(board, store_dir, mode=TWO_PLAYERS)
    board.press("A")
    seen = []
    for _ in range(14):
        frames(arcade)
        seen.append(cell(board, 3, 3) == picture(WHITE_DISC))
    board.release("A")
    assert True in seen and False in seen          # shown white again, then black
    frames(arcade, 3)
    assert cell(board, 3, 3) == picture(BLACK_DISC)


def test_an_illegal_square_sounds_and_changes_nothing(board, store_dir):
    arcade = open_game(board, store_dir, mode=TWO_PLAYERS)
    game = arcade.screen
    before = (board_string(game.game), game.game.turn, game.game.ply)
    saved = load(store_dir, "reversi")
    cursor_to(board, arcade, 0, 0)
    heard = sounds(board)
    tap(board, arcade, "A")
    assert sounds(board) > heard
    assert (board_string(game.game), game.game.turn, game.game.ply) == before
    assert load(store_dir, "reversi") == saved
    assert game.message == "NOT LEGAL"
    wait(arcade, 2000)
    assert game.message == ""


def test_the_cursor_moves_with_auto_repeat_and_blinks(board, store_dir):
    arcade = open_game(board, store_dir, mode=TWO_PLAYERS)
    game = arcade.screen
    board.push("right")
    wait(arcade, 800)
    board.center()
    frames(arcade, 2)
    assert game.cx == 7                                # repeated, stopped at the edge
    frames_on = []
    for _ in range(40):
        frames(arcade)
        frames_on.append(board.panel.pixel(7 * 8 + 4, 2 * 8))   # the frame's top edge
    assert 1 in frames_on and 0 in frames_on


# ---- passes and the end ----------------------------------------------------------
def test_the_counts_name_each_colour_beside_its_disc(board, store_dir):
    arcade = open_game(board, store_dir, mode=YOU_BLACK)
    game = arcade.screen
    x = reversi_draw._PANEL_X
    assert cell_at(board, x + 4, 1) == picture(BLACK_DISC)
    assert cell_at(board, x + 4, 11) == picture(WHITE_DISC)
    assert shows_tiny(board.panel, "BLACK") and shows_tiny(board.panel, "WHITE")
    assert shows_tiny(board.panel, "YOU") and shows_tiny(board.panel, "CPU")
    assert game.state == shared.PLAY


def test_b_on_every_overlay_means_no_or_back(board, store_dir):
    arcade = open_game(board, store_dir, mode=TWO_PLAYERS)
    game = arcade.screen
    tap(board, arcade, "E")                            # the pause menu: B goes back to the game
    assert type(arcade.screen).__name__ == "Pause" and shows_tiny(board.panel, "A CHOOSE  B BACK")
    tap(board, arcade, "B")
    assert arcade.screen is game and game.overlay == shared.NO_OVERLAY
    tap(board, arcade, "A")                            # a move, so there is something to give up
    menu_item(board, arcade, "Surrender")              # "Surrender?": B says no
    assert game.overlay == shared.SURRENDER_QUESTION
    tap(board, arcade, "B")
    assert arcade.screen is game and game.overlay == shared.NO_OVERLAY
    assert game.state == shared.PLAY


def test_b_on_the_pass_notice_goes_back_and_the_notice_comes_back(board, store_dir):
    saved_game(store_dir, TWO_PLAYERS, start="OX" + "-" * 62, turn=BLACK)
    arcade = open_game(board, store_dir)
    frames(arcade, 2)
    assert shows(board.panel, "A: pass B: menu")
    tap(board, arcade, "B")
    assert type(arcade.screen).__name__ == "Menu"
    choose(board, arcade, "Continue") if "Continue" in arcade.screen.labels \
        else choose(board, arcade, "Reversi")
    frames(arcade, 3)
    assert arcade.screen.overlay == shared.PASS_NOTICE


def test_the_help_line_says_the_keys_that_work(board, store_dir):
    arcade = open_game(board, store_dir, mode=DEMO, level=0, node_budget=200)
    seen = set()
    for _ in range(8):
        wait(arcade, 1500)
        for line in ("A PLACE  B MENU", "B MENU", "E PAUSE MENU"):
            if shows_tiny(board.panel, line):
                seen.add(line)
    assert seen == {"B MENU", "E PAUSE MENU"}          # the demo: no "A PLACE"


def test_a_forced_pass_is_announced(board, store_dir):
    saved_game(store_dir, TWO_PLAYERS, start="OX" + "-" * 62, turn=BLACK)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    frames(arcade, 2)
    assert game.overlay == shared.PASS_NOTICE
    assert shows(board.panel, "Black must pass")
    tap(board, arcade, "A")
    assert game.game.turn == WHITE and game.overlay == shared.NO_OVERLAY
    assert not shows(board.panel, "Black must pass")
    assert load(store_dir, "reversi")["game"]["moves"] == ["pass"]


def test_a_game_that_ends_with_empty_squares(board, store_dir):
    saved_game(store_dir, TWO_PLAYERS, start="XO" + "-" * 62, turn=BLACK)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    cursor_to(board, arcade, 2, 0)
    tap(board, arcade, "A")                             # c1: no white disc is left
    assert game.state == shared.OVER
    assert game.game.empties() == 61
    assert shows(board.panel, "Black") and shows(board.panel, "wins!")
    assert reversi_draw.status(game)[2] == "64-0"       # WOF: the empties go to the winner
    assert reversi_draw.status(game)[3] == "3 + 61 EMPTY"   # and the panel says so
    assert shows_tiny(board.panel, "3 + 61 EMPTY")
    frames(arcade, 3)
    assert shows(board.panel, "wins!")                  # kept on the panel...
    assert "firmware.screens.reversi_end" not in sys.modules   # ...without the end's code
    assert load(store_dir, "reversi") == {}             # nothing to continue
    assert arcade.records.data == {}                    # two players: no CPU record
    tap(board, arcade, "A")                             # a new game
    assert game.state == shared.PLAY and game.game.ply == 0


def test_winning_against_the_cpu_plays_the_melody_and_counts(board, store_dir):
    saved_game(store_dir, YOU_BLACK, start=FULL_BUT_H8, turn=BLACK, level=0)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    cursor_to(board, arcade, 7, 7)
    pwm = len(board.pwm_log)
    tap(board, arcade, "A")
    assert game.state == shared.OVER and game.game.count(BLACK) == 64
    assert shows(board.panel, "Black") and shows(board.panel, "wins!")
    assert reversi_draw.status(game)[2] == "YOU WIN 64-0"
    assert arcade.records.get("Reversi easy") == {"won": 1}
    wait(arcade, 1000)
    notes = [f for _, f, duty in board.pwm_log[pwm:] if f and duty]
    assert len(notes) >= 4                               # the "win" tune, not a beep


def test_losing_to_the_cpu_counts_at_its_level(board, store_dir):
    # the human plays White; the CPU (Black) fills the board
    saved_game(store_dir, YOU_WHITE, start=FULL_BUT_H8, turn=BLACK, level=2)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    assert until(arcade, lambda: game.state == shared.OVER)
    assert arcade.records.get("Reversi hard") == {"lost": 1}
    assert reversi_draw.status(game)[2] == "YOU LOSE 0-64"


# ---- the pause menu's rows, and C: undo ------------------------------------------------
def test_undo_two_players_and_nothing_to_undo(board, store_dir):
    arcade = open_game(board, store_dir, mode=TWO_PLAYERS)
    game = arcade.screen
    heard = sounds(board)
    menu_item(board, arcade, "Undo")
    assert sounds(board) > heard and game.message == "CAN'T UNDO"
    tap(board, arcade, "A")
    assert game.game.ply == 1
    tap(board, arcade, "C")                            # C: undo, as in the other games
    assert game.game.ply == 0 and game.game.turn == BLACK
    tap(board, arcade, "A")
    menu_item(board, arcade, "Undo")                   # the pause menu's row does the same
    assert game.game.ply == 0 and game.game.turn == BLACK
    assert load(store_dir, "reversi") == {}            # nothing played: no "Continue"


def test_undo_against_the_cpu_goes_back_to_your_turn(board, store_dir):
    arcade = open_game(board, store_dir, mode=YOU_BLACK)
    game = arcade.screen
    start = board_string(game.game)
    tap(board, arcade, "A")
    assert until(arcade, lambda: game.game.ply == 2)   # the CPU replied
    wait(arcade, 400)
    menu_item(board, arcade, "Undo")
    assert game.game.ply == 0 and game.game.turn == BLACK
    assert board_string(game.game) == start
    wait(arcade, 1500)
    assert game.game.ply == 0                          # the CPU waits for you


def test_surrender_asks_first_and_counts_a_loss(board, store_dir):
    arcade = open_game(board, store_dir, mode=YOU_BLACK, level=1)
    game = arcade.screen
    tap(board, arcade, "A")
    assert until(arcade, lambda: game.game.ply == 2)
    menu_item(board, arcade, "Surrender")
    assert game.overlay == shared.SURRENDER_QUESTION and shows(board.panel, "Surrender?")
    assert shows(board.panel, "A: yes B: no")
    tap(board, arcade, "B")                            # no (and B does not leave)
    assert arcade.screen is game
    assert game.overlay == shared.NO_OVERLAY and game.state == shared.PLAY
    menu_item(board, arcade, "Surrender")
    tap(board, arcade, "A")                            # yes
    assert game.state == shared.OVER
    assert shows(board.panel, "White") and shows(board.panel, "wins!")
    assert reversi_draw.status(game)[2] == "YOU LOSE"
    assert arcade.records.get("Reversi medium") == {"lost": 1}
    assert load(store_dir, "reversi") == {}


def test_mode_changes_from_the_pause_menu_at_once(board, store_dir):
    arcade = open_game(board, store_dir, mode=TWO_PLAYERS)
    game = arcade.screen
    tap(board, arcade, "E")
    pause = arcade.screen
    while pause.rows[pause.cursor][1] != "Mode":
        nudge(board, arcade, "down")
    nudge(board, arcade, "right")
    assert game.mode == YOU_BLACK
    tap(board, arcade, "A")
    assert game.mode == YOU_WHITE
    assert load(store_dir, "reversi_settings")["mode"] == YOU_WHITE
    tap(board, arcade, "E")                            # close the menu
    assert arcade.screen is game and game.overlay == shared.NO_OVERLAY
    assert until(arcade, lambda: game.game.ply == 1)   # the CPU now plays Black
    assert load(store_dir, "reversi")["mode"] == YOU_WHITE


# ---- the CPU -----------------------------------------------------------------------
@pytest.fixture
def searches(monkeypatch):
    """Every Ai the screen searches with, after its search. The screen borrows
    firmware.games.reversi_ai for each move; imported before each program
    starts, the module stays loaded (borrowed forgets only what it imported),
    so the spy stays."""
    searched = []

    def spy_on(runner):
        from firmware.games import reversi_ai
        choose = reversi_ai.Ai.choose

        def spy(ai, game):
            move = choose(ai, game)
            searched.append(ai)
            return move
        monkeypatch.setattr(reversi_ai.Ai, "choose", spy)
    EVERY_PROGRAM.append(spy_on)
    yield searched
    EVERY_PROGRAM.remove(spy_on)


def test_the_cpus_search_is_let_go_after_each_move(board, store_dir, monkeypatch):
    import firmware.games
    monkeypatch.delitem(sys.modules, "firmware.games.reversi_ai", raising=False)  # (other tests')
    monkeypatch.delattr(firmware.games, "reversi_ai", raising=False)
    arcade = open_game(board, store_dir, mode=YOU_WHITE, level=0)
    game = arcade.screen
    assert until(arcade, lambda: game.game.ply == 1)   # the CPU (Black) has moved
    assert "firmware.games.reversi_ai" not in sys.modules
    assert "firmware.screens.reversi_cpu" not in sys.modules


def test_the_cpu_says_it_thinks_then_replies_in_time(board, store_dir, searches):
    arcade = open_game(board, store_dir, mode=YOU_WHITE, level=0)
    game = arcade.screen
    t0 = board.now_ms()
    thought = False
    for _ in range(60):
        if game.thinking and shows(board.panel, "thinks"):
            thought = True                  # flushed before the search starts
        if game.game.ply:
            break
        frames(arcade)
    assert thought and game.game.ply == 1 and game.game.turn == WHITE
    assert board.now_ms() - t0 < 250 + 300             # the easy budget and a frame or two
    assert len(searches) == 1 and searches[0].nodes <= 400


def test_a_spinner_turns_while_the_cpu_thinks(board, store_dir, monkeypatch):
    """The spinner's first step is on the panel, beside "thinks", when the
    search begins, and gone with "thinks" after the move."""
    seen = []

    def spy_on(runner):
        from firmware.games import reversi_ai
        choose = reversi_ai.Ai.choose

        def spy(ai, game):
            seen.append([board.panel.pixel(120 + dx, 49 + dy) for dy in range(5) for dx in range(5)])
            return choose(ai, game)
        monkeypatch.setattr(reversi_ai.Ai, "choose", spy)
    EVERY_PROGRAM.append(spy_on)
    try:
        arcade = open_game(board, store_dir, mode=YOU_WHITE, level=0)
        game = arcade.screen
        assert until(arcade, lambda: game.game.ply == 1)
        frames(arcade, 2)
    finally:
        EVERY_PROGRAM.remove(spy_on)
    step_0 = [1 if dx < 3 and dy < 3 else 0 for dy in range(5) for dx in range(5)]
    assert seen == [step_0]
    assert not any(board.panel.pixel(120 + dx, 49 + dy) for dy in range(5) for dx in range(5))


def test_the_hard_cpu_replies_under_a_node_budget(board, store_dir, searches):
    arcade = open_game(board, store_dir, mode=YOU_BLACK, level=2, node_budget=800)
    game = arcade.screen
    tap(board, arcade, "A")
    t = time.perf_counter()
    assert until(arcade, lambda: game.game.ply == 2, 3000)
    assert time.perf_counter() - t < 3
    ai = searches[-1]
    assert ai.level == 2 and ai.nodes <= 800 + 32
    assert ai.elapsed_ms <= 1850


def test_the_cpu_demo_plays_by_itself(board, store_dir):
    arcade = open_game(board, store_dir, mode=DEMO, level=0, node_budget=200)
    game = arcade.screen
    wait(arcade, 6000)
    assert game.game.ply >= 4
    assert shows(board.panel, "to move") or shows(board.panel, "thinks")



def test_the_cpu_demo_starts_a_new_game_5_s_after_its_end(board, store_dir):
    saved_game(store_dir, DEMO, start=FULL_BUT_H8, turn=BLACK, level=0)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    assert until(arcade, lambda: game.state == shared.OVER)   # the CPU fills the board
    wait(arcade, 4000)
    assert game.state == shared.OVER                          # the end shows a while...
    assert until(arcade, lambda: game.state == shared.PLAY, 2000)   # ...then a new game
    assert game.game.ply <= 1 and game.mode == DEMO


# ---- saving and resuming --------------------------------------------------------------
def test_resume_after_the_menu_and_after_a_power_cut(board, store_dir):
    arcade = open_game(board, store_dir, mode=YOU_BLACK, level=2)
    game = arcade.screen
    tap(board, arcade, "A")
    assert until(arcade, lambda: game.game.ply == 2)
    record = game.game.record()
    tap(board, arcade, "B")
    frames(arcade, 3)
    assert type(arcade.screen).__name__ == "Menu" and shows(board.panel, "Continue")
    choose(board, arcade, "Continue")
    game = arcade.screen
    assert game.game.record() == record and game.mode == YOU_BLACK and game.level == 2

    arcade = boot(board, store_dir)                 # the power went: a new HAL, same flash
    set_game_setting(arcade, "reversi", "level", 0)         # the setting changed meanwhile
    to_menu(board, arcade)
    choose(board, arcade, "Continue")
    game = arcade.screen
    frames(arcade, 2)
    assert game.game.record() == record
    assert game.mode == YOU_BLACK and game.level == 2   # the game's own level
    last = from_alg(record[-1])
    col, row = last % 10 - 1, last // 10 - 1
    frames(arcade)
    assert cell(board, col, row) == picture(WHITE_LAST)  # the CPU's move, marked
    assert shows(board.panel, "Black") and shows(board.panel, "to move")


def test_a_bad_save_starts_a_new_game(board, store_dir):
    write(store_dir, "reversi", {"v": 1, "game": {"moves": ["a1"]}, "mode": 0, "level": 0})
    arcade = open_game(board, store_dir)
    assert arcade.screen.game.ply == 0


def test_hints_follow_the_setting(board, store_dir):
    arcade = open_game(board, store_dir, mode=TWO_PLAYERS, hints=False)
    for sq in ("c4", "d3", "e6", "f5"):
        c, r = from_alg(sq) % 10 - 1, from_alg(sq) // 10 - 1
        if (c, r) != (3, 2):
            assert cell(board, c, r) == [[0] * 7] * 7
    tap(board, arcade, "B")
    frames(arcade, 3)
    set_game_setting(arcade, "reversi", "hints", True)
    choose(board, arcade, "Reversi")
    frames(arcade, 2)
    assert cell(board, 2, 3) == picture(HINT)
    assert cell(board, 5, 4) == picture(HINT)


def test_no_hints_on_the_cpus_turn(board, store_dir):
    arcade = open_game(board, store_dir, mode=YOU_WHITE)
    game = arcade.screen
    assert game.cpu_plays(game.game.turn)
    assert cell(board, 2, 3) == [[0] * 7] * 7
