# N-puzzle solver timings under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_npuzzle.py [positions]
# Board budget: a hint answers within 1 s on the ESP32; MicroPython under
# Node is taken as ~2.5x faster than the ESP32, so <= 400 ms here.
# Heap figures are gc.mem_alloc() differences across a call: the bytes it
# allocated (the Node port's conservative GC frees little, so read them as
# allocation, an upper bound of what the call keeps alive).
import gc
import random
import sys
import time

from firmware.games import npuzzle, npuzzle_hints, npuzzle_setup
from firmware.games import npuzzle_solver as solver

BUDGET_MS = 400
POSITIONS = 20
if len(sys.argv) > 1:
    POSITIONS = int(sys.argv[1])


def ms_since(t0):
    return time.ticks_diff(time.ticks_us(), t0) / 1000


def stats(values):
    v = sorted(values)
    n = len(v)
    median = v[n // 2] if n & 1 else (v[n // 2 - 1] + v[n // 2]) / 2
    return median, v[-1]


def row(name, values, unit="ms"):
    median, top = stats(values)
    print("%-44s %5d %9.1f %9.1f %s" % (name, len(values), median, top, unit))


gc.collect()
base = gc.mem_alloc()
t0 = time.ticks_us()
solver.prepare()
init_ms = ms_since(t0)
gc.collect()
tables = gc.mem_alloc() - base

print("N-puzzle solver under MicroPython %s" % (sys.implementation.version,))
print("%-44s %5s %9s %9s" % ("measure", "n", "median", "max"))
print("%-44s %5d %9.1f %9.1f ms" % ("3x3 tables built (once)", 1, init_ms, init_ms))
print("%-44s %5d %9d %9d bytes" % ("3x3 tables: allocated while loading", 1, tables, tables))
print("%-44s %5d %9d %9d bytes" % ("3x3 tables kept (total, largest piece)", 1, sum(len(p) for p in solver._pdb), max(len(p) for p in solver._pdb)))

# 3x3 optimal: random positions and the two hardest (31 moves).
random.seed(1)
p = npuzzle.Puzzle(3)
times = []
lengths = []
for i in range(POSITIONS):
    npuzzle_setup.shuffle_uniform(p, random)
    gc.collect()   # so a collection of the big host heap does not land in a timing
    t0 = time.ticks_us()
    lengths.append(len(solver.solve8(p.tiles)))
    times.append(ms_since(t0))
row("3x3 optimal solve, random positions", times)
row("3x3 optimal length, random positions", lengths, "moves")
times = []
for tiles in ((8, 6, 7, 2, 5, 4, 3, 0, 1), (6, 4, 7, 8, 5, 0, 3, 2, 1)):
    gc.collect()
    t0 = time.ticks_us()
    n = len(solver.solve8(bytes(tiles)))
    times.append(ms_since(t0))
    assert n == 31
row("3x3 optimal solve, the two 31-move positions", times)

for width in (4, 5):
    random.seed(width)
    p = npuzzle.Puzzle(width)
    first = []
    worst = []
    every = []
    full = []
    heap = []
    lengths = []
    for i in range(POSITIONS):
        npuzzle_setup.shuffle_uniform(p, random)
        gc.collect()
        before = gc.mem_alloc()
        t0 = time.ticks_us()
        path = solver.solution(p)
        full.append(ms_since(t0))
        heap.append(gc.mem_alloc() - before)
        lengths.append(len(path))
        # Follow the hints to the end, timing every call.
        h = npuzzle.Hinter()
        q = p.copy()
        calls = []
        while True:
            if not h.plan or h.step >= len(h.plan) - 1:
                gc.collect()   # before the calls that may plan afresh
            t0 = time.ticks_us()
            d = npuzzle_hints.hint(h, q)
            calls.append(ms_since(t0))
            if d is None:
                break
            q.push(d)
        first.append(calls[0])
        worst.append(max(calls))
        every.extend(calls)
    name = "%dx%d" % (width, width)
    row(name + " first hint on a fresh shuffle", first)
    row(name + " slowest hint along a solve (per game)", worst)
    row(name + " any hint call (cached ones included)", every)
    row(name + " full solution", full)
    row(name + " solution length (staged)", lengths, "moves")
    row(name + " bytes allocated by a full solution", heap, "bytes")
    ok = max(worst) <= BUDGET_MS
    print("%s slowest hint %.1f ms: %s the %d ms budget" % (
        name, max(worst), "within" if ok else "OVER", BUDGET_MS))

gc.collect()
print("heap in use at the end: %d bytes" % gc.mem_alloc())
