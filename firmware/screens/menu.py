"""The main menu: "Continue" on top when a game in progress is saved, the
games (as they declare themselves: firmware/gamelist.py), then Records,
Settings and About. The cursor comes back to the entry chosen last, wherever
it is in the list now.

Choosing a game starts it in a program of its own (App.launch: a soft
reset), so the menu's modules are never in a game's heap."""
from firmware import gamelist
from firmware.hal.controls import A, UP, DOWN
from firmware.app import Screen
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


# What the entries after the games open: (label, icon, module, class)
_SYSTEM = (("Records", ICON_RECORDS, "firmware.screens.records", "Records"),
           ("Settings", ICON_SETTINGS, "firmware.screens.settings", "SettingsScreen"),
           ("About", ICON_ABOUT, "firmware.screens.about", "About"))


class Menu(Screen):
    """The entries' labels and icons (two lists: with 20 games installed,
    every byte an entry holds counts), Continue first when there is one, then
    the games in the order of gamelist.entries(), then _SYSTEM."""

    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        key = app.menu_key      # the entry chosen last: the cursor comes back to it
        self.labels = []
        self.icons = []
        self.resume = None       # the key of the game Continue starts
        self.resume_title = None
        declared = gamelist.games(app)
        games = gamelist.entries(app, declared)
        resume = gamelist.resumable(app, declared)
        declared = None
        for entry in games:
            if entry[0] == resume:
                self.add("Continue", entry[2])
                self.resume = resume
                self.resume_title = entry[1]
        self.first_game = len(self.labels)
        self.cursor = 0
        for i, entry in enumerate(games):
            self.add(entry[1], entry[2])
            if key == entry[0]:
                self.cursor = self.first_game + i
        self.games = len(games)
        for i, entry in enumerate(_SYSTEM):
            self.add(entry[0], entry[1])
            if key == entry[0]:
                self.cursor = len(self.labels) - 1
        self.top = 0
        self.dirty = True

    def add(self, label, icon):
        self.labels.append(label)
        self.icons.append(icon)

    def update(self, now_ms):
        c = self.hal.controls
        moved = 0
        if c.repeat(DOWN):
            moved = 1
        elif c.repeat(UP):
            moved = -1
        if moved:
            self.cursor = (self.cursor + moved) % len(self.labels)
            self.hal.sound.click()
            self.dirty = True
        if c.just_pressed(A):
            self.hal.sound.sfx("select")
            return self.choose(self.cursor)
        return None

    def choose(self, i):
        """Open entry i. Back from it, the cursor comes to the same entry (to
        the game's own one after Continue: Continue may be gone by then)."""
        app = self.app
        game = i - self.first_game
        if game >= self.games:
            _, _, module, name = _SYSTEM[game - self.games]
            app.menu_key = _SYSTEM[game - self.games][0]
            # in a program of its own, as a game (the menu's modules are not
            # under it); App.leave() never returns
            return app.leave({"open": [module, name]})
        return app.launch(self.resume if game < 0 else gamelist.entries(app)[game][0])

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = draw.page(display, "ML4M Arcade")
        self.top = draw.scroll_top(self.cursor, self.top)
        for i in draw.shown(self.top, len(self.labels)):
            y = draw.list_y(i - self.top)
            colour = draw.row_bar(fb, y, i == self.cursor)
            draw.icon(fb, self.icons[i], 4, y + 1, colour)
            if i < self.first_game:
                draw_continue(fb, self.resume_title, y + 1, colour)
            else:
                fb.text(self.labels[i], _TEXT_X, y + 1, colour)
        draw.scroll_bar(fb, self.top, len(self.labels))
        draw.key_line(fb, "A OPEN  STICK: CHOOSE")
