"""The N-puzzle screen on the emulated board: play, hints, pictures, the end of
a game, records, saving and resuming."""
import json
import random

import framebuf
import pytest

from tests import saves

from firmware.games.npuzzle import Puzzle, DIRECTION_NAMES
from firmware.games import npuzzle, npuzzle_hints, npuzzle_setup, npuzzle_solver as solver
from firmware.ui import tinyfont
from firmware.ui.banner import big_text
from tests.panel import shows
from tests.test_app import set_game_setting, boot, frames, tap, nudge, choose, to_menu, wait

PICTURES = "firmware.screens.puzzle_pictures"   # picture mode's helper


# ---- helpers -------------------------------------------------------------------
def open_game(board, store_dir, title="15-Puzzle", **settings):
    arcade = boot(board, store_dir)
    for name, value in settings.items():
        set_game_setting(arcade, "puzzle", name, value)
    to_menu(board, arcade)
    choose(board, arcade, title)
    assert type(arcade.screen).__name__ == "Game"
    frames(arcade, 2)
    return arcade


def saved_game(store_dir, name, tiles, width, moves=3, mode="numbers", ms=5000):
    """A game in progress written where the screen resumes it from."""
    p = Puzzle(width, bytearray(tiles))
    p.moves = moves
    data = {"size": width, "mode": mode, "puzzle": p.to_dict(), "ms": ms,
            "level": 0, "optimal": None, "helped": False}
    (store_dir / (name + ".json")).write_text(json.dumps(data))


def load(store_dir, name):
    path = store_dir / (name + ".json")
    return saves.read(path)


def play(board, arcade, pushes):
    for d in pushes:
        nudge(board, arcade, DIRECTION_NAMES[d])


