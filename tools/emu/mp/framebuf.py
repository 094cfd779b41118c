"""A pure-Python stand-in for MicroPython's built-in ``framebuf`` module.

It writes the same bytes into the caller's buffer as MicroPython's C implementation
(extmod/modframebuf.c, v1.27) for every format and primitive, including its clipping and its
quirks; tests/test_framebuf_parity.py proves that against real MicroPython. Things it keeps on
purpose because the board does them too:

- every method takes positional arguments only (MicroPython rejects keywords, e.g. ``fill=True``);
- colours are stored as the C code stores them (``!= 0`` for 1-bit formats, masked otherwise);
- ``text()`` draws the UTF-8 *bytes* of its string: each byte outside 32..127 is the checkerboard
  glyph, and a NUL byte ends the string;
- ``poly()`` wants a buffer of coordinates (``array('h', ...)``, bytes), not a list.

The 8x8 font is not stored in the repository: ``make deps`` extracts it from real MicroPython
(``node tools/emu/extract_font.mjs``) into font8x8.bin beside this file.

CPython 3.11 cannot give a Python class the buffer protocol, so ``memoryview(fb)`` does not work
here; keep using the bytearray you passed in (the ssd1306 driver already does).
"""

import os
from operator import index as _index

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

_FONT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "font8x8.bin")
_font = None  # tuple of 256 glyphs, each a tuple of 8 column bytes (LSB = top row)

# Quadrant bits of ellipse(): Q2 Q1 / Q3 Q4.
_ELLIPSE_FILL = 0x10
_ELLIPSE_ALL = 0x0F

_MISSING = object()  # "argument not given" (MicroPython has no None defaults here)
_tables = {}  # (clear_mask, set_bits) -> 256-byte table for bytes.translate


def _int(value):
    """mp_obj_get_int: ints and bools only, and only what fits the ESP32's 32-bit machine word."""
    value = _index(value)
    if not -0x80000000 <= value <= 0x7FFFFFFF:
        raise OverflowError("overflow converting long int to machine word")
    return value


def _load_font():
    global _font
    try:
        with open(_FONT_PATH, "rb") as f:
            data = f.read()
    except OSError:
        data = b""
    if len(data) != 256 * 8:
        raise RuntimeError(
            "framebuf stand-in: the 8x8 font %s is missing or damaged; run `make deps` "
            "(it runs `node tools/emu/extract_font.mjs`)" % _FONT_PATH
        )
    _font = tuple(tuple(data[i * 8 : i * 8 + 8]) for i in range(256))
    return _font


def _table(clear, bits):
    """A translate table that clears ``clear`` and then sets ``bits`` in every byte."""
    t = _tables.get((clear, bits))
    if t is None:
        keep = ~clear & 0xFF
        t = bytes((b & keep) | bits for b in range(256))
        _tables[(clear, bits)] = t
    return t


def _cdiv(a, b):
    """C integer division (truncates toward zero), as used by poly()."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _byte_buffer(obj, writable):
    """The object's bytes as something indexable and slice-assignable, like mp_get_buffer_raise."""
    if type(obj) is bytearray:
        return obj
    if writable and isinstance(obj, (bytes, str)):
        raise TypeError("object with buffer protocol required")
    try:
        mv = memoryview(obj)
    except TypeError:
        raise TypeError("object with buffer protocol required") from None
    if writable and mv.readonly:
        raise TypeError("object with buffer protocol required")
    if mv.format != "B" or mv.ndim != 1:
        mv = mv.cast("B")
    return mv


