"""Memory for a whole day: no large table that must find one big free block
late in a session, and a MemoryError in something optional (a hint, the
demo, the best possible length) is a short note, not a crash screen."""
import pytest

from firmware import gamelist
from firmware.games import npuzzle_pdb8
from tests.test_app import boot, frames, patch, tap, wait


def _open(board, store_dir, title, monkeypatch=None, patches=()):
    """The game of a menu entry, in its own program (patches: (module, name,
    value) set in every program, before the game starts)."""
    arcade = boot(board, store_dir)
    for module, name, value in patches:
        patch(arcade, monkeypatch, module, name, value)
    frames(arcade, 2)
    arcade.play(title)
    frames(arcade, 2)
    return arcade


def _no_memory(*args, **kwargs):
    raise MemoryError()


def test_the_8_puzzle_tables_come_in_pieces_of_1_kb():
    assert len(npuzzle_pdb8.PIECES) == 7
    assert all(len(piece) <= 1024 for piece in npuzzle_pdb8.PIECES)
    assert sum(len(piece) for piece in npuzzle_pdb8.PIECES) == (2 * 6561 + 1) // 2


def test_no_memory_for_a_puzzle_hint_is_a_note(board, store_dir, monkeypatch):
    arcade = _open(board, store_dir, "8-Puzzle")
    # loaded here (patch imports it): stays loaded while the game borrows it
    patch(arcade, monkeypatch, "firmware.games.npuzzle_hints", "hint", _no_memory)
    tap(board, arcade, "D")
    frames(arcade, 3)
    game = arcade.screen
    assert type(game).__name__ == "Game" and game.message == "NO MEM FOR HINT"
    board.press("D")                          # hold D: the solve has no memory either
    wait(arcade, 1500)
    board.release("D")
    frames(arcade, 3)
    assert type(arcade.screen).__name__ == "Game" and game.puzzle.moves == 0
    monkeypatch.undo()
    tap(board, arcade, "D")                   # memory again: the hint works
    frames(arcade, 3)
    assert game.hint_index >= 0


def test_no_memory_for_the_best_possible_length_is_a_note(board, store_dir, monkeypatch):
    arcade = _open(board, store_dir, "8-Puzzle", monkeypatch,
                   [("firmware.games.npuzzle_solver", "optimal_length8", _no_memory)])
    game = arcade.screen
    assert type(game).__name__ == "Game"
    assert game.optimal is None and game.message == "NO MEM FOR BEST"


@pytest.mark.parametrize("hold", [False, True], ids=["hint", "demo"])
def test_no_memory_for_the_2048_ai_is_a_note(board, store_dir, monkeypatch, hold):
    arcade = _open(board, store_dir, "2048")
    patch(arcade, monkeypatch, "firmware.games.ai2048", "Expectimax.best_move", _no_memory)
    board.press("D")
    wait(arcade, 1500 if hold else 100)
    board.release("D")
    frames(arcade, 2)
    game = arcade.screen
    assert type(game).__name__ == "Game" and game.message == "NO MEM FOR HINT"
    assert game.game.moves == 0 and not game.demo


def test_no_memory_for_the_cpus_move_is_a_note_and_the_board_is_kept(board, store_dir, monkeypatch):
    import sys
    import types
    arcade = _open(board, store_dir, "Reversi")    # the default mode: you black, the CPU white
    game = arcade.screen
    rules = game.game

    def search_runs_out(screen, now):        # the search had gone a move deep, then no memory
        rules.push(rules.legal_moves()[0])
        raise MemoryError()

    no_memory = types.ModuleType("firmware.screens.reversi_cpu")
    no_memory.move = search_runs_out
    monkeypatch.setitem(sys.modules, "firmware.screens.reversi_cpu", no_memory)
    tap(board, arcade, "A")                  # black's first move; then the CPU's turn
    wait(arcade, 1000)
    assert type(arcade.screen).__name__ == "Game" and game.message == "NO MEM: WAIT"
    assert rules.ply == 1 and game.cpu_plays(rules.turn)   # as it was before the search
    monkeypatch.undo()                       # memory again: the CPU plays after its pause
    wait(arcade, 3000)
    assert rules.ply == 2 and not game.cpu_plays(rules.turn)
