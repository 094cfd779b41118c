# Why this module is long (~370 lines), in one file: one search. The
# expectimax, its evaluation and its line cache share the packed lines and
# the per-ply boards; most of the length is the explanation below.
# A 2048 player: depth-limited expectimax over the spawn chances, for the
# move hint and the auto-play demo.
#
# Max nodes choose a slide; chance nodes average over the new tile (a 2 with
# p=0.9, a 4 with p=0.1, in each empty cell with equal chance). The search
# deepens one move at a time until its budget runs out (evaluations, which is
# deterministic and the same on the PC, or wall-clock ms) and answers with the
# deepest search that finished, so it always answers in time. A depth the
# budget cannot finish is not begun: each depth costs about as many times the
# one before as that one cost its own, and an unfinished depth is wasted.
# The budget grows as the board fills (CROWDED): there a slip loses the game,
# and a deeper search is cheap, with few cells for the new tile. Once the
# 2048 tile is made, a board with 6 empty cells or fewer is searched three
# moves deep where it fits 3,000 evaluations (best_move says why only then).
#
# Made to be cheap on an ESP32 under MicroPython:
# - all values are small ints (floats are heap objects there), all boards are
#   preallocated bytearrays, one per ply;
# - a line of four exponents is a 20-bit code; its slide and its heuristic
#   score are computed on first use and kept in a direct-mapped cache of 256
#   lines, 1.5 KB: the slide in 16 bits (0 for a line the slide leaves as it
#   is: a line that changes ends in an empty cell, so its code is < 2**15),
#   and the score shifted left 12 bits over the code's top bits, its tag (the
#   slot and the tag together give the code back). The cache changes no
#   value, only speed; its size trades heap for speed: tools/bench/mp_2048.py
#   prints the hint's time with 256, 512 and 1024 lines. (Three int arrays,
#   key, slide and score, took four times this heap for the same speed.) A
#   full table is far beyond the heap: 2**20 codes, and even 4-bit exponents
#   (tiles up to 32768 only) would need 2 x 65536 entries of 16-bit rows,
#   256 KB; a dict cache grows with use, this one is allocated once;
# - unlikely branches are cut: below a path probability the 4s are not
#   searched, and with many empty cells only some of them are.

import time
from array import array

from micropython import const  # on the PC: tools/emu/mp/micropython.py

from firmware.games.game2048 import LINES, slide_line_code

# The board's settings. A hint is capped at BOARD_NODES evaluations (times
# CROWDED[empty cells] / 4 on a crowded board), which is what the strength
# benchmark plays (tools/bench/bench_2048.py) and takes under the 1 s budget
# on the ESP32 (tools/bench/mp_2048.py), so the screen stays responsive and
# the board plays exactly the games the PC benchmark plays. BUDGET_MS is the
# safety net in wall-clock time.
BUDGET_MS = const(1000)
BOARD_NODES = const(300)
MAX_DEPTH = const(6)           # player moves searched at most

_ONE = const(1 << 20)          # probability 1 in fixed point
_CUTOFF = const(1 << 20 >> 6)  # paths rarer than 1/64: no 4s searched below
_SAMPLE = const(6)             # empty cells searched at most per chance node
CACHE_LINES = const(256)       # the line cache's size on the board (a power of 2, >= 256)
_MIX = const(797)              # slot = (code ^ tag * _MIX) & (lines - 1)
_TAG = const(8)                # tag = code >> _TAG (< 2304: 12 bits)
_TAG_MASK = const(4095)        # an entry's tag bits; 4095 matches no code
_CHECK_EVERY = const(63)       # evaluations between clock checks (mask)
_DEEP_TILE = const(11)         # from the 2048 tile on (its exponent) ...
_DEEP_EMPTY = const(6)         # ... a board with this many empty cells or fewer ...
_DEEP_X = const(10)            # ... gets this many times BOARD_NODES (3,000: ~0.86 s)
_GROWTH = const(14)            # ... and a depth is begun if 14 x the one before fits

# The heuristic, per line of four (a row, or a column), summed over all 8.
# Monotonic lines (tiles growing toward one end) keep the big tiles on an
# edge and in a corner; empty cells and possible merges keep the game alive;
# a heavy sum of big tiles (too many of them unmerged) is penalised.
_BASE = const(200000)          # per line, so a live position scores > 0
_W_EMPTY = const(300)
_W_MERGE = const(500)
_W_MONO = const(40)            # /16, on e**4
_W_HEAVY = const(12)           # /16, on e**3.5
_W_SMOOTH = const(20)
_W_EDGE = const(40)
_W_DIV = const(16)

# The node cap times this / 4, by the number of empty cells (0..16).
CROWDED = bytes((32, 32, 32, 32, 32, 32, 16, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4))

# Rows and columns, each once, for the heuristic.
_EVAL_LINES = LINES[0] + LINES[2]


