"""The start of a puzzle game (firmware/screens/puzzle.py): the size, the
mode and the screen's state, a new game shuffled at the chosen level, or a
saved one taken back.
Borrowed only then (see README, "Why the code looks like this")."""
import random

from micropython import const

from firmware.games.npuzzle_setup import shuffle_uniform, shuffle_walk, from_dict
from firmware.games.npuzzle import Puzzle
from firmware.screens.puzzle_shared import PLAY

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.puzzle import Game




def set_up(screen: "Game", size, big_size_setting):
    """The screen's board and game state (the class Game declares them).
    The size and mode (numbers or picture) are the settings', or those of
    the game in progress when the settings changed since: they apply from
    the next game started (follow_settings). A 15-puzzle's game in progress
    may be a 24-puzzle; a save of another size is not this entry's: set aside
    (kept as .bad, the player told), not replaced by a new game unseen."""
    mode = screen.settings["mode"]
    saved = screen.load_progress()
    if saved and saved["size"] not in ((4, 5) if big_size_setting else (size,)):
        screen.hal.store.set_aside(screen.save_name, "size: not this puzzle's", screen.title)
        saved = None
    if saved:
        size = saved["size"]
        mode = saved["mode"]
    _board(screen, size, mode)


def settings_size(screen: "Game"):
    """Tiles per side of a new game: the variant's, or 5 where the "big"
    setting makes the 15-puzzle a 24-puzzle (the pause menu may change it)."""
    options = screen.options
    if options.get("big_size_setting") and screen.settings["big"] == 5:
        return 5
    return options.get("size", 4)


def follow_settings(screen: "Game"):
    """Before a new game: the size and mode Settings say now, if the game
    that ends began with others (the menu's entry already says so). True
    when they changed: picture mode is then set up again by the screen."""
    size, mode = settings_size(screen), screen.settings["mode"]
    if size == screen.size and mode == screen.mode:
        return False
    screen.puzzle = None                 # the old board's memory first
    screen.dirty_cells = None
    if screen.picture_mode:              # and the old picture's
        screen.picture_fb = screen.tile_fb = None   # type: ignore[assignment]  # (gone)
        screen.picture_mode = False
        screen.let_go("firmware.screens.puzzle_pictures")          # (set up again if still wanted)
    _board(screen, size, mode)
    return True


def _board(screen: "Game", size, mode):
    screen.size = size                   # tiles per side
    screen.cell_count = size * size
    # Per size 3, 4, 5: the cell pitch (pixels from one grid line to the next)
    # and the grid's top row. Both are chosen so that cells cross as few 8-row
    # pages of the panel as they can: a move resends its two cells, page by
    # page (a 3x3 with a pitch of 21 filled the height, but its middle row
    # crossed 4 pages).
    screen.pitch = (20, 15, 12)[size - 3]
    screen.grid_side = screen.pitch * size + 1   # in pixels, both grid lines included
    screen.grid_top = (0, 1, 1)[size - 3]
    screen.mode = mode
    screen.records_group = "%d-Puzzle %s" % (size * size - 1, mode)
    screen.font_scale = 2 if size == 3 else 1
    screen.hinter = None                 # a Hinter once a hint is asked for
    screen.level = screen.settings["level_" + screen.prefs]

    screen.puzzle = Puzzle(size)
    screen.state = PLAY
    screen.lost_at = 0
    screen.play_ms = 0                   # playing time of this game
    screen.optimal = None                # 8-puzzle: best possible from the start
    screen.helped = False                # the solver played moves (no records)
    screen.game_level = screen.level
    screen.cursor_on = False
    screen.cursor = 0
    screen.hint_index = -1
    screen.thinking = False
    screen.solve_next = None             # set by a D press on the screen
    screen.preview = 0                   # picture mode: the whole picture shows
    screen.last_frame = screen.hal.clock.now()
    screen.shown_secs = -1
    screen.dirty_cells = bytearray(screen.cell_count)   # 1: repaint this cell


def new_game(screen: "Game", now):
    """Shuffle at the chosen level; the best possible length of an 8-puzzle;
    the last game's time, help, hint, cursor and banner gone."""
    puzzle = screen.puzzle
    screen.game_level = screen.level
    if screen.level == 0:
        shuffle_uniform(puzzle, random)
    else:
        # random-walk pushes per shuffle level (easy, medium, hard), times the size
        shuffle_walk(puzzle, random, (0, 4, 12, 30)[screen.level] * screen.size)
    screen.optimal = None
    if screen.size == 3:
        try:
            with screen.borrow("firmware.games.npuzzle_solver") as solver:
                screen.optimal = solver.optimal_length8(puzzle.tiles)
        except MemoryError:     # "best possible" is a bonus: the game goes on
            screen.say("NO MEM FOR BEST", now)
    screen.play_ms = 0
    screen.helped = False
    if screen.hinter is not None:
        screen.hinter.forget()
    screen.hint_index = -1
    screen.thinking = False
    screen.state = PLAY
    screen.show_banner(None)
    screen.hal.display.invert(False)
    screen.cursor_on = False
    cursor_home(screen)


def restore(screen: "Game", data):
    """A saved game back (data checked by save_checks.puzzle); False when it
    is one of another size or mode, or solved."""
    if data["size"] != screen.size or data["mode"] != screen.mode:
        return False
    # a puzzle the rules refuse raises ValueError: resume() sets the save aside
    puzzle = from_dict(data["puzzle"])
    if puzzle.width != screen.size:
        raise ValueError("puzzle width: not the save's size")
    if puzzle.is_solved():
        return False
    screen.play_ms = data["ms"]
    screen.optimal = data["optimal"]
    screen.helped = data["helped"]
    screen.game_level = data["level"]
    screen.puzzle = puzzle
    cursor_home(screen)
    return True


def cursor_home(screen: "Game"):
    """The cursor on a tile next to the blank."""
    for direction in range(4):
        i = screen.puzzle.tile_for_push(direction)
        if i >= 0:
            screen.cursor = i
            return
