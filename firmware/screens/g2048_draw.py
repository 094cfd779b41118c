"""What the 2048 screen (firmware.screens.g2048) shows: the tiles, the move
animation and the panel beside them. Always loaded with the screen, so the
constants the screen and its helpers share are here.

The left 64x64 holds the 4x4 tiles, 16x16 each (a 15x15 box with cut
corners and a one-pixel gap). How a tile shows its number:
  2 .. 64          outlined box, 4x7 digits
  128 .. 512       outlined box, 3x5 digits
  1K .. 64K        filled box, 4x7 digits and K in black: "1K" "2K" ... "64K"
                   (K = 1024: 1024 is 1K, 16384 is 16K), one number at a glance
  128K             filled box, 3x5 ("128K": 131072, the largest tile a 4x4
                   board can hold)
A move animates in three frames (under 100 ms at 30 fps): the tiles half-way
to where they go, the new board with the merged tiles flashing in the other
style, the new board with the new tile. Only what changed is sent to the
panel (the display compares with what it shows).

On the right: score, best score, the move count, the hint or a message, and
the keys (turning over while the player pauses).
"""
import framebuf
from micropython import const

from firmware.games.game2048 import DIRECTION_NAMES, NO_CELL
from firmware.screens.base import STATUS_LINE, HELP_LINE, FIRST_FIELD
from firmware.ui import WIDTH, HEIGHT, tinyfont

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.g2048 import Game

# The panel's own fields (bits of screen.panel, after the base's lines): the
# screen marks them when they change, draw_panel() repaints them.
SCORE_FIELD = FIRST_FIELD
BEST_FIELD = FIRST_FIELD << 1
MOVES_FIELD = FIRST_FIELD << 2

# screen.shown: what each cell shows, the tile's exponent (0: empty),
# plus _FLASHING while a merged tile flashes; _UNKNOWN: paint it whatever it is.
_FLASHING = const(32)
_UNKNOWN = const(255)

_PANEL_X = const(66)
_CELL = const(16)           # a cell's side, with its gap
_BOX = const(15)            # a tile's side
_SIDE = const(4)            # cells in a row

HELP = ("A NEW  B MENU", "C UNDO  D HINT", "HOLD D: DEMO", "E PAUSE")


def tile_label(e):
    """The number a tile of exponent e stands for, as shown (1: "2" ... 10: "1K" ...
    17: "128K"). A tuple of constants is one constant of the code: no text
    is made per frame."""
    return ("", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1K", "2K",
            "4K", "8K", "16K", "32K", "64K", "128K")[e]


def cell_x(i):
    """The left edge of cell i (0 .. 15, row by row from the top left)."""
    return i % _SIDE * _CELL


def cell_y(i):
    """The top edge of cell i."""
    return i // _SIDE * _CELL


def forget_cells(screen: "Game"):
    """Every cell is painted again on the next draw_board()."""
    shown = screen.shown
    for i in range(16):
        shown[i] = _UNKNOWN


def draw_play(screen: "Game", fb):
    """A frame of play: the next frame of the move's animation
    (screen.animation), else the cells that changed, else the panel's marked
    fields."""
    animation = screen.animation
    if animation == 1:
        screen.animation = 2
        draw_slide(screen, fb)
        return
    if animation == 2:
        screen.animation = 3
        draw_board(screen, fb, flash=True)
        return
    if animation == 3:
        screen.animation = 0
    if draw_board(screen, fb):
        # the panel waits a frame: the display sends one span of columns
        # per page, and a cell and a panel field on the same page would
        # make it send everything between them
        return
    if screen.panel:
        draw_panel(screen, fb)


def draw_board(screen: "Game", fb, flash=False):
    """The cells that differ from what they show; flash: the merged tiles
    flash and the new tile waits. True if any cell was drawn."""
    game = screen.game
    board = game.board
    shown = screen.shown
    merged = game.merged
    new_tile = game.spawn_at
    drew = False
    for i in range(16):
        e = board[i]
        if flash:
            if i == new_tile:
                e = 0
            elif merged[i]:
                e |= _FLASHING
        if shown[i] != e:
            shown[i] = e
            draw_tile(fb, cell_x(i), cell_y(i), e & ~_FLASHING, e & _FLASHING)
            drew = True
    return drew


