# Milliseconds and frame pacing. time.ticks_* on the board, the emulator's
# virtual clock on the PC (it patches the same functions into `time`).
#
# A press starts a frame at once: while it waits for the next frame the clock
# looks every wake_ms at a flag the buttons' interrupt raises (`wake`, from
# firmware.hal.controls), and a raised flag ends the wait there. That frame
# takes the place of the one due: the schedule starts again from it, so the
# frames keep their 33 ms spacing after it and a press adds at most the part
# of one frame it cut short (a press reaches the panel in ~8 ms instead of
# ~23; the frames a second with and without: tools/bench/bench_hal.py).
import time

from micropython import const

_WAKE_MS = const(4)     # how often a waiting clock looks at the wake flag


def _no_poll():
    pass


class Clock:
    def __init__(self, fps=30):
        # called every poll_ms while waiting, when set (e.g. controls.poll on a
        # port whose button pins have no IRQ)
        self.poll = _no_poll
        self.poll_ms = 8
        # a bytearray(1) that ends the wait when its byte is set (the
        # controls' press flag, given by firmware.hal.Hal); None: no early frames
        self.wake = None  # type: bytearray | None
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
        if poll is _no_poll and wake is None:
            time.sleep_ms(left)
            return time.ticks_ms()
        # without pin IRQs the clock polls the buttons anyway (every poll_ms),
        # and poll() raises the wake flag itself
        step = _WAKE_MS if poll is _no_poll else self.poll_ms
        while left > 0:
            d = step if left > step else left
            time.sleep_ms(d)
            left -= d
            poll()
            if wake is not None and wake[0]:
                self._next = time.ticks_us()     # (as above)
                return time.ticks_ms()
        return time.ticks_ms()
