# Why this module is long (~320 lines), in one file: the four steps share Step
# (its 10 s give-up) and Question (A yes, B no), each is small, and they read
# best in the order the owner meets them.
"""The steps of Test board (firmware/screens/board_test.py), one small object
each: the inputs, the stick's range, the panel, the speaker. A step's
update(now) returns True when it is over; what went wrong it adds to the
test's failures as (code, text), the codes the README explains (E1..E8).
Each step gives up when nothing new has happened for 10 s."""
import time

from machine import ADC, Pin
from micropython import const

from firmware.hal.controls import A, B
from firmware.ui import draw

# the inputs by number (firmware/hal/controls.py: A..F, then LEFT, RIGHT, UP, DOWN)
_NAMES = const(("A", "B", "C", "D", "E", "F", "LEFT", "RIGHT", "UP", "DOWN"))

GIVE_UP_MS = const(10000)
_ALL_INPUTS = const(0x3FF)   # the six buttons and the four stick directions
_CENTRE_FRAMES = const(16)   # frames the stick is read let go, for its centre
_STILL = const(120)          # counts a let-go stick may wobble while its centre is read
_GROWN = const(20)           # counts an end must move to count as news while circling
_PATTERN_MS = const(900)     # each panel pattern is shown this long
_CONTRASTS = (0, 32, 96, 160, 255)
_SWEEP = [(300 + 270 * i, 40) for i in range(10)] + [(0, 250)]   # 300..2730 Hz, a rest


class Step:
    title = ""

    def __init__(self, test, now):
        self.test = test
        self.hal = test.hal
        self.since = now          # the last time something new happened
        self.dirty = True

    def news(self, now):
        """Something happened: the 10 s start again, the step is redrawn."""
        self.since = now
        self.dirty = True

    def given_up(self, now):
        return time.ticks_diff(now, self.since) >= GIVE_UP_MS

    def seconds_left(self, now):
        return max(0, GIVE_UP_MS - time.ticks_diff(now, self.since)) // 1000

    def page(self, display):
        return draw.page(display, self.title)


class Inputs(Step):
    """Every button and the four stick directions tick off when used.
    E1: a button never pressed; E2: one held the whole time (stuck);
    E3: a stick direction never reached."""
    title = "Press all"

    def __init__(self, test, now):
        Step.__init__(self, test, now)
        self.seen = 0

    def update(self, now):
        c = self.hal.controls
        for i in range(10):
            if c.just_pressed(i) and not self.seen >> i & 1:
                self.seen |= 1 << i
                self.news(now)
                self.hal.sound.click(now)
        if self.seen == _ALL_INPUTS:
            return True
        if not self.given_up(now):
            return False
        held = self.held()
        missing = [i for i in range(10) if not self.seen >> i & 1]
        stuck = [_NAMES[i] for i in missing if held >> i & 1]
        never = [_NAMES[i] for i in missing if i < 6 and not held >> i & 1]
        pushes = [_NAMES[i] for i in missing if i >= 6 and not held >> i & 1]
        for code, names in (("E1", never), ("E2", stuck), ("E3", pushes)):
            if names:
                self.test.fail(code, " ".join(names))
        return True

    def held(self):
        """Bits of the inputs held now, read from the pins and the stick (the
        controls hide an input held since the step began)."""
        board = self.hal.board
        bits = 0
        for i, (_name, gpio) in enumerate(board.BUTTONS):
            if Pin(gpio).value() == board.BUTTON_ACTIVE:
                bits |= 1 << i
        dx, dy = self.hal.controls.stick()
        press = board.JOY_PRESS
        for i, along in enumerate((-dx, dx, -dy, dy)):
            if along > press:
                bits |= 1 << (6 + i)
        return bits

    def draw(self, display):
        fb = self.page(display)
        for i in range(10):
            x = 4 + (i % 6) * 20 if i < 6 else 4 + (i - 6) * 30
            y = 14 if i < 6 else 30
            name = _NAMES[i] if i < 6 else "<>^v"[i - 6]
            if self.seen >> i & 1:
                fb.fill_rect(x - 2, y - 2, 12, 12, 1)
            fb.text(name, x, y, 0 if self.seen >> i & 1 else 1)
        draw.centred(fb, "each button and", 42)
        draw.centred(fb, "stick direction", 50)
        draw.key_line(fb, "GIVES UP IN %dS" % self.seconds_left(self.hal.clock.now()))


