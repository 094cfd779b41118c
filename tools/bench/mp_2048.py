# mprun: --loop step
# 2048 hint speed and heap under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_2048.py [max_moves]
# Plays one seeded game exactly as the board's auto-play would (one
# Expectimax object at the board's settings, kept between moves like the
# screen keeps it) and times every hint. MicroPython under Node is taken as
# ~2.5x faster than the ESP32, so the board budget (1 s) is 400 ms here and
# "esp32 ms" is the time scaled back. Then, on positions from that game, how
# many evaluations the whole 400 ms would buy (the node cap is well inside).
# Line cache: the same positions are asked of AIs with bigger line caches
# (ai2048.Expectimax lines=), each keeping its cache over the game as the
# board's does: the time per hint for each size (the moves are the same;
# a size whose moves differ is reported). This is the table that chose the
# board's 256 lines.
# Heap: gc runs between calls of step() (inside a call this port frees
# nothing), so "live" is what stays after a collection and "per hint" is all
# a hint allocates (garbage included) with no collection in between.
import gc
import random
import time
from array import array

from firmware.games import ai2048
from firmware.games.game2048 import Game2048

SEED = 1
MOVES_PER_STEP = 25
NODE_SPEEDUP_X10 = 25           # Node is ~2.5x the ESP32
NODE_BUDGET_MS = ai2048.BUDGET_MS * 10 // NODE_SPEEDUP_X10
SAMPLE_EVERY = 150              # positions kept for the time-budget probe
CACHE_SIZES = (512, 1024)       # line caches compared with the board's ai2048.CACHE_LINES
LINE_BYTES = 6                  # a line cache entry: slide (16 bits), score and tag (32)

gc.collect()
_base = gc.mem_alloc()
MAX_MOVES = 4000
# preallocated, so the live heap between hints shows any leak of the AI
S = {"phase": 0, "n": 0, "times": array("H", bytes(2 * MAX_MOVES)),
     "nodes": array("H", bytes(2 * MAX_MOVES)), "depths": bytearray(MAX_MOVES),
     "heap": 0, "positions": [], "probe": [], "others": [], "differ": set()}


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else 0


def _setup():
    random.seed(SEED)
    S["game"] = Game2048(random)
    S["game"].new_game()
    S["ai"] = ai2048.Expectimax()        # the board's settings


def _setup_others():
    # after the heap of the board's AI is measured: not part of it
    for lines in CACHE_SIZES:
        S["others"].append((lines, ai2048.Expectimax(lines=lines),
                            array("H", bytes(2 * MAX_MOVES))))


def _time_others(board, k, move):
    """The bigger caches on the board's position k: their times, and whether
    their move is the board's."""
    for lines, ai, times in S["others"]:
        t0 = time.ticks_ms()
        d = ai.best_move(board)
        times[k] = time.ticks_diff(time.ticks_ms(), t0)
        if d != move:
            S["differ"].add(lines)


def _play_some(max_moves):
    g = S["game"]
    ai = S["ai"]
    for _ in range(MOVES_PER_STEP):
        a0 = gc.mem_alloc()
        t0 = time.ticks_ms()
        d = ai.best_move(g.board)
        dt = time.ticks_diff(time.ticks_ms(), t0)
        used = gc.mem_alloc() - a0
        if d < 0:
            return False
        k = S["n"]
        _time_others(g.board, k, d)
        S["times"][k] = dt
        S["nodes"][k] = ai.nodes
        S["depths"][k] = ai.depth
        S["n"] = k + 1
        if used > S["heap"]:
            S["heap"] = used
        if g.moves % SAMPLE_EVERY == 0:
            S["positions"].append(bytes(g.board))
        if g.won and not g.keep_going:
            g.keep_going = True
        g.slide(d)
        if g.moves >= max_moves:
            return False
    return True


