"""Does every text a screen draws fit the panel? A recorder of the drawing calls.

The screens write text in four ways: framebuf's 8x8 font (fb.text), the small
font (tinyfont.text, which tinyfont.centred uses too), the centred 8x8 lines
of firmware.ui.draw (draw.centred, which cuts a line at 16 characters) and the
banner's double-size title (banner.big_text). TextLog wraps all four and notes
each text with the box it takes, *before* any cutting, so a line that
draw.centred would cut, or that runs off the panel's edge, shows up:

    log = TextLog(monkeypatch, arcade.hal.display)
    log.settle(screen)            # a full redraw of the screen as it is now
    assert not log.overflows(), log.overflows()

A screen's states are listed in tests/test_text_fits.py (STATES): add yours
there. A text cut on purpose before it is drawn (text[:15]) cannot be seen
here, so screens make their fixed texts fit instead of cutting them.
"""
from firmware.ui import banner, draw, tinyfont

WIDTH = 128
HEIGHT = 64


class TextLog:
    def __init__(self, monkeypatch, display):
        self.display = display
        self.drawn = []                   # (text, x, y, w, h, font)
        fb = display.fb
        fb_text = fb.text

        def text_8x8(s, x, y, c=1):
            self.drawn.append((s, x, y, 8 * len(s), 8, "8x8"))
            fb_text(s, x, y, c)

        tiny_text = tinyfont.text

        def text_tiny(fb, s, x, y, colour=1, size=1, scale=1):
            self.drawn.append((s, x, y, tinyfont.width(s, size, scale),
                               tinyfont.height(size, scale), "tiny%d" % size))
            return tiny_text(fb, s, x, y, colour, size, scale)

        centred = draw.centred

        def centred_8x8(fb, s, y, colour=1):
            w = 8 * len(s)
            self.drawn.append((s, (WIDTH - w) // 2, y, w, 8, "centred"))
            centred(fb, s, y, colour)

        big_text = banner.big_text

        def big(fb, s, x, y, colour=1):
            self.drawn.append((s, x, y, 16 * len(s), 16, "big"))
            big_text(fb, s, x, y, colour)

        monkeypatch.setattr(fb, "text", text_8x8)
        monkeypatch.setattr(tinyfont, "text", text_tiny)
        monkeypatch.setattr(draw, "centred", centred_8x8)
        monkeypatch.setattr(banner, "big_text", big)

    def settle(self, screen):
        """Forget what was noted, then draw the screen in full as it is now
        (a banner at its end, not scrolling in); returns the texts drawn."""
        b = getattr(screen, "banner", None)
        if b is not None and getattr(screen, "state", 0):
            b.skip(screen.hal.clock.now())
        screen.redraw()
        if hasattr(screen, "lines"):           # About draws once a second
            screen.lines = ()
        self.drawn = []
        screen.draw(self.display)
        if getattr(screen, "dirty", False) or getattr(screen, "panel", 0):
            screen.draw(self.display)          # a game's panel waits a frame after its cells
        return [d[0] for d in self.drawn]

    def overflows(self):
        """The texts that do not fit the panel (empty when all fit)."""
        return [d for d in self.drawn
                if d[0].strip() and (d[1] < 0 or d[2] < 0 or d[1] + d[3] > WIDTH or d[2] + d[4] > HEIGHT)]
