"""A short title card at power-on, naming the games; any button skips it.
Reading the games' declarations here (gamelist.games) also brings the list
of games up to date for the menu, once a boot."""
import time

from firmware import gamelist
from firmware.app import Screen, BACK
from micropython import const
from firmware.ui import banner, draw

_SHOW_MS = const(1500)


class Splash(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        titles = [e[1] for e in gamelist.entries(app) if e[3] is None]
        # three lines of titles; more games than fit are counted instead
        self.lines = draw.wrap(", ".join(titles), max_lines=4)
        if len(self.lines) > 3:
            self.lines = ["%d games" % len(titles)]
        self.start = self.hal.clock.now()
        self.dirty = True

    def update(self, now_ms):
        if self.hal.controls.any_activity() or time.ticks_diff(now_ms, self.start) >= _SHOW_MS:
            return BACK
        return None

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = display.fb
        fb.fill(0)
        banner.big_text(fb, "ML4M", 32, 6)
        draw.centred(fb, "ARCADE", 28)
        for i, line in enumerate(self.lines):
            draw.centred(fb, line, 38 + 9 * i)
