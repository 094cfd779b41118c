"""2048: try settings of the expectimax player offline, on seeds of its own.

    python tools/bench/tune_2048.py FIRST LAST [NAME=VALUE ...]
    python tools/bench/tune_2048.py --full FIRST LAST [NAME=VALUE ...]
    python tools/bench/tune_2048.py --growth SEED

Plays the seeded games FIRST..LAST (spawns from random.Random(seed)) with
firmware.games.ai2048 at its settings, after replacing the module-level
settings named (the evaluation's weights _W_*, _BASE, BOARD_NODES, _SAMPLE,
_CUTOFF, CROWDED as comma-separated numbers...), and prints the share of
games reaching 1024, 2048 and 4096 (a game stops at 4096, whose share is
all that is tuned: the games' long ends are most of the time) and the
evaluations a hint takes.

Settings are compared with it on seeds 1001..1100, games the strength
benchmark (tools/bench/bench_2048.py, seeds 1..100) never plays, so that its
figures are not picked out of its own noise (100 games still swing a share
by ~5 points: the current settings reach 4096 in 59% of seeds 1..100 and
68% of seeds 1001..1100).

--full: the games are played to their end, as bench_2048.py plays them
(shares up to 8192 and the score), one line a game as each ends, so that a
long run on a busy machine can be read before it ends.

--growth SEED: plays that game at the board's settings and, every 9th move,
searches the position to depth 2, 3 and (with 3 empty cells or fewer) 4 with
no cap: the evaluations each depth costs over the one before, by the number
of empty cells. Seed 1: 6 to 22 times, 9 to 17 in the median; the guess ai2048
makes up to 2048 before beginning a depth (that depth's cost squared over the depth
before's) says 25 to 40 from depth 2, so depth 3 is seldom begun.

Measured with it: the deeper search ai2048 gives a crowded board once the
2048 tile is made (a depth begun when 14 times the depth before fits, a cap
of 3,000 evaluations up to 6 empty cells), used from the first move on,
searched 2.7 moves deep on average and reached 4096 in 70% of seeds 1..100
but 2048 in only 88% (the settings before: 95%, 59%), hints of 1,625 /
2,839 / 3,008 evaluations median/p90/max (~0.46 / 0.81 / 0.86 s on the
ESP32 estimate); hence only after 2048.

On the PC the module's const() names are ordinary globals, read at every
call: replacing them here changes the search as editing the file would.
"""
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()

from firmware.games import ai2048  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_2048  # noqa: E402
from firmware.games.game2048 import Game2048  # noqa: E402

STOP_AT = 12        # a game stops at 4096 (2**12)


def _apply(settings):
    for name, value in settings:
        if not hasattr(ai2048, name):
            raise SystemExit("ai2048 has no setting %s" % name)
        if "," in value:
            setattr(ai2048, name, bytes(int(v) for v in value.split(",")))
        else:
            setattr(ai2048, name, int(value))


def _play(args):
    """One game, stopped once it reaches STOP_AT (the shares above it are
    not what is tuned, and the long games' ends are most of the time)."""
    seed, settings, stop_at = args
    _apply(settings)
    g = Game2048(random.Random(seed))
    g.new_game()
    ai = ai2048.Expectimax(budget_ms=0, max_nodes=ai2048.BOARD_NODES,
                           max_depth=ai2048.MAX_DEPTH, lines=bench_2048.BIG_CACHE)
    evals = []
    depths = 0
    while max(g.board) < stop_at:
        d = ai.best_move(g.board)
        if d < 0:
            break
        evals.append(ai.nodes)
        depths += ai.depth
        if g.won and not g.keep_going:
            g.keep_going = True
        g.slide(d)
    return {"seed": seed, "max": max(g.board), "score": g.score, "evals": evals,
            "depth": depths / max(1, len(evals))}


def growth(seed):
    g = Game2048(random.Random(seed))
    g.new_game()
    ai = ai2048.Expectimax(budget_ms=0, lines=bench_2048.BIG_CACHE)
    probes = [ai2048.Expectimax(budget_ms=0, max_nodes=0, max_depth=depth,
                                lines=bench_2048.BIG_CACHE) for depth in (2, 3, 4)]
    ratios = {}             # empty cells -> [evaluations at depth d+1 / at d]
    while True:
        d = ai.best_move(g.board)
        if d < 0:
            break
        empty = g.board.count(0)
        if g.moves % 9 == 0:
            spent = []
            for probe in probes[:3 if empty <= 3 else 2]:
                probe.best_move(g.board)
                spent.append(probe.nodes - sum(spent))
            ratios.setdefault(empty, []).extend(
                spent[k + 1] / spent[k] for k in range(len(spent) - 1))
        if g.won and not g.keep_going:
            g.keep_going = True
        g.slide(d)
    print("seed %d, %d moves: a depth's evaluations / the depth before's" % (seed, g.moves))
    print("empty cells  positions  median   max")
    for empty in sorted(ratios):
        r = sorted(ratios[empty])
        print("%11d %10d %7.1f %5.1f" % (empty, len(r), r[len(r) // 2], r[-1]))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--growth":
        growth(int(sys.argv[2]))
        return
    args = sys.argv[1:]
    stop_at = STOP_AT
    if args[:1] == ["--full"]:
        args = args[1:]
        stop_at = 18            # no tile reaches 2**18: the game's end
    if len(args) < 2:
        raise SystemExit(__doc__)
    first, last = int(args[0]), int(args[1])
    settings = [a.split("=", 1) for a in args[2:]]
    _apply(settings)
    start = time.perf_counter()
    with Pool(2) as pool:       # the machine is shared: two processes at most
        results = []
        # one line a game as it ends, so a long run can be read before it ends
        games = [(s, settings, stop_at) for s in range(first, last + 1)]
        for r in pool.imap_unordered(_play, games):
            results.append(r)
            print("game %d: seed %d reached %d, score %d, %d moves, depth %.2f, evals max %d"
                  % (len(results), r["seed"], 1 << r["max"], r["score"], len(r["evals"]),
                     r["depth"], max(r["evals"] or [0])), flush=True)
    n = len(results)
    shares = " ".join("%d:%.1f" % (1 << e, 100 * sum(r["max"] >= e for r in results) / n)
                      for e in range(10, min(stop_at, 13) + 1))
    evals = sorted(e for r in results for e in r["evals"])
    print("%s | seeds %d..%d | %s | mean score %d | evals med/p90/max %d/%d/%d | depth %.2f | %.0f s"
          % (" ".join(args[2:]) or "(as in ai2048.py)", first, last, shares,
             statistics.mean(r["score"] for r in results), evals[len(evals) // 2],
             evals[len(evals) * 9 // 10], evals[-1],
             statistics.mean(r["depth"] for r in results), time.perf_counter() - start))


if __name__ == "__main__":
    main()
