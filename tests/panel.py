"""Reading the emulated panel in tests: find text drawn with the 8x8 font."""
import framebuf


def _glyph_rows(text):
    """The rows of `text` rendered with framebuf's font, as tuples of 0/1."""
    w = 8 * len(text)
    fb = framebuf.FrameBuffer(bytearray(w), w, 8, framebuf.MONO_VLSB)
    fb.fill(0)
    fb.text(text, 0, 0, 1)
    return [tuple(fb.pixel(x, y) for x in range(w)) for y in range(8)]


def find_text(panel, text):
    """(x, y) where the panel shows text (in either colour), or None."""
    rows = _glyph_rows(text)
    inverse = [tuple(1 - p for p in row) for row in rows]
    w = len(rows[0])
    pixels = panel.pixels()
    height, width = len(pixels), len(pixels[0])
    for y in range(height - 7):
        for x in range(width - w + 1):
            for pattern in (rows, inverse):
                if all(tuple(pixels[y + r][x:x + w]) == pattern[r] for r in range(8)):
                    return (x, y)
    return None


def shows(panel, text):
    return find_text(panel, text) is not None
