# 2048 rules, run on CPython (pytest) and on MicroPython (tools/mprun).
import random

from firmware.games import ai2048
from firmware.games import IllegalMove
from firmware.games.game2048 import (
    DOWN, LEFT, LINES, NO_CELL, RIGHT, UP, Game2048, slide_line_code,
)

CELLS = 16


def tile_value(e):
    return (1 << e) if e else 0


def line_code(a, b, c, d):
    return a | (b << 5) | (c << 10) | (d << 15)


def _exps(values):
    out = []
    for v in values:
        e = 0
        while v > 1:
            v >>= 1
            e += 1
        out.append(e)
    return out


def _game(values=None, seed=1):
    random.seed(seed)
    g = Game2048(random)
    if values is not None:
        g.board[:] = bytearray(_exps(values))
    return g


def _values(g):
    return [tile_value(e) for e in g.board]


def _put_line(g, direction, values):
    # values listed from the wall the tiles move toward, in line 0 of
    # `direction`; all other cells empty
    for i in range(CELLS):
        g.board[i] = 0
    line = LINES[direction][0]
    for k in range(4):
        g.board[line[k]] = _exps([values[k]])[0]


def _get_line(g, direction):
    line = LINES[direction][0]
    return [tile_value(g.board[line[k]]) for k in range(4)]


# Each case: (line before, line after), both read from the wall.
_LINE_CASES = (
    ([2, 2, 2, 2], [4, 4, 0, 0]),
    ([2, 2, 2, 0], [4, 2, 0, 0]),
    ([4, 4, 8, 0], [8, 8, 0, 0]),
    ([4, 0, 0, 4], [8, 0, 0, 0]),
    ([0, 0, 0, 2], [2, 0, 0, 0]),
    ([2, 4, 8, 16], [2, 4, 8, 16]),
    ([8, 8, 4, 4], [16, 8, 0, 0]),
    ([2, 0, 2, 2], [4, 2, 0, 0]),
)


def _slide_line_without_spawn(direction, before):
    g = _game()
    _put_line(g, direction, before)
    changed = g.slide(direction)
    if changed:
        g.board[g.spawn_at] = 0        # take the new tile out to compare
    return changed, _get_line(g, direction)


def test_row_vectors_in_all_four_directions():
    for direction in (LEFT, RIGHT, UP, DOWN):
        for before, after in _LINE_CASES:
            changed, got = _slide_line_without_spawn(direction, before)
            assert got == after, (direction, before, got)
            assert changed == (before != after)


def test_the_article_bug_case_right():
    # [2,2,0,4] right: the 2s merge, the 4 does not merge with the new 4
    g = _game([2, 2, 0, 4] + [0] * 12)
    assert g.slide(RIGHT)
    g.board[g.spawn_at] = 0
    assert _values(g)[:4] == [0, 0, 4, 4]
    assert g.score == 4


def test_rows_move_independently():
    g = _game([2, 2, 0, 0,
               0, 0, 0, 0,
               4, 0, 4, 0,
               2, 4, 8, 16])
    assert g.slide(LEFT)
    g.board[g.spawn_at] = 0
    assert _values(g) == [4, 0, 0, 0,
                          0, 0, 0, 0,
                          8, 0, 0, 0,
                          2, 4, 8, 16]
    assert g.score == 12
    assert sum(g.merged) == 2


def test_score_adds_each_merged_value():
    g = _game([2, 2, 4, 4,
               8, 8, 8, 8,
               0, 0, 0, 0,
               0, 0, 0, 0])
    g.score = 100
    assert g.slide(LEFT)
    assert g.score == 100 + 4 + 8 + 16 + 16
    assert g.moves == 1


def test_move_report():
    g = _game([2, 2, 0, 4] + [0] * 12)
    assert g.slide(RIGHT)
    assert g.moved_to[0] == 2 and g.moved_to[1] == 2 and g.moved_to[3] == 3
    assert g.moved_to[2] == NO_CELL
    assert g.merged[2] == 1 and g.merged[3] == 0
    assert g.last_merge_max == 2
    assert g.spawn_at >= 0 and g.board[g.spawn_at] in (1, 2)


def test_a_move_that_changes_nothing_is_not_a_move():
    g = _game([2, 4, 8, 16] + [0] * 12)
    before = bytearray(g.board)
    assert not g.can_slide(LEFT)
    assert not g.slide(LEFT)
    assert g.board == before and g.moves == 0 and g.score == 0
    assert not g.can_undo
    assert g.can_slide(DOWN) and not g.can_slide(RIGHT) and not g.can_slide(UP)


def test_new_game_has_two_tiles():
    for seed in range(20):
        g = _game(seed=seed)
        g.new_game()
        tiles = [e for e in g.board if e]
        assert len(tiles) == 2
        assert all(e in (1, 2) for e in tiles)
        assert g.score == 0 and g.moves == 0 and not g.won


def test_full_board_with_a_merge_is_not_over():
    g = _game([2, 4, 2, 4,
               4, 2, 4, 2,
               2, 4, 2, 4,
               4, 2, 8, 8])
    assert not g.is_over()
    assert not g.can_slide(UP) and not g.can_slide(DOWN)
    assert g.can_slide(LEFT) and g.can_slide(RIGHT)


