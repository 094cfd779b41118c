"""The MicroPython heap bench (tools/bench/mp_heap.py) still runs: the menu
only, under the Node runner, through the loop its first line declares."""
import os
import re
import subprocess
import sys

import pytest

from tests.mprunner import NEEDS_RUNNER, NODE, ROOT, RUNNER

pytestmark = NEEDS_RUNNER


def test_heap_bench_reports_the_menu():
    # no --loop: the script's "# mprun: --loop step" line must be honoured
    done = subprocess.run([NODE, RUNNER, "--resets", "--script", "tools/bench/mp_heap.py", "--menu-only"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = dict(re.findall(r"^(boot|menu)\s+([0-9.]+)\s", done.stdout, re.M))
    assert set(rows) == {"boot", "menu"}, done.stdout
    menu_kb = float(rows["menu"])
    # the firmware's menu holds something, and far less than a whole ESP32 heap
    assert 5 < menu_kb < 110, done.stdout


def test_every_built_in_game_has_a_row_and_one_row_runs_alone():
    # bench_heap.py (make bench) boots afresh for each row that --rows lists
    import importlib.util
    from firmware import gamefiles
    titles = []
    for module in gamefiles.BUILT_IN:
        decl = __import__(module, None, None, ["GAME"]).GAME
        titles += [v["title"] for v in decl.get("variants", (decl,))]
    spec = importlib.util.spec_from_file_location(
        "bench_heap", os.path.join(ROOT, "tools", "bench", "bench_heap.py"))
    bench_heap = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_heap)
    rows = re.findall(r"^row: (.+)$", bench_heap.run(None, "--rows"), re.M)
    assert titles and [t for t in titles if t not in rows] == []
    assert "Reversi hard" in rows and "15-Puzzle 5x5 pictures" in rows   # declared in GAME["bench"]
    assert {"Records", "Settings", "About"} <= set(rows)
    shown = bench_heap.table(bench_heap.run(None, "--row", "About"))
    assert set(shown) == {"boot", "menu", "About"}      # that row and no other
    assert 5 < shown["About"][0] <= shown["About"][1] < 110
