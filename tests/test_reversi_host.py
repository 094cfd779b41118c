"""Reversi checks too slow for MicroPython: deep perft, the endgame solver
against brute force, whole CPU games."""
import random

import pytest

from firmware.games.reversi_tools import Reversi, BLACK, WHITE, from_alg
from firmware.games.reversi_ai import Ai, EASY, MEDIUM, HARD, LEVELS


@pytest.mark.long
def test_perft_7_and_8():
    g = Reversi()
    before = bytes(g.board)
    assert g.perft(7) == 55092
    assert g.perft(8) == 390216
    assert bytes(g.board) == before and g.ply == 0


def brute_force(g):
    """Plain minimax to the end: the final disc difference (WOF scoring,
    empties to the winner) for the side to move. Independent of the CPU:
    only legal_moves/push/pop."""
    moves = g.legal_moves()
    if not moves:
        black, white = g.final_score()
        return black - white if g.turn == BLACK else white - black
    best = -65
    for m in moves:
        g.push(m)
        v = -brute_force(g)
        g.pop()
        best = max(best, v)
    return best


def random_endgames(count, max_empties, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = Reversi()
        target = rng.randint(3, max_empties)
        while g.empties() > target and not g.is_game_over():
            g.push(rng.choice(g.legal_moves()))
        if not g.is_game_over():
            out.append(g)
    return out


def test_endgame_solver_agrees_with_brute_force():
    checked = 0
    for g in random_endgames(40, 8, seed=11):
        if len(g.legal_moves()) == 1:
            continue  # played at once, without a search
        checked += 1
        want = brute_force(g)
        before = bytes(g.board), g.turn, g.ply
        ai = Ai(HARD, budget_ms=0, node_budget=0)
        m = ai.choose(g)
        assert (bytes(g.board), g.turn, g.ply) == before
        assert ai.exact
        assert ai.score // 4096 == want, (g.board_string(), g.turn)
        # The chosen move really reaches that result.
        g.push(m)
        assert -brute_force(g) == want
        g.pop()
    assert checked >= 20


def test_medium_level_solves_near_the_end():
    for g in random_endgames(10, 6, seed=12):
        ai = Ai(MEDIUM, budget_ms=0, node_budget=0)
        if len(g.legal_moves()) == 1:
            continue
        ai.choose(g)
        assert ai.exact and ai.score // 4096 == brute_force(g)


def test_easy_level_solves_its_last_six_squares():
    # easy searches one ply in the midgame, and plays the end exactly
    # (LEVELS: 6 empties), its noise too small to change an exact result
    solved = 0
    for g in random_endgames(12, 6, seed=13):
        if len(g.legal_moves()) == 1:
            continue
        ai = Ai(EASY, budget_ms=0, node_budget=0, rng=random.Random(1))
        m = ai.choose(g)
        discs = (ai.score + 2048) // 4096      # the noise (<= 20) rounded off
        assert ai.exact and discs == brute_force(g)
        g.push(m)
        assert -brute_force(g) == discs
        g.pop()
        solved += 1
    assert solved >= 6


@pytest.mark.long
def test_cpu_games_are_legal_and_repeatable():
    def play(seed):
        rng = random.Random(seed)
        g = Reversi()
        cpus = {BLACK: Ai(HARD, budget_ms=0, node_budget=LEVELS[HARD][4]),
                WHITE: Ai(EASY, budget_ms=0, node_budget=LEVELS[EASY][4], rng=rng)}
        while not g.is_game_over():
            m = cpus[g.turn].choose(g)
            assert m in g.legal_moves()
            g.push(m)
        return g.record()

    assert play(1) == play(1)


@pytest.mark.long
def test_time_budget_with_a_virtual_clock():
    # 1 ms passes each time the CPU looks at the clock.
    ticks = [0]

    def clock():
        ticks[0] += 1
        return ticks[0]

    g = Reversi()
    for name in ("f5", "d6", "c3", "d3", "c4"):
        g.push(from_alg(name))
    for level in (EASY, MEDIUM, HARD):
        ai = Ai(level, clock=clock, node_budget=0)
        ai.choose(g)
        assert ai.elapsed_ms <= LEVELS[level][0] + 2
