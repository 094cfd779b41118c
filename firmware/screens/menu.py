"""The main menu: "Continue" on top when a game in progress is saved, the
games (as they declare themselves: firmware/gamelist.py), then Records,
Settings and About. The cursor comes back to the entry chosen last, wherever
it is in the list now."""
from firmware import gamelist
from firmware.hal.controls import A, UP, DOWN
from firmware.screens.base import Screen
from firmware.ui import draw, tinyfont

ICON_RECORDS = b"\x7e\x7e\x3c\x18\x18\x3c\x7e\x00"
ICON_SETTINGS = b"\x18\x5a\x3c\xe7\xe7\x3c\x5a\x18"
ICON_ABOUT = b"\x18\x18\x00\x38\x18\x18\x3c\x00"

_TEXT_X = 18      # the labels start after the icon...
_RIGHT = 126      # ...and end before the scroll bar


def draw_continue(fb, title, y, colour):
    """ "Continue 2048": the game's title after the word, in the 8x8 font
    when it fits there, else in the small font (the row's icon is the game's)."""
    fb.text("Continue", _TEXT_X, y, colour)
    x = _TEXT_X + 9 * 8
    if x + len(title) * 8 <= _RIGHT:
        fb.text(title, x, y, colour)
    elif x - 4 + tinyfont.width(title) <= _RIGHT:
        tinyfont.text(fb, title, x - 4, y + 2, colour)


class Menu(Screen):
    def __init__(self, app, key=None, **options):
        Screen.__init__(self, app, **options)
        # (label, icon, what A does): ("game", entry key), ("continue", entry
        # key) or ("screen", (module, class))
        self.items = []
        self.resume_title = None
        declared = gamelist.games(app)
        games = gamelist.entries(app, declared)
        resume = app.resumable(declared)
        declared = None
        if resume is not None:
            for entry in games:
                if entry[0] == resume:
                    self.items.append(("Continue", entry[2], ("continue", resume)))
                    self.resume_title = entry[1]
        for entry in games:
            self.items.append((entry[1], entry[2], ("game", entry[0])))
        self.items.append(("Records", ICON_RECORDS, ("screen", ("firmware.screens.records", "Records"))))
        self.items.append(("Settings", ICON_SETTINGS, ("screen", ("firmware.screens.settings", "SettingsScreen"))))
        self.items.append(("About", ICON_ABOUT, ("screen", ("firmware.screens.about", "About"))))
        self.cursor = 0
        for i, item in enumerate(self.items):
            if item[2] == key:
                self.cursor = i
        self.top = 0
        self.dirty = True

    def update(self, now_ms):
        c = self.hal.controls
        moved = 0
        if c.repeat(DOWN):
            moved = 1
        elif c.repeat(UP):
            moved = -1
        if moved:
            self.cursor = (self.cursor + moved) % len(self.items)
            self.hal.sound.click()
            self.dirty = True
        if c.just_pressed(A):
            self.hal.sound.sfx("select")
            action = self.items[self.cursor][2]
            kind, target = action
            # back from a game, the cursor is on that game's own entry (from
            # Continue too: Continue may be gone by then)
            self.app.menu_key = ("game", target) if kind == "continue" else action
            if kind == "screen":
                return self.app.open(target[0], target[1])
            return self.app.launch(target)
        return None

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = draw.page(display, "ML4M Arcade")
        self.top = draw.scroll_top(self.cursor, self.top)
        for i in draw.shown(self.top, len(self.items)):
            label, icon, _ = self.items[i]
            y = draw.list_y(i - self.top)
            colour = draw.row_bar(fb, y, i == self.cursor)
            draw.icon(fb, icon, 4, y + 1, colour)
            if self.items[i][2][0] == "continue":
                draw_continue(fb, self.resume_title, y + 1, colour)
            else:
                fb.text(label, _TEXT_X, y + 1, colour)
        draw.scroll_bar(fb, self.top, len(self.items))
