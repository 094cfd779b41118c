# Why this module is long (~350 lines), in one file: the buttons and the stick
# share one bit per input, so held, auto-repeat, suspend and activity work the
# same for both.
# Six buttons and an analog joystick, read once per frame by update(now).
#
# Buttons: a press is taken at the first sign of it (level at the frame, or an
# edge caught by Pin.irq between frames), so debouncing adds no latency; the
# bounce is absorbed afterwards: a button stays down for at least DEBOUNCE ms
# and edges within DEBOUNCE ms after a release are the contact settling, not a
# new press. A tap shorter than a frame is latched by the IRQ and shows as
# pressed for one frame.
#
# Joystick: deviation from a rest position calibrated at power-on (and kept
# across a launch's soft reset), with a dead
# zone and hysteresis (a direction engages beyond PRESS counts and lets go only
# inside RELEASE), so ADC noise and a drifting pot never make a phantom move.
# The four directions are exclusive (the stronger axis wins), which is what a
# grid game wants; stick() gives the deviation for anything analog. A range
# captured by Test board (firmware/stick_range.py) scales each half-axis, so a
# stick that reaches only part of the ADC's span still pushes fully.
from micropython import const
import time
from machine import Pin, ADC

A = const(0)
B = const(1)
C = const(2)
D = const(3)
E = const(4)
F = const(5)
LEFT = const(6)
RIGHT = const(7)
UP = const(8)
DOWN = const(9)
BUTTONS = (A, B, C, D, E, F)

_INPUTS = const(10)
_NBUTTONS = const(6)
_REPEAT_DELAY_MS = const(350)   # like a keyboard: first repeat after this long...
_REPEAT_RATE_MS = const(80)     # ...then one every this many ms
# A stick's full push, in the counts the thresholds are written in: a range
# captured by Test board (firmware/stick_range.py) scales each half-axis so
# that its own end reads this far from the centre.
_FULL_PUSH = const(1850)
# E and F together are the mute chord (held _CHORD_MS): so that the chord never
# also acts as E or F, those two report their press when they are let go (a tap),
# and not at all when they were part of a chord.
_CHORD = const(0x30)            # E | F
_CHORD_MS = const(1000)
_TOGGLED = const(-1)            # (a ticks_ms() value is never negative)


