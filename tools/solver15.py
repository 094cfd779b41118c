"""Optimal 15-puzzle solver for the PC (CPython only): tests and analysis.

IDA* with the Manhattan distance plus linear conflicts, both updated
incrementally (a move changes one tile's distance and the conflicts of the
two lines the tile leaves and enters; lines are small base-5 codes into one
625-entry conflict table). Directions are npuzzle's push
directions, so a solution replays with Puzzle.push().

    python tools/solver15.py 15 2 1 12 8 5 6 11 4 9 10 7 3 14 13 0
    from tools.solver15 import solve ; moves, nodes = solve(tiles)

Plain Manhattan distance (heuristic="md") is kept as an independent check of
the optimal lengths found with linear conflicts (same search, weaker bound).
"""

import os
import sys
import time

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

W = 4
N = W * W
LEFT, RIGHT, UP, DOWN = 0, 1, 2, 3          # as firmware.games.npuzzle
BLANK_STEP = {LEFT: 1, RIGHT: -1, UP: W, DOWN: -W}
OPPOSITE = {LEFT: RIGHT, RIGHT: LEFT, UP: DOWN, DOWN: UP}


def _neighbours():
    out = []
    for b in range(N):
        r, c = divmod(b, W)
        moves = []
        if c < W - 1:
            moves.append((b + 1, LEFT))
        if c > 0:
            moves.append((b - 1, RIGHT))
        if r < W - 1:
            moves.append((b + W, UP))
        if r > 0:
            moves.append((b - W, DOWN))
        out.append(tuple(moves))
    return tuple(out)


NEIGHBOURS = _neighbours()
# MD[t][i]: Manhattan distance of tile t standing on cell i.
MD = [[0] * N] + [[abs((t - 1) // W - i // W) + abs((t - 1) % W - i % W) for i in range(N)]
                  for t in range(1, N)]


def _conflict(goals):
    """2 x (number of tiles to take out so the rest are in goal order)."""
    n = len(goals)
    if n < 2:
        return 0
    lis = [1] * n
    for i in range(n):
        for j in range(i):
            if goals[j] < goals[i] and lis[j] + 1 > lis[i]:
                lis[i] = lis[j] + 1
    return 2 * (n - max(lis))


# Linear conflicts by table. A line (row or column) is coded in base 5, one
# digit per cell: the goal position along the line of a tile that belongs to
# this line, or 4 for any other tile and for the blank. LC5[code] is that
# line's conflict count, the same table for every row and column. A move
# changes two digits, so the search updates codes instead of rescanning.
POW5 = (125, 25, 5, 1)
F_ROW = [[(t - 1) % W if t and (t - 1) // W == r else 4 for t in range(N)] for r in range(W)]
F_COL = [[(t - 1) // W if t and (t - 1) % W == c else 4 for t in range(N)] for c in range(W)]
LC5 = []
for _code in range(5 ** W):
    _digits = [_code // POW5[i] % 5 for i in range(W)]
    LC5.append(_conflict([d for d in _digits if d < 4]))


def line_codes(tiles):
    rows = [sum(F_ROW[r][tiles[r * W + i]] * POW5[i] for i in range(W)) for r in range(W)]
    cols = [sum(F_COL[c][tiles[i * W + c]] * POW5[i] for i in range(W)) for c in range(W)]
    return rows, cols


def row_conflict(tiles, r):
    return LC5[line_codes(tiles)[0][r]]


def col_conflict(tiles, c):
    return LC5[line_codes(tiles)[1][c]]


def heuristic(tiles, kind="lc"):
    h = sum(MD[t][i] for i, t in enumerate(tiles) if t)
    if kind == "lc":
        rows, cols = line_codes(tiles)
        h += sum(LC5[c] for c in rows) + sum(LC5[c] for c in cols)
    return h


def is_solvable(tiles):
    inv = 0
    seq = [t for t in tiles if t]
    for i in range(len(seq)):
        for j in range(i + 1, len(seq)):
            if seq[j] < seq[i]:
                inv += 1
    return (inv + W - list(tiles).index(0) // W) % 2 == 1


def solve(tiles, kind="lc", max_nodes=None):
    """(list of push directions, nodes visited) of an optimal solution.

    kind "lc": Manhattan + linear conflict; "md": Manhattan only.
    Raises ValueError if unsolvable, RuntimeError past max_nodes."""
    t = list(tiles)
    if sorted(t) != list(range(N)) or not is_solvable(t):
        raise ValueError("unsolvable 15-puzzle position")
    use_lc = kind == "lc"
    path = []
    nodes = [0]
    FOUND = -1

    def dfs(blank, g, bound, prev, h):
        nodes[0] += 1
        f = g + h
        if f > bound:
            return f
        if h == 0:
            return FOUND
        if max_nodes and nodes[0] > max_nodes:
            raise RuntimeError("node limit")
        best = 1 << 30
        for q, d in NEIGHBOURS[blank]:
            if d == prev:
                continue
            tile = t[q]
            md = MD[tile]
            h2 = h - md[q] + md[blank]
            if use_lc:
                rq, cq = divmod(q, W)
                rb, cb = divmod(blank, W)
                if rq == rb:       # the tile changes column within row rq
                    old1, old2 = cols[cq], cols[cb]
                    new1 = old1 + (4 - F_COL[cq][tile]) * POW5[rq]
                    new2 = old2 + (F_COL[cb][tile] - 4) * POW5[rq]
                    h2 += LC5[new1] + LC5[new2] - LC5[old1] - LC5[old2]
                    old_line = rows[rq]
                    cols[cq], cols[cb] = new1, new2
                    rows[rq] = old_line + (F_ROW[rq][tile] - 4) * (POW5[cb] - POW5[cq])
                else:              # the tile changes row within column cq
                    old1, old2 = rows[rq], rows[rb]
                    new1 = old1 + (4 - F_ROW[rq][tile]) * POW5[cq]
                    new2 = old2 + (F_ROW[rb][tile] - 4) * POW5[cq]
                    h2 += LC5[new1] + LC5[new2] - LC5[old1] - LC5[old2]
                    old_line = cols[cq]
                    rows[rq], rows[rb] = new1, new2
                    cols[cq] = old_line + (F_COL[cq][tile] - 4) * (POW5[rb] - POW5[rq])
            t[blank], t[q] = tile, 0
            path.append(d)
            r = dfs(q, g + 1, bound, OPPOSITE[d], h2)
            if r == FOUND:
                return FOUND
            path.pop()
            t[q], t[blank] = tile, 0
            if use_lc:
                if rq == rb:
                    cols[cq], cols[cb] = old1, old2
                    rows[rq] = old_line
                else:
                    rows[rq], rows[rb] = old1, old2
                    cols[cq] = old_line
            if r < best:
                best = r
        return best

    blank = t.index(0)
    rows, cols = line_codes(t)
    h = heuristic(t, kind)
    bound = h
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 1000))
    try:
        while True:
            r = dfs(blank, 0, bound, None, h)
            if r == FOUND:
                return list(path), nodes[0]
            bound = r
    finally:
        sys.setrecursionlimit(old)


def optimal_length(tiles, kind="lc"):
    return len(solve(tiles, kind)[0])


def main(argv):
    if len(argv) != N:
        print(__doc__)
        return 2
    tiles = [int(a) for a in argv]
    t0 = time.perf_counter()
    moves, nodes = solve(tiles)
    dt = time.perf_counter() - t0
    names = ("left", "right", "up", "down")
    print("optimal length %d (%d nodes, %.2f s)" % (len(moves), nodes, dt))
    print(" ".join(names[d] for d in moves))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
