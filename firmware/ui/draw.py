"""Drawing helpers for 128x64 with the 8x8 framebuf font (16 columns x 8 rows)."""

WIDTH = 128
HEIGHT = 64
CHAR = 8  # framebuf's built-in font is 8x8 pixels


def centred(fb, text, y, colour=1):
    """Text centred horizontally (clipped to the panel width)."""
    text = text[: WIDTH // CHAR]
    fb.text(text, (WIDTH - len(text) * CHAR) // 2, y, colour)


def wrap(text, width_chars=WIDTH // CHAR, max_lines=8):
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


def box(fb, x, y, w, h):
    """A framed, cleared box (dialogs over a game)."""
    fb.fill_rect(x, y, w, h, 0)
    fb.rect(x, y, w, h, 1)


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
