"""The main menu: games, then Records, Settings and About; "Continue" on top
when a game in progress is saved."""
from firmware import catalog
from firmware.hal.controls import A, UP, DOWN
from firmware.screens.base import Screen
from firmware.ui import draw

ICON_RECORDS = b"\x7e\x7e\x3c\x18\x18\x3c\x7e\x00"
ICON_SETTINGS = b"\x18\x5a\x3c\xe7\xe7\x3c\x5a\x18"
ICON_ABOUT = b"\x18\x18\x00\x38\x18\x18\x3c\x00"
ICON_CONTINUE = b"\x40\x60\x70\x78\x70\x60\x40\x00"

class Menu(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.items = []   # (label, icon, action)
        resume = app.resumable()
        if resume is not None:
            self.items.append(("Continue", ICON_CONTINUE, ("game", resume)))
        for entry in catalog.GAMES:
            self.items.append((entry.title, entry.icon, ("game", entry)))
        self.items.append(("Records", ICON_RECORDS, ("screen", ("firmware.screens.records", "Records"))))
        self.items.append(("Settings", ICON_SETTINGS, ("screen", ("firmware.screens.settings", "SettingsScreen"))))
        self.items.append(("About", ICON_ABOUT, ("screen", ("firmware.screens.about", "About"))))
        self.cursor = min(options.get("cursor", 0), len(self.items) - 1)
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
            kind, target = self.items[self.cursor][2]
            self.app.menu_cursor = self.cursor
            if kind == "game":
                return self.app.launch(target)
            return self.app.open(target[0], target[1])
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
            fb.text(label, 18, y + 1, colour)
        draw.scroll_bar(fb, self.top, len(self.items))