def test_full_board_with_a_vertical_merge_is_not_over():
    g = _game([2, 4, 2, 4,
               4, 2, 4, 2,
               2, 4, 2, 8,
               4, 2, 4, 8])
    assert not g.is_over()
    assert g.can_slide(UP) and not g.can_slide(LEFT)


def test_full_board_without_a_merge_is_over():
    g = _game([2, 4, 2, 4,
               4, 2, 4, 2,
               2, 4, 2, 4,
               4, 2, 4, 2])
    assert g.is_over()
    for d in (LEFT, RIGHT, UP, DOWN):
        assert not g.slide(d)


def test_undo_restores_board_score_and_spawn():
    g = _game(seed=5)
    g.new_game()
    for d in (LEFT, UP, RIGHT, DOWN, LEFT, UP):
        g.slide(d)
    before = bytearray(g.board)
    score, moves = g.score, g.moves
    d = LEFT
    while not g.slide(d):
        d += 1
    assert g.board != before
    assert g.undo()
    assert g.board == before and g.score == score and g.moves == moves
    assert not g.undo()            # one level only
    assert g.spawn_at == -1


def test_win_waits_then_keeps_going():
    g = _game([1024, 1024, 0, 0] + [0] * 12)
    assert not g.won
    assert g.slide(LEFT)
    assert g.won and not g.keep_going and g.max_tile() == 2048
    assert g.score == 2048
    assert not g.slide(DOWN)        # the win screen is up
    assert g.undo() and not g.won   # the winning move taken back
    assert g.slide(LEFT) and g.won
    g.keep_going = True
    moved = False
    for d in (DOWN, RIGHT, UP, LEFT):
        moved = g.slide(d) or moved
    assert moved and g.won


def test_tiles_beyond_2048_up_to_131072():
    g = _game([65536, 65536, 0, 0] + [0] * 12)
    g.won = True
    g.keep_going = True
    assert g.slide(LEFT)
    assert g.max_tile() == 131072 and max(g.board) == 17
    assert g.score == 131072
    assert g.last_merge_max == 17


def test_save_and_restore_round_trip():
    g = _game(seed=9)
    g.new_game()
    for d in (LEFT, UP, RIGHT, DOWN) * 5:
        g.slide(d)
    data = g.to_dict()
    h = _game(seed=10)
    h.from_dict(data)
    assert h.board == g.board and h.score == g.score and h.moves == g.moves
    assert h.won == g.won and h.keep_going == g.keep_going
    assert h.can_undo == g.can_undo
    assert h.undo() and g.undo()
    assert h.board == g.board and h.score == g.score
    assert h.to_dict() == g.to_dict()


def test_restore_rejects_a_broken_save():
    g = _game(seed=3)
    g.new_game()
    before = bytearray(g.board)
    for bad in ({}, {"board": [0] * 15, "score": 0, "moves": 0},
                {"board": [40] * 16, "score": 0, "moves": 0},
                {"board": [0] * 16, "score": -1, "moves": 0}):
        try:
            g.from_dict(bad)
            assert False, bad
        except ValueError:
            pass
    assert g.board == before


def test_a_save_with_two_top_tiles_that_could_merge_is_refused():
    g = _game()
    for cells in ([17, 17] + [0] * 14, [17, 0, 0, 17] + [0] * 12, [17] + [0] * 3 + [17] + [0] * 11):
        try:
            g.from_dict({"board": cells, "score": 0, "moves": 1})
            assert False, cells
        except ValueError:
            pass
    # apart, with a tile between them, they can never meet: a legal board
    g.from_dict({"board": [17, 1, 17] + [0] * 13, "score": 0, "moves": 1})
    assert g.board[0] == 17 and g.board[2] == 17


def test_a_save_of_the_wrong_types_is_refused():
    g = _game()
    for bad in ({"board": [0] * 16, "score": 1.5, "moves": 0},
                {"board": [0] * 16, "score": True, "moves": 0},
                {"board": [0.0] * 16, "score": 0, "moves": 0},
                {"board": [0] * 16, "score": 0, "moves": 0, "won": 1},
                {"board": [0] * 16, "score": 0, "moves": 0, "undo": [1]}):
        try:
            g.from_dict(bad)
            assert False, bad
        except ValueError:
            pass


def test_line_codes_agree_with_the_game():
    random.seed(4)
    for _ in range(200):
        line = [random.randrange(4) for _ in range(4)]
        code = line_code(line[0], line[1], line[2], line[3])
        g = _game()
        _put_line(g, LEFT, [tile_value(e) for e in line])
        g.slide(LEFT)
        if g.spawn_at >= 0:
            g.board[g.spawn_at] = 0
        b = g.board
        assert slide_line_code(code) == line_code(b[0], b[1], b[2], b[3])


