"""HAL on the emulated ML4M: I2C cost of a frame, and input latency.

1. Bytes on the I2C bus and modeled transfer time at 400 kHz (9 clocks a byte,
   ~2 per START/STOP; tools/emu/i2c_bus.py) for typical frame changes, with the
   partial-refresh Display against the stock ssd1306 show().
2. Input latency: a button edge to the end of the bus transfer that shows its
   effect (a 16x16 tile toggles), for three ways the HAL's 30 fps loop can wait
   (for the tick; looking at the buttons every 4 ms; select.poll with a frame
   Timer, the firmware's now) and for the loop of the ML4M article (full redraw,
   25 ms debounce, 20 ms blocking beep, 100 ms sleep), over taps at seeded random
   moments: median, p90, taps lost and taps acted on twice. Then the CPU each
   loop costs a second in a model of the ESP32's waits (below), idle at the
   menu, idle in a game, tapping and holding a key. Also: how many short taps
   each loop never sees.

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
from firmware.hal.clock import Clock  # noqa: E402
from firmware.hal.controls import A  # noqa: E402

TAPS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
TAP_MS = 80          # a quick, deliberate press
SHORT_TAP_MS = 40    # a flick of the thumb
# Python work per frame on the ESP32 (controls, sound, screen update and draw,
# flush's compares) that the emulator does not charge for. An assumption for
# the latency model, kept on the high side.
FRAME_CPU_MS = 5


def new_hal():
    """A Hal on a fresh emulated board, its clock waiting in the board's model
    of the ESP32's select.poll."""
    from firmware.hal import Hal   # (the one in sys.modules: a Runner may have made it afresh)
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
    drv = SSD1306_I2C(d.width, d.height, d.link._i2c, d.link._board.DISPLAY_ADDR)
    stock = bus_cost(board, drv.show)
    return rows, stock


# ---- 2. latency and CPU --------------------------------------------------------
# The CPU model. The emulated board waits as the ESP32 port does (tools/emu/
# board.py: time.sleep_ms and select.poll block one FreeRTOS tick, 10 ms, at a
# time; sleep_ms busy-waits its last tick; a pin or Timer interrupt ends a block)
# and counts the time blocked and the wakes. The CPU's busy time a second is the
# rest: the frame's work (FRAME_CPU_MS, above), the bus transfers (counted busy,
# on the high side) and the busy-wait tails, plus what virtual time does not
# charge for:
WAKE_US = 10    # a wake of the main task from a block: the switch, the look at pending callbacks
LOOK_US = 30    # a Python call in the wait: a turn of the clock's loop with its sleep_ms,
#                 select's call of the clock's ioctl, the timer's callback or Timer.init
# (assumptions, on the high side for an ESP32 at 160 MHz; the same for every loop)


