# The Reversi screen under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_reversi_screen.py
# Heap allocated by the screen (import + construction, per idle frame, per CPU
# move) and the time of an idle frame and of the frame in which the CPU
# searches and plays, per level, in the CPU demo. Minimal machine stand-ins
# (pins idle, an I2C that counts bytes) let the real HAL, ssd1306 driver and
# framebuf run. The ESP32 is taken as ~2.5x slower than MicroPython under Node.
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
    def __init__(self, hal, level):
        self.hal = hal
        self.settings = {"reversi_hints": True, "reversi_level": level}
        self.records = Records(hal.store)


def _forget():
    """Drop the screen's modules, as the app does when it goes back to the menu."""
    for name in [n for n in sys.modules if n.startswith("firmware.screens.reversi")
                 or n.startswith("firmware.games.reversi") or n.startswith("firmware.ui.")
                 or n == "firmware.screens.base" or n == "firmware.screens"]:
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and hasattr(sys.modules[parent], child):
            delattr(sys.modules[parent], child)
    gc.collect()


def _frame(hal, game):
    now = hal.clock.now()
    hal.controls.update(now)
    game.update(now)
    game.draw(hal.display)
    hal.display.flush()


def run(hal, level):
    import random
    random.seed(1)
    app = _App(hal, level)
    hal.store.save("reversi", {})
    hal.store.save("reversi_prefs", {"mode": 3})     # the CPU demo plays itself
    _forget()
    a0 = gc.mem_alloc()
    from firmware.screens import reversi
    game = reversi.Game(app, save="reversi")
    game.draw(hal.display)
    hal.display.flush()
    start = gc.mem_alloc() - a0
    # idle frames while nothing happens (the demo waits between moves)
    game.cpu_at = time.ticks_add(hal.clock.now(), 1000000)
    frames = 60
    a1 = gc.mem_alloc()
    t0 = time.ticks_ms()
    for _ in range(frames):
        _frame(hal, game)
    idle_ms = time.ticks_diff(time.ticks_ms(), t0) / frames
    idle_alloc = (gc.mem_alloc() - a1) // frames
    # CPU moves: the thinking frame (search + rules + save) and the worst one
    moves = 12
    worst = 0
    total = 0
    a1 = gc.mem_alloc()
    for _ in range(moves):
        game.cpu_at = hal.clock.now()
        game.flip_n = 0
        _frame(hal, game)                       # "thinks" is drawn and flushed
        t0 = time.ticks_ms()
        _frame(hal, game)                       # the search and the move
        dt = time.ticks_diff(time.ticks_ms(), t0)
        total += dt
        worst = max(worst, dt)
    move_alloc = (gc.mem_alloc() - a1) // moves
    ply = game.game.ply
    game = None
    reversi = None
    _forget()
    return start, idle_ms, idle_alloc, total / moves, worst, move_alloc, ply


def main():
    hal = _Hal()
    print("Reversi screen under MicroPython (Node), CPU demo; ESP32 ~%.1fx slower" % ESP32_FACTOR)
    print("%-7s %9s %8s %7s %12s %12s %8s %4s" % (
        "level", "start KB", "idle ms", "idle B", "cpu frame ms", "worst ms", "move B", "ply"))
    for level, name in enumerate(("easy", "medium", "hard")):
        start, idle_ms, idle_alloc, move_ms, worst, move_alloc, ply = run(hal, level)
        print("%-7s %9.1f %8.2f %7d %12.0f %12d %8d %4d" % (
            name, start / 1024, idle_ms, idle_alloc, move_ms, worst, move_alloc, ply))
    print("start = import + construction + first draw (gc.mem_alloc growth, an upper")
    print("bound: gc.collect() frees nothing under the Node runner); cpu frame = the")
    print("frame that searches and plays (time budget per level: 250/800/1850 ms on the")
    print("ESP32, so about 100/320/740 ms here); move B = heap per CPU move (search,")
    print("JSON save). Times: Node (x%.1f for the ESP32)." % ESP32_FACTOR)


main()
