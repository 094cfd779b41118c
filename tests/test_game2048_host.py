"""2048 on CPython only: the spawn distribution, statistically, and the
benchmark's searcher playing exactly like the firmware's."""
import importlib.util
import math
import os
import random

from firmware.games import ai2048
from firmware.games.game2048 import LEFT, RIGHT, Game2048

CELLS = 16

SPAWNS = 20000
# Share of 4s: p = 0.1, standard error sqrt(0.1 * 0.9 / 20000) = 0.0021;
# 5 standard errors either side, so a correct rule fails ~1 run in 10**6.
FOUR_SHARE = 0.1
FOUR_TOLERANCE = 0.0106
# Chi-square for a uniform choice among 6 empty cells (5 degrees of freedom):
# 20.5 is the 0.999 quantile, so a correct rule fails 1 run in 1000 (with the
# fixed seeds below it either always passes or always fails).
CHI2_LIMIT_5DF = 20.5
# ... and among the 16 cells of an empty board (15 degrees of freedom).
CHI2_LIMIT_15DF = 37.7


def _spawn_counts(empty_cells, seed):
    g = Game2048(random.Random(seed))
    for i in range(CELLS):
        g.board[i] = 0 if i in empty_cells else 3     # 8s everywhere else
    cells = {i: 0 for i in empty_cells}
    fours = 0
    for _ in range(SPAWNS):
        i = g.spawn_tile()
        cells[i] += 1
        fours += g.board[i] == 2
        g.board[i] = 0
    return cells, fours


def _chi2(counts):
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_spawn_is_a_four_one_time_in_ten():
    _, fours = _spawn_counts((0, 5, 6, 9, 12, 15), seed=11)
    assert abs(fours / SPAWNS - FOUR_SHARE) < FOUR_TOLERANCE


def test_spawn_cell_is_uniform_among_the_empty_ones():
    cells, _ = _spawn_counts((0, 5, 6, 9, 12, 15), seed=12)
    assert set(cells) == {0, 5, 6, 9, 12, 15}
    assert _chi2(list(cells.values())) < CHI2_LIMIT_5DF
    cells, _ = _spawn_counts(tuple(range(CELLS)), seed=13)
    assert _chi2(list(cells.values())) < CHI2_LIMIT_15DF


def test_spawn_never_lands_on_a_tile():
    g = Game2048(random.Random(14))
    for i in range(CELLS):
        g.board[i] = 1 + i % 5
    g.board[7] = 0
    assert g.spawn_tile() == 7
    assert g.spawn_tile() == -1        # full


def test_new_game_tiles_are_mostly_twos():
    rng = random.Random(15)
    g = Game2048(rng)
    fours = tiles = 0
    for _ in range(SPAWNS // 2):
        g.new_game()
        for e in g.board:
            if e:
                tiles += 1
                fours += e == 2
    assert tiles == SPAWNS
    assert abs(fours / tiles - FOUR_SHARE) < FOUR_TOLERANCE


def test_moves_made_after_a_no_op_spawn_nothing():
    g = Game2048(random.Random(16))
    g.new_game()
    for _ in range(100):
        before = bytearray(g.board)
        for d in (LEFT, RIGHT):
            if not g.can_slide(d):
                assert not g.slide(d) and g.board == before
        g.slide(LEFT) or g.slide(RIGHT) or g.slide(2) or g.slide(3)


def _bench_module():
    path = os.path.join(os.path.dirname(__file__), "..", "tools", "bench", "bench_2048.py")
    spec = importlib.util.spec_from_file_location("bench_2048", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_cache_plays_like_the_firmware():
    # The benchmark enlarges the line cache to run 100 games in minutes; it
    # must choose exactly the firmware's moves at the same node budget.
    bench = _bench_module()
    plain = [bench.play(seed, max_moves=150) for seed in (1, 2)]
    big = [bench.play(seed, max_moves=150, lines=bench.BIG_CACHE) for seed in (1, 2)]
    for p, b in zip(plain, big):
        assert p["trace"] == b["trace"] and p["score"] == b["score"]


def test_ai_values_are_small_ints():
    # MicroPython on the ESP32: ints beyond 2**30 are heap objects
    ai = ai2048.Expectimax(budget_ms=0, max_nodes=2000)
    g = Game2048(random.Random(17))
    g.new_game()
    for _ in range(60):
        d = ai.best_move(g.board)
        assert max(ai.values) < 1 << 30
        g.slide(d)
    g.board[:] = bytearray([17, 16, 15, 14, 10, 11, 12, 13, 9, 8, 7, 6, 1, 3, 4, 5])
    for line in ai2048._EVAL_LINES:
        assert abs(ai2048._line_score(sum(g.board[c] << (5 * k) for k, c in enumerate(line)))) < 1 << 24


def test_the_written_out_powers_are_e_to_the_3_5():
    # ai2048 writes e ** 3.5 out (no function left in the heap to compute it)
    assert ai2048._POW35 == tuple(math.isqrt(e ** 7) for e in range(18))
