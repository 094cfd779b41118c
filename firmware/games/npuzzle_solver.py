# Why this module is long (~420 lines), in one file: the two solvers share the
# move tables, the staged one finishes every board with the optimal 3x3 one,
# and a screen borrows them as one module (imported to plan a hint, forgotten
# after: README, "Why the code looks like this").
# Solvers for the N-puzzle, small enough for the ESP32.
#
# - solve8(tiles): an optimal solution of a 3x3 position (IDA* with additive
#   pattern databases: 6.5 KB, see tools/gen_npuzzle_pdb8.py).
# - plan_stage(tiles, width): for any width, the next stage of a solution:
#   widths above 3 are solved in stages (top row, then left column, then the
#   same on the smaller puzzle that is left) and the last 3x3 is finished
#   optimally. firmware.games.npuzzle_hints hands these plans out as hints.
# - solution(puzzle): the whole list of pushes ("hold hint plays the solution").
#
# Every move here is a push direction as in npuzzle.push(): the tile next to
# the blank slides into it, so the blank steps by npuzzle.BLANK_STEP[direction].

from micropython import const
from firmware.games.npuzzle import (LEFT, RIGHT, UP, DOWN, OPPOSITE,
                                    BLANK_STEP, is_solvable, find)

_NONE = const(255)        # "no direction" (the root of a search)
_FOUND = const(1000)      # returned by the depth-first search when solved

# ---------------------------------------------------------------- 3x3 optimal
# IDA* with two additive pattern databases (tiles 1-4 and 5-8; built by
# tools/gen_npuzzle_pdb8.py): 6561 bytes of 4-bit move counts. The hardest
# positions (31 moves) take under a thousand nodes.
_moves3 = None      # per cell: flat (neighbour cell, push direction) pairs
_pdb = None         # the tables: 1 KB pieces (bytes, two 4-bit counts a byte)
_PATTERN_B = const(6561)   # offset of the tiles 5-8 table, in nibbles
# A tile's weight in its pattern's base-9 placement number.
_WEIGHT = (0, 729, 81, 9, 1, 729, 81, 9, 1)


def _neighbours(width):
    table = []
    for b in range(width * width):
        col = b % width
        row = b // width
        out = []
        for d in (LEFT, RIGHT, UP, DOWN):
            dc, dr = BLANK_STEP[d]
            c = col + dc
            r = row + dr
            if 0 <= c < width and 0 <= r < width:
                out.append(r * width + c)
                out.append(d)
        table.append(tuple(out))
    return tuple(table)


def prepare():
    """Load the 3x3 tables now (6.5 KB), e.g. when a puzzle screen opens, so
    the first hint does not pay for them."""
    global _moves3, _pdb
    if _pdb is not None:
        return
    from firmware import modules
    # the 1 KB pieces are kept as they are; the module around them is
    # forgotten (README, "Why the code looks like this": packed tables)
    with modules.borrowed("firmware.games.npuzzle_pdb8") as tables:
        pdb = tables.PIECES
    tables = None
    _moves3 = _neighbours(3)
    _pdb = pdb


def _placements(t):
    """Base-9 placement numbers of tiles 1-4 and (offset) tiles 5-8."""
    a = 0
    b = _PATTERN_B
    for i in range(9):
        tile = t[i]
        if tile:
            if tile <= 4:
                a += i * _WEIGHT[tile]
            else:
                b += i * _WEIGHT[tile]
    return a, b


def _dfs3(t, blank, g, bound, prev, a, b, path):
    # a, b: the placement numbers of t; path[g:] receives the moves.
    pdb = _pdb
    # nibble a is in byte a >> 1, in piece (a >> 1) >> 10 at (a >> 1) & 1023
    h = (((pdb[a >> 11][(a >> 1) & 1023] >> ((a & 1) << 2)) & 15)
         + ((pdb[b >> 11][(b >> 1) & 1023] >> ((b & 1) << 2)) & 15))
    f = g + h
    if f > bound:
        return f
    if h == 0:
        return _FOUND
    best = 255
    nb = _moves3[blank]
    for m in range(0, len(nb), 2):
        d = nb[m + 1]
        if prev != _NONE and d == OPPOSITE[prev]:
            continue
        q = nb[m]
        tile = t[q]
        # the tile slides from q into the blank
        t[blank] = tile
        t[q] = 0
        path[g] = d
        if tile <= 4:
            r = _dfs3(t, q, g + 1, bound, d, a + (blank - q) * _WEIGHT[tile], b, path)
        else:
            r = _dfs3(t, q, g + 1, bound, d, a, b + (blank - q) * _WEIGHT[tile], path)
        t[q] = tile
        t[blank] = 0
        if r == _FOUND:
            return _FOUND
        if r < best:
            best = r
    return best


