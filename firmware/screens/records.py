"""Records of every game, one scrolling list read from the store."""
from firmware.hal.controls import A, B, UP, DOWN
from firmware.screens.base import Screen, BACK
from firmware.ui import draw


def record_lines(records):
    lines = []
    for game in sorted(records.data):
        fields = records.data[game]
        if not isinstance(fields, dict) or not fields:
            continue
        lines.append(game[:16])
        for field in sorted(fields):
            value = fields[field]
            text = draw.clock_text(value) if field.endswith(" time") else str(value)
            room = 15 - len(text)
            lines.append(" " + field[:room - 1] + " " * max(1, room - len(field)) + text)
    return lines or ["No records yet.", "", "Play a game!"]


class Records(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.lines = record_lines(app.records)
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
