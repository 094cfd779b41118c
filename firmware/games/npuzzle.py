# The puzzle's rules, kept loaded for the whole game. What runs only now and
# then is in modules loaded only then (see README, "Why the code looks like
# this"): the shuffles and reading a save (npuzzle_setup.py, when a game
# starts), handing out hints (npuzzle_hints.py) and planning them
# (npuzzle_solver.py). The Hinter is here so a screen keeps a plan between frames.
# The N-puzzle family: 8-puzzle (3x3), 15-puzzle (4x4), 24-puzzle (5x5).
#
# The board is a bytearray in reading order (index = row * width + col).
# Tiles are 1..N (N = width*width - 1), 0 is the blank. Solved: 1..N, blank last.
#
# Moves are described the way the player makes them:
# - push(direction): the joystick pushes the neighbouring tile into the blank.
#   Pushing LEFT moves the tile to the RIGHT of the blank one cell left
#   (as on the ML4M 15-puzzle), so the blank itself travels right.
# - slide(index): pick any tile in the blank's row or column; the whole run of
#   tiles between it and the blank slides one cell towards the blank
#   (as in the Godot 15-puzzle). A run of k tiles counts k moves.
# Randomness is passed in: any object with randrange() (e.g. the random module).

from micropython import const

from firmware.games import IllegalMove

LEFT = const(0)
RIGHT = const(1)
UP = const(2)
DOWN = const(3)
DIRECTIONS = (LEFT, RIGHT, UP, DOWN)
DIRECTION_NAMES = ("left", "right", "up", "down")
# The push that undoes a push.
OPPOSITE = (RIGHT, LEFT, DOWN, UP)

MOST_MOVES = const(9_999_999)   # a move count past this is a damaged save
_HISTORY_KEEP = const(256)   # undo steps kept once the history gets long
HISTORY_MAX = const(512)     # undo steps kept at most (also in a save)


def solved_tiles(width):
    n = width * width
    tiles = bytearray(range(1, n + 1))
    tiles[n - 1] = 0
    return tiles


def find(tiles, value):
    """Index of `value` in a board, or -1 (MicroPython's bytearray.index
    takes only bytes, so this is spelled out)."""
    for i in range(len(tiles)):
        if tiles[i] == value:
            return i
    return -1


def inversions(tiles):
    """Pairs of tiles (blank ignored) that appear in the wrong order."""
    count = 0
    n = len(tiles)
    for i in range(n):
        a = tiles[i]
        if a:
            for j in range(i + 1, n):
                b = tiles[j]
                if b and b < a:
                    count += 1
    return count


def is_solvable(tiles, width):
    """True when the position can reach the solved state.

    Every move keeps (inversions + blank row counted from the bottom) fixed in
    parity for even widths; for odd widths a vertical move jumps over an even
    number of tiles, so the inversion count alone keeps its parity.
    The solved state has 0 inversions and the blank on row 1 from the bottom.
    """
    inv = inversions(tiles)
    if width & 1:
        return inv & 1 == 0
    blank_row_from_bottom = width - find(tiles, 0) // width   # 1 = bottom row
    return (inv + blank_row_from_bottom) & 1 == 1


# Where the blank goes when the player pushes each direction, as (dcol, drow):
# pushing LEFT pulls the tile on the blank's right, so the blank moves right.
BLANK_STEP = ((1, 0), (-1, 0), (0, 1), (0, -1))


