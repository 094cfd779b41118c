"""The clock's wait on real MicroPython (tests/mp_clock_wait.py under Node): a
select.poll takes the clock, and the callbacks the interrupts schedule (a
press, the frame timer) have run by the time the poll asks it, so a wait ends
on them at once. The emulator models this (tools/emu/board.py, SelectPoll);
this checks the model's premise on MicroPython's own VM."""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE = shutil.which("node")
RUNNER = os.path.join(ROOT, "tools", "mprun", "run.mjs")
MODULES = os.path.join(ROOT, "tools", "node_modules", "@micropython")

pytestmark = [
    pytest.mark.skipif(NODE is None, reason="node is not installed (the MicroPython runner needs Node 20)"),
    pytest.mark.skipif(not os.path.isdir(MODULES),
                       reason="tools/node_modules is missing: run `make deps` for the MicroPython runner"),
]


def test_a_scheduled_press_or_timer_ends_the_clocks_poll_at_once():
    done = subprocess.run([NODE, RUNNER, "--script", "tests/mp_clock_wait.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    got = dict(re.findall(r"^(\w+) (-?\d+)$", done.stdout, re.M))
    assert got["idle_ready"] == "0", done.stdout
    assert got["press_ready"] == "1", done.stdout
    assert got["timer_rang"] == "1", done.stdout
    # not the frame's 33 ms, nor the poll's 10 ms safety margin past it
    assert int(got["timer_wait_ms"]) < 5, done.stdout
