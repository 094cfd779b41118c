"""Picture mode of the puzzle screen (firmware/screens/puzzle.py).

Imported only when the puzzle's "mode" setting is "picture": a game with
numbers never loads this code, which keeps its heap smaller (the heap
target is 60 KB per game). The screen keeps the module in `game.pics` and calls:
  setup(game, wanted)      the picture list, the picture and its tiles
  load(game, step)         show the picture `step` places on
  start_preview(game, now) the picture shown at the start of a game
  update(game, c, now)     the preview's input; True when it took the frame
  draw_picture(game, fb), draw_cell(game, fb, tile, x, y, hint, cursor)
  tile(game, t)            tile t's piece of the picture (a frame buffer)
"""
import time

import framebuf
from micropython import const

from firmware import modules
from firmware.hal.controls import A, C, D, E, F, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import STATUS_LINE, HELP_LINE

_PICTURE_DIR = "pictures"   # relative to the current folder, like the saves
_MAX_FILES = const(30)

_PREVIEW_START_MS = const(1500)
_HOLD_MS = const(400)        # C held this long: the picture preview
_HINT_BLINK_MS = const(300)  # the hint's tile blinks: an inverted piece of a
                             # picture can pass for another piece


HELP = ("A NEW  B MENU", "C UNDO  D HINT", "HOLD D: SOLVE", "E CURSOR F LVL",
        "HOLD C: PICTURE")
HELP_PREVIEW = ("STICK: NEXT PIC",)


def setup(game, wanted):
    """Built-in pictures, then the player's PBM files; the frame buffers for
    the picture and its tiles; `wanted` (a name) is shown if it is there."""
    g = game.g
    game.pic_fb = framebuf.FrameBuffer(bytearray(((g + 7) >> 3) * g), g, g, framebuf.MONO_HLSB)
    # One tile-sized buffer: a tile is cut from the picture when it is drawn
    # rather than kept cut, which saves a frame buffer per tile (~1 KB of
    # heap on a 3x3, ~2 KB on a 5x5) for a second blit per cell drawn.
    t = game.p - 1
    game.tile_fb = framebuf.FrameBuffer(bytearray(((t + 7) >> 3) * t), t, t, framebuf.MONO_HLSB)
    pal = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
    pal.pixel(0, 0, 1)                     # an inverting palette for the hint
    pal.pixel(1, 0, 0)
    game.invert_pal = pal
    game.hint_phase = 0                    # 1: the hint's tile shows as it is
    # the pictures' module is needed only here and in load()
    with modules.borrowed("firmware.ui.pictures") as pictures:
        names = pictures.names(_PICTURE_DIR, _MAX_FILES)
        game.pictures = names
        game.pic = names.index(wanted) if wanted in names else 0
        _show(game, pictures, 0)
    pictures = None


def load(game, step):
    """Show the picture `step` places on (a bad file is dropped from the list
    with a message and the next one is tried)."""
    with modules.borrowed("firmware.ui.pictures") as pictures:
        _show(game, pictures, step)
    pictures = None


def _show(game, pictures, step):
    game.pic = pictures.show(game.pictures, game.pic + step, step, game.pic_fb, game.g,
                             _PICTURE_DIR, lambda name: game.say(_skipped(name), game.hal.clock.now()))
    game._save_prefs()
    game.dirty = True


def _skipped(name):
    """The message for a picture file that could not be shown: the status
    line holds 15 characters, so the name is cut to 7."""
    return "SKIPPED " + name.upper()[:7]


def start_preview(game, now):
    game.preview = 1
    game.preview_until = time.ticks_add(now, _PREVIEW_START_MS)


def update(game, c, now):
    """Picture preview: at the start of a game and while C is held; the
    hint's blinking. True when the frame's input went to the preview."""
    if game.hint_index >= 0:
        phase = now // _HINT_BLINK_MS & 1
        if phase != game.hint_phase:
            game.hint_phase = phase
            game.cells[game.hint_index] = 1
    if game.preview == 1:
        if time.ticks_diff(now, game.preview_until) >= 0:
            _end_preview(game)
            return False
        if c.repeat(LEFT) or c.repeat(RIGHT):
            load(game, -1 if c.repeat(LEFT) else 1)
            game.preview_until = time.ticks_add(now, _PREVIEW_START_MS)
            return True
        for b in (A, C, D, E, F, UP, DOWN):
            if c.just_pressed(b):
                _end_preview(game)
                return True
        return True
    if c.pressed(C):
        if game.preview == 0 and c.held_ms(C) >= _HOLD_MS:
            game.preview = 2
            game.c_preview = True
            game.panel |= STATUS_LINE | HELP_LINE
            game.dirty = True
        if game.preview == 2:
            if c.repeat(LEFT):
                load(game, -1)
            elif c.repeat(RIGHT):
                load(game, 1)
        return True
    if c.just_released(C):
        if game.c_preview:
            game.c_preview = False
            _end_preview(game)
        else:
            game.undo(now)
        return True
    return False


def draw_picture(game, fb):
    """The whole picture where the grid goes (the preview)."""
    fb.blit(game.pic_fb, 0, game.gy)


def tile(game, t):
    """Tile t's piece of the picture (it belongs at cell t - 1), cut into the
    one tile buffer (valid until the next call)."""
    fb = game.tile_fb
    w = game.w
    p = game.p
    c = t - 1
    fb.fill(0)
    fb.blit(game.pic_fb, -((c % w) * p + 1), -((c // w) * p + 1))
    return fb


def draw_cell(game, fb, tile_number, x, y, hint, cursor):
    """A cell at x, y: its tile's piece of the picture (the hint blinks
    inverted), the cursor as a frame with a dark line inside it."""
    s = game.p - 1
    fb.fill_rect(x, y, s, s, 0)
    if tile_number:
        if hint and not game.hint_phase:
            fb.blit(tile(game, tile_number), x, y, -1, game.invert_pal)
        else:
            fb.blit(tile(game, tile_number), x, y)
    if cursor:
        fb.rect(x, y, s, s, 1)
        fb.rect(x + 1, y + 1, s - 2, s - 2, 0)


def _end_preview(game):
    game.preview = 0
    game.redraw()
