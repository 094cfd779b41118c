# N-puzzle rules and board-side solver; runs on CPython and MicroPython.
import random

from firmware.games import npuzzle, npuzzle_hints, npuzzle_setup
from firmware.games.npuzzle import Puzzle, LEFT, RIGHT, UP, DOWN, is_solvable
from firmware.games import npuzzle_solver as solver
from firmware.games import IllegalMove


def board(rows):
    return bytearray(rows)


def replay(p, path):
    q = p.copy()
    for d in path:
        assert q.push(d)
    return q


# ---- the board -----------------------------------------------------------------
def test_new_puzzle_is_solved_for_each_size():
    for w in (3, 4, 5):
        p = Puzzle(w)
        assert p.is_solved()
        assert p.tiles[0] == 1
        assert p.tiles[w * w - 1] == 0
        assert p.tiles[w * w - 2] == w * w - 1
        assert p.blank == w * w - 1
        assert p.moves == 0


def test_bad_boards_are_refused():
    for tiles in ([1, 2, 3, 4, 5, 6, 7, 8, 8], [1, 2, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9]):
        try:
            Puzzle(3, tiles)
            assert False, tiles
        except ValueError:
            pass


# ---- pushes: the joystick semantics of the ML4M 15-puzzle -----------------------
def test_push_left_moves_the_tile_right_of_the_blank():
    p = Puzzle(3, [1, 2, 3, 4, 0, 5, 6, 7, 8])
    assert p.push(LEFT)
    assert list(p.tiles) == [1, 2, 3, 4, 5, 0, 6, 7, 8]
    assert p.moves == 1


def test_each_push_direction():
    start = [1, 2, 3, 4, 0, 5, 6, 7, 8]
    expect = {
        LEFT: [1, 2, 3, 4, 5, 0, 6, 7, 8],    # tile on the right moves left
        RIGHT: [1, 2, 3, 0, 4, 5, 6, 7, 8],   # tile on the left moves right
        UP: [1, 2, 3, 4, 7, 5, 6, 0, 8],      # tile below moves up
        DOWN: [1, 0, 3, 4, 2, 5, 6, 7, 8],    # tile above moves down
    }
    for d in (LEFT, RIGHT, UP, DOWN):
        p = Puzzle(3, start)
        assert p.tile_for_push(d) == {LEFT: 5, RIGHT: 3, UP: 7, DOWN: 1}[d]
        assert p.push(d)
        assert list(p.tiles) == expect[d], d


def test_push_with_nothing_to_move_does_nothing():
    p = Puzzle(4)                       # blank in the bottom-right corner
    assert sorted(p.legal_pushes()) == sorted([RIGHT, DOWN])
    before = bytearray(p.tiles)
    assert not p.push(LEFT)
    assert not p.push(UP)
    assert p.tiles == before and p.moves == 0 and not p.history


def test_legal_pushes_count_by_blank_cell():
    for blank, count in ((0, 2), (1, 3), (4, 4), (8, 2)):
        tiles = [1, 2, 3, 4, 5, 6, 7, 8, 0]
        tiles[8], tiles[blank] = tiles[blank], 0
        assert len(Puzzle(3, tiles).legal_pushes()) == count


# ---- slides: a whole run at once (the Godot 15-puzzle's way) -------------------
def test_slide_a_run_of_tiles_counts_each_tile():
    p = Puzzle(4)                       # blank at (3, 3)
    assert p.slide(12) == 3             # (0, 3): the whole bottom row moves right
    assert list(p.tiles[12:16]) == [0, 13, 14, 15]
    assert p.moves == 3
    assert p.slide(0) == 3              # up the left column: the column moves down
    assert [p.tiles[i] for i in (0, 4, 8, 12)] == [0, 1, 5, 9]
    assert p.moves == 6


def test_slide_outside_the_blanks_lines_does_nothing():
    p = Puzzle(4)
    assert p.slide(0) == 0              # not in the blank's row or column
    assert p.slide(15) == 0             # the blank itself
    assert p.slide(99) == 0
    assert p.moves == 0 and p.is_solved()


def test_slide_of_one_equals_a_push():
    a = Puzzle(3, [1, 2, 3, 4, 0, 5, 6, 7, 8])
    b = a.copy()
    a.slide(5)
    b.push(LEFT)
    assert a.tiles == b.tiles and a.moves == b.moves == 1


# ---- undo ------------------------------------------------------------------------------
def test_undo_takes_back_pushes_and_slides():
    random.seed(11)
    p = Puzzle(4)
    npuzzle_setup.shuffle_uniform(p, random)
    start = bytearray(p.tiles)
    states = [bytearray(p.tiles)]
    for i in range(40):
        if i % 3 == 0:
            w = p.width
            col, row = p.blank % p.width, p.blank // p.width
            target = row * w + random.randrange(w) if i % 2 else random.randrange(w) * w + col
            p.slide(target)
        else:
            p.push(random.randrange(4))
        if p.tiles != states[-1]:
            states.append(bytearray(p.tiles))
    while p.history:
        p.undo()
        states.pop()
        assert p.tiles == states[-1]
    assert p.tiles == start and p.moves == 0
    assert p.undo() == 0


