# Draws the same framebuf operations on whatever `framebuf` is importable and prints the buffers.
#
# Runs unchanged on CPython (with tools/emu/mp first on sys.path: the stand-in) and on MicroPython
# (node tools/mprun/run.mjs --script tests/parity/draw_ops.py): tests/test_framebuf_parity.py
# requires both outputs to be identical. Output: for every case a line "case <n> <description>"
# then "= <hex of the buffer>" (and "pixel ..." lines for pixel reads, "exc <Type>" for errors).
# No `random` (its streams differ between the two), no f-strings with '=', no keywords in calls.
# Optional argument: a case number to run only that case (for debugging a difference).
import sys
from array import array

import framebuf
from binascii import hexlify

# Never compare the stand-in with itself: MicroPython's framebuf is built in (no __file__), the
# CPython one must be the stand-in.
if sys.implementation.name == "micropython":
    assert not hasattr(framebuf, "__file__"), "a framebuf.py shadows MicroPython's built-in framebuf"
else:
    assert framebuf.__file__.replace("\\", "/").endswith("tools/emu/mp/framebuf.py"), framebuf.__file__

FORMATS = (
    ("MONO_VLSB", framebuf.MONO_VLSB, 1),
    ("MONO_HLSB", framebuf.MONO_HLSB, 1),
    ("MONO_HMSB", framebuf.MONO_HMSB, 1),
    ("GS2_HMSB", framebuf.GS2_HMSB, 2),
    ("GS4_HMSB", framebuf.GS4_HMSB, 4),
    ("GS8", framebuf.GS8, 8),
    ("RGB565", framebuf.RGB565, 16),
)
# (width, height, stride): the panel, odd sizes, a stride wider than the width, tiny ones.
SIZES = (
    (128, 64, 128),
    (13, 9, 13),
    (13, 9, 21),
    (8, 8, 8),
    (24, 17, 24),
    (5, 3, 7),
    (1, 1, 1),
    (40, 20, 45),
)
PRIMITIVES = ("fill", "pixel", "hline", "vline", "line", "rect", "fill_rect", "ellipse", "poly",
              "text", "scroll", "blit", "blit_tuple", "blit_self", "frame")

_state = [20240607]


