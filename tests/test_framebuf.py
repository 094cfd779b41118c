"""Unit tests of the framebuf stand-in (tools/emu/mp/framebuf.py) that need no Node.

The byte-for-byte comparison with MicroPython's own framebuf is tests/test_framebuf_parity.py;
these pin down the layout of each format, the API rules the board enforces, and that the fast
MONO_VLSB paths agree with plain pixel-by-pixel drawing.
"""
import os
from array import array

import pytest

import framebuf

W, H = 128, 64


def test_it_is_the_stand_in():
    path = framebuf.__file__.replace(os.sep, "/")
    assert path.endswith("tools/emu/mp/framebuf.py")


def test_format_constants_are_micropythons():
    assert (framebuf.MONO_VLSB, framebuf.MVLSB, framebuf.RGB565, framebuf.GS4_HMSB) == (0, 0, 1, 2)
    assert (framebuf.MONO_HLSB, framebuf.MONO_HMSB, framebuf.GS2_HMSB, framebuf.GS8) == (3, 4, 5, 6)


@pytest.fixture
def fake_font(monkeypatch):
    """A font whose glyph for byte b has column 0 = b and column 7 = 0x81: no Node needed."""
    glyphs = tuple((b, 0, 0, 0, 0, 0, 0, 0x81) for b in range(256))
    monkeypatch.setattr(framebuf, "_font", glyphs)
    return glyphs


# -- buffers --