def test_undo_counts_back_the_moves_of_a_slide():
    p = Puzzle(5)
    p.slide(20)
    p.push(LEFT)
    assert p.moves == 5
    assert p.undo() == 1 and p.moves == 4
    assert p.undo() == 4 and p.moves == 0 and p.is_solved()


# ---- solvability ---------------------------------------------------------------------
def test_parity_rule_on_known_positions():
    # Sam Loyd's 14-15 swap cannot be solved; neither can a 1-2 swap on 3x3.
    assert not is_solvable([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0], 4)
    assert not is_solvable([2, 1, 3, 4, 5, 6, 7, 8, 0], 3)
    assert is_solvable([8, 6, 7, 2, 5, 4, 3, 0, 1], 3)
    # Moving the blank up one row on 4x4 jumps 3 tiles: parity of inversions
    # flips and the blank's row does too.
    assert is_solvable([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 12], 4)


def test_parity_rule_matches_search_on_2x2():
    # Even width, small enough to enumerate: the reachable set by search
    # must be exactly the positions the rule calls solvable (12 of 24).
    start = bytes([1, 2, 3, 0])
    seen = {start: 1}
    todo = [start]
    while todo:
        s = todo.pop()
        p = Puzzle(2, s)
        for d in p.legal_pushes():
            q = p.copy()
            q.push(d)
            key = bytes(q.tiles)
            if key not in seen:
                seen[key] = 1
                todo.append(key)
    assert len(seen) == 12
    count = 0
    for a in range(4):
        for b in range(4):
            for c in range(4):
                for d in range(4):
                    t = bytes([a, b, c, d])
                    if len(set(t)) == 4:
                        count += 1
                        assert is_solvable(t, 2) == (t in seen), list(t)
    assert count == 24


def test_parity_rule_on_random_walks_and_swaps():
    # Light version of the 3x3 brute force (tests/test_npuzzle_host.py does all
    # 181440): positions reached by moves are solvable, one swap is not.
    random.seed(3)
    for w in (3, 4, 5):
        p = Puzzle(w)
        for i in range(20):
            npuzzle_setup.shuffle_walk(p, random, 1 + random.randrange(60))
            assert is_solvable(p.tiles, w)
            t = bytearray(p.tiles)
            a = 0 if t[0] else 1
            b = 2
            t[a], t[b] = t[b], t[a]
            assert not is_solvable(t, w)


# ---- shuffles --------------------------------------------------------------------------
def test_uniform_shuffle_is_solvable_and_never_solved():
    random.seed(5)
    for w in (2, 3, 4, 5):
        p = Puzzle(w)
        for i in range(60 if w == 2 else 25):
            p.push(RIGHT)
            npuzzle_setup.shuffle_uniform(p, random)
            assert is_solvable(p.tiles, w)
            assert not p.is_solved()
            assert p.moves == 0 and not p.history
            assert sorted(p.tiles) == list(range(w * w))


def test_walk_shuffle_never_undoes_a_move_and_never_ends_solved():
    for w in (3, 4):
        for steps in (1, 2, 3, 12, 50):
            for seed in range(8):
                random.seed(seed)
                p = Puzzle(w)
                npuzzle_setup.shuffle_walk(p, random, steps)
                assert not p.is_solved()
                assert is_solvable(p.tiles, w)
                # Replay the same walk and check each step.
                random.seed(seed)
                q = Puzzle(w)
                previous = -1
                done = 0
                while done < steps or q.is_solved():
                    options = [d for d in npuzzle.DIRECTIONS
                               if q.tile_for_push(d) >= 0
                               and (previous < 0 or d != npuzzle.OPPOSITE[previous])]
                    d = options[random.randrange(len(options))]
                    assert previous < 0 or d != npuzzle.OPPOSITE[previous]
                    q.push(d)
                    previous = d
                    done += 1
                assert q.tiles == p.tiles


def test_walk_that_returns_to_solved_keeps_going():
    # On a 2x2 board a walk that never undoes just circles: every 12 moves
    # it is solved again, so 12 steps must be followed by more.
    random.seed(1)
    p = Puzzle(2)
    n = npuzzle_setup.shuffle_walk(p, random, 12)
    assert n == 13 and not p.is_solved()


# ---- saving ----------------------------------------------------------------------------
def test_save_and_restore_round_trip():
    random.seed(8)
    p = Puzzle(4)
    npuzzle_setup.shuffle_uniform(p, random)
    p.push(RIGHT)
    p.push(DOWN)
    p.slide(p.blank - p.blank % 4)
    data = p.to_dict()
    for v in data["tiles"]:
        assert isinstance(v, int)
    q = npuzzle_setup.from_dict(data)
    assert q.tiles == p.tiles and q.moves == p.moves and q.width == 4
    assert q.history == p.history
    q.undo()
    p.undo()
    assert q.tiles == p.tiles


