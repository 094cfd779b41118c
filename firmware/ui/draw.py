"""Drawing helpers for 128x64 with the 8x8 framebuf font (16 columns x 8 rows)."""
from micropython import const

from firmware.ui import WIDTH, HEIGHT  # noqa: F401  (draw.WIDTH, draw.HEIGHT)
# const() numbers: README, "Why the code looks like this"
_CHAR = const(8)  # framebuf's built-in font is 8x8 pixels
COLUMNS = WIDTH // _CHAR   # characters of that font in a line: 16


def centred(fb, text, y, colour=1):
    """Text centred horizontally (clipped to the panel width)."""
    text = text[:COLUMNS]
    fb.text(text, (WIDTH - len(text) * _CHAR) // 2, y, colour)


def wrap(text, width_chars=COLUMNS, max_lines=8):
    """Split text into lines that fit, breaking at spaces where it can."""
    lines = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split(" "):
            while len(word) > width_chars:  # a word longer than a line: cut it
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:width_chars])
                word = word[width_chars:]
            candidate = word if not line else line + " " + word
            if len(candidate) <= width_chars:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines[:max_lines]


def title_bar(fb, text):
    """An inverted bar across the top row with the screen's title."""
    fb.fill_rect(0, 0, WIDTH, 9, 1)
    centred(fb, text, 1, 0)


def page(display, title):
    """A screen repainted in full: clear the panel, draw the title bar, and
    return display.fb to draw the rest on."""
    fb = display.fb
    fb.fill(0)
    title_bar(fb, title)
    return fb


# Lists under the title bar (menu, settings, records): one text line a row,
# and the screen's keys on the bottom line (key_line).
_LIST_Y = const(10)       # top of the first row
_ROW_H = const(9)         # the 8x8 font and a pixel of room
LIST_ROWS = (HEIGHT - _LIST_Y) // _ROW_H - 1     # 5 rows, then the keys
_KEYS_Y = const(58)       # the small font's 5 rows, under the last list row


def shown(top, count, rows=LIST_ROWS):
    """The indexes of the entries shown when the list starts at top."""
    return range(top, min(count, top + rows))


def list_y(row):
    """Top of the row'th visible row of a list."""
    return _LIST_Y + row * _ROW_H


def scroll_top(cursor, top, rows=LIST_ROWS):
    """The first entry to show so that the cursor's entry is among the rows
    shown, scrolling as little as possible from top."""
    if cursor < top:
        return cursor
    if cursor >= top + rows:
        return cursor - rows + 1
    return top


def row_bar(fb, y, selected):
    """An inverted bar behind a selected row at y; returns the colour for the
    row's text and icon (0 on the bar, 1 otherwise)."""
    if selected:
        fb.fill_rect(0, y, WIDTH, _ROW_H, 1)
        return 0
    return 1


def scroll_bar(fb, top, count, rows=LIST_ROWS):
    """A thin bar at the right edge when not all count entries fit in rows,
    so hidden entries are not a surprise."""
    if count > rows:
        track = rows * _ROW_H
        h = track * rows // count
        y = _LIST_Y + (track - h) * top // (count - rows)
        fb.fill_rect(WIDTH - 2, y, 2, h, 1)


def rows(fb, items, top, cursor, x=0, y=_LIST_Y, w=WIDTH, n=LIST_ROWS):
    """The list of Settings and the pause menu: items are (label, value) rows,
    n of them shown from top in a band w wide at (x, y), each on a cleared
    row, the cursor's inverted. A value is right-aligned in the 8x8 font, or
    in the small one when the row is too narrow for both; value None makes the
    row a heading (centred, never the cursor's)."""
    from firmware.ui import tinyfont
    for i in shown(top, len(items), n):
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


def key_line(fb, text):
    """The screen's keys on the bottom line, in the small font ("A OPEN")."""
    from firmware.ui import tinyfont
    tinyfont.text(fb, text, 1, _KEYS_Y)


def box(fb, x, y, w, h):
    """A framed, cleared box (dialogs over a game)."""
    fb.fill_rect(x, y, w, h, 0)
    fb.rect(x, y, w, h, 1)


def ask(fb, question):
    """A yes/no question in a box over a game. Every question on every screen
    takes the same keys: A says yes, B says no."""
    box(fb, 10, 16, 108, 30)
    centred(fb, question, 21)
    centred(fb, "A: yes B: no", 33)


def icon(fb, bits, x, y, colour=1):
    """Draw an 8x8 icon given as 8 row bytes (MSB = leftmost pixel)."""
    for row in range(8):
        b = bits[row]
        for col in range(8):
            if b & (0x80 >> col):
                fb.pixel(x + col, y + row, colour)


def clock_text(seconds):
    """m:ss, or h:mm:ss past an hour."""
    seconds = int(seconds)
    if seconds >= 3600:
        return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    return "%d:%02d" % (seconds // 60, seconds % 60)
