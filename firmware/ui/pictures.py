"""Pictures for the picture puzzle: three built-in ones, drawn here with
framebuf primitives (our own art), and PBM (P4, binary) files the player
copies to the board.

render(fb, index, s): draw built-in picture `index` into an s x s area at 0,0.
names(folder, limit): the built-ins' names, then up to `limit` PBM files.
show(names, i, step, fb, s, folder, skipped): picture i (a bad file is
dropped from names and the next one in the step's direction is tried).
load_pbm(path, fb, s): a PBM picture cropped to its centre square and scaled
to s x s (nearest pixel); raises ValueError/OSError on a bad file.
A lit pixel is "ink": a PBM's black (1) bits light up on the OLED.
"""
import os

from micropython import const

NAMES = ("house", "boat", "cat")
MAX_SIDE = const(2048)    # a PBM wider or taller than this is refused


class _Pen:
    """Draws with coordinates on a 64 x 64 grid, scaled to s x s."""

    def __init__(self, fb, s):
        self.fb = fb
        self.s = s

    def v(self, a):
        return a * self.s // 64

    def rect(self, x, y, w, h, c=1, fill=True):
        v = self.v
        x0, y0 = v(x), v(y)
        w = max(1, v(x + w) - x0)
        h = max(1, v(y + h) - y0)
        if fill:
            self.fb.fill_rect(x0, y0, w, h, c)
        else:
            self.fb.rect(x0, y0, w, h, c)

    def line(self, x0, y0, x1, y1, c=1):
        v = self.v
        self.fb.line(v(x0), v(y0), v(x1), v(y1), c)

    def oval(self, x, y, rx, ry, c=1, fill=True):
        v = self.v
        self.fb.ellipse(v(x), v(y), max(1, v(rx)), max(1, v(ry)), c, fill)

    def poly(self, points, c=1, fill=True):
        v = self.v
        coords = bytearray(len(points))
        for i in range(len(points)):
            coords[i] = v(points[i])
        self.fb.poly(0, 0, coords, c, fill)

    def speckle(self, seed, count, y0, y1):
        """Stars (dots) at fixed pseudo-random places in rows y0..y1, only
        where the picture is dark: every tile gets something of its own."""
        fb = self.fb
        s = self.s
        lo = self.v(y0)
        span = max(1, self.v(y1) - lo)
        x = seed
        for _ in range(count):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            px = (x >> 8) % s
            py = lo + (x >> 20) % span
            if not fb.pixel(px, py):
                fb.pixel(px, py, 1)
                if x & 0x30 == 0:      # a few bigger stars
                    fb.pixel(px + 1, py, 1)
                    fb.pixel(px, py + 1, 1)


def _house(p):
    p.oval(14, 12, 8, 8)                      # a crescent moon
    p.oval(18, 9, 7, 7, 0)
    p.oval(46, 14, 9, 3)                      # a cloud
    p.oval(52, 11, 6, 4)
    p.poly((30, 30, 45, 17, 60, 30))          # roof
    p.rect(52, 18, 4, 8)                      # chimney
    p.rect(32, 30, 26, 21, 1, False)          # walls
    p.rect(35, 34, 7, 6)                      # a lit window
    p.line(38, 34, 38, 40, 0)
    p.line(35, 37, 42, 37, 0)
    p.rect(47, 38, 7, 13, 1, False)           # door
    p.rect(52, 44, 1, 1)
    p.rect(13, 36, 3, 15)                     # tree trunk
    p.oval(14, 29, 9, 10)                     # crown
    p.oval(11, 27, 2, 2, 0)
    p.oval(18, 32, 2, 2, 0)
    p.line(0, 51, 63, 51)                     # ground
    for x in range(0, 30, 4):                 # fence
        p.rect(x, 45, 1, 6)
    p.line(0, 47, 28, 47)
    p.poly((47, 51, 54, 51, 62, 63, 36, 63), 1, False)   # path
    for i in range(7):                         # flowers and grass tufts
        x = 3 + i * 5
        y = 54 + (i * 3) % 8
        p.rect(x, y, 1, 2)
        p.line(x - 1, y + 3, x, y + 2)
    p.speckle(7, 60, 0, 50)


