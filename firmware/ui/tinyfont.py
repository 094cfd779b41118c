"""A small font of our own for places the 8x8 font does not fit (puzzle tiles,
side panels, 2048 cells).

Two sizes:
  size=1  3x5 glyphs: digits, A-Z (lower case is drawn as upper case) and
          " :-./!?+,()<>%'=*_"
  size=2  4x7 glyphs: digits, " :-" (other characters use the 3x5 glyph,
          lowered by one row)
Glyphs advance by their width + 1 pixel; `scale` multiplies everything.

    from firmware.ui import tinyfont
    tinyfont.text(fb, "15", x, y, 1, size=2)      # returns the x after the text
    tinyfont.width("15", size=2)                  # pixels, without a trailing gap
    tinyfont.height(size=2)
    tinyfont.centred(fb, "15", x, y, w, h, 1, size=2)

Each glyph is stored as column bytes (bit 0 = top row), drawn as vertical
runs with fill_rect, so nothing is allocated per character.
"""

from micropython import const

_CHARS1 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ :-./!?+,()<>%'=*_"
_GLYPHS1 = (
    b"\x1f\x11\x1f\x12\x1f\x10\x1d\x15\x17\x11\x15\x1f\x07\x04\x1f\x17\x15\x1d\x1f\x15\x1d\x01\x19\x07"
    b"\x1f\x15\x1f\x17\x15\x1f\x1e\x05\x1e\x1f\x15\x0a\x0e\x11\x11\x1f\x11\x0e\x1f\x15\x11\x1f\x05\x01"
    b"\x0e\x11\x1d\x1f\x04\x1f\x11\x1f\x11\x08\x10\x0f\x1f\x04\x1b\x1f\x10\x10\x1f\x06\x1f\x1f\x01\x1e"
    b"\x0e\x11\x0e\x1f\x05\x02\x0e\x19\x16\x1f\x05\x1a\x12\x15\x09\x01\x1f\x01\x1f\x10\x1f\x0f\x10\x0f"
    b"\x1f\x0c\x1f\x1b\x04\x1b\x03\x1c\x03\x19\x15\x13\x00\x00\x00\x00\x0a\x00\x04\x04\x04\x00\x10\x00"
    b"\x18\x04\x03\x00\x17\x00\x01\x15\x02\x04\x0e\x04\x10\x08\x00\x0e\x11\x00\x00\x11\x0e\x04\x0a\x11"
    b"\x11\x0a\x04\x19\x04\x13\x00\x03\x00\x0a\x0a\x0a\x0a\x04\x0a\x10\x10\x10"
)
_CHARS2 = '0123456789 :-'
_GLYPHS2 = (
    b"\x3e\x41\x41\x3e\x00\x42\x7f\x40\x62\x51\x49\x46\x41\x49\x49\x36\x0f\x08\x08\x7f\x27\x45\x45\x39\x3e\x49\x49\x30\x01\x71\x0d\x03"
    b"\x36\x49\x49\x36\x06\x49\x49\x3e\x00\x00\x00\x00\x00\x14\x00\x00\x08\x08\x08\x08"
)

_W1 = const(3)    # glyph sizes as const(): no module globals for them
_H1 = const(5)
_W2 = const(4)
_H2 = const(7)

# character code (32..127) -> glyph number + 1 (0: none), for each size
_MAP1 = bytearray(96)
_MAP2 = bytearray(96)
for _i in range(len(_CHARS1)):
    _MAP1[ord(_CHARS1[_i]) - 32] = _i + 1
for _i in range(26):   # lower case letters share the upper case glyphs
    _MAP1[65 + _i] = _MAP1[33 + _i]
for _i in range(len(_CHARS2)):
    _MAP2[ord(_CHARS2[_i]) - 32] = _i + 1
del _i, _CHARS1, _CHARS2   # needed only to build the maps above


def height(size=1, scale=1):
    return (_H2 if size == 2 else _H1) * scale


def _advance(code, size):
    """Width of one character's glyph (no gap)."""
    if size == 2 and 32 <= code < 128 and _MAP2[code - 32]:
        return _W2
    return _W1


def width(s, size=1, scale=1):
    """Pixel width of s (no gap after the last character)."""
    n = 0
    for ch in s:
        n += _advance(ord(ch), size) + 1
    return (n - 1) * scale if n else 0


def _glyph(fb, data, start, cols, x, y, colour, scale):
    for col in range(cols):
        bits = data[start + col]
        row = 0
        while bits:
            if bits & 1:
                run = 1
                while bits >> run & 1:
                    run += 1
                fb.fill_rect(x + col * scale, y + row * scale, scale, run * scale, colour)
                bits >>= run
                row += run
            else:
                bits >>= 1
                row += 1


def text(fb, s, x, y, colour=1, size=1, scale=1):
    """Draw s with its top left at (x, y); returns the x after the text."""
    for ch in s:
        code = ord(ch) - 32
        if not 0 <= code < 96:
            code = 31          # "?" for anything outside ASCII
        g = _MAP2[code] if size == 2 else 0
        if g:
            _glyph(fb, _GLYPHS2, (g - 1) * _W2, _W2, x, y, colour, scale)
            x += (_W2 + 1) * scale
            continue
        g = _MAP1[code]
        if g:
            _glyph(fb, _GLYPHS1, (g - 1) * _W1, _W1, x,
                   y + (scale if size == 2 else 0), colour, scale)
        x += (_W1 + 1) * scale
    return x


def centred(fb, s, x, y, w, h, colour=1, size=1, scale=1):
    """Draw s centred in the box (x, y, w, h)."""
    return text(fb, s, x + (w - width(s, size, scale)) // 2,
                y + (h - height(size, scale)) // 2, colour, size, scale)