class TickClock(Clock):
    """The loop before the early frame (bbf3b88's parent): one sleep_ms a
    frame, to the nearest ms. On the ESP32 it blocks while more than a tick
    is left and busy-waits the rest."""

    def wait_frame(self):
        self._next = time.ticks_add(self._next, self.frame_us)
        left_us = time.ticks_diff(self._next, time.ticks_us())
        if left_us <= 0:
            self.late += 1
            self._next = time.ticks_us()
            return time.ticks_ms()
        time.sleep_ms((left_us + 500) // 1000)
        return time.ticks_ms()


class LooksClock(Clock):
    """The loop as it was from bbf3b88 (the first early frame) to this change:
    while it waits, the clock looks at the press flag every 4 ms. On the ESP32
    each sleep_ms(4) is shorter than a tick, so it is a busy wait."""

    def wait_frame(self):
        wake = self.wake
        if wake[0]:   # type: ignore[index]
            self._next = time.ticks_us()
            return time.ticks_ms()
        self._next = time.ticks_add(self._next, self.frame_us)
        left_us = time.ticks_diff(self._next, time.ticks_us())
        if left_us <= 0:
            self.late += 1
            self._next = time.ticks_us()
            return time.ticks_ms()
        left = (left_us + 500) // 1000
        while left > 0:
            d = 4 if left > 4 else left
            time.sleep_ms(d)
            left -= d
            if wake[0]:   # type: ignore[index]
                self._next = time.ticks_us()
                break
        return time.ticks_ms()


# name in the tables, how the Hal's clock waits
LOOPS = (("tick: the press waits for it (before)", "tick"),
         ("looks every 4 ms (bbf3b88)", "looks"),
         ("select.poll + frame Timer (now)", "poll"))


def fit_clock(hal, loop, phase_us=0):
    """Give hal the loop's clock. poll: the firmware's own, waiting in the
    emulated ESP32's select; tick: TickClock; looks: LooksClock. phase_us moves
    its frames against the FreeRTOS ticks (a sleep's busy tail depends on it)."""
    clock = hal.clock
    if loop == "poll":
        assert clock._timer is not None
    else:
        clock = LooksClock(clock.fps) if loop == "looks" else TickClock(clock.fps)
        if loop == "looks":
            clock.wake = hal.controls.wake
        clock._next = hal.clock._next      # the same frame times as the Hal's
        hal.clock = clock
    clock._next = time.ticks_add(clock._next, phase_us)


# the CPU figures are the mean over these phases of the frames against the ticks
PHASES_US = (0, 2500, 5000, 7500)


def mean_cpu(fn, loop, *args):
    runs = [fn(loop, *args, phase_us=phase) for phase in PHASES_US]
    return {key: statistics.mean(run[key] for run in runs) for key in runs[0]}


class Meter:
    """Busy CPU and wakes of the board over a stretch of virtual time (the model above)."""

    def __init__(self, board):
        self.board = board
        self.looks = 0
        self.start = (board.now_ms(), board.idle_ns, board.wakes)
        real_sleep = time.sleep_ms

        def counted_sleep(ms):
            self.looks += 1
            real_sleep(ms)
        self.real_sleep = real_sleep
        time.sleep_ms = counted_sleep

    def count_clock(self, clock):
        """The poll loop's Python calls: ioctl (select's SelectPoll counts them),
        Timer.init and the timer's callback (one each a frame it waits)."""
        timer = clock._timer
        if timer is not None:
            init = timer.init

            def counted_init(**kwargs):
                self.looks += 2
                init(**kwargs)
            timer.init = counted_init

    def stop(self, clock):
        time.sleep_ms = self.real_sleep
        board = self.board
        t0, idle0, wakes0 = self.start
        seconds = (board.now_ms() - t0) / 1000
        if clock._timer is not None:
            self.looks += clock._poller.asked
        busy_ms = board.now_ms() - t0 - (board.idle_ns - idle0) / 1e6
        wakes = board.wakes - wakes0
        cpu = busy_ms + (wakes * WAKE_US + self.looks * LOOK_US) / 1000
        # (a CPU busy all the time is busy 1000 ms a second, whatever it does)
        return {"cpu": min(cpu / seconds, 1000), "wakes": wakes / seconds, "looks": self.looks / seconds}


class TileToggle:
    """A minimal screen: button A toggles one 16x16 tile (on each auto-repeat too
    when repeat is set)."""

    def __init__(self, hal, repeat=False):
        self.hal = hal
        self.on = False
        self.repeat = repeat

    def update(self):
        c = self.hal.controls
        if c.repeat(A) if self.repeat else c.just_pressed(A):
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


def hal_latency(taps, tap_ms, seed=3, loop="poll", phase_us=0):
    """The HAL's loop tapping A: latencies (each tap's press to the end of the
    transfer that shows it), taps never acted on, taps acted on twice, and the
    CPU figures (hal_latency.cpu)."""
    board, hal = new_hal()
    fit_clock(hal, loop, phase_us)
    screen = TileToggle(hal)
    edges = schedule_taps(board, taps, tap_ms, seed)
    end = edges[-1] + 1000
    acted = {}          # the tap each action answered -> the latency
    doubled = 0
    meter = Meter(board)
    meter.count_clock(hal.clock)
    while board.now_ms() < end:
        now = hal.clock.wait_frame()
        read = board.now_ms()
        hal.update(now)
        board.advance(FRAME_CPU_MS)
        act = screen.update()
        screen.draw(hal.display)
        hal.display.flush()
        if act:
            # the latest press before this frame read the buttons
            tap = max(i for i, t in enumerate(edges) if t <= read + 1e-3)
            if tap in acted:
                doubled += 1
            else:
                acted[tap] = board.now_ms() - edges[tap]
    hal_latency.cpu = meter.stop(hal.clock)
    return list(acted.values()), taps - len(acted), doubled


def tapping_cpu(loop, phase_us=0):
    """The CPU figures of hal_latency's taps."""
    hal_latency(TAPS, TAP_MS, loop=loop, phase_us=phase_us)
    return hal_latency.cpu


def hal_holding(loop, seconds=20, seed=5, phase_us=0):
    """The HAL's loop with A held for 1-2 s at a time, the tile toggled on
    each auto-repeat: the CPU figures."""
    board, hal = new_hal()
    fit_clock(hal, loop, phase_us)
    screen = TileToggle(hal, repeat=True)
    rng = random.Random(seed)
    t = 300.0
    while t < seconds * 1000:
        board.at(t, lambda: board.press("A"))
        t += rng.uniform(1000, 2000)
        board.at(t, lambda: board.release("A"))
        t += rng.uniform(300, 600)
    meter = Meter(board)
    meter.count_clock(hal.clock)
    while board.now_ms() < seconds * 1000:
        now = hal.clock.wait_frame()
        hal.update(now)
        board.advance(FRAME_CPU_MS)
        screen.update()
        screen.draw(hal.display)
        hal.display.flush()
    return meter.stop(hal.clock)


def app_idle(loop, game=None, seconds=10, phase_us=0):
    """The whole app on the emulated board, at the menu or in a game, nothing
    pressed: the CPU figures (the frame's work charged as FRAME_CPU_MS)."""
    from tools.emu.runner import Runner
    board = tools.emu.Board(seed=1)
    arcade = Runner(board, tempfile.mkdtemp(), ml4m)
    arcade.frames(60)                  # past the splash, at the menu
    if game is not None:
        arcade.play(game)
        arcade.frames(30)
    hal = arcade.app.hal
    fit_clock(hal, loop, phase_us)
    meter = Meter(board)
    meter.count_clock(hal.clock)
    end = board.now_ms() + seconds * 1000
    while board.now_ms() < end:
        board.advance(FRAME_CPU_MS)
        arcade.step()
    return meter.stop(hal.clock)


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
    return latencies, taps - len(latencies), 0


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
    print("Input latency: button edge -> end of the bus transfer showing it (ms, %d taps;"
          " +%d ms of work a frame; a tap every 300-600 ms)" % (TAPS, FRAME_CPU_MS))
    print("%-40s %7s %7s %7s %5s %7s" % ("loop", "median", "p90", "max", "lost", "doubled"))
    for name, loop in LOOPS:
        lat, lost, doubled = hal_latency(TAPS, TAP_MS, loop=loop)
        print("%-40s %7s %7s %7s %5d %7d" % ((name,) + summary(lat) + (lost, doubled)))
    lat, lost, doubled = article_latency(TAPS, TAP_MS)
    print("%-40s %7s %7s %7s %5d %7s" % (("article: redraw, 25 debounce, beep, 100 sleep",)
                                         + summary(lat) + (lost, "-")))
    print()
    print("CPU a second in the ESP32 model: busy ms (wakes of the CPU from a block), the mean")
    print("over %d phases of the frames against the scheduler's ticks" % len(PHASES_US))
    print("%-40s %13s %13s %13s %13s" % ("loop", "menu, idle", "game, idle", "tapping A",
                                         "holding A"))
    for name, loop in LOOPS:
        cells = [mean_cpu(app_idle, loop), mean_cpu(app_idle, loop, "15-Puzzle"),
                 mean_cpu(tapping_cpu, loop), mean_cpu(hal_holding, loop)]
        print("%-40s" % name + "".join(" %6.0f (%4.0f)" % (c["cpu"], c["wakes"]) for c in cells))
    print("(the frame's work %d ms, a wake %d us, a Python call in the wait %d us: the model in"
          " this file)" % (FRAME_CPU_MS, WAKE_US, LOOK_US))
    print()
    print("Short taps of %d ms never seen (of %d)" % (SHORT_TAP_MS, TAPS))
    for name, fn in (("HAL (IRQ edge latch, select.poll + Timer)", hal_latency),
                     ("article loop", article_latency)):
        _lat, lost, _doubled = fn(TAPS, SHORT_TAP_MS)
        print("%-44s %6d" % (name, lost))


if __name__ == "__main__":
    main()
