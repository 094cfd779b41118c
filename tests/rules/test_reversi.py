# Reversi rules and CPU: runs under CPython (pytest) and MicroPython (runner).
import json
import random

from firmware.games.reversi_tools import (
    Reversi, BLACK, WHITE, EMPTY, PASS, DRAW, square, to_alg, from_alg,
    board_string,
)
from firmware.games.reversi_ai import Ai, EASY, MEDIUM, HARD
from firmware.games import reversi as rules
from firmware.games import IllegalMove


def names(moves):
    return sorted([to_alg(m) for m in moves])


def snapshot(g):
    return (bytes(g.board), g.turn, g.ply, g.count(BLACK), g.count(WHITE), g.empties())


def test_start_position():
    g = Reversi()
    assert g.turn == BLACK
    assert g.count(BLACK) == 2 and g.count(WHITE) == 2 and g.empties() == 60
    assert g.piece_at(3, 3) == WHITE and g.piece_at(4, 4) == WHITE
    assert g.piece_at(4, 3) == BLACK and g.piece_at(3, 4) == BLACK
    assert names(g.legal_moves()) == ["c4", "d3", "e6", "f5"]
    assert not g.is_game_over() and g.result() == "*" and g.winner() is None


def test_algebraic_names():
    assert from_alg("a1") == square(0, 0) and from_alg("h8") == square(7, 7)
    assert to_alg(square(3, 2)) == "d3" and from_alg("D3") == square(3, 2)
    assert from_alg("pass") == PASS and to_alg(PASS) == "pass"
    for bad in ("i1", "a9", "a", "zz9"):
        try:
            from_alg(bad)
            assert False, bad
        except ValueError:
            pass


def test_perft_1_to_6():
    g = Reversi()
    before = snapshot(g)
    assert [g.perft(d) for d in range(1, 7)] == [4, 12, 56, 244, 1396, 8200]
    assert snapshot(g) == before


def test_first_move_flips():
    g = Reversi()
    assert g.push(from_alg("d3")) == 1
    assert g.piece_at(3, 3) == BLACK and g.piece_at(3, 2) == BLACK
    assert g.count(BLACK) == 4 and g.count(WHITE) == 1 and g.turn == WHITE
    assert g.last_move() == from_alg("d3") and g.last_flips() == [from_alg("d4")]
    assert names(g.legal_moves()) == ["c3", "c5", "e3"]


def test_flips_in_all_eight_directions():
    # Black plays d4; every direction has two white discs then a black one.
    g = Reversi()
    rows = [["-"] * 8 for _ in range(8)]
    for dc, dr in ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
        rows[3 + dr][3 + dc] = "O"
        rows[3 + 2 * dr][3 + 2 * dc] = "O"
        rows[3 + 3 * dr][3 + 3 * dc] = "X"
    g.set_position("".join("".join(r) for r in rows), BLACK)
    assert g.count(WHITE) == 16 and g.count(BLACK) == 8
    assert g.push(square(3, 3)) == 16
    assert g.count(WHITE) == 0 and g.count(BLACK) == 25
    whites = [square(3 + k * dc, 3 + k * dr) for k in (1, 2)
              for dc, dr in ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))]
    assert sorted(g.last_flips()) == sorted(whites)
    assert g.is_game_over() and g.result() == "1-0" and g.winner() == BLACK
    g.pop()                                    # undo puts every line back
    assert all(g.board[sq] == WHITE for sq in whites) and g.board[square(3, 3)] == 0
    assert g.count(WHITE) == 16 and g.count(BLACK) == 8 and g.empties() == 40


def test_six_flips_in_one_line_and_undo():
    # the longest line a move can flip (the undo record keeps 0..6 per direction)
    g = Reversi()
    g.set_position("XOOOOOO-" + "-" * 48 + "O------X", BLACK)
    before = snapshot(g)
    assert g.push(square(7, 0)) == 6
    assert g.count(BLACK) == 9 and g.last_flips() == [square(c, 0) for c in (6, 5, 4, 3, 2, 1)]
    g.pop()
    assert snapshot(g) == before


def test_flips_only_bracketed_lines():
    # Right of e5: white then empty (not bracketed); left: white then black.
    g = Reversi()
    g.set_position(
        "--------"
        "--------"
        "--------"
        "--------"
        "--XO-O--"
        "--------"
        "--------"
        "--------", BLACK)
    assert g.push(from_alg("e5")) == 1
    assert g.piece_at(3, 4) == BLACK and g.piece_at(5, 4) == WHITE


def test_corner_and_edges():
    # a1 flips along row 1, column a and the long diagonal, each to the far edge.
    rows = ["-OOOOOOX"] + ["O-------"] * 6 + ["X------X"]
    rows = [list(r) for r in rows]
    for i in range(1, 7):
        rows[i][i] = "O"
    g = Reversi()
    g.set_position("".join("".join(r) for r in rows), BLACK)
    assert g.flips_for(square(0, 0)) == 18
    assert g.push(square(0, 0)) == 18
    assert g.count(WHITE) == 0


