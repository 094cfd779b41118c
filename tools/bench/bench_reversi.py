"""Reversi CPU strength on CPython, against a fixed yardstick.

Each CPU level plays the textbook opponent of tools/bench/reversi_baseline.py
(alpha-beta to depth 4, classic weighted-square table) from OPENINGS seeded
random openings of OPENING_PLIES plies, each opening once with either colour:
2 * OPENINGS games per level. The CPU searches with its level's node budget
(LEVELS[level][4]: what its time budget buys on the ESP32, measured by
tools/bench/mp_reversi.py), so every game is the same on every PC and is the
game the board would play. Easy and medium add their noise from a seeded rng.

Per level: wins, draws, losses, the score (a draw is half a win), and the
CPU's time per move: its nodes, and the ESP32 time they stand for (nodes at
the level's rate, budget_ms / node budget), average and worst.

Run from the repo root:  python tools/bench/bench_reversi.py [openings]
"""

import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
import tools.emu  # noqa: E402  (micropython.const and time.ticks_* as on the board)

tools.emu.install()

from firmware.games.reversi import Reversi, BLACK, WHITE  # noqa: E402
from firmware.games.reversi_ai import Ai, LEVELS  # noqa: E402
from firmware.screens.reversi_shared import LEVEL_NAMES  # noqa: E402
from tools.bench.reversi_baseline import Baseline, DEPTH  # noqa: E402

OPENINGS = 20        # each played with both colours: 40 games per level
OPENING_PLIES = 6    # random plies at the start of each game


def opening(index):
    """The random first plies of opening `index` (the same for every level)."""
    rng = random.Random(7919 * index + 17)
    g = Reversi()
    moves = []
    while len(moves) < OPENING_PLIES and not g.is_game_over():
        m = rng.choice(g.legal_moves())
        g.push(m)
        moves.append(m)
    return moves


def play_game(job):
    """One game: (level, index) -> (level, outcome for the CPU, its nodes per
    move, its CPython seconds per move)."""
    level, index = job
    cpu_color = BLACK if index % 2 == 0 else WHITE
    ai = Ai(level, budget_ms=0, node_budget=LEVELS[level][4], rng=random.Random(index))
    base = Baseline()
    g = Reversi()
    g.replay(opening(index // 2))
    nodes = []
    seconds = 0.0
    while not g.is_game_over():
        if g.turn == cpu_color:
            t = time.perf_counter()
            m = ai.choose(g)
            seconds += time.perf_counter() - t
            nodes.append(ai.nodes)
        else:
            m = base.choose(g)
        g.push(m)
    diff = g.score() if cpu_color == BLACK else -g.score()
    return level, (diff > 0) - (diff < 0), nodes, seconds


def main():
    openings = int(sys.argv[1]) if len(sys.argv) > 1 else OPENINGS
    games = 2 * openings
    # Slowest first so the two workers finish together.
    jobs = [(level, i) for level in (2, 1, 0) for i in range(games)]
    t0 = time.time()
    with Pool(2) as pool:
        results = pool.map(play_game, jobs, chunksize=2)
    elapsed = time.time() - t0
    print("Reversi CPU levels against alpha-beta depth %d with the classic square table:"
          % DEPTH)
    print("%d seeded openings of %d random plies, each with both colours (%d games a level)"
          % (openings, OPENING_PLIES, games))
    print("%-7s %4s %4s %4s %7s %7s %10s %10s %10s %10s" % (
        "level", "win", "draw", "loss", "score", "budget", "avg nodes", "max nodes",
        "avg esp32", "max esp32"))
    for level in (0, 1, 2):
        rows = [r for r in results if r[0] == level]
        w = sum(r[1] > 0 for r in rows)
        d = sum(r[1] == 0 for r in rows)
        lost = sum(r[1] < 0 for r in rows)
        nodes = [n for r in rows for n in r[2]]
        budget_ms, node_budget = LEVELS[level][0], LEVELS[level][4]
        avg = sum(nodes) / max(1, len(nodes))
        most = max(nodes) if nodes else 0
        print("%-7s %4d %4d %4d %6.1f%% %5d ms %10d %10d %7d ms %7d ms" % (
            LEVEL_NAMES[level], w, d, lost, 100.0 * (w + d / 2) / games, budget_ms,
            avg, most, avg * budget_ms / node_budget, most * budget_ms / node_budget))
    cpu_s = sum(r[3] for r in results)
    moves = sum(len(r[2]) for r in results)
    print("score: a draw counts half; esp32 ms: nodes at the level's rate (its budget over"
          " its node budget)")
    print("target: hard >= 90%%; %.1f ms a CPU move on CPython; %.0f s on 2 processes"
          % (1000 * cpu_s / max(1, moves), elapsed))


if __name__ == "__main__":
    main()