def rnd(n):
    """0..n-1 from a small LCG (same stream on CPython and MicroPython)."""
    _state[0] = (_state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (_state[0] >> 8) % n


def pick(seq):
    return seq[rnd(len(seq))]


def buffer_size(fmt, bpp, w, h, stride):
    if fmt == framebuf.MONO_VLSB:
        return ((h + 7) // 8) * stride
    if fmt in (framebuf.MONO_HLSB, framebuf.MONO_HMSB):
        stride = (stride + 7) & ~7
    elif fmt == framebuf.GS2_HMSB:
        stride = (stride + 3) & ~3
    elif fmt == framebuf.GS4_HMSB:
        stride = (stride + 1) & ~1
    return (stride * h * bpp + 7) // 8


def noise(n):
    """Random bytes, so that clearing and keeping pixels both show in the output."""
    return bytearray(rnd(256) for _ in range(n))


def coord(limit):
    """An x or y: mostly inside, often on or just past an edge, sometimes far off."""
    k = rnd(10)
    if k < 5:
        return rnd(limit)
    if k == 5:
        return pick((-1, 0, limit - 1, limit))
    if k == 6:
        return -rnd(limit + 3)
    if k == 7:
        return limit + rnd(5)
    if k == 8:
        return pick((-1000, 1000, -limit, 2 * limit))
    return rnd(limit + 6) - 3


def length(limit):
    """A width/height/radius: small, zero, negative, larger than the buffer."""
    k = rnd(8)
    if k < 4:
        return rnd(limit + 1)
    if k == 4:
        return pick((0, 1, -1, -5))
    if k == 5:
        return limit + rnd(10)
    if k == 6:
        return rnd(4)
    return -rnd(limit + 1)


def colour(bpp):
    k = rnd(8)
    if k < 3:
        return rnd(2)
    if k < 5:
        return rnd(1 << bpp)
    return pick((0, 1, -1, 2, 0x1F, 0x123, 0xFFFF, 0x12345, (1 << bpp) - 1))


TEXT_CHARS = [chr(c) for c in range(32, 127)] + ["\x01", "\x1f", "\x7f", "\xe9", "\u20ac", "\x00"]


def text_string():
    return "".join(pick(TEXT_CHARS) for _ in range(rnd(6)))


_quiet = [False]
_only = [None]  # a case number from the command line: print only that case


def begin(n):
    """Start case n. Every case always runs, so the PRNG stream is the same whichever is shown."""
    _quiet[0] = _only[0] is not None and _only[0] != n


def out(*args):
    if not _quiet[0]:
        print(*args)


def show(s):
    """A string's escaped form, the same on both Pythons (their repr() differ beyond ASCII)."""
    parts = []
    for ch in s:
        code = ord(ch)
        if 32 <= code < 127 and ch not in "\\'":
            parts.append(ch)
        elif code < 256:
            parts.append("\\x%02x" % code)
        else:
            parts.append("\\u%04x" % code)
    return "'" + "".join(parts) + "'"


def call(label, fn, *args):
    """Run one drawing call; an exception (same type on both sides) is part of the output."""
    try:
        result = fn(*args)
    except Exception as e:
        out("exc", label, type(e).__name__)
        return
    if isinstance(result, int):
        out("ret", label, result)


def dump(buf):
    out("=", hexlify(buf).decode())


def make_source(bpp_max_colours):
    """A random small source framebuffer: (FrameBuffer, buffer, w, h, fmt, stride, bpp, desc)."""
    name, fmt, bpp = pick(FORMATS)
    if bpp_max_colours and bpp > 8:
        name, fmt, bpp = FORMATS[rnd(6)]
    w = 1 + rnd(12)
    h = 1 + rnd(12)
    stride = w + pick((0, 0, 1, 3))
    buf = noise(buffer_size(fmt, bpp, w, h, stride))
    fb = framebuf.FrameBuffer(buf, w, h, fmt, stride)
    return fb, buf, w, h, fmt, stride, bpp, "%s %dx%d/%d" % (name, w, h, stride)


def make_palette(src_bpp, dst_bpp):
    colours = 1 << src_bpp
    fmts = [f for f in FORMATS if f[2] >= dst_bpp or f[2] >= 8]
    name, fmt, bpp = pick(fmts)
    buf = noise(buffer_size(fmt, bpp, colours, 1, colours))
    return framebuf.FrameBuffer(buf, colours, 1, fmt), buf, fmt, "%s %dx1" % (name, colours)


def op(fb, prim, w, h, bpp, buf):
    """Perform one random operation of kind `prim`; returns its description."""
    c = colour(bpp)
    if prim == "fill":
        call(prim, fb.fill, c)
        return "fill(%d)" % c
    if prim == "pixel":
        x, y = coord(w), coord(h)
        if rnd(3) == 0:
            out("pixel", x, y, fb.pixel(x, y))
            return "pixel(%d,%d)" % (x, y)
        call(prim, fb.pixel, x, y, c)
        out("pixel", x, y, fb.pixel(x, y))
        return "pixel(%d,%d,%d)" % (x, y, c)
    if prim == "hline":
        x, y, n = coord(w), coord(h), length(w)
        call(prim, fb.hline, x, y, n, c)
        return "hline(%d,%d,%d,%d)" % (x, y, n, c)
    if prim == "vline":
        x, y, n = coord(w), coord(h), length(h)
        call(prim, fb.vline, x, y, n, c)
        return "vline(%d,%d,%d,%d)" % (x, y, n, c)
    if prim == "line":
        x1, y1, x2, y2 = coord(w), coord(h), coord(w), coord(h)
        call(prim, fb.line, x1, y1, x2, y2, c)
        return "line(%d,%d,%d,%d,%d)" % (x1, y1, x2, y2, c)
    if prim in ("rect", "fill_rect"):
        x, y, rw, rh = coord(w), coord(h), length(w), length(h)
        if prim == "fill_rect":
            call(prim, fb.fill_rect, x, y, rw, rh, c)
            return "fill_rect(%d,%d,%d,%d,%d)" % (x, y, rw, rh, c)
        k = rnd(3)
        if k == 0:
            call(prim, fb.rect, x, y, rw, rh, c)
            return "rect(%d,%d,%d,%d,%d)" % (x, y, rw, rh, c)
        call(prim, fb.rect, x, y, rw, rh, c, k == 1)
        return "rect(%d,%d,%d,%d,%d,%s)" % (x, y, rw, rh, c, k == 1)
    if prim == "ellipse":
        x, y = coord(w), coord(h)
        xr, yr = rnd(w // 2 + 4), rnd(h // 2 + 4)
        if rnd(8) == 0:
            xr = -xr
        if rnd(8) == 0:
            yr = -yr
        if rnd(6) == 0:
            xr, yr = 0, pick((0, yr))
        k = rnd(3)
        if k == 0:
            call(prim, fb.ellipse, x, y, xr, yr, c)
            return "ellipse(%d,%d,%d,%d,%d)" % (x, y, xr, yr, c)
        f = rnd(2) == 1
        if k == 1:
            call(prim, fb.ellipse, x, y, xr, yr, c, f)
            return "ellipse(%d,%d,%d,%d,%d,%s)" % (x, y, xr, yr, c, f)
        m = rnd(32)
        call(prim, fb.ellipse, x, y, xr, yr, c, f, m)
        return "ellipse(%d,%d,%d,%d,%d,%s,%d)" % (x, y, xr, yr, c, f, m)
    if prim == "poly":
        n = rnd(8)
        coords = [coord(w) - w // 4 for _ in range(2 * n)]
        if rnd(5) == 0:
            coords.append(rnd(w))  # odd count: the last value is ignored
        x, y = coord(w) // 2, coord(h) // 2
        f = rnd(2) == 1
        if rnd(6) == 0:
            data = bytes(v & 0xFF for v in coords)
            kind = "bytes"
        else:
            data = array("h", coords)
            kind = "h"
        call(prim, fb.poly, x, y, data, c, f)
        return "poly(%d,%d,%s%s,%d,%s)" % (x, y, kind, coords, c, f)
    if prim == "text":
        s = text_string()
        x, y = coord(w), coord(h)
        if rnd(3) == 0:
            call(prim, fb.text, s, x, y)
            return "text(%s,%d,%d)" % (show(s), x, y)
        call(prim, fb.text, s, x, y, c)
        return "text(%s,%d,%d,%d)" % (show(s), x, y, c)
    if prim == "scroll":
        dx = pick((0, 1, -1, 2, -3, w - 1, -(w - 1), w, -w, w + 2, rnd(7) - 3))
        dy = pick((0, 1, -1, 5, -7, 8, -8, h - 1, -(h - 1), h, -h, rnd(11) - 5))
        call(prim, fb.scroll, dx, dy)
        return "scroll(%d,%d)" % (dx, dy)
    if prim in ("blit", "blit_tuple"):
        use_palette = rnd(3) == 0
        src, sbuf, sw, sh, sfmt, sstride, sbpp, desc = make_source(use_palette)
        x, y = coord(w) - sw // 2, coord(h) - sh // 2
        key = pick((-1, -1, 0, 1, 2, 3, 0xFF, rnd(1 << min(sbpp, 8)), -2))
        if prim == "blit_tuple":
            if rnd(2):
                src = (sbuf, sw, sh, sfmt, sstride)
                desc = "tuple " + desc
            else:  # no stride: read as stride == width, from read-only bytes
                src = (bytes(sbuf), sw, sh, sfmt)
                desc = "tuple " + desc.split("/")[0]
        if use_palette:
            pal, pbuf, pfmt, pdesc = make_palette(sbpp, bpp)
            if rnd(4) == 0:
                pal = (pbuf, 1 << sbpp, 1, pfmt)
                pdesc = "tuple " + pdesc
            call(prim, fb.blit, src, x, y, key, pal)
            return "blit(%s %s,%d,%d,%d,palette %s %s)" % (desc, hexlify(sbuf).decode(), x, y, key, pdesc,
                                                          hexlify(pbuf).decode())
        if key == -1 and rnd(2):
            call(prim, fb.blit, src, x, y)
            return "blit(%s %s,%d,%d)" % (desc, hexlify(sbuf).decode(), x, y)
        call(prim, fb.blit, src, x, y, key)
        return "blit(%s %s,%d,%d,%d)" % (desc, hexlify(sbuf).decode(), x, y, key)
    if prim == "blit_self":
        x, y = rnd(7) - 3, rnd(7) - 3
        key = pick((-1, 0, 1))
        call(prim, fb.blit, fb, x, y, key)
        return "blit(self,%d,%d,%d)" % (x, y, key)
    # "frame": a burst of operations, like one frame of a game.
    steps = []
    for _ in range(8 + rnd(8)):
        steps.append(op(fb, PRIMITIVES[rnd(11)], w, h, bpp, buf))
    return "frame[" + "; ".join(steps) + "]"


def new_target(name, fmt, bpp, w, h, stride):
    buf = noise(buffer_size(fmt, bpp, w, h, stride))
    if rnd(4) == 0:
        return framebuf.FrameBuffer(buf, w, h, fmt), buf, w  # default stride
    return framebuf.FrameBuffer(buf, w, h, fmt, stride), buf, stride


class Panel(framebuf.FrameBuffer):
    """Like the ssd1306 driver: a subclass that owns its buffer."""

    def __init__(self, width, height):
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)


def fixed_cases():
    """Every glyph in every format, constructor checks, bad calls, a subclass like ssd1306."""
    n = 0
    for name, fmt, bpp in FORMATS:
        n += 1
        begin(n)
        out("case", n, name, "128x64/128")
        out("do", "every printable char, 6 lines, clipped at the edges")
        fb, buf, _ = new_target(name, fmt, bpp, 128, 64, 128)
        fb.fill(0)
        for row in range(6):
            s = "".join(chr(c) for c in range(32 + row * 16, min(128, 48 + row * 16)))
            fb.text(s, row - 3, row * 11 - 2, (row % 3) + 1)
        dump(buf)
        n += 1
        begin(n)
        out("case", n, name, "64x32/64")
        out("do", "every byte value 1..255 as a one-byte string")
        buf = bytearray(buffer_size(fmt, bpp, 64, 32, 64))
        fb = framebuf.FrameBuffer(buf, 64, 32, fmt)
        for code in range(1, 256):
            fb.text(bytes((code,)), (code % 8) * 8, (code // 64) * 8 - (code % 3))
        dump(buf)
    # Buffer just big enough / one byte short, stride below width, bad format, zero size.
    for args in ((8, 8, framebuf.MONO_VLSB, 8, 7), (8, 9, framebuf.MONO_VLSB, 16, 8),
                 (8, 9, framebuf.MONO_VLSB, 15, 8), (9, 2, framebuf.MONO_HLSB, 4, 9),
                 (9, 2, framebuf.MONO_HLSB, 3, 9), (3, 3, framebuf.GS4_HMSB, 6, 3),
                 (3, 3, framebuf.GS4_HMSB, 5, 3), (5, 2, framebuf.RGB565, 20, 5),
                 (5, 2, framebuf.RGB565, 19, 5), (8, 8, 7, 64, 8), (0, 8, framebuf.GS8, 64, 0),
                 (8, 8, framebuf.GS8, 64, 7), (4, 4, framebuf.GS2_HMSB, 4, 4),
                 (5, 2, framebuf.GS2_HMSB, 3, 5), (5, 2, framebuf.GS2_HMSB, 4, 5)):
        n += 1
        begin(n)
        w, h, fmt, size, stride = args
        out("case", n, "constructor")
        out("do", "FrameBuffer(bytearray(%d),%d,%d,%d,%d) and as a blit tuple" % (size, w, h, fmt, stride))
        call("new", framebuf.FrameBuffer, bytearray(size), w, h, fmt, stride)
        call("tuple", Panel(8, 8).blit, (bytes(size), w, h, fmt, stride), 0, 0)
    n += 1
    begin(n)
    out("case", n, "bad calls")
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    call("bytes buffer", framebuf.FrameBuffer, b"12345678", 8, 8, framebuf.MONO_VLSB)
    call("list coords", fb.poly, 0, 0, [1, 2, 3, 4], 1)
    call("short tuple", fb.blit, (bytes(8), 8, 8), 0, 0)
    call("long tuple", fb.blit, (bytes(8), 8, 8, 0, 8, 0), 0, 0)
    call("float", fb.fill, 1.5)
    call("text int", fb.text, 5, 0, 0)
    call("blit int", fb.blit, 5, 0, 0)
    call("blit str", fb.blit, "abcd", 0, 0)
    call("text bytearray", fb.text, bytearray(b"A"), 0, 0)
    call("text None", fb.text, None, 0, 0)
    call("float coords", fb.poly, 0, 0, array("f", [1.0, 2.0, 3.0, 4.0]), 1)
    call("pixel None", fb.pixel, 0, 0, None)
    call("pixel None outside", fb.pixel, 9, 0, None)
    call("pixel 2**40", fb.pixel, 2 ** 40, 0)
    call("fill True", fb.fill, True)
    call("blit palette None", fb.blit, (bytes(8), 8, 8, framebuf.MONO_VLSB), 0, 0, -1, None)
    out("pixel", fb.pixel(0, 0), fb.pixel(8, 0), fb.pixel(-1, 0))
    n += 1
    begin(n)
    out("case", n, "MONO_VLSB 32x16/32")
    out("do", "a FrameBuffer subclass owning its buffer, like the ssd1306 driver")
    panel = Panel(32, 16)
    panel.fill(1)
    panel.text("Hi!", 3, 4, 0)
    panel.rect(0, 0, 32, 16, 0)
    panel.ellipse(20, 8, 6, 4, 0, True, 9)
    dump(panel.buffer)
    other = framebuf.FrameBuffer(bytearray(128), 64, 16, framebuf.MONO_VLSB)
    other.blit(panel, 5, -3)
    out("blit of the subclass onto a 64x16 MONO_VLSB:")
    copy = bytearray(128)
    framebuf.FrameBuffer(copy, 64, 16, framebuf.MONO_VLSB).blit(other, 0, 0)
    out("+", hexlify(copy).decode())
    return n


def random_cases(n, count):
    """Every (format, primitive) pair count/(7*15) times, with random arguments."""
    for i in range(count):
        n += 1
        begin(n)
        name, fmt, bpp = FORMATS[i % len(FORMATS)]
        prim = PRIMITIVES[(i // len(FORMATS)) % len(PRIMITIVES)]
        w, h, stride = SIZES[rnd(len(SIZES))]
        fb, buf, real_stride = new_target(name, fmt, bpp, w, h, stride)
        out("case", n, name, "%dx%d/%d" % (w, h, real_stride))
        out("do", op(fb, prim, w, h, bpp, buf))
        dump(buf)
    return n


def main():
    argv = getattr(sys, "argv", None) or []
    _only[0] = int(argv[1]) if len(argv) > 1 else None
    n = fixed_cases()
    n = random_cases(n, len(FORMATS) * len(PRIMITIVES) * 6)
    _quiet[0] = False
    if _only[0] is None:
        out("done", n)


main()
