"""A short title card at power-on; any button skips it."""
from firmware.screens.base import Screen, BACK
from micropython import const
from firmware.ui import banner, draw

_SHOW_MS = const(1500)


class Splash(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.start = self.hal.clock.now()
        self.drawn = False

    def update(self, now_ms):
        if self.hal.controls.any_activity() or self.hal.clock.since(self.start) >= _SHOW_MS:
            return BACK
        return None

    def draw(self, display):
        if self.drawn:
            return
        self.drawn = True
        fb = display.fb
        fb.fill(0)
        banner.big_text(fb, "ML4M", 32, 6)
        draw.centred(fb, "ARCADE", 28)
        draw.centred(fb, "15 & 8 puzzles", 44)
        draw.centred(fb, "2048 & Reversi", 54)
