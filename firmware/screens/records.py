"""Records of every game, one scrolling list read from the store and shown as
the games declare them (GAME["records"]: label, how to show; gamelist.py)."""
from firmware import gamelist
from firmware.hal.controls import A, B, UP, DOWN
from firmware.app import Screen, BACK
from firmware.ui import clock_text, draw

_COLUMNS = 15     # characters a line holds beside the scroll bar


def _declared(games, fields):
    """The declared records ({field: (label, show)}) of the game that keeps
    these fields: the first whose declaration has all of them."""
    for game in games:
        mine = {}
        for field, label, _, show in game.get("records", ()):
            mine[field] = (label, show)
        if mine and all(field in mine for field in fields):
            return mine, [r[0] for r in game["records"]]
    return {}, sorted(fields)


def record_lines(records, games):
    """The list's lines: each group's name (wrapped when long), then one line
    a record, its label on the left and its value on the right."""
    lines = []
    for group in sorted(records.data):
        fields = records.data[group]
        if not fields:
            continue
        lines.extend(draw.wrap(group, _COLUMNS))
        declared, order = _declared(games, fields)
        for field in order:
            if field not in fields:
                continue
            label, show = declared.get(field, (field, "number"))
            value = fields[field]
            text = clock_text(value) if show == "time" else str(value)
            if 1 + len(label) + 1 + len(text) <= _COLUMNS:
                lines.append(" " + label + " " * (_COLUMNS - 1 - len(label) - len(text)) + text)
            else:   # an undeclared long name: the value goes on a line of its own
                lines.extend(draw.wrap(" " + label, _COLUMNS))
                lines.append(" " * (_COLUMNS - len(text)) + text)
    return lines or ["No records yet.", "", "Play a game!"]


class Records(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.lines = record_lines(app.records, gamelist.games(app))
        self.top = 0
        self.dirty = True

    def update(self, now_ms):
        c = self.hal.controls
        if c.just_pressed(B) or c.just_pressed(A):
            return BACK
        last_top = max(0, len(self.lines) - draw.LIST_ROWS)
        if c.repeat(DOWN) and self.top < last_top:
            self.top += 1
            self.dirty = True
        elif c.repeat(UP) and self.top > 0:
            self.top -= 1
            self.dirty = True
        return None

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = draw.page(display, "Records")
        for i in draw.shown(self.top, len(self.lines)):
            fb.text(self.lines[i], 0, draw.list_y(i - self.top), 1)
        draw.scroll_bar(fb, self.top, len(self.lines))
        draw.key_line(fb, "B BACK  STICK: SCROLL" if len(self.lines) > draw.LIST_ROWS else "B BACK")
