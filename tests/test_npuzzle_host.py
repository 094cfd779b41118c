"""N-puzzle checks too heavy for MicroPython (CPython, pytest only):
brute force over the whole 8-puzzle, shuffle uniformity, many hints, the PC
optimal 15-puzzle solver."""
import itertools
import random
from collections import deque
from functools import lru_cache

from firmware.games import npuzzle, npuzzle_hints, npuzzle_setup, npuzzle_solver as solver
from firmware.games.npuzzle import Puzzle, is_solvable
from tools import gen_npuzzle_pdb8, solver15

# Chi-square critical values at p = 0.001 (a correct shuffle fails about one
# seeded run in a thousand; the seeds below are fixed, so the test is stable).
CHI2_999_DF10 = 29.588     # statistical tables, 10 degrees of freedom
CHI2_999_DF503 = 606.8     # Wilson-Hilferty: df*(1 - 2/(9df) + z*sqrt(2/(9df)))**3, z = 3.0902


@lru_cache(maxsize=None)
def distances3():
    """Moves from solved for every position reachable on 3x3 (BFS)."""
    start = bytes([1, 2, 3, 4, 5, 6, 7, 8, 0])
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        b = s.index(0)
        r, c = divmod(b, 3)
        d = dist[s] + 1
        for q in (b - 3 if r else -1, b + 3 if r < 2 else -1, b - 1 if c else -1, b + 1 if c < 2 else -1):
            if q < 0:
                continue
            t = bytearray(s)
            t[b], t[q] = t[q], 0
            t = bytes(t)
            if t not in dist:
                dist[t] = d
                queue.append(t)
    return dist


def test_8_puzzle_state_space():
    dist = distances3()
    assert len(dist) == 181440                 # 9!/2
    assert max(dist.values()) == 31
    hardest = sorted(s for s, d in dist.items() if d == 31)
    assert len(hardest) == 2
    assert bytes([8, 6, 7, 2, 5, 4, 3, 0, 1]) in hardest


def test_parity_rule_matches_brute_force_on_3x3():
    reachable = distances3()
    solvable = 0
    for perm in itertools.permutations(range(9)):
        t = bytes(perm)
        ok = is_solvable(t, 3)
        assert ok == (t in reachable), perm
        solvable += ok
    assert solvable == 181440


def test_optimal_3x3_matches_bfs():
    dist = distances3()
    rng = random.Random(2)
    sample = rng.sample(sorted(dist), 3000)
    sample += [s for s, d in dist.items() if d >= 30]
    for s in sample:
        path = solver.solve8(s)
        assert len(path) == dist[s]
        p = Puzzle(3, s)
        for d in path:
            assert p.push(d)
        assert p.is_solved()


def test_shipped_pattern_databases_are_current():
    with open(gen_npuzzle_pdb8.TARGET) as f:
        assert f.read() == gen_npuzzle_pdb8.module_text()