def test_drawing_goes_into_the_callers_bytearray():
    buf = bytearray(W * H // 8)
    fb = framebuf.FrameBuffer(buf, W, H, framebuf.MONO_VLSB)
    fb.pixel(0, 0, 1)
    fb.pixel(3, 9, 1)  # page 1, bit 1
    assert buf[0] == 0x01 and buf[128 + 3] == 0x02
    fb.fill(1)
    assert buf == bytearray(b"\xff" * 1024)


def test_a_memoryview_slice_is_written_through():
    big = bytearray(32)
    fb = framebuf.FrameBuffer(memoryview(big)[8:16], 8, 8, framebuf.MONO_VLSB)
    fb.fill(1)
    fb.pixel(0, 0, 0)
    assert big == bytearray(8) + b"\xfe" + b"\xff" * 7 + bytearray(16)


def test_a_subclass_owning_its_buffer_works_like_the_ssd1306_driver():
    class Panel(framebuf.FrameBuffer):
        def __init__(self):
            self.width, self.height = 16, 8
            self.buffer = bytearray(16)
            super().__init__(self.buffer, self.width, self.height, framebuf.MONO_VLSB)

    panel = Panel()
    panel.fill(0)
    panel.fill_rect(2, 0, 3, 8, 1)
    assert panel.buffer == bytearray(2) + b"\xff\xff\xff" + bytearray(11)
    target = framebuf.FrameBuffer(bytearray(16), 16, 8, framebuf.MONO_VLSB)
    target.blit(panel, 1, 0)
    assert target.pixel(3, 4) == 1 and target.pixel(2, 4) == 0


@pytest.mark.parametrize("size, width, height, fmt, stride, ok", [
    (1024, 128, 64, framebuf.MONO_VLSB, 128, True),
    (1023, 128, 64, framebuf.MONO_VLSB, 128, False),
    (16, 8, 9, framebuf.MONO_VLSB, 8, True),       # 9 rows need 2 pages
    (15, 8, 9, framebuf.MONO_VLSB, 8, False),
    (4, 9, 2, framebuf.MONO_HLSB, 9, True),         # rows padded to 16 bits
    (3, 9, 2, framebuf.MONO_HLSB, 9, False),
    (20, 5, 2, framebuf.RGB565, 5, True),
    (19, 5, 2, framebuf.RGB565, 5, False),
    (64, 8, 8, framebuf.GS8, 7, False),             # stride below width
    (64, 0, 8, framebuf.GS8, 8, False),
    (64, 8, 8, 7, 8, False),                        # no such format
])
def test_constructor_checks_sizes_like_the_board(size, width, height, fmt, stride, ok):
    if ok:
        framebuf.FrameBuffer(bytearray(size), width, height, fmt, stride)
    else:
        with pytest.raises(ValueError):
            framebuf.FrameBuffer(bytearray(size), width, height, fmt, stride)


def test_read_only_buffers_are_refused_for_drawing_but_fine_as_blit_sources():
    with pytest.raises(TypeError):
        framebuf.FrameBuffer(b"\x00" * 8, 8, 8, framebuf.MONO_VLSB)
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    fb.blit((b"\x80" + bytes(7), 8, 8, framebuf.MONO_HLSB), 0, 0)
    assert fb.pixel(0, 0) == 1 and fb.pixel(1, 0) == 0


def test_keyword_arguments_are_refused_as_on_the_board():
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    with pytest.raises(TypeError):
        fb.rect(0, 0, 3, 3, 1, f=True)
    with pytest.raises(TypeError):
        fb.blit(fb, 0, 0, key=0)
    with pytest.raises(TypeError):
        fb.fill(1.0)


# -- pixel layout of each format --

@pytest.mark.parametrize("fmt, width, height, x, y, colour, expected", [
    (framebuf.MONO_VLSB, 8, 16, 2, 10, 1, {8 + 2: 0x04}),
    (framebuf.MONO_HLSB, 16, 2, 9, 1, 1, {3: 0x40}),
    (framebuf.MONO_HMSB, 16, 2, 9, 1, 1, {3: 0x02}),
    (framebuf.GS2_HMSB, 4, 2, 1, 1, 3, {1: 0x0C}),
    (framebuf.GS4_HMSB, 2, 1, 0, 0, 0xA, {0: 0xA0}),
    (framebuf.GS4_HMSB, 2, 1, 1, 0, 0xA, {0: 0x0A}),
    (framebuf.GS8, 3, 2, 2, 1, 0x1234, {5: 0x34}),
    (framebuf.RGB565, 2, 1, 1, 0, 0xF81F, {2: 0x1F, 3: 0xF8}),  # little-endian, like the ESP32
])
def test_pixel_layout(fmt, width, height, x, y, colour, expected):
    buf = bytearray(64)
    fb = framebuf.FrameBuffer(buf, width, height, fmt)
    fb.pixel(x, y, colour)
    assert {i: b for i, b in enumerate(buf) if b} == expected
    mask = {framebuf.GS2_HMSB: 3, framebuf.GS4_HMSB: 15, framebuf.GS8: 255, framebuf.RGB565: 0xFFFF}
    assert fb.pixel(x, y) == (colour & mask[fmt] if fmt in mask else 1)


def test_pixel_outside_reads_none_and_writes_nothing():
    buf = bytearray(8)
    fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
    for x, y in ((-1, 0), (8, 0), (0, -1), (0, 8)):
        assert fb.pixel(x, y) is None
        fb.pixel(x, y, 1)
    assert buf == bytearray(8)


# -- clipping --

def pixels(fb, width, height):
    return ["".join("#" if fb.pixel(x, y) else "." for x in range(width)) for y in range(height)]


def test_fill_rect_clips_at_every_edge():
    fb = framebuf.FrameBuffer(bytearray(6), 6, 4, framebuf.MONO_VLSB)
    fb.fill_rect(-2, -3, 4, 5, 1)
    fb.fill_rect(5, 3, 10, 10, 1)
    fb.fill_rect(2, 1, 0, 3, 1)   # zero width: nothing
    fb.fill_rect(3, 1, 2, -3, 1)  # negative height: nothing
    assert pixels(fb, 6, 4) == ["##....", "##....", "......", ".....#"]


def test_rect_outline_and_filled():
    fb = framebuf.FrameBuffer(bytearray(6), 6, 5, framebuf.MONO_VLSB)
    fb.rect(1, 1, 4, 3, 1)
    assert pixels(fb, 6, 5) == ["......", ".####.", ".#..#.", ".####.", "......"]
    fb.rect(1, 1, 4, 3, 1, True)
    assert pixels(fb, 6, 5)[2] == ".####."


def test_line_from_far_outside_draws_only_the_visible_part():
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    fb.line(-100, 3, 100, 3, 1)
    assert pixels(fb, 8, 8)[3] == "########"
    assert sum(row.count("#") for row in pixels(fb, 8, 8)) == 8


def test_line_pixels_follow_micropythons_bresenham():
    fb = framebuf.FrameBuffer(bytearray(8), 8, 4, framebuf.MONO_VLSB)
    fb.line(0, 0, 7, 3, 1)
    # What MicroPython 1.27 draws (checked on it); a textbook Bresenham differs.
    assert pixels(fb, 8, 4) == ["##......", "..##....", "....##..", "......##"]


# -- text (with a fake font: the real one is checked by the parity test) --

def test_text_draws_utf8_bytes_and_stops_at_nul(fake_font):
    fb = framebuf.FrameBuffer(bytearray(64 * 2), 64, 16, framebuf.MONO_VLSB)
    fb.text("A\u00e9\x00Z", 0, 0)
    # 'A' then the two UTF-8 bytes of 'é' (0xC3 0xA9); nothing after the NUL.
    assert [fb._buf[i] for i in (0, 8, 16, 24)] == [ord("A") | 0, 0xC3, 0xA9, 0]
    assert fb._buf[7] == 0x81 and fb._buf[23] == 0x81 and fb._buf[31] == 0


def test_text_clips_and_uses_the_colour(fake_font):
    buf = bytearray(16 * 2)
    fb = framebuf.FrameBuffer(buf, 16, 16, framebuf.MONO_VLSB)
    fb.fill(1)
    fb.text("\xff", -7, -3, 0)  # UTF-8 C3 BF; of C3 only column 7 (0x81) is on screen
    assert buf[0] == 0xFF ^ (0x81 >> 3)  # shifted up by 3: the top pixel is clipped
    assert buf[1] == 0xFF ^ (0xBF >> 3) and buf[8] == 0xFF ^ (0x81 >> 3)
    assert buf[2:8] == b"\xff" * 6 and buf[9:] == b"\xff" * 23


def test_missing_font_says_to_run_make_deps(monkeypatch, tmp_path):
    monkeypatch.setattr(framebuf, "_font", None)
    monkeypatch.setattr(framebuf, "_FONT_PATH", str(tmp_path / "font8x8.bin"))
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    with pytest.raises(RuntimeError, match="make deps"):
        fb.text("A", 0, 0)


# -- blit, scroll, shapes --

def test_blit_with_key_and_palette():
    src = framebuf.FrameBuffer(bytearray(1), 4, 1, framebuf.GS2_HMSB)
    for x, v in enumerate((0, 1, 2, 3)):
        src.pixel(x, 0, v)
    palette = framebuf.FrameBuffer(bytearray((10, 20, 30, 40)), 4, 1, framebuf.GS8)
    dest = bytearray(b"\x01" * 6)
    fb = framebuf.FrameBuffer(dest, 6, 1, framebuf.GS8)
    fb.blit(src, 1, 0, 30, palette)
    assert dest == bytearray((1, 10, 20, 1, 40, 1))
    fb.blit((bytes((7, 8)), 2, 1, framebuf.GS8), -1, 0)  # tuple source, clipped on the left
    assert dest[0] == 8


def test_blit_clips_and_ignores_fully_outside_sources():
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    icon = (b"\xff" * 8, 8, 8, framebuf.MONO_HLSB)
    for x, y in ((8, 0), (0, 8), (-8, 0), (0, -8)):
        fb.blit(icon, x, y)
    assert fb.pixel(0, 0) == 0
    fb.blit(icon, 6, -6)
    assert pixels(fb, 8, 8)[:3] == ["......##", "......##", "........"]


def test_scroll_moves_pixels_and_leaves_the_uncovered_strip():
    fb = framebuf.FrameBuffer(bytearray(4), 4, 3, framebuf.MONO_VLSB)
    fb.pixel(0, 0, 1)
    fb.pixel(3, 2, 1)
    fb.scroll(1, 1)  # (0,0) moves to (1,1) and stays at (0,0); (3,2) falls off
    assert pixels(fb, 4, 3) == ["#...", ".#..", "...."]
    fb.scroll(-4, 0)  # a whole width or more: nothing happens
    assert pixels(fb, 4, 3) == ["#...", ".#..", "...."]


def test_poly_wants_a_buffer_and_fills():
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    with pytest.raises(TypeError):
        fb.poly(0, 0, [0, 0, 4, 0, 0, 4], 1)
    fb.poly(1, 1, array("h", [0, 0, 4, 0, 0, 4]), 1, True)
    rows = pixels(fb, 8, 8)
    assert rows[1] == ".#####.." and rows[5] == ".#......"


def test_ellipse_quadrant_mask():
    fb = framebuf.FrameBuffer(bytearray(16 * 2), 16, 16, framebuf.MONO_VLSB)
    fb.ellipse(8, 8, 4, 4, 1, True, 0b0001)  # Q1 only: top right
    rows = pixels(fb, 16, 16)
    assert all(row[:8] == "........" for row in rows)
    assert all(row == "." * 16 for row in rows[9:])
    assert rows[8][8:13] == "#####"
    fb.fill(0)
    fb.ellipse(3, 3, 0, 0, 1)
    assert fb.pixel(3, 3) == 1


def test_legacy_framebuffer1_is_mono_vlsb():
    buf = bytearray(8)
    framebuf.FrameBuffer1(buf, 8, 8).pixel(0, 7, 1)
    assert buf[0] == 0x80


# -- the fast MONO_VLSB paths against pixel-by-pixel formats --

def _random_ops(seed, width, height):
    state = seed
    ops = []

    def rnd(n):
        nonlocal state
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        return (state >> 8) % n

    def c():
        return rnd(width + 20) - 10

    def r():
        return rnd(height + 20) - 10

    for _ in range(300):
        k = rnd(9)
        col = rnd(2)
        if k == 0:
            ops.append(("fill_rect", c(), r(), rnd(40) - 3, rnd(40) - 3, col))
        elif k == 1:
            ops.append(("hline", c(), r(), rnd(50), col))
        elif k == 2:
            ops.append(("vline", c(), r(), rnd(50), col))
        elif k == 3:
            ops.append(("rect", c(), r(), rnd(30), rnd(30), col, rnd(2) == 1))
        elif k == 4:
            ops.append(("text", "".join(chr(32 + rnd(96)) for _ in range(rnd(5))), c(), r(), col))
        elif k == 5:
            ops.append(("scroll", rnd(9) - 4, rnd(21) - 10))
        elif k == 6:
            ops.append(("ellipse", c(), r(), rnd(12), rnd(12), col, rnd(2) == 1))
        elif k == 7:
            ops.append(("line", c(), r(), c(), r(), col))
        else:
            ops.append(("fill", col) if rnd(6) == 0 else ("pixel", c(), r(), col))
    # Finally text across every edge (the glyph shift and clipping of the fast path).
    ops.append(("fill", 0))
    ops += [("text", "~@#", x, y, 1) for x in (-3, 0, width - 5) for y in (-5, 0, height - 8, height - 3, height - 1)]
    return ops


@pytest.mark.parametrize("width, height", [(128, 64), (13, 9), (21, 20)])
def test_fast_mono_vlsb_paths_match_pixel_by_pixel_formats(fake_font, width, height):
    def draw(fmt):
        fb = framebuf.FrameBuffer(bytearray(width * height * 2), width, height, fmt)
        for name, *args in _random_ops(width * 7919 + height, width, height):
            getattr(fb, name)(*args)
        return [[fb.pixel(x, y) for x in range(width)] for y in range(height)]

    vlsb = draw(framebuf.MONO_VLSB)
    assert vlsb == draw(framebuf.MONO_HMSB)
    assert vlsb == draw(framebuf.GS8)
    assert any(any(row) for row in vlsb) and not all(all(row) for row in vlsb)
