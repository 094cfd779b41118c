# Why this module is long (~340 lines), in one file: the rules of 2048 and the
# report of each move the screen animates (where every tile went) come from the
# same slide; apart they would have to agree on every case.
# The rules of 2048 (Gabriele Cirulli's original game), as a plain object.
#
# The board is a bytearray of 16 exponents, row by row from the top left:
# 0 is an empty cell, 1 a 2, 2 a 4 ... 11 is 2048 ... 17 is 131072 (the
# largest tile a 4x4 board can hold). No drawing, no clock: randomness comes
# in as `rng` (anything with randrange, e.g. the random module).
#
# The curses 2048 this started from got three rules wrong; this file follows
# the original game: a tile merges at most once per move ([2,2,0,4] right is
# [0,0,4,4]), the score grows by the value of each merged tile, and the game
# is over when no move changes the board, not merely when it is full.

from micropython import const  # on the PC: tools/emu/mp/micropython.py

from firmware.games import IllegalMove

LEFT = const(0)
RIGHT = const(1)
UP = const(2)
DOWN = const(3)
DIRECTION_NAMES = ("left", "right", "up", "down")

_SIZE = const(4)
_CELLS = const(16)
_WIN_EXPONENT = const(11)      # 2048
_MAX_EXPONENT = const(17)      # 131072; exponents are stored in 5 bits below
NO_CELL = const(255)          # "no destination" in the move report

# For each direction, the four lines of cell indices, each listed from the
# wall the tiles move toward: sliding a line always means "toward its index 0".
# That one ordering is what makes "the pair nearest the wall merges first" true
# in all four directions with one line rule.
LINES = (
    ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)),      # left
    ((3, 2, 1, 0), (7, 6, 5, 4), (11, 10, 9, 8), (15, 14, 13, 12)),      # right
    ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15)),      # up
    ((12, 8, 4, 0), (13, 9, 5, 1), (14, 10, 6, 2), (15, 11, 7, 3)),      # down
)


def slide_line_code(code):
    """The line `code` after sliding toward its first cell, as a code.

    The same rule as Game2048.slide, without the bookkeeping, for the AI (which
    caches it). Each tile merges at most once: after a merge the new tile is
    not offered to the next one.
    """
    out = 0
    shift = 0
    last = 0          # exponent of the tile just placed, 0 when it may not merge
    while code:
        e = code & 31
        code >>= 5
        if not e:
            continue
        if e == last:
            out += 1 << (shift - 5)       # the placed tile doubles: exponent + 1
            last = 0
        else:
            out |= e << shift
            shift += 5
            last = e
    return out


