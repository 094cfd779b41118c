"""The I2C stand-ins and the bus model: devices, errors, traffic and its time."""
import os
import time

import pytest

from machine import I2C, SoftI2C, Pin
from tools.emu import DEVKIT_PROTO, Board

HAVE_DRIVER = os.path.exists(os.path.join(os.path.dirname(__file__), "..", "lib", "ssd1306.py"))


def ml4m_i2c(freq=400_000):
    return I2C(0, scl=Pin(22), sda=Pin(21), freq=freq)


def test_scan_finds_the_display(board):
    assert ml4m_i2c().scan() == [0x3C]
    assert SoftI2C(scl=Pin(22), sda=Pin(21)).scan() == [0x3C]


def test_wrong_pins_find_nothing(board):
    i2c = I2C(0)                                  # defaults scl=18, sda=19
    assert i2c.scan() == []
    with pytest.raises(OSError) as err:
        i2c.writeto(0x3C, b"\x80\xaf")
    assert err.value.errno == 19


def test_missing_display_answers_enodev(board):
    board.display_present = False
    i2c = ml4m_i2c()
    assert i2c.scan() == []
    with pytest.raises(OSError) as err:
        i2c.writeto(0x3C, b"\x80\xaf")
    assert err.value.errno == 19
    with pytest.raises(OSError):
        i2c.writevto(0x3C, [b"\x40", bytes(16)])
    with pytest.raises(OSError):
        SoftI2C(scl=Pin(22), sda=Pin(21)).writeto(0x3C, b"\x80\xaf")
    assert not board.panel.on
    board.display_present = True
    i2c.writeto(0x3C, b"\x80\xaf")
    assert board.panel.on


def test_bus_counts_bytes_and_time(board):
    i2c = ml4m_i2c()
    board.bus.reset()
    t0 = board.now_ms()
    assert i2c.writeto(0x3C, b"\x80\xaf") == 2
    assert (board.bus.transactions, board.bus.bytes) == (1, 3)
    assert board.bus.time_us == pytest.approx((3 * 9 + 2) / 400_000 * 1e6)   # 72.5 us
    assert board.now_ms() - t0 == pytest.approx(0.0725, abs=1e-6)
    i2c.writevto(0x3C, [b"\x40", bytes(100)])
    assert (board.bus.transactions, board.bus.bytes) == (2, 3 + 102)
    board.bus.reset()
    assert (board.bus.transactions, board.bus.bytes, board.bus.time_us) == (0, 0, 0)


def test_slower_bus_takes_longer(board):
    fast, slow = ml4m_i2c(400_000), ml4m_i2c(100_000)
    board.bus.reset()
    fast.writevto(0x3C, [b"\x40", bytes(128)])
    t_fast = board.bus.time_us
    board.bus.reset()
    slow.writevto(0x3C, [b"\x40", bytes(128)])
    assert board.bus.time_us == pytest.approx(4 * t_fast)


def test_events_fire_during_a_transfer(board):
    i2c = ml4m_i2c(100_000)
    seen = []
    board.at(1, lambda: seen.append(board.now_ms()))
    i2c.writevto(0x3C, [b"\x40", bytes(1024)])   # ~92 ms at 100 kHz
    assert seen == [1]
    assert board.now_ms() > 90


def test_status_read_and_mem_helpers(board):
    i2c = ml4m_i2c()
    assert i2c.readfrom(0x3C, 1) == b"\x40"          # display off after reset
    i2c.writeto_mem(0x3C, 0x00, b"\xaf")             # control byte as "register"
    buf = bytearray(1)
    i2c.readfrom_into(0x3C, buf)
    assert buf == b"\x00"


def test_softi2c_primitives(board):
    i2c = SoftI2C(scl=Pin(22), sda=Pin(21))
    i2c.start()
    assert i2c.write(bytes([0x3C << 1, 0x80, 0xAF])) == 3
    i2c.stop()
    assert board.panel.on
    i2c.start()
    assert i2c.write(bytes([0x3D << 1])) == 0       # nobody at 0x3D
    i2c.stop()


def test_second_wiring_puts_the_display_elsewhere():
    board = Board(wiring=DEVKIT_PROTO)
    assert I2C(0).scan() == [0x3D]                   # scl=18, sda=19 are its defaults
    assert I2C(0, scl=Pin(22), sda=Pin(21)).scan() == []
    assert board.bus.devices[0x3D] is board.panel


@pytest.mark.skipif(not HAVE_DRIVER, reason="lib/ssd1306.py not fetched (make deps)")
def test_stock_driver_full_frame_cost_and_picture(board):
    import ssd1306
    display = ssd1306.SSD1306_I2C(128, 64, ml4m_i2c())
    panel = board.panel
    assert panel.on and panel.contrast == 0xFF and not panel.inverted
    assert sum(map(sum, panel.pixels())) == 0       # init clears the garbage GDDRAM
    display.fill(0)
    display.fill_rect(0, 0, 3, 2, 1)
    display.pixel(127, 63, 1)
    board.bus.reset()
    t0 = board.now_ms()
    display.show()
    # 6 one-command transactions (addr + 0x80 + cmd) and one of addr + 0x40 + 1024 data.
    assert board.bus.transactions == 7
    assert board.bus.bytes == 6 * 3 + 1026 == 1044
    assert board.bus.time_us == pytest.approx((1044 * 9 + 7 * 2) / 400_000 * 1e6)  # 23.5 ms
    assert board.now_ms() - t0 == pytest.approx(23.525, abs=0.01)
    art = panel.text_art().splitlines()
    assert art[0].startswith("###.") and art[1].startswith("###.") and art[2][0] == "."
    assert art[63].endswith(".#")
    assert sum(map(sum, panel.pixels())) == 7
    display.invert(1)
    assert panel.pixel(50, 30) == 1 and panel.pixel(0, 0) == 0
    display.contrast(10)
    assert panel.contrast == 10
    display.poweroff()
    assert sum(map(sum, panel.pixels())) == 0


@pytest.mark.skipif(not HAVE_DRIVER, reason="lib/ssd1306.py not fetched (make deps)")
def test_stock_driver_without_panel_raises_enodev(board):
    import ssd1306
    board.display_present = False
    with pytest.raises(OSError) as err:
        ssd1306.SSD1306_I2C(128, 64, ml4m_i2c())
    assert err.value.errno == 19


def test_a_frame_at_30_fps_leaves_time_for_the_game(board):
    # One full frame per 33 ms: the bus alone takes ~70 % of it at 400 kHz.
    i2c = ml4m_i2c()
    board.bus.reset()
    i2c.writevto(0x3C, [b"\x40", bytes(1024)])
    assert 22_000 < board.bus.time_us < 24_000
