# A small stand-in for the ESP32 port's `machine` module, for real MicroPython
# under Node (tools/mprun/run.mjs puts this folder on sys.path, so this file
# shadows the WebAssembly port's own machine module). Just enough for the
# firmware's HAL to run: nothing here models timing or electrical behaviour
# (the CPython emulator in tools/emu/ does that). Allocation-light: objects
# are made once by the HAL, and reads return small ints.
#
# Inputs are set from the outside through the module-level dict `levels`:
#   levels[gpio] = 0/1        a digital level (the ML4M's buttons read 1 when
#                             pressed: GPIO 32, 33, 35, 34, 27, 26 for A..F)
#   levels[gpio] = count      a 12-bit ADC count (joystick X on GPIO39, wired
#                             inverted: left = high; Y on GPIO36: up = low)
# drive(gpio, level) sets a level and runs the pin's IRQ handler on a
# matching edge, as the port would. Pins not in `levels` read 0; ADCs read
# REST. The display's bus: an I2C device at 0x3C that takes everything;
# `bus` counts its transactions and bytes (address byte included).
#
# Hooks for a front end that shows the board (the browser arcade, tools/web):
#   devices[addr] = model     an I2C device with i2c_write(bytes) and
#                             i2c_read(count) (tools/emu/ssd1306_model.py):
#                             transactions to addr reach it
#   on_output = fn(kind, gpio, a, b)   called on every DAC write ("dac",
#                             value, 0) and PWM change ("pwm", freq, duty_u16)

REST = 1850
DISPLAY_ADDR = 0x3C

levels = {}
bus = {"transactions": 0, "bytes": 0}
devices = {}
on_output = None
_irqs = {}          # gpio -> (handler, trigger, pin)


def _output(kind, gpio, a, b):
    if on_output is not None:
        on_output(kind, gpio, a, b)


def drive(gpio, level):
    """Set a digital input and fire its IRQ handler on a matching edge."""
    before = levels.get(gpio, 0)
    levels[gpio] = level
    irq = _irqs.get(gpio)
    if irq is None or before == level:
        return
    handler, trigger, pin = irq
    if (level and trigger & Pin.IRQ_RISING) or (not level and trigger & Pin.IRQ_FALLING):
        handler(pin)


def _gpio(pin):
    return pin.id if isinstance(pin, Pin) else pin


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_DOWN = 1
    PULL_UP = 2
    PULL_HOLD = 4
    IRQ_RISING = 1
    IRQ_FALLING = 2
    WAKE_LOW = 4
    WAKE_HIGH = 5

    def __init__(self, id, mode=-1, pull=-1, value=None, drive=None, hold=None):
        self.id = _gpio(id)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, drive=None, hold=None):
        if mode != -1 and mode is not None:
            self.mode = mode
        if value is not None:
            levels[self.id] = 1 if value else 0

    def value(self, x=None):
        if x is None:
            return levels.get(self.id, 0)
        levels[self.id] = 1 if x else 0
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        levels[self.id] = 1

    def off(self):
        levels[self.id] = 0

    def irq(self, handler=None, trigger=3, wake=None, hard=False):
        if handler is None:
            _irqs.pop(self.id, None)
        else:
            _irqs[self.id] = (handler, trigger, self)
        return None


class ADC:
    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3
    WIDTH_9BIT = 0
    WIDTH_10BIT = 1
    WIDTH_11BIT = 2
    WIDTH_12BIT = 3

    def __init__(self, pin, atten=None):
        self.id = _gpio(pin)
        self._atten = 0 if atten is None else atten

    def read(self):
        return levels.get(self.id, REST)

    def read_u16(self):
        return levels.get(self.id, REST) << 4

    def read_uv(self):
        return levels.get(self.id, REST) * 806

    def atten(self, a):
        self._atten = a

    def width(self, w):
        pass


class DAC:
    def __init__(self, pin, bits=8):
        self.id = _gpio(pin)
        self.last = 0

    def write(self, value):
        self.last = value
        _output("dac", self.id, value, 0)


class PWM:
    def __init__(self, pin, freq=0, duty=None, duty_u16=None, duty_ns=None):
        self.id = _gpio(pin)
        self._freq = freq
        self._duty = 0 if duty_u16 is None else duty_u16
        self._changed()

    def _changed(self):
        _output("pwm", self.id, self._freq, self._duty)

    def init(self, freq=0, duty=None, duty_u16=None, duty_ns=None):
        self._freq = freq
        if duty_u16 is not None:
            self._duty = duty_u16
        self._changed()

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        self._changed()

    def duty(self, d=None):
        if d is None:
            return self._duty >> 6
        self._duty = d << 6
        self._changed()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self._changed()

    def deinit(self):
        self._duty = 0
        self._changed()


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.freq = freq

    def _check(self, addr):
        if addr not in (devices or (DISPLAY_ADDR,)):
            raise OSError(19)   # ENODEV: nothing answers
        bus["transactions"] += 1
        return devices.get(addr)

    def scan(self):
        return sorted(devices) if devices else [DISPLAY_ADDR]

    def writeto(self, addr, buf, stop=True):
        device = self._check(addr)
        bus["bytes"] += 1 + len(buf)
        if device is not None:
            device.i2c_write(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        device = self._check(addr)
        n = 1
        for b in vector:
            n += len(b)
        bus["bytes"] += n
        if device is not None:
            device.i2c_write(b"".join(bytes(b) for b in vector))
        return n - 1

    def readfrom(self, addr, nbytes, stop=True):
        device = self._check(addr)
        bus["bytes"] += 1 + nbytes
        return bytes(nbytes) if device is None else device.i2c_read(nbytes)

    def readfrom_into(self, addr, buf, stop=True):
        data = self.readfrom(addr, len(buf), stop)
        for i in range(len(buf)):
            buf[i] = data[i]

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        self._check(addr)
        bus["bytes"] += 2 + len(buf)

    def readfrom_mem(self, addr, memaddr, nbytes, addrsize=8):
        self._check(addr)
        bus["bytes"] += 2 + nbytes
        return bytes(nbytes)


class SoftI2C(I2C):
    pass


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, mode=1, period=-1, callback=None):
        self.callback = callback

    def init(self, mode=1, period=-1, freq=-1, callback=None):
        self.callback = callback

    def deinit(self):
        self.callback = None


_freq = [240000000]


def freq(hz=None):
    if hz is None:
        return _freq[0]
    _freq[0] = hz


def reset():
    raise SystemExit("machine.reset()")


def soft_reset():
    raise SystemExit("machine.soft_reset()")


def unique_id():
    return b"\x24\x0a\xc4\x00\x4d\x34"


def idle():
    pass


def lightsleep(ms=None):
    pass


def deepsleep(ms=None):
    raise SystemExit("machine.deepsleep()")


PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5


# What a soft reset keeps (tools/mprun/run.mjs --resets sets both in the
# fresh interpreter it starts): the reset's cause and the RTC memory.
_cause = [PWRON_RESET]
_rtc_memory = [b""]


def reset_cause():
    return _cause[0]


class RTC:
    """machine.RTC(): its user memory (2048 bytes on the ESP32) survives a soft reset."""

    def __init__(self, id=0):
        pass

    def memory(self, data=None):
        if data is None:
            return _rtc_memory[0]
        data = data.encode() if isinstance(data, str) else bytes(data)
        if len(data) > 2048:
            raise ValueError("buffer too long")
        _rtc_memory[0] = data
        return None


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
