"""The ML4M emulated on a PC.

    import tools.emu; tools.emu.install()
    board = tools.emu.Board()

install() makes CPython look like MicroPython on the ML4M to the firmware: the repo
root and lib/ go on sys.path, the stand-in modules in tools/emu/mp/ (machine,
framebuf, micropython) shadow anything else, and CPython's `time` gains
MicroPython's ticks_*/sleep_* functions, driven by the current board's virtual clock.
"""
import os
import sys
import time

from tools.emu.board import Board, StopEmulation, ResetRequested, ML4M, DEVKIT_PROTO, current

_HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(_HERE))

TICKS_PERIOD = 1 << 30
_TICKS_MAX = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD // 2


def ticks_ms():
    return current().ticks_ms()


def ticks_us():
    return current().ticks_us()


def ticks_cpu():
    return current().ticks_cpu()


def ticks_diff(ticks1, ticks2):
    """Signed distance ticks1 - ticks2, correct across the wrap (like the port)."""
    return ((ticks1 - ticks2 + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


def ticks_add(ticks, delta):
    if not -_TICKS_HALF <= delta < _TICKS_HALF:
        raise OverflowError("ticks interval overflow")
    return (ticks + delta) & _TICKS_MAX


def sleep_ms(ms):
    current().sleep_ms(ms)


def sleep_us(us):
    current().sleep_us(us)


def install():
    """Idempotent: safe to call from every conftest, script and simulator."""
    paths = [os.path.join(ROOT, "tools", "emu", "mp"), os.path.join(ROOT, "lib"), ROOT]
    for path in paths:
        while path in sys.path:
            sys.path.remove(path)
    # Front of the list, in order: stand-ins first so they shadow anything installed.
    sys.path[0:0] = paths
    for name, fn in (("ticks_ms", ticks_ms), ("ticks_us", ticks_us), ("ticks_cpu", ticks_cpu),
                     ("ticks_diff", ticks_diff), ("ticks_add", ticks_add),
                     ("sleep_ms", sleep_ms), ("sleep_us", sleep_us)):
        setattr(time, name, fn)
    # `import utime` still appears in older MicroPython code.
    sys.modules.setdefault("utime", time)
    _add_gc_figures()


def _add_gc_figures():
    # MicroPython's gc.mem_free()/mem_alloc() exist on the board; give plausible
    # figures on the PC so status screens work (real numbers come from the runner).
    import gc
    if not hasattr(gc, "mem_free"):
        gc.mem_free = lambda: 91168
    if not hasattr(gc, "mem_alloc"):
        gc.mem_alloc = lambda: 20000


__all__ = ["Board", "StopEmulation", "ResetRequested", "ML4M", "DEVKIT_PROTO", "install",
           "current"]
