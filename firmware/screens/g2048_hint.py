"""The 2048 screen's hint and demo (firmware.screens.g2048): the expectimax
player of firmware.games.ai2048 asked for a move. The screen borrows this
module for each hint and each demo move (GameScreen.borrow); the AI, which
keeps what it learnt from one move to the next, is held from the first search
until D is let go (GameScreen.helper, let_go).

D pressed: "THINKING..." on that frame (ask()), the search on the next
(show()), then an arrow and the direction. D held: the computer plays
(play()), a move every _DEMO_STEP_MS, until D is let go.

Hints and the demo stop at the AI's node cap (ai2048.BOARD_NODES, more on
a crowded board: ai2048.CROWDED), the setting its strength benchmark
measures (tools/bench/bench_2048.py; under 1 s on the ESP32, most hints far
less); the time budget below is only a safety net, the same for both so
that the demo plays the benchmark's games. The same cap on the PC keeps the
emulator (whose clock stands still while Python computes) deterministic.
"""
import time

from micropython import const

from firmware.screens.base import STATUS_LINE

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.g2048 import Game

_HINT_MS = const(1000)      # the hint's and each demo move's search budget on the board
_DEMO_HOLD_MS = const(600)  # D held this long: the demo plays
_DEMO_STEP_MS = const(250)  # a demo move every this many ms


def ask(screen: "Game", now):
    """D pressed: "THINKING..." now, the search on the next frame; held
    _DEMO_HOLD_MS, the demo starts."""
    screen.thinking = True
    screen.hint = -1
    screen.panel |= STATUS_LINE
    screen.demo_next = time.ticks_add(now, _DEMO_HOLD_MS)


def show(screen: "Game"):
    """The frame after ask(): the search, and its direction on the panel."""
    screen.thinking = False
    screen.hint = search(screen, screen.hint_nodes, _HINT_MS)
    screen.panel |= STATUS_LINE


def play(screen: "Game", now):
    """D held: a demo move when it is time for one (every _DEMO_STEP_MS, or
    as soon as the search is done when it takes longer)."""
    # a D held since before the screen opened is no request (and a tick
    # compared with 0 would depend on the counter's phase)
    if screen.demo_next is None or time.ticks_diff(now, screen.demo_next) < 0:
        return
    if not screen.demo:
        screen.demo = True
        screen.panel |= STATUS_LINE
    screen.demo_next = time.ticks_add(now, _DEMO_STEP_MS)
    d = search(screen, screen.demo_nodes, _HINT_MS)
    if d >= 0:
        screen.move(d, now)
        screen.hint = d
        screen.panel |= STATUS_LINE


def search(screen: "Game", nodes, ms):
    """The AI's move (-1 none) for the screen's board, at most nodes
    evaluations (None: the AI's own cap) and ms. The AI is a help, not the
    game: with no memory for it (a long session's heap), the player is told
    and the game goes on."""
    try:
        # held from a hint until D is let go (the screen lets it go)
        ai = screen.helper("firmware.games.ai2048")
        if screen.player is None:
            screen.player = ai.Expectimax()
        player = screen.player
        player.max_nodes = ai.BOARD_NODES if nodes is None else nodes
        player.budget_ms = ms
        return player.best_move(screen.game.board)
    except MemoryError:
        screen.player = None
        screen.demo = False
        screen.say("NO MEM FOR HINT", screen.hal.clock.now())
        return -1