def chi_square(counts, expected):
    return sum((counts.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def test_uniform_shuffle_2x2_every_position_equally_likely():
    # 12 solvable positions minus the solved one: 11 cells, 10 df.
    rng = random.Random(7)
    samples = 22000
    counts = {}
    p = Puzzle(2)
    for _ in range(samples):
        npuzzle_setup.shuffle_uniform(p, rng)
        k = bytes(p.tiles)
        counts[k] = counts.get(k, 0) + 1
    assert len(counts) == 11
    expected = {k: samples / 11 for k in counts}
    assert chi_square(counts, expected) < CHI2_999_DF10


def triple(tiles):
    return (tiles.index(0), tiles.index(1), tiles.index(2))


def expected_triples(samples):
    # Each (blank, tile 1, tile 2) placement holds 6!/2 = 360 solvable
    # positions; the solved one (8, 0, 1) loses one (never dealt).
    total = 181439
    out = {}
    for cells in itertools.permutations(range(9), 3):
        n = 360 - (cells == (8, 0, 1))
        out[cells] = samples * n / total
    return out


def test_uniform_shuffle_3x3_chi_square():
    rng = random.Random(9)
    samples = 504 * 200
    counts = {}
    p = Puzzle(3)
    for _ in range(samples):
        npuzzle_setup.shuffle_uniform(p, rng)
        k = triple(bytes(p.tiles))
        counts[k] = counts.get(k, 0) + 1
    assert chi_square(counts, expected_triples(samples)) < CHI2_999_DF503


def test_chi_square_catches_a_walk_shuffle():
    # The same statistic must reject a shuffle that is known not to be
    # uniform (a short walk stays near solved), or the test proves nothing.
    rng = random.Random(9)
    samples = 504 * 40
    counts = {}
    p = Puzzle(3)
    for _ in range(samples):
        npuzzle_setup.shuffle_walk(p, rng, 20)
        k = triple(bytes(p.tiles))
        counts[k] = counts.get(k, 0) + 1
    assert chi_square(counts, expected_triples(samples)) > CHI2_999_DF503 * 3


def follow(p, hinter):
    n = 0
    while not p.is_solved():
        d = npuzzle_hints.hint(hinter, p)
        assert p.push(d)
        n += 1
        assert n < 5000
    return n


def test_hints_reach_solved_4x4_and_5x5():
    rng = random.Random(31)
    for w, games in ((4, 150), (5, 60)):
        for _ in range(games):
            p = Puzzle(w)
            npuzzle_setup.shuffle_uniform(p, rng)
            follow(p, npuzzle.Hinter())
            npuzzle_setup.shuffle_walk(p, rng, rng.randrange(1, 40))
            follow(p, npuzzle.Hinter())


def groups_in_place(tiles, w):
    """Cells of the leading groups that are already in place."""
    out = []
    for kind, cells in solver.groups(w):
        if len(cells) == 9 or any(tiles[c] != c + 1 for c in cells):
            break
        out.extend(cells)
    return out


def test_each_stage_keeps_earlier_groups_and_adds_one():
    rng = random.Random(32)
    for w in (4, 5):
        for _ in range(40):
            p = Puzzle(w)
            npuzzle_setup.shuffle_uniform(p, rng)
            tiles = bytearray(p.tiles)
            while True:
                part = solver.plan_stage(tiles, w)
                if not part:
                    break
                kept = groups_in_place(tiles, w)
                blank = tiles.index(0)
                for d in part:
                    blank = solver._apply(tiles, w, blank, bytes([d]))
                    assert all(tiles[c] == c + 1 for c in kept)
                assert len(groups_in_place(tiles, w)) > len(kept) or list(tiles[:-1]) == list(range(1, w * w))
            assert list(tiles) == list(range(1, w * w)) + [0]


# Random-walk positions; optimal lengths found by solver15 (Manhattan + linear
# conflict) and confirmed with plain Manhattan distance (solve(kind="md")).
KNOWN_15 = (
    ([6, 3, 4, 11, 1, 0, 10, 15, 7, 5, 8, 12, 9, 2, 13, 14], 38),
    ([1, 3, 6, 4, 10, 2, 14, 5, 15, 11, 8, 12, 7, 0, 13, 9], 40),
    ([7, 3, 4, 14, 6, 0, 12, 11, 1, 2, 15, 8, 5, 13, 9, 10], 42),
)


def test_optimal_15_puzzle_solver_on_known_instances():
    for tiles, length in KNOWN_15:
        moves, nodes = solver15.solve(tiles)
        assert len(moves) == length
        p = Puzzle(4, tiles)
        for d in moves:
            assert p.push(d)
        assert p.is_solved()


def test_optimal_15_solver_agrees_with_bfs_near_solved():
    # Short positions, where both heuristics and the board's staged solver
    # can be compared with a plain breadth-first search.
    rng = random.Random(5)
    for _ in range(20):
        p = Puzzle(4)
        npuzzle_setup.shuffle_walk(p, rng, rng.randrange(1, 13))
        start = bytes(p.tiles)
        goal = bytes(Puzzle(4).tiles)
        dist = {start: 0}
        queue = deque([start])
        while goal not in dist:
            s = queue.popleft()
            q = Puzzle(4, s)
            for d in q.legal_pushes():
                r = q.copy()
                r.push(d)
                k = bytes(r.tiles)
                if k not in dist:
                    dist[k] = dist[s] + 1
                    queue.append(k)
        assert solver15.optimal_length(start) == dist[goal]
        assert solver15.optimal_length(start, "md") == dist[goal]
        assert len(solver.solution(p)) >= dist[goal]


def test_optimal_15_solver_refuses_unsolvable():
    try:
        solver15.solve([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0])
        assert False
    except ValueError:
        pass
