"""firmware/ui/tinyfont.py is generated from the glyph sheet tools/tinyfont.txt."""
import framebuf
import pytest

from firmware.ui import tinyfont
from tools import gen_tinyfont


def test_the_shipped_font_is_what_the_sheet_generates():
    with open(gen_tinyfont.TARGET) as f:
        assert f.read() == gen_tinyfont.module_text(), "run tools/gen_tinyfont.py"


def test_a_glyph_is_drawn_as_the_sheet_shows_it():
    with open(gen_tinyfont.SHEET) as f:
        sheet = f.read().split("\n")
    for char, size, (w, h) in (("7", 1, (3, 5)), ("%", 1, (3, 5)), ("2", 2, (4, 7))):
        at = sheet.index("'%s'" % char, 0 if size == 1 else sheet.index("[size 2: 4 wide, 7 high]"))
        rows = sheet[at + 1:at + 1 + h]
        buf = bytearray(8 * 2)
        fb = framebuf.FrameBuffer(buf, 8, 16, framebuf.MONO_VLSB)
        tinyfont.text(fb, char, 0, 0, 1, size=size)
        drawn = ["".join("#" if fb.pixel(x, y) else "." for x in range(w)) for y in range(h)]
        assert drawn == rows, char


def test_the_sheet_tells_where_a_glyph_is_drawn_wrong():
    good = "[size 1]\n\n'a'\n###\n#.#\n###\n#.#\n#.#\n\n[size 2]\n\n"
    (chars, data), _ = gen_tinyfont.read_sheet(good)
    assert chars == "a" and bytes(data) == b"\x1f\x05\x1f"
    with pytest.raises(ValueError, match="line 6"):
        gen_tinyfont.read_sheet(good.replace("#.#\n###", "#.#\n#x#", 1))
    with pytest.raises(ValueError, match="3 wide and 5 high"):
        gen_tinyfont.read_sheet(good.replace("###\n#.#\n###", "###\n#.#", 1))
    with pytest.raises(ValueError, match="drawn twice"):
        gen_tinyfont.read_sheet(good.replace("[size 2]", "'a'\n###\n#.#\n###\n#.#\n#.#\n\n[size 2]"))


class _Pen:
    """A frame buffer that remembers the rectangles drawn."""

    def __init__(self):
        self.rects = []

    def fill_rect(self, *rect):
        self.rects.append(rect)


def test_a_character_outside_ascii_is_one_question_mark():
    # text() reads the string's bytes (a str's characters would each become
    # one of MicroPython's interned names): a character of two or three
    # bytes is still one "?"
    from firmware.ui import tinyfont
    for size in (1, 2):
        for odd in ("é", "€"):
            assert tinyfont.width("a" + odd + "b", size) == tinyfont.width("a?b", size)
            drawn, expected = _Pen(), _Pen()
            assert tinyfont.text(drawn, "a" + odd + "b", 0, 0, size=size) == \
                tinyfont.text(expected, "a?b", 0, 0, size=size)
            assert drawn.rects == expected.rects
