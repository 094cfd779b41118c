# Reversi CPU speed under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_reversi.py
# For each level, positions at moves 10, 30 and 50 of a few games (easy CPU
# against easy CPU, seeded): nodes searched, time per move, nodes per second,
# depth reached, against the level's budget. MicroPython under Node is taken
# as about 2.5x faster than the ESP32, so the CPU gets budget / 2.5 here and
# "esp32 ms" is the time scaled back. Heap: bytes allocated while choosing a
# move (gc disabled during the call) and by the Ai object itself.
import gc
import random
import time

from firmware.games.reversi_tools import Reversi
from firmware.games.reversi_ai import Ai, EASY, LEVELS
from firmware.screens.reversi_shared import LEVEL_NAMES

NODE_SPEEDUP_X10 = 25  # Node is ~2.5x the ESP32
GAMES = 3
MOVES = (10, 30, 50)


def positions():
    out = {}
    for seed in range(1, GAMES + 1):
        random.seed(seed)
        g = Reversi()
        ai = Ai(EASY, budget_ms=0, rng=random)
        while not g.is_game_over() and g.ply < 50:
            if g.ply in MOVES:
                out.setdefault(g.ply, []).append(g.to_dict())
            g.push(ai.choose(g))
        if g.ply in MOVES and not g.is_game_over():
            out.setdefault(g.ply, []).append(g.to_dict())
    return out


def main():
    pos = positions()
    print("Reversi CPU under MicroPython/Node (ESP32 ~ x2.5 slower)")
    print("level   move games  nodes    ms  nodes/s depth exact  esp32 ms  board budget  heap B")
    gc.collect()
    a0 = gc.mem_alloc()
    probe = Ai(0)
    ai_bytes = gc.mem_alloc() - a0
    del probe
    worst_heap = 0
    for level in range(3):
        budget = LEVELS[level][0]
        for move in MOVES:
            games = pos.get(move, [])
            nodes = 0
            ms = 0
            depth = 0
            exact = 0
            heap = 0
            for d in games:
                g = Reversi.from_dict(d)
                ai = Ai(level, budget_ms=budget * 10 // NODE_SPEEDUP_X10, node_budget=0)
                gc.collect()
                gc.disable()
                a0 = gc.mem_alloc()
                ai.choose(g)
                used = gc.mem_alloc() - a0
                gc.enable()
                heap = max(heap, used)
                nodes += ai.nodes
                ms += ai.elapsed_ms
                depth = max(depth, ai.depth)
                exact += ai.exact
            n = max(1, len(games))
            worst_heap = max(worst_heap, heap)
            print("%-7s %4d %5d %6d %5d %8d %5d %5d %9d %13d %7d" % (
                LEVEL_NAMES[level], move, len(games), nodes // n, ms // n,
                nodes * 1000 // max(1, ms), depth, exact,
                ms * NODE_SPEEDUP_X10 // 10 // n, budget, heap))
    print("Ai object: %d B; most allocated during one move: %d B; heap free: %d B"
          % (ai_bytes, worst_heap, gc.mem_free()))


main()
