"""Stand-in for MicroPython's `machine` module on the ESP32 port (v1.2x), for the
parts the ML4M uses. Signatures, constants and error cases follow the ESP32 port;
behind them is the emulated board (tools/emu/board.py) that is current when an
object is created.
"""
from tools.emu import board as _board_module


def _board():
    return _board_module.current()


# GPIOs that exist on an ESP32-WROOM module (6-11 are wired to the flash).
_VALID_GPIO = frozenset(list(range(0, 6)) + list(range(12, 20)) + [21, 22, 23, 25, 26, 27]
                        + list(range(32, 40)))
_INPUT_ONLY = frozenset(range(34, 40))


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
    DRIVE_0 = 0
    DRIVE_1 = 1
    DRIVE_2 = 2
    DRIVE_3 = 3

    def __init__(self, id, mode=-1, pull=-1, *, value=None, drive=None, hold=None):
        if isinstance(id, Pin):
            id = id.id
        if not isinstance(id, int) or id not in _VALID_GPIO:
            raise ValueError("invalid pin")
        self.id = id
        self._board = _board()
        self.init(mode, pull, value=value, drive=drive, hold=hold)

    def init(self, mode=-1, pull=-1, *, value=None, drive=None, hold=None):
        board = self._board
        state = board.pin_state(self.id)
        before = board.read_level(self.id)
        if value is not None:
            state.out = 1 if value else 0
        if mode is not None and mode != -1:
            if mode in (Pin.OUT, Pin.OPEN_DRAIN) and self.id in _INPUT_ONLY:
                raise ValueError("pin can only be input")
            if mode == Pin.IN:
                state.mode = "in"
            elif mode == Pin.OUT:
                state.mode = "out"
            elif mode == Pin.OPEN_DRAIN:
                state.mode = "open_drain"
            else:
                raise ValueError("invalid pin mode")
        if pull != -1:
            # GPIO34-39 have no pull resistors: the ESP32 silently keeps them floating.
            state.pull = {None: None, Pin.PULL_UP: "up", Pin.PULL_DOWN: "down"}.get(pull, None)
        board.pin_changed(self.id, before)

    def value(self, x=None):
        board = self._board
        if x is None:
            # Counts like a ticks read: a loop polling a pin with no sleep still
            # lets (virtual) time pass, so scheduled presses can arrive.
            board._poll_spin()
            return board.read_level(self.id)
        before = board.read_level(self.id)
        board.pin_state(self.id).out = 1 if x else 0
        board.pin_changed(self.id, before)
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, *, wake=None, hard=False):
        """Call handler(pin) on the chosen edges. Soft IRQs (hard=False, the
        default) run soon after the edge, like micropython.schedule()."""
        if handler is None:
            self._board.irqs.pop(self.id, None)
        else:
            self._board.irqs[self.id] = (self, handler, trigger, hard)
        return _PinIRQ(self)

    def __repr__(self):
        return "Pin(%d)" % self.id


class _PinIRQ:
    def __init__(self, pin):
        self._pin = pin

    def trigger(self, trigger=None):
        entry = self._pin._board.irqs.get(self._pin.id)
        return entry[2] if entry else 0

    def flags(self):
        return 0


def _pin_id(source):
    # Since v1.22 the ESP32 port takes a Pin or a GPIO number wherever a pin is due.
    if isinstance(source, Pin):
        return source.id
    if isinstance(source, int) and not isinstance(source, bool) and source in _VALID_GPIO:
        return source
    raise ValueError("invalid pin")


# ---- ADC ---------------------------------------------------------------------------
_ADC_PINS = frozenset(list(range(32, 40)) + [0, 2, 4, 12, 13, 14, 15, 25, 26, 27])
# Full-scale input voltage per attenuation, in millivolts (ESP32 datasheet, approx.).
_FULL_SCALE_MV = {0: 950, 1: 1250, 2: 1750, 3: 3100}


class ADC:
    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3
    WIDTH_9BIT = 9
    WIDTH_10BIT = 10
    WIDTH_11BIT = 11
    WIDTH_12BIT = 12

    def __init__(self, pin, *, atten=None):
        gpio = _pin_id(pin)
        if gpio not in _ADC_PINS:
            raise ValueError("invalid pin")
        self._gpio = gpio
        self._board = _board()
        self._atten = ADC.ATTN_0DB     # the port's default: only 0..0.95 V
        self._bits = 12
        if atten is not None:
            self.atten(atten)

    def init(self, *, atten=None):
        if atten is not None:
            self.atten(atten)

    def atten(self, atten):
        if atten not in _FULL_SCALE_MV:
            raise ValueError("invalid attenuation")
        self._atten = atten

    def width(self, bits):
        if bits not in (9, 10, 11, 12):
            raise ValueError("invalid bit-width")
        self._bits = bits

    def _millivolts(self):
        # The board holds what a read at 11 dB would give; that is a voltage.
        return self._board.analog_raw(self._gpio) * _FULL_SCALE_MV[3] / 4095

    def read(self):
        """Raw counts at the configured width; saturates above the attenuation's range."""
        full = (1 << self._bits) - 1
        counts = round(self._millivolts() * full / _FULL_SCALE_MV[self._atten])
        return max(0, min(full, counts))

    def read_u16(self):
        raw = self.read()
        bits = self._bits
        # The port scales to 16 bits by repeating the top bits into the bottom ones.
        return (raw << (16 - bits)) | (raw >> (2 * bits - 16))

    def read_uv(self):
        mv = min(self._millivolts(), _FULL_SCALE_MV[self._atten])
        return int(mv * 1000)

    def block(self):
        return None

    def __repr__(self):
        return "ADC(Pin(%d), atten=%d)" % (self._gpio, self._atten)


