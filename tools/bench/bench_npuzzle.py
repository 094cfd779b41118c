"""N-puzzle solvers on CPython.

1. The PC's optimal 15-puzzle solver (tools/solver15.py, IDA*): nodes and time
   per instance with Manhattan + linear conflict, and with Manhattan alone on
   the easier instances (the gain of linear conflicts).
2. How long the board's staged solution (the hint path) is next to the optimum.

Run from the repo root:  python tools/bench/bench_npuzzle.py
"""

import os
import random
import sys
import time

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

import tools.emu  # noqa: E402

tools.emu.install()   # the firmware imports micropython.const

from firmware.games.npuzzle import Puzzle  # noqa: E402
from firmware.games import npuzzle_setup  # noqa: E402
from firmware.games import npuzzle_solver  # noqa: E402
from tools import solver15  # noqa: E402

# Random-walk positions (seeded). Lengths are what solver15 finds; the first four
# (38, 40, 42, 44) were also confirmed with Manhattan distance alone.
INSTANCES = (
    [6, 3, 4, 11, 1, 0, 10, 15, 7, 5, 8, 12, 9, 2, 13, 14],
    [1, 3, 6, 4, 10, 2, 14, 5, 15, 11, 8, 12, 7, 0, 13, 9],
    [7, 3, 4, 14, 6, 0, 12, 11, 1, 2, 15, 8, 5, 13, 9, 10],
    [1, 7, 14, 12, 4, 0, 5, 2, 13, 9, 3, 8, 6, 11, 10, 15],
    [14, 9, 4, 5, 8, 0, 11, 12, 6, 2, 3, 1, 13, 15, 10, 7],
    [0, 4, 5, 7, 3, 12, 15, 13, 8, 2, 9, 6, 11, 10, 1, 14],
    [3, 15, 10, 14, 2, 4, 7, 5, 1, 12, 0, 8, 11, 6, 9, 13],
)
MD_NODE_LIMIT = 12_000_000   # Manhattan alone is only run where it finishes quickly


def main():
    print("Optimal 15-puzzle solver (IDA*), CPython %s" % sys.version.split()[0])
    print("%-52s %4s %10s %8s %9s %12s %8s %7s" % (
        "instance", "len", "nodes LC", "s LC", "knodes/s", "nodes MD", "s MD", "staged"))
    total_nodes = 0
    total_time = 0.0
    for tiles in INSTANCES:
        t0 = time.perf_counter()
        moves, nodes = solver15.solve(tiles)
        dt = time.perf_counter() - t0
        total_nodes += nodes
        total_time += dt
        md_nodes = md_time = "-"
        if nodes < 400_000:
            t0 = time.perf_counter()
            try:
                md_moves, n = solver15.solve(tiles, "md", max_nodes=MD_NODE_LIMIT)
                assert len(md_moves) == len(moves)
                md_nodes = str(n)
                md_time = "%.2f" % (time.perf_counter() - t0)
            except RuntimeError:
                md_nodes = "> %d" % MD_NODE_LIMIT
        staged = len(npuzzle_solver.solution(Puzzle(4, tiles)))
        print("%-52s %4d %10d %8.2f %9.0f %12s %8s %7d" % (
            " ".join(str(t) for t in tiles), len(moves), nodes, dt, nodes / dt / 1000,
            md_nodes, md_time, staged))
    print("total: %d nodes in %.1f s (%.0f knodes/s)" % (
        total_nodes, total_time, total_nodes / total_time / 1000))

    print()
    print("Board-side solvers on CPython (timing here is not the board's: see mp_npuzzle.py)")
    print("%-6s %6s %10s %10s %10s %10s" % ("size", "games", "len min", "len mean", "len max", "ms mean"))
    rng = random.Random(1)
    for width, games in ((3, 300), (4, 300), (5, 200)):
        lengths = []
        t0 = time.perf_counter()
        for _ in range(games):
            p = Puzzle(width)
            npuzzle_setup.shuffle_uniform(p, rng)
            lengths.append(len(npuzzle_solver.solution(p)))
        ms = (time.perf_counter() - t0) * 1000 / games
        print("%-6s %6d %10d %10.1f %10d %10.2f" % (
            "%dx%d" % (width, width), games, min(lengths), sum(lengths) / games, max(lengths), ms))
    print("(3x3 is optimal; 4x4 and 5x5 are the staged hint paths. Random 15-puzzles need 53 moves")
    print(" on average when solved optimally.)")


if __name__ == "__main__":
    main()
