"""Reading the emulated panel: where text drawn with the 8x8 font is, in either
colour or only as a highlighted (inverted) row shows it. The tests read the
panel with it, and replays choose menu entries by their label with it."""
import framebuf


def _glyph_rows(text):
    """The rows of `text` rendered with framebuf's font, as tuples of 0/1."""
    w = 8 * len(text)
    fb = framebuf.FrameBuffer(bytearray(w), w, 8, framebuf.MONO_VLSB)
    fb.fill(0)
    fb.text(text, 0, 0, 1)
    return [tuple(fb.pixel(x, y) for x in range(w)) for y in range(8)]


def find_text(panel, text, colours=(1, 0)):
    """(x, y) where the panel shows text, or None. colours: 1 finds it lit on
    dark, 0 dark on a lit bar (a highlighted row); both by default."""
    rows = _glyph_rows(text)
    patterns = []
    if 1 in colours:
        patterns.append(rows)
    if 0 in colours:
        patterns.append([tuple(1 - p for p in row) for row in rows])
    w = len(rows[0])
    pixels = panel.pixels()
    height, width = len(pixels), len(pixels[0])
    for y in range(height - 7):
        for x in range(width - w + 1):
            for pattern in patterns:
                if all(tuple(pixels[y + r][x:x + w]) == pattern[r] for r in range(8)):
                    return (x, y)
    return None


def highlighted(panel, label):
    """True when label is the highlighted row of a list (menu, Settings)."""
    return find_text(panel, label, colours=(0,)) is not None
