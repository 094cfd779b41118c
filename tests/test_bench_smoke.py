"""The quick benchmarks still run against the code as it is now (a bench that
reaches into the firmware breaks silently otherwise: nothing else runs it
until `make bench`). The slow ones (AI strength, the 2048 games, the whole
heap table) are left to `make bench`; mp_heap.py has a smoke test of its own."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE = shutil.which("node")
RUNNER = os.path.join(ROOT, "tools", "mprun", "run.mjs")
MODULES = os.path.join(ROOT, "tools", "node_modules", "@micropython")

QUICK_CPYTHON = ["bench_hal.py", "bench_boot.py", "bench_2048_screen.py", "bench_puzzle_screen.py"]
QUICK_MICROPYTHON = ["mp_hal.py", "mp_2048_screen.py", "mp_puzzle_screen.py", "mp_npuzzle.py"]


def check(done, name):
    assert done.returncode == 0, name + ":\n" + done.stdout + done.stderr
    # a table came out: a header and rows with figures in them
    lines = [line for line in done.stdout.splitlines() if any(ch.isdigit() for ch in line)]
    assert len(lines) >= 3, name + ":\n" + done.stdout


@pytest.mark.parametrize("name", QUICK_CPYTHON)
def test_quick_cpython_bench_runs(name):
    done = subprocess.run([sys.executable, os.path.join("tools", "bench", name)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    check(done, name)


@pytest.mark.skipif(NODE is None or not os.path.isdir(MODULES),
                    reason="the MicroPython runner needs Node and `make deps`")
@pytest.mark.parametrize("name", QUICK_MICROPYTHON)
def test_quick_micropython_bench_runs(name):
    # from source here (make bench loads the .mpy build): the same code paths
    done = subprocess.run([NODE, RUNNER, "--script", "tools/bench/" + name],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    check(done, name)


def test_tune_2048_plays_with_the_settings_it_is_given():
    # two weak, quick games (one evaluation a direction): the settings named
    # reach the search, and a name the module does not have is refused
    tune = [sys.executable, os.path.join("tools", "bench", "tune_2048.py")]
    done = subprocess.run(tune + ["1", "2", "BOARD_NODES=20", "MAX_DEPTH=1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "seeds 1..2" in done.stdout and "depth 1.00" in done.stdout
    assert done.stdout.count("game ") == 2
    done = subprocess.run(tune + ["1", "1", "_W_NOPE=3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "ai2048 has no setting _W_NOPE" in done.stderr
