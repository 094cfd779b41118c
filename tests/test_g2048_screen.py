"""The 2048 screen on the emulated board: moves, merges on the panel, the
animation, undo, new game, win and keep going, game over, hints and the demo,
saving and resuming, big tiles, records."""
import json
import random

import framebuf
import pytest

from tests import saves

from firmware.games.game2048 import LINES, DIRECTION_NAMES
from firmware.screens import g2048, g2048_draw
from firmware.ui import tinyfont
from tests.panel import shows
from tests.test_app import boot, frames, tap, nudge, choose, to_menu, wait
from tests.test_puzzle_screen import shows_big


# ---- helpers -------------------------------------------------------------------
def open_game(board, store_dir, seed=1):
    random.seed(seed)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "2048")
    assert type(arcade.screen).__name__ == "Game"
    frames(arcade, 3)
    return arcade


def set_board(arcade, exps, score=100, moves=5):
    """Put a known position on the screen (exponents, row by row)."""
    game = arcade.screen
    g = game.game
    g.board[:] = bytearray(exps)
    g.score = score
    g.moves = moves
    g.can_undo = False
    game.redraw()
    frames(arcade, 3)
    return game


def load(store_dir, name="g2048"):
    path = store_dir / (name + ".json")
    return saves.read(path)


def expected_cell(e, flash=0):
    fb = framebuf.FrameBuffer(bytearray(16 * 16 // 8), 16, 16, framebuf.MONO_VLSB)
    g2048_draw.draw_tile(fb, 0, 0, e, flash)
    return [[fb.pixel(x, y) for x in range(16)] for y in range(16)]


def panel_cell(board, i, x0=None, y0=None):
    x0 = (i % 4) * 16 if x0 is None else x0
    y0 = (i // 4) * 16 if y0 is None else y0
    return [[board.panel.pixel(x0 + x, y0 + y) for x in range(16)] for y in range(16)]


def panel_board(board):
    """The exponent each cell shows, read back from the panel's pixels."""
    looks = {tuple(map(tuple, expected_cell(e))): e for e in range(18)}
    return [looks.get(tuple(map(tuple, panel_cell(board, i))), -1) for i in range(16)]


def shows_tiny(panel, text, x0=0, y0=0):
    """text drawn with tinyfont (size 1) somewhere at or after (x0, y0)."""
    w = tinyfont.width(text)
    fb = framebuf.FrameBuffer(bytearray(w * 8), w, 8, framebuf.MONO_VLSB)
    tinyfont.text(fb, text, 0, 0)
    want = [tuple(fb.pixel(x, y) for x in range(w)) for y in range(5)]
    pixels = panel.pixels()
    for y in range(y0, 64 - 4):
        for x in range(x0, 128 - w + 1):
            if all(tuple(pixels[y + r][x:x + w]) == want[r] for r in range(5)):
                return True
    return False


def slidable(game):
    return [d for d in range(4) if game.game.can_slide(d)]


# ---- moves -----------------------------------------------------------------------
def test_a_push_is_one_move_with_a_new_tile_a_click_and_a_save(board, store_dir):
    arcade = open_game(board, store_dir)
    game = arcade.screen
    g = game.game
    assert sum(1 for e in g.board if e) == 2                   # two tiles to start
    assert panel_board(board) == list(g.board)                 # drawn as they are
    assert shows_tiny(board.panel, "SCORE") and shows_tiny(board.panel, "BEST")
    d = slidable(game)[0]
    board.push(DIRECTION_NAMES[d])
    frames(arcade, 20)                                         # held: still one move
    board.center()
    frames(arcade, 3)
    assert g.moves == 1
    assert sum(1 for e in g.board if e) in (2, 3)              # merged or not, plus one
    assert panel_board(board) == list(g.board)
    assert load(store_dir)["game"]["board"] == list(g.board)   # saved after the move
    assert shows_tiny(board.panel, "MOVES 1")


@pytest.mark.parametrize("d", range(4))
def test_merge_rows_show_on_the_panel_in_every_direction(board, store_dir, d):
    arcade = open_game(board, store_dir)
    # lines listed from the wall the tiles move toward (exponents: 1 is a 2)
    lines = ([1, 1, 1, 1], [1, 1, 1, 0], [2, 2, 3, 0], [2, 0, 1, 1])
    after = ([2, 2, 0, 0], [2, 1, 0, 0], [3, 3, 0, 0], [2, 2, 0, 0])
    exps = [0] * 16
    want = [0] * 16
    for k in range(4):
        for m in range(4):
            exps[LINES[d][k][m]] = lines[k][m]
            want[LINES[d][k][m]] = after[k][m]
    game = set_board(arcade, exps, score=0)
    nudge(board, arcade, DIRECTION_NAMES[d])
    g = game.game
    assert g.score == 8 + 4 + 8 + 4
    shown = panel_board(board)
    spawn = g.spawn_at
    assert want[spawn] == 0 and shown[spawn] in (1, 2)
    shown[spawn] = 0
    assert shown == want
    wait(arcade, 200)
    assert shows(board.panel, "24")                            # the score


def test_the_move_animates_in_under_100_ms_and_a_push_cuts_it_short(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, [0, 0, 0, 3] + [0] * 8 + [1, 0, 0, 0])
    board.push("left")
    frames(arcade)                                # the frame of the push
    assert panel_cell(board, 0, x0=24) == expected_cell(3)      # half-way: x 48 -> 24
    assert panel_cell(board, 12) == expected_cell(1)            # a tile that stays
    start = board.now_ms()
    while game.animation:
        frames(arcade)
    assert board.now_ms() - start < 100
    assert panel_board(board)[:4] in ([3, 0, 0, 0], [3, 1, 0, 0], [3, 2, 0, 0])
    # a second move during the animation: it ends at once and the move is made
    board.center()
    frames(arcade, 2)
    merge = set_board(arcade, [1, 1, 0, 0] + [0] * 12)
    board.push("right")
    frames(arcade)
    assert merge.animation == 2
    board.center()
    frames(arcade)
    board.push("down")
    frames(arcade)
    assert merge.game.moves == 7
    frames(arcade, 4)
    assert panel_board(board) == list(merge.game.board)


def test_merged_tiles_flash_for_a_frame(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, [2, 2, 0, 0] + [0] * 12)
    board.push("left")
    frames(arcade)        # half-way
    frames(arcade)        # the merged tile in the other style
    assert game.game.merged[0]
    assert panel_cell(board, 0) == expected_cell(3, flash=1)
    frames(arcade)
    assert panel_cell(board, 0) == expected_cell(3)


def test_a_push_that_moves_nothing_is_not_a_move(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, [1, 2, 0, 0] + [0] * 12)
    nudge(board, arcade, "left")
    assert game.game.moves == 5
    assert shows_tiny(board.panel, "NO MOVE")


def test_big_merges_sound_brighter(board, store_dir):
    arcade = open_game(board, store_dir)
    played = []
    sound = arcade.hal.sound
    sound.sfx = lambda name, *a, **k: played.append(name)
    sound.click = lambda *a, **k: played.append("click")
    set_board(arcade, [7, 7, 0, 0] + [0] * 12)                   # 128 + 128
    nudge(board, arcade, "left")
    set_board(arcade, [8, 8, 0, 0] + [0] * 12)                   # 256 + 256 = 512
    nudge(board, arcade, "left")
    assert played == ["click", "merge"]


# ---- undo and new game ---------------------------------------------------------
def test_undo_restores_board_score_and_spawn(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, [1, 1, 2, 2] + [0] * 12, score=40)
    before = list(game.game.board)
    nudge(board, arcade, "left")
    assert game.game.score == 40 + 4 + 8
    wait(arcade, 200)
    assert shows(board.panel, "52")
    tap(board, arcade, "C")
    assert list(game.game.board) == before and game.game.score == 40
    wait(arcade, 200)
    assert panel_board(board) == before
    assert shows(board.panel, "40")
    assert load(store_dir)["game"]["board"] == before
    tap(board, arcade, "C")                                     # one level only
    assert shows_tiny(board.panel, "NO UNDO")


def test_best_shows_only_a_score_the_player_kept(board, store_dir):
    """A move's score shows as BEST at once; undone, BEST goes back with it,
    as Records and the next opening say (they keep the score left with)."""
    arcade = open_game(board, store_dir)
    game = set_board(arcade, [1, 1, 2, 2] + [0] * 12, score=40)
    nudge(board, arcade, "left")
    wait(arcade, 200)
    assert game.game.score == 52 and shows(board.panel, "52")
    tap(board, arcade, "C")
    wait(arcade, 200)
    assert game.game.score == 40 and not shows(board.panel, "52")
    tap(board, arcade, "B")
    assert arcade.records.get("2048")["best score"] == 40
    choose(board, arcade, "Continue")
    wait(arcade, 200)
    assert not shows(board.panel, "52")


def test_new_game_asks_first_while_a_game_runs(board, store_dir):
    arcade = open_game(board, store_dir)
    game = arcade.screen
    nudge(board, arcade, DIRECTION_NAMES[slidable(game)[0]])
    moves = game.game.moves
    assert moves == 1
    tap(board, arcade, "A")
    assert shows(board.panel, "New game?") and shows(board.panel, "A: yes B: no")
    tap(board, arcade, "B")                                      # no: same game, no menu
    assert type(arcade.screen).__name__ == "Game"
    assert game.game.moves == moves and not shows(board.panel, "New game?")
    assert panel_board(board) == list(game.game.board)
    tap(board, arcade, "A")
    tap(board, arcade, "A")                                      # yes
    assert game.game.moves == 0 and sum(1 for e in game.game.board if e) == 2
    assert not shows(board.panel, "New game?")
    assert panel_board(board) == list(game.game.board)
    tap(board, arcade, "A")                                      # nothing played: no question
    assert not shows(board.panel, "New game?")


# ---- the end of a game -----------------------------------------------------------
def test_win_screen_and_keep_going(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, [10, 10, 0, 0] + [0] * 12, score=20000)
    played = []
    real_sfx = arcade.hal.sound.sfx
    arcade.hal.sound.sfx = lambda name: (played.append(name), real_sfx(name))
    nudge(board, arcade, "left")
    wait(arcade, 2500)
    assert "win" in played
    assert shows_big(board.panel, "You Win")
    assert shows(board.panel, "Keep going?") and shows(board.panel, "A:yes B:menu")
    assert shows(board.panel, "score 22048")
    nudge(board, arcade, "down")                                  # no move on the banner
    assert game.game.moves == 6
    tap(board, arcade, "A")                                       # keep going
    assert game.state == 0 and game.game.keep_going
    assert panel_board(board)[0] == 11                            # the 2048 tile
    d = slidable(game)[0]
    nudge(board, arcade, DIRECTION_NAMES[d])
    assert game.game.moves == 7
    assert load(store_dir)["game"]["keep_going"] is True


def test_win_screen_comes_back_after_the_menu_and_b_leaves(board, store_dir):
    arcade = open_game(board, store_dir)
    set_board(arcade, [10, 10, 0, 0] + [0] * 12, score=20000)
    nudge(board, arcade, "left")
    wait(arcade, 2500)
    tap(board, arcade, "B")
    assert type(arcade.screen).__name__ == "Menu"
    choose(board, arcade, "2048")
    frames(arcade, 3)
    assert shows_big(board.panel, "You Win")
    tap(board, arcade, "A")
    assert arcade.screen.game.keep_going and arcade.screen.game.max_tile() == 2048


# a full board with one merge; after it no move is left whatever spawns
_LAST_MOVE = [3, 3, 5, 6,
              7, 8, 9, 10,
              8, 7, 10, 9,
              7, 8, 9, 10]


def test_game_over_screen_melody_score_and_record(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, _LAST_MOVE, score=5000)
    played = []
    real_sfx = arcade.hal.sound.sfx
    arcade.hal.sound.sfx = lambda name: (played.append(name), real_sfx(name))
    nudge(board, arcade, "left")
    assert game.game.is_over()
    wait(arcade, 2500)
    assert "lose" in played
    assert shows_big(board.panel, "Game") and shows_big(board.panel, "Over")
    assert shows(board.panel, "score 5016") and shows(board.panel, "New record!")
    assert load(store_dir) == {}                                   # nothing to continue
    assert arcade.records.get("2048") == {"best score": 5016, "best tile": 1024}
    tap(board, arcade, "A")                                         # a new game
    assert game.state == 0 and game.game.moves == 0
    wait(arcade, 100)
    assert shows(board.panel, "5016")                               # best, on the panel


def test_a_full_board_with_a_merge_is_not_over(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, _LAST_MOVE)
    wait(arcade, 500)
    assert game.state == 0 and not shows_big(board.panel, "Over")


# ---- hints and the demo -----------------------------------------------------------
def test_hint_says_thinking_then_shows_a_direction(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, [1, 2, 3, 4, 0, 0, 0, 1] + [0] * 8)
    board.press("D")
    frames(arcade)
    assert shows_tiny(board.panel, "THINKING...")
    frames(arcade, 2)
    board.release("D")
    frames(arcade, 3)
    assert game.hint in range(4) and game.game.can_slide(game.hint)
    assert shows(board.panel, DIRECTION_NAMES[game.hint].upper())
    assert game.game.moves == 5                                       # a hint is not a move
    word = DIRECTION_NAMES[game.hint].upper()
    nudge(board, arcade, DIRECTION_NAMES[game.hint])
    wait(arcade, 100)
    assert game.hint == -1 and not shows(board.panel, word)     # gone with the move


def test_holding_d_plays_until_let_go(board, store_dir):
    arcade = open_game(board, store_dir)
    game = arcade.screen
    board.press("D")
    wait(arcade, 3000)
    played = game.game.moves
    assert played >= 7                          # ~4 a second after the first 0.6 s
    assert shows_tiny(board.panel, "DEMO")
    board.release("D")
    wait(arcade, 1000)
    assert game.game.moves == played
    assert load(store_dir)["game"]["moves"] == played
    assert panel_board(board) == list(game.game.board)


# ---- saving and resuming ------------------------------------------------------------
def test_resume_after_the_menu_and_after_a_power_cut(board, store_dir):
    arcade = open_game(board, store_dir)
    game = arcade.screen
    for _ in range(6):
        nudge(board, arcade, DIRECTION_NAMES[slidable(game)[0]])
    g = game.game
    saved = (list(g.board), g.score, g.moves)
    tap(board, arcade, "B")
    assert type(arcade.screen).__name__ == "Menu"
    assert shows(board.panel, "Continue")
    choose(board, arcade, "2048")
    frames(arcade, 3)
    g = arcade.screen.game
    assert (list(g.board), g.score, g.moves) == saved
    assert panel_board(board) == saved[0]
    nudge(board, arcade, DIRECTION_NAMES[slidable(arcade.screen)[0]])
    saved = (list(g.board), g.score, g.moves)

    again = boot(board, store_dir)                 # power cut: a new HAL, same flash
    to_menu(board, again)
    choose(board, again, "Continue")
    frames(again, 3)
    g = again.screen.game
    assert (list(g.board), g.score, g.moves) == saved
    assert panel_board(board) == saved[0]
    tap(board, again, "C")                         # undo survives too
    assert again.screen.game.moves == saved[2] - 1


def test_a_damaged_save_starts_a_new_game(board, store_dir):
    (store_dir / "g2048.json").write_text(json.dumps({"game": {"board": [1, 2]}}))
    arcade = open_game(board, store_dir)
    assert arcade.screen.game.moves == 0
    assert sum(1 for e in arcade.screen.game.board if e) == 2


# ---- big tiles -------------------------------------------------------------------
def test_every_tile_up_to_131072_is_drawn_and_they_all_differ(board, store_dir):
    arcade = open_game(board, store_dir)
    game = arcade.screen
    game.game.keep_going = True
    looks = {}
    for first in (1, 2):
        exps = [min(first + i, 17) for i in range(16)]
        set_board(arcade, exps)
        for i in range(16):
            cell = panel_cell(board, i)
            assert cell == expected_cell(exps[i])
            looks[exps[i]] = tuple(map(tuple, cell))
    assert len(looks) == 17 and len(set(looks.values())) == 17
    for e, cell in looks.items():
        assert sum(map(sum, cell)) > 8                     # something is there
        assert not any(cell[15]) and not any(r[15] for r in cell)   # the gap stays dark
    assert g2048_draw.tile_label(14) == "16K" and g2048_draw.tile_label(17) == "128K"
    assert g2048_draw.tile_label(10) == "1K" and g2048_draw.tile_label(13) == "8K"


@pytest.mark.parametrize("e", range(1, 18))
def test_a_tile_reads_as_one_number_inside_its_border(e):
    """Every label on one line (no "10" over "24"), clear of the box's border,
    and 1K .. 64K in the 4x7 digits."""
    cell = expected_cell(e)
    filled = e >= 10
    label = [(x, y) for y in range(1, 14) for x in range(1, 14) if cell[y][x] != filled]
    rows = {y for x, y in label}
    assert label and max(rows) - min(rows) < 7               # one line of text
    assert all(cell[0][x] and cell[14][x] for x in range(1, 14))   # the border is whole
    if e < 17:                       # "128K" (3x5) spans the whole filled box
        assert all(cell[y][0] and cell[y][14] for y in range(1, 14))
    if 10 <= e <= 16:
        assert max(rows) - min(rows) == 6                    # 4x7 digits


def test_best_score_is_kept_across_a_reboot(board, store_dir):
    arcade = open_game(board, store_dir)
    game = set_board(arcade, [1, 1] + [0] * 14, score=7000)
    nudge(board, arcade, "left")
    tap(board, arcade, "B")                                 # leaving keeps the record
    assert arcade.records.get("2048")["best score"] == 7004
    again = boot(board, store_dir)
    to_menu(board, again)
    choose(board, again, "2048")
    tap(board, again, "A")
    tap(board, again, "A")                                 # a new game
    wait(again, 100)
    assert again.screen.game.score == 0
    assert shows(board.panel, "7004")


def test_the_helpers_use_only_the_public_surface_the_screen_lists():
    """g2048_draw, g2048_hint and g2048_end take the screen as `screen` and use
    only what g2048's docstring lists of it, none of its private names."""
    import ast
    import inspect
    import re
    from firmware.screens import g2048_end, g2048_hint
    doc = g2048.__doc__
    surface = doc[doc.index("public surface"):doc.index("Helpers:")]
    for module in (g2048_draw, g2048_hint, g2048_end):
        used = {node.attr for node in ast.walk(ast.parse(inspect.getsource(module)))
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "screen"}
        assert used, module.__name__
        for name in used:
            assert not name.startswith("_") and re.search(r"\b%s\b" % name, surface), \
                (module.__name__, name)
