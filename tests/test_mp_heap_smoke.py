"""The MicroPython heap bench (tools/bench/mp_heap.py) still runs: the menu
only, under the Node runner, through the loop its first line declares."""
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


def test_heap_bench_reports_the_menu():
    # no --loop: the script's "# mprun: --loop step" line must be honoured
    done = subprocess.run([NODE, RUNNER, "--script", "tools/bench/mp_heap.py", "--menu-only"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = dict(re.findall(r"^(boot|menu)\s+([0-9.]+)\s", done.stdout, re.M))
    assert set(rows) == {"boot", "menu"}, done.stdout
    menu_kb = float(rows["menu"])
    # the firmware's menu holds something, and far less than a whole ESP32 heap
    assert 5 < menu_kb < 110, done.stdout
