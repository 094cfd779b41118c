# What the MicroPython benches (tools/bench/mp_*.py, run with
# `node tools/mprun/run.mjs --script ...`) share: minimal `machine` stand-ins
# that let the real HAL, lib/ssd1306.py and the real framebuf run on the Node
# port (pins that read idle, an ADC at rest, a DAC/PWM that do nothing, an
# I2C that counts bytes), and for the screen benches a HAL with the store in
# RAM, a bare app, one frame, and dropping a screen's modules again.
# Not a bench itself: the name does not match `make bench`'s mp_*.py.
#
#   from tools.bench import mpbench
#   mpbench.install_machine()        # before importing firmware.hal
import gc
import sys

ESP32_FACTOR = 2.5      # the ESP32 is taken as ~2.5x slower than MicroPython under Node


class Pin:
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


class ADC:
    ATTN_11DB = 3

    def __init__(self, pin, atten=None):
        pass

    def read_u16(self):
        return 1850 << 4


class Out:
    """A DAC or PWM output that does nothing."""

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


class I2C:
    """Counts what would go on the bus (address + payload bytes, per transaction)."""

    def __init__(self):
        self.bytes = 0
        self.transactions = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += 1 + len(buf)
        self.transactions += 1

    def writevto(self, addr, vector, stop=True):
        n = 1
        for b in vector:
            n += len(b)
        self.bytes += n
        self.transactions += 1


class _Machine:
    Pin = Pin
    ADC = ADC
    DAC = Out
    PWM = Out


def install_machine():
    """Make `import machine` give the stand-ins (call before importing firmware.hal)."""
    sys.modules["machine"] = _Machine


class Store:
    """The store in RAM: the Node runner's file system keeps every write on
    the MicroPython heap, which would hide the screen's own figures."""

    def __init__(self):
        self.files = {}
        self.error = None
        self.root = "/bench"
        self.bad = []
        self.notes = []
        self.fs = self           # firmware.game_settings asks whether a file is there

    def path(self, name):
        return name

    def open(self, path, mode):
        if path not in self.files:
            raise OSError(2)
        import io
        return io.StringIO(self.files[path])

    def load(self, name, default, check=None, what=None, none_if_missing=False):
        import json
        text = self.files.get(name)
        if not text and none_if_missing:
            return None
        value = json.loads(text) if text else default
        if isinstance(default, dict):
            for key in default:         # as the real store: missing keys from the default
                value.setdefault(key, default[key])
        if check is not None:
            check(value)       # what the bench saved itself: it fits
        return value

    def set_aside(self, name, reason, what=None):
        self.files.pop(name, None)
        self.bad.append((name, reason))

    def save(self, name, data):
        import json
        self.files[name] = json.dumps(data)
        return True


class Hal:
    """The real clock, sound, display and controls on the stand-ins; the store in RAM."""

    def __init__(self):
        from firmware.boards import ml4m as board
        from firmware.hal.clock import Clock
        from firmware.hal.controls import Controls
        from firmware.hal.display import Display
        from firmware.hal.sound import Sound
        self.i2c = I2C()
        self.clock = Clock(30)
        self.sound = Sound(board)
        self.display = Display(board, i2c=self.i2c)
        self.controls = Controls(board)
        self.store = Store()


class App:
    def __init__(self, hal, settings):
        self.hal = hal
        self.settings = settings

    @property
    def records(self):
        """Read from the store at each use and let go, as firmware.app.App's."""
        from firmware import modules
        with modules.borrowed("firmware.records") as records:
            return records.Records(self.hal.store)


def frame(hal, game):
    """One idle frame as the app runs it: controls, update, draw, flush."""
    now = hal.clock.now()
    hal.controls.update(now)
    game.update(now)
    game.draw(hal.display)
    hal.display.flush()


def forget(prefixes):
    """Drop the modules whose names start with one of prefixes, and the UI and
    screen base modules, as the app does when it goes back to the menu."""
    for name in [n for n in sys.modules if n.startswith(prefixes) or n.startswith("firmware.ui.")
                 or n == "firmware.screens.base" or n == "firmware.screens"]:
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and hasattr(sys.modules[parent], child):
            delattr(sys.modules[parent], child)
    gc.collect()
