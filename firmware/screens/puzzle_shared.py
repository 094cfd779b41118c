"""What the puzzle screen (firmware/screens/puzzle.py) and its helpers share:
the game's states, the panel's fields, the shuffle levels' names and the
help lines. Loaded with the screen for the
whole game, and it imports none of the helpers, so no import goes round in a
circle; small, so the arcade reading the puzzle's GAME (firmware/gamereader.py)
brings few names with it (README, "Why the code looks like this")."""
from micropython import const

from firmware.screens.base import FIRST_FIELD

# the game's states (screen.state)
PLAY = const(0)
WON = const(1)
LOST = const(2)
ASK = const(3)               # "New game?" over a started game

# the panel's own fields (bits of screen.panel, after the base's status and help lines)
MOVES_FIELD = FIRST_FIELD
TIME_FIELD = FIRST_FIELD << 1
LEVEL_FIELD = FIRST_FIELD << 2
MODE_FIELD = FIRST_FIELD << 3

LEVEL_NAMES = ("RANDOM", "EASY", "MEDIUM", "HARD")   # the shuffle levels (F)
HELP = ("A NEW  B MENU", "C UNDO  D HINT", "HOLD D: SOLVE", "F LVL  E PAUSE")

