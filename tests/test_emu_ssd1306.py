"""The SSD1306 model decodes the controller's I2C protocol byte for byte."""
import zlib
import struct

import pytest

from tools.emu.ssd1306_model import SSD1306

# The micropython-lib driver's init sequence for a 128x64 internal-VCC module.
STOCK_INIT = [0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12,
              0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF]


def fresh():
    return SSD1306(128, 64)


def commands(panel, *cmds):
    panel.i2c_write(bytes([0x00] + list(cmds)))


def data(panel, payload):
    panel.i2c_write(bytes([0x40]) + bytes(payload))


def upright():
    panel = fresh()
    commands(panel, *STOCK_INIT)
    return panel


def test_power_on_state_is_page_mode_display_off():
    panel = fresh()
    assert panel.mode == 2 and not panel.on and panel.contrast == 0x7F
    assert panel.pixels() == [[0] * 128 for _ in range(64)]


def test_control_0x00_is_a_command_stream():
    panel = fresh()
    commands(panel, 0x81, 0x33, 0xA7, 0xAF)
    assert panel.contrast == 0x33 and panel.inverted and panel.on
    assert panel.data_bytes == 0


def test_control_0x40_is_a_data_stream():
    panel = fresh()
    commands(panel, 0x20, 0x00)
    data(panel, [1, 2, 3, 0x81])   # 0x81 here is data, not the contrast command
    assert panel.gddram[0:4] == bytes([1, 2, 3, 0x81])
    assert panel.contrast == 0x7F


def test_control_0x80_is_one_command_then_another_control_byte():
    panel = fresh()
    # 0x80 AF, then 0x40 starts a data stream: AF is a command, A7 and 55 are data.
    panel.i2c_write(bytes([0x80, 0xAF, 0x40, 0xA7, 0x55]))
    assert panel.on and not panel.inverted
    assert panel.gddram[0:2] == bytes([0xA7, 0x55])


def test_control_0xc0_is_one_data_byte_then_another_control_byte():
    panel = fresh()
    panel.i2c_write(bytes([0xC0, 0xAA, 0x80, 0xA7, 0xC0, 0xBB]))
    assert panel.gddram[0:2] == bytes([0xAA, 0xBB])
    assert panel.inverted


def test_command_arguments_survive_across_transactions():
    # The stock driver sends each command byte in its own 0x80 transaction.
    panel = fresh()
    for byte in (0x21, 10, 20, 0x22, 2, 5):
        panel.i2c_write(bytes([0x80, byte]))
    assert (panel.col_start, panel.col_end, panel.page_start, panel.page_end) == (10, 20, 2, 5)
    assert (panel.col, panel.page) == (10, 2)


def test_horizontal_mode_wraps_in_the_window():
    panel = fresh()
    commands(panel, 0x20, 0x00, 0x21, 4, 6, 0x22, 1, 2)
    data(panel, range(1, 8))    # 3 columns x 2 pages = 6 bytes, the 7th wraps to (4, 1)
    assert panel.gddram[128 + 4:128 + 7] == bytes([7, 2, 3])
    assert panel.gddram[256 + 4:256 + 7] == bytes([4, 5, 6])
    assert (panel.col, panel.page) == (5, 1)


def test_vertical_mode_goes_down_the_pages_first():
    panel = fresh()
    commands(panel, 0x20, 0x01, 0x21, 100, 101, 0x22, 6, 7)
    data(panel, [1, 2, 3, 4, 5])
    assert panel.gddram[6 * 128 + 100] == 5   # wrapped back to the window's start
    assert panel.gddram[7 * 128 + 100] == 2
    assert panel.gddram[6 * 128 + 101] == 3
    assert panel.gddram[7 * 128 + 101] == 4


def test_page_mode_column_nibbles_and_page_start():
    panel = fresh()
    commands(panel, 0x20, 0x02, 0xB3, 0x05, 0x17)   # page 3, column 0x75 = 117
    data(panel, [9] * 12)                            # 117..127 then wraps to 0, same page
    assert panel.gddram[3 * 128 + 117: 3 * 128 + 128] == bytes([9] * 11)
    assert panel.gddram[3 * 128 + 0] == 9
    assert (panel.page, panel.col) == (3, 1)
    assert panel.gddram[4 * 128 + 0] == 0        # the next page is untouched


def test_page_mode_ignores_the_column_window():
    panel = fresh()
    commands(panel, 0x20, 0x02, 0x21, 0, 3, 0xB0, 0x00, 0x10)
    data(panel, [7] * 6)
    assert panel.gddram[0:6] == bytes([7] * 6)
    assert panel.col == 6


def test_invalid_addressing_mode_is_ignored():
    panel = fresh()
    commands(panel, 0x20, 0x00, 0x20, 0x03)
    assert panel.mode == 0