def test_damaged_saves_are_refused():
    good = Puzzle(3).to_dict()
    for bad in ({"width": 3, "tiles": [2, 1, 3, 4, 5, 6, 7, 8, 0]},       # unsolvable
                {"width": 3, "tiles": [1, 1, 3, 4, 5, 6, 7, 8, 0]},
                {"width": 4, "tiles": good["tiles"]},
                {"width": 3, "tiles": good["tiles"], "history": [40]},
                # wrong types: each one a ValueError with a reason, nothing else
                {"width": 3.0, "tiles": good["tiles"]},
                {"width": True, "tiles": good["tiles"]},
                {"width": 3, "tiles": [1.0, 2, 3, 4, 5, 6, 7, 8, 0]},
                {"width": 3, "tiles": good["tiles"], "moves": 1e300},
                {"width": 3, "tiles": good["tiles"], "moves": 10 ** 12},
                {"width": 3, "tiles": good["tiles"], "moves": None},
                {"width": 3, "tiles": good["tiles"], "history": "abc"},
                {"width": 3, "tiles": good["tiles"], "history": [0] * 600},
                {"width": 3, "tiles": None},
                [1, 2, 3]):
        try:
            npuzzle_setup.from_dict(bad)
            assert False, bad
        except ValueError:
            pass


# ---- 3x3 optimal solver --------------------------------------------------------------
def test_optimal_3x3_on_known_instances():
    # The two positions 31 moves from solved (the maximum); BFS in
    # tests/test_npuzzle_host.py shows there are exactly two.
    for tiles in ([8, 6, 7, 2, 5, 4, 3, 0, 1], [6, 4, 7, 8, 5, 0, 3, 2, 1]):
        path = solver.solve8(bytes(tiles))
        assert len(path) == 31
        assert replay(Puzzle(3, tiles), path).is_solved()
    assert len(solver.solve8(bytes([1, 2, 3, 4, 5, 6, 7, 8, 0]))) == 0
    assert len(solver.solve8(bytes([1, 2, 3, 4, 5, 6, 7, 0, 8]))) == 1
    assert len(solver.solve8(bytes([1, 2, 3, 4, 5, 6, 0, 7, 8]))) == 2
    assert len(solver.solve8(bytes([0, 1, 2, 3, 4, 5, 6, 7, 8]))) == 22


def test_solver_refuses_unsolvable():
    try:
        solver.solve8(bytes([2, 1, 3, 4, 5, 6, 7, 8, 0]))
        assert False
    except ValueError:
        pass


def test_walks_of_k_moves_need_at_most_k():
    random.seed(4)
    p = Puzzle(3)
    for steps in (1, 2, 5, 9, 14):
        npuzzle_setup.shuffle_walk(p, random, steps)
        n = len(solver.solve8(p.tiles))
        assert n <= steps and (n - steps) % 2 == 0


# ---- hints for every size -----------------------------------------------------------
def follow_hints(p, limit):
    h = npuzzle.Hinter()
    n = 0
    while not p.is_solved():
        d = npuzzle_hints.hint(h, p)
        assert d is not None and p.push(d)
        n += 1
        assert n <= limit
    assert npuzzle_hints.hint(h, p) is None
    return n


def test_hints_reach_solved_from_random_positions():
    random.seed(21)
    for w, games in ((3, 3), (4, 3), (5, 2)):
        for i in range(games):
            p = Puzzle(w)
            npuzzle_setup.shuffle_uniform(p, random)
            follow_hints(p, 400)


def test_hints_survive_the_player_straying():
    random.seed(22)
    p = Puzzle(4)
    npuzzle_setup.shuffle_uniform(p, random)
    h = npuzzle.Hinter()
    n = 0
    while not p.is_solved():
        d = npuzzle_hints.hint(h, p)
        p.push(d)
        if n % 7 == 3:
            p.push(random.randrange(4))    # a move of the player's own
        n += 1
        assert n < 2000


def test_full_solution_solves():
    random.seed(23)
    for w in (3, 4, 5):
        p = Puzzle(w)
        npuzzle_setup.shuffle_uniform(p, random)
        assert replay(p, solver.solution(p)).is_solved()
    assert len(solver.solution(Puzzle(4))) == 0


def test_hint_one_move_from_solved():
    p = Puzzle(4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15])
    assert npuzzle_hints.hint(npuzzle.Hinter(), p) == LEFT
    p.push(LEFT)
    assert npuzzle_hints.hint(npuzzle.Hinter(), p) is None


def test_a_direction_that_is_none_of_the_four_is_an_illegal_move():
    p = Puzzle(3)
    for bad in (4, -1, 99):
        try:
            p.push(bad)
            assert False, bad
        except IllegalMove as e:
            assert isinstance(e, ValueError)
    # a push against the wall is allowed and changes nothing: no error
    assert p.push(UP) is False and p.is_solved() and p.moves == 0
