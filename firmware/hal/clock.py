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
# press flag (firmware.hal.controls, wake) or when a one-shot machine.Timer set
# for the frame's exact time has rung. The wait is then idle to the end, with
# no busy tail, and a press ends it within a few hundred microseconds. A frame a
# press started takes the place of the one due: the schedule starts again from
# it, so the frames keep their 33 ms spacing after it. Figures (press to panel,
# wakes and CPU a second): tools/bench/bench_hal.py.
import io
import time

from micropython import const

try:
    # the u-name, which MicroPython keeps beside `select`: on a PC the
    # emulator's model of the ESP32's (tools/emu/mp/uselect.py), where
    # CPython's own select would take files only
    import uselect as select
except ImportError:
    try:
        import select
    except ImportError:     # a port without it: frames wait for their tick
        select = None

_POLL = const(3)     # MP_STREAM_POLL: the one ioctl request select.poll makes


def _no_poll():
    pass


class Clock(io.IOBase):
    def __init__(self, fps=30):
        # called every poll_ms while waiting, when set (e.g. controls.poll on a
        # port whose button pins have no IRQ)
        self.poll = _no_poll
        self.poll_ms = 8
        # a bytearray(1) whose byte, set, ends the wait: the controls' press
        # flag (watch()); None: no early frames
        self.wake = None  # type: bytearray | None
        self._poller = None     # select.poll with the clock registered (watch())
        self._timer = None      # the machine.Timer that rings when a frame is due
        self._rang = 0          # ...and has rung
        self._ring = self._on_time   # bound once: the timer's callback makes nothing
        self.late = 0           # frames that started late (the loop was too slow)
        self.set_fps(fps)
        self._next = time.ticks_us()

    def set_fps(self, fps):
        self.fps = fps
        self.frame_us = 1_000_000 // fps

    def now(self):
        return time.ticks_ms()

    def since(self, t):
        """Milliseconds from tick t (a now() value) to now."""
        return time.ticks_diff(time.ticks_ms(), t)

    def watch(self, wake):
        """Start a frame early when wake[0] is raised (the buttons' press flag).
        Where the port has no select.poll that takes the clock, or no
        machine.Timer, the clock does not watch and frames wait for their tick
        (returns False)."""
        try:
            from machine import Timer
            timer = Timer(0)
            poller = select.poll()     # type: ignore[union-attr]
            poller.register(self, 1)   # select.POLLIN
        except Exception:   # no select (None), no Timer, a poll that takes files only
            return False
        self.wake = wake
        self._poller = poller
        self._timer = timer
        return True

    def ioctl(self, req, arg):
        # select.poll asks whether the clock is ready. The test of req is a
        # conditional jump, where MicroPython runs the callbacks the interrupts
        # scheduled (the press, the timer) before the flags are read.
        if req != _POLL:
            return 0
        if self._rang or self.wake[0]:     # type: ignore[index]
            return arg
        return 0

    def _on_time(self, _timer):
        self._rang = 1

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
        left = (left_us + 500) // 1000
        poll = self.poll
        if poll is not _no_poll:
            # no pin IRQs: the clock samples the buttons every poll_ms, and
            # poll() raises the wake flag itself
            step = self.poll_ms
            while left > 0:
                d = step if left > step else left
                time.sleep_ms(d)
                left -= d
                poll()
                if wake is not None and wake[0]:
                    self._next = time.ticks_us()     # (as above)
                    break
            return time.ticks_ms()
        timer = self._timer
        if timer is None:
            time.sleep_ms(left)
            return time.ticks_ms()
        self._rang = 0
        timer.init(mode=timer.ONE_SHOT, period=left, callback=self._ring)
        # idle until the timer or a press; the timeout (a tick after the
        # timer) only matters if the timer's callback were lost
        self._poller.ipoll(left + 10)      # type: ignore[union-attr]
        if not self._rang and wake[0]:     # type: ignore[index]
            timer.deinit()
            self._next = time.ticks_us()   # (as above)
        return time.ticks_ms()