class Stick(Step):
    """The stick let go (its centre), then circled (its range): judged and
    kept by firmware.stick_range. E4: an axis that did not move; E5: a range
    refused (or not saved), the calibration before it kept."""
    title = "Stick"

    def __init__(self, test, now):
        Step.__init__(self, test, now)
        board = self.hal.board
        atten = ADC.ATTN_11DB     # as the controls read it: full 0..3.3 V
        self.adcs = (ADC(Pin(board.JOY_X_PIN), atten=atten), ADC(Pin(board.JOY_Y_PIN), atten=atten))
        self.x = self.y = 0       # the raw readings, 12-bit counts
        self.samples = []         # (x, y) read let go, for the centre
        self.cal = None           # the capture: centre, then the ends
        self.outcome = None       # what the panel says when it is over
        self.until = now

    def read(self):
        """Raw 12-bit counts of both axes, each the mean of 4 reads."""
        counts = []
        for adc in self.adcs:
            total = 0
            for _ in range(4):
                total += adc.read_u16()
            counts.append(total // 4 >> 4)
        self.x, self.y = counts
        return counts

    def update(self, now):
        c = self.hal.controls
        x, y = self.read()
        if self.outcome is not None:
            return time.ticks_diff(now, self.until) >= 0
        if self.cal is None:
            return self._centre(now, x, y)
        cal = self.cal
        grew = False
        for key, value, wider in (("x_low", x, x < cal["x_low"] - _GROWN),
                                  ("x_high", x, x > cal["x_high"] + _GROWN),
                                  ("y_low", y, y < cal["y_low"] - _GROWN),
                                  ("y_high", y, y > cal["y_high"] + _GROWN)):
            if wider:
                cal[key] = value
                grew = True
        if grew:
            self.news(now)
        self.dirty = True                 # the raw readings change all the time
        if c.just_pressed(A) or self.given_up(now):
            self._finish(now)
        return False

    def _centre(self, now, x, y):
        self.samples.append((x, y))
        xs = [s[0] for s in self.samples]
        ys = [s[1] for s in self.samples]
        if max(xs) - min(xs) > _STILL or max(ys) - min(ys) > _STILL:
            self.samples = [(x, y)]      # moving: start again
        if self.given_up(now):           # never still for half a second
            self.test.fail("E4", "stick never still")
            return True
        if len(self.samples) >= _CENTRE_FRAMES:
            cx = sum(xs) // len(xs)
            cy = sum(ys) // len(ys)
            self.cal = {"center_x": cx, "center_y": cy,
                        "x_low": cx, "x_high": cx, "y_low": cy, "y_high": cy}
            self.news(now)
        return False

    def _finish(self, now):
        from firmware import modules
        with modules.borrowed("firmware.stick_range") as stick_range:
            cal = self.cal
            dead = [axis for axis in ("x", "y") if cal[axis + "_high"] - cal[axis + "_low"]
                    < stick_range.DEAD]
            reason = stick_range.keep(self.hal, cal)
        if dead:
            self.test.fail("E4", "%s axis dead" % " ".join(dead).upper())
        elif reason is not None:
            self.test.fail("E5", reason.replace("\n", " "))
        self.outcome = reason or "Range saved"
        self.until = time.ticks_add(now, 2000)
        self.dirty = True

    def draw(self, display):
        fb = self.page(display)
        if self.outcome is not None:
            for i, line in enumerate(self.outcome.split("\n")):
                draw.centred(fb, line, 20 + 10 * i)
            if self.outcome != "Range saved":
                draw.centred(fb, "so not kept", 44)
            return
        fb.text("raw %4d %4d" % (self.x, self.y), 0, 12, 1)
        if self.cal is None:
            draw.centred(fb, "Let go of it", 30)
            return
        cal = self.cal
        fb.text("mid %4d %4d" % (cal["center_x"], cal["center_y"]), 0, 22, 1)
        fb.text("X %4d..%4d" % (cal["x_low"], cal["x_high"]), 0, 32, 1)
        fb.text("Y %4d..%4d" % (cal["y_low"], cal["y_high"]), 0, 42, 1)
        draw.key_line(fb, "CIRCLE IT, THEN A  %dS" % self.seconds_left(self.hal.clock.now()))


class Question(Step):
    """A yes/no at the end of a step the owner judges: A yes, B no; no
    answer in 10 s counts as no."""

    def ask(self, now, code, what):
        """True when the question is answered (or given up)."""
        c = self.hal.controls
        if c.just_pressed(A):
            return True
        if c.just_pressed(B) or self.given_up(now):
            self.test.fail(code, what)
            return True
        return False


class Panel(Question):
    """All on, a checkerboard, contrast steps, inverted; then the question.
    E6: no panel answers at the board file's address; E7: the owner saw a
    pattern wrong."""
    title = "Panel"

    def __init__(self, test, now):
        Question.__init__(self, test, now)
        display = self.hal.display
        self.addr = self.hal.board.DISPLAY_ADDR
        self.frame_ms = None
        self.shown = 0            # patterns shown so far; 5 is the question
        if display.present:
            display.invalidate()  # the whole frame goes on the bus, timed
            t = time.ticks_us()
            display.flush()
            self.frame_ms = time.ticks_diff(time.ticks_us(), t) / 1000
        self.next = now

    def update(self, now):
        display = self.hal.display
        if not display.present:
            self.test.fail("E6", "no panel at 0x%02X" % self.addr)
            return True
        if self.shown < len(_CONTRASTS) + 3:
            if time.ticks_diff(now, self.next) >= 0:
                self.shown += 1
                self.next = time.ticks_add(now, _PATTERN_MS // (1 if self._contrast() is None else 3))
                self.news(now)
            return False
        if not self.ask(now, "E7", "panel looked wrong"):
            return False
        display.invert(False)
        self.test.app.settings.apply(self.hal)   # the owner's brightness back
        return True

    def _contrast(self):
        """The contrast step shown now, or None."""
        i = self.shown - 3
        return _CONTRASTS[i] if 0 <= i < len(_CONTRASTS) else None

    def draw(self, display):
        fb = display.fb
        step = self.shown
        if step == 1:
            fb.fill(1)
        elif step == 2:
            buf = display.buffer       # a checkerboard of single pixels
            for i in range(len(buf)):
                buf[i] = 0x55 if i & 1 else 0xAA
        elif self._contrast() is not None:
            fb.fill(1)
            display.contrast(self._contrast())
        elif step >= 3:
            self.test.app.settings.apply(self.hal)
            fb = self.page(display)
            fb.text("I2C 0x%02X" % self.addr, 0, 14, 1)
            fb.text("frame %d ms" % self.frame_ms, 0, 24, 1)
            draw.centred(fb, "All looked OK?", 36)
            draw.key_line(fb, "A: YES  B: NO  %dS" % self.seconds_left(self.hal.clock.now()))
            display.invert(True)       # the last pattern: the question, inverted


class Speaker(Question):
    """A short sweep at each volume level, soft to loud, then the question.
    E8: the owner did not hear them."""
    title = "Speaker"

    def __init__(self, test, now):
        Question.__init__(self, test, now)
        self.level = 0            # the volume of the sweep playing (1..3), 4: asking

    def update(self, now):
        sound = self.hal.sound
        if self.level <= 3:
            if not sound.busy():
                self.level += 1
                if self.level <= 3:
                    sound.volume = self.level
                    sound.play(_SWEEP, now, force=True)   # heard even when muted
                self.news(now)
            return False
        if not self.ask(now, "E8", "no sound"):
            return False
        self.test.app.settings.apply(self.hal)   # the owner's volume back
        return True

    def draw(self, display):
        fb = self.page(display)
        if self.level <= 3:
            draw.centred(fb, "Volume %d of 3" % self.level, 24)
            return
        draw.centred(fb, "Heard 3 sweeps,", 20)
        draw.centred(fb, "soft to loud?", 30)
        draw.key_line(fb, "A: YES  B: NO  %dS" % self.seconds_left(self.hal.clock.now()))


STEPS = (Inputs, Stick, Panel, Speaker)
