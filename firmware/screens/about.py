"""About: firmware and MicroPython versions, free memory."""
import gc
import sys

from firmware import VERSION
from firmware.hal.controls import A, B
from firmware.screens.base import Screen, BACK
from firmware.ui import draw


def micropython_version():
    impl = sys.implementation
    if impl.name != "micropython":
        return "emulated (%s)" % impl.name
    return "%d.%d.%d" % impl.version[:3]


class About(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.next_refresh = 0
        self.lines = ()

    def update(self, now_ms):
        c = self.hal.controls
        if c.just_pressed(B) or c.just_pressed(A):
            return BACK
        return None

    def draw(self, display):
        import time
        now = self.hal.clock.now()
        if self.lines and time.ticks_diff(now, self.next_refresh) < 0:
            return
        self.next_refresh = time.ticks_add(now, 1000)  # free memory, once a second
        self.lines = (
            "Firmware " + VERSION,
            "MicroPython",
            " " + micropython_version(),
            "Free RAM %d KB" % (gc.mem_free() // 1024),
            "Board " + self.hal.board.NAME,
        )
        fb = draw.page(display, "About")
        for i, line in enumerate(self.lines):
            fb.text(line[:16], 0, 12 + i * 10, 1)
