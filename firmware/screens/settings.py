"""Settings: the system's first (sound, volume, brightness, screen saver,
calibrate stick, reset records), then a section for each game that declares
settings, with the game's own labels (firmware/gamelist.py). Every change is
saved and applied at once."""
from firmware import gamelist
from firmware.hal.controls import A, B, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import Screen, BACK
from firmware.game_settings import set_game_value, game_values
from firmware.ui import draw

# The system's rows: (label, setting, the value's labels in the order of
# settings.CHOICES[setting]), then the two actions.
SYSTEM = (
    ("Sound", "sound", ("on", "off")),
    ("Volume", "volume", ("soft", "medium", "loud")),
    ("Brightness", "brightness", ("1", "2", "3", "4")),
    ("Panel off", "saver_s", ("30 s", "1 min", "2 min", "5 min", "10 min")),
)
CALIBRATE = "Calibrate stick"
RESET = "Reset records"


def rows(app):
    """[(kind, label, what)]: kind "system" (what: setting), "action" (what:
    CALIBRATE or RESET), "heading" (a game's title) or "game" (what: (game,
    setting))."""
    found: list = [("system", label, name) for label, name, _ in SYSTEM]
    found.append(("action", CALIBRATE, CALIBRATE))
    found.append(("action", RESET, RESET))
    for game in gamelist.games(app):
        shown = [s for s in game.get("settings", ()) if s[1] is not None]
        if shown and "error" not in game:
            found.append(("heading", game["title"], None))
            for setting in shown:
                found.append(("game", setting[1], (game, setting)))
    return found


class SettingsScreen(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.rows = rows(app)
        self.values = {}        # game id -> {setting: value}, read once
        for kind, _, what in self.rows:
            if kind == "game" and what[0]["id"] not in self.values:
                self.values[what[0]["id"]] = game_values(self.hal.store, what[0])
        self.cursor = 0
        self.top = 0
        self.confirm = False    # "reset records?" dialog open
        self.message = None     # a short note shown until the next input
        self.dirty = True

    def value_text(self, kind, what):
        """The value of a row as the player reads it ("" for actions)."""
        if kind == "system":
            from firmware.settings import CHOICES
            for _, name, labels in SYSTEM:
                if name == what:
                    return labels[CHOICES[name][1].index(self.app.settings[name])]
        if kind == "game":
            game, setting = what
            value = self.values[game["id"]][setting[0]]
            for pair in setting[2]:
                if pair[0] == value:
                    return pair[1]
        return ""

    def move(self, step):
        """Cursor to the next row that does something (headings are skipped)."""
        n = len(self.rows)
        self.cursor = (self.cursor + step) % n
        while self.rows[self.cursor][0] == "heading":
            self.cursor = (self.cursor + step) % n
        self.message = None
        self.dirty = True
        self.hal.sound.click()

    def change(self, step):
        kind, _, what = self.rows[self.cursor]
        settings = self.app.settings
        if kind == "action":
            if step == 1 and what == CALIBRATE:
                # measured now, with the stick let go (it is also done at power-on)
                ok = self.hal.controls.calibrate()
                self.message = "Stick centred" if ok else "Let go of stick"
            elif step == 1:
                self.confirm = True
        elif kind == "system":
            if not settings.cycle(what, step):
                self.message = "Not saved!"
            settings.apply(self.hal)
        else:
            game, setting = what
            values = self.values[game["id"]]
            allowed = [pair[0] for pair in setting[2]]
            i = allowed.index(values[setting[0]]) if values[setting[0]] in allowed else 0
            value = allowed[(i + step) % len(allowed)]
            if set_game_value(self.hal.store, game, setting[0], value):
                values[setting[0]] = value
            else:
                self.message = "Not saved!"
        if what == "volume":
            # a short tone at the new level (a click would cut it off)
            self.hal.sound.tone(880, 150)
        else:
            self.hal.sound.click()
        self.dirty = True

    def update(self, now_ms):
        c = self.hal.controls
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
        if c.repeat(DOWN):
            self.move(1)
        elif c.repeat(UP):
            self.move(-1)
        elif c.repeat(RIGHT) or c.just_pressed(A):
            self.change(1)
        elif c.repeat(LEFT):
            self.change(-1)
        return None

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = draw.page(display, "Settings")
        self.top = draw.scroll_top(self.cursor, self.top)
        if self.top == self.cursor and self.top > 0 and self.rows[self.top - 1][0] == "heading":
            self.top -= 1       # a game's first row comes with the game's title
        draw.rows(fb, [(label, None if kind == "heading" else self.value_text(kind, what))
                       for kind, label, what in self.rows], self.top, self.cursor)
        draw.key_line(fb, "A CHANGE  B BACK")
        if self.message:
            draw.box(fb, 4, 22, 120, 20)
            draw.centred(fb, self.message, 28)
        if self.confirm:
            draw.box(fb, 2, 14, 124, 40)
            draw.centred(fb, "Reset records?", 20)
            draw.centred(fb, "A: yes  B: no", 36)