def test_no_wrap_around_the_edge():
    # h1 white, a2 black: g1 must not "bracket" across the row end.
    g = Reversi()
    g.set_position("------" "-O" "X-------" + "-" * 48, BLACK)
    assert g.flips_for(from_alg("g1")) == 0
    assert not g.is_legal(from_alg("g1"))
    assert g.legal_moves() == []  # no move for Black, none for White: over
    assert g.is_game_over()


def test_illegal_moves_change_nothing():
    g = Reversi()
    before = snapshot(g)
    for bad in ("a1", "d4", "e5", "c3", "h8"):
        try:
            g.push(from_alg(bad))
            assert False, bad
        except ValueError:
            pass
        assert snapshot(g) == before
    try:
        g.push(PASS)  # Black has moves: may not pass
        assert False
    except ValueError:
        pass
    assert snapshot(g) == before


def test_forced_pass():
    g = Reversi()
    # White (O) has no move; Black can play c1.
    g.set_position("XO" + "-" * 62, WHITE)
    assert g.must_pass() and not g.is_game_over()
    assert g.legal_moves() == [PASS]
    try:
        g.push(from_alg("c1"))
        assert False
    except ValueError:
        pass
    g.push(PASS)
    assert g.turn == BLACK and g.record() == ["pass"]
    g.push(from_alg("c1"))
    assert g.count(BLACK) == 3 and g.count(WHITE) == 0
    assert g.is_game_over() and g.empties() == 61
    try:
        g.pass_turn()  # game over: no pass either
        assert False
    except ValueError:
        pass
    g.pop()
    g.pop()
    assert g.turn == WHITE and g.must_pass()


def test_game_ends_with_empty_squares():
    g = Reversi()
    for m in ("d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"):
        g.push(from_alg(m))
    assert g.is_game_over()
    assert g.empties() == 51 and g.count(BLACK) == 13 and g.count(WHITE) == 0
    assert g.legal_moves() == []
    assert g.result() == "1-0" and g.winner() == BLACK
    assert g.final_score() == (64, 0)  # WOF: empties go to the winner


def test_draw_result():
    g = Reversi()
    g.set_position("XX-OO" + "-" * 59, BLACK)
    assert g.is_game_over() and g.winner() == DRAW and g.result() == "1/2-1/2"
    assert g.final_score() == (32, 32)
    # a draw is a result of its own, never taken for a game going on
    assert DRAW and DRAW not in (BLACK, WHITE) and g.winner() is not None


def refused(g, move):
    """True when the rules refuse `move` with IllegalMove, changing nothing."""
    before = snapshot(g)
    try:
        g.push(move)
    except IllegalMove as e:
        assert isinstance(e, ValueError)     # callers catching ValueError still do
        return snapshot(g) == before
    return False


def test_illegal_moves_raise_illegal_move():
    g = Reversi()
    assert refused(g, from_alg("d4"))        # a taken square
    assert refused(g, from_alg("a1"))        # flips nothing
    assert refused(g, 99)                    # off the board
    assert refused(g, PASS)                  # a pass with moves at hand
    g.set_position("XX-OO" + "-" * 59, BLACK)
    assert refused(g, PASS)                  # the game is over
    assert refused(g, from_alg("c1"))        # nor any placement


def test_undo_restores_exactly():
    random.seed(6)
    for game in range(3):
        g = Reversi()
        trail = []
        while not g.is_game_over():
            trail.append(snapshot(g))
            moves = g.legal_moves()
            g.push(moves[random.randrange(len(moves))])
        assert g.empties() + g.count(BLACK) + g.count(WHITE) == 64
        while trail:
            g.pop()
            assert snapshot(g) == trail.pop()
        assert g.ply == 0
    try:
        g.pop()
        assert False
    except IndexError:
        pass


def test_save_and_restore():
    random.seed(7)
    g = Reversi()
    for i in range(30):
        moves = g.legal_moves()
        if not moves:
            break
        g.push(moves[random.randrange(len(moves))])
    data = json.loads(json.dumps(g.to_dict()))
    h = Reversi.from_dict(data)
    assert snapshot(h) == snapshot(g) and h.record() == g.record()
    k = Reversi()
    k.load(g.record())  # a plain list of move names works too
    assert snapshot(k) == snapshot(g)
    # A set-up position survives with its moves.
    s = Reversi()
    s.set_position("XO" + "-" * 62, WHITE)
    s.push(PASS)
    s.push(from_alg("c1"))
    t = Reversi.from_dict(json.loads(json.dumps(s.to_dict())))
    assert snapshot(t) == snapshot(s) and t.record() == ["pass", "c1"]
    # A corrupt record is refused.
    try:
        Reversi.from_dict({"moves": ["d3", "d3"]})
        assert False
    except IllegalMove:
        pass
    # The rules replay from the standard start; a set-up position is
    # reversi_tools' to read (the rules module never imports it).
    plain = rules.Reversi()
    try:
        plain.load(s.to_dict())
        assert False
    except ValueError:
        pass
    assert plain.ply == 0


