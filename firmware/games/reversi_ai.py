# Why this module is long (~390 lines), in one file: one search. Iterative
# deepening, alpha-beta, the exact endgame and the evaluation share the move
# buffer and the time budget.
# The CPU player for Reversi: negamax alpha-beta with iterative deepening
# under a time (or node) budget, so the board never freezes, and an exact
# endgame solver when few squares are left.
#
# What makes it strong for its few nodes (about 1,400 for hard): the best move
# of each depth is searched first at the next; inside the tree, moves leaving
# the opponent fewest replies first (3 plies or more from the leaves), else
# the move that cut off last time at that ply (a killer move); every move
# after the first is only shown worse with a null window (principal variation
# search) and searched in full only when it is not; and the evaluation counts
# moves and potential moves (empty squares next to the opponent's discs) for
# both sides in one walk over the empty squares, besides the square weights.
#
# The search plays on the game object itself (push/pop through its
# allocation-free _place/_pass/pop) and restores it before returning. Moves
# of every ply go into one preallocated bytearray; the evaluation works in
# small ints (README, "Why the code looks like this": buffers made once).

import time

from firmware.games.reversi import (
    BLACK, WHITE, PASS, MOVE_STRIDE, ORDER, DIRECTIONS, SQUARES, WEIGHTS, square,
)

from micropython import const  # on the PC: tools/emu/mp/micropython.py

EASY = const(0)
MEDIUM = const(1)
HARD = const(2)
# (their names: firmware/screens/reversi_shared.py, LEVEL_NAMES)

# Per level: (board time budget in ms, deepest search, exact-solve at or below
# this many empties, random noise added to root scores, node budget).
# The node budget is what the time budget buys on the ESP32 (about 1/2.5 of
# the rate measured under MicroPython/Node by tools/bench/mp_reversi.py);
# benchmarks on CPython use it instead of the clock so games are repeatable.
# (The potential-mobility term made a node ~7% dearer: 1500 -> 1400 nodes.)
# Against the textbook alpha-beta of tools/bench/reversi_baseline.py (depth 4,
# the classic square table), make bench: see the README's Reversi levels.
LEVELS = (
    (250, 1, 6, 40, 190),
    (800, 3, 8, 8, 610),
    (1850, 60, 11, 0, 1400),
)

_INF = const(1 << 28)
_FINAL = const(4096)      # exact result: disc difference * _FINAL
_MOBILITY = const(9)      # score per move of mobility difference
_POTENTIAL = const(4)     # score per empty square next to a disc of the other side
_CHECK_MASK = const(31)   # look at the clock (and call progress) every 32 nodes
# Deepest search, in plies: it sizes the move buffers (a ply's moves take at
# most MOVE_STRIDE bytes, so 25 plies are 0.9 KB). The search never gets near it:
# exact solving starts at 11 empties at most, and the midgame reaches about
# depth 6 on the board's budgets; iterative deepening stops here anyway.
_MAXDEPTH = const(24)
_MAX_PLY = const(130)     # a game's plies (reversi.MOST_PLIES) and a search's pass

# Corners with their X-square and two C-squares: once a corner is taken the
# squares next to it are no longer a liability.
_CORNERS = (
    (square(0, 0), square(1, 1), square(1, 0), square(0, 1)),
    (square(7, 0), square(6, 1), square(6, 0), square(7, 1)),
    (square(0, 7), square(1, 6), square(1, 7), square(0, 6)),
    (square(7, 7), square(6, 6), square(6, 7), square(7, 6)),
)



def _scan(b):
    # One walk over the empty squares for both colours, packed in a small
    # int: black's moves << 21 | white's << 14 | black's potential moves << 7
    # | white's. A run of one colour ending on the other is a move for that
    # other colour (as reversi_tools.mobility); an empty square next to a disc is
    # a potential move for the other colour (a move it may have later).
    nb = 0
    nw = 0
    pb = 0
    pw = 0
    for sq in ORDER:
        if b[sq] == 0:
            f = 0
            near = 0
            for d in DIRECTIONS:
                s = sq + d
                p = b[s]
                if 0 < p < 3:
                    near |= p
                    s += d
                    while b[s] == p:
                        s += d
                    q = b[s]
                    if p + q == 3:
                        f |= q
                        if f == 3:
                            break
            if f & 1:
                nb += 1
            if f & 2:
                nw += 1
            if near & 2:
                pb += 1
            if near & 1:
                pw += 1
    return (nb << 21) | (nw << 14) | (pb << 7) | pw


