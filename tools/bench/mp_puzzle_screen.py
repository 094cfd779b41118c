# The puzzle screen under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_puzzle_screen.py
# Heap allocated by the screen (gc.mem_alloc growth: import + construction,
# the first hint, per move, per idle frame) and the time of a move (rules +
# save + draw + flush) and of an idle frame. Minimal machine stand-ins (pins idle, an
# I2C that counts bytes) let the real HAL, ssd1306 driver and framebuf run.
# The ESP32 is taken as ~2.5x slower than MicroPython under Node.
import gc
import sys
import time

ESP32_FACTOR = 2.5


class _Pin:
    IN = 1
    OUT = 3
    PULL_UP = 2
    PULL_DOWN = 1
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id

    def value(self, x=None):
        return 0

    def irq(self, handler=None, trigger=3):
        return None


class _ADC:
    ATTN_11DB = 3

    def __init__(self, pin, atten=None):
        pass

    def read_u16(self):
        return 1850 << 4


class _Out:
    def __init__(self, *args, **kwargs):
        pass

    def write(self, v):
        pass

    def init(self, *args, **kwargs):
        pass

    def freq(self, f=None):
        pass

    def duty_u16(self, d=None):
        pass

    def deinit(self):
        pass


class _I2C:
    def __init__(self):
        self.bytes = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += 1 + len(buf)

    def writevto(self, addr, vector, stop=True):
        n = 1
        for b in vector:
            n += len(b)
        self.bytes += n


class _Machine:
    Pin = _Pin
    ADC = _ADC
    DAC = _Out
    PWM = _Out


sys.modules["machine"] = _Machine

from firmware import board  # noqa: E402
from firmware.hal.clock import Clock  # noqa: E402
from firmware.hal.display import Display  # noqa: E402
from firmware.hal.controls import Controls  # noqa: E402
from firmware.hal.sound import Sound  # noqa: E402
from firmware.records import Records  # noqa: E402


class _Store:
    """The store in RAM: the Node runner's file system keeps every write on
    the MicroPython heap, which would hide the screen's own figures."""

    def __init__(self):
        self.files = {}
        self.error = None
        self.root = "/bench"

    def load(self, name, default):
        import json
        text = self.files.get(name)
        return json.loads(text) if text else default

    def save(self, name, data):
        import json
        self.files[name] = json.dumps(data)
        return True


class _Hal:
    def __init__(self):
        self.i2c = _I2C()
        self.clock = Clock(30)
        self.sound = Sound(board)
        self.display = Display(board, i2c=self.i2c)
        self.controls = Controls(board)
        self.store = _Store()


class _App:
    def __init__(self, hal, size, mode):
        self.hal = hal
        self.settings = {"puzzle_size": size, "puzzle_mode": mode}
        self.records = Records(hal.store)


def _forget():
    """Drop the screen's modules, as the app does when it goes back to the menu."""
    for name in [n for n in sys.modules if n.startswith("firmware.screens.puzzle")
                 or n.startswith("firmware.games.npuzzle") or n.startswith("firmware.ui.")
                 or n == "firmware.screens.base" or n == "firmware.screens"]:
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and hasattr(sys.modules[parent], child):
            delattr(sys.modules[parent], child)
    gc.collect()


def _alloc():
    return gc.mem_alloc()


def run(hal, options, size, mode):
    import random
    random.seed(1)
    app = _App(hal, size, mode)
    hal.store.save(options["save"], {})
    _forget()
    a0 = _alloc()
    from firmware.screens import puzzle
    game = puzzle.Game(app, **options)
    game.preview = 0
    game.draw(hal.display)
    hal.display.flush()
    start = _alloc() - a0
    # moves: rules, save, the cells' frame and the counter's frame
    moves = 60
    a1 = _alloc()
    t0 = time.ticks_ms()
    now = hal.clock.now()
    for i in range(moves):
        d = game.puzzle.legal_pushes()[i % 2]
        game.push(d, now)
        game.draw(hal.display)
        hal.display.flush()
        game.draw(hal.display)
        hal.display.flush()
    move_ms = time.ticks_diff(time.ticks_ms(), t0) / moves
    move_alloc = (_alloc() - a1) // moves
    # an idle frame: controls, update, draw, flush
    frames = 100
    a1 = _alloc()
    t0 = time.ticks_ms()
    for _ in range(frames):
        now = hal.clock.now()
        hal.controls.update(now)
        game.update(now)
        game.draw(hal.display)
        hal.display.flush()
    frame_ms = time.ticks_diff(time.ticks_ms(), t0) / frames
    idle_alloc = (_alloc() - a1) // frames
    # the first hint: imports the solver (and its 3x3 tables when needed)
    a1 = _alloc()
    t0 = time.ticks_ms()
    game._show_hint()
    hint_ms = time.ticks_diff(time.ticks_ms(), t0)
    hint_alloc = _alloc() - a1
    game = None
    puzzle = None
    _forget()
    return start, hint_alloc, move_ms, move_alloc, frame_ms, idle_alloc, hint_ms


def main():
    hal = _Hal()
    print("Puzzle screen under MicroPython (Node); ESP32 ~%.1fx slower" % ESP32_FACTOR)
    print("%-5s %-8s %9s %9s %8s %8s %9s %7s %8s" % (
        "size", "mode", "start KB", "hint KB", "move ms", "move B", "idle ms", "idle B", "hint ms"))
    for title, options, size in (("3x3", {"size": 3, "save": "puzzle8"}, 4),
                                 ("4x4", {"size": 4, "big_size_setting": True, "save": "puzzle15"}, 4),
                                 ("5x5", {"size": 4, "big_size_setting": True, "save": "puzzle15"}, 5)):
        for mode in ("numbers", "picture"):
            start, hint_alloc, move_ms, move_alloc, frame_ms, idle_alloc, hint_ms = run(hal, options, size, mode)
            print("%-5s %-8s %9.1f %9.1f %8.2f %8d %9.2f %7d %8d" % (
                title, mode, start / 1024, hint_alloc / 1024, move_ms, move_alloc, frame_ms,
                idle_alloc, hint_ms))
    print("KB/B: gc.mem_alloc() growth. gc.collect() frees nothing under the Node runner,")
    print("so these are upper bounds of the heap held (compile garbage included):")
    print("start = import + construction + first draw (3x3: the solver for the optimal")
    print("length too, dropped again), hint = the first hint (solver import + tables),")
    print("move = per move (mostly the JSON save). Times: Node (x%.1f for the ESP32)." % ESP32_FACTOR)


main()
