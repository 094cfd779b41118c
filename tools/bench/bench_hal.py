"""HAL on the emulated ML4M: I2C cost of a frame, and input latency.

1. Bytes on the I2C bus and modeled transfer time at 400 kHz (9 clocks a byte,
   ~2 per START/STOP; tools/emu/i2c_bus.py) for typical frame changes, with the
   partial-refresh Display against the stock ssd1306 show().
2. Input latency: a button edge to the end of the bus transfer that shows its
   effect (a 16x16 tile toggles), for the HAL's 30 fps loop and for the loop of
   the ML4M article (full redraw, 25 ms debounce, 20 ms blocking beep, 100 ms
   sleep), over taps at seeded random moments. Also: how many short taps each
   loop never sees.

Run from the repo root:  python tools/bench/bench_hal.py [taps]
"""
import os
import random
import statistics
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()

import firmware.boards.ml4m as ml4m  # noqa: E402
from firmware.hal import Hal  # noqa: E402
from firmware.hal.controls import A  # noqa: E402

TAPS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
TAP_MS = 80          # a quick, deliberate press
SHORT_TAP_MS = 40    # a flick of the thumb
# Python work per frame on the ESP32 (controls, sound, screen update and draw,
# flush's compares) that the emulator does not charge for. An assumption for
# the latency model, kept on the high side.
FRAME_CPU_MS = 5


def new_hal():
    board = tools.emu.Board(seed=1)
    hal = Hal(ml4m, tempfile.mkdtemp())
    return board, hal


# ---- 1. bus cost ------------------------------------------------------------
def bus_cost(board, fn):
    board.bus.reset()
    fn()
    return board.bus.bytes, board.bus.transactions, board.bus.time_us / 1000