class Game2048:
    def __init__(self, rng):
        self.rng = rng
        self.board = bytearray(_CELLS)
        self.score = 0
        self.moves = 0
        self.won = False           # a 2048 was made; stays True
        self.keep_going = False    # the player chose to play on after winning (to 131072)
        # One level of undo: the position before the last move.
        self._undo_board = bytearray(_CELLS)
        self._undo_score = 0
        self._undo_moves = 0
        self._undo_won = False
        self.can_undo = False
        # Report of the last move, for the screen's animation and sounds
        # (preallocated, overwritten by each move):
        # moved_to[i]: where the tile that was in cell i went (NO_CELL if
        #   the cell was empty); a tile that merged goes to the merged cell.
        # merged[i]: 1 if cell i holds a tile made by a merge in this move.
        self.moved_to = bytearray(_CELLS)
        self.merged = bytearray(_CELLS)
        self.last_merge_max = 0     # largest exponent made by a merge (0: none)
        self.spawn_at = -1          # cell of the tile added after the move (-1: none)
        self._scratch = bytearray(_CELLS)

    # --- starting ----------------------------------------------------------

    def new_game(self):
        b = self.board
        for i in range(_CELLS):
            b[i] = 0
        self.score = 0
        self.moves = 0
        self.won = False
        self.keep_going = False
        self.can_undo = False
        self._clear_report()
        self.spawn_tile()
        self.spawn_tile()

    def spawn_tile(self):
        """Put a 2 (p=0.9) or a 4 (p=0.1) in a uniformly chosen empty cell.

        Returns the cell, or -1 if the board is full.
        """
        b = self.board
        empty = 0
        for i in range(_CELLS):
            if not b[i]:
                empty += 1
        if not empty:
            return -1
        k = self.rng.randrange(empty)
        for i in range(_CELLS):
            if not b[i]:
                if not k:
                    break
                k -= 1
        e = 2 if self.rng.randrange(10) == 0 else 1
        b[i] = e
        self.spawn_at = i
        return i

    # --- the move ----------------------------------------------------------

    def slide(self, direction):
        """Slide every tile toward `direction`; True if the board changed.

        Only a move that changes the board counts: it is recorded for undo,
        counted in `moves`, scored, and followed by one new tile. While a won
        game waits for the player to choose to keep going, nothing moves.
        IllegalMove for a direction that is none of the four.
        """
        if direction not in (LEFT, RIGHT, UP, DOWN):
            raise IllegalMove("no such direction")
        if self.won and not self.keep_going:
            return False
        b = self.board
        new = self._scratch
        moved_to = self.moved_to
        merged = self.merged
        gain = 0
        merge_max = 0
        for i in range(_CELLS):
            new[i] = 0
            merged[i] = 0
            moved_to[i] = NO_CELL
        for line in LINES[direction]:
            place = 0        # next free position along the line
            last = 0         # exponent at place - 1 while it may still merge
            for cell in line:
                e = b[cell]
                if not e:
                    continue
                if e == last:
                    dest = line[place - 1]
                    e += 1
                    new[dest] = e
                    merged[dest] = 1
                    gain += 1 << e
                    if e > merge_max:
                        merge_max = e
                    last = 0
                else:
                    dest = line[place]
                    new[dest] = e
                    place += 1
                    last = e
                moved_to[cell] = dest
        if new == b:
            return False
        self._undo_board[:] = b
        self._undo_score = self.score
        self._undo_moves = self.moves
        self._undo_won = self.won
        self.can_undo = True
        b[:] = new
        self.score += gain
        self.moves += 1
        if merge_max >= _WIN_EXPONENT:
            self.won = True
        self.last_merge_max = merge_max
        self.spawn_tile()
        return True

    def undo(self):
        """Take back the last move (its spawn too); False if there is none."""
        if not self.can_undo:
            return False
        self.board[:] = self._undo_board
        self.score = self._undo_score
        self.moves = self._undo_moves
        self.won = self._undo_won
        if not self.won:
            self.keep_going = False
        self.can_undo = False
        self._clear_report()
        return True

    def _clear_report(self):
        for i in range(_CELLS):
            self.moved_to[i] = NO_CELL
            self.merged[i] = 0
        self.last_merge_max = 0
        self.spawn_at = -1

    # --- questions ---------------------------------------------------------

    def can_slide(self, direction):
        """Would sliding toward `direction` change the board?"""
        b = self.board
        for line in LINES[direction]:
            gap = False
            prev = 0
            for cell in line:
                e = b[cell]
                if not e:
                    gap = True
                elif gap or e == prev:
                    return True
                else:
                    prev = e
        return False

    def is_over(self):
        """Game over: no move changes the board (a full board may still move:
        an empty cell, or two equal tiles side by side)."""
        b = self.board
        for i in range(_CELLS):
            e = b[i]
            if not e:
                return False
            if i % _SIZE != _SIZE - 1 and b[i + 1] == e:
                return False
            if i < _CELLS - _SIZE and b[i + _SIZE] == e:
                return False
        return True

    def max_tile(self):
        """The largest tile's value (0 on an empty board)."""
        e = max(self.board)
        return (1 << e) if e else 0

    # --- saving --------------------------------------------------------------

    def to_dict(self):
        return {
            "board": list(self.board),
            "score": self.score,
            "moves": self.moves,
            "won": self.won,
            "keep_going": self.keep_going,
            "undo": ({"board": list(self._undo_board), "score": self._undo_score,
                      "moves": self._undo_moves, "won": self._undo_won}
                     if self.can_undo else None),
        }

    def from_dict(self, data):
        """Restore a saved game; ValueError (firmware.check.Invalid, with the
        reason; state unchanged) if it is not one: wrong types (a bool is not
        a number), exponents out of range, two 131072 tiles that could merge
        (their sum is past the largest tile), counts out of range."""
        from firmware import check
        check.table(data, "game")
        board = _checked_board(data.get("board"), "board")
        score = check.integer(data.get("score"), 0, MOST_POINTS, "score")
        moves = check.integer(data.get("moves"), 0, MOST_POINTS, "moves")
        won = check.flag(data.get("won", False), "won")
        keep_going = check.flag(data.get("keep_going", False), "keep going")
        undo = check.optional(data.get("undo"), check.table, "undo")
        if undo is not None:
            undo_board = _checked_board(undo.get("board"), "undo board")
            undo_score = check.integer(undo.get("score"), 0, MOST_POINTS, "undo score")
            undo_moves = check.integer(undo.get("moves"), 0, MOST_POINTS, "undo moves")
            undo_won = check.flag(undo.get("won", False), "undo won")
        self.board[:] = board
        self.score = score
        self.moves = moves
        self.won = won or max(self.board) >= _WIN_EXPONENT
        self.keep_going = keep_going
        self.can_undo = undo is not None
        if undo is not None:
            self._undo_board[:] = undo_board
            self._undo_score = undo_score
            self._undo_moves = undo_moves
            self._undo_won = undo_won
        self._clear_report()


# A score or move count past this is a damaged save (a real game ends below
# 4 million points and a few hundred thousand moves).
MOST_POINTS = const(99_999_999)


def _checked_board(cells, what):
    from firmware import check
    check.integers(cells, _CELLS, 0, _MAX_EXPONENT, what)
    # Two largest tiles with nothing between them along a row or column
    # would merge into a tile the board cannot hold.
    for line in LINES[LEFT] + LINES[UP]:
        last = 0
        for cell in line:
            e = cells[cell]
            if e:
                if e == last == _MAX_EXPONENT:
                    raise check.Invalid(what + ": two top tiles meet")
                last = e
    return bytearray(cells)
