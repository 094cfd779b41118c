"""The ML4M 15-puzzle's "You Win" / "You Lost": big text scrolls in, the panel flashes
inverted a few times, then the text stays with a line or two of details and,
on the bottom line, the keys that work now (as on every screen)."""
from micropython import const
from firmware.ui import WIDTH

_SCROLL_MS = const(800)   # time for the title to travel in from the right edge
_FLASHES = const(3)       # inverted flashes after it arrives
_FLASH_MS = const(180)    # each half-period of a flash


def _centred(fb, text, y):
    """A line of the 8x8 font centred (clipped to the panel): firmware.ui.draw's
    centred() again, so that a game's end holds none of draw (1.4 KB)."""
    text = text[:WIDTH // 8]
    fb.text(text, (WIDTH - len(text) * 8) // 2, y, 1)


class Banner:
    def __init__(self, display, title, details=(), now_ms=0, keys=""):
        self.display = display
        self.title = title
        self.details = details
        self.keys = keys
        self.start = now_ms
        self.elapsed = 0
        self.inverted = False

    def update(self, now_ms):
        """Advance the animation; True once it has finished."""
        import time
        self.elapsed = time.ticks_diff(now_ms, self.start)
        flash_phase = self.elapsed - _SCROLL_MS
        invert = 0 <= flash_phase < _FLASHES * 2 * _FLASH_MS and (flash_phase // _FLASH_MS) % 2 == 0
        if invert != self.inverted:
            self.inverted = invert
            self.display.invert(invert)
        return self.finished()

    def finished(self):
        return self.elapsed >= _SCROLL_MS + _FLASHES * 2 * _FLASH_MS

    def skip(self, now_ms):
        """Jump to the end state (the player pressed a button): the start
        moves back, so the next update() does not take the animation up again."""
        import time
        end = _SCROLL_MS + _FLASHES * 2 * _FLASH_MS
        self.start = time.ticks_add(now_ms, -end)
        self.elapsed = end
        if self.inverted:
            self.inverted = False
            self.display.invert(False)

    def draw(self, fb):
        fb.fill(0)
        # The title is drawn twice the font's size by scaling each pixel of its
        # glyphs into a 2x2 block, so "You Win" reads from arm's length.
        width = len(self.title) * 16
        x_final = (WIDTH - width) // 2
        if self.elapsed < _SCROLL_MS:
            x = WIDTH - (WIDTH - x_final) * self.elapsed // _SCROLL_MS
        else:
            x = x_final
        big_text(fb, self.title, x, 8)
        y = 34
        step = 10
        if self.keys:
            _centred(fb, self.keys, 56)
            if len(self.details) > 2:      # three lines and the keys: closer
                y = 27
                step = 9
        for line in self.details:
            _centred(fb, line, y)
            y += step


_glyph = None


def big_text(fb, text, x, y, colour=1):
    """Text at twice the 8x8 font's size (each glyph rendered once, then scaled)."""
    global _glyph
    import framebuf
    if _glyph is None:
        _glyph = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    for ch in text:
        if x > -16 and x < WIDTH:
            _glyph.fill(0)
            _glyph.text(ch, 0, 0, 1)
            for gy in range(8):
                for gx in range(8):
                    if _glyph.pixel(gx, gy):
                        fb.fill_rect(x + 2 * gx, y + 2 * gy, 2, 2, colour)
        x += 16
