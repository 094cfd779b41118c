"""Settings: every change is saved and applied at once."""
from firmware.hal.controls import A, B, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import Screen, BACK
from firmware.ui import draw

LEVELS = ("easy", "medium", "hard")
VOLUMES = ("soft", "medium", "loud")    # volume setting 1, 2, 3
SAVER = {30: "30 s", 60: "1 min", 120: "2 min", 300: "5 min", 600: "10 min"}

# (label, setting or action, how to show its value)
ITEMS = (
    ("Sound", "sound", lambda v: "on" if v else "off"),
    ("Volume", "volume", lambda v: VOLUMES[v - 1]),
    ("Bright", "brightness", str),
    ("Saver", "saver_s", lambda v: SAVER.get(v, str(v))),
    ("Rv hints", "reversi_hints", lambda v: "on" if v else "off"),
    ("CPU", "reversi_level", lambda v: LEVELS[v]),
    ("Puzzle", "puzzle_mode", str),
    ("Big pz", "puzzle_size", lambda v: "15" if v == 4 else "24"),
    ("Calibrate stick", "!calibrate", None),
    ("Reset records", "!reset", None),
)


class SettingsScreen(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.cursor = 0
        self.top = 0
        self.confirm = False    # "reset records?" dialog open
        self.message = None     # a short note shown until the next input
        self.dirty = True

    def update(self, now_ms):
        c = self.hal.controls
        settings = self.app.settings
        if self.confirm:
            if c.just_pressed(A):
                self.confirm = False
                ok = self.app.records.reset()
                self.message = "Records cleared" if ok else "Not saved!"
                self.hal.sound.sfx("select")
                self.dirty = True
            elif c.just_pressed(B):
                self.confirm = False
                self.dirty = True
            return None
        if c.just_pressed(B):
            return BACK
        step = 0
        if c.repeat(DOWN):
            self.cursor = (self.cursor + 1) % len(ITEMS)
            self.message = None
            self.dirty = True
            self.hal.sound.click()
        elif c.repeat(UP):
            self.cursor = (self.cursor - 1) % len(ITEMS)
            self.message = None
            self.dirty = True
            self.hal.sound.click()
        elif c.repeat(RIGHT) or c.just_pressed(A):
            step = 1
        elif c.repeat(LEFT):
            step = -1
        if step:
            key = ITEMS[self.cursor][1]
            if key == "!calibrate":
                if step == 1:
                    # measured now, with the stick let go (it is also done at power-on)
                    ok = self.hal.controls.calibrate()
                    self.message = "Stick centred" if ok else "Let go of stick"
            elif key == "!reset":
                if step == 1:
                    self.confirm = True
            else:
                if not settings.cycle(key, step):
                    self.message = "Not saved!"
                settings.apply(self.hal)
            if key == "volume":
                # a short tone at the new level (a click would cut it off)
                self.hal.sound.tone(880, 150)
            else:
                self.hal.sound.click()
            self.dirty = True
        return None

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = draw.page(display, "Settings")
        self.top = draw.scroll_top(self.cursor, self.top)
        for i in draw.shown(self.top, len(ITEMS)):
            label, key, show = ITEMS[i]
            y = draw.list_y(i - self.top)
            colour = draw.row_bar(fb, y, i == self.cursor)
            fb.text(label, 2, y + 1, colour)
            if show is not None:
                value = show(self.app.settings[key])
                fb.text(value, draw.WIDTH - 2 - len(value) * 8, y + 1, colour)
        if self.message:
            draw.box(fb, 4, 22, 120, 20)
            draw.centred(fb, self.message, 28)
        if self.confirm:
            draw.box(fb, 2, 14, 124, 40)
            draw.centred(fb, "Reset records?", 20)
            draw.centred(fb, "A: yes  B: no", 36)
