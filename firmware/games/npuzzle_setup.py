"""A puzzle's start (firmware/games/npuzzle.py): the shuffles of a new game
and a saved game read back. Its own module because it runs only when a game
starts: firmware/screens/puzzle_start.py borrows it then, and the rules kept
for the whole game are ~1 KB smaller without it (see README, "Why the code
looks like this").

Randomness is passed in: any object with randrange() (e.g. the random module).
"""
from firmware.games.npuzzle import (Puzzle, DIRECTIONS, OPPOSITE, MOST_MOVES, HISTORY_MAX,
                                    find, is_solvable, solved_tiles)


def shuffle_uniform(puzzle, rng):
    """Every solvable position except the solved one is equally likely.

    A uniform random permutation is drawn (Fisher-Yates); if it cannot be
    solved, two fixed tiles are swapped. For a given blank cell that swap
    pairs each unsolvable position with exactly one solvable one, so the
    result stays uniform (the ML4M 15-puzzle skipped this: half its games
    were impossible)."""
    tiles = puzzle.tiles
    n = puzzle.size
    while True:
        for i in range(n):
            tiles[i] = i
        for i in range(n - 1, 0, -1):
            j = rng.randrange(i + 1)
            t = tiles[i]
            tiles[i] = tiles[j]
            tiles[j] = t
        if not is_solvable(tiles, puzzle.width):
            a = 0 if tiles[0] else 2
            b = 1 if tiles[1] else 2
            t = tiles[a]
            tiles[a] = tiles[b]
            tiles[b] = t
        puzzle.blank = find(tiles, 0)
        if not puzzle.is_solved():
            break
    puzzle.moves = 0
    puzzle.history = bytearray()


def shuffle_walk(puzzle, rng, steps):
    """Random legal pushes from solved, never undoing the previous one
    (as the Godot and MSX puzzles shuffle); more pushes follow if the
    walk ends solved. Returns the pushes made."""
    puzzle.tiles[:] = solved_tiles(puzzle.width)
    puzzle.blank = puzzle.size - 1
    previous = -1
    done = 0
    options = bytearray(4)
    while done < steps or puzzle.is_solved():
        count = 0
        for d in DIRECTIONS:
            if previous >= 0 and d == OPPOSITE[previous]:
                continue
            if puzzle.tile_for_push(d) >= 0:
                options[count] = d
                count += 1
        d = options[rng.randrange(count)]
        puzzle.push(d)
        previous = d
        done += 1
    puzzle.moves = 0
    puzzle.history = bytearray()    # the shuffle is not the player's to undo
    return done


def from_dict(data):
    """Rebuild a saved puzzle (Puzzle.to_dict); raises ValueError
    (firmware.check.Invalid, with the reason) on a damaged save: wrong types
    (a bool is not a number, 3.0 is not 3), tiles that are not a solvable
    permutation, a move count out of range, an undo history naming cells off
    the board."""
    from firmware import check
    check.table(data, "puzzle")
    width = check.integer(data.get("width"), 2, 5, "puzzle width")
    size = width * width
    tiles = check.integers(data.get("tiles"), size, 0, size - 1, "puzzle tiles")
    p = Puzzle(width, bytearray(tiles))   # raises unless a permutation
    if not is_solvable(p.tiles, width):
        raise check.Invalid("puzzle tiles: unsolvable")
    p.moves = check.integer(data.get("moves", 0), 0, MOST_MOVES, "puzzle moves")
    history = check.integers(data.get("history", []), None, 0, size - 1, "puzzle history")
    if len(history) > HISTORY_MAX:
        raise check.Invalid("puzzle history: too long")
    p.history = bytearray(history)
    return p
