"""Running the firmware on the emulated board, with a hook on the virtual clock.

The firmware runs in this (the only) thread, exactly as on the board: boot.py, then
main.py. Everything the simulator does happens in a tick that the board's event
queue calls every TICK_MS of virtual time -- during the firmware's own
time.sleep_ms() and I2C transfers. A tick
  1. paces the run: sleeps until the wall clock catches up with the virtual clock
     (realtime only; the firmware's compute time is absorbed, so a 30 fps loop
     really runs at 30 fps);
  2. takes inputs: keys from the terminal, or the replay's events that are due,
     and applies them to the board (recorded with the tick's virtual time);
  3. lets the front end look at the panel and the speaker.
Inputs only ever change at tick times, and ticks fall on the same virtual times in
a live session and in its replay, so a replay reproduces the session exactly:
same inputs at the same points of the firmware's execution, same final panel.
"""
import os
import random

from tools.simulator.controls import apply_event

TICK_MS = 5
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Quit(BaseException):
    """Raised from a tick to stop the firmware (q key, end of a replay, time limit).
    A BaseException like the board's StopEmulation: the firmware's crash screen
    (`except Exception`) must not catch it."""

    def __init__(self, reason):
        BaseException.__init__(self, reason)
        self.reason = reason


class SoundMonitor:
    """Watches the speaker pin's DAC and PWM writes: is the speaker making a sound,
    which tone is it playing, how many clicks has the DAC made?"""

    LINGER_MS = 150     # a click is a few ms long; show it long enough to be seen

    def __init__(self, board):
        self.board = board
        self._dac_index = 0
        self._pwm_index = 0
        self._last_dac = None
        self._pwm_on = False
        self._last_sound = None
        self.active = False
        self.started = False     # True on the tick a sound began
        self.sounds = 0          # how many times a sound began
        self.tone = None         # (frequency Hz, duty_u16) while the PWM sounds
        self.clicks = 0          # how many times the DAC moved the cone

    def update(self, now):
        board = self.board
        dac = board.dac_log
        for t, value in dac[self._dac_index:]:
            if self._last_dac is not None and value != self._last_dac:
                self._last_sound = t      # the DAC moved: the cone moved, a click
                self.clicks += 1
            self._last_dac = value
        pwm = board.pwm_log
        for entry in pwm[self._pwm_index:]:
            t, freq, duty = entry[0], entry[1], entry[2]
            self._pwm_on = bool(freq) and bool(duty)
            self.tone = (freq, duty) if self._pwm_on else None
            if self._pwm_on:
                self._last_sound = t
        # The logs grow with every write; keep them short in a long session.
        if len(dac) > 4096:
            del dac[:-1]
        if len(pwm) > 4096:
            del pwm[:-1]
        self._dac_index = len(dac)
        self._pwm_index = len(pwm)
        was = self.active
        self.active = self._pwm_on or (self._last_sound is not None
                                       and now - self._last_sound < self.LINGER_MS)
        self.started = self.active and not was
        if self.started:
            self.sounds += 1