# ---- DAC ---------------------------------------------------------------------------
class DAC:
    def __init__(self, pin, bits=8):
        gpio = _pin_id(pin)
        if gpio not in (25, 26):
            raise ValueError("invalid Pin for DAC")
        self._gpio = gpio
        self._board = _board()

    def write(self, value):
        if not 0 <= value <= 255:
            raise ValueError("value out of range")
        self._board.log_dac(self._gpio, value)


# ---- PWM ---------------------------------------------------------------------------
class PWM:
    def __init__(self, dest, *, freq=None, duty=None, duty_u16=None, duty_ns=None, invert=False):
        self._gpio = _pin_id(dest)
        if self._gpio in _INPUT_ONLY:
            raise ValueError("pin can only be input")
        self._board = _board()
        self._freq = 5000
        self._duty_u16 = 32768
        self._active = True
        self.init(freq=freq, duty=duty, duty_u16=duty_u16, duty_ns=duty_ns, invert=invert)

    def init(self, *, freq=None, duty=None, duty_u16=None, duty_ns=None, invert=False):
        if freq is not None:
            self._set_freq(freq)
        if duty is not None:
            self._duty_u16 = self._check_duty(duty, 1023) * 65535 // 1023
        if duty_u16 is not None:
            self._duty_u16 = self._check_duty(duty_u16, 65535)
        if duty_ns is not None:
            self._duty_u16 = min(65535, duty_ns * self._freq * 65535 // 1_000_000_000)
        self._active = True
        self._log()

    @staticmethod
    def _check_duty(value, top):
        if not 0 <= value <= top:
            raise ValueError("duty must be from 0 to %d" % top)
        return value

    def _set_freq(self, freq):
        if not 1 <= freq <= 40_000_000:
            raise ValueError("frequency must be from 1Hz to 40MHz")
        self._freq = int(freq)

    def _log(self):
        self._board.log_pwm(self._gpio, self._freq if self._active else 0,
                            self._duty_u16 if self._active else 0)

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._set_freq(value)
        self._log()

    def duty(self, value=None):
        if value is None:
            return self._duty_u16 * 1023 // 65535
        self._duty_u16 = self._check_duty(value, 1023) * 65535 // 1023
        self._log()

    def duty_u16(self, value=None):
        if value is None:
            return self._duty_u16
        self._duty_u16 = self._check_duty(value, 65535)
        self._log()

    def duty_ns(self, value=None):
        if value is None:
            return self._duty_u16 * 1_000_000_000 // (65535 * self._freq)
        self._duty_u16 = min(65535, value * self._freq * 65535 // 1_000_000_000)
        self._log()

    def deinit(self):
        self._active = False
        self._log()


# ---- I2C ---------------------------------------------------------------------------
class _I2CBase:
    def _bind(self, scl, sda, freq):
        self._board = _board()
        self._scl = _pin_id(scl)
        self._sda = _pin_id(sda)
        self._freq = int(freq)
        self._bus = self._board.bus_at(self._scl, self._sda)

    def scan(self):
        return self._bus.scan(self._freq)

    def writeto(self, addr, buf, stop=True):
        return self._bus.write(addr, bytes(buf), self._freq)

    def writevto(self, addr, vector, stop=True):
        # One transaction: the buffers go out back to back after one address byte.
        return self._bus.write(addr, b"".join(bytes(b) for b in vector), self._freq)

    def readfrom(self, addr, nbytes, stop=True):
        return self._bus.read(addr, nbytes, self._freq)

    def readfrom_into(self, addr, buf, stop=True):
        buf[:] = self._bus.read(addr, len(buf), self._freq)

    def _mem_address(self, memaddr, addrsize):
        return memaddr.to_bytes(addrsize // 8, "big")

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        self._bus.write(addr, self._mem_address(memaddr, addrsize) + bytes(buf), self._freq)

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        return self._bus.write_then_read(addr, self._mem_address(memaddr, addrsize), nbytes,
                                         self._freq)

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        buf[:] = self.readfrom_mem(addr, memaddr, len(buf), addrsize=addrsize)


class I2C(_I2CBase):
    """Hardware I2C. I2C(0) defaults to scl=18, sda=19; I2C(1) to scl=25, sda=26."""
    _DEFAULT_PINS = {0: (18, 19), 1: (25, 26)}

    def __init__(self, id=0, *, scl=None, sda=None, freq=400000, timeout=50000):
        if id not in self._DEFAULT_PINS:
            raise ValueError("I2C(%s) doesn't exist" % (id,))
        self.id = id
        default_scl, default_sda = self._DEFAULT_PINS[id]
        self._bind(scl if scl is not None else Pin(default_scl),
                   sda if sda is not None else Pin(default_sda), freq)

    def init(self, *, scl=None, sda=None, freq=400000, timeout=50000):
        self._bind(scl if scl is not None else Pin(self._scl),
                   sda if sda is not None else Pin(self._sda), freq)

    def deinit(self):
        pass


class SoftI2C(_I2CBase):
    """Bit-banged I2C; also has the primitive start/stop/write/readinto operations."""

    def __init__(self, scl, sda, *, freq=400000, timeout=50000):
        self._bind(scl, sda, freq)
        self._raw = None

    def init(self, scl, sda, *, freq=400000, timeout=50000):
        self._bind(scl, sda, freq)

    def start(self):
        self._raw = bytearray()

    def write(self, buf):
        """Primitive write after start(); returns the number of ACKs received."""
        if self._raw is None:
            self._raw = bytearray()
        self._raw.extend(buf)
        # Nobody answers the address byte: every byte is NACKed.
        if (self._raw[0] >> 1) not in self._bus.devices:
            return 0
        return len(buf)

    def readinto(self, buf, nack=True):
        address = self._raw[0] >> 1 if self._raw else None
        device = self._bus.devices.get(address)
        data = device.i2c_read(len(buf)) if device else b"\xff" * len(buf)
        buf[:] = data

    def stop(self):
        raw, self._raw = self._raw, None
        if not raw:
            return
        address, reading = raw[0] >> 1, raw[0] & 1
        if reading:
            return
        try:
            self._bus.write(address, raw[1:], self._freq)
        except OSError:
            pass   # the primitive API reports NACKs through write()'s count


# ---- Timer -------------------------------------------------------------------------
class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=0, **kwargs):
        self.id = id
        self._board = _board()
        self._generation = 0
        if kwargs:
            self.init(**kwargs)

    def init(self, *, mode=PERIODIC, period=-1, freq=-1, callback=None):
        self._generation += 1
        generation = self._generation
        if freq is not None and freq > 0:
            period_ns = int(1_000_000_000 / freq)
        elif period is not None and period > 0:
            period_ns = int(period) * 1_000_000
        else:
            raise ValueError("period or freq required")
        board = self._board

        def fire():
            if generation != self._generation:
                return   # deinit()ed or re-initialised since
            if mode == Timer.PERIODIC:
                board.schedule_ns(board._ns + period_ns, fire)
            if callback is not None:
                # the port's timer ISR schedules the callback (a soft one, as
                # its Pin IRQs) and wakes the main task
                if len(board._pending) < 8:
                    board.schedule(callback, self)
                else:
                    board.dropped_irqs += 1
                board.notify()

        board.schedule_ns(board._ns + period_ns, fire)

    def deinit(self):
        self._generation += 1

    def value(self):
        return 0


# ---- module functions --------------------------------------------------------------
PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5


def freq(hz=None):
    if hz is None:
        return _board().cpu_freq
    if hz not in (20_000_000, 40_000_000, 80_000_000, 160_000_000, 240_000_000):
        raise ValueError("frequency must be 20MHz, 40MHz, 80Mhz, 160MHz or 240MHz")
    _board().cpu_freq = hz


def reset():
    raise _board_module.ResetRequested("machine.reset()")


def soft_reset():
    raise _board_module.ResetRequested("machine.soft_reset()")


def reset_cause():
    return _board().reset_cause


class RTC:
    """The RTC's user memory: up to 2048 bytes that a soft reset (and
    machine.reset()) keeps and a power-on clears (the board holds them)."""
    MEMORY_MAX = 2048

    def __init__(self, id=0):
        self._board = _board()

    def memory(self, data=None):
        if data is None:
            return bytes(self._board.rtc_memory)
        data = data.encode() if isinstance(data, str) else bytes(data)
        if len(data) > self.MEMORY_MAX:
            raise ValueError("buffer too long")
        self._board.rtc_memory = data
        return None


def unique_id():
    return b"\x24\x0a\xc4\x4d\x34\x01"   # the ESP32's base MAC address


def idle():
    # Waits for the next interrupt; the system tick is 1 ms.
    _board().advance_ns(1_000_000)


def lightsleep(time_ms=None):
    """Stop until a wake source (esp32.wake_on_ext1) or time_ms: virtual time
    passes, the pins go on changing (tools/emu/board.py: lightsleep)."""
    _board().lightsleep(time_ms)


SLEEP = 2
DEEPSLEEP = 4
TIMER_WAKE = 4
EXT1_WAKE = 3


def wake_reason():
    return _board().wake_reason


def deepsleep(time_ms=None):
    raise _board_module.ResetRequested("machine.deepsleep()")


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


def time_pulse_us(pin, pulse_level, timeout_us=1000000):
    return -1
