"""The clock's wait on real MicroPython (tests/mp_clock_wait.py under Node): a
select.poll takes the clock, the callback a press's interrupt schedules has
run by the time the poll asks it (so a wait ends on the press at once), and
the clock is ready when its frame is due. The emulator models this
(tools/emu/board.py, SelectPoll); this checks the model's premise on
MicroPython's own VM."""
import re
import subprocess

import pytest

from tests.mprunner import NEEDS_RUNNER, NODE, ROOT, RUNNER

pytestmark = NEEDS_RUNNER


def test_a_scheduled_press_or_the_frames_time_ends_the_clocks_poll():
    done = subprocess.run([NODE, RUNNER, "--script", "tests/mp_clock_wait.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    got = dict(re.findall(r"^(\w+) (-?\d+)$", done.stdout, re.M))
    assert got["idle_ready"] == "0", done.stdout
    assert got["press_ready"] == "1", done.stdout
    assert got["due_ready"] == "1", done.stdout
    # a whole wait lasts until the frame is due (not less; how much more
    # depends on the host, so it is not checked here: the emulator's tests do)
    assert int(got["wait_us"]) >= 33_000, done.stdout
    assert got["on_schedule"] == "1", done.stdout
