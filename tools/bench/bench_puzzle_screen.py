"""The puzzle screen on the emulated ML4M: I2C bytes a move costs.

For each size and mode, the real app (launcher, HAL, partial-refresh display)
runs the puzzle screen; we push the stick once and count the pixel-data and
command bytes on the bus for the two frames that show the move: the cells
first, the move counter a frame later (board.bus.bytes before/after). A full frame is 128 x 64 / 8 = 1024 pixel bytes plus framing
(~1030 on the bus); the target for a one-tile move without animation is
below 15% of that. Also: a cursor slide of a 3-tile run, an undo, the timer's
tick once a second, and the first full draw.

Run from the repo root:  python tools/bench/bench_puzzle_screen.py
"""
import os
import random
import statistics
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()

import firmware.boards.ml4m as ml4m  # noqa: E402
from firmware.games.npuzzle import DIRECTION_NAMES  # noqa: E402
from tools.emu.runner import Runner  # noqa: E402

FULL_FRAME = 1030
MOVES = 40          # pushes measured per configuration


def start(title, size, mode, seed):
    random.seed(seed)
    board = tools.emu.Board(seed=seed)
    arcade = Runner(board, tempfile.mkdtemp(), ml4m)   # the firmware across its launches
    from firmware import gamelist
    gamelist.set_setting(arcade.app, "puzzle", "big", size)
    gamelist.set_setting(arcade.app, "puzzle", "mode", mode)
    arcade.step()
    board.bus.reset()
    arcade.play(title if size != 5 else "24-Puzzle")   # its own program: a soft reset
    arcade.step()
    first = board.bus.bytes
    if mode == "picture":        # the picture shown at the start: A starts the game
        board.press("A")
        for _ in range(3):
            arcade.step()
        board.release("A")
    for _ in range(60):
        arcade.step()
    return board, arcade, first


def frame_bytes(board, arcade, action):
    """Bytes sent for action: the frame that sees it and the next (the
    screen draws the changed cells first and the panel a frame later)."""
    game = arcade.screen
    # let the timer tick first, so its redraw is not counted as the move's
    while (game.play_ms + 100) // 1000 != game.play_ms // 1000 and game.puzzle.moves:
        arcade.step()
    before = board.bus.bytes
    action()
    arcade.step()      # the cells that changed
    arcade.step()      # the panel (counter) a frame later
    return board.bus.bytes - before


def release(board, arcade):
    board.center()
    for b in "ACDE":
        board.release(b)
    for _ in range(3):
        arcade.step()


def measure(title, size, mode):
    board, arcade, first = start(title, size, mode, seed=size * 10 + len(mode))
    game = arcade.screen
    rng = random.Random(1)
    pushes = []
    for _ in range(MOVES):
        d = rng.choice(game.puzzle.legal_pushes())
        pushes.append(frame_bytes(board, arcade, lambda: board.push(DIRECTION_NAMES[d])))
        if os.environ.get("DEBUG"):
            print(DIRECTION_NAMES[d], pushes[-1], game.puzzle.moves)
        release(board, arcade)
        if game.state != 0:
            break
    if mode == "picture":     # picture mode: undo on letting go (holding C shows the picture)
        board.press("C")
        arcade.step()
        undo = frame_bytes(board, arcade, lambda: board.release("C"))
    else:
        undo = frame_bytes(board, arcade, lambda: board.press("C"))
    release(board, arcade)
    # a slide of a whole run: cursor mode (the pause menu's row), the far tile picked
    game.toggle_cursor(arcade.hal.clock.now())
    arcade.step()
    w = game.size
    blank = game.puzzle.blank
    row = blank // w
    far = row * w + (w - 1 if blank % w < w // 2 else 0)
    game.dirty_cells[game.cursor] = 1
    game.cursor = far
    game.dirty_cells[far] = 1
    arcade.step()
    run = abs(far - blank)
    slide = frame_bytes(board, arcade, lambda: board.press("A"))
    release(board, arcade)
    # the timer ticking on its own
    tick = None
    for _ in range(40):
        before = board.bus.bytes
        shown = game.shown_secs
        arcade.step()
        if game.shown_secs != shown:
            tick = board.bus.bytes - before
            break
    return {
        "first": first, "median": statistics.median(pushes), "max": max(pushes),
        "undo": undo, "slide": slide, "run": run, "tick": tick,
    }


def main():
    print("Puzzle screen: I2C bytes per frame on the emulated ML4M (full frame ~%d)" % FULL_FRAME)
    print("%-10s %-9s %7s %9s %8s %6s %6s %12s %6s" % (
        "puzzle", "mode", "first", "move med", "move max", "% max", "undo", "slide (run)", "tick"))
    for title, size, label in (("8-Puzzle", 4, "3x3"), ("15-Puzzle", 4, "4x4"), ("15-Puzzle", 5, "5x5")):
        for mode in ("numbers", "picture"):
            r = measure(title, size, mode)
            print("%-10s %-9s %7d %9d %8d %5.1f%% %6d %8d (%d) %6s" % (
                label, mode, r["first"], r["median"], r["max"], 100.0 * r["max"] / FULL_FRAME,
                r["undo"], r["slide"], r["run"], r["tick"]))
    print("Target: a one-tile move below 15%% of a full frame (%d bytes)." % int(0.15 * FULL_FRAME))


if __name__ == "__main__":
    main()