def draw_slide(screen: "Game", fb):
    """The tiles half-way from where they were (screen.board_before) to where
    they go."""
    before = screen.board_before
    moved_to = screen.game.moved_to
    fb.fill_rect(0, 0, HEIGHT, HEIGHT, 0)   # the board: the panel's left square
    forget_cells(screen)
    for i in range(16):
        if not before[i]:
            fb.pixel(cell_x(i) + 7, cell_y(i) + 7, 1)
    for i in range(16):
        e = before[i]
        j = moved_to[i]
        if e and j != NO_CELL:
            draw_tile(fb, (cell_x(i) + cell_x(j)) // 2, (cell_y(i) + cell_y(j)) // 2, e, False)


def draw_tile(fb, x, y, e, flash):
    """One cell at (x, y): a dot when empty, else the tile of exponent e (see
    above); flash draws it in the other style."""
    fb.fill_rect(x, y, _CELL, _CELL, 0)
    if not e:
        fb.pixel(x + 7, y + 7, 1)
        return
    filled = e >= 10
    if flash:
        filled = not filled
    if filled:
        fb.fill_rect(x, y, _BOX, _BOX, 1)
    else:
        fb.rect(x, y, _BOX, _BOX, 1)
    fb.pixel(x, y, 0)
    fb.pixel(x + _BOX - 1, y, 0)
    fb.pixel(x, y + _BOX - 1, 0)
    fb.pixel(x + _BOX - 1, y + _BOX - 1, 0)
    colour = 0 if filled else 1
    # 4x7 digits where the label fits inside the box's border (13 pixels:
    # two digits, or up to two digits and a K), else 3x5
    size = 1 if 7 <= e <= 9 or e == 17 else 2
    tinyfont.centred(fb, tile_label(e), x, y, _BOX, _BOX, colour, size)


def draw_panel(screen: "Game", fb):
    """The fields marked in screen.panel, which is cleared."""
    fields = screen.panel
    screen.panel = 0
    x = _PANEL_X
    game = screen.game
    if fields & SCORE_FIELD:
        fb.fill_rect(x, 0, WIDTH - _PANEL_X, 14, 0)
        tinyfont.text(fb, "SCORE", x, 0)
        fb.text(str(game.score), x, 6, 1)
    if fields & BEST_FIELD:
        fb.fill_rect(x, 16, WIDTH - _PANEL_X, 14, 0)
        tinyfont.text(fb, "BEST", x, 16)
        fb.text(str(max(screen.best, game.score)), x, 22, 1)
    if fields & MOVES_FIELD:
        fb.fill_rect(x, 32, WIDTH - _PANEL_X, 6, 0)
        tinyfont.text(fb, "MOVES %d" % game.moves, x, 32)
    if fields & STATUS_LINE:
        fb.fill_rect(x, 40, WIDTH - _PANEL_X, 16, 0)
        if screen.thinking:
            tinyfont.text(fb, "THINKING...", x, 42)
        elif screen.hint >= 0:
            # blit, not ui.draw.icon (README "Why the code looks like this"); key 0: lit pixels
            # the hint's 8x8 arrow, rows MSB-left, in the rules' order of directions
            arrow = bytearray((
                b"\x10\x30\x7f\xff\x7f\x30\x10\x00",     # left
                b"\x08\x0c\xfe\xff\xfe\x0c\x08\x00",     # right
                b"\x18\x3c\x7e\xff\x18\x18\x18\x18",     # up
                b"\x18\x18\x18\x18\xff\x7e\x3c\x18",     # down
            )[screen.hint])
            fb.blit(framebuf.FrameBuffer(arrow, 8, 8, framebuf.MONO_HLSB), x, 40, 0)
            fb.text(DIRECTION_NAMES[screen.hint].upper(), x + 11, 40, 1)
            if screen.demo:
                tinyfont.text(fb, "DEMO", x, 50)
        elif screen.demo:
            tinyfont.text(fb, "DEMO", x, 50)
        elif screen.message:
            tinyfont.text(fb, screen.message, x, 42)
    if fields & HELP_LINE:
        fb.fill_rect(x, 57, WIDTH - _PANEL_X, 7, 0)
        tinyfont.text(fb, screen.help_line(HELP), x, 58)