class Controls:
    def __init__(self, board, now=None, rest=None):
        # the board's numbers (the buttons' level and debounce, the stick's
        # signs, thresholds and calibration limits) are read from the board
        # module when used, not copied here
        self._board = board
        pull = {None: None, "up": Pin.PULL_UP, "down": Pin.PULL_DOWN}[board.BUTTON_PULL]
        self._pins = [Pin(gpio, Pin.IN, pull) for _name, gpio in board.BUTTONS]
        t = time.ticks_ms()
        self._latch = bytearray(_NBUTTONS)     # an edge was seen since the last frame
        # raised by an edge that update() will take as a new press (not a
        # bounce, not a button already down): the clock starts the frame at
        # once (firmware.hal.clock, wake); update() lowers it
        self.wake = bytearray(1)
        self._latch_t = [t] * _NBUTTONS        # ...at this tick
        self._t_press = [t] * _INPUTS
        self._t_release = [t] * _NBUTTONS
        self._next_repeat = [t] * _INPUTS
        self._down = 0        # debounced state, bit per input
        self._state = 0       # what this frame reports (suspended inputs hidden)
        self._prev = 0        # what the last frame reported
        self._mask = 0        # inputs ignored until they are let go
        self._repeat = 0
        self._chord_prev = 0       # E and F as they were down last frame
        # when E and F went down together (no tap of either then), None while
        # they are not; _TOGGLED once this hold has toggled the mute
        self._chord_t = None
        self.chorded = False       # True for the one frame the chord completes
        self._activity = False
        self._now = t if now is None else now
        for i in range(_NBUTTONS):
            self._t_release[i] = time.ticks_add(self._now, -1000)
        # Edge capture between frames. If the port has no IRQ on these pins,
        # poll() does the same job and Clock calls it while it sleeps.
        self.irq = True
        trigger = Pin.IRQ_RISING if board.BUTTON_ACTIVE else Pin.IRQ_FALLING
        # One bound method serves the six pins, the pin it is given says which
        # button it is (README, "Why the code looks like this": buffers made once).
        handler = self._on_edge
        try:
            for pin in self._pins:
                pin.irq(handler=handler, trigger=trigger)
        except Exception:
            self.irq = False

        atten = ADC.ATTN_11DB   # full 0..3.3 V range (the default is 0 dB)
        self._adc_x = ADC(Pin(board.JOY_X_PIN), atten=atten)
        self._adc_y = ADC(Pin(board.JOY_Y_PIN), atten=atten)
        self.center_x = board.JOY_REST_X
        self.center_y = board.JOY_REST_Y
        self.calibrated = False   # True when the rest was measured, not assumed
        # how far each half-axis reaches from the centre: left, right, up, down
        # in raw counts; _FULL_PUSH each (no scaling) until firmware/stick_range.py
        # gives a captured range
        self.reach = [_FULL_PUSH] * 4
        self._dx = 0
        self._dy = 0
        self._dir = -1
        if rest is None:
            self.calibrate()
        else:
            # measured before a soft reset (a launch): not again while a thumb
            # may be on the stick
            self.center_x, self.center_y = rest
            self.calibrated = True
            self._sample_stick()

    def _on_edge(self, pin):
        # runs in IRQ context: no allocation, just note it. Pin(n) is the same
        # object every time on the ESP32 (and in the emulators), so the pin
        # the IRQ passes is one of ours.
        pins = self._pins
        i = 0
        while i < _NBUTTONS:
            if pins[i] is pin:
                break
            i += 1
        else:
            return
        t = time.ticks_ms()
        self._latch[i] = 1
        self._latch_t[i] = t
        # the same test update() makes: a button up, and not settling from
        # a release, is pressed now: the frame may start at once
        if (not self._down >> i & 1
                and time.ticks_diff(t, self._t_release[i]) >= self._board.BUTTON_DEBOUNCE_MS):
            self.wake[0] = 1

    def poll(self):
        """Sample the buttons between frames (for ports without pin IRQs)."""
        active = self._board.BUTTON_ACTIVE
        for i in range(_NBUTTONS):
            if self._pins[i].value() == active:
                self._on_edge(self._pins[i])

    # ---- joystick -----------------------------------------------------------
    def _read(self, adc):
        n = self._board.JOY_SAMPLES
        s = 0
        for _ in range(n):
            s += adc.read_u16()
        return (s // n) >> 4    # 12-bit counts

    def calibrate(self):
        """Measure the stick's rest position (firmware/hal/calibrate.py).
        Returns True when the rest was measured."""
        # imported by its name as text: a game's program, whose rest was
        # measured before its launch, interns no name of that module
        return __import__("firmware.hal.calibrate", None, None, ["calibrate"]).calibrate(self)

    def _sample_stick(self):
        x = self._read(self._adc_x)
        y = self._read(self._adc_y)
        dx = x - self.center_x
        dy = y - self.center_y
        board = self._board
        sx = -dx if board.JOY_X_INVERT else dx
        sy = -dy if board.JOY_Y_INVERT else dy
        reach = self.reach
        # in _FULL_PUSH units (exact when uncalibrated: _FULL_PUSH // _FULL_PUSH)
        self._dx = sx * _FULL_PUSH // reach[0 if sx < 0 else 1]
        self._dy = sy * _FULL_PUSH // reach[2 if sy < 0 else 3]
        press = board.JOY_PRESS
        release = board.JOY_RELEASE
        d = self._dir
        if d >= 0:
            along = (-self._dx if d == LEFT else self._dx if d == RIGHT
                     else -self._dy if d == UP else self._dy)
            if along < release:
                d = -1
        if d < 0:
            ax = abs(self._dx)
            ay = abs(self._dy)
            if ax >= ay:
                if ax > press:
                    d = LEFT if self._dx < 0 else RIGHT
            elif ay > press:
                d = UP if self._dy < 0 else DOWN
        self._dir = d
        if d < 0 and abs(dx) < release and abs(dy) < release:
            # follow a slowly drifting rest while the stick is inside the
            # inner zone (time constant ~32 frames); a push outruns it
            self.center_x += (dx + 16) >> 5
            self.center_y += (dy + 16) >> 5

    def stick(self):
        """(dx, dy): deviation from rest in ADC counts, +x right, +y down
        (scaled by a captured range: a full push reads 1850)."""
        return self._dx, self._dy

    # ---- per frame ------------------------------------------------------------
    def update(self, now=None):
        if now is None:
            now = time.ticks_ms()
        self._now = now
        deb = self._board.BUTTON_DEBOUNCE_MS
        active = self._board.BUTTON_ACTIVE
        latch = self._latch
        latch_t = self._latch_t
        t_press = self._t_press
        t_release = self._t_release
        down = self._down
        before = down
        self.wake[0] = 0        # an edge after this is the next frame's
        for i in range(_NBUTTONS):
            bit = 1 << i
            edge = latch[i]
            latch[i] = 0        # clear before reading: a later edge waits for next frame
            raw = self._pins[i].value() == active
            if down & bit:
                if not raw and time.ticks_diff(now, t_press[i]) >= deb:
                    down &= ~bit
                    t_release[i] = now
            elif raw or edge:
                # a press, unless it is the contact settling after a release
                t = now if raw else latch_t[i]
                if time.ticks_diff(t, t_release[i]) >= deb:
                    down |= bit
                    t_press[i] = now
        self._sample_stick()
        old_dir = before & 0x3C0
        new_dir = 0 if self._dir < 0 else 1 << self._dir
        if new_dir and not old_dir & new_dir:
            t_press[self._dir] = now
        down = (down & 0x3F) | new_dir
        self._down = down
        # activity is a change: a button or a stick direction taken or let
        # go. A stuck button or a stick left pushed is no activity, so the
        # panel still dims and sleeps (no burn-in); any change wakes it.
        self._activity = down != before
        mask = self._mask & down        # an input leaves the mask when let go
        self._mask = mask
        state = self._taps(down & ~mask, now)
        prev = self._state
        self._prev = prev
        self._state = state
        # auto-repeat: the frame of the push, then after the delay at the rate
        nxt = self._next_repeat
        fresh = state & ~prev
        rep = fresh
        held = state & prev
        for i in range(_INPUTS):
            bit = 1 << i
            if fresh & bit:
                nxt[i] = time.ticks_add(now, _REPEAT_DELAY_MS)
            elif held & bit and time.ticks_diff(now, nxt[i]) >= 0:
                rep |= bit
                n = time.ticks_add(nxt[i], _REPEAT_RATE_MS)
                if time.ticks_diff(n, now) <= 0:   # a long frame: no burst
                    n = time.ticks_add(now, _REPEAT_RATE_MS)
                nxt[i] = n
        self._repeat = rep

    def _taps(self, state, now):
        """state with E and F reported as taps: set on the frame they are let
        go, unless both were held together (the chord, in self.chorded)."""
        was_down = self._chord_prev
        self._chord_prev = state & _CHORD
        both = state & _CHORD == _CHORD
        self.chorded = False
        if both:
            if self._chord_t is None:
                self._chord_t = now
            elif self._chord_t != _TOGGLED and time.ticks_diff(now, self._chord_t) >= _CHORD_MS:
                self._chord_t = _TOGGLED
                self.chorded = True
        taps = 0 if self._chord_t is not None else was_down & ~state & _CHORD
        if not state & _CHORD:
            self._chord_t = None
        return (state & ~_CHORD) | taps

    def pressed(self, b):
        return bool(self._state >> b & 1)

    def just_pressed(self, b):
        return bool((self._state & ~self._prev) >> b & 1)

    def just_released(self, b):
        return bool((self._prev & ~self._state) >> b & 1)

    def held_ms(self, b):
        if self._state >> b & 1:
            return time.ticks_diff(self._now, self._t_press[b])
        return 0

    def repeat(self, b):
        """True on the frame of a push, then every _REPEAT_RATE_MS after _REPEAT_DELAY_MS."""
        return bool(self._repeat >> b & 1)

    def direction(self):
        """LEFT, RIGHT, UP, DOWN while the stick is pushed, else None."""
        d = self._dir
        if d >= 0 and self._state >> d & 1:
            return d
        return None

    def any_activity(self):
        """Anything pressed or let go this frame (suspended inputs too);
        an input held unchanged is not activity."""
        return self._activity

    def suspend_until_release(self):
        """Ignore everything held now until it is let go, and report nothing
        for this frame: e.g. the press that wakes the screen is not a move."""
        self._mask = self._down
        self._state = 0
        self._prev = 0
        self._repeat = 0
        self._chord_prev = 0
