"""The ML4M handheld as its firmware sees it: pin levels, ADC voltages, a DAC, an
I2C bus with an SSD1306 on it, and a virtual clock.

Tests and the simulator drive the board from the outside (press a button, push the
joystick, advance time, look at the panel); the `machine` stand-ins in tools/emu/mp/
read and write it from the inside, exactly where the ESP32's registers would be.
"""
import heapq
import random
import time as _host_time

from tools.emu.air import BoardRadio, mac_for
from tools.emu.i2c_bus import Bus
from tools.emu.ssd1306_model import SSD1306


class StopEmulation(BaseException):
    """Raised inside the firmware when run()'s time is up. A BaseException, so the
    firmware's `except Exception` (its crash screen) cannot swallow it -- the same
    reason Ctrl-C always works on the board."""


class SleptForever(StopEmulation):
    """machine.lightsleep() with nothing scheduled that could wake the board:
    on the chip it would sleep until a press; here the test (or script) that
    let it sleep must schedule one first (board.after(ms, ...))."""


class ResetRequested(StopEmulation):
    """machine.reset()/soft_reset()/deepsleep(): the program stops here."""


# The ESP32 port's FreeRTOS tick (CONFIG_FREERTOS_HZ: MicroPython's sdkconfig
# leaves ESP-IDF's default of 100 Hz). The port's waits block one tick at a time:
# time.sleep_ms (mp_hal_delay_ms in ports/esp32/mphalport.c) blocks in
# ulTaskNotifyTake(1 tick) while more than a tick is left and busy-waits the rest
# (mp_hal_delay_us spins); select.poll blocks in the same one-tick waits until an
# object is ready. A pin or Timer interrupt ends a block at once
# (mp_hal_wake_main_task_from_isr). The board counts the time the CPU spent
# blocked (idle_ns) and the times it woke from a block (wakes), for the CPU
# model of tools/bench/bench_hal.py; virtual time itself passes as before.
TICK_NS = 10_000_000


# Pin map and analog facts of the ML4M. Buttons are wired active-high with external
# pull-downs (GPIO34/35 have no internal pulls), so a released button reads 0.
ML4M = {
    "name": "ML4M",
    "buttons": {"A": 32, "B": 33, "C": 35, "D": 34, "E": 27, "F": 26},
    "button_pressed_level": 1,
    "button_released_level": 0,     # external pull-down
    "joystick_x": 39,
    "joystick_y": 36,
    "joystick_x_inverted": True,    # pushing LEFT gives a HIGH raw X
    "joystick_y_inverted": False,   # pushing UP gives a LOW raw Y
    "joystick_rest": (1850, 1850),  # raw counts at ATTN_11DB, 12 bits
    "speaker": 25,                  # DAC1
    "i2c_scl": 22,
    "i2c_sda": 21,
    "display_address": 0x3C,
    "display_size": (128, 64),
}

# A different board for the porting test: active-low buttons that need the internal
# pull-ups (released = floating), a non-inverted joystick on other ADC pins, the
# speaker on DAC2, the display on the I2C(0) default pins at the other address.
DEVKIT_PROTO = {
    "name": "DEVKIT_PROTO",
    "buttons": {"A": 13, "B": 14, "C": 16, "D": 17, "E": 4, "F": 5},
    "button_pressed_level": 0,      # shorts the pin to ground
    "button_released_level": None,  # floating: firmware must enable Pin.PULL_UP
    "joystick_x": 34,
    "joystick_y": 35,
    "joystick_x_inverted": False,
    "joystick_y_inverted": False,
    "joystick_rest": (2048, 2048),
    "speaker": 26,                  # DAC2
    "i2c_scl": 18,
    "i2c_sda": 19,
    "display_address": 0x3D,
    "display_size": (128, 64),
}

WIRINGS = {"ML4M": ML4M, "DEVKIT_PROTO": DEVKIT_PROTO}

