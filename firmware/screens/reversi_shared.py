"""What the Reversi screen's modules share (firmware/screens/reversi*.py):
its modes, states and overlays, the CPU levels' names, the CPU's pace, and
who plays which colour."""
from micropython import const

from firmware.games.reversi import BLACK, WHITE
from firmware.screens.base import FIRST_FIELD

# modes: who plays which colour (the number is saved, in the game and in the
# "mode" setting)
TWO_PLAYERS = const(0)
YOU_BLACK = const(1)         # the CPU plays white
YOU_WHITE = const(2)         # the CPU plays black
DEMO = const(3)              # CPU against CPU
LINK = const(4)              # with a friend on another board: a new game opens
                             # Play a friend (firmware/screens/link.py), never
                             # a mode of a game on this screen
MODE_NAMES = ("2 players", "you black", "you white", "CPU demo", "link")

# the help line while a person plays (the pause menu's Keys shows it too)
HELP = ("A PLACE  B MENU", "C UNDO  E PAUSE")

# the CPU levels (firmware.games.reversi_ai: EASY, MEDIUM, HARD)
LEVEL_NAMES = ("easy", "medium", "hard")

# the screen's state
PLAY = const(0)
OVER = const(1)

# what covers the board (firmware.screens.reversi_menu draws them)
NO_OVERLAY = const(0)
PASS_NOTICE = const(1)
SURRENDER_QUESTION = const(3)

# bits of screen.cells[square]
HINT = const(1)              # a hint is shown there
PAINT = const(4)             # repaint the square

# the panel's own fields (bits of screen.panel, after GameScreen's lines)
COUNTS = FIRST_FIELD         # the disc counts, whose turn
MODE = FIRST_FIELD << 1      # the mode and the CPU's level

_CPU_DELAY_MS = const(250)   # the CPU replies after the flips have shown
DEMO_DELAY_MS = const(700)   # a demo goes slowly enough to follow


def colour_name(colour):
    return "Black" if colour == BLACK else "White"


def cpu_plays(mode, colour):
    """True when the CPU plays colour in mode."""
    if mode == TWO_PLAYERS:
        return False
    return mode == DEMO or colour != person_against_cpu(mode)


def person_against_cpu(mode):
    """The colour a person plays against the CPU in mode; 0 when nobody
    does (two players, or the demo)."""
    if mode == YOU_BLACK:
        return BLACK
    if mode == YOU_WHITE:
        return WHITE
    return 0


def cpu_delay_ms(mode):
    """How long the CPU waits before its move: slower in the demo."""
    return DEMO_DELAY_MS if mode == DEMO else _CPU_DELAY_MS