def test_cpu_plays_legal_moves_and_leaves_the_game_as_it_was():
    random.seed(8)
    g = Reversi()
    for level in (EASY, MEDIUM, HARD):
        ai = Ai(level, budget_ms=0, node_budget=150, rng=random)
        for i in range(4):
            before = snapshot(g)
            m = ai.choose(g)
            assert snapshot(g) == before
            assert m in g.legal_moves()
            assert ai.nodes <= 150 + 40
            g.push(m)


def test_cpu_keeps_to_its_time_budget():
    random.seed(9)
    g = Reversi()
    for i in range(10):
        moves = g.legal_moves()
        g.push(moves[random.randrange(len(moves))])
    calls = [0]

    def progress(ai):
        calls[0] += 1

    # A clock that moves 5 ms each time the CPU looks at it (the emulator's
    # clock stands still while the CPU computes).
    now = [1000]

    def clock():
        now[0] += 5
        return now[0]

    ai = Ai(HARD, budget_ms=150, clock=clock, progress=progress)
    m = ai.choose(g)
    assert m in g.legal_moves() and not ai.exact
    assert 150 <= ai.elapsed_ms <= 150 + 10
    assert calls[0] >= 1 and ai.nodes > 0 and ai.depth >= 1


def test_cpu_progress_can_stop_it():
    g = Reversi()
    ai = Ai(HARD, budget_ms=0, progress=lambda ai: ai.nodes >= 64)
    m = ai.choose(g)
    assert m in g.legal_moves() and ai.stopped and ai.nodes < 100


def test_cpu_passes_and_sees_the_end():
    g = Reversi()
    g.set_position("XO" + "-" * 62, WHITE)
    ai = Ai(HARD, budget_ms=0, node_budget=100)
    assert ai.choose(g) == PASS
    g.push(PASS)
    assert ai.choose(g) == from_alg("c1")
    g.push(from_alg("c1"))
    assert ai.choose(g) is None


def brute(g):
    # Exact final disc difference (WOF scoring) for the side to move.
    moves = g.legal_moves()
    if not moves:
        b, w = g.final_score()
        return b - w if g.turn == BLACK else w - b
    best = -99
    for m in moves:
        g.push(m)
        v = -brute(g)
        g.pop()
        if v > best:
            best = v
    return best


def test_cpu_solves_small_endgames():
    random.seed(10)
    done = 0
    while done < 4:
        g = Reversi()
        while g.empties() > 5 and not g.is_game_over():
            moves = g.legal_moves()
            g.push(moves[random.randrange(len(moves))])
        if g.is_game_over() or g.must_pass():
            continue
        ai = Ai(HARD, budget_ms=0)
        m = ai.choose(g)
        assert ai.exact
        want = brute(g)
        assert ai.score // 4096 == want
        g.push(m)
        assert -brute(g) == want
        done += 1


# ---- the quick move counters against the plain rule -----------------------------
# gen_moves, mobility and has_moves each walk the board their own fast way;
# legal_moves asks flips_for about every square, the rule as written. On many
# seeded positions (from random games, and random boards that no game
# reaches) they must all agree, for both colours.
def placements(g, colour):
    """The squares where `colour` may place a disc, by the plain rule."""
    turn = g.turn
    g.turn = colour
    moves = [m for m in g.legal_moves() if m != PASS]
    g.turn = turn
    return moves


def assert_counters_agree(g):
    black = placements(g, BLACK)
    white = placements(g, WHITE)
    mine, theirs = (black, white) if g.turn == BLACK else (white, black)
    buf = bytearray(64)              # (a random board may have more than MOVE_STRIDE)
    assert g.gen_moves(buf, 0, BLACK) == len(black) and g.gen_moves(buf, 0, WHITE) == len(white)
    assert g.has_moves() == (len(mine) > 0) and g.has_moves(3 - g.turn) == (len(theirs) > 0)
    assert g.mobility() == len(black) * 64 + len(white), board_string(g)
    n = g.gen_moves(buf)
    assert sorted(buf[:n]) == mine
    assert g.is_game_over() == (not black and not white)


def test_move_counters_agree_with_legal_moves_in_random_games():
    random.seed(1616)
    positions = 0
    while positions < 1200:
        g = Reversi()
        while not g.is_game_over():
            assert_counters_agree(g)
            positions += 1
            moves = g.legal_moves()
            g.push(moves[random.randrange(len(moves))])
        assert_counters_agree(g)


def test_move_counters_agree_with_legal_moves_on_random_boards():
    random.seed(1617)
    g = Reversi()
    for i in range(800):
        # from nearly empty to nearly full, either side to move
        empty = random.randrange(2, 63)
        cells = ["-" if random.randrange(64) < empty else "XO"[random.randrange(2)]
                 for _ in range(64)]
        g.set_position("".join(cells), BLACK if i % 2 else WHITE)
        assert_counters_agree(g)
