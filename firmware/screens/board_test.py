"""Test board: walks the owner through the hardware (Settings > Test board, or
hold A while powering on) and ends with PASS or the numbered failures the
README explains (E1..E8). The steps are in board_test_steps.py; then the
firmware's version, the board file, free heap and free flash; then the result,
also printed on the REPL for an owner with a serial cable."""
import gc
import os

from firmware import VERSION
from firmware.hal.controls import A, B
from firmware.app import Screen, BACK
from firmware.screens.board_test_steps import STEPS, Step
from firmware.ui import draw


class Facts(Step):
    """What runs on the board, and the room left (no code: nothing to fail)."""
    title = "This board"

    def __init__(self, test, now):
        Step.__init__(self, test, now)
        self.lines = facts(test.hal)

    def update(self, now):
        c = self.hal.controls
        return c.just_pressed(A) or c.just_pressed(B) or self.given_up(now)

    def draw(self, display):
        fb = self.page(display)
        for i, line in enumerate(self.lines):
            fb.text(line, 0, 12 + 10 * i, 1)
        draw.key_line(fb, "A: RESULT")


def facts(hal):
    """The lines Facts shows: firmware, board file, free heap, free flash."""
    gc.collect()
    flash = "?"
    try:
        stat = os.statvfs(hal.store.root or "/")
        kb = stat[0] * stat[3] // 1024
        flash = "%d KB" % kb if kb < 10000 else "%d MB" % (kb // 1024)
    except (OSError, AttributeError):   # a port without statvfs (the browser's)
        pass
    board = hal.board.__name__.rsplit(".", 1)[-1]
    return ("Firmware " + VERSION, "Board " + board + ".py",
            "Heap %d KB" % (gc.mem_free() // 1024), "Flash " + flash)


class BoardTest(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.failures = []        # (code, what) in the order found
        self.index = 0
        self.step = STEPS[0](self, self.hal.clock.now())
        self.left = -1            # the seconds shown on the step's key line
        self.done = False
        self.dirty = True

    def fail(self, code, what):
        self.failures.append((code, what))

    def update(self, now_ms):
        if self.done:
            c = self.hal.controls
            return BACK if c.just_pressed(A) or c.just_pressed(B) else None
        if not self.step.update(now_ms):
            return None
        self.index += 1
        if self.index < len(STEPS):
            self.step = STEPS[self.index](self, now_ms)
        elif self.index == len(STEPS):
            self.step = Facts(self, now_ms)
        else:
            self.done = True
            print("Test board:", self.result_text())
        self.hal.controls.suspend_until_release()   # a key held on goes to no step
        self.redraw()
        return None

    def result_text(self):
        if not self.failures:
            return "PASS"
        return "FAIL " + ", ".join("%s %s" % failure for failure in self.failures)

    def redraw(self):
        self.dirty = True

    def draw(self, display):
        step = self.step
        left = step.seconds_left(self.hal.clock.now())
        if not (self.dirty or step.dirty or (not self.done and left != self.left)):
            return
        self.dirty = step.dirty = False
        self.left = left
        if not self.done:
            step.draw(display)
            return
        fb = draw.page(display, "Test board")
        if not self.failures:
            draw.centred(fb, "PASS", 28)
        from firmware.ui import tinyfont
        shown = self.failures if len(self.failures) <= 5 else self.failures[:4]
        for i, (code, what) in enumerate(shown):
            y = 11 + 9 * i
            fb.text(code, 0, y, 1)
            tinyfont.text(fb, what[:26], 20, y + 2)
        if len(shown) < len(self.failures):
            tinyfont.text(fb, "+%d MORE: ON THE REPL" % (len(self.failures) - 4), 20, 49)
        draw.key_line(fb, "A OR B: MENU  CODES: README")
