"""The Reversi screen's board and panel (firmware.screens.reversi_shared draws
through these; held by the screen except while an overlay covers the board).

The board takes the left 64x64: 8 px cells, white discs filled, black discs
hollow rings, dots between cells; a small plus marks the legal moves (the
"hints" setting), a plus inside the last disc placed marks the last
move; flipped discs blink for ~300 ms. The right side shows the disc counts
beside each colour's disc and name (so the rings read as Black), whose turn
it is, the mode and level, the result at the end (with the empty squares
the winner gets, as the rules count them), and the keys.

Only the squares marked in screen.cells are repainted, and only the panel's
fields whose bits are in screen.panel.
"""
import framebuf
from micropython import const

from firmware.games.reversi import BLACK, WHITE
from firmware.screens.base import STATUS_LINE, HELP_LINE
from firmware.screens.reversi_shared import (
    TWO_PLAYERS, DEMO, PLAY, OVER, HINT, PAINT, COUNTS, MODE, HELP,
    LEVEL_NAMES, colour_name)
from firmware.ui import WIDTH, HEIGHT, tinyfont

_TYPE_CHECKING = const(False)   # "Play" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.reversi_shared import Play

# Heap: private names are `_NAME = const(int)` (README: "Why the code looks like this").
_CELL = const(8)
_BORDER_X = const(64)        # a line between the board and the panel
_PANEL_X = const(66)

# the 7x7 pictures, MONO_HLSB (one byte a row, MSB leftmost)
PICTURES = tuple(framebuf.FrameBuffer(bytearray(rows), 7, 7, framebuf.MONO_HLSB) for rows in (
    b"\x38\x7c\xfe\xfe\xfe\x7c\x38",     # 0 white disc
    b"\x38\x7c\xee\xc6\xee\x7c\x38",     # 1 the last: a plus-shaped hole
    b"\x38\x44\x82\x82\x82\x44\x38",     # 2 black disc: a ring
    b"\x38\x44\x92\xba\x92\x44\x38",     # 3 the last: a plus inside
    b"\x00\x00\x10\x38\x10\x00\x00"))    # 4 a hint


def draw(screen: "Play", fb):
    """The board's squares and the panel's fields that changed (everything
    after a redraw())."""
    if screen.repaint(fb):
        for y in range(0, HEIGHT, _CELL):
            for x in range(0, _BORDER_X, _CELL):
                fb.pixel(x, y, 1)
        fb.vline(_BORDER_X, 0, HEIGHT, 1)
        for sq in range(11, 89):
            if 0 < sq % 10 < 9:
                _square(screen, fb, sq)
        screen.marked = False
        screen.cursor_drawn = -1
    elif screen.marked:
        screen.marked = False
        cells = screen.cells
        for sq in range(11, 89):
            if cells[sq] & PAINT:
                _square(screen, fb, sq)
    if screen.panel:
        _panel(screen, fb)


def _square(screen: "Play", fb, sq):
    screen.cells[sq] &= HINT
    disc = screen.game.board[sq]
    x = (sq % 10 - 1) * _CELL + 1
    y = (sq // 10 - 1) * _CELL + 1
    if disc and screen.flip_n and (screen.flip_phase & 1) == 0:
        flips = screen.flips
        for i in range(screen.flip_n):     # a flipped disc blinks its old colour
            if flips[i] == sq:
                disc = 3 - disc
                break
    last = sq == screen.last_sq
    if disc == WHITE:
        fb.blit(PICTURES[1 if last else 0], x, y)
    elif disc == BLACK:
        fb.blit(PICTURES[3 if last else 2], x, y)
    elif screen.cells[sq]:
        fb.blit(PICTURES[4], x, y)
    else:
        fb.fill_rect(x, y, 7, 7, 0)


def cursor(screen: "Play", fb):
    """The cursor's frame where it is (while it blinks on), erased where it was."""
    want = screen.cy * 8 + screen.cx if screen.cursor_shown else -1
    old = screen.cursor_drawn
    if want == old:
        return
    if old >= 0:                           # erase: the frame runs only over the grid dots
        x = (old & 7) * _CELL
        y = (old >> 3) * _CELL
        fb.rect(x, y, _CELL + 1, _CELL + 1, 0)
        fb.pixel(x, y, 1)
        fb.pixel(x + _CELL, y, 1)
        if y + _CELL < HEIGHT:
            fb.pixel(x, y + _CELL, 1)
            fb.pixel(x + _CELL, y + _CELL, 1)
        fb.vline(_BORDER_X, 0, HEIGHT, 1)
    if want >= 0:
        fb.rect(screen.cx * _CELL, screen.cy * _CELL, _CELL + 1, _CELL + 1, 1)
    screen.cursor_drawn = want


def _panel(screen: "Play", fb):
    fields = screen.panel
    screen.panel = 0
    game = screen.game
    x = _PANEL_X
    if fields & COUNTS:
        # a small arrow (whose turn), the disc, the count, the colour's
        # name beside its disc (the convention said on screen), who plays it
        for colour, y in ((BLACK, 1), (WHITE, 11)):
            fb.fill_rect(x, y - 1, WIDTH - _PANEL_X, 10, 0)
            if screen.state == PLAY and game.turn == colour:
                fb.vline(x, y + 1, 5, 1)
                fb.vline(x + 1, y + 2, 3, 1)
                fb.pixel(x + 2, y + 3, 1)
            fb.blit(PICTURES[0 if colour == WHITE else 2], x + 4, y)
            n = game.count(colour)
            tinyfont.text(fb, str(n), x + (18 if n < 10 else 13), y, 1, 2)
            tinyfont.text(fb, colour_name(colour).upper(), x + 25, y + 1)
            if screen.mode != TWO_PLAYERS:
                tinyfont.text(fb, "YOU" if screen.human(colour) else "CPU", x + 49, y + 1)
    if fields & MODE:
        fb.fill_rect(x, 21, WIDTH - _PANEL_X, 6, 0)
        if screen.mode == TWO_PLAYERS:
            text = "2 PLAYERS"
        else:
            text = ("DEMO" if screen.mode == DEMO else "CPU") + " " + LEVEL_NAMES[screen.level]
        tinyfont.text(fb, text, x, 21)
    if fields & STATUS_LINE:
        fb.fill_rect(x, 28, WIDTH - _PANEL_X, 29, 0)
        line1, line2, detail, note = status(screen)
        fb.text(line1, x, 29, 1)
        fb.text(line2, x, 38, 1)
        if note:                           # two small lines under the big ones
            tinyfont.text(fb, detail, x, 46)
            tinyfont.text(fb, note, x, 52)
        else:
            tinyfont.text(fb, detail, x, 49)
    if fields & HELP_LINE:
        fb.fill_rect(x, 57, WIDTH - _PANEL_X, 7, 0)
        if screen.state == OVER:
            lines = ("A NEW  B MENU", "E PAUSE MENU")
        elif screen.mode == DEMO:          # the CPU plays both: no A
            lines = ("B MENU", "E PAUSE MENU")
        else:
            lines = HELP
        tinyfont.text(fb, screen.help_line(lines), x, 58)


def status(screen: "Play"):
    """The panel's status lines: two big, two small."""
    if screen.state == OVER:
        return screen.end_lines            # (reversi_end: the result)
    turn = colour_name(screen.game.turn)
    if screen.message:
        detail = screen.message
    elif screen.thinking:
        detail = "THINKING..."
    elif screen.mode != TWO_PLAYERS and screen.human(screen.game.turn):
        detail = "YOUR MOVE"
    else:
        detail = ""
    return turn, "thinks" if screen.thinking else "to move", detail, ""

