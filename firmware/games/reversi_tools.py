# Reversi helpers for tests, benchmarks and analysis, kept out of the rules
# module so the firmware does not hold their code while a game is played:
# set-up positions, board strings, copies, the move list, perft, a printable
# board, the result's notation, a square's piece, a move's legality, both
# sides' move counts. `Reversi` here is the rules' class with these as methods; the
# functions also work on a plain firmware.games.reversi.Reversi.
# This module needs the rules; the rules never need it.

from firmware.games import reversi as _rules
from firmware.games.reversi import (  # noqa: F401  (re-exported for tests and tools)
    EMPTY, BLACK, WHITE, BORDER, PASS, DRAW, MOVE_STRIDE, DIRECTIONS, SQUARES, ORDER,
    WEIGHTS, square, to_alg, from_alg,
)


def piece_at(g, col, row):
    """EMPTY, BLACK or WHITE at 0-based (col, row)."""
    return g.board[square(col, row)]


def is_legal(g, move):
    """True when the side to move may play move (PASS: when it must pass)."""
    if move == PASS:
        return g.must_pass()
    return g.flips_for(move) > 0


def result(g):
    """'1-0' Black won, '0-1' White won, '1/2-1/2' draw, '*' not over."""
    w = g.winner()
    if w is None:
        return "*"
    if w == BLACK:
        return "1-0"
    if w == WHITE:
        return "0-1"
    return "1/2-1/2"


def mobility(g):
    """Legal move counts of both sides in one pass, packed in a small int:
    black * 64 + white. A run of one colour ending on the other colour is a
    move for that other colour, so each direction is walked once for both
    sides (the CPU's evaluation walks the board this way too)."""
    b = g.board
    nb = 0
    nw = 0
    for sq in ORDER:
        if b[sq] == 0:
            f = 0
            for d in DIRECTIONS:
                s = sq + d
                p = b[s]
                if 0 < p < 3:
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
    return nb * 64 + nw


def col_row(sq):
    """(col, row), 0-based, of a square number."""
    return sq % 10 - 1, sq // 10 - 1


def opponent(color):
    return 3 - color


def set_position(g, text, turn=BLACK):
    """Set up a position from 64 characters a1..h8 row by row:
    'X' or '*' black, 'O' white, '-' or '.' empty (spaces/newlines ignored).
    Clears the move record."""
    cells = []
    for ch in text:
        if ch in "XxBb*":
            cells.append(BLACK)
        elif ch in "OoWw":
            cells.append(WHITE)
        elif ch in "-._":
            cells.append(EMPTY)
        elif ch in " \n\r\t":
            continue
        else:
            raise ValueError("bad board character")
    if len(cells) != 64:
        raise ValueError("need 64 squares")
    g.reset()
    b = g.board
    for i in range(64):
        b[SQUARES[i]] = cells[i]
    g.turn = turn
    g._recount()
    g._start = (board_string(g), turn)


def load(g, data):
    """Restore g from to_dict() output (or a list of move names), a set-up
    position included; ValueError if the record is not a legal game."""
    if isinstance(data, dict) and data.get("start"):
        set_position(g, data["start"], data.get("turn", BLACK))
        g.replay(data.get("moves", []))
    else:
        _rules.Reversi.load(g, data)


def board_string(g):
    """64 characters a1..h8: 'X' black, 'O' white, '-' empty."""
    b = g.board
    return "".join("-XO"[b[sq]] for sq in SQUARES)


def copy(g):
    """A new game (of g's class) with g's position and move record."""
    h = type(g)()
    h.board[:] = g.board
    h._hist[:] = g._hist
    h._lines[:] = g._lines
    h._counts[:] = g._counts
    h.turn = g.turn
    h.ply = g.ply
    h._start = g._start
    return h


def move_stack(g):
    """The moves played so far (square numbers, PASS = 0), a new list."""
    h = g._hist
    return [h[i] for i in range(g.ply)]


def perft(g, depth):
    """Leaf count of the move tree `depth` plies deep. A forced pass is a
    move; a finished game is a leaf."""
    if depth <= 0:
        return 1
    buf = bytearray(MOVE_STRIDE * (min(depth, 64) + 1))
    return _perft(g, depth, buf, 0)


def _perft(g, depth, buf, off):
    n = g.gen_moves(buf, off)
    if n == 0:
        if not g.has_moves(3 - g.turn):
            return 1
        if depth == 1:
            return 1
        g._pass()
        total = _perft(g, depth - 1, buf, off)
        g.pop()
        return total
    if depth == 1:
        return n
    total = 0
    nxt = off + n
    for i in range(off, nxt):
        g._place(buf[i])
        total += _perft(g, depth - 1, buf, nxt)
        g.pop()
    return total


def board_text(g):
    """The board as text, a header of columns, rows numbered, whose move."""
    lines = ["  a b c d e f g h"]
    b = g.board
    for r in range(8):
        row = [str(r + 1)]
        for c in range(8):
            row.append(".XO"[b[square(c, r)]])
        lines.append(" ".join(row))
    lines.append(("Black" if g.turn == BLACK else "White") + " to move")
    return "\n".join(lines)


class Reversi(_rules.Reversi):
    """The rules' game with the analysis helpers as methods."""

    def piece_at(self, col, row):
        return piece_at(self, col, row)

    def is_legal(self, move):
        return is_legal(self, move)

    def result(self):
        return result(self)

    def mobility(self):
        return mobility(self)

    def set_position(self, text, turn=BLACK):
        set_position(self, text, turn)

    def board_string(self):
        return board_string(self)

    def copy(self):
        return copy(self)

    def move_stack(self):
        return move_stack(self)

    def perft(self, depth):
        return perft(self, depth)

    def load(self, data):
        load(self, data)

    @classmethod
    def from_dict(cls, data):
        g = cls()
        load(g, data)
        return g

    def __str__(self):
        return board_text(self)
