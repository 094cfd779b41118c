"""The main menu: games, then Records, Settings and About; "Continue" on top
when a game in progress is saved."""
from firmware import catalog
from firmware.hal.controls import A, UP, DOWN
from firmware.screens.base import Screen
from firmware.ui import draw

ROW_H = 9
ROWS = 6          # rows visible under the title bar
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
        fb = display.fb
        fb.fill(0)
        draw.title_bar(fb, "ML4M Arcade")
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + ROWS:
            self.top = self.cursor - ROWS + 1
        for row in range(ROWS):
            i = self.top + row
            if i >= len(self.items):
                break
            label, icon, _ = self.items[i]
            y = 10 + row * ROW_H
            selected = i == self.cursor
            if selected:
                fb.fill_rect(0, y, draw.WIDTH, ROW_H, 1)
            draw.icon(fb, icon, 4, y + 1, 0 if selected else 1)
            fb.text(label, 18, y + 1, 0 if selected else 1)
        if len(self.items) > ROWS:  # a scroll bar so hidden entries are not a surprise
            h = 54 * ROWS // len(self.items)
            y = 10 + (54 - h) * self.top // (len(self.items) - ROWS)
            fb.fill_rect(126, y, 2, h, 1)