def frame_costs():
    board, hal = new_hal()
    d = hal.display
    # a puzzle-like screen to start from
    for i in range(16):
        d.fb.rect((i % 4) * 16, (i // 4) * 16, 16, 16, 1)
        d.fb.text("%X" % i, (i % 4) * 16 + 4, (i // 4) * 16 + 4, 1)
    d.fb.text("Moves 12", 68, 56, 1)
    d.flush()
    rows = []

    def full():
        # every byte differs: the screen before is all dark, this one all lit
        d.fb.fill(0)
        d.flush()
        board.bus.reset()
        d.fb.fill(1)
        d.flush()

    def tile():
        d.fb.fill_rect(16, 16, 16, 16, 1)      # a whole 16x16 tile changes (selected)
        d.flush()

    def digit():
        d.fb.fill_rect(33, 33, 14, 14, 0)      # one tile's number redrawn: A -> 7
        d.fb.text("7", 36, 36, 1)
        d.flush()

    def tile_unaligned():
        d.fb.fill_rect(70, 21, 16, 16, 1)      # a 16x16 sprite off the page grid
        d.flush()

    def status():
        d.fb.fill_rect(68, 56, 60, 8, 0)       # a new status line
        d.fb.text("Best 480", 68, 56, 1)
        d.flush()

    def counter():
        d.fb.fill_rect(68, 56, 60, 8, 0)
        d.fb.text("Moves 13", 68, 56, 1)       # only the last digit differs
        d.flush()

    def unchanged():
        d.flush()

    def two_on_a_page():
        d.fb.fill_rect(2, 40, 4, 4, 1)         # two small marks on page 5, 90 columns apart
        d.fb.fill_rect(96, 40, 4, 4, 1)
        d.flush()

    def two_cells():
        # a 3x3 picture move: two 20x20 cells (21-px pitch, off the page grid)
        # change, the cell between them does not
        d.fb.fill_rect(1, 22, 20, 20, 1)
        d.fb.fill_rect(43, 22, 20, 20, 1)
        d.flush()

    for name, fn in (("one 16x16 tile (all of it)", tile), ("a tile's digit redrawn", digit),
                     ("16x16 sprite, unaligned", tile_unaligned),
                     ("move counter 12 -> 13", counter), ("one-line status text", status),
                     ("two marks, one page", two_on_a_page), ("two 20x20 cells apart", two_cells),
                     ("unchanged frame", unchanged),
                     ("full-screen change", full)):
        rows.append((name,) + bus_cost(board, fn))
    rows.insert(0, rows.pop())

    # the stock driver: show() sends everything, whatever changed (a driver
    # of its own: the display lets lib/ssd1306.py go once the panel is up)
    from ssd1306 import SSD1306_I2C
    d = hal.display
    drv = SSD1306_I2C(d.width, d.height, d.link._i2c, d.link._addr)
    stock = bus_cost(board, drv.show)
    return rows, stock


# ---- 2. latency ---------------------------------------------------------------
class TileToggle:
    """A minimal screen: button A toggles one 16x16 tile."""

    def __init__(self, hal):
        self.hal = hal
        self.on = False

    def update(self):
        if self.hal.controls.just_pressed(A):
            self.on = not self.on
            self.hal.sound.click()
            return True
        return False

    def draw(self, d):
        d.fb.fill_rect(48, 16, 16, 16, 1 if self.on else 0)


def schedule_taps(board, taps, tap_ms, seed):
    """Schedule taps of button A at random gaps of 300-600 ms from 500 ms on;
    returns the times of the presses."""
    rng = random.Random(seed)
    edges = []
    t = 500.0
    for _ in range(taps):
        t += rng.uniform(300, 600)
        edges.append(t)
        board.at(t, lambda: board.press("A"))
        board.at(t + tap_ms, lambda: board.release("A"))
    return edges


def hal_latency(taps, tap_ms, seed=3, early=True):
    """The HAL's loop; early=False: without the early frame on a press (the
    clock waits for the next tick, as before). Also counts the frames and the
    clock's sleeps (its looks at the wake flag) per second."""
    board, hal = new_hal()
    if not early:
        hal.clock.wake = None
    screen = TileToggle(hal)
    edges = schedule_taps(board, taps, tap_ms, seed)
    end = edges[-1] + 1000
    latencies = []
    pending = list(edges)
    sleeps = [0]
    real_sleep = time.sleep_ms

    def counted_sleep(ms):
        sleeps[0] += 1
        real_sleep(ms)
    time.sleep_ms = counted_sleep
    frames = 0
    start = board.now_ms()
    while board.now_ms() < end:
        frames += 1
        now = hal.clock.wait_frame()
        hal.update(now)
        board.advance(FRAME_CPU_MS)
        acted = screen.update()
        screen.draw(hal.display)
        hal.display.flush()
        if acted:
            done = board.now_ms()
            # the effect of the latest edge before this frame's input read
            while len(pending) > 1 and pending[1] <= done:
                pending.pop(0)
            latencies.append(done - pending.pop(0))
    time.sleep_ms = real_sleep
    seconds = (board.now_ms() - start) / 1000
    hal_latency.rates = (frames / seconds, sleeps[0] / seconds)
    return latencies, taps - len(latencies)


def article_latency(taps, tap_ms, seed=3):
    """The article's loop, on the same emulated board with the stock driver."""
    from machine import DAC, I2C, Pin
    from ssd1306 import SSD1306_I2C
    board = tools.emu.Board(seed=1)
    oled = SSD1306_I2C(128, 64, I2C(0, scl=Pin(22), sda=Pin(21), freq=400000))
    sw_a = Pin(32, Pin.IN)
    spk = DAC(Pin(25, Pin.OUT))
    edges = schedule_taps(board, taps, tap_ms, seed)
    end = edges[-1] + 1000
    on = False
    acted_at = None
    latencies = []
    pending = list(edges)
    while board.now_ms() < end:
        oled.fill(0)                              # drawTable(): full redraw
        oled.fill_rect(48, 16, 16, 16, 1 if on else 0)
        oled.show()
        if acted_at is not None:
            done = board.now_ms()
            while len(pending) > 1 and pending[1] <= acted_at:
                pending.pop(0)
            latencies.append(done - pending.pop(0))
            acted_at = None
        if sw_a.value():                          # getInput(): 25 ms debounce
            time.sleep_ms(25)
            if sw_a.value():
                on = not on
                acted_at = board.now_ms()
                spk.write(255)                    # beep(): blocks 20 ms
                time.sleep_ms(20)
                spk.write(0)
                while sw_a.value():               # (held: let go before the next read)
                    time.sleep_ms(10)
        time.sleep_ms(100)
    return latencies, taps - len(latencies)


def summary(values):
    if not values:
        return "-", "-", "-"
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    return ("%.1f" % statistics.median(values), "%.1f" % p90, "%.1f" % values[-1])


def main():
    rows, stock = frame_costs()
    full_bytes = rows[0][1]
    print("I2C cost per frame at 400 kHz (emulated ML4M, SSD1306 at 0x3C)")
    print("%-28s %7s %5s %9s %9s" % ("change", "bytes", "txns", "time ms", "% of full"))
    for name, nbytes, txns, ms in rows:
        print("%-28s %7d %5d %9.2f %8.1f%%" % (name, nbytes, txns, ms, 100.0 * nbytes / full_bytes))
    print("%-28s %7d %5d %9.2f %8.1f%%" % ("stock show(), any change", stock[0], stock[1], stock[2],
                                          100.0 * stock[0] / full_bytes))
    print()
    print("Input latency: button edge -> end of the bus transfer showing it (ms, %d taps)" % TAPS)
    print("%-44s %7s %7s %7s %6s" % ("loop", "median", "p90", "max", "lost"))
    rates = []
    for name, fn in (("HAL, 30 fps, a press starts the frame", hal_latency),
                     ("HAL, 30 fps, the press waits for the tick",
                      lambda taps, ms: hal_latency(taps, ms, early=False)),
                     ("article: redraw, 25 debounce, beep, 100 sleep", article_latency)):
        lat, lost = fn(TAPS, TAP_MS)
        med, p90, mx = summary(lat)
        print("%-44s %7s %7s %7s %6d" % (name, med, p90, mx, lost))
        if fn is not article_latency:
            rates.append((name, hal_latency.rates))
    print("(the HAL's loops: partial refresh, +%d ms of CPU a frame; a tap every 300-600 ms)"
          % FRAME_CPU_MS)
    print("%-44s %9s %10s" % ("CPU of the HAL's loops, tapping", "frames/s", "sleeps/s"))
    for name, (fps, sleeps) in rates:
        print("%-44s %9.1f %10.0f" % (name, fps, sleeps))
    print()
    print("Short taps of %d ms never seen (of %d)" % (SHORT_TAP_MS, TAPS))
    for name, fn in (("HAL (IRQ edge latch, early frame)", hal_latency),
                     ("article loop", article_latency)):
        _lat, lost = fn(TAPS, SHORT_TAP_MS)
        print("%-44s %6d" % (name, lost))


if __name__ == "__main__":
    main()