# Joystick directions -> (x, y) in "player" terms: -1 left/up, +1 right/down.
_DIRECTIONS = {
    "center": (0, 0), "left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1),
    "upleft": (-1, -1), "upright": (1, -1), "downleft": (-1, 1), "downright": (1, 1),
}

ADC_MAX = 4095
TICKS_PERIOD = 1 << 30
# Start the tick counters a few seconds before they wrap, so code that compares raw
# ticks instead of using ticks_diff() fails in the tests, not after 12 days on a shelf.
TICKS_MS_START = TICKS_PERIOD - 3000
TICKS_US_START = TICKS_PERIOD - 2_000_000
TICKS_CPU_START = TICKS_PERIOD - 50_000_000
# A loop that polls ticks_ms() without sleeping would spin forever on a frozen virtual
# clock; after this many reads in a row with no time passing, time moves on by 1 ms.
_SPIN_READS = 10000

_current = None
_made = 0          # boards made so far: each gets an address of its own


def current():
    """The board that machine.* objects bind to (a default ML4M if none was made)."""
    if _current is None:
        Board()
    return _current


class _PinState:
    """One GPIO as the chip configures it (shared by every Pin object on it)."""
    __slots__ = ("mode", "pull", "out")

    def __init__(self):
        self.mode = None   # None = not configured (input, no pull)
        self.pull = None
        self.out = 0


