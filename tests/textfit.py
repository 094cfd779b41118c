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
    assert not log.crowded(), log.crowded()     # two texts on a line run together

A screen's states are listed in tests/test_text_fits.py (STATES): add yours
there. A text cut on purpose before it is drawn (text[:15]) cannot be seen
here, so screens make their fixed texts fit instead of cutting them.
"""
import sys
import importlib
import types

WIDTH = 128
HEIGHT = 64
# the modules whose text functions are wrapped, and the function in each
WRAPPED = {"firmware.ui.tinyfont": "text", "firmware.ui.draw": "centred",
           "firmware.ui.banner": "big_text"}


class TextLog:
    def __init__(self, monkeypatch, display):
        self.monkeypatch = monkeypatch
        self.display = display
        self.drawn = []                   # (text, x, y, w, h, font)
        fb = display.fb
        fb_text = fb.text

        def text_8x8(s, x, y, c=1):
            self.drawn.append((s, x, y, 8 * len(s), 8, "8x8"))
            fb_text(s, x, y, c)

        monkeypatch.setattr(fb, "text", text_8x8)
        self.wrap_modules()

    def wrap_modules(self):
        """Wrap the text functions of every copy of the font and drawing
        modules in use: the app forgets a screen's modules when it leaves
        and the games let some go between uses, so a module imported again
        is a new object (and a screen holds the one it imported)."""
        for name in WRAPPED:      # loaded now, so a screen that borrows one for a moment
            importlib.import_module(name)    # (a box over a game) draws with the wrapped copy
        found = set()
        for name, module in list(sys.modules.items()):
            if module is None or not name.startswith(("firmware", "tests")):
                continue
            if name in WRAPPED:
                found.add(module)
            for value in list(vars(module).values()):
                if isinstance(value, types.ModuleType) and value.__name__ in WRAPPED:
                    found.add(value)
        for module in found:
            if getattr(module, "_text_log", None) is not self:
                self._wrap(module)

    def _wrap(self, module):
        name = WRAPPED[module.__name__]
        original = getattr(module, name)
        if module.__name__ == "firmware.ui.tinyfont":
            width, height = module.width, module.height

            def wrapper(fb, s, x, y, colour=1, size=1, scale=1):
                self.drawn.append((s, x, y, width(s, size, scale), height(size, scale),
                                "tiny%d" % size))
                return original(fb, s, x, y, colour, size, scale)
        elif module.__name__ == "firmware.ui.draw":
            def wrapper(fb, s, y, colour=1):
                w = 8 * len(s)           # before draw.centred cuts it
                self.drawn.append((s, (WIDTH - w) // 2, y, w, 8, "centred"))
                original(fb, s, y, colour)
            box = module.box

            def box_wrapper(fb, x, y, w, h):
                # what is drawn so far inside it is covered (crowded() skips it)
                self.drawn[:] = [d for d in self.drawn if not (
                    x <= d[1] and d[1] + d[3] <= x + w and y <= d[2] and d[2] + d[4] <= y + h)]
                box(fb, x, y, w, h)
            self.monkeypatch.setattr(module, "box", box_wrapper)
        else:
            def wrapper(fb, s, x, y, colour=1):
                self.drawn.append((s, x, y, 16 * len(s), 16, "big"))
                original(fb, s, x, y, colour)
        self.monkeypatch.setattr(module, name, wrapper)
        self.monkeypatch.setattr(module, "_text_log", self, raising=False)

    def settle(self, screen):
        """Forget what was noted, then draw the screen in full as it is now
        (a banner at its end, not scrolling in); returns the texts drawn."""
        b = getattr(screen, "banner", None)
        if b is not None and getattr(screen, "state", 0):
            b.skip(screen.hal.clock.now())
        self.wrap_modules()
        screen.redraw()
        if type(screen).__name__ == "About":   # About draws once a second
            screen.lines = ()
        del self.drawn[:]
        screen.draw(self.display)
        if getattr(screen, "dirty", False) or getattr(screen, "panel", 0):
            screen.draw(self.display)          # a game's panel waits a frame after its cells
        return [d[0] for d in self.drawn]

    def overflows(self):
        """The texts that do not fit the panel (empty when all fit)."""
        return [d for d in self.drawn
                if d[0].strip() and (d[1] < 0 or d[2] < 0 or d[1] + d[3] > WIDTH or d[2] + d[4] > HEIGHT)]

    def crowded(self):
        """Pairs of words in the 8x8 font on the same line (the same top)
        closer than a space of it, 8 pixels ("CPU level" and "medium" read as
        "CPU levelmedium"). (Grid cells and arrows beside a choice are meant
        to stand close, in the small font or as single signs.)"""
        found = []
        texts = [d for d in self.drawn if d[5] == "8x8" and len(d[0].strip()) > 1]
        for a in texts:
            for b in texts:
                if a[2] == b[2] and a[1] < b[1] and 0 <= b[1] - (a[1] + a[3]) < 8:
                    found.append((a[0], b[0], a[2]))
        return found
