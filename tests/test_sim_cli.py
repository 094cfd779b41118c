"""The simulator's command line and the host tools' rough edges: the flash
folder's lock, clear one-line errors, where screenshots go, the PNG's
brightness, tools/sim.py run as written, make help and the README's tables."""
import os
import subprocess
import sys

import pytest

from tools.simulator import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim.py")
DEMO = "tests/sim_demo_main.py"


def run_sim(*args, cwd=ROOT):
    return subprocess.run([sys.executable, SIM] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=60)


# ---- the flash folder ----------------------------------------------------------------
def test_two_simulators_on_one_flash_folder(tmp_path):
    flash = tmp_path / "flash"
    lock, problem = cli.open_flash(str(flash))
    assert problem is None and flash.is_dir()
    try:
        result = run_sim("--headless", "--seconds", "0.1", "--main", DEMO, "--flash", str(flash))
        assert result.returncode == 1
        assert result.stderr == "sim: another simulator is using %s; use --flash DIR\n" % flash
        other = run_sim("--headless", "--seconds", "0.1", "--main", DEMO,
                        "--flash", str(tmp_path / "other"))
        assert other.returncode == 0, other.stderr
    finally:
        lock.close()
    again = run_sim("--headless", "--seconds", "0.1", "--main", DEMO, "--flash", str(flash))
    assert again.returncode == 0, again.stderr           # let go when the first one ended
    assert os.listdir(flash) == []                       # the lock is not in the board's files


def test_a_flash_path_that_is_a_file_is_one_clear_line(tmp_path):
    path = tmp_path / "saves"
    path.write_text("not a folder")
    result = run_sim("--headless", "--seconds", "0.1", "--main", DEMO, "--flash", str(path))
    assert result.returncode == 1
    assert result.stderr == ("sim: %s is a file, not a folder: use --flash DIR with a folder\n"
                             % path)