class Puzzle:
    def __init__(self, width=4, tiles=None):
        if width < 2:
            raise ValueError("width")
        self.width = width
        self.size = width * width
        if tiles is None:
            self.tiles = solved_tiles(width)
        else:
            self.tiles = bytearray(tiles)
            _check_tiles(self.tiles, self.size)
        self.blank = find(self.tiles, 0)
        self.moves = 0
        # One entry per action (push or slide): where the blank was before it.
        self.history = bytearray()

    # ---- reading the board -------------------------------------------------
    def is_solved(self):
        tiles = self.tiles
        last = self.size - 1
        if tiles[last] != 0:
            return False
        for i in range(last):
            if tiles[i] != i + 1:
                return False
        return True

    def copy(self):
        other = Puzzle(self.width, self.tiles)
        other.moves = self.moves
        other.history = bytearray(self.history)
        return other

    # ---- joystick pushes ---------------------------------------------------
    def tile_for_push(self, direction):
        """Index of the tile that pushing `direction` would move, or -1.
        IllegalMove for a direction that is none of the four."""
        if direction not in DIRECTIONS:
            raise IllegalMove("no such direction")
        w = self.width
        col = self.blank % w
        row = self.blank // w
        dc, dr = BLANK_STEP[direction]
        col += dc
        row += dr
        if 0 <= col < w and 0 <= row < w:
            return row * w + col
        return -1

    def legal_pushes(self):
        return [d for d in DIRECTIONS if self.tile_for_push(d) >= 0]

    def push(self, direction):
        """Push the tile next to the blank; True if a tile moved."""
        index = self.tile_for_push(direction)
        if index < 0:
            return False
        self._record(self.blank)
        self._move_blank(index)
        self.moves += 1
        return True

    # ---- sliding a run (cursor) ---------------------------------------------
    def can_slide(self, index):
        """True if the tile at index shares a row or column with the blank."""
        if not 0 <= index < self.size or index == self.blank:
            return False
        w = self.width
        return index // w == self.blank // w or index % w == self.blank % w

    def slide(self, index):
        """Slide the run from the tile at `index` up to the blank.

        Returns the number of tiles moved (the moves it counts); 0 if the tile
        is not in the blank's row or column."""
        if not self.can_slide(index):
            return 0
        self._record(self.blank)
        k = self._slide_blank_to(index)
        self.moves += k
        return k

    def undo(self):
        """Take back the last push or slide; returns the moves taken back."""
        if not self.history:
            return 0
        before = self.history[-1]
        self.history = self.history[:-1]
        if not self.can_slide(before):
            # Only a damaged save can get here: forget the history.
            self.history = bytearray()
            return 0
        k = self._slide_blank_to(before)
        self.moves -= k
        if self.moves < 0:
            self.moves = 0
        return k

    # ---- saving ------------------------------------------------------------
    def to_dict(self, undo_steps=HISTORY_MAX):
        """A plain dict for saving, with the last undo_steps of the history
        (not the whole 512 steps: a save is made after every move)."""
        return {
            "width": self.width,
            "tiles": list(self.tiles),
            "moves": self.moves,
            "history": list(self.history[-undo_steps:]) if undo_steps else [],
        }

    # ---- internals -----------------------------------------------------------
    def _record(self, blank):
        if len(self.history) >= HISTORY_MAX:
            self.history = self.history[-_HISTORY_KEEP:]
        self.history.append(blank)

    def _move_blank(self, index):
        tiles = self.tiles
        tiles[self.blank] = tiles[index]
        tiles[index] = 0
        self.blank = index

    def _slide_blank_to(self, index):
        """Walk the blank to `index` along its row or column; returns steps."""
        w = self.width
        b = self.blank
        if index // w == b // w:
            step = 1 if index > b else -1
        else:
            step = w if index > b else -w
        k = 0
        while self.blank != index:
            self._move_blank(self.blank + step)
            k += 1
        return k


def _check_tiles(tiles, size):
    if len(tiles) != size:
        raise ValueError("size")
    seen = bytearray(size)
    for t in tiles:
        if t >= size or seen[t]:
            raise ValueError("tiles: not a permutation")
        seen[t] = 1


class Hinter:
    """A hint plan for one puzzle, kept by the screen between frames: the
    moves firmware.games.npuzzle_solver planned (an optimal 3x3 solution, or
    the next stage of a bigger board), how far the player followed them, and
    the board the next one starts from. firmware/games/npuzzle_hints.py hands
    the moves out (and plans afresh when the player strays); it and the solver
    are loaded only for a hint (README, "Why the code looks like this")."""

    def __init__(self):
        self.forget()
        self.width = 0

    def forget(self):
        self.plan = bytearray()
        self.step = 0
        self.expected = bytearray()
