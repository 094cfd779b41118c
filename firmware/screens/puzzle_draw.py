"""The puzzle screen's drawing (firmware/screens/puzzle.py): the grid, its
cells and the panel beside it. Held by the screen for the whole game.

The grid is drawn with lines (as on the ML4M 15-puzzle); a move repaints only
the cells it touched (screen.dirty_cells) and the panel fields that changed
(the bits in screen.panel).
"""
import time

from micropython import const

from firmware.screens.base import STATUS_LINE, HELP_LINE, ALL_FIELDS
from firmware.screens.puzzle_shared import PLAY, WON, ASK, HELP, LEVEL_NAMES, MOVES_FIELD, \
    TIME_FIELD, LEVEL_FIELD, MODE_FIELD
from firmware.ui import WIDTH, HEIGHT, clock_text, tinyfont

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.puzzle import Game

_PANEL_X = const(66)          # the panel's left edge (the 5x5 grid ends at 61)



def draw_screen(screen: "Game", fb):
    """A frame: what changed since the last one."""
    state = screen.state
    if state == ASK:
        if screen.repaint(fb):
            board(screen, fb)
            panel(screen, fb)
            with screen.borrow("firmware.ui.draw") as draw:   # (only for this box)
                draw.ask(fb, "New game?")
    elif state == WON and screen.picture_mode and \
            time.ticks_diff(screen.hal.clock.now(), screen.banner.start) < 0:
        whole_picture(screen, fb)          # solved: the finished picture first
    elif state != PLAY:
        screen.draw_banner(fb)
    elif screen.picture_mode and screen.preview:
        whole_picture(screen, fb)
    elif screen.repaint(fb):
        board(screen, fb)
        panel(screen, fb)
    # the panel waits a frame after cells: the display sends one span of
    # columns per page, and a cell and the counter on the same page would
    # make it cover everything between them
    elif not changed_cells(screen, fb):
        panel(screen, fb)


def board(screen: "Game", fb):
    """The grid and every cell, on a cleared screen (GameScreen.repaint)."""
    pitch = screen.pitch
    side = screen.grid_side
    top = screen.grid_top
    for i in range(screen.size + 1):
        fb.hline(0, top + i * pitch, side, 1)
        fb.vline(i * pitch, top, side, 1)
    dirty_cells = screen.dirty_cells
    for i in range(screen.cell_count):
        cell(screen, fb, i)
        dirty_cells[i] = 0


def changed_cells(screen: "Game", fb):
    """The cells a move touched; True when there were any."""
    dirty_cells = screen.dirty_cells
    drew = False
    for i in range(screen.cell_count):
        if dirty_cells[i]:
            dirty_cells[i] = 0
            cell(screen, fb, i)
            drew = True
    return drew


def cell(screen: "Game", fb, i):
    """Cell i: its tile (a number, or a piece of the picture), lit up for the
    hint, framed for the cursor."""
    pitch = screen.pitch
    inside = pitch - 1
    x = (i % screen.size) * pitch + 1
    y = screen.grid_top + (i // screen.size) * pitch + 1
    tile = screen.puzzle.tiles[i]
    hint = i == screen.hint_index
    cursor = screen.cursor_on and i == screen.cursor
    if screen.picture_mode:
        screen.helper("firmware.screens.puzzle_pictures").draw_cell(screen, fb, tile, x, y, hint, cursor)
        return
    fb.fill_rect(x, y, inside, inside, 1 if hint else 0)
    if tile:
        tinyfont.centred(fb, str(tile), x, y, inside, inside, 0 if hint else 1, 2, screen.font_scale)
    if cursor:
        fb.rect(x, y, inside, inside, 0 if hint else 1)


def whole_picture(screen: "Game", fb):
    """Picture mode: the whole picture where the grid goes (the preview, a
    solved puzzle), and the panel."""
    if screen.repaint(fb):                 # all of it: the last screen's pixels
        fb.blit(screen.picture_fb, 0, screen.grid_top)   # showed between the fields
    panel(screen, fb)


def _clear(fb, y, height):
    fb.fill_rect(_PANEL_X, y, WIDTH - _PANEL_X, height, 0)


def panel(screen: "Game", fb):
    """The panel's fields that changed since it was last drawn."""
    bits = screen.panel
    screen.panel = 0
    x = _PANEL_X
    if bits & MOVES_FIELD:
        _clear(fb, 0, 16)
        tinyfont.text(fb, "MOVES", x, 0)
        fb.text(str(screen.puzzle.moves), x, 8, 1)   # one page: a move resends it
    if bits & TIME_FIELD:
        secs = screen.play_ms // 1000
        screen.shown_secs = secs
        _clear(fb, 17, 16)
        tinyfont.text(fb, "TIME", x, 17)
        fb.text(clock_text(secs), x, 24, 1)
    if bits & LEVEL_FIELD:
        _clear(fb, 34, 6)
        tinyfont.text(fb, "SHUFFLE " + LEVEL_NAMES[screen.level], x, 34)
    if bits & MODE_FIELD:
        _clear(fb, 41, 6)
        if screen.picture_mode:
            text = "PICTURE %d/%d" % (screen.picture + 1, len(screen.picture_names))
        else:
            text = "NUMBERS"
        tinyfont.text(fb, text, x, 41)
    if bits & STATUS_LINE:
        _clear(fb, 48, 6)
        tinyfont.text(fb, status_text(screen), x, 48)
    if bits & HELP_LINE:
        _clear(fb, 57, 7)
        tinyfont.text(fb, screen.help_line(help_lines(screen)), x, 58)


def status_text(screen: "Game"):
    """The status line: a message, else what the screen is doing."""
    if screen.thinking:
        return "THINKING..."
    if screen.message:
        return screen.message
    if screen.state == WON:
        return "SOLVED!"
    if screen.preview:
        return "PICTURE"
    if screen.cursor_on:
        return "CURSOR MODE"
    return "%d-PUZZLE" % (screen.cell_count - 1)


def help_lines(screen: "Game"):
    """The help lines that fit what the screen is doing."""
    if screen.cursor_on and not screen.preview:
        return ("A SLIDE  B MENU", "STICK: CURSOR", "E: CURSOR OFF")
    if screen.picture_mode:
        return screen.helper("firmware.screens.puzzle_pictures").help_lines(screen)
    return HELP
