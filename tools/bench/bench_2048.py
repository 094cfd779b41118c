"""2048: strength of the expectimax player at the settings the board uses.

Plays seeded games (spawns from random.Random(seed)) with
firmware.games.ai2048.Expectimax capped at ai2048.BOARD_NODES evaluations per
move and ai2048.MAX_DEPTH, with no wall-clock limit: the node cap is the
limit that binds on the ESP32 (see tools/bench/mp_2048.py for the time it
takes there), so these games are the ones the board would play, and the same
on every PC. After 2048 the player keeps going until no move is left.

To run 100 games in a few minutes the line cache is made bigger here than
the board can afford; it changes no value (tests/test_game2048_host.py
checks the moves are the same).

Run from the repo root:  python tools/bench/bench_2048.py [games] [nodes]
"""
import os
import statistics
import sys
import time
from multiprocessing import Pool
import random

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()   # micropython.const and time.ticks_* for the firmware

from firmware.games import ai2048  # noqa: E402
from firmware.games.game2048 import Game2048  # noqa: E402

GAMES = 100
# Evaluations a second on the ESP32 at the board's line cache, the
# estimate of tools/bench/mp_2048.py (its rate under Node, divided by 2.5:
# 8,732 a second there on a lightly loaded PC, so 3,500 here)
ESP32_EVALS_PER_S = 3500


# A line cache of 65536 lines instead of the board's 256 (too much heap there):
# fewer misses, the very same values and node counts.
BIG_CACHE = 1 << 16


def play(seed, nodes=ai2048.BOARD_NODES, max_moves=0, lines=ai2048.CACHE_LINES):
    g = Game2048(random.Random(seed))
    g.new_game()
    ai = ai2048.Expectimax(budget_ms=0, max_nodes=nodes, max_depth=ai2048.MAX_DEPTH,
                           lines=lines)
    trace = []
    depths = 0
    reached = {}
    evals = []
    while not max_moves or g.moves < max_moves:
        d = ai.best_move(g.board)
        if d < 0:
            break
        depths += ai.depth
        evals.append(ai.nodes)
        trace.append(d)
        if g.won and not g.keep_going:
            g.keep_going = True
        g.slide(d)
        m = max(g.board)
        if m not in reached:
            reached[m] = g.moves
    return {"seed": seed, "max": max(g.board), "score": g.score, "moves": g.moves,
            "depth": depths / max(1, len(trace)), "trace": trace, "reached": reached,
            "evals": evals}


def _play(args):
    seed, nodes = args
    t = time.perf_counter()
    r = play(seed, nodes, lines=BIG_CACHE)
    r["seconds"] = time.perf_counter() - t
    del r["trace"]
    return r


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else ai2048.BOARD_NODES
    start = time.perf_counter()
    with Pool(2) as pool:       # the machine is shared: two processes at most
        results = pool.map(_play, [(seed, nodes) for seed in range(1, games + 1)], chunksize=1)
    wall = time.perf_counter() - start
    n = len(results)
    scores = [r["score"] for r in results]
    print("2048 expectimax, %d games (seeds 1..%d), %d evaluations/move cap, depth <= %d"
          % (n, games, nodes, ai2048.MAX_DEPTH))
    print("%-28s %s" % ("measure", "value"))
    for exp in (10, 11, 12, 13, 14):
        share = sum(r["max"] >= exp for r in results) / n
        print("%-28s %5.1f %%" % ("reached %d" % (1 << exp), 100 * share))
    print("%-28s %d" % ("average score", statistics.mean(scores)))
    print("%-28s %d" % ("median score", statistics.median(scores)))
    print("%-28s %d / %d" % ("min / max score", min(scores), max(scores)))
    print("%-28s %d" % ("average moves", statistics.mean(r["moves"] for r in results)))
    to2048 = [r["reached"][11] for r in results if 11 in r["reached"]]
    if to2048:
        print("%-28s %d" % ("moves to reach 2048 (avg)", statistics.mean(to2048)))
    print("%-28s %.2f" % ("average search depth", statistics.mean(r["depth"] for r in results)))
    evals = sorted(e for r in results for e in r["evals"])
    if evals:
        # the hint's time on the ESP32: its evaluations at the rate
        # tools/bench/mp_2048.py measures (MicroPython under Node / 2.5)
        print("%-28s %d / %d / %d" % ("evaluations a hint med/p90/max", evals[len(evals) // 2],
                                      evals[len(evals) * 9 // 10], evals[-1]))
        print("%-28s %d / %d / %d ms" % (
            "hint on the ESP32 (estimate)", evals[len(evals) // 2] * 1000 // ESP32_EVALS_PER_S,
            evals[len(evals) * 9 // 10] * 1000 // ESP32_EVALS_PER_S,
            evals[-1] * 1000 // ESP32_EVALS_PER_S))
    print("%-28s %.1f s (%.2f ms/move on CPython)"
          % ("wall time", wall, 1000 * sum(r["seconds"] for r in results)
             / max(1, sum(r["moves"] for r in results))))


if __name__ == "__main__":
    main()