def solve8(tiles):
    """Optimal pushes that solve a 3x3 position (bytearray of directions).

    Raises ValueError for an unsolvable position."""
    if len(tiles) != 9 or not is_solvable(tiles, 3):
        raise ValueError("unsolvable")
    prepare()
    t = bytearray(tiles)
    blank = find(t, 0)
    a, b = _placements(t)
    path = bytearray(32)       # no 3x3 position needs more than 31 moves
    bound = 0
    while True:
        r = _dfs3(t, blank, 0, bound, _NONE, a, b, path)
        if r == _FOUND:
            return path[:bound]
        bound = r


def optimal_length8(tiles):
    return len(solve8(tiles))


# ------------------------------------------------------------ staged solving
# Widths above 3 are solved group by group: the top row left to right, then
# the left column top to bottom, then the same on the (width-1) puzzle at the
# bottom right, until a 3x3 is left, which is solved optimally.
# Each group lists the cells it puts in place; a group's plan never touches
# the cells of earlier groups, which are walls for its searches. The groups
# are found from the board itself (the first group not in place), so a plan
# survives any detour the player takes.
_SINGLE = const(0)     # one tile to its cell
_ROW_PAIR = const(1)   # the last two tiles of a row
_COL_PAIR = const(2)   # the last two tiles of a column
_FINAL3 = const(3)     # the bottom-right 3x3

_neighbour_cache = {}


def _neighbours_of(width):
    nb = _neighbour_cache.get(width)
    if nb is None:
        nb = _neighbours(width)
        _neighbour_cache[width] = nb
    return nb


def groups(width):
    """The stages as (kind, cells) in solving order."""
    out = []
    w = width
    k = 0
    while w - k > 3:
        for c in range(k, w - 2):
            out.append((_SINGLE, (k * w + c,)))
        out.append((_ROW_PAIR, (k * w + w - 2, k * w + w - 1)))
        for r in range(k + 1, w - 2):
            out.append((_SINGLE, (r * w + k,)))
        out.append((_COL_PAIR, ((w - 2) * w + k, (w - 1) * w + k)))
        k += 1
    cells = []
    for r in range(k, w):
        for c in range(k, w):
            cells.append(r * w + c)
    out.append((_FINAL3, tuple(cells)))
    return out


def _step_index(width, d):
    dc, dr = BLANK_STEP[d]
    return dr * width + dc


def _route(tiles, width, fixed, blank, tile_cell, target):
    """Breadth-first search for pushes that bring the tile at `tile_cell` to
    `target` (or, with tile_cell < 0, the blank to `target`) while every cell
    marked in `fixed` keeps its tile. Other tiles may wander. The states are
    (tile cell, blank cell): at most 625 on a 5x5. Returns a bytearray or
    None when the target cannot be reached."""
    size = width * width
    nb = _neighbours_of(width)
    moving = tile_cell >= 0
    tp = tile_cell if moving else 0
    start = tp * size + blank
    seen = bytearray(size * size)     # 0 unseen, 5 start, else push + 1
    seen[start] = 5
    queue = [start]
    head = 0
    found = -1
    while head < len(queue):
        code = queue[head]
        head += 1
        tp = code // size
        bp = code - tp * size
        if (tp if moving else bp) == target:
            found = code
            break
        moves = nb[bp]
        for m in range(0, len(moves), 2):
            q = moves[m]
            if fixed[q]:
                continue
            ntp = bp if (moving and q == tp) else tp
            ncode = ntp * size + q
            if not seen[ncode]:
                seen[ncode] = moves[m + 1] + 1
                queue.append(ncode)
    if found < 0:
        return None
    path = bytearray()
    code = found
    while seen[code] != 5:
        d = seen[code] - 1
        path.append(d)
        tp = code // size
        bp = code - tp * size
        prev_b = bp - _step_index(width, d)
        if moving and tp == prev_b:
            tp = bp
        code = tp * size + prev_b
    _reverse(path)
    return path


