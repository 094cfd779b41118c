"""make board-check (tools/board_check.py) against the simulated serial board
(tools.boardsim: MicroPython's WebAssembly port behind a pty, as
tests/test_deploy_board.py uses it), with the real firmware deployed on it and
the emulator's `machine` stand-in in /lib (the port has no hardware)."""
import contextlib
import io
import os
import shutil

import pytest

from tools import board_check, deploy
from tools.boardsim import BoardSim
from tests.test_deploy_board import ROOT, _micropython_found

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not _micropython_found()
    or not os.path.exists(os.path.join(ROOT, "lib", "ssd1306.py")),
    reason="needs node, the MicroPython WebAssembly package and lib/ssd1306.py (make deps)")

MACHINE = os.path.join(ROOT, "tools", "emu", "mp_node", "machine.py")


@pytest.fixture
def sim():
    # 1 MB: this port hangs instead of raising MemoryError (README, "Play in
    # your browser"), and it collects no garbage inside a running call
    with BoardSim(heap=1024 * 1024) as board:
        yield board


def deployed(sim):
    with contextlib.redirect_stdout(io.StringIO()):
        assert deploy.main(["--port", sim.port, "--timeout", "3"]) == 0
    with open(MACHINE, "rb") as f:
        sim.put("/lib/machine.py", f.read())


def test_the_check_runs_the_rule_tests_measures_and_leaves_the_board_as_it_was(sim, tmp_path, capsys):
    deployed(sim)
    sim.put("/data/2048.json", b'{"board": []}\n12345')     # a save: only ever read
    sim.put("/bc_tmp/rules/stale.mpy", b"left by a check cut short")
    before = sim.files()
    assert board_check.main(["--port", sim.port, "--timeout", "5", "--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    after = sim.files()
    assert {p: d for p, d in before.items() if not p.startswith("/bc_tmp/")} == after
    assert "/bc_tmp" not in sim.dirs()
    saved = os.listdir(tmp_path / "backups")
    assert len(saved) == 1 and saved[0].startswith("board-check-")
    table = (tmp_path / "backups" / saved[0]).read_text()
    assert table.strip() in out
    assert "MicroPython v1.27.0 on webassembly, board file ml4m.py" in table
    for name in ("test_game2048.py", "test_npuzzle.py", "test_reversi.py"):
        assert "| %s" % name in table
    rules = [n for n in os.listdir(os.path.join(ROOT, "tests", "rules")) if n.startswith("test_")]
    assert table.count(" 0 failed |") == len(rules)
    for what in ("power-on to the menu", "a full frame", "a one-tile update", "press to pixels",
                 "Menu at a fresh boot", "2048 at a fresh boot", "Reversi at a fresh boot",
                 "Settings at a fresh boot", "8-puzzle first hint", "15-puzzle first hint",
                 "2048 hint", "Reversi CPU move, easy", "Reversi CPU move, medium",
                 "Reversi CPU move, hard"):
        assert what in table, what
    assert sim.events()[-1] == "soft reboot (friendly REPL)"      # the arcade starts again


def test_a_board_without_the_firmware_is_told_to_deploy_first(sim, tmp_path, capsys):
    assert board_check.main(["--port", sim.port, "--timeout", "5", "--root", str(tmp_path)]) == 1
    assert "no firmware on the board: run make deploy first" in capsys.readouterr().err
    assert not any(p.startswith("/bc_tmp") for p in sim.files())
