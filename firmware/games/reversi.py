# Why this module is long (~470 lines), in one file: the rules of Reversi read
# as rules in one place, as python-chess keeps its board: legal moves,
# push/pop, counts and the fast move generator all work on the same bordered
# board and undo record.
# Reversi (Othello) by the World Othello Federation rules, as a plain object
# in the style of python-chess: legal_moves(), push(), pop(), is_game_over(),
# winner() (reversi_tools adds what only tests and tools use: result(), ...).
#
# The board is a 10x10 bytearray with a border ring, so a walk in any of the
# eight directions stops on the border without bounds checks. A square is
# (row + 1) * 10 + (col + 1): a1 = 11 (top-left), h8 = 88. Moves are square
# numbers (small ints); PASS = 0. Move generation writes into a caller's
# buffer and each move's flips go into a preallocated undo record, so playing
# and searching allocate nothing (README, "Why the code looks like this"); a
# 64-bit bitboard would be a heap-allocated long on the ESP32.

from array import array

from micropython import const  # on the PC: tools/emu/mp/micropython.py

from firmware.games import IllegalMove

EMPTY = const(0)
BLACK = const(1)
WHITE = const(2)
BORDER = const(3)
PASS = const(0)

# winner() when the game is over and the counts are equal: not a colour, and
# not 0, so that a draw is never mistaken for the None of a game going on.
DRAW = const(3)

# Longest line of play: 60 discs placed plus at most one pass between two
# placements (two passes in a row end the game).
_MAXPLY = const(128)
MOST_PLIES = _MAXPLY     # the longest move record a save may hold
# A move's undo record: how many discs it flipped in each of the 8
# directions (0..6, 3 bits each), 3 bytes a ply.
_LINE_BYTES = const(3)
# Most legal moves in any reachable position is 33; keep slack.
MOVE_STRIDE = const(36)

DIRECTIONS = (-11, -10, -9, -1, 1, 9, 10, 11)


def square(col, row):
    """Square number of 0-based (col, row); a1 is (0, 0), h8 is (7, 7)."""
    return (row + 1) * 10 + col + 1


def _build_tables():
    # Classic disc-square weights (row-major 8x8); used to order move
    # generation (good squares first) and by the CPU's evaluation.
    weights8 = (
        120, -20, 20, 5, 5, 20, -20, 120,
        -20, -40, -5, -5, -5, -5, -40, -20,
        20, -5, 15, 3, 3, 15, -5, 20,
        5, -5, 3, 3, 3, 3, -5, 5,
        5, -5, 3, 3, 3, 3, -5, 5,
        20, -5, 15, 3, 3, 15, -5, 20,
        -20, -40, -5, -5, -5, -5, -40, -20,
        120, -20, 20, 5, 5, 20, -20, 120,
    )
    squares = bytearray(64)
    # signed bytes (README, "Why the code looks like this": packed tables)
    w100 = array("b", bytes(100))
    i = 0
    for r in range(8):
        for c in range(8):
            sq = square(c, r)
            squares[i] = sq
            w100[sq] = weights8[i]
            i += 1
    # Stable sort by weight, best first (insertion sort: tiny, no key= needed).
    order = []
    for sq in squares:
        i = len(order)
        while i > 0 and w100[order[i - 1]] < w100[sq]:
            i -= 1
        order.insert(i, sq)
    return bytes(squares), bytes(order), w100


# SQUARES: the 64 playable squares a1..h8 row by row; ORDER: the same squares,
# best first, so generated moves come out in a useful search order for free;
# WEIGHTS: the weight of each square number (an array of signed bytes).
SQUARES, ORDER, WEIGHTS = _build_tables()
del _build_tables   # run once: its code and the 8x8 table are not kept