# Raised as the class, a fresh instance each time: MicroPython appends to the
# traceback of a re-raised instance, so one kept instance grows ~80 B a raise.
class _OutOfBudget(Exception):
    pass


_LINE = bytearray(4)            # the line being scored (no tuple per miss)


def _line_score(code):
    line = _LINE
    line[0] = code & 31
    line[1] = (code >> 5) & 31
    line[2] = (code >> 10) & 31
    line[3] = code >> 15
    empty = 0
    merges = 0        # merges a slide along this line would make
    heavy = 0         # sum of e**3.5 over the tiles
    rough = 0         # steps between neighbouring tiles, in exponents
    prev = 0
    for e in line:
        if not e:
            empty += 1
            continue
        heavy += _POW35[e]
        if e == prev:
            merges += 1
            prev = 0          # a tile merges once
        else:
            if prev:
                rough += e - prev if e > prev else prev - e
            prev = e
    # Monotonicity: how far the line is from rising, and from falling,
    # measured on e**4 so that misplacing a big tile costs the most.
    rise = 0
    fall = 0
    big = 0
    x = _POW4[line[0]]
    for i in range(1, 4):
        y = _POW4[line[i]]
        if x > y:
            fall += x - y
        else:
            rise += y - x
        x = y
    for e in line:
        if e > big:
            big = e
    mono = rise if rise < fall else fall
    # the largest tile at an end of the line: in a corner if true for both
    # its row and its column
    edge = big if big and (line[0] == big or line[3] == big) else 0
    return (_BASE + _W_EMPTY * empty + _W_MERGE * merges + _W_EDGE * edge
            - _W_SMOOTH * rough - (_W_MONO * mono + _W_HEAVY * heavy) // _W_DIV)


# Integer powers, the same on the board (single-precision floats) and the PC.
_POW4 = tuple(e ** 4 for e in range(18))
# e ** 3.5, rounded down (the integer square root of e ** 7), written out: a
# function to compute them would stay in the heap with the module
_POW35 = (0, 1, 11, 46, 128, 279, 529, 907, 1448, 2187, 3162, 4414, 5985, 7921, 10267,
          13071, 16384, 20256)


class Expectimax:
    """best_move(board) -> a direction (game2048.LEFT ...), or -1 if none.

    The search stops deepening when either budget runs out (0 disables one):
    budget_ms in wall-clock ms, max_nodes in evaluations (deterministic;
    times CROWDED[empty cells] / 4 for the board searched);
    clock: a ticks_ms-like function (for tests); lines: the line cache's
    size (benchmarks try others: the moves are the same, only the time
    differs). After a search: depth (the deepest finished), nodes
    (evaluations made), values (per direction, at that depth; -1 for a slide
    that changes nothing).
    """

    def __init__(self, budget_ms=BUDGET_MS, max_depth=MAX_DEPTH,
                 max_nodes=BOARD_NODES, clock=None, lines=CACHE_LINES):
        self.budget_ms = budget_ms
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.clock = clock or time.ticks_ms
        self.depth = 0
        self.nodes = 0
        # root value per direction at the deepest finished depth (-1: illegal)
        self.values = [-1, -1, -1, -1]
        self._pending = [-1, -1, -1, -1]
        # board after the slide at each ply; the spawn is put in place and
        # taken back, so one buffer per ply is enough
        self._boards = [bytearray(16) for _ in range(max_depth + 1)]
        self._empties = [bytearray(16) for _ in range(max_depth + 1)]
        # The line cache: direct-mapped, `lines` entries, each holding a
        # line's slide (0: unchanged; a changed line's last cell is empty, so
        # its code is < 2**15), and its score << 12 | its tag (code >> 8): the
        # slot (code ^ tag * _MIX, low bits) and the tag give the code back,
        # so the tag alone tells whether the entry is this line's. 1.5 KB on
        # the ESP32 (scores are -53836 .. 201200: shifted, still small ints).
        self._slid = array("H", bytes(2 * lines))
        score = self._score = array("i", bytes(4 * lines))
        for slot in range(lines):
            score[slot] = -1                 # tag 4095: no code matches
        self._start = 0
        self._cap = max_nodes
        self.misses = 0

    def _learn(self, slot, code):
        self.misses += 1
        new = slide_line_code(code)
        self._slid[slot] = 0 if new == code else new
        self._score[slot] = (_line_score(code) << 12) | (code >> _TAG)

    def slide(self, src, dst, direction):
        """dst = src slid toward direction; True if it changed."""
        keys = self._score
        slid = self._slid
        mask = len(slid) - 1            # the cache's size, a power of 2
        changed = False
        for line in LINES[direction]:
            i, j, k, m = line
            code = src[i] | (src[j] << 5) | (src[k] << 10) | (src[m] << 15)
            tag = code >> _TAG
            slot = (code ^ tag * _MIX) & mask
            if keys[slot] & _TAG_MASK != tag:
                self._learn(slot, code)
            new = slid[slot]
            if new:
                changed = True
                dst[i] = new & 31
                dst[j] = (new >> 5) & 31
                dst[k] = (new >> 10) & 31
                dst[m] = new >> 15
            else:
                dst[i] = src[i]
                dst[j] = src[j]
                dst[k] = src[k]
                dst[m] = src[m]
        return changed

    def evaluate(self, b):
        """The heuristic value of a position (higher is better)."""
        self.nodes += 1
        if not self.nodes & _CHECK_EVERY:
            self._check_budget()
        score = self._score
        mask = len(score) - 1
        total = 0
        for line in _EVAL_LINES:
            i, j, k, m = line
            code = b[i] | (b[j] << 5) | (b[k] << 10) | (b[m] << 15)
            tag = code >> _TAG
            slot = (code ^ tag * _MIX) & mask
            s = score[slot]
            if s & _TAG_MASK != tag:
                self._learn(slot, code)
                s = score[slot]
            total += s >> 12
        return total if total > 0 else 1     # 0 is kept for "no move left"

    def _check_budget(self):
        if self._cap and self.nodes > self._cap:
            raise _OutOfBudget
        if self.budget_ms and time.ticks_diff(self.clock(), self._start) > self.budget_ms:
            raise _OutOfBudget

    # --- the search --------------------------------------------------------

    def best_move(self, board):
        self._start = self.clock()
        # a crowded board gets more evaluations: there one wrong move can
        # end the game, and a deeper search is cheap (few cells to spawn in)
        empty = 0
        top = 0
        for cell in board:
            if not cell:
                empty += 1
            elif cell > top:
                top = cell
        self._cap = self.max_nodes * CROWDED[empty] // 4
        # Once the 2048 tile is made, a board with few empty cells gets
        # _DEEP_X times the cap and a depth guess that begins depth 3 there
        # (past depth 2 a depth costs 6 to 22 times the one before, median
        # 9 to 17: tools/bench/tune_2048.py --growth). Measured over all of
        # a game, that took 4096 from 59% to 70% of the benchmark's games but
        # 2048 from 95% down to 88%: so the play up to 2048 is left as it was.
        deep = top >= _DEEP_TILE and empty <= _DEEP_EMPTY
        if deep:
            self._cap = self.max_nodes * _DEEP_X
        self.nodes = 0
        self.depth = 0
        best = -1
        last = 0                # evaluations of the depth before
        for depth in range(1, self.max_depth + 1):
            before = self.nodes
            try:
                move = self._root(board, depth)
            except _OutOfBudget:
                break
            if move < 0:
                break           # no move at all
            best = move
            self.depth = depth
            # A depth the cap cannot finish is not begun (an unfinished
            # depth is thrown away: only time lost). The guess up to 2048:
            # each depth costs as many times the one before as that one cost
            # its own (from depth 2, 25 to 40 times: depth 3 seldom begun).
            spent = self.nodes - before
            guess = spent * _GROWTH if deep else spent * spent // last if last else 0
            if self._cap and self.nodes + guess > self._cap:
                break
            last = spent
        return best

    def _root(self, board, depth):
        after = self._boards[depth]
        best = -1
        best_value = -1
        pending = self._pending
        for d in range(4):
            pending[d] = -1
            if self.slide(board, after, d):
                v = self._chance(after, depth, _ONE)
                pending[d] = v
                if v > best_value:
                    best_value = v
                    best = d
        # this depth finished: its values are the ones to show
        values = self.values
        for d in range(4):
            values[d] = pending[d]
        return best

    def _chance(self, b, depth, prob):
        """Expected value of b (just slid) over the new tile."""
        if depth <= 1:
            return self.evaluate(b)
        empties = self._empties[depth]
        n = 0
        for i in range(16):
            if not b[i]:
                empties[n] = i
                n += 1
        # With many empty cells the position is safe and the spawn matters
        # little: search an evenly spread few of them.
        step = 1
        count = n
        if n > _SAMPLE:
            step = n // _SAMPLE + (1 if n % _SAMPLE else 0)
            count = (n + step - 1) // step
        p2 = prob * 9 // (10 * count)
        p4 = prob // (10 * count)
        total = 0
        k = 0
        while k < n:
            cell = empties[k]
            b[cell] = 1
            v = self._max(b, depth - 1, p2)
            if p4 >= _CUTOFF:
                b[cell] = 2
                v = (9 * v + self._max(b, depth - 1, p4)) // 10
            b[cell] = 0
            total += v
            k += step
        return total // count

    def _max(self, b, depth, prob):
        """Value of b (tile just spawned) with the best slide; 0 if none."""
        after = self._boards[depth]
        best = 0
        for d in range(4):
            if self.slide(b, after, d):
                v = self._chance(after, depth, prob)
                if v > best:
                    best = v
        return best