class Board:
    StopEmulation = StopEmulation
    ResetRequested = ResetRequested

    def __init__(self, wiring=None, seed=0, realtime=False, mac=None):
        global _current, _made
        if isinstance(wiring, str):
            wiring = WIRINGS[wiring]
        self.wiring = dict(wiring or ML4M)
        self.rng = random.Random(seed)
        self.realtime = realtime
        self.noise = 0
        self.cpu_freq = 160_000_000    # ESP32 MicroPython default
        self._ns = 0                   # virtual time since this board was made
        self._events = []              # heap of (ns, seq, fn)
        self._seq = 0
        self._deadline_ns = None
        self._spin = 0
        self._pending = []             # micropython.schedule() / soft IRQ queue
        self._running_pending = False
        self.resets = 0
        self.dropped_irqs = 0
        self.idle_ns = 0               # time blocked in a FreeRTOS wait (TICK_NS above)
        self.wakes = 0                 # ...and how often the CPU woke from one
        self._notified = False         # an interrupt's task notification, not yet taken
        self.reset_cause = 1           # machine.PWRON_RESET; SOFT_RESET (5) after soft_reset()
        self.rtc_memory = b""          # machine.RTC().memory(): kept across a soft reset
        # Light sleep (machine.lightsleep): the wake pins esp32.wake_on_ext1
        # chose ((gpios), any_high) or None, and each sleep's (start ms, end ms)
        self.ext1_wake = None
        self.asleep = False
        self.sleeps = []
        self.wake_reason = 0
        self.on_sleep = None           # fn() called as a sleep begins (tests look at the flash)
        # from the wake pin to the firmware running again: clocks and flash come
        # back first; a tap shorter than this is over before the firmware looks
        self.wake_ms = 2

        # Pins: what the outside world drives (None = nothing, floating) and how
        # the chip configured each GPIO.
        self.levels = {}
        self.pins = {}
        self.irqs = {}                 # gpio -> (pin object, handler, trigger, hard)
        released = self.wiring["button_released_level"]
        for gpio in self.wiring["buttons"].values():
            self.levels[gpio] = released
        self.analog = {}               # gpio -> raw counts as read at ATTN_11DB
        self.dead = {}                 # gpio -> counts a broken stick axis reads, whatever is pushed
        self.center()

        self.dac_log = []              # (time_ms, value) DAC writes on the speaker pin
        self.pwm_log = []              # (time_ms, freq_hz, duty_u16) on the speaker pin

        width, height = self.wiring["display_size"]
        self.panel = SSD1306(width, height, rng=self.rng)
        self.buses = {}
        self.bus = self.bus_at(self.wiring["i2c_scl"], self.wiring["i2c_sda"])
        self._display_present = True
        self.bus.attach(self.wiring["display_address"], self.panel)

        # The radio (tools/emu/air.py): off, in no room until air.join(board).
        _made += 1
        self.air = None
        self.radio = BoardRadio(self, mac or mac_for(_made))
        _current = self

    def make_current(self):
        """machine.*, time.ticks_* and the radio's stand-ins act on this board
        from now on (tests that step two boards in turn call it before each)."""
        global _current
        _current = self

    # ---- time -------------------------------------------------------------------
    def now_ms(self):
        """Virtual milliseconds since this board was made (float, never wraps)."""
        return self._ns / 1e6

    def now_us(self):
        return self._ns // 1000

    def ticks_ms(self):
        self._poll_spin()
        return (TICKS_MS_START + self._ns // 1_000_000) & (TICKS_PERIOD - 1)

    def ticks_us(self):
        self._poll_spin()
        return (TICKS_US_START + self._ns // 1000) & (TICKS_PERIOD - 1)

    def ticks_cpu(self):
        self._poll_spin()
        cycles = self._ns * self.cpu_freq // 1_000_000_000
        return (TICKS_CPU_START + cycles) & (TICKS_PERIOD - 1)

    def _poll_spin(self):
        self._run_pending()
        self._spin += 1
        if self._spin > _SPIN_READS:
            self.advance_ns(1_000_000)

    def advance(self, ms):
        """Let `ms` milliseconds of virtual time pass (events and timers fire)."""
        self.advance_ns(int(round(ms * 1_000_000)))

    def sleep_ms(self, ms):
        # MicroPython ignores negative delays.
        if ms <= 0:
            self._run_pending()
            return
        # as the ESP32 port does it: blocked while more than a tick is left,
        # then a busy wait to the exact end (same end time as a plain advance)
        start = self._ns
        total = int(ms) * 1_000_000
        while True:
            self._run_pending()
            if self._ns - start + TICK_NS >= total:
                break
            self.wait_tick()            # (realtime: sleeps the host as long)
        rest = start + total - self._ns
        self.advance_ns(rest)
        if self.realtime:
            _host_time.sleep(rest / 1e9)

    def notify(self):
        """An interrupt woke the main task (the port's ISRs do it after
        scheduling their callback): a blocked wait ends now."""
        self._notified = True

    def wait_tick(self):
        """One ulTaskNotifyTake(pdFALSE, 1): blocked until the next FreeRTOS tick
        or an interrupt's notification, whichever comes first (at once if one
        is waiting already). Counted in idle_ns and wakes."""
        self.wakes += 1
        if self._notified:
            self._notified = False
            return
        start = self._ns
        edge = (start // TICK_NS + 1) * TICK_NS
        try:
            while not self._notified:
                due = self._events[0][0] if self._events else None
                if due is None or due >= edge:
                    self.advance_ns(edge - self._ns)
                    break
                self.advance_ns(due - self._ns)
        finally:
            self._notified = False
            self.idle_ns += self._ns - start
        if self.realtime:
            _host_time.sleep((self._ns - start) / 1e9)

    def poll(self):
        """select.poll() as the ESP32 port's, for objects that answer ioctl
        (the firmware's Clock): see SelectPoll."""
        return SelectPoll(self)

    def sleep_us(self, us):
        if us > 0:
            self.advance_ns(int(us) * 1000)
            if self.realtime:
                _host_time.sleep(us / 1e6)
        else:
            self._run_pending()

    def advance_ns(self, ns):
        target = self._ns + max(0, ns)
        self._spin = 0
        self._run_pending()
        while True:
            due = self._events[0][0] if self._events else None
            if self._deadline_ns is not None and self._deadline_ns <= target and (
                    due is None or self._deadline_ns < due):
                self._ns = max(self._ns, self._deadline_ns)
                self._deadline_ns = None
                raise StopEmulation("virtual time is up")
            if due is None or due > target:
                break
            when, _, fn = heapq.heappop(self._events)
            self._ns = max(self._ns, when)
            fn()
            self._run_pending()
        self._ns = max(self._ns, target)
        self._run_pending()

    def lightsleep(self, ms=None):
        """machine.lightsleep(ms): the CPU stops until a wake source or the
        time. Virtual time passes and scheduled events (presses, the
        simulator's ticks) still happen; pin IRQs do not run while asleep
        (the CPU is stopped), so the firmware learns of the waking press by
        reading the pin afterwards, as it must on the chip."""
        if self.on_sleep is not None:
            self.on_sleep()
        start = self._ns
        end = None if ms is None else self._ns + int(ms) * 1_000_000
        self.asleep = True
        try:
            while not self._wake_pin_active():
                if end is not None and self._ns >= end:
                    self.wake_reason = 4        # machine.TIMER_WAKE
                    break
                due = [t for t in (end, self._events[0][0] if self._events else None,
                                   self._deadline_ns) if t is not None]
                if not due:
                    raise SleptForever("lightsleep() with nothing scheduled to wake the board")
                self.advance_ns(max(min(due) - self._ns, 1000))
            else:
                self.wake_reason = 3            # machine.EXT1_WAKE
                self.advance_ns(int(self.wake_ms * 1_000_000))
        finally:
            self.asleep = False
            self.sleeps.append((start / 1e6, self._ns / 1e6))

    def _wake_pin_active(self):
        if self.ext1_wake is None:
            return False
        gpios, any_high = self.ext1_wake
        levels = [self.read_level(g) for g in gpios]
        return any(levels) if any_high else not any(levels)

    def at(self, ms, fn):
        """Call fn() when the virtual clock reaches `ms` (now_ms() time line).
        Events fire in time order (ties in the order they were scheduled) during
        advance(), time.sleep_ms() and bus transfers."""
        self.schedule_ns(int(round(ms * 1_000_000)), fn)

    def after(self, ms, fn):
        """Call fn() `ms` milliseconds from now."""
        self.schedule_ns(self._ns + int(round(ms * 1_000_000)), fn)

    def schedule_ns(self, when_ns, fn):
        self._seq += 1
        heapq.heappush(self._events, (when_ns, self._seq, fn))

    def run(self, fn, ms):
        """Call fn() and stop it with StopEmulation once `ms` more milliseconds of
        virtual time have passed. Returns fn's result if it returns by itself,
        None if it was stopped (or reset)."""
        self._deadline_ns = self._ns + int(round(ms * 1_000_000))
        try:
            return fn()
        except ResetRequested:
            self.resets += 1
            self.radio.reset()          # a reset turns Wi-Fi off
            return None
        except StopEmulation:
            return None
        finally:
            self._deadline_ns = None

    # ---- resets ----------------------------------------------------------------------
    def soft_reset(self):
        """What the ESP32 port does at a soft reset, outside the heap: pin
        IRQs and pending callbacks dropped, the PWM stopped. Pin levels, the
        RTC memory, the clock and the panel (its picture and settings) stay."""
        self.reset_cause = 5           # machine.SOFT_RESET
        self.irqs.clear()
        self._pending.clear()
        speaker = self.wiring["speaker"]
        if self.pwm_log and self.pwm_log[-1][1]:
            self.log_pwm(speaker, 0, 0)

    def power_cycle(self):
        """Power off and on again, as far as the firmware can tell: the RTC
        memory is lost and the next start is a power-on."""
        self.reset_cause = 1           # machine.PWRON_RESET
        self.rtc_memory = b""
        self.irqs.clear()
        self._pending.clear()

    # ---- micropython.schedule and soft IRQs ------------------------------------
    def schedule(self, fn, arg):
        if len(self._pending) >= 8:     # MICROPY_SCHEDULER_DEPTH on the ESP32
            raise RuntimeError("schedule queue full")
        self._pending.append((fn, arg))

    def _run_pending(self):
        # Scheduled callbacks run "between bytecodes" on MicroPython; here, at the
        # next touch of the clock or a pin. Never nested inside one another.
        if self._running_pending or not self._pending:
            return
        self._running_pending = True
        try:
            while self._pending:
                fn, arg = self._pending.pop(0)
                fn(arg)
        finally:
            self._running_pending = False

    # ---- pins ----------------------------------------------------------------------
    def pin_state(self, gpio):
        state = self.pins.get(gpio)
        if state is None:
            state = self.pins[gpio] = _PinState()
        return state

    def read_level(self, gpio):
        """The logic level the chip reads on a GPIO."""
        state = self.pins.get(gpio)
        outside = self.levels.get(gpio)
        if state is not None and state.mode == "out":
            return state.out
        if state is not None and state.mode == "open_drain":
            return 0 if (state.out == 0 or outside == 0) else 1
        if outside is not None:
            return outside
        # Floating: only a pull decides. GPIO34-39 have no pull resistors at all.
        if state is not None and gpio < 34:
            if state.pull == "up":
                return 1
            if state.pull == "down":
                return 0
        return 0

    def drive(self, gpio, level):
        """Drive a GPIO from outside (0, 1, or None to let it float); fires IRQs."""
        before = self.read_level(gpio)
        self.levels[gpio] = level
        self.pin_changed(gpio, before)

    def pin_changed(self, gpio, before):
        """Call after anything that may change a pin's level; fires its IRQ on an edge."""
        after = self.read_level(gpio)
        if after == before or gpio not in self.irqs or self.asleep:
            return
        pin, handler, trigger, hard = self.irqs[gpio]
        edge = 1 if after else 2   # IRQ_RISING, IRQ_FALLING
        if handler is None or not (trigger & edge):
            return
        if hard:
            handler(pin)
        elif len(self._pending) < 8:
            self.schedule(handler, pin)
        else:
            # The port's ISR drops the callback when the scheduler queue is full.
            self.dropped_irqs += 1
        self.notify()

    # ---- buttons -------------------------------------------------------------------
    def _button_gpio(self, name):
        try:
            return self.wiring["buttons"][name]
        except KeyError:
            raise ValueError("no button %r on %s" % (name, self.wiring["name"])) from None

    def press(self, name):
        self.drive(self._button_gpio(name), self.wiring["button_pressed_level"])

    def release(self, name):
        self.drive(self._button_gpio(name), self.wiring["button_released_level"])

    def is_pressed(self, name):
        return self.levels.get(self._button_gpio(name)) == self.wiring["button_pressed_level"]

    def hold(self, name, ms):
        """Press, let `ms` pass, release."""
        self.press(name)
        self.advance(ms)
        self.release(name)

    def tap(self, name, ms=60):
        self.hold(name, ms)

    def bounce(self, name, edges=5, ms=3, release=False):
        """A bouncing contact: `edges` level changes spread evenly over `ms`, the first
        one now, ending pressed (or released with release=True). The later edges
        are scheduled, so they happen while the firmware runs. An even `edges` is
        rounded up so the contact still ends in the requested state."""
        if edges % 2 == 0:
            edges += 1
        final = self.release if release else self.press
        other = self.press if release else self.release
        step_ns = int(ms * 1_000_000) // max(1, edges - 1)
        for i in range(edges):
            action = final if i % 2 == 0 else other
            if i == 0:
                action(name)
            else:
                self.schedule_ns(self._ns + i * step_ns, lambda a=action: a(name))

    # ---- joystick ------------------------------------------------------------------
    def push(self, direction):
        """Push the stick fully in a direction ("left", "upright", ... or "center")."""
        key = direction.lower().replace("-", "").replace("_", "").replace(" ", "")
        if key not in _DIRECTIONS:
            raise ValueError("unknown direction %r" % direction)
        dx, dy = _DIRECTIONS[key]
        rest_x, rest_y = self.wiring["joystick_rest"]
        if self.wiring["joystick_x_inverted"]:
            dx = -dx
        if self.wiring["joystick_y_inverted"]:
            dy = -dy
        x = rest_x if dx == 0 else (ADC_MAX if dx > 0 else 0)
        y = rest_y if dy == 0 else (ADC_MAX if dy > 0 else 0)
        self.joystick_raw(x, y)

    def center(self):
        self.joystick_raw(*self.wiring["joystick_rest"])

    def joystick_raw(self, x, y):
        """Set the stick's voltages as raw 12-bit counts read at ATTN_11DB."""
        self.analog[self.wiring["joystick_x"]] = max(0, min(ADC_MAX, int(x)))
        self.analog[self.wiring["joystick_y"]] = max(0, min(ADC_MAX, int(y)))

    def kill_axis(self, axis, raw=0):
        """A broken stick axis ("x" or "y"): its wiper reads `raw` counts (0: cut
        off, as a wiper that lost its track reads ground), whatever is pushed."""
        self.dead[self.wiring["joystick_" + axis]] = raw

    def analog_raw(self, gpio):
        """Counts at ATTN_11DB (with noise) for an ADC read on `gpio`."""
        if gpio in self.dead:
            return self.dead[gpio]
        raw = self.analog.get(gpio)
        if raw is None:
            # An unconnected ADC pin follows its digital level, roughly.
            raw = ADC_MAX if self.read_level(gpio) else 0
        if self.noise:
            raw += self.rng.randint(-self.noise, self.noise)
        return max(0, min(ADC_MAX, raw))

    # ---- speaker -------------------------------------------------------------------
    def log_dac(self, gpio, value):
        if gpio == self.wiring["speaker"]:
            self.dac_log.append((self.now_ms(), value))

    def log_pwm(self, gpio, freq, duty_u16):
        if gpio == self.wiring["speaker"]:
            self.pwm_log.append((self.now_ms(), freq, duty_u16))

    # ---- I2C -------------------------------------------------------------------------
    def bus_at(self, scl, sda):
        """The I2C bus on these two pins (an empty one if nothing is wired there)."""
        key = (scl, sda)
        if key not in self.buses:
            self.buses[key] = Bus(self)
        return self.buses[key]

    @property
    def display_present(self):
        return self._display_present

    @display_present.setter
    def display_present(self, present):
        """False: unplug the panel -- transfers to its address get OSError(19)."""
        self._display_present = bool(present)
        address = self.wiring["display_address"]
        if present:
            self.bus.attach(address, self.panel)
        else:
            self.bus.detach(address)


class SelectPoll:
    """select.poll() of the ESP32 port, for objects with an ioctl(req, arg)
    method (io.IOBase streams written in Python): ipoll(timeout_ms) asks each
    object whether it is ready (MP_STREAM_POLL, 3) and, while none is, blocks a
    FreeRTOS tick at a time (Board.wait_tick: an interrupt ends the block), until
    timeout_ms have passed on ticks_ms (extmod/modselect.c). Scheduled callbacks
    (soft IRQs) have run by the time the object is asked, as on the board, where
    the object's Python ioctl runs them at its first conditional jump."""

    POLL = 3

    def __init__(self, board):
        self.board = board
        self.objects = []
        self.asked = 0          # ioctl calls: Python run on every look

    def register(self, obj, mask=1):
        self.objects.append((obj, mask))

    def ipoll(self, timeout_ms=-1, flags=0):
        board = self.board
        if current() is not board:
            # the firmware's Timer and pins act on the current board: this
            # poll would wait on a clock nothing moves
            raise RuntimeError("select.poll of another board: make it while the "
                               "board the Hal runs on is the current one")
        start = board.ticks_ms()
        while True:
            board._run_pending()
            ready = []
            for obj, mask in self.objects:
                self.asked += 1
                got = obj.ioctl(self.POLL, mask)
                if got:
                    ready.append((obj, got))
            elapsed = (board.ticks_ms() - start) & (TICKS_PERIOD - 1)
            if ready or 0 <= timeout_ms <= elapsed:
                return ready
            board.wait_tick()

    poll = ipoll