def _boat(p):
    p.oval(52, 11, 7, 7, 1, False)            # sun with rays
    p.oval(52, 11, 4, 4)
    for dx, dy in ((0, -11), (11, 0), (-11, 0), (8, 8), (-8, 8), (8, -8), (-8, -8)):
        p.line(52 + dx * 8 // 11, 11 + dy * 8 // 11, 52 + dx, 11 + dy)
    p.oval(14, 8, 8, 3)                       # cloud
    p.oval(20, 6, 5, 3)
    p.line(30, 3, 32, 5)                      # gulls
    p.line(32, 5, 34, 3)
    p.line(37, 13, 39, 15)
    p.line(39, 15, 41, 13)
    p.line(27, 12, 27, 46)                    # mast
    p.poly((27, 13, 27, 43, 8, 43))           # big sail
    p.poly((29, 17, 29, 41, 44, 41), 1, False)   # jib
    p.poly((6, 46, 48, 46, 42, 53, 12, 53))   # hull
    p.rect(15, 48, 3, 2, 0)                   # portholes
    p.rect(24, 48, 3, 2, 0)
    p.rect(33, 48, 3, 2, 0)
    for row in range(4):                      # waves
        y = 52 + row * 3
        off = row * 3
        for x in range(-8, 64, 8):
            p.line(x + off, y + 2, x + off + 2, y)
            p.line(x + off + 2, y, x + off + 4, y + 2)
    p.oval(52, 58, 4, 2)                      # a fish
    p.poly((55, 58, 59, 55, 59, 61))
    p.speckle(11, 50, 0, 50)


def _cat(p):
    p.poly((8, 26, 12, 2, 26, 16))            # ears
    p.poly((56, 26, 52, 2, 38, 16))
    p.poly((12, 20, 14, 9, 21, 16), 0)
    p.poly((52, 20, 50, 9, 43, 16), 0)
    p.oval(32, 36, 26, 22, 1, False)          # head
    p.oval(32, 36, 25, 21, 1, False)
    for i in range(3):                        # forehead stripes
        p.line(26 + i * 6, 16, 28 + i * 4, 24)
    p.oval(21, 32, 6, 5)                      # eyes
    p.oval(43, 32, 6, 5)
    p.oval(22, 32, 1, 4, 0)
    p.oval(44, 32, 1, 4, 0)
    p.poly((29, 41, 35, 41, 32, 45))          # nose
    p.line(32, 45, 32, 48)                    # mouth
    p.line(32, 48, 27, 51)
    p.line(32, 48, 37, 51)
    for dy in (-2, 1, 4):                     # whiskers
        p.line(24, 44 + dy, 2, 41 + 2 * dy)
        p.line(40, 44 + dy, 62, 41 + 2 * dy)
    p.rect(26, 55, 12, 3)                     # collar tag
    p.oval(32, 60, 3, 3, 1, False)
    p.speckle(23, 40, 0, 64)


_DRAW = (_house, _boat, _cat)


def render(fb, index, s):
    """Built-in picture `index` drawn into the s x s square at the top left."""
    fb.fill_rect(0, 0, s, s, 0)
    _DRAW[index % len(_DRAW)](_Pen(fb, s))


def _token(f):
    """The next header field of a PBM (skipping white space and # comments)."""
    out = b""
    while True:
        c = f.read(1)
        if not c:
            raise ValueError("short header")
        if c == b"#":
            while c and c != b"\n":
                c = f.read(1)
            if out:
                return out
            continue
        if c in b" \t\r\n":
            if out:
                return out
            continue
        out += c
        if len(out) > 8:
            raise ValueError("bad header")


def load_pbm(path, fb, s):
    """Draw the PBM at path into the s x s square of fb (its centre square,
    scaled by nearest pixel). Raises ValueError or OSError on a bad file; fb
    may then hold part of a picture."""
    f = open(path, "rb")
    try:
        if _token(f) != b"P4":
            raise ValueError("not a P4 PBM")
        w = int(_token(f))
        h = int(_token(f))
        if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE):
            raise ValueError("bad size")
        start = f.tell()
        stride = (w + 7) >> 3
        side = w if w < h else h
        x0 = (w - side) >> 1
        y0 = (h - side) >> 1
        row = bytearray(stride)
        fb.fill_rect(0, 0, s, s, 0)
        last = -1
        for y in range(s):
            sy = y0 + y * side // s
            if sy != last:
                f.seek(start + sy * stride)
                if f.readinto(row) != stride:
                    raise ValueError("file too short")
                last = sy
            for x in range(s):
                sx = x0 + x * side // s
                if row[sx >> 3] & (0x80 >> (sx & 7)):
                    fb.pixel(x, y, 1)
    finally:
        f.close()


# The picture list and the skipping of bad files are here rather than in the
# puzzle screen's picture code: this module is let go after each use
# (README, "Why the code looks like this").
def names(folder, limit):
    """The built-in pictures' names, then the PBM files of `folder` (sorted,
    at most `limit`; none when there is no such folder)."""
    out = list(NAMES)
    try:
        files = [f for f in os.listdir(folder) if f.lower().endswith(".pbm")]
        files.sort()
        out.extend(files[:limit])
    except OSError:
        pass
    return out


def show(names, i, step, fb, s, folder, skipped):
    """Draw picture i of names (built-ins first) into fb (s x s); a file that
    cannot be read is dropped from names, skipped(name) is called, and the
    next one in the direction of step is tried (built-ins never fail).
    Returns the index of the picture drawn."""
    i %= len(names)
    while True:
        if i < len(NAMES):
            render(fb, i, s)
            return i
        try:
            load_pbm(folder + "/" + names[i], fb, s)
            return i
        except (OSError, ValueError, MemoryError):
            skipped(names[i])
            names.pop(i)
            if step < 0:
                i -= 1
            i %= len(names)
