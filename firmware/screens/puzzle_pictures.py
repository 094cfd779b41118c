"""Picture mode of the puzzle screen (firmware/screens/puzzle.py).

Held (screen.helper) only when the puzzle's "mode" setting is "picture"
(screen.picture_mode): a game with numbers never loads this code. The
screen and its drawing call:
  setup(screen, wanted)       the pictures, and the one named wanted shown
  load(screen, step)          show the picture step places on
  start_preview(screen, now)  the picture shown at the start of a game
  update(screen, c, now)      the preview's input and the hint's blink; True
                              when it took the frame
  draw_cell(screen, fb, tile, x, y, hint, cursor), help_lines(screen)
  tile(screen, t)             tile t's piece of the picture (a frame buffer)
Choosing and loading a picture is in firmware/screens/puzzle_picture_files.py,
borrowed only then (see README, "Why the code looks like this").
"""
from micropython import const

from firmware.hal.controls import A, C, D, E, F, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import STATUS_LINE, HELP_LINE
from firmware.screens.puzzle_shared import HELP

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.puzzle import Game


# screen.preview: 0 none (the tiles), or why the whole picture shows
_AT_START = const(1)         # a new game, until the player starts it: a timed
                             # preview made a push meant for the next picture
                             # a tile move when the time ran out
_HELD = const(2)             # while C is held

_HOLD_MS = const(400)        # C held this long: the picture preview
_HINT_BLINK_MS = const(300)  # the hint's tile blinks: an inverted piece of a
                             # picture can pass for another piece

_HELP = HELP + ("HOLD C: PICTURE",)


def setup(screen: "Game", wanted):
    """The pictures (built-in ones, then the player's PBM files), the frame
    buffers for them; the one named wanted shown if it is there."""
    with screen.borrow("firmware.screens.puzzle_picture_files") as files:
        files.setup(screen, wanted)


def load(screen: "Game", step):
    """Show the picture step places on (a bad file is dropped from the list
    with a message and the next one is tried)."""
    with screen.borrow("firmware.screens.puzzle_picture_files") as files:
        files.load(screen, step)


def start_preview(screen: "Game", now):
    screen.preview = _AT_START


def _end_preview(screen: "Game"):
    screen.preview = 0
    screen.redraw()


def help_lines(screen: "Game"):
    # (a tuple of constants is one constant of the code: nothing is made per call)
    if screen.preview == _AT_START:
        return ("A PLAY  B MENU", "STICK: NEXT PIC")
    return ("STICK: NEXT PIC",) if screen.preview else _HELP


def update(screen: "Game", c, now):
    """Picture preview: at the start of a game (the stick changes the
    picture; a button or up/down starts the game, taking no move) and while
    C is held; the hint's blinking. True when the frame's input went to the
    preview."""
    if screen.hint_index >= 0:
        phase = now // _HINT_BLINK_MS & 1
        if phase != screen.hint_phase:
            screen.hint_phase = phase
            screen.dirty_cells[screen.hint_index] = 1
    if screen.preview == _AT_START:
        if c.repeat(LEFT) or c.repeat(RIGHT):
            load(screen, -1 if c.repeat(LEFT) else 1)
            return True
        for button in (A, C, D, E, F, UP, DOWN):
            if c.just_pressed(button):
                _end_preview(screen)
                return True
        return True
    if c.pressed(C):
        if screen.preview == 0 and c.held_ms(C) >= _HOLD_MS:
            screen.preview = _HELD
            screen.panel |= STATUS_LINE | HELP_LINE
            screen.dirty = True
        if screen.preview == _HELD:
            if c.repeat(LEFT):
                load(screen, -1)
            elif c.repeat(RIGHT):
                load(screen, 1)
        return True
    if c.just_released(C):
        if screen.preview == _HELD:        # C was held to see the picture
            _end_preview(screen)
        else:                              # C was tapped
            screen.undo(now)
        return True
    return False


def tile(screen: "Game", t):
    """Tile t's piece of the picture (it belongs at cell t - 1), cut into the
    one tile buffer (valid until the next call)."""
    fb = screen.tile_fb
    size = screen.size
    pitch = screen.pitch
    home = t - 1
    fb.fill(0)
    fb.blit(screen.picture_fb, -((home % size) * pitch + 1), -((home // size) * pitch + 1))
    return fb


def draw_cell(screen: "Game", fb, tile_number, x, y, hint, cursor):
    """A cell at x, y: its tile's piece of the picture (the hint blinks
    inverted), the cursor as a frame with a dark line inside it."""
    inside = screen.pitch - 1
    fb.fill_rect(x, y, inside, inside, 0)
    if tile_number:
        if hint and not screen.hint_phase:
            fb.blit(tile(screen, tile_number), x, y, -1, screen.inverting_palette)
        else:
            fb.blit(tile(screen, tile_number), x, y)
    if cursor:
        fb.rect(x, y, inside, inside, 1)
        fb.rect(x + 1, y + 1, inside - 2, inside - 2, 0)
