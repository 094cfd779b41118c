"""What the terminal and the window front ends share: pacing the virtual clock
to the wall clock, the status line's passing message, and PNG screenshots."""
import os
import time

BEHIND_S = 0.25           # further behind than this: stop trying to catch up


class Pacer:
    """Sleeps until the wall clock catches up with the board's virtual clock, so
    a 30 fps loop really runs at 30 fps. `behind` is True while the firmware
    (or the emulator) is slower than the board would be."""

    def __init__(self):
        self._wall0 = None
        self._virt0 = 0.0
        self.behind = False

    def __call__(self, now):
        wall = time.monotonic()
        if self._wall0 is None:
            self._wall0, self._virt0 = wall, now
            return
        ahead = self._wall0 + (now - self._virt0) / 1000 - wall
        if ahead > 0:
            time.sleep(ahead)
            self.behind = False
        elif ahead < -BEHIND_S:
            # carry on from now instead of racing through virtual time to catch up
            self._wall0, self._virt0 = wall, now
            self.behind = True


class FrontEnd:
    """A front end's message and screenshots; the subclass sets self.board and
    self.shots_dir."""

    message = None            # (text, until monotonic s)
    shots = 0
    png_scale = 4             # --scale-png
    png_brightness = False    # --png-brightness

    def say(self, text, seconds=3.0):
        self.message = (text, time.monotonic() + seconds)

    def current_message(self):
        """The message while it lasts, else None."""
        if self.message is not None:
            text, until = self.message
            if time.monotonic() < until:
                return text
            self.message = None
        return None

    def screenshot(self):
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.shots += 1
        path = os.path.join(self.shots_dir, "ml4m-%s-%d.png" % (stamp, self.shots))
        try:
            os.makedirs(self.shots_dir, exist_ok=True)
            self.board.panel.png(path, scale=self.png_scale, brightness=self.png_brightness)
            self.say("saved " + path)
        except OSError as exc:
            self.say("screenshot failed: %s" % exc.strerror)
