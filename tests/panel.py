"""Reading the emulated panel in tests: find text drawn with the 8x8 font
(shows), or with tinyfont (shows_tiny)."""
from tools.simulator.panel_text import find_text, highlighted  # noqa: F401


def shows(panel, text):
    return find_text(panel, text) is not None


def shows_tiny(panel, text, size=1):
    """text drawn with tinyfont somewhere on the panel."""
    import framebuf                    # (here: some tests import this module
    from firmware.ui import tinyfont   # where the firmware cannot load)
    w = tinyfont.width(text, size)
    h = tinyfont.height(size)
    fb = framebuf.FrameBuffer(bytearray(w * 8), w, 8, framebuf.MONO_VLSB)
    tinyfont.text(fb, text, 0, 0, 1, size)
    want = [[fb.pixel(x, y) for x in range(w)] for y in range(h)]
    pixels = panel.pixels()
    return any(all(list(pixels[y + r][x:x + w]) == want[r] for r in range(h))
               for y in range(64 - h + 1) for x in range(128 - w + 1))