def _probe_one():
    # the whole board budget, no node cap: what the cap leaves unused
    pos = S["positions"].pop()
    ai = ai2048.Expectimax(budget_ms=NODE_BUDGET_MS, max_nodes=0)
    t0 = time.ticks_ms()
    ai.best_move(bytearray(pos))
    S["probe"].append((ai.nodes, ai.depth, time.ticks_diff(time.ticks_ms(), t0)))


def _report():
    g = S["game"]
    n = S["n"]
    times = list(S["times"][:n])
    nodes = list(S["nodes"][:n])
    depths = list(S["depths"][:n])
    print("2048 hint under MicroPython/Node (ESP32 ~ x2.5 slower), seed %d" % SEED)
    print("settings: cap %d evaluations (up to x%d on a crowded board), budget %d ms on the"
          " ESP32 (%d ms here), depth <= %d"
          % (ai2048.BOARD_NODES, max(ai2048.CROWDED) // 4, ai2048.BUDGET_MS, NODE_BUDGET_MS, ai2048.MAX_DEPTH))
    print("game: %d moves, score %d, max tile %d" % (g.moves, g.score, g.max_tile()))
    print("measure                       node ms   esp32 ms")
    for name, v in (("hint median", _median(times)), ("hint 90th percentile",
                    sorted(times)[n * 9 // 10] if n else 0), ("hint max", max(times) if n else 0),
                    ("first hint (cold cache)", times[0] if n else 0)):
        print("%-28s %8d %10d" % (name, v, v * NODE_SPEEDUP_X10 // 10))
    print("evaluations per hint (median) %d, depth reached (median) %d, max %d"
          % (_median(nodes), _median(depths), max(depths) if n else 0))
    total_ms = sum(times)
    print("evaluations per second here: %d" % (sum(nodes) * 1000 // max(1, total_ms)))
    if S["probe"]:
        print("with the whole %d ms and no cap, on %d positions of this game:"
              % (NODE_BUDGET_MS, len(S["probe"])))
        print("  evaluations median %d (min %d), depth median %d"
              % (_median([p[0] for p in S["probe"]]), min(p[0] for p in S["probe"]),
                 _median([p[1] for p in S["probe"]])))
    print("line cache (Expectimax lines)   heap KB   hint median    max   (esp32 ms)")
    rows = [(ai2048.CACHE_LINES, S["times"])] + [(lines, t) for lines, _ai, t in S["others"]]
    for lines, t in rows:
        taken = list(t[:n])
        print("%5d lines%-20s %7.1f %13d %6d%s" % (
            lines, " (the board's)" if lines == ai2048.CACHE_LINES else "",
            lines * LINE_BYTES / 1024, _median(taken) * NODE_SPEEDUP_X10 // 10,
            (max(taken) if n else 0) * NODE_SPEEDUP_X10 // 10,
            "   MOVES DIFFER" if lines in S["differ"] else ""))
    print("heap: game + AI objects %d B live; at most %d B allocated by one hint (no gc)"
          % (S["ai_bytes"], S["heap"]))
    print("live heap between hints grew by %d B over the game (%d sampled positions kept)"
          % (S["live"] - S["live0"], len(S["probe"])))


def step():
    import sys
    max_moves = min(MAX_MOVES, int(sys.argv[1]) if len(sys.argv) > 1 else MAX_MOVES)
    phase = S["phase"]
    if phase == 0:
        S["before"] = gc.mem_alloc()
        _setup()
        S["phase"] = 1
        return True
    if phase == 1:
        S["ai_bytes"] = gc.mem_alloc() - S["before"]
        _setup_others()
        S["phase"] = 2
        return True
    if phase == 2:
        S["live"] = gc.mem_alloc()
        if "live0" not in S:
            S["live0"] = S["live"]
        if not _play_some(max_moves):
            S["phase"] = 3
        return True
    if phase == 3:
        if S["positions"]:
            _probe_one()
            return True
        _report()
        return False
    return False
