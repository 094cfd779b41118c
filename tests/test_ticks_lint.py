"""Every tick comparison in the firmware goes through time.ticks_diff (and
every tick sum through time.ticks_add): ticks_ms() wraps (every 2**30 ms on
the ESP32, 12 days), so `now >= self.until` or `now - self.t` is right for
half of the counter's range and wrong for the other half.

The check reads each firmware module's syntax tree: a name or attribute is a
tick when it is assigned a tick (ticks_ms(), ticks_us(), ticks_add(),
clock.now(), or another tick) or is a parameter called now / now_ms; an
ordering comparison (<, <=, >, >=) or a + / - with a tick on either side is
reported with its file and line."""
import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_TICK_CALLS = {"ticks_ms", "ticks_us", "ticks_cpu", "ticks_add", "now"}
_TICK_PARAMS = {"now", "now_ms"}


def _name(node):
    """'x' for x, 'attr' for anything.attr (tick attributes are per module)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_tick(node, ticks):
    if isinstance(node, ast.Call):
        return _name(node.func) in _TICK_CALLS
    return _name(node) in ticks


def _tick_names(tree):
    ticks = set(_TICK_PARAMS)
    while True:
        before = len(ticks)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and _is_tick(node.value, ticks):
                for target in node.targets:
                    if _name(target):
                        ticks.add(_name(target))
        if len(ticks) == before:
            return ticks


def raw_tick_arithmetic(source):
    """(line, code) of each ordering comparison or +/- made on raw ticks."""
    tree = ast.parse(source)
    ticks = _tick_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            ordered = any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in node.ops)
            sides = [node.left] + node.comparators
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, (ast.Add, ast.Sub)):
            ordered = True
            sides = [node.left, node.right] if isinstance(node, ast.BinOp) else [node.target, node.value]
        else:
            continue
        if ordered and any(_is_tick(side, ticks) for side in sides):
            found.append((node.lineno, ast.get_source_segment(source, node)))
    return found


def _firmware_files():
    out = []
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        out += [os.path.join(folder, f) for f in files if f.endswith(".py")]
    out += [os.path.join(ROOT, f) for f in ("main.py", "boot.py") if os.path.exists(os.path.join(ROOT, f))]
    return sorted(out)


def test_the_firmware_compares_ticks_only_through_ticks_diff():
    problems = []
    for path in _firmware_files():
        with open(path) as f:
            for line, code in raw_tick_arithmetic(f.read()):
                problems.append("%s:%d: %s" % (os.path.relpath(path, ROOT), line, code))
    assert not problems, "raw tick arithmetic (use time.ticks_diff/ticks_add):\n" + "\n".join(problems)


@pytest.mark.parametrize("code", [
    "def update(self, now):\n    if now >= self.until:\n        pass\n",
    "def f(self):\n    t = time.ticks_ms()\n    return t - self.start\n",
    "def f(self):\n    self.next = time.ticks_add(time.ticks_ms(), 5)\n    return self.next < time.ticks_ms()\n",
    "def f(self, now_ms):\n    self.last = now_ms\n\ndef g(self):\n    return self.last + 250\n",
])
def test_the_check_sees_raw_tick_arithmetic(code):
    assert raw_tick_arithmetic(code)


@pytest.mark.parametrize("code", [
    "def update(self, now):\n    if time.ticks_diff(now, self.until) >= 0:\n        pass\n",
    "def f(self, now):\n    self.t = time.ticks_add(now, 250)\n    return self.count + 1\n",
])
def test_the_check_passes_ticks_diff_and_ticks_add(code):
    assert not raw_tick_arithmetic(code)
