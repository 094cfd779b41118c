"""The menu the app falls back on when the real one failed twice in a row
(firmware.app.App.crash): the games and Settings in plain text, drawn with
the display's own font, nothing else imported."""
from firmware.hal.controls import A, UP, DOWN
from firmware.app import Screen


def menu_games(app):
    """The games the safe menu offers: (key, title) of each entry of the
    game list (app.launch(key) starts one)."""
    from firmware import gamelist
    return [(key, title) for key, title, _, _ in gamelist.entries(app)]


class SafeMenu(Screen):
    """A menu that needs nothing but this file and the list of games: the
    games and Settings, for when the real menu failed twice in a row."""

    def __init__(self, app):
        Screen.__init__(self, app)
        self.entries = menu_games(app) + [None]   # None: Settings
        self.cursor = 0
        self.dirty = True

    def update(self, now_ms):
        c = self.hal.controls
        if c.repeat(DOWN) or c.repeat(UP):
            step = 1 if c.repeat(DOWN) else -1
            self.cursor = (self.cursor + step) % len(self.entries)
            self.dirty = True
        if c.just_pressed(A):
            entry = self.entries[self.cursor]
            if entry is None:
                # in a program of its own (App.leave() never returns)
                return self.app.leave({"open": ["firmware.screens.settings", "SettingsScreen"]})
            return self.app.launch(entry[0])
        return None

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = display.fb
        fb.fill(0)
        fb.text("Menu (safe)", 0, 0, 1)
        top = max(0, self.cursor - 4)            # five rows fit under the title
        for i in range(top, min(top + 5, len(self.entries))):
            entry = self.entries[i]
            y = 14 + (i - top) * 10
            fb.text(">" if i == self.cursor else " ", 0, y, 1)
            fb.text("Settings" if entry is None else entry[1], 10, y, 1)
