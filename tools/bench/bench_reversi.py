"""Reversi CPU strength on CPython.

Each CPU level plays a random player and a one-ply positional-weights player,
GAMES games each: the CPU takes Black in even games and White in odd ones,
and the first OPENING plies of every game are random (seeded per game), so
openings vary. The CPU searches with its level's node budget (what the
ESP32's time budget buys), which makes every game repeatable.

Run from the repo root:  python tools/bench/bench_reversi.py [games]
"""

import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
import tools.emu  # noqa: E402  (micropython.const and time.ticks_* as on the board)

tools.emu.install()

from firmware.games.reversi import Reversi, BLACK, WHITE, WEIGHTS, PASS  # noqa: E402
from firmware.games.reversi_ai import Ai, LEVELS  # noqa: E402
from firmware.screens.reversi_shared import LEVEL_NAMES  # noqa: E402

GAMES = 100
OPENING = 4  # random plies at the start of each game


def random_player(g, rng):
    return rng.choice(g.legal_moves())


def positional_player(g, rng):
    """One ply: the move whose resulting position has the best disc-square
    weight sum for the mover (ties broken at random)."""
    me = g.turn
    best = []
    best_v = None
    for m in g.legal_moves():
        if m == PASS:
            return PASS
        g.push(m)
        b = g.board
        v = 0
        for sq in range(11, 89):
            p = b[sq]
            if p == me:
                v += WEIGHTS[sq]
            elif p == 3 - me:
                v -= WEIGHTS[sq]
        g.pop()
        if best_v is None or v > best_v:
            best_v, best = v, [m]
        elif v == best_v:
            best.append(m)
    return rng.choice(best)


OPPONENTS = {"random": random_player, "positional": positional_player}


def play_game(job):
    level, opp_name, index = job
    rng = random.Random(1000 * level + 7919 * index + (0 if opp_name == "random" else 1))
    cpu_color = BLACK if index % 2 == 0 else WHITE
    ai = Ai(level, budget_ms=0, node_budget=LEVELS[level][4], rng=random.Random(index))
    opponent = OPPONENTS[opp_name]
    g = Reversi()
    nodes = 0
    cpu_moves = 0
    max_nodes = 0
    while not g.is_game_over():
        if g.ply < OPENING:
            m = rng.choice(g.legal_moves())
        elif g.turn == cpu_color:
            m = ai.choose(g)
            nodes += ai.nodes
            cpu_moves += 1
            max_nodes = max(max_nodes, ai.nodes)
        else:
            m = opponent(g, rng)
        g.push(m)
    diff = g.score() if cpu_color == BLACK else -g.score()
    return level, opp_name, (diff > 0) - (diff < 0), nodes, cpu_moves, max_nodes


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    jobs = []
    # Slowest first so the two workers finish together.
    for level in (2, 1, 0):
        for opp in ("positional", "random"):
            for i in range(games):
                jobs.append((level, opp, i))
    t0 = time.time()
    with Pool(2) as pool:
        results = pool.map(play_game, jobs, chunksize=4)
    elapsed = time.time() - t0
    table = {}
    for level, opp, outcome, nodes, moves, max_nodes in results:
        row = table.setdefault((level, opp), [0, 0, 0, 0, 0, 0])
        row[1 - outcome] += 1  # wins, draws, losses
        row[3] += nodes
        row[4] += moves
        row[5] = max(row[5], max_nodes)
    print("Reversi CPU strength: %d games per pairing, both colours, %d random opening plies"
          % (games, OPENING))
    print("%-7s %-11s %5s %5s %5s %7s %11s %10s %9s" % (
        "level", "opponent", "win", "draw", "loss", "win%", "node budget",
        "avg nodes", "max nodes"))
    for level in (0, 1, 2):
        for opp in ("random", "positional"):
            w, d, l, nodes, moves, mx = table[(level, opp)]
            print("%-7s %-11s %5d %5d %5d %6.1f%% %11d %10d %9d" % (
                LEVEL_NAMES[level], opp, w, d, l, 100.0 * w / games,
                LEVELS[level][4], nodes // max(1, moves), mx))
    print("targets (hard): >= 95%% vs random, >= 80%% vs positional; %.0f s on 2 processes"
          % elapsed)


if __name__ == "__main__":
    main()