class Session:
    """One run of the firmware on a board, with inputs from `source` (see tick())."""

    def __init__(self, board, tick_ms=TICK_MS):
        self.board = board
        self.tick_ms = tick_ms
        self.recorder = None
        self.hooks = []               # fn(now_ms) called at every tick, in order
        self.sound = SoundMonitor(board)
        self.reason = None            # why the run ended
        self.error = None             # the exception that ended it, if any
        self.events_applied = 0
        self.resets = 0               # soft resets in the run (launches and returns)
        self.seed = None              # the firmware's random seed (seeded again at each reset)
        self._ticks = 0

    # ---- inputs --------------------------------------------------------------------
    def apply(self, event):
        """Apply one input event now (and record it)."""
        now = self.board.now_ms()
        if self.recorder is not None:
            self.recorder.event(_clean_ms(now), event)
        apply_event(self.board, event)
        self.events_applied += 1

    def quit(self, reason):
        if self.recorder is not None:       # q, a replay's end, or the time limit
            self.recorder.event(_clean_ms(self.board.now_ms()), "end")
        raise Quit(reason)

    # ---- the clock hook ------------------------------------------------------------
    def _tick(self):
        now = self.board.now_ms()
        self._ticks += 1
        self.board.at(self._ticks * self.tick_ms, self._tick)
        self.sound.update(now)
        for hook in self.hooks:
            hook(now)

    # ---- running ---------------------------------------------------------------------
    def run(self, programs, limit_ms=None):
        """Run the programs (paths, e.g. boot.py and main.py) one after the other, as
        the board does at power-on; a soft reset (a game launched, or left) runs
        them again on a fresh interpreter (tools/emu/runner.py). Returns the
        reason the run ended: "returned", "limit", "quit", "end", "reset-loop"
        or "error" (self.error holds the exception)."""
        from tools.emu import StopEmulation, ResetRequested
        from tools.emu.runner import Runner
        self._ticks = int(self.board.now_ms() // self.tick_ms)
        self._tick()
        deadline = None if limit_ms is None else self.board.now_ms() + limit_ms
        if deadline is not None:
            self.board.at(deadline, lambda: self.quit("limit"))
        runner = Runner(self.board, "data", start=False)
        try:
            seed = self.seed
            runner.run_programs(programs, None if seed is None else
                                lambda resets: seed_randomness(seed + resets))
            self.reason = "returned"
        except Quit as stop:
            self.reason = stop.reason
        except ResetRequested:
            self.reason = "reset-loop"
        except StopEmulation:
            self.reason = "limit"
        except Exception as exc:    # the firmware crashed past its own crash screen
            self.reason = "error"
            self.error = exc
        self.resets = runner.resets
        return self.reason


class ReplayFeeder:
    """A tick hook that applies a replay's events once their time has come.
    A "choose LABEL" event steps the stick down (a push every CHOOSE_STEP_MS)
    until the panel highlights LABEL, then taps A; the events after it are
    delayed by the time that took."""

    CHOOSE_STEP_MS = 300
    CHOOSE_STEPS = 40          # more than any list on the panel has entries

    def __init__(self, session, replay):
        self.session = session
        self.events = replay.events
        self.index = 0
        self.delay = 0             # ms the choices so far took
        self.choosing = None       # [label, since, steps, next step at]
        self.later = []            # [(at ms, event)]: a push's centre, A's release

    def __call__(self, now):
        for at, event in list(self.later):
            if at <= now:
                self.later.remove((at, event))
                self.session.apply(event)
        if self.choosing is not None:
            self._choose(now)
            return
        events = self.events
        while self.index < len(events) and events[self.index][0] + self.delay <= now:
            event = events[self.index][1]
            self.index += 1
            if event == "end":
                self.session.quit("end")
            if event.startswith("choose "):
                self.choosing = [event[len("choose "):], now, 0, now]
                self._choose(now)
                return
            self.session.apply(event)

    def _choose(self, now):
        label, since, steps, next_at = self.choosing
        if now < next_at or self.later:
            return
        from tools.simulator.panel_text import highlighted
        if highlighted(self.session.board.panel, label):
            self.session.apply("press A")
            self.later.append((now + 100, "release A"))
            self.delay += now - since
            self.choosing = None
        elif steps >= self.CHOOSE_STEPS:
            self.session.quit("choose: no entry %r on the panel" % label)
        else:
            self.session.apply("push down")
            self.later.append((now + 100, "center"))
            self.choosing = [label, since, steps + 1, now + self.CHOOSE_STEP_MS]


def _clean_ms(now):
    """Virtual ms as an int when it is whole (ticks are), for a tidy replay file."""
    return int(now) if now == int(now) else now


def seed_randomness(seed):
    """The firmware's `random` starts from a known seed, so a replay deals the same."""
    random.seed(seed)