def to_alg(move):
    """'d3' style name of a move; 'pass' for PASS."""
    if move == PASS:
        return "pass"
    return "abcdefgh"[move % 10 - 1] + str(move // 10)


def from_alg(text):
    """Move for a name such as 'd3' (or 'D3'); 'pass' (or '--', 'ps') for PASS."""
    t = text.strip().lower()
    if t in ("pass", "--", "ps", "pa"):
        return PASS
    if len(t) != 2 or t[0] not in "abcdefgh" or t[1] not in "12345678":
        raise ValueError("bad move name")
    return square("abcdefgh".index(t[0]), int(t[1]) - 1)


class Reversi:
    """A game of Reversi: the position, the side to move and the move record."""

    def __init__(self):
        self.board = bytearray(100)
        self._hist = bytearray(_MAXPLY)    # moves played (PASS = 0)
        self._lines = bytearray(_LINE_BYTES * _MAXPLY)  # their undo records
        self._counts = bytearray(3)        # discs of BLACK (1) and WHITE (2)
        self._start = None                 # None, or (board string, turn) of a set-up
        self.reset()

    # ----- setting up -------------------------------------------------
    def reset(self):
        """The standard start: d4, e5 white; d5, e4 black; Black to move."""
        b = self.board
        for i in range(100):
            b[i] = BORDER
        for sq in SQUARES:
            b[sq] = EMPTY
        b[square(3, 3)] = WHITE
        b[square(4, 4)] = WHITE
        b[square(4, 3)] = BLACK
        b[square(3, 4)] = BLACK
        self.turn = BLACK
        self.ply = 0
        self._start = None
        self._recount()

    def _recount(self):
        c = self._counts
        c[0] = c[1] = c[2] = 0
        b = self.board
        for sq in SQUARES:
            c[b[sq]] += 1

    # ----- reading the position ----------------------------------------
    def count(self, colour):
        return self._counts[colour]

    def empties(self):
        return self._counts[0]

    def score(self):
        """Black discs minus white discs."""
        return self._counts[1] - self._counts[2]

    def gen_moves(self, buf, off=0, colour=0):
        """Write the legal moves of `colour` (default: side to move) into
        buf[off:], best squares first; return how many. Allocates nothing."""
        b = self.board
        me = colour or self.turn
        opp = 3 - me
        n = off
        for sq in ORDER:
            if b[sq] == 0:
                for d in DIRECTIONS:
                    s = sq + d
                    if b[s] == opp:
                        s += d
                        while b[s] == opp:
                            s += d
                        if b[s] == me:
                            buf[n] = sq
                            n += 1
                            break
        return n - off

    def has_moves(self, colour=0):
        b = self.board
        me = colour or self.turn
        opp = 3 - me
        for sq in ORDER:
            if b[sq] == 0:
                for d in DIRECTIONS:
                    s = sq + d
                    if b[s] == opp:
                        s += d
                        while b[s] == opp:
                            s += d
                        if b[s] == me:
                            return True
        return False

    def flips_for(self, move, colour=0):
        """How many discs `move` would flip (0: not a legal placement)."""
        if move < 11 or move > 88 or self.board[move] != 0:
            return 0
        b = self.board
        me = colour or self.turn
        opp = 3 - me
        n = 0
        for d in DIRECTIONS:
            s = move + d
            k = 0
            while b[s] == opp:
                s += d
                k += 1
            if k and b[s] == me:
                n += k
        return n

    def legal_moves(self):
        """The legal moves of the side to move, a1..h8 order (a new list;
        [PASS] when it must pass; [] when the game is over)."""
        out = [sq for sq in SQUARES if self.flips_for(sq) > 0]
        if not out and self.has_moves(3 - self.turn):
            out.append(PASS)
        return out

    def must_pass(self):
        """True when the side to move has no move but the opponent has."""
        return not self.has_moves() and self.has_moves(3 - self.turn)

    def is_game_over(self):
        """Neither side can move (full board or not)."""
        return not self.has_moves(BLACK) and not self.has_moves(WHITE)

    def winner(self):
        """None while the game goes on; else BLACK, WHITE or DRAW."""
        if not self.is_game_over():
            return None
        s = self.score()
        if s > 0:
            return BLACK
        if s < 0:
            return WHITE
        return DRAW

    def final_score(self):
        """(black, white) by the WOF rule: empty squares go to the winner."""
        b, w = self._counts[1], self._counts[2]
        e = self._counts[0]
        if b > w:
            b += e
        elif w > b:
            w += e
        else:
            b += e // 2
            w += e // 2
        return b, w

    # ----- playing and undoing ----------------------------------------
    def push(self, move):
        """Play `move` for the side to move (PASS only when it has no move).
        Returns the number of discs flipped. IllegalMove if illegal."""
        if move == PASS:
            self.pass_turn()
            return 0
        b = self.board
        if move < 11 or move > 88 or b[move] != 0:
            raise IllegalMove("square taken or off the board")
        n = self._place(move)
        if n == 0:
            raise IllegalMove("flips nothing")
        return n

    def _place(self, move):
        # The search's hot path: flip every bracketed line, record how many
        # discs flipped in each direction (3 bits each, the first direction
        # highest). Returns 0 (and changes nothing) when the move flips nothing.
        b = self.board
        me = self.turn
        opp = 3 - me
        line = 0
        n = 0
        for d in DIRECTIONS:
            line <<= 3
            s = move + d
            if b[s] == opp:
                s += d
                while b[s] == opp:
                    s += d
                if b[s] == me:
                    k = (s - move) // d - 1
                    line |= k
                    n += k
                    s -= d
                    while s != move:
                        b[s] = me
                        s -= d
        if n:
            b[move] = me
            p = self.ply
            self._hist[p] = move
            r = self._lines
            i = p * _LINE_BYTES
            r[i] = line >> 16
            r[i + 1] = (line >> 8) & 255
            r[i + 2] = line & 255
            self.ply = p + 1
            c = self._counts
            c[me] += n + 1
            c[opp] -= n
            c[0] -= 1
            self.turn = opp
        return n

    def pass_turn(self):
        """Pass: allowed only when the side to move has no legal move and the
        game is not over; IllegalMove otherwise."""
        if self.has_moves():
            raise IllegalMove("a player with a legal move may not pass")
        if not self.has_moves(3 - self.turn):
            raise IllegalMove("the game is over: neither side can move")
        self._pass()

    def _pass(self):
        p = self.ply
        self._hist[p] = PASS
        self.ply = p + 1
        self.turn = 3 - self.turn

    def pop(self):
        """Undo the last move (or pass); returns it."""
        p = self.ply - 1
        if p < 0:
            raise IndexError("no move to undo")
        self.ply = p
        move = self._hist[p]
        mover = 3 - self.turn
        self.turn = mover
        if move:
            b = self.board
            opp = 3 - mover
            r = self._lines
            i = p * _LINE_BYTES
            line = (r[i] << 16) | (r[i + 1] << 8) | r[i + 2]
            b[move] = 0
            n = 0
            # DIRECTIONS reversed: the last direction is in the lowest bits
            for d in (11, 10, 9, 1, -1, -9, -10, -11):
                k = line & 7
                if k:
                    n += k
                    s = move + d
                    while k:
                        b[s] = opp
                        s += d
                        k -= 1
                line >>= 3
                if not line:
                    break
            c = self._counts
            c[mover] -= n + 1
            c[opp] += n
            c[0] += 1
        return move

    # ----- the move record ----------------------------------------------
    def record(self):
        """The moves as names: ['f5', 'd6', ..., 'pass', ...]."""
        h = self._hist
        return [to_alg(h[i]) for i in range(self.ply)]

    def last_move(self):
        """The last move (PASS = 0) or None at the start."""
        return self._hist[self.ply - 1] if self.ply else None

    def last_flips(self):
        """Squares flipped by the last move (a new list; [] after a pass)."""
        p = self.ply - 1
        if p < 0 or not self._hist[p]:
            return []
        move = self._hist[p]
        r = self._lines
        i = p * _LINE_BYTES
        line = (r[i] << 16) | (r[i + 1] << 8) | r[i + 2]
        out = []
        shift = 21                     # the first direction is in the highest bits
        for d in DIRECTIONS:
            for j in range(1, ((line >> shift) & 7) + 1):
                out.append(move + d * j)
            shift -= 3
        return out

    def to_dict(self):
        """A plain dict for saving (JSON-safe): the start (if set up) and the
        moves; load() replays them (reversi_tools.load when set up)."""
        d = {"v": 1, "moves": self.record()}
        if self._start:
            d["start"] = self._start[0]
            d["turn"] = self._start[1]
        return d

    def load(self, data):
        """Restore a game from the standard start: to_dict() output (or a
        plain list of move names). IllegalMove if the record is not a legal
        game. A set-up position (only tests and tools make them) is a
        ValueError here: reversi_tools.load reads it."""
        if isinstance(data, (list, tuple)):
            moves = data
        else:
            if data.get("start"):
                raise ValueError("a set-up position: reversi_tools.load reads it")
            moves = data.get("moves", [])
        self.reset()
        self.replay(moves)

    def replay(self, moves):
        """Play move names (or square numbers) from the position now."""
        for name in moves:
            self.push(from_alg(name) if isinstance(name, str) else name)
