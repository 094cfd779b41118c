"""The fixed opponent the Reversi CPU levels are measured against: the
textbook alpha-beta player. A plain negamax with alpha-beta pruning to a fixed
depth (4 plies), scoring a position by the classic weighted-square table
(corners 120, X-squares -40, ...: firmware.games.reversi.WEIGHTS) and a
finished game by its disc count. No mobility, no move ordering beyond the
move generator's (best squares first), no randomness: the same position
always gets the same move, so a benchmark built on it is repeatable.

It is kept apart from the firmware's CPU on purpose (tools/bench only): the
levels change, this yardstick does not. It uses the game's rules
(firmware.games.reversi, checked by perft) but none of the CPU's search.
"""
from firmware.games.reversi import MOVE_STRIDE, PASS, SQUARES, WEIGHTS

DEPTH = 4
_WIN = 1 << 20


class Baseline:
    """choose(game) -> the move (PASS when it must pass; None if over).
    nodes: positions visited by the last choose()."""

    def __init__(self, depth=DEPTH):
        self.depth = depth
        self.nodes = 0
        self._buf = bytearray(MOVE_STRIDE * (depth + 2) * 2)

    def choose(self, g):
        self.nodes = 0
        n = g.gen_moves(self._buf, 0)
        if n == 0:
            return PASS if g.has_moves(3 - g.turn) else None
        moves = [self._buf[i] for i in range(n)]
        best = moves[0]
        alpha = -_WIN * 100
        for m in moves:
            g._place(m)
            v = -self._search(g, self.depth - 1, -_WIN * 100, -alpha, False, MOVE_STRIDE)
            g.pop()
            if v > alpha:
                alpha = v
                best = m
        return best

    def _search(self, g, depth, alpha, beta, passed, off):
        self.nodes += 1
        if depth == 0:
            return self._weights(g)
        n = g.gen_moves(self._buf, off)
        if n == 0:
            if passed:
                return self._final(g)
            g._pass()
            v = -self._search(g, depth, -beta, -alpha, True, off)
            g.pop()
            return v
        nxt = off + n
        for i in range(off, nxt):
            g._place(self._buf[i])
            v = -self._search(g, depth - 1, -beta, -alpha, False, nxt)
            g.pop()
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        return alpha

    def _weights(self, g):
        b = g.board
        me = g.turn
        s = 0
        for sq in SQUARES:
            p = b[sq]
            if p == me:
                s += WEIGHTS[sq]
            elif p:
                s -= WEIGHTS[sq]
        return s

    def _final(self, g):
        d = g.count(g.turn) - g.count(3 - g.turn)
        return _WIN * ((d > 0) - (d < 0)) + d
