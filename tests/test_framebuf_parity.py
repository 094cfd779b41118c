"""The framebuf stand-in draws the same bytes as MicroPython's own framebuf.

tests/parity/draw_ops.py draws several hundred operations (every primitive, every format, random
and edge-case arguments) and prints the buffers. It runs once on CPython with the stand-in and
once on real MicroPython (WebAssembly, through tools/mprun/run.mjs); the outputs must be equal.
A difference is reported as the first differing case, its operation and the differing pixels.
"""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = "tests/parity/draw_ops.py"
STAND_IN = os.path.join(ROOT, "tools", "emu", "mp")
RUNNER = os.path.join(ROOT, "tools", "mprun", "run.mjs")


def run_cpython(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([STAND_IN] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def run_micropython(*args):
    return subprocess.run(["node", RUNNER, "--script", SCRIPT, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def split_cases(output):
    """[(header, [lines])] for every "case ..." block of draw_ops.py's output."""
    cases = []
    for line in output.splitlines():
        if line.startswith("case ") or not cases:
            cases.append((line, []))
        else:
            cases[-1][1].append(line)
    return cases


def pixel_differences(header, expected_hex, got_hex, limit=12):
    """Describe differing pixels, when the header names a format and a WxH/stride size."""
    import framebuf  # the stand-in (tests/conftest.py installs it)

    m = re.match(r"case \d+ (\w+) (\d+)x(\d+)/(\d+)$", header)
    if not m or not hasattr(framebuf, m.group(1)):
        return ""
    fmt = getattr(framebuf, m.group(1))
    w, h, stride = int(m.group(2)), int(m.group(3)), int(m.group(4))
    try:
        want = framebuf.FrameBuffer(bytearray.fromhex(expected_hex), w, h, fmt, stride)
        got = framebuf.FrameBuffer(bytearray.fromhex(got_hex), w, h, fmt, stride)
    except (ValueError, TypeError):
        return ""
    diffs = [(x, y, want.pixel(x, y), got.pixel(x, y)) for y in range(h) for x in range(w)
             if want.pixel(x, y) != got.pixel(x, y)]
    shown = ", ".join("(%d,%d) MicroPython %d stand-in %d" % d for d in diffs[:limit])
    more = " ... %d more" % (len(diffs) - limit) if len(diffs) > limit else ""
    return "\n  %d differing pixels (x,y): %s%s" % (len(diffs), shown, more)


def explain_first_difference(expected, got):
    """A readable account of where the stand-in's output first departs from MicroPython's."""
    want_cases, got_cases = split_cases(expected), split_cases(got)
    for (want_head, want_lines), (got_head, got_lines) in zip(want_cases, got_cases):
        if (want_head, want_lines) == (got_head, got_lines):
            continue
        number = want_head.split()[1] if want_head.startswith("case ") else ""
        lines = ["first differing case: " + want_head]
        if got_head != want_head:
            lines.append("  (the stand-in printed: %s)" % got_head)
        lines += ["  " + line[:600] for line in want_lines if line.startswith("do ")]
        for i in range(max(len(want_lines), len(got_lines))):
            a = want_lines[i] if i < len(want_lines) else "<nothing>"
            b = got_lines[i] if i < len(got_lines) else "<nothing>"
            if a == b:
                continue
            if a.startswith("= ") and b.startswith("= "):
                offset = next((k for k in range(0, min(len(a), len(b)) - 2, 2) if a[k + 2:k + 4] != b[k + 2:k + 4]), 0)
                lines.append("  buffer bytes first differ at byte %d: MicroPython %s, stand-in %s"
                             % (offset // 2, a[offset + 2:offset + 4], b[offset + 2:offset + 4]))
                lines.append(pixel_differences(want_head, a[2:], b[2:]).lstrip("\n"))
            else:
                lines.append("  MicroPython: " + a[:300])
                lines.append("  stand-in:    " + b[:300])
            break
        if number:
            lines.append("  rerun just this case: PYTHONPATH=tools/emu/mp python %s %s  /  "
                         "node tools/mprun/run.mjs --script %s %s" % (SCRIPT, number, SCRIPT, number))
        return "\n".join(line for line in lines if line)
    return "outputs differ in length: MicroPython %d cases, stand-in %d cases" % (len(want_cases), len(got_cases))


@pytest.fixture(scope="module")
def micropython_output():
    if not os.path.exists(RUNNER):
        pytest.fail("tools/mprun/run.mjs is missing: the parity test needs the MicroPython runner")
    result = run_micropython()
    assert result.returncode == 0, "MicroPython run failed (is `make deps` done?):\n" + result.stderr[-3000:]
    return result.stdout


def test_stand_in_draws_the_same_bytes_as_micropython(micropython_output):
    cpython = run_cpython()
    assert cpython.returncode == 0, "draw_ops.py failed on CPython:\n" + cpython.stderr[-3000:]
    # Both runs must be real: hundreds of cases, finished, and a built-in framebuf on MicroPython.
    done = re.search(r"^done (\d+)$", micropython_output, re.M)
    assert done and int(done.group(1)) >= 500, "MicroPython run did not finish: " + micropython_output[-500:]
    if cpython.stdout != micropython_output:
        pytest.fail(explain_first_difference(micropython_output, cpython.stdout), pytrace=False)


def test_the_comparison_would_notice_a_one_pixel_difference(micropython_output):
    """Guard against a vacuous pass: flip one bit of one buffer and the explanation points at it."""
    cases = split_cases(micropython_output)
    header, lines = next((h, ls) for h, ls in cases if h.split()[2:3] == ["MONO_VLSB"] and "/" in h)
    dump = next(line for line in lines if line.startswith("= "))
    first = int(dump[2:4], 16) ^ 0x01
    changed = micropython_output.replace(dump, "= %02x%s" % (first, dump[4:]), 1)
    assert changed != micropython_output
    report = explain_first_difference(micropython_output, changed)
    assert header[:60] in report
    assert "1 differing pixels (x,y): (0,0)" in report
