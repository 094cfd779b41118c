"""Picture mode's pictures (firmware/screens/puzzle_pictures.py): the list of
them, the frame buffers they are drawn into, and loading one. Borrowed only
while a picture is chosen, with the picture reader it imports (see README,
"Why the code looks like this")."""
import framebuf
from micropython import const

from firmware.ui import pictures

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.puzzle import Game

_MAX_FILES = const(30)


def _frame_buffer(side):
    return framebuf.FrameBuffer(bytearray((side + 7) // 8 * side), side, side, framebuf.MONO_HLSB)


def setup(screen: "Game", wanted):
    """Built-in pictures, then the player's PBM files; the frame buffers for
    the picture and its tiles; wanted (a name) is shown if it is there."""
    screen.picture_fb = _frame_buffer(screen.grid_side)
    # One tile-sized buffer: a tile is cut from the picture when it is drawn
    # rather than kept cut (see README, "Why the code looks like this").
    screen.tile_fb = _frame_buffer(screen.pitch - 1)
    palette = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
    palette.pixel(0, 0, 1)                 # an inverting palette for the hint
    palette.pixel(1, 0, 0)
    screen.inverting_palette = palette
    screen.hint_phase = 0                  # 1: the hint's tile shows as it is
    # the folder "pictures", relative to the current folder, like the saves
    names = pictures.names("pictures", _MAX_FILES)
    screen.picture_names = names
    screen.picture = names.index(wanted) if wanted in names else 0
    load(screen, 0)


def load(screen: "Game", step):
    """Show the picture step places on (a bad file is dropped from the list
    with a message and the next one is tried); remembered for next time."""
    def skipped(name):
        screen.say(skipped_text(name), screen.hal.clock.now())

    screen.picture = pictures.show(screen.picture_names, screen.picture + step, step,
                                   screen.picture_fb, screen.grid_side, "pictures", skipped)
    screen.save_prefs()
    screen.dirty = True


def skipped_text(name):
    """The message for a picture file that could not be shown: the status
    line holds 15 characters, so the name is cut to 7."""
    return "SKIPPED " + name.upper()[:7]
