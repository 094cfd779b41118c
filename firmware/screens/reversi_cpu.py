"""The CPU's move on the Reversi screen (firmware.screens.reversi). Borrowed
for the one frame in which the CPU searches and plays (GameScreen.borrow),
with the search it brings (firmware.games.reversi_ai), so between moves
none of it holds heap.

The CPU never freezes the board without notice: "thinks" is drawn and
flushed the frame before, and the search runs under the CPU's time budget
(hard: under 2 s on the ESP32), keeping the sound going and a spinner
turning from its progress callback (drawn here: a linked game, which has no
CPU, holds none of it)."""
import random
import time

from micropython import const

from firmware.games.reversi import PASS
from firmware.games.reversi_ai import Ai
from firmware.screens.base import STATUS_LINE

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.reversi import Game

_SPIN_MS = const(150)        # the spinner's step while the CPU thinks


def move(screen: "Game", now):
    """Search and play the CPU's move (the "thinks" already on the panel)."""
    began = time.ticks_ms()
    display = screen.hal.display
    screen.spin = 0
    spinner(screen, display.fb)        # its first step, beside "thinks"
    display.flush()

    def progress(_):
        """Called every few dozen nodes while the CPU thinks: the sound goes
        on and a spinner turns, a step every _SPIN_MS, so the board never
        looks frozen."""
        now = time.ticks_ms()
        screen.hal.sound.update(now)
        step = (time.ticks_diff(now, began) // _SPIN_MS) & 3
        if step != screen.spin:
            screen.spin = step
            spinner(screen, display.fb)
            display.flush()
        return False

    ai = Ai(screen.level, node_budget=screen.node_budget, rng=random, progress=progress)
    chosen = ai.choose(screen.game)
    screen.thinking = False
    screen.panel |= STATUS_LINE
    if chosen is None:                 # cannot happen while the game goes on
        return
    now = time.ticks_ms()
    if chosen == PASS:
        screen.game.pass_turn()
    else:
        screen.game.push(chosen)
    screen.after_move(now)


def spinner(screen: "Game", fb):
    """A small square turning in the panel's corner while the CPU thinks
    (the panel's status line is painted again after the move: it goes)."""
    x = 120
    y = 49
    fb.fill_rect(x, y, 5, 5, 0)
    step = screen.spin
    fb.fill_rect(x + (2 if step == 1 or step == 2 else 0), y + (2 if step >= 2 else 0), 3, 3, 1)
