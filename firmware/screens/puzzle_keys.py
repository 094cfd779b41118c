"""The keys while a puzzle game is played (firmware/screens/puzzle.py):

  stick   push the tile next to the blank into it (push left: the tile on the
          blank's right moves left), with auto-repeat; in cursor mode it
          moves the cursor instead
  A       new game; a started game asks first ("New game?" A yes, B no)
          and a yes gives it up ("You Lost"); in cursor mode: slide the
          run from the cursor to the blank
  B       back to the menu (the game is saved); on a question: no
  C       undo (picture mode: tap; hold C to see the picture, and push the
          stick left/right meanwhile to change the picture)
  D       hint: the tile to move lights up; hold D to watch it solve
  E       the pause menu (the system's): its Cursor mode row turns it on/off
  F       shuffle: random (uniform) / easy / medium / hard (random walks)

B, the question and the end of a game are the screen's update(); picture
mode's C is firmware/screens/puzzle_pictures.py.
"""
import time

from micropython import const

from firmware.hal.controls import A, C, D, F, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import STATUS_LINE, HELP_LINE
from firmware.screens.puzzle import PLAY, ASK, LEVEL_FIELD, LEVEL_NAMES

_SOLVE_HOLD_MS = const(600)  # D held this long: the solution plays
_SOLVE_STEP_MS = const(250)  # ~4 moves a second

# the stick's directions in the order of the rules' push directions
# (firmware.games.npuzzle: 0 left, 1 right, 2 up, 3 down)
_PUSHES = (LEFT, RIGHT, UP, DOWN)


def play(screen, c, now):
    """A frame's keys (c: the controls) while the game is played."""
    if c.just_pressed(F):
        screen.level = (screen.level + 1) % len(LEVEL_NAMES)
        screen.save_prefs()
        screen.panel |= LEVEL_FIELD
        if screen.puzzle.moves == 0:
            screen.new_game(now)
        else:
            screen.say("FROM NEXT GAME", now)
    if c.just_pressed(A):
        if screen.cursor_on:
            screen.slide(screen.cursor, now)
        elif screen.puzzle.moves:
            screen.state = ASK             # progress would be thrown away: ask
            screen.dirty = True
        else:
            screen.new_game(now)
        return
    if screen.picture_mode is None and c.repeat(C):
        screen.undo(now)
    if c.just_pressed(D):
        if screen.size > 3 or screen.hinter is None:
            screen.thinking = True         # say so first: a stage may take a while
            screen.panel |= STATUS_LINE
        else:
            screen.show_hint()
        screen.solve_next = time.ticks_add(now, _SOLVE_HOLD_MS)
    # a D held since before the screen opened is no request (solve_next
    # None): only a press seen here starts the solve
    elif c.pressed(D) and c.held_ms(D) >= _SOLVE_HOLD_MS and \
            screen.solve_next is not None and time.ticks_diff(now, screen.solve_next) >= 0:
        screen.solve_next = time.ticks_add(now, _SOLVE_STEP_MS)
        screen.solve_step(now)
        return
    for direction in range(4):
        if c.repeat(_PUSHES[direction]):
            if screen.cursor_on:
                _move_cursor(screen, direction)
            elif screen.state == PLAY:     # (an undo above may have solved it)
                screen.push(direction, now)
            return


def _move_cursor(screen, direction):
    """The cursor one cell the stick's way (it stops at the edges)."""
    size = screen.size
    col = screen.cursor % size
    row = screen.cursor // size
    if direction == 0:
        col = max(col - 1, 0)
    elif direction == 1:
        col = min(col + 1, size - 1)
    elif direction == 2:
        row = max(row - 1, 0)
    else:
        row = min(row + 1, size - 1)
    screen.dirty_cells[screen.cursor] = 1
    screen.cursor = row * size + col
    screen.dirty_cells[screen.cursor] = 1
