"""About: firmware and MicroPython versions, free memory, the board."""
import gc
import sys

from firmware import VERSION
from firmware.hal.controls import A, B
from firmware.app import Screen, BACK
from firmware.ui import draw, tinyfont

_COLUMNS = 16    # 8x8 characters across the panel


def micropython_version():
    """Two lines: what runs the firmware, and its version."""
    impl = sys.implementation
    version = "%d.%d.%d" % impl.version[:3]
    if impl.name != "micropython":
        return "Emulated on PC", "%s %s" % (impl.name, version)
    return "MicroPython", " " + version


def board_line(name):
    """"Board NAME", or the name alone when both do not fit on a line."""
    line = "Board " + name
    return line if len(line) <= _COLUMNS else name


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
        runs_on, version = micropython_version()
        self.lines = (
            "Firmware " + VERSION,
            runs_on,
            version,
            "Free RAM %d KB" % (gc.mem_free() // 1024),
            board_line(self.hal.board.NAME),
        )
        fb = draw.page(display, "About")
        for i, line in enumerate(self.lines):
            fb.text(line, 0, 11 + i * 9, 1)
        tinyfont.centred(fb, "A OR B: BACK", 0, 57, draw.WIDTH, 7)