def _route_pair(tiles, width, fixed, blank, a_cell, b_cell):
    """Pushes that bring tiles a_cell+1 and b_cell+1 to their cells together,
    searching (A, B, blank) inside the 3x3 block holding both cells; the
    blank must already be in that block. At most 9*8*7 = 504 states."""
    r0 = min(a_cell // width, width - 3)
    c0 = min(a_cell % width, width - 3)
    local = bytearray(b'\xff' * (width * width))   # board cell -> block cell
    cells = bytearray(9)
    n = 0
    for r in range(r0, r0 + 3):
        for c in range(c0, c0 + 3):
            cell = r * width + c
            if not fixed[cell]:
                local[cell] = n
                cells[n] = cell
                n += 1
    nb = _neighbours_of(width)
    start = (local[find(tiles, a_cell + 1)] * 9 + local[find(tiles, b_cell + 1)]) * 9 + local[blank]
    goal_ab = local[a_cell] * 9 + local[b_cell]
    seen = bytearray(729)    # 0 unseen, 5 start, else push + 1
    seen[start] = 5
    queue = [start]
    head = 0
    found = -1
    while head < len(queue):
        code = queue[head]
        head += 1
        if code // 9 == goal_ab:
            found = code
            break
        a = code // 81
        b = code // 9 % 9
        bp = cells[code % 9]
        moves = nb[bp]
        for m in range(0, len(moves), 2):
            q = local[moves[m]]
            if q == 255:
                continue
            na = a
            b2 = b
            if q == a:
                na = local[bp]
            elif q == b:
                b2 = local[bp]
            ncode = (na * 9 + b2) * 9 + q
            if not seen[ncode]:
                seen[ncode] = moves[m + 1] + 1
                queue.append(ncode)
    path = bytearray()
    code = found
    while seen[code] != 5:
        d = seen[code] - 1
        path.append(d)
        a = code // 81
        b = code // 9 % 9
        q = code % 9
        prev = local[cells[q] - _step_index(width, d)]
        if a == prev:
            a = q
        elif b == prev:
            b = q
        code = (a * 9 + b) * 9 + prev
    _reverse(path)
    return path


def _reverse(path):
    i = 0
    j = len(path) - 1
    while i < j:
        a = path[i]
        path[i] = path[j]
        path[j] = a
        i += 1
        j -= 1


def _apply(tiles, width, blank, path):
    """Play pushes on a bare board; returns the new blank cell."""
    for d in path:
        q = blank + _step_index(width, d)
        tiles[blank] = tiles[q]
        tiles[q] = 0
        blank = q
    return blank


def _in_place(tiles, cells):
    for c in cells:
        if tiles[c] != c + 1:
            return False
    return True


def _sub3(tiles, width):
    """The bottom-right 3x3 as a standard 8-puzzle board."""
    o = width - 3
    sub = bytearray(9)
    for r in range(3):
        for c in range(3):
            v = tiles[(o + r) * width + o + c]
            if v:
                g = v - 1
                v = (g // width - o) * 3 + (g % width - o) + 1
            sub[r * 3 + c] = v
    return sub


def plan_stage(tiles, width):
    """Pushes that put the first group not yet in place into place.

    Returns an empty bytearray when the board is solved."""
    tiles = bytearray(tiles)
    size = width * width
    blank = find(tiles, 0)
    fixed = bytearray(size)
    for kind, cells in groups(width):
        if kind == _FINAL3:
            if _in_place(tiles, cells[:-1]):
                return bytearray()
            return solve8(_sub3(tiles, width))
        if _in_place(tiles, cells):
            for c in cells:
                fixed[c] = 1
            continue
        if kind == _SINGLE:
            cell = cells[0]
            return _route(tiles, width, fixed, blank, find(tiles, cell + 1), cell)
        # A pair: A goes to B's cell, B next to it on the far side, then the
        # blank comes round to A's cell and two pushes drop both into place.
        a_cell, b_cell = cells
        if kind == _ROW_PAIR:
            b_park = b_cell + width      # under B's cell
            finish = (LEFT, UP)          # blank steps right, then down
        else:
            b_park = b_cell + 1          # right of B's cell
            finish = (UP, LEFT)          # blank steps down, then right
        plan = _route(tiles, width, fixed, blank, find(tiles, a_cell + 1), b_cell)
        blank = _apply(tiles, width, blank, plan)
        fixed[b_cell] = 1
        part = _route(tiles, width, fixed, blank, find(tiles, b_cell + 1), b_park)
        if part is None:
            # B is shut in A's cell (its only way out leads back in): bring the
            # blank next to it, then move both together inside the 3x3 corner.
            fixed[a_cell] = 1
            part = _route(tiles, width, fixed, blank, -1, a_cell + b_park - b_cell)
            blank = _apply(tiles, width, blank, part)
            plan.extend(part)  # pyright: ignore[reportArgumentType]  (a route exists here)
            fixed[a_cell] = 0
            fixed[b_cell] = 0
            plan.extend(_route_pair(tiles, width, fixed, blank, a_cell, b_cell))
            return plan
        blank = _apply(tiles, width, blank, part)
        plan.extend(part)
        fixed[b_park] = 1
        part = _route(tiles, width, fixed, blank, -1, a_cell)
        plan.extend(part)  # pyright: ignore[reportArgumentType]  (a route exists here)
        plan.extend(bytes(finish))
        return plan
    return bytearray()


def solution(puzzle):
    """All the pushes from the puzzle's position to solved (optimal on 3x3)."""
    width = puzzle.width
    tiles = bytearray(puzzle.tiles)
    blank = puzzle.blank
    if width == 3:
        return solve8(tiles)
    if not is_solvable(tiles, width):
        raise ValueError("unsolvable")
    out = bytearray()
    while True:
        part = plan_stage(tiles, width)
        if not part:
            return out
        blank = _apply(tiles, width, blank, part)
        out.extend(part)
