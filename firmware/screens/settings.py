"""Settings: the system's first (sound, volume, brightness, screen saver,
sleep, calibrate stick, test board, reset records), then a section for each game that declares
settings, with the game's own labels (firmware/gamelist.py). Every change is
saved and applied at once."""
from firmware import modules
from firmware.hal.controls import A, B, LEFT, RIGHT, UP, DOWN
from firmware.app import Screen, BACK
from firmware.game_settings import set_game_value, game_values
from firmware.ui import draw, listing

# The system's rows: (label, setting, the value's labels in the order of
# settings.CHOICES[setting]), then the two actions.
SYSTEM = (
    ("Sound", "sound", ("on", "off")),
    ("Volume", "volume", ("soft", "medium", "loud")),
    ("Brightness", "brightness", ("1", "2", "3", "4")),
    ("Panel off", "saver_s", ("30 s", "1 min", "2 min", "5 min", "10 min")),
    ("Sleep", "sleep", ("on", "off")),
)
CALIBRATE = "Calibrate stick"
TEST = "Test board"      # firmware/screens/board_test.py
RESET = "Reset records"


def rows(app):
    """[(kind, label, what)]: kind "system" (what: setting), "action" (what:
    CALIBRATE, TEST or RESET), "heading" (a game's title) or "game" (what: (game,
    setting)). Heap: of each game's declaration only what its settings need
    is kept (game_settings: its id, title and settings), and the game list's
    module goes once it has been read."""
    found: list = [("system", label, name) for label, name, _ in SYSTEM]
    for action in (CALIBRATE, TEST, RESET):
        found.append(("action", action, action))
    with modules.borrowed("firmware.gamelist") as gamelist:
        for declared in gamelist.games(app):
            shown = [s for s in declared.get("settings", ()) if s[1] is not None]
            if shown and "error" not in declared:
                game = {"id": declared["id"], "title": declared["title"],
                        "settings": declared["settings"]}
                found.append(("heading", game["title"], None))
                for setting in shown:
                    found.append(("game", setting[1], (game, setting)))
    return found



def _rows_box(fb, first, count):
    """A framed, cleared box over whole rows of the list (the first'th shown
    and count-1 more), the panel's width: no row shows cut in two around a
    message. Returns its top."""
    y = draw.list_y(first)
    draw.box(fb, 0, y, draw.WIDTH, draw.list_y(first + count) - y)
    return y

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
        self.testing = False    # Test board chosen: it opens in update()
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
            elif step == 1 and what == TEST:
                self.testing = True
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
        if self.testing:
            return self.app.open("firmware.screens.board_test", "BoardTest")
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
        listing.rows(fb, [(label, None if kind == "heading" else self.value_text(kind, what))
                       for kind, label, what in self.rows], self.top, self.cursor)
        draw.key_line(fb, "A CHANGE  B BACK")
        if self.message:      # over whole rows: none shows cut in two
            y = _rows_box(fb, 1, 3)
            draw.centred(fb, self.message, y + 10)
        if self.confirm:
            y = _rows_box(fb, 1, 4)
            draw.centred(fb, "Reset records?", y + 7)
            draw.centred(fb, "A: yes  B: no", y + 21)