class FrameBuffer:
    """MicroPython's framebuf.FrameBuffer(buffer, width, height, format[, stride])."""

    def __init__(self, buffer, width, height, format, stride=_MISSING, /):
        self._setup(buffer, width, height, format, stride, True)

    # -- construction (also used for (buffer, w, h, format[, stride]) blit sources) --

    def _setup(self, buffer, width, height, format, stride, writable):
        width = _int(width)
        height = _int(height)
        format = _int(format)
        stride = width if stride is _MISSING else _int(stride)
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF or stride > 0xFFFF or stride < width:
            raise ValueError()
        bpp = 1
        height_required = height
        width_required = width
        strides_required = height - 1
        if format == MONO_VLSB:
            height_required = (height + 7) & ~7
            strides_required = height_required - 8
        elif format == MONO_HLSB or format == MONO_HMSB:
            stride = (stride + 7) & ~7
            width_required = (width + 7) & ~7
        elif format == GS2_HMSB:
            stride = (stride + 3) & ~3
            width_required = (width + 3) & ~3
            bpp = 2
        elif format == GS4_HMSB:
            stride = (stride + 1) & ~1
            width_required = (width + 1) & ~1
            bpp = 4
        elif format == GS8:
            bpp = 8
        elif format == RGB565:
            bpp = 16
        else:
            raise ValueError("invalid format")
        buf = _byte_buffer(buffer, writable)
        needed = (strides_required * stride + (height_required - strides_required) * width_required) * bpp // 8
        if needed > len(buf):
            raise ValueError()
        self._buf = buf
        self._width = width
        self._height = height
        self._format = format
        self._stride = stride
        self._rows_mask = (1 << height) - 1
        if format == MONO_VLSB:
            self._set, self._get, self._fill = self._set_vlsb, self._get_vlsb, self._fill_vlsb
        elif format == MONO_HLSB:
            self._set, self._get, self._fill = self._set_hlsb, self._get_hlsb, self._fill_mono_h
        elif format == MONO_HMSB:
            self._set, self._get, self._fill = self._set_hmsb, self._get_hmsb, self._fill_mono_h
        elif format == RGB565:
            self._set, self._get, self._fill = self._set_rgb565, self._get_rgb565, self._fill_rgb565
        elif format == GS2_HMSB:
            self._set, self._get, self._fill = self._set_gs2, self._get_gs2, self._fill_pixels
        elif format == GS4_HMSB:
            self._set, self._get, self._fill = self._set_gs4, self._get_gs4, self._fill_pixels
        else:
            self._set, self._get, self._fill = self._set_gs8, self._get_gs8, self._fill_gs8

    # -- per-format pixel access (coordinates already inside the buffer) --

    def _set_vlsb(self, x, y, c):
        i = (y >> 3) * self._stride + x
        if c:
            self._buf[i] |= 1 << (y & 7)
        else:
            self._buf[i] &= ~(1 << (y & 7)) & 0xFF

    def _get_vlsb(self, x, y):
        return (self._buf[(y >> 3) * self._stride + x] >> (y & 7)) & 1

    def _set_hlsb(self, x, y, c):
        i = (x + y * self._stride) >> 3
        bit = 0x80 >> (x & 7)
        if c:
            self._buf[i] |= bit
        else:
            self._buf[i] &= ~bit & 0xFF

    def _get_hlsb(self, x, y):
        return (self._buf[(x + y * self._stride) >> 3] >> (7 - (x & 7))) & 1

    def _set_hmsb(self, x, y, c):
        i = (x + y * self._stride) >> 3
        bit = 1 << (x & 7)
        if c:
            self._buf[i] |= bit
        else:
            self._buf[i] &= ~bit & 0xFF

    def _get_hmsb(self, x, y):
        return (self._buf[(x + y * self._stride) >> 3] >> (x & 7)) & 1

    def _set_rgb565(self, x, y, c):
        i = (x + y * self._stride) * 2  # uint16 in the ESP32's (and WebAssembly's) little-endian order
        self._buf[i] = c & 0xFF
        self._buf[i + 1] = (c >> 8) & 0xFF

    def _get_rgb565(self, x, y):
        i = (x + y * self._stride) * 2
        return self._buf[i] | (self._buf[i + 1] << 8)

    def _set_gs2(self, x, y, c):
        i = (x + y * self._stride) >> 2
        shift = (x & 3) << 1
        self._buf[i] = ((c & 3) << shift) | (self._buf[i] & ~(3 << shift) & 0xFF)

    def _get_gs2(self, x, y):
        return (self._buf[(x + y * self._stride) >> 2] >> ((x & 3) << 1)) & 3

    def _set_gs4(self, x, y, c):
        i = (x + y * self._stride) >> 1
        if x & 1:
            self._buf[i] = (c & 0x0F) | (self._buf[i] & 0xF0)
        else:
            self._buf[i] = ((c << 4) & 0xF0) | (self._buf[i] & 0x0F)

    def _get_gs4(self, x, y):
        b = self._buf[(x + y * self._stride) >> 1]
        return b & 0x0F if x & 1 else b >> 4

    def _set_gs8(self, x, y, c):
        self._buf[x + y * self._stride] = c & 0xFF

    def _get_gs8(self, x, y):
        return self._buf[x + y * self._stride]

    # -- per-format rectangle fill (already clipped, w >= 1, h >= 1) --

    def _fill_vlsb(self, x, y, w, h, c):
        buf = self._buf
        stride = self._stride
        yend = y + h
        full = (b"\xff" if c else b"\x00") * w
        for page in range(y >> 3, ((yend - 1) >> 3) + 1):
            top = max(y, page << 3) - (page << 3)
            bottom = min(yend, (page + 1) << 3) - (page << 3)
            mask = ((1 << bottom) - 1) & ~((1 << top) - 1)
            a = page * stride + x
            if mask == 0xFF:
                buf[a : a + w] = full
            else:
                buf[a : a + w] = bytes(buf[a : a + w]).translate(_table(mask, mask if c else 0))

    def _fill_mono_h(self, x, y, w, h, c):
        buf = self._buf
        msb_first = self._format == MONO_HLSB
        row_bytes = self._stride >> 3
        xend = x + w
        spans = []  # (byte offset in a row, bit mask) for every byte the span touches
        for bx in range(x >> 3, ((xend - 1) >> 3) + 1):
            lo = max(x, bx << 3) - (bx << 3)
            hi = min(xend, (bx + 1) << 3) - (bx << 3)
            mask = ((1 << hi) - 1) & ~((1 << lo) - 1)
            if msb_first:
                mask = int("{:08b}".format(mask)[::-1], 2)
            spans.append((bx, mask))
        for row in range(y, y + h):
            base = row * row_bytes
            for bx, mask in spans:
                i = base + bx
                if c:
                    buf[i] |= mask
                else:
                    buf[i] &= ~mask & 0xFF

    def _fill_rgb565(self, x, y, w, h, c):
        run = bytes((c & 0xFF, (c >> 8) & 0xFF)) * w
        for row in range(y, y + h):
            a = (x + row * self._stride) * 2
            self._buf[a : a + 2 * w] = run

    def _fill_gs8(self, x, y, w, h, c):
        run = bytes((c & 0xFF,)) * w
        for row in range(y, y + h):
            a = x + row * self._stride
            self._buf[a : a + w] = run

    def _fill_pixels(self, x, y, w, h, c):
        setpixel = self._set
        for row in range(y, y + h):
            for col in range(x, x + w):
                setpixel(col, row, c)

    # -- shared helpers, as in modframebuf.c --

    def _fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._height or x >= self._width:
            return
        xend = min(self._width, x + w)
        yend = min(self._height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill(x, y, xend - x, yend - y, c)

    def _pixel_checked(self, x, y, c):
        if 0 <= x < self._width and 0 <= y < self._height:
            self._set(x, y, c)

    def _line(self, x1, y1, x2, y2, c):
        # Bresenham exactly as MicroPython steps it (which pixels a slanted line lights matters).
        dx = x2 - x1
        if dx > 0:
            sx = 1
        else:
            dx = -dx
            sx = -1
        dy = y2 - y1
        if dy > 0:
            sy = 1
        else:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        w = self._width
        h = self._height
        setpixel = self._set
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < w and 0 <= x1 < h:
                    setpixel(y1, x1, c)
            elif 0 <= x1 < w and 0 <= y1 < h:
                setpixel(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < w and 0 <= y2 < h:
            setpixel(x2, y2, c)

    # -- public API --

    def fill(self, c, /):
        self._fill(0, 0, self._width, self._height, _int(c))

    def fill_rect(self, x, y, w, h, c, /):
        self._fill_rect(_int(x), _int(y), _int(w), _int(h), _int(c))

    def pixel(self, x, y, c=_MISSING, /):
        x = _int(x)
        y = _int(y)
        if 0 <= x < self._width and 0 <= y < self._height:
            if c is _MISSING:
                return self._get(x, y)
            self._set(x, y, _int(c))
        return None

    def hline(self, x, y, w, c, /):
        self._fill_rect(_int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c, /):
        self._fill_rect(_int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False, /):
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            self._fill_rect(x, y, w, h, c)
        else:
            self._fill_rect(x, y, w, 1, c)
            self._fill_rect(x, y + h - 1, w, 1, c)
            self._fill_rect(x, y, 1, h, c)
            self._fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c, /):
        self._line(_int(x1), _int(y1), _int(x2), _int(y2), _int(c))

    def ellipse(self, x, y, xr, yr, c, f=False, m=_ELLIPSE_ALL, /):
        cx, cy, a, b, c = _int(x), _int(y), _int(xr), _int(yr), _int(c)
        mask = (_ELLIPSE_FILL if f else 0) | (_int(m) & _ELLIPSE_ALL)
        if a == 0 and b == 0:
            if mask & _ELLIPSE_ALL:
                self._pixel_checked(cx, cy, c)
            return
        # Midpoint ellipse in two regions, the same integer steps as MicroPython.
        two_asquare = 2 * a * a
        two_bsquare = 2 * b * b
        px = a
        py = 0
        xchange = b * b * (1 - 2 * a)
        ychange = a * a
        error = 0
        stoppingx = two_bsquare * a
        stoppingy = 0
        while stoppingx >= stoppingy:
            self._ellipse_points(cx, cy, px, py, c, mask)
            py += 1
            stoppingy += two_asquare
            error += ychange
            ychange += two_asquare
            if 2 * error + xchange > 0:
                px -= 1
                stoppingx -= two_bsquare
                error += xchange
                xchange += two_bsquare
        px = 0
        py = b
        xchange = b * b
        ychange = a * a * (1 - 2 * b)
        error = 0
        stoppingx = 0
        stoppingy = two_asquare * b
        while stoppingx <= stoppingy:
            self._ellipse_points(cx, cy, px, py, c, mask)
            px += 1
            stoppingx += two_bsquare
            error += xchange
            xchange += two_bsquare
            if 2 * error + ychange > 0:
                py -= 1
                stoppingy -= two_asquare
                error += ychange
                ychange += two_asquare

    def _ellipse_points(self, cx, cy, x, y, c, mask):
        if mask & _ELLIPSE_FILL:
            if mask & 1:
                self._fill_rect(cx, cy - y, x + 1, 1, c)
            if mask & 2:
                self._fill_rect(cx - x, cy - y, x + 1, 1, c)
            if mask & 4:
                self._fill_rect(cx - x, cy + y, x + 1, 1, c)
            if mask & 8:
                self._fill_rect(cx, cy + y, x + 1, 1, c)
        else:
            if mask & 1:
                self._pixel_checked(cx + x, cy - y, c)
            if mask & 2:
                self._pixel_checked(cx - x, cy - y, c)
            if mask & 4:
                self._pixel_checked(cx - x, cy + y, c)
            if mask & 8:
                self._pixel_checked(cx + x, cy + y, c)

    def poly(self, x, y, coords, c, f=False, /):
        x = _int(x)
        y = _int(y)
        try:
            view = memoryview(coords)
        except TypeError:
            raise TypeError("object with buffer protocol required") from None
        if view.format in ("f", "d", "e"):
            raise TypeError("can't convert float to int")
        values = view.tolist()
        n = len(values) // 2  # an odd count drops the last value, as on the board
        if n == 0:
            return
        c = _int(c)
        if not f:
            # Outline: from the first vertex, then backwards through the list to the first again.
            px1, py1 = values[0], values[1]
            for i in range(n - 1, -1, -1):
                px2, py2 = values[2 * i], values[2 * i + 1]
                self._line(x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
            return
        # Filled: integer scan-line fill with MicroPython's edge rules (and its missed pixels).
        ys = values[1 : 2 * n : 2]
        for row in range(min(ys), max(ys) + 1):
            nodes = []
            px1, py1 = values[0], values[1]
            for i in range(n - 1, -1, -1):
                px2, py2 = values[2 * i], values[2 * i + 1]
                if py1 != py2 and ((py1 > row and py2 <= row) or (py1 <= row and py2 > row)):
                    nodes.append(_cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1) + 16, 32))
                elif row == max(py1, py2):
                    if py1 < py2:
                        self._pixel_checked(x + px2, y + py2, c)
                    elif py2 < py1:
                        self._pixel_checked(x + px1, y + py1, c)
                    else:
                        self._line(x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
            nodes.sort()
            for i in range(0, len(nodes) - 1, 2):
                self._fill_rect(x + nodes[i], y + row, nodes[i + 1] - nodes[i] + 1, 1, c)

    def text(self, s, x, y, c=1, /):
        if isinstance(s, str):
            data = s.encode()
        elif isinstance(s, bytes):
            data = s
        else:
            raise TypeError("can't convert '%s' object to str implicitly" % type(s).__name__)
        x0 = _int(x)
        y0 = _int(y)
        c = _int(c)
        font = _font or _load_font()
        nul = data.find(b"\x00")  # the C loop stops at a NUL byte
        if nul >= 0:
            data = data[:nul]
        w = self._width
        h = self._height
        if self._format == MONO_VLSB:
            self._text_vlsb(data, x0, y0, c, font)
            return
        setpixel = self._set
        for code in data:
            for column in font[code]:
                if 0 <= x0 < w:
                    py = y0
                    while column:
                        if column & 1 and 0 <= py < h:
                            setpixel(x0, py, c)
                        column >>= 1
                        py += 1
                x0 += 1

    def _text_vlsb(self, data, x0, y0, c, font):
        # A glyph column is a byte with the top row in bit 0, like a MONO_VLSB page byte: shifted
        # to y0 it lands in at most two pages.
        buf = self._buf
        stride = self._stride
        w = self._width
        if y0 >= 0:
            first_page = y0 >> 3
            up, down = y0 & 7, 0
        else:
            first_page = 0
            up, down = 0, -y0  # rows above the top edge are shifted out
        rows = self._rows_mask >> (first_page << 3)  # rows below the bottom edge are masked off
        for code in data:
            if x0 >= w or x0 + 8 <= 0:
                x0 += 8
                continue
            for column in font[code]:
                if column and 0 <= x0 < w:
                    bits = ((column << up) >> down) & rows
                    i = first_page * stride + x0
                    while bits:
                        b = bits & 0xFF
                        if b:
                            if c:
                                buf[i] |= b
                            else:
                                buf[i] &= ~b & 0xFF
                        bits >>= 8
                        i += stride
                x0 += 1

    def scroll(self, xstep, ystep, /):
        xstep = _int(xstep)
        ystep = _int(ystep)
        w = self._width
        h = self._height
        # Pixels move by (xstep, ystep); the uncovered strip keeps its old content, as on the board.
        if xstep >= w or -xstep >= w or ystep >= h or -ystep >= h:
            return
        xs = range(max(xstep, 0), w + min(xstep, 0))
        ys = range(max(ystep, 0), h + min(ystep, 0))
        if self._format == MONO_VLSB:
            self._scroll_vlsb(xstep, ystep, xs, ys)
            return
        getpixel = self._get
        setpixel = self._set
        moved = [[getpixel(px - xstep, py - ystep) for px in xs] for py in ys]
        for row, values in zip(ys, moved):
            for px, v in zip(xs, values):
                setpixel(px, row, v)

    def _scroll_vlsb(self, xstep, ystep, xs, ys):
        buf = self._buf
        stride = self._stride
        pages = range((self._height + 7) >> 3)
        region = ((1 << ys.stop) - 1) & ~((1 << ys.start) - 1)  # rows that receive pixels
        columns = [sum(buf[p * stride + px] << (p << 3) for p in pages) for px in range(self._width)]
        for px in xs:
            moved = columns[px - xstep]
            moved = moved << ystep if ystep >= 0 else moved >> -ystep
            value = (columns[px] & ~region) | (moved & region)
            for p in pages:
                buf[p * stride + px] = (value >> (p << 3)) & 0xFF

    def blit(self, fbuf, x, y, key=-1, palette=None, /):
        source = _readonly_framebuffer(fbuf)
        x = _int(x)
        y = _int(y)
        key = _int(key) & 0xFFFFFFFF  # compared as uint32 on the board: -1 never matches
        pal = None if palette is None else _readonly_framebuffer(palette)
        if x >= self._width or y >= self._height or -x >= source._width or -y >= source._height:
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(self._width, x + source._width)
        y0end = min(self._height, y + source._height)
        getpixel = source._get
        setpixel = self._set
        # Pixel by pixel in the board's order, so blitting a buffer onto itself matches too.
        if pal is None:
            for row in range(y0, y0end):
                sx = x1
                for px in range(x0, x0end):
                    col = getpixel(sx, y1)
                    if col != key:
                        setpixel(px, row, col)
                    sx += 1
                y1 += 1
        else:
            lookup = pal._get
            for row in range(y0, y0end):
                sx = x1
                for px in range(x0, x0end):
                    col = lookup(getpixel(sx, y1), 0)
                    if col != key:
                        setpixel(px, row, col)
                    sx += 1
                y1 += 1


def _readonly_framebuffer(obj):
    """A FrameBuffer, or a (buffer, width, height, format[, stride]) tuple/list viewed as one."""
    if isinstance(obj, FrameBuffer):
        return obj
    if not isinstance(obj, (tuple, list)):
        raise TypeError("object '%s' isn't a tuple or list" % type(obj).__name__)
    if len(obj) < 4 or len(obj) > 5:
        raise ValueError()
    view = FrameBuffer.__new__(FrameBuffer)
    view._setup(obj[0], obj[1], obj[2], obj[3], obj[4] if len(obj) == 5 else _MISSING, False)
    return view


def FrameBuffer1(buffer, width, height, stride=_MISSING, /):
    """The legacy MONO_VLSB-only constructor."""
    return FrameBuffer(buffer, width, height, MONO_VLSB, width if stride is _MISSING else stride)
