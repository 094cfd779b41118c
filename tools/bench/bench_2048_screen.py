"""The 2048 screen on the emulated ML4M: I2C bytes a move costs.

The real app (launcher, HAL, partial-refresh display) runs the 2048 screen; we
push the stick and count the bytes on the bus (pixel data and commands,
board.bus.bytes) from the push until the screen has settled: the animation's
frames (half-way tiles, merged tiles flashing, the final board) or, without
animation, the final board, plus the panel (score, moves) a frame later.
A full frame is 128 x 64 / 8 = 1024 pixel bytes plus framing (~1030 on the bus).
Also: an undo, a hint shown, the first full draw. Moves are chosen by a
seeded random legal direction, the same sequence with and without animation.

Run from the repo root:  python tools/bench/bench_2048_screen.py
"""
import random
import statistics
import sys
import os
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()

import firmware.boards.ml4m as ml4m  # noqa: E402
from firmware.games.game2048 import DIRECTION_NAMES  # noqa: E402
from tools.emu.runner import Runner  # noqa: E402

FULL_FRAME = 1030
MOVES = 150        # at most; the game may end sooner (that move is not counted)


def start(animate, seed):
    random.seed(seed)
    board = tools.emu.Board(seed=seed)
    arcade = Runner(board, tempfile.mkdtemp(), ml4m)
    arcade.step()
    board.bus.reset()
    from firmware.screens import g2048   # (the program's own copy)
    arcade.switch(g2048.Game(arcade.app, save="g2048", animate=animate))
    arcade.step()
    arcade.step()
    first = board.bus.bytes
    return board, arcade, first


def settle(board, arcade, action):
    """Bytes and frames from action until the screen has nothing left to draw."""
    game = arcade.screen
    before = board.bus.bytes
    action()
    n = 0
    while True:
        arcade.step()
        n += 1
        if n >= 2 and not game.animation and not game.thinking and (not game.panel or game.state):
            break
        if n > 30:
            raise RuntimeError("the screen never settled")
    return board.bus.bytes - before, n


def release(board, arcade):
    board.center()
    for b in "CD":
        board.release(b)
    for _ in range(3):
        arcade.step()


def measure(animate):
    board, arcade, first = start(animate, seed=7)
    game = arcade.screen
    rng = random.Random(1)
    costs = []
    merges = []
    frames = 0
    for _ in range(MOVES):
        if game.state != 0:
            break
        legal = [d for d in range(4) if game.game.can_slide(d)]
        d = rng.choice(legal)
        cost, n = settle(board, arcade, lambda: board.push(DIRECTION_NAMES[d]))
        if game.state != 0 or game.pending != 0:
            break                  # the game ended: the banner is a whole screen
        costs.append(cost)
        if any(game.game.merged):
            merges.append(cost)
        frames = max(frames, n)
        release(board, arcade)
    undo, _ = settle(board, arcade, lambda: board.press("C"))
    release(board, arcade)
    hint, _ = settle(board, arcade, lambda: board.press("D"))
    release(board, arcade)
    return {"first": first, "moves": len(costs), "median": statistics.median(costs),
            "mean": statistics.mean(costs), "max": max(costs),
            "merge": statistics.median(merges) if merges else 0,
            "frames": frames, "undo": undo, "hint": hint}


def main():
    print("2048 screen: I2C bytes per move on the emulated ML4M (full frame ~%d)" % FULL_FRAME)
    print("%-12s %6s %6s %8s %7s %6s %6s %10s %7s %6s %5s" % (
        "animation", "first", "moves", "median", "mean", "max", "% max", "merge med",
        "frames", "undo", "hint"))
    for animate in (False, True):
        r = measure(animate)
        print("%-12s %6d %6d %8d %7.0f %6d %5.1f%% %10d %7d %6d %5d" % (
            "on (3 fr)" if animate else "off", r["first"], r["moves"], r["median"], r["mean"],
            r["max"], 100.0 * r["max"] / FULL_FRAME, r["merge"], r["frames"], r["undo"], r["hint"]))
    print("frames: most frames from the push until the panel is done (30 fps).")


if __name__ == "__main__":
    main()
