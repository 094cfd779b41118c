"""Hints on the puzzle screen (firmware/screens/puzzle.py): the next push,
and its tile lit up. Borrowed for each hint with the solver it imports (~11 KB
with its 3x3 tables) and firmware/games/npuzzle_hints.py, so none of them is
held between frames; screen.hinter (a firmware.games.npuzzle.Hinter) keeps the
plan (see README, "Why the code looks like this")."""
from micropython import const

from firmware.games.npuzzle_hints import hint
from firmware.games.npuzzle import Hinter

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.puzzle import Game


def next_push(screen: "Game"):
    """The push to play next (None when solved, or no memory to plan)."""
    if screen.hinter is None:
        screen.hinter = Hinter()
    try:
        return hint(screen.hinter, screen.puzzle)
    except MemoryError:         # a help, not the game: say so and go on
        screen.hinter = None
        screen.say("NO MEM FOR HINT", screen.hal.clock.now())
        return None


def show(screen: "Game"):
    """Light up the tile the hint moves."""
    direction = next_push(screen)
    if screen.hint_index >= 0:
        screen.dirty_cells[screen.hint_index] = 1
    screen.hint_index = -1 if direction is None else screen.puzzle.tile_for_push(direction)
    if screen.hint_index >= 0:
        screen.dirty_cells[screen.hint_index] = 1

