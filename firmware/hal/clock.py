# Milliseconds and frame pacing. time.ticks_* on the board, the emulator's
# virtual clock on the PC (it patches the same functions into `time`).
#
# A press starts a frame at once, and the CPU is busy for less of the wait than
# with a plain sleep. Why not just sleep: on the ESP32, time.sleep_ms blocks one
# FreeRTOS tick (10 ms) at a time while more than a tick is left, then
# busy-waits the rest, and nothing can end it early; a loop of short sleeps to
# look at the buttons (sleep_ms(4)) is a busy-wait from end to end. What can be
# ended early is select.poll: it blocks in the same one-tick waits, and an
# interrupt wakes it at once. So the clock is itself a pollable object (an
# io.IOBase with ioctl), "ready" when the buttons' interrupt has raised the
# press flag (firmware.hal.controls, wake) or when the frame is due; a one-shot
# machine.Timer set for the frame's time wakes the CPU then. The wait is idle
# to the end, with no busy tail, and a press ends it within a fraction of a
# millisecond. A frame a press started takes the place of the one due: the
# schedule starts again from it, so the frames keep their 33 ms spacing after
# it. Figures (press to panel, wakes and CPU a second): tools/bench/bench_hal.py;
# what only the board can tell: README, "A press shows at once".
import time

from micropython import const

try:
    # the u-names, which MicroPython keeps beside `io` and `select` (uio is
    # the built-in io, where a port may wrap `io` in Python); on a PC the
    # emulator's model of the ESP32's (tools/emu/mp/uselect.py, uio.py), where
    # CPython's own select would take files only
    from uio import IOBase
    import uselect as select
except ImportError:     # a port without them: frames wait for their tick
    IOBase = object
    select = None

_POLL = const(3)     # MP_STREAM_POLL: the one ioctl request select.poll makes


def _nothing(arg=None):
    pass


class Clock(IOBase):  # type: ignore[misc]  (object where a port has no uio)
    def __init__(self, fps=30, wake=None, poll=None):
        # wake: a bytearray(1) whose byte, set, ends the wait (the controls'
        # press flag); poll: called at each look while waiting (every tick,
        # 10 ms), for a port whose button pins have no IRQ (controls.poll)
        self.poll = _nothing if poll is None else poll
        self.wake = None  # type: bytearray | None
        self._timer = None      # the machine.Timer that wakes the CPU when a frame is due
        self.late = 0           # frames that started late (the loop was too slow)
        self.fps = fps
        self.frame_us = 1_000_000 // fps
        self._next = time.ticks_us()
        if wake is None:
            return
        # where the port has no select.poll that takes the clock, or no
        # machine.Timer, the clock does not watch: frames wait for their tick
        try:
            from machine import Timer
            timer = Timer(0)
            poller = select.poll()     # type: ignore[union-attr]
            poller.register(self, 1)   # select.POLLIN
        except Exception:   # no select (None), no Timer, a poll that takes files only
            return
        self.wake = wake
        self._poller = poller
        self._timer = timer

    def now(self):
        return time.ticks_ms()

    def ioctl(self, req, arg):
        # select.poll asks whether the clock is ready: a press is waiting, or
        # the frame is due. The test of req is a conditional jump, where
        # MicroPython runs the callbacks the interrupts scheduled (the press's)
        # before the flag is read.
        if req != _POLL:
            return 0
        self.poll()
        if self.wake[0] or time.ticks_diff(time.ticks_us(), self._next) >= 0:  # type: ignore[index]
            return arg
        return 0

    def wait_frame(self):
        """Sleep until the next frame is due, or until a press (the wake
        flag); returns now() after it.

        Frames are due every frame_us on a fixed schedule, so the rate does not
        drift with the work done in a frame. A frame that overran starts the
        schedule again from now instead of rushing to catch up, and so does a
        frame a press started early."""
        wake = self.wake
        if wake is not None and wake[0]:
            # pressed during the last frame's work: this frame replaces the
            # one due, and the schedule restarts from it
            self._next = time.ticks_us()
            return time.ticks_ms()
        self._next = time.ticks_add(self._next, self.frame_us)
        left_us = time.ticks_diff(self._next, time.ticks_us())
        if left_us <= 0:
            self.late += 1
            self._next = time.ticks_us()
            return time.ticks_ms()
        left = (left_us + 999) // 1000      # whole ms, not before the frame is due
        timer = self._timer
        if timer is None:
            time.sleep_ms(left)
            return time.ticks_ms()
        # idle in select until a press or the frame's time: the timer is
        # there to wake the CPU then (its callback has nothing to do); the
        # poll's timeout, a tick later, only matters if it did not
        timer.init(mode=timer.ONE_SHOT, period=left, callback=_nothing)
        self._poller.ipoll(left + 10)      # type: ignore[attr-defined]
        if time.ticks_diff(self._next, time.ticks_us()) > 0:
            timer.deinit()                 # a press, before the frame was due:
            self._next = time.ticks_us()   # (as above)
        return time.ticks_ms()