def cell_box(game, i):
    p = game.pitch
    return (i % game.size) * p + 1, game.grid_top + (i // game.size) * p + 1, p - 1


def panel_cell(board, game, i):
    x, y, s = cell_box(game, i)
    return [[board.panel.pixel(x + dx, y + dy) for dx in range(s)] for dy in range(s)]


def expected_number_cell(game, tile, inverted=False):
    s = game.pitch - 1
    fb = framebuf.FrameBuffer(bytearray(s * s), s, s, framebuf.MONO_HLSB)
    fb.fill(1 if inverted else 0)
    if tile:
        tinyfont.centred(fb, str(tile), 0, 0, s, s, 0 if inverted else 1, 2, game.font_scale)
    return [[fb.pixel(x, y) for x in range(s)] for y in range(s)]


def fb_rows(fb, w, h, x0=0, y0=0):
    return [[fb.pixel(x0 + x, y0 + y) for x in range(w)] for y in range(h)]


def shows_big(panel, text):
    """The banner's double-size title somewhere on the panel."""
    w = 16 * len(text)
    fb = framebuf.FrameBuffer(bytearray(w * 2), w, 16, framebuf.MONO_VLSB)
    big_text(fb, text, 0, 0)
    want = [tuple(fb.pixel(x, y) for x in range(w)) for y in range(16)]
    inverse = [tuple(1 - p for p in row) for row in want]
    pixels = panel.pixels()
    for y in range(64 - 15):
        for x in range(128 - w + 1):
            for pattern in (want, inverse):
                if all(tuple(pixels[y + r][x:x + w]) == pattern[r] for r in range(16)):
                    return True
    return False


def pbm(width, height, bits_on=lambda x, y: (x // 4 + y // 4) % 2):
    stride = (width + 7) // 8
    data = bytearray(stride * height)
    for y in range(height):
        for x in range(width):
            if bits_on(x, y):
                data[y * stride + x // 8] |= 0x80 >> (x % 8)
    return b"P4\n# made by the test\n%d %d\n" % (width, height) + bytes(data)


# ---- a whole game ----------------------------------------------------------------
def test_8_puzzle_from_shuffle_to_win_screen(board, store_dir):
    random.seed(3)
    arcade = open_game(board, store_dir, "8-Puzzle")
    game = arcade.screen
    assert game.size == 3 and not game.puzzle.is_solved()
    path = solver.solve8(game.puzzle.tiles)
    assert game.optimal == len(path)
    play(board, arcade, path[:-1])
    assert shows(board.panel, str(len(path) - 1))           # the move counter
    saved = load(store_dir, "puzzle8")
    assert saved["puzzle"]["moves"] == len(path) - 1         # saved after every move
    inverted = []
    board.push(DIRECTION_NAMES[path[-1]])
    for _ in range(90):                                      # 3 s: scroll, flashes, rest
        frames(arcade)
        inverted.append(board.panel.inverted)
    board.center()
    frames(arcade, 2)
    assert game.state != 0 and game.banner.title == "You Win"
    assert True in inverted and not board.panel.inverted     # flashed, then back
    assert shows_big(board.panel, "You Win")
    secs = game.play_ms // 1000
    assert shows(board.panel, "%d moves %d:%02d" % (len(path), secs // 60, secs % 60))
    assert shows(board.panel, "best possible %d" % len(path))
    assert shows(board.panel, "New record!")
    assert arcade.records.get("8-Puzzle numbers") == {"fewest moves": len(path), "fastest time": secs}
    assert load(store_dir, "puzzle8") == {}                  # no game in progress
    tap(board, arcade, "A")                                  # a new game
    assert game.state == 0 and game.puzzle.moves == 0 and not game.puzzle.is_solved()


def test_a_slower_win_is_no_record(board, store_dir):
    arcade = boot(board, store_dir)
    arcade.records.best("15-Puzzle numbers", "fewest moves", 1)
    arcade.records.best("15-Puzzle numbers", "fastest time", 0)
    tiles = list(range(1, 16)) + [0]
    tiles[14], tiles[15] = 0, 15
    saved_game(store_dir, "puzzle15", tiles, 4)
    to_menu(board, arcade)
    choose(board, arcade, "15-Puzzle")
    nudge(board, arcade, "left")
    wait(arcade, 2500)
    assert shows_big(board.panel, "You Win")
    assert shows(board.panel, "4 moves 0:05")
    assert not shows(board.panel, "New record!")


# ---- drawing ---------------------------------------------------------------------
def test_number_mode_draws_every_tile(board, store_dir):
    random.seed(5)
    arcade = open_game(board, store_dir, "15-Puzzle")
    game = arcade.screen
    for i in range(16):
        assert panel_cell(board, game, i) == expected_number_cell(game, game.puzzle.tiles[i]), i
    assert shows(board.panel, "0")         # moves
    assert shows(board.panel, "0:00")      # time


def test_picture_mode_shows_the_picture_then_its_tiles(board, store_dir):
    random.seed(6)
    arcade = open_game(board, store_dir, "8-Puzzle", mode="picture")
    game = arcade.screen
    assert game.records_group == "8-Puzzle picture"
    g = game.grid_side
    # the finished picture first
    assert fb_rows(game.picture_fb, g, g) == [[board.panel.pixel(x, game.grid_top + y) for x in range(g)]
                                          for y in range(g)]
    tap(board, arcade, "A")                # the player starts the game
    s = game.pitch - 1
    for i in range(9):
        tile = game.puzzle.tiles[i]
        want = fb_rows(game.helper(PICTURES).tile(game, tile), s, s) if tile else [[0] * s for _ in range(s)]
        assert panel_cell(board, game, i) == want, i
    # tile t is the picture's piece at cell t - 1
    x, y, _ = cell_box(game, 4)
    assert fb_rows(game.helper(PICTURES).tile(game, 5), s, s) == fb_rows(game.picture_fb, s, s, x, y - game.grid_top)
    # hold C: the picture again; the stick changes it
    first = game.picture_names[game.picture]
    board.press("C")
    wait(arcade, 600)
    assert game.preview == 2
    nudge(board, arcade, "right")
    assert game.picture_names[game.picture] != first
    board.release("C")
    frames(arcade, 3)
    assert game.preview == 0 and game.puzzle.moves == 0       # a hold is not an undo
    assert load(store_dir, "puzzle_settings")["picture_puzzle8"] == game.picture_names[game.picture]


def test_the_start_preview_leaves_nothing_of_the_menu_on_the_panel(board, store_dir):
    """The preview is the first picture after the menu: none of the menu's
    pixels may show between the side panel's fields (a line by TIME, a dot
    by SHUFFLE)."""
    random.seed(1)
    arcade = open_game(board, store_dir, "8-Puzzle", mode="picture")
    game = arcade.screen
    assert game.preview
    shown = board.panel.pixels()
    arcade.hal.display.fb.fill(0)          # the same screen drawn on a blank panel
    game.redraw()
    frames(arcade, 2)
    assert board.panel.pixels() == shown


def test_the_start_preview_waits_for_the_player(board, store_dir):
    """A new picture game shows the picture until the player starts it
    (A PLAY on its key line): the stick changes the picture however long it
    has been up, and the key that starts the game moves no tile."""
    random.seed(1)
    arcade = open_game(board, store_dir, "8-Puzzle", mode="picture")
    game = arcade.screen
    tiles = bytes(game.puzzle.tiles)
    wait(arcade, 5000)
    assert game.preview
    first = game.picture
    nudge(board, arcade, "right")          # long after 1.5 s: still the next picture
    assert game.picture != first and game.preview and game.puzzle.moves == 0
    assert "A PLAY  B MENU" in game.helper(PICTURES).help_lines(game)
    tap(board, arcade, "A")
    assert not game.preview and game.puzzle.moves == 0 and bytes(game.puzzle.tiles) == tiles
    for direction in ("left", "right", "up", "down"):
        nudge(board, arcade, direction)
        if game.puzzle.moves:
            break
    assert game.puzzle.moves == 1


@pytest.mark.parametrize("title,size", [("8-Puzzle", 4), ("15-Puzzle", 4), ("24-Puzzle", 5)])
def test_every_built_in_picture_has_distinct_tiles(board, store_dir, title, size):
    arcade = open_game(board, store_dir, title, mode="picture", big=size)
    game = arcade.screen
    for k in range(3):
        seen = set()
        for t in range(1, game.cell_count):
            seen.add(bytes(fb_rows_bytes(game.helper(PICTURES).tile(game, t), game.pitch - 1)))
        assert len(seen) == game.cell_count - 1, game.picture_names[game.picture]
        game.helper(PICTURES).load(game, 1)


def test_a_solved_picture_shows_whole_then_the_banner(board, store_dir):
    tiles = list(range(1, 25)) + [0]
    tiles[23], tiles[24] = 0, 24                 # one push from solved
    saved_game(store_dir, "puzzle15", tiles, 5, mode="picture")
    arcade = open_game(board, store_dir, "24-Puzzle", mode="picture", big=5)
    game = arcade.screen
    assert game.size == 5 and game.puzzle.moves == 3
    nudge(board, arcade, "left")
    g = game.grid_side
    assert game.state == 1
    # the finished picture, the blank's piece too, and no grid lines over it
    assert fb_rows(game.picture_fb, g, g) == [[board.panel.pixel(x, game.grid_top + y) for x in range(g)]
                                          for y in range(g)]
    wait(arcade, 2500)
    assert shows_big(board.panel, "You Win") and shows(board.panel, "A:new B:menu")


def test_a_hint_among_picture_tiles_blinks(board, store_dir):
    random.seed(12)
    arcade = open_game(board, store_dir, "24-Puzzle", mode="picture", big=5)
    game = arcade.screen
    tap(board, arcade, "A")                      # the picture shown at the start: play
    board.press("D")
    frames(arcade, 3)
    board.release("D")
    frames(arcade, 3)
    i = game.hint_index
    assert i >= 0
    s = game.pitch - 1
    plain = fb_rows(game.helper(PICTURES).tile(game, game.puzzle.tiles[i]), s, s)
    inverted = [[1 - v for v in row] for row in plain]
    seen = []
    for _ in range(30):
        frames(arcade)
        seen.append(panel_cell(board, game, i))
    assert plain in seen and inverted in seen


def fb_rows_bytes(fb, s):
    return bytes(fb.pixel(x, y) for y in range(s) for x in range(s))


# ---- moves -----------------------------------------------------------------------
def test_push_moves_the_neighbour_and_clicks(board, store_dir):
    tiles = [1, 2, 3, 4, 5, 6, 7, 0, 8]          # blank in the middle of the bottom row
    saved_game(store_dir, "puzzle8", tiles, 3, moves=2)
    arcade = open_game(board, store_dir, "8-Puzzle")
    game = arcade.screen
    writes = len(board.dac_log)
    nudge(board, arcade, "right")                # the tile left of the blank (7) moves right
    assert list(game.puzzle.tiles) == [1, 2, 3, 4, 5, 6, 0, 7, 8]
    assert game.puzzle.moves == 3
    assert len(board.dac_log) > writes           # the click
    assert panel_cell(board, game, 7) == expected_number_cell(game, 7)
    assert panel_cell(board, game, 6) == expected_number_cell(game, 0)


def test_illegal_push_makes_a_sound_and_no_move(board, store_dir):
    tiles = [1, 2, 3, 4, 5, 6, 7, 0, 8]
    saved_game(store_dir, "puzzle8", tiles, 3, moves=2)
    arcade = open_game(board, store_dir, "8-Puzzle")
    game = arcade.screen
    before = (len(board.pwm_log), len(board.dac_log))
    nudge(board, arcade, "up")                   # nothing below the blank
    assert list(game.puzzle.tiles) == tiles and game.puzzle.moves == 2
    assert (len(board.pwm_log), len(board.dac_log)) != before


def test_joystick_auto_repeat_moves_along_a_row(board, store_dir):
    tiles = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 13, 14, 15]
    saved_game(store_dir, "puzzle15", tiles, 4, moves=3)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    board.push("left")
    wait(arcade, 700)
    board.center()
    frames(arcade, 3)
    assert game.state == 1                       # three pushes solved it
    assert game.puzzle.moves == 6


def cursor_mode(board, arcade):
    """The pause menu's Cursor mode row (E, down to it, A)."""
    tap(board, arcade, "E")
    pause = arcade.screen
    while pause.rows[pause.cursor][1] != "Cursor mode":
        nudge(board, arcade, "down")
    tap(board, arcade, "A")


def test_cursor_slide_counts_k_moves_and_undo_takes_it_back(board, store_dir):
    tiles = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 12]
    saved_game(store_dir, "puzzle15", tiles, 4, moves=7)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    assert list(game.puzzle.tiles) == tiles
    cursor_mode(board, arcade)
    assert game.cursor_on and game.cursor == 10
    assert shows_text_cursor(board, game, 10)
    nudge(board, arcade, "left")
    nudge(board, arcade, "left")
    assert game.cursor == 8
    assert game.puzzle.moves == 7                # the stick moved the cursor only
    tap(board, arcade, "A")                      # slide 9 10 11 right
    assert list(game.puzzle.tiles[8:12]) == [0, 9, 10, 11]
    assert game.puzzle.moves == 10 and game.state == 0
    for i in (8, 9, 10, 11):
        inside = [row[1:-1] for row in panel_cell(board, game, i)[1:-1]]     # within the cursor
        assert inside == [row[1:-1] for row in expected_number_cell(game, game.puzzle.tiles[i])[1:-1]]
    nudge(board, arcade, "up")
    nudge(board, arcade, "right")                # a tile off the blank's lines
    before = (len(board.pwm_log), len(board.dac_log))
    tap(board, arcade, "A")
    assert game.puzzle.moves == 10
    assert (len(board.pwm_log), len(board.dac_log)) != before
    tap(board, arcade, "C")                      # undo the slide: 3 moves back
    assert list(game.puzzle.tiles) == tiles and game.puzzle.moves == 7
    cursor_mode(board, arcade)
    assert not game.cursor_on
    tap(board, arcade, "C")                      # nothing more to undo
    assert list(game.puzzle.tiles) == tiles and game.puzzle.moves == 7


def shows_text_cursor(board, game, i):
    x, y, s = cell_box(game, i)
    return all(board.panel.pixel(x + k, y) for k in range(s))


def test_undo_a_push(board, store_dir):
    random.seed(9)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    start = bytes(game.puzzle.tiles)
    d = game.puzzle.legal_pushes()[0]
    nudge(board, arcade, DIRECTION_NAMES[d])
    assert bytes(game.puzzle.tiles) != start
    tap(board, arcade, "C")
    assert bytes(game.puzzle.tiles) == start and game.puzzle.moves == 0


# ---- hints -----------------------------------------------------------------------
def test_hint_lights_a_correct_tile(board, store_dir):
    random.seed(11)
    arcade = open_game(board, store_dir, "8-Puzzle")
    game = arcade.screen
    tiles = bytes(game.puzzle.tiles)
    best = solver.optimal_length8(tiles)
    tap(board, arcade, "D")
    i = game.hint_index
    assert i >= 0 and game.puzzle.can_slide(i)
    assert panel_cell(board, game, i) == expected_number_cell(game, tiles[i], inverted=True)
    after = Puzzle(3, tiles)
    after.slide(i)
    assert solver.optimal_length8(after.tiles) == best - 1    # a move on an optimal path
    d = [d for d in range(4) if game.puzzle.tile_for_push(d) == i][0]
    nudge(board, arcade, DIRECTION_NAMES[d])
    assert game.hint_index == -1
    assert panel_cell(board, game, i) == expected_number_cell(game, 0)


def test_hint_on_the_15_puzzle_says_thinking_first(board, store_dir):
    random.seed(12)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    board.press("D")
    frames(arcade, 1)
    assert game.thinking
    frames(arcade, 2)
    board.release("D")
    frames(arcade, 2)
    assert not game.thinking and game.hint_index >= 0
    assert game.hint_index == game.puzzle.tile_for_push(npuzzle_hints.hint(npuzzle.Hinter(), game.puzzle))


def test_holding_hint_plays_the_solution(board, store_dir):
    random.seed(13)
    p = Puzzle(4)
    npuzzle_setup.shuffle_walk(p, random, 12)
    saved_game(store_dir, "puzzle15", p.tiles, 4, moves=1)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    n = len(solver.solution(game.puzzle))
    board.press("D")
    wait(arcade, 700 + 260 * n)
    board.release("D")
    frames(arcade, 2)
    assert game.state == 1 and game.puzzle.is_solved()
    assert game.puzzle.moves == 1 + n
    wait(arcade, 2500)
    assert shows(board.panel, "solved with help")
    assert arcade.records.get("15-Puzzle numbers") == {}      # no records with help


# ---- new game, difficulty, saving ------------------------------------------------
def test_a_mid_game_asks_and_b_says_no(board, store_dir):
    random.seed(14)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    nudge(board, arcade, DIRECTION_NAMES[game.puzzle.legal_pushes()[0]])
    tiles = bytes(game.puzzle.tiles)
    tap(board, arcade, "A")
    assert shows(board.panel, "New game?") and shows(board.panel, "A: yes B: no")
    game.suspend()                                      # (the screen saver would)
    assert load(store_dir, "puzzle15")                  # still saved while it asks
    tap(board, arcade, "B")                             # no: the game goes on, B did not leave
    assert arcade.screen is game and game.state == 0
    assert bytes(game.puzzle.tiles) == tiles and game.puzzle.moves == 1
    assert not shows(board.panel, "New game?")


def test_a_mid_game_asks_then_shows_you_lost_then_a_new_game(board, store_dir):
    random.seed(14)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    nudge(board, arcade, DIRECTION_NAMES[game.puzzle.legal_pushes()[0]])
    assert load(store_dir, "puzzle15")
    tap(board, arcade, "A")
    assert game.state == 3 and game.puzzle.moves == 1   # asks first
    board.press("A")
    inverted = []
    for _ in range(40):
        frames(arcade)
        inverted.append(board.panel.inverted)
    board.release("A")
    assert game.state == 2 and True in inverted
    assert shows_big(board.panel, "You Lost")
    assert shows(board.panel, "after 1 move") and not shows(board.panel, "after 1 moves")
    assert shows(board.panel, "A:new B:menu")
    assert load(store_dir, "puzzle15") == {}
    wait(arcade, 1500)
    assert game.state == 0 and game.puzzle.moves == 0 and not board.panel.inverted
    assert not shows_big(board.panel, "You Lost")


def test_a_lost_game_holds_no_plan_and_after_the_pause_menu_one_copy_of_its_banners_code(
        board, store_dir):
    """Heap: a game's end lets go of the hint's plan, the undo steps and the
    grid's drawing. The
    pause menu lets the ended game's helpers go (puzzle_end and
    firmware.ui.banner, which it brought); when the game plays again they are
    imported afresh, and the banner is made again with the new code, so the
    old copy (~1 KB) is not kept alive by the old banner."""
    import sys
    random.seed(14)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    nudge(board, arcade, DIRECTION_NAMES[game.puzzle.legal_pushes()[0]])
    tap(board, arcade, "D")
    frames(arcade, 2)
    assert game.hinter is not None and game.hinter.plan   # a hint planned
    tap(board, arcade, "A")
    tap(board, arcade, "A")                             # give up: "You Lost"
    frames(arcade, 5)
    # what only play needs goes at the end: the hint's plan, the undo steps,
    # the grid's drawing (the banner covers the screen)
    assert game.hinter is None and not game.puzzle.history
    assert "firmware.screens.puzzle_draw" not in sys.modules
    before = game.banner
    tap(board, arcade, "E")
    assert "firmware.ui.banner" not in sys.modules      # let go while paused
    tap(board, arcade, "B")
    frames(arcade, 2)
    assert type(game.banner) is sys.modules["firmware.ui.banner"].Banner
    assert game.banner is not before
    assert (game.banner.title, game.banner.details, game.banner.keys) == (
        before.title, before.details, before.keys)
    frames(arcade, 25)                                  # the title in place
    assert shows_big(board.panel, "You Lost") and shows(board.panel, "after 1 move")
    wait(arcade, 1500)                                  # and a new game follows as before
    assert game.state == 0 and game.puzzle.moves == 0 and not board.panel.inverted
    assert "firmware.screens.puzzle_draw" in sys.modules   # back, and the grid drawn again:
    assert all(board.panel.pixel(x, game.grid_top) for x in range(game.grid_side))


def test_a_before_any_move_just_reshuffles(board, store_dir):
    random.seed(15)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    first = bytes(game.puzzle.tiles)
    tap(board, arcade, "A")
    assert game.state == 0 and bytes(game.puzzle.tiles) != first


def test_difficulty_cycles_and_is_kept(board, store_dir):
    random.seed(16)
    arcade = open_game(board, store_dir, "8-Puzzle")
    game = arcade.screen
    assert game.level == 0
    tap(board, arcade, "F")
    assert game.level == 1 and game.game_level == 1     # no move yet: reshuffled
    assert solver.optimal_length8(game.puzzle.tiles) <= 12
    assert game.optimal == solver.optimal_length8(game.puzzle.tiles)
    nudge(board, arcade, DIRECTION_NAMES[game.puzzle.legal_pushes()[0]])
    tap(board, arcade, "F")
    assert game.level == 2 and game.game_level == 1     # started: from the next game
    assert load(store_dir, "puzzle8")["level"] == 1
    tap(board, arcade, "B")
    choose(board, arcade, "8-Puzzle")
    assert arcade.screen.level == 2


def test_resume_after_the_menu_and_after_a_power_cut(board, store_dir):
    random.seed(17)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    for _ in range(3):
        legal = game.puzzle.legal_pushes()
        nudge(board, arcade, DIRECTION_NAMES[legal[-1]])
    tiles = bytes(game.puzzle.tiles)
    moves = game.puzzle.moves
    wait(arcade, 2000)
    ms = game.play_ms
    assert ms >= 2000
    tap(board, arcade, "B")
    assert type(arcade.screen).__name__ == "Menu"
    assert shows(board.panel, "Continue")
    wait(arcade, 3000)                      # time in the menu does not count
    choose(board, arcade, "Continue")
    again = arcade.screen
    assert bytes(again.puzzle.tiles) == tiles and again.puzzle.moves == moves
    assert ms <= again.play_ms < ms + 400
    tap(board, arcade, "C")                 # the undo history came along
    assert again.puzzle.moves == moves - 1
    nudge(board, arcade, DIRECTION_NAMES[again.puzzle.legal_pushes()[0]])
    tiles = bytes(again.puzzle.tiles)
    # power cut: a new HAL on the same flash
    rebooted = boot(board, store_dir)
    to_menu(board, rebooted)
    choose(board, rebooted, "15-Puzzle")
    assert bytes(rebooted.screen.puzzle.tiles) == tiles
    assert rebooted.screen.puzzle.moves == moves


def test_a_saved_game_keeps_its_mode_and_size_when_the_settings_change(board, store_dir):
    # the game in progress is not thrown away: the settings apply to the next game
    saved_game(store_dir, "puzzle8", [1, 2, 3, 4, 5, 6, 7, 0, 8], 3, mode="picture")
    arcade = open_game(board, store_dir, "8-Puzzle")           # mode: numbers
    assert arcade.screen.mode == "picture" and arcade.screen.puzzle.moves == 3
    saved_game(store_dir, "puzzle15", list(range(1, 15)) + [0, 15], 4, moves=7)
    arcade = open_game(board, store_dir, "15-Puzzle", big=5)  # (the menu names the save's size)
    assert arcade.screen.size == 4 and arcade.screen.puzzle.moves == 7


def test_the_menu_names_what_opens_and_a_new_game_follows_the_settings(board, store_dir):
    """A 15-puzzle left in progress, then Settings: Big puzzle 24, Tiles
    picture. The menu still says 15-Puzzle (Continue too), as that is what
    opens; the new game after it is a 24-puzzle in pictures, and then the
    menu says 24-Puzzle."""
    random.seed(19)
    arcade = open_game(board, store_dir, "15-Puzzle")
    game = arcade.screen
    nudge(board, arcade, DIRECTION_NAMES[game.puzzle.legal_pushes()[0]])
    assert game.puzzle.moves == 1
    set_game_setting(arcade, "puzzle", "big", 5)
    set_game_setting(arcade, "puzzle", "mode", "picture")
    tap(board, arcade, "B")
    menu = arcade.screen
    assert menu.resume_title == "15-Puzzle"
    assert "15-Puzzle" in menu.labels and "24-Puzzle" not in menu.labels
    choose(board, arcade, "Continue")
    game = arcade.screen
    assert (game.size, game.mode, game.puzzle.moves) == (4, "numbers", 1)
    tap(board, arcade, "A")                # New game? A: yes
    tap(board, arcade, "A")
    tap(board, arcade, "A")                # past "You Lost": the new game
    assert (game.size, game.mode, game.puzzle.moves) == (5, "picture", 0)
    assert game.preview and game.records_group == "24-Puzzle picture"
    tap(board, arcade, "A")                # the picture shown first: play
    nudge(board, arcade, DIRECTION_NAMES[game.puzzle.legal_pushes()[0]])
    assert load(store_dir, "puzzle15")["size"] == 5
    tap(board, arcade, "B")
    menu = arcade.screen
    assert menu.resume_title == "24-Puzzle" and "24-Puzzle" in menu.labels


def test_a_new_game_after_the_pause_menu_changed_the_mode_has_numbers_again(board, store_dir, monkeypatch):
    """The pause menu changes a puzzle's settings for its next game: a picture
    game, then Tiles numbers; the next game (A, asked first) has numbers, and
    picture mode's code and buffers are gone."""
    import sys
    from tests.test_app_release import unload
    unload(monkeypatch, "firmware.screens.puzzle_pictures")   # (other tests' copy)
    random.seed(21)
    arcade = open_game(board, store_dir, "8-Puzzle", mode="picture")
    game = arcade.screen
    tap(board, arcade, "A")                # the picture shown first: play
    nudge(board, arcade, DIRECTION_NAMES[game.puzzle.legal_pushes()[0]])
    game.settings["mode"] = "numbers"      # as the pause menu's Tiles row does
    for _ in range(3):                     # New game? A: yes; past "You Lost"
        tap(board, arcade, "A")
    assert (game.size, game.mode, game.puzzle.moves, game.preview) == (3, "numbers", 0, 0)
    assert not game.picture_mode and game.picture_fb is None
    assert "firmware.screens.puzzle_pictures" not in sys.modules
    assert game.records_group == "8-Puzzle numbers"


def test_24_puzzle_through_the_setting(board, store_dir):
    random.seed(18)
    arcade = open_game(board, store_dir, "24-Puzzle", big=5)
    game = arcade.screen
    assert game.size == 5 and game.records_group == "24-Puzzle numbers"
    for i in range(25):
        assert panel_cell(board, game, i) == expected_number_cell(game, game.puzzle.tiles[i]), i
    nudge(board, arcade, DIRECTION_NAMES[game.puzzle.legal_pushes()[0]])
    assert load(store_dir, "puzzle15")["size"] == 5


# ---- user pictures ---------------------------------------------------------------
def test_user_pbm_pictures_load_and_a_bad_one_is_skipped(board, store_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "a_bad.pbm").write_bytes(b"P4\n40 40\n\x00\x01")        # too short
    (folder / "b_text.pbm").write_bytes(b"P1\n2 2\n0 1 1 0\n")        # not binary
    (folder / "c_good.pbm").write_bytes(pbm(90, 60))
    (folder / "notes.txt").write_text("not a picture")
    arcade = open_game(board, store_dir, "15-Puzzle", mode="picture")
    game = arcade.screen
    assert game.picture_names[3:] == ["a_bad.pbm", "b_text.pbm", "c_good.pbm"]
    game.picture = 2
    board.press("C")
    wait(arcade, 500)
    nudge(board, arcade, "right")            # to a_bad: skipped, then b_text: skipped
    assert game.picture_names[game.picture] == "c_good.pbm"
    assert game.picture_names[3:] == ["c_good.pbm"]
    assert game.message.startswith("SKIPPED")
    board.release("C")
    frames(arcade, 3)
    # the centre 60x60 of the 90x60 checkerboard, scaled to the grid
    g = game.grid_side
    want = [[((15 + x * 60 // g) // 4 + (y * 60 // g) // 4) % 2 for x in range(g)] for y in range(g)]
    assert fb_rows(game.picture_fb, g, g) == want
    # kept as the choice for next time
    assert load(store_dir, "puzzle_settings")["picture_puzzle15"] == "c_good.pbm"


def test_a_missing_remembered_picture_falls_back(board, store_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (store_dir / "puzzle_prefs.json").write_text(json.dumps({"puzzle15": {"picture": "gone.pbm"}}))
    arcade = open_game(board, store_dir, "15-Puzzle", mode="picture")
    assert arcade.screen.picture == 0


# ---- the bus ---------------------------------------------------------------------
@pytest.mark.parametrize("title,size", [("8-Puzzle", 3), ("15-Puzzle", 4), ("24-Puzzle", 5)])
def test_a_one_tile_move_sends_little(board, store_dir, title, size):
    """Numbers mode: under 15% of a full frame (pictures: see the bench)."""
    random.seed(20)
    arcade = open_game(board, store_dir, title, big=5 if size == 5 else 4)
    game = arcade.screen
    wait(arcade, 100)
    for d in game.puzzle.legal_pushes():
        game.play_ms = game.shown_secs * 1000            # no tick of the timer meanwhile
        before = board.bus.bytes
        board.push(DIRECTION_NAMES[d])
        frames(arcade, 2)                           # the cells, then the counter
        sent = board.bus.bytes - before
        assert game.puzzle.moves % 2 == 1
        board.center()
        frames(arcade, 2)
        assert sent < 0.15 * 1030, (d, sent)
        nudge(board, arcade, DIRECTION_NAMES[d ^ 1])          # and back


def test_a_skipped_banner_stays_at_its_end(board, store_dir):
    """A skips the banner's animation; the next frame's update() must not
    take the scrolling up again (it did: the start time was kept)."""
    from firmware.ui.banner import Banner
    arcade = boot(board, store_dir)
    banner = Banner(arcade.hal.display, "You Win", ("1 move",), 1000, "A:new B:menu")
    banner.update(1100)
    assert not banner.finished()
    banner.skip(1100)
    assert banner.finished()
    banner.update(1133)
    assert banner.finished()