def test_ai_slides_like_the_game():
    # one game for all 40 boards: _game() seeds random, and made inside the
    # loop it gave the same board every pass
    g = _game()
    random.seed(6)
    ai = ai2048.Expectimax(max_nodes=50)
    out = bytearray(CELLS)
    seen = set()
    for _ in range(40):
        for i in range(CELLS):
            g.board[i] = random.randrange(4)
        board = bytearray(g.board)
        seen.add(bytes(board))
        for d in (LEFT, RIGHT, UP, DOWN):
            g.board[:] = board
            g.won = False
            changed = ai.slide(board, out, d)
            assert changed == g.slide(d)
            if changed:
                g.board[g.spawn_at] = 0
                assert out == g.board
    assert len(seen) >= 35          # 40 boards, not one board 40 times


def test_ai_returns_a_legal_move():
    ai = ai2048.Expectimax(max_nodes=150)
    g = _game(seed=2)
    g.new_game()
    for _ in range(10):
        d = ai.best_move(g.board)
        assert d in (LEFT, RIGHT, UP, DOWN)
        assert g.can_slide(d)
        assert ai.depth >= 1
        assert g.slide(d)
    # only one legal move: it is found
    g = _game([2, 4, 2, 4,
               4, 2, 4, 2,
               2, 4, 2, 4,
               4, 2, 4, 0])
    assert ai.best_move(g.board) in (RIGHT, DOWN)
    g = _game([2, 4, 2, 4,
               4, 2, 4, 2,
               2, 4, 2, 4,
               4, 2, 4, 2])
    assert ai.best_move(g.board) == -1


def test_ai_answers_within_its_time_budget():
    # a fake clock that advances 1 ms per reading: the search must stop
    # deepening and still answer
    now = [0]

    def clock():
        now[0] += 1
        return now[0]

    ai = ai2048.Expectimax(budget_ms=5, max_nodes=0, clock=clock)
    g = _game(seed=8)
    g.new_game()
    d = ai.best_move(g.board)
    assert g.can_slide(d)
    assert ai.depth >= 1 and ai.depth < ai.max_depth
    assert now[0] <= 8                 # stopped soon after the 5 ms


def test_ai_node_cap_is_deterministic():
    g = _game(seed=12)
    g.new_game()
    a = ai2048.Expectimax(budget_ms=0, max_nodes=200)
    b = ai2048.Expectimax(budget_ms=0, max_nodes=200)
    for _ in range(5):
        d = a.best_move(g.board)
        assert b.best_move(g.board) == d and a.nodes == b.nodes
        assert a.nodes <= 200 + 64
        g.slide(d)


def test_ai_begins_no_depth_its_cap_cannot_finish():
    # an open board: depth 2 costs ~150 evaluations and depth 3 would cost
    # ~50 times that; it is not begun, so the cap is not even reached
    g = _game(seed=4)
    g.new_game()
    ai = ai2048.Expectimax(budget_ms=0)
    ai.best_move(g.board)
    assert ai.depth == 2 and 0 < ai.nodes < ai2048.BOARD_NODES


def test_ai_searches_deeper_on_a_crowded_board():
    # three empty cells: the cap grows (ai2048.CROWDED), and depth 3 fits
    g = _game([2, 4, 8, 16,
               32, 64, 128, 256,
               2, 8, 2, 512,
               0, 0, 0, 1024])
    assert ai2048.CROWDED[3] > ai2048.CROWDED[16]
    ai = ai2048.Expectimax(budget_ms=0)
    d = ai.best_move(g.board)
    assert g.can_slide(d)
    assert ai.depth >= 3 and ai.nodes > ai2048.BOARD_NODES
    assert ai.nodes <= ai2048.BOARD_NODES * ai2048.CROWDED[3] // 4 + 64
    # a smaller cap on the same board: the search stops at depth 2, in time
    small = ai2048.Expectimax(budget_ms=0, max_nodes=20)
    assert small.best_move(g.board) >= 0 and small.depth <= 2


def test_ai_looks_deeper_on_a_crowded_board_once_2048_is_made():
    # six empty cells, 256 the biggest tile: depth 2 (depth 3 is guessed at
    # depth 2's cost squared over depth 1's, more than the cap)
    young = [2, 4, 8, 16,
             32, 64, 128, 256,
             4, 8, 0, 0,
             0, 0, 0, 0]
    ai = ai2048.Expectimax(budget_ms=0)
    g = _game(young)
    assert g.can_slide(ai.best_move(g.board)) and ai.depth == 2
    # the same with 2048 for 256: ten times the cap (3,000) and depth 3,
    # which costs ~1,400 here
    g = _game(young[:7] + [2048] + young[8:])
    assert g.can_slide(ai.best_move(g.board)) and ai.depth == 3
    assert ai2048.BOARD_NODES * ai2048.CROWDED[6] // 4 < ai.nodes <= ai2048.BOARD_NODES * 10


def test_a_direction_that_is_none_of_the_four_is_an_illegal_move():
    random.seed(3)
    g = Game2048(random)
    before = bytes(g.board)
    for bad in (4, -1, 99):
        try:
            g.slide(bad)
            assert False, bad
        except IllegalMove as e:
            assert isinstance(e, ValueError)
    assert bytes(g.board) == before and g.moves == 0
