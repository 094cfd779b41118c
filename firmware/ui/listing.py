"""The list of Settings and the pause menu (one way to show rows of labels and
values); a module of its own, loaded only by those two screens, and needing
nothing of firmware/ui/draw.py (which a game may not have loaded when its
pause menu opens)."""
from micropython import const

from firmware.ui import WIDTH, tinyfont

_CHAR = const(8)       # the 8x8 font
_ROW_H = const(9)      # as draw's lists: the font and a pixel of room
_LIST_Y = const(10)    # as draw's lists: under the title bar
_LIST_ROWS = const(5)  # as draw.LIST_ROWS: the rows between the title bar and the keys


def rows(fb, items, top, cursor, x=0, y=_LIST_Y, w=WIDTH, n=_LIST_ROWS):
    """The list of Settings and the pause menu: items are (label, value) rows,
    n of them shown from top in a band w wide at (x, y), each on a cleared
    row, the cursor's inverted. A value is right-aligned in the 8x8 font, or
    in the small one when the row is too narrow for both; value None makes the
    row a heading (centred, never the cursor's)."""
    for i in range(top, min(len(items), top + n)):
        label, value = items[i]
        row_y = y + (i - top) * _ROW_H
        fb.fill_rect(x, row_y, w, _ROW_H, 1 if i == cursor else 0)
        colour = 0 if i == cursor else 1
        if value is None:
            fb.text(label, x + (w - len(label) * _CHAR) // 2, row_y + 1, colour)
            continue
        fb.text(label, x + 1, row_y + 1, colour)
        if (len(label) + len(value) + 1) * _CHAR <= w - 4:
            fb.text(value, x + w - 4 - len(value) * _CHAR, row_y + 1, colour)
        else:
            value = value.upper()
            tinyfont.text(fb, value, x + w - 4 - tinyfont.width(value), row_y + 2, colour)
    if len(items) > n:      # a thin bar at the right edge: hidden rows are no surprise
        track = n * _ROW_H
        h = track * n // len(items)
        fb.fill_rect(x + w - 2, y + (track - h) * top // (len(items) - n), 2, h, 1)