class Ai:
    """A CPU player. `choose(game)` returns a move for the side to move.

    level: EASY, MEDIUM or HARD (sets the defaults below).
    budget_ms: time budget per move (default: the level's ESP32 budget;
        0 = no clock limit). node_budget: stop after this many nodes
        (default: twice the level's node budget, a backstop for clocks
        that stand still, like the emulator's; pass LEVELS[level][4] for the
        deterministic equivalent of the board's time budget, 0 for none).
    clock: a function returning ms ticks (default time.ticks_ms).
    progress: called as progress(ai) every 32 nodes while thinking (draw a
        "thinking" mark, poll buttons); return True to stop early.
    rng: an object with randrange() for the easier levels' variety; None
        keeps every level deterministic.
    """

    def __init__(self, level=HARD, budget_ms=None, node_budget=None,
                 clock=None, progress=None, rng=None):
        self.level = level
        budget, _, _, noise, _ = LEVELS[level]
        self.budget_ms = budget if budget_ms is None else budget_ms
        # A backstop: where the clock stands still while the CPU thinks (the
        # emulator's virtual clock), the search still ends.
        self.node_budget = LEVELS[level][4] * 2 if node_budget is None else node_budget
        self.noise = noise
        self.clock = clock or time.ticks_ms
        self.progress = progress
        self.rng = rng
        # A search `depth` plies deep writes below MOVE_STRIDE * depth (the
        # root's moves, then at most 33 a ply; a pass reuses its ply's room).
        self._buf = bytearray(MOVE_STRIDE * (_MAXDEPTH + 1))
        # one ply's sort keys at a time (_order fills and uses them at once)
        self._keys = bytearray(MOVE_STRIDE)
        # per game ply, the last move that cut the search off there (tried
        # first next time: it often cuts off again)
        self._killers = bytearray(_MAX_PLY)
        # Results of the last choose():
        self.nodes = 0
        self.depth = 0          # deepest fully searched depth
        self.exact = False      # the score is the exact game result
        self.score = 0          # from the mover's side; exact: discs * 4096
        self.elapsed_ms = 0
        self.stopped = False

    # ----- evaluation ------------------------------------------------
    def evaluate(self, game):
        """Heuristic score of `game` for the side to move (exact if over)."""
        b = game.board
        me = game.turn
        opp = 3 - me
        if game._counts[0] == 0:
            return self._final(game)
        scan = _scan(b)
        if scan < 16384:                 # no move for either side
            return self._final(game)
        if me == BLACK:
            mm = scan >> 21
            mo = (scan >> 14) & 127
            pm = (scan >> 7) & 127
            po = scan & 127
        else:
            mo = scan >> 21
            mm = (scan >> 14) & 127
            po = (scan >> 7) & 127
            pm = scan & 127
        w = WEIGHTS
        pos = 0
        for sq in SQUARES:
            p = b[sq]
            if p:
                if p == me:
                    pos += w[sq]
                else:
                    pos -= w[sq]
        for corner, x, c1, c2 in _CORNERS:
            if b[corner]:
                p = b[x]
                if p == me:
                    pos -= w[x]
                elif p:
                    pos += w[x]
                p = b[c1]
                if p == me:
                    pos -= w[c1]
                elif p:
                    pos += w[c1]
                p = b[c2]
                if p == me:
                    pos -= w[c2]
                elif p:
                    pos += w[c2]
        return pos + _MOBILITY * (mm - mo) + _POTENTIAL * (pm - po)

    def _final(self, game):
        # WOF scoring: the empty squares go to the winner.
        c = game._counts
        me = game.turn
        d = c[me] - c[3 - me]
        if d > 0:
            d += c[0]
        elif d < 0:
            d -= c[0]
        return d * _FINAL

    # ----- budget ----------------------------------------------------
    def _check(self):
        if self.node_budget and self.nodes >= self.node_budget:
            self.stopped = True
        elif self.budget_ms and time.ticks_diff(self.clock(), self._t0) >= self.budget_ms:
            self.stopped = True
        if self.progress is not None and self.progress(self):
            self.stopped = True

    # ----- search ----------------------------------------------------
    def _negamax(self, game, depth, alpha, beta, passed, off):
        self.nodes += 1
        if not self.nodes & _CHECK_MASK:
            self._check()
        if self.stopped:
            return 0
        if depth <= 0:
            return self.evaluate(game)
        buf = self._buf
        n = game.gen_moves(buf, off)
        if n == 0:
            if passed:
                return self._final(game)
            game._pass()
            v = -self._negamax(game, depth, -beta, -alpha, True, off)
            game.pop()
            return v
        nxt = off + n
        if n > 1:
            if depth >= 3:
                self._order(game, off, n)
            else:
                # the move that cut off last time at this ply, first
                killer = self._killers[game.ply]
                for i in range(off + 1, nxt):
                    if buf[i] == killer:
                        buf[i] = buf[off]
                        buf[off] = killer
                        break
        best = -_INF
        for i in range(off, nxt):
            game._place(buf[i])
            if i == off:
                v = -self._negamax(game, depth - 1, -beta, -alpha, False, nxt)
            else:
                # Principal variation search: the first move is taken as the
                # best; the others only have to be shown worse, with a null
                # window (cheap); one that is not is searched again in full.
                v = -self._negamax(game, depth - 1, -alpha - 1, -alpha, False, nxt)
                if alpha < v < beta:
                    v = -self._negamax(game, depth - 1, -beta, -v, False, nxt)
            game.pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        self._killers[game.ply] = buf[i]
                        break
        return best

    def _order(self, game, off, n):
        # Fewest replies first (good for cut-offs in both the midgame and the
        # endgame); ties keep the static square order. Insertion sort in place;
        # keys[k] is the key of buf[off + k]. The replies are counted by
        # writing them into the next ply's room of the buffer (free until the
        # moves here are searched): the rules need no counter of their own.
        buf = self._buf
        keys = self._keys
        replies = off + n
        for k in range(n):
            game._place(buf[off + k])
            keys[k] = game.gen_moves(buf, replies)
            game.pop()
        for i in range(1, n):
            m = buf[off + i]
            k = keys[i]
            j = i - 1
            while j >= 0 and keys[j] > k:
                buf[off + j + 1] = buf[off + j]
                keys[j + 1] = keys[j]
                j -= 1
            buf[off + j + 1] = m
            keys[j + 1] = k

    def choose(self, game):
        """The move to play in `game` (PASS when it must pass; None if the game
        is over). `game` is searched in place and left as it was."""
        self.nodes = 0
        self.depth = 0
        self.exact = False
        self.score = 0
        self.stopped = False
        self._t0 = self.clock()
        buf = self._buf
        n = game.gen_moves(buf, 0)
        if n == 0:
            self.elapsed_ms = 0
            return PASS if game.has_moves(3 - game.turn) else None
        moves = [buf[i] for i in range(n)]
        if n == 1:
            self.elapsed_ms = time.ticks_diff(self.clock(), self._t0)
            return moves[0]
        noise = [0] * n
        if self.noise and self.rng is not None:
            for i in range(n):
                noise[i] = self.rng.randrange(self.noise + 1) - self.noise // 2
        empties = game.empties()
        best = moves[0]
        best_score = -_INF
        # the deepest search: the level's, or to the end of the game when
        # few enough squares are left (every level, easy's too)
        _, max_depth, endgame, _, _ = LEVELS[self.level]
        max_depth = min(max_depth, _MAXDEPTH)     # (the move buffers' room)
        endgame = min(endgame, _MAXDEPTH)
        last = empties if empties <= endgame else max_depth
        depth = 1
        while True:
            if empties <= endgame and depth >= min(max_depth, 5):
                # Jump to the exact solve; if it cannot finish in time, the
                # last heuristic result (or a proven better move) is played.
                depth = empties
            d_best, d_score, d_done = self._root(game, moves, noise, depth)
            if d_done:
                best, best_score = d_best, d_score
                self.depth = depth
                # Search the best move first next time.
                i = moves.index(best)  # pyright: ignore[reportArgumentType]  (a finished pass has a best move)
                moves[0], moves[i] = moves[i], moves[0]
                noise[0], noise[i] = noise[i], noise[0]
                if depth >= empties:
                    self.exact = True
                    break
            else:
                # Stopped mid-iteration: a move that finished searching and
                # beat the previous best first move is still trustworthy.
                if d_best is not None and d_best != best and d_score > best_score:
                    best, best_score = d_best, d_score
                break
            if depth >= last or self.stopped:
                break
            # The next iteration takes several times longer: do not start
            # one that cannot finish (past half the budget, of time or nodes).
            used = 0
            if self.budget_ms:
                used = time.ticks_diff(self.clock(), self._t0) * 1000 // self.budget_ms
            if self.node_budget:
                used = max(used, self.nodes * 1000 // self.node_budget)
            if used > 500:
                break
            depth += 1
        self.score = best_score
        self.elapsed_ms = time.ticks_diff(self.clock(), self._t0)
        return best

    def _root(self, game, moves, noise, depth):
        # Returns (best move, its score, finished?) for one iteration.
        alpha = -_INF
        beta = _INF
        # With noise, a move may win by up to self.noise after noise is
        # added: keep its score exact down to that margin below alpha.
        margin = self.noise if self.rng is not None else 0
        best = None
        best_score = -_INF
        first = True
        for i in range(len(moves)):
            m = moves[i]
            game._place(m)
            v = -self._negamax(game, depth - 1, -beta, margin - alpha, False, MOVE_STRIDE)
            game.pop()
            if self.stopped:
                return best, best_score, False
            v += noise[i]
            if v > best_score or first:
                best, best_score = m, v
                first = False
                if v > alpha:
                    alpha = v
        return best, best_score, True