def test_stock_init_gives_an_upright_picture():
    panel = upright()
    commands(panel, 0x21, 0, 127, 0x22, 0, 7)
    data(panel, bytes(1024))
    commands(panel, 0x21, 0, 0, 0x22, 0, 0)
    data(panel, [0x01])       # RAM column 0, page 0, bit 0 -> top-left pixel
    commands(panel, 0x21, 127, 127, 0x22, 7, 7)
    data(panel, [0x80])       # RAM column 127, page 7, bit 7 -> bottom-right
    assert panel.pixel(0, 0) == 1 and panel.pixel(127, 63) == 1
    assert sum(map(sum, panel.pixels())) == 2


def test_segment_remap_and_com_direction_mirror_the_picture():
    panel = upright()
    commands(panel, 0x21, 0, 127, 0x22, 0, 7)
    data(panel, bytes(1024))
    commands(panel, 0x21, 0, 0, 0x22, 0, 0)
    data(panel, [0x01])
    commands(panel, 0xA0)     # columns mirrored
    assert panel.pixel(127, 0) == 1 and panel.pixel(0, 0) == 0
    commands(panel, 0xC0)     # and rows flipped
    assert panel.pixel(127, 63) == 1
    commands(panel, 0xA1, 0xC8, 0x41)   # upright again, start line 1: row 0 scrolls off
    assert panel.pixel(0, 63) == 1 and panel.pixel(0, 0) == 0


def test_sequential_com_pins_interleave_rows_on_this_panel():
    panel = upright()
    commands(panel, 0x21, 0, 127, 0x22, 0, 7)
    data(panel, bytes(1024))
    commands(panel, 0x21, 0, 0, 0x22, 0, 0)
    data(panel, [0x02])        # RAM row 1
    assert panel.pixel(0, 1) == 1
    commands(panel, 0xDA, 0x02)
    assert panel.pixel(0, 1) == 0


def test_invert_contrast_entire_on_and_off():
    panel = upright()
    data(panel, bytes(1024))
    assert sum(map(sum, panel.pixels())) == 0
    commands(panel, 0xA7)
    assert panel.inverted and sum(map(sum, panel.pixels())) == 128 * 64
    commands(panel, 0xA6, 0xA5)
    assert sum(map(sum, panel.pixels())) == 128 * 64
    commands(panel, 0xA4, 0x81, 0x10)
    assert panel.contrast == 0x10
    data(panel, [0xFF])
    commands(panel, 0xAE)
    assert not panel.on and sum(map(sum, panel.pixels())) == 0
    assert panel.i2c_read(1) == b"\x40"    # status: display off
    commands(panel, 0xAF)
    assert sum(map(sum, panel.pixels())) == 8


def test_without_charge_pump_nothing_lights():
    panel = fresh()
    commands(panel, 0xA5, 0xAF)
    assert sum(map(sum, panel.pixels())) == 0
    commands(panel, 0x8D, 0x14)
    assert sum(map(sum, panel.pixels())) == 128 * 64


def test_scroll_and_timing_commands_consume_their_arguments():
    panel = upright()
    commands(panel, 0x26, 0x00, 0x00, 0x00, 0x07, 0x00, 0xFF, 0x2F, 0x2E,
             0x29, 0, 0, 0, 7, 1, 0xA3, 0, 64, 0xD5, 0xF0, 0xAD, 0x30, 0xA7)
    assert panel.inverted
    assert panel.unknown_commands == []
    assert panel.settings[0xD5] == (0xF0,)


def test_unknown_command_is_recorded():
    panel = fresh()
    commands(panel, 0xFE)
    assert panel.unknown_commands == [0xFE]


def test_text_art_and_png():
    panel = upright()
    data(panel, bytes(1024))
    commands(panel, 0x21, 3, 3, 0x22, 0, 0)
    data(panel, [0x04])
    art = panel.text_art().splitlines()
    assert len(art) == 64 and len(art[0]) == 128
    assert art[2][3] == "#" and art[2].count("#") == 1
    png = panel.png(scale=2)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (256, 128)
    idat_len = struct.unpack(">I", png[33:37])[0]
    raw = zlib.decompress(png[41:41 + idat_len])
    stride = 1 + 256
    assert len(raw) == stride * 128
    lit_row = raw[4 * stride:5 * stride]          # viewer row 2 -> image rows 4, 5
    assert lit_row[1 + 6] == 255 and lit_row[1 + 7] == 255 and lit_row[1 + 5] == 0
    # with brightness: as bright as the contrast makes it
    commands(panel, 0x81, 0x10)
    assert panel.png(scale=2) == png                      # the default ignores it
    dim = panel.png(scale=2, brightness=True)
    raw = zlib.decompress(dim[41:41 + struct.unpack(">I", dim[33:37])[0]])
    assert 0 < raw[4 * stride + 1 + 6] < 255


def test_png_writes_a_file(tmp_path):
    panel = upright()
    path = tmp_path / "panel.png"
    panel.png(str(path), scale=1)
    assert path.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("mode", [0, 1])
def test_full_window_write_covers_every_byte_once(mode):
    panel = fresh()
    commands(panel, 0x20, mode, 0x21, 0, 127, 0x22, 0, 7)
    data(panel, bytes(i & 0xFF for i in range(1024)))
    seen = sorted(panel.gddram)
    assert seen == sorted(i & 0xFF for i in range(1024))
    assert (panel.col, panel.page) == (0, 0)
