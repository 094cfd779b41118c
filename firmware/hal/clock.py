# Milliseconds and frame pacing. time.ticks_* on the board, the emulator's
# virtual clock on the PC (it patches the same functions into `time`).
import time


def _no_poll():
    pass


class Clock:
    def __init__(self, fps=30):
        # called every poll_ms while waiting, when set (e.g. controls.poll on a
        # port whose button pins have no IRQ)
        self.poll = _no_poll
        self.poll_ms = 8
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
        """Sleep until the next frame is due; returns now() after it.

        Frames are due every frame_us on a fixed schedule, so the rate does not
        drift with the work done in a frame. A frame that overran starts the
        schedule again from now instead of rushing to catch up."""
        self._next = time.ticks_add(self._next, self.frame_us)
        left_us = time.ticks_diff(self._next, time.ticks_us())
        if left_us <= 0:
            self.late += 1
            self._next = time.ticks_us()
            return time.ticks_ms()
        left = (left_us + 500) // 1000
        poll = self.poll
        if poll is _no_poll:
            time.sleep_ms(left)
        else:
            step = self.poll_ms
            while left > 0:
                d = step if left > step else left
                time.sleep_ms(d)
                left -= d
                poll()
        return time.ticks_ms()
