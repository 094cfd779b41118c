"""Power-on to a drawn menu on the emulated ML4M (virtual time: modeled I2C bus
time at 400 kHz plus the firmware's sleeps and frame pacing).

The boot follows firmware.app.main(): the HAL (panel init, joystick
calibration), the safe-boot check, the App, the splash, then frames until the
menu has been drawn and flushed to the panel (the menu starts a program of
its own: a soft reset after the splash, tools/emu/runner.py). Two cases: nobody touches
anything (the splash stays its full time), and A pressed as soon as the splash
is on the panel (the splash skipped). Python's own import and compile time is
not modeled (on the ESP32 it comes on top: loading the firmware's .mpy files).
Also: the bus bytes of the panel init and of each of the first frames.

Run from the repo root:  python tools/bench/bench_boot.py
"""
import os
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()

import firmware.boards.ml4m as ml4m  # noqa: E402
from tools.emu.runner import Runner  # noqa: E402

MAX_FRAMES = 300


def boot(skip, store_dir):
    """Returns (ms to menu, frames, [(what, bus bytes, bus ms, virtual ms at end)])."""
    board = tools.emu.Board()
    log = []
    mark = [0, 0.0]

    def note(what):
        bus = board.bus
        log.append((what, bus.bytes - mark[0], (bus.time_us - mark[1]) / 1000, board.now_ms()))
        mark[0] = bus.bytes
        mark[1] = bus.time_us

    t0 = board.now_ms()
    arcade = Runner(board, store_dir, ml4m)   # as main.py: the HAL (panel init), the App
    note("HAL (panel init) and App")
    frames = 0
    while frames < MAX_FRAMES:
        was_menu = type(arcade.screen).__name__ == "Menu"
        resets = arcade.resets
        arcade.step()
        frames += 1
        name = type(arcade.screen).__name__
        note("frame %d (%s%s)" % (frames, name, ", a reset" if arcade.resets != resets else ""))
        if skip and frames == 1:
            board.press("A")                # a thumb on A once the splash shows
        if name == "Menu" and not was_menu and arcade.resets == resets:
            break                           # drawn and flushed in this step
        if was_menu:
            break                           # (the menu's program's first frame)
    board.release("A")
    return board.now_ms() - t0, frames, log


def _until_drawn(board, arcade, screen):
    """Frames until screen's first frame is on the panel (after a reset, the
    step after the one that started its program); returns virtual ms."""
    t0 = board.now_ms()
    for _ in range(60):
        resets = arcade.resets
        arcade.step()
        if type(arcade.screen).__name__ == screen and arcade.resets == resets:
            return board.now_ms() - t0
    raise RuntimeError("no %s" % screen)


def launches(store_dir):
    """A on each game's menu entry -> its first frame on the panel, and B ->
    the menu's: [(title, A ms, B ms)] (virtual: the frame that sees the
    press, the reset, the new program's first frame and its bus time)."""
    board = tools.emu.Board()
    arcade = Runner(board, store_dir, ml4m)
    _until_drawn(board, arcade, "Splash")
    board.press("A")
    _until_drawn(board, arcade, "Menu")
    board.release("A")
    _until_drawn(board, arcade, "Menu")
    found = []
    for title in ("15-Puzzle", "8-Puzzle", "2048", "Reversi"):
        menu = arcade.screen
        menu.cursor = menu.labels.index(title)
        board.press("A")
        a = _until_drawn(board, arcade, "Game")
        board.release("A")
        _until_drawn(board, arcade, "Game")
        board.press("B")
        b = _until_drawn(board, arcade, "Menu")
        board.release("B")
        _until_drawn(board, arcade, "Menu")
        found.append((title, a, b))
    return found


def main():
    print("Power-on to a drawn menu, emulated ML4M (virtual ms: bus at 400 kHz + sleeps)")
    results = {}
    for title, skip in (("splash shown in full", False), ("splash skipped (A)", True)):
        with tempfile.TemporaryDirectory() as store:
            results[title] = boot(skip, store)
    print("%-24s %10s %8s" % ("case", "to menu ms", "frames"))
    for title, (ms, frames, _log) in results.items():
        print("%-24s %10.1f %8d" % (title, ms, frames))
    print()
    print("Bus bytes while booting (splash skipped case):")
    print("%-26s %8s %8s %10s" % ("step", "bytes", "bus ms", "at ms"))
    for what, nbytes, bus_ms, at in results["splash skipped (A)"][2]:
        print("%-26s %8d %8.2f %10.1f" % (what, nbytes, bus_ms, at))
    full = results["splash shown in full"][2]
    quiet = sum(1 for _w, n, _b, _a in full if n == 0)
    print("(splash in full: %d frames, %d of them sent nothing)" % (len(full) - 2, quiet))
    print()
    print("A launch (a soft reset), emulated ML4M: virtual ms from the press to the new")
    print("program's first frame on the panel (the interpreter's own time is left out:")
    print("tools/bench/mp_launch.py measures it on MicroPython, with an ESP32 estimate)")
    print("%-12s %12s %12s" % ("game", "A -> game", "B -> menu"))
    with tempfile.TemporaryDirectory() as store:
        for title, a, b in launches(store):
            print("%-12s %12.1f %12.1f" % (title, a, b))


if __name__ == "__main__":
    main()
