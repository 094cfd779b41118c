"""Display: partial refresh over the SSD1306's column/page window, brightness,
invert, sleep/wake, and running headless when no panel answers."""
import random

import pytest

import firmware.boards.ml4m as ml4m
from firmware.hal import Hal
from firmware.hal.display import Display

FULL_FRAME_BYTES = 1024


@pytest.fixture
def hal(board, store_dir):
    return Hal(ml4m, str(store_dir))


def panel_matches(board, display):
    rows = board.panel.pixels()
    fb = display.fb
    return all(bool(rows[y][x]) == bool(fb.pixel(x, y))
               for y in range(display.height) for x in range(display.width))


def flush_cost(board, display):
    board.bus.reset()
    sent = display.flush()
    return sent, board.bus.bytes, board.bus.transactions


def test_init_clears_the_panel_and_the_hal_frame_is_128x64(board, hal):
    d = hal.display
    assert d.present and d.error is None
    assert (d.width, d.height) == (128, 64)
    assert board.panel.on
    assert panel_matches(board, d)


def test_unchanged_frame_sends_nothing(board, hal):
    d = hal.display
    d.fb.text("hello", 0, 0, 1)
    d.flush()
    assert flush_cost(board, d) == (0, 0, 0)
    d.fb.pixel(5, 5, d.fb.pixel(5, 5))     # drawn, but the same value: still nothing
    assert flush_cost(board, d) == (0, 0, 0)


def test_full_screen_change(board, hal):
    d = hal.display
    d.fb.fill(1)
    sent, nbytes, transactions = flush_cost(board, d)
    assert sent == FULL_FRAME_BYTES
    # one window command + one data transaction: 8 + 1026 bytes
    assert transactions == 2 and nbytes == FULL_FRAME_BYTES + 10
    assert panel_matches(board, d)


def test_one_tile_change_is_a_small_window(board, hal):
    d = hal.display
    d.fb.fill_rect(32, 16, 16, 16, 1)     # page-aligned 16x16: pages 2-3, columns 32-47
    sent, nbytes, transactions = flush_cost(board, d)
    assert sent == 32
    assert transactions == 2 and nbytes == 42
    assert nbytes <= FULL_FRAME_BYTES // 10
    assert (board.panel.col_start, board.panel.col_end) == (32, 47)
    assert (board.panel.page_start, board.panel.page_end) == (2, 3)
    assert panel_matches(board, d)


def test_unaligned_tile_and_status_line(board, hal):
    d = hal.display
    d.fb.fill_rect(37, 21, 16, 16, 1)     # rows 21..36: pages 2, 3 and 4
    sent, nbytes, _ = flush_cost(board, d)
    assert sent == 3 * 16 and nbytes <= 103
    d.fb.text("Moves: 12", 0, 56, 1)
    d.flush()
    d.fb.fill_rect(0, 56, 128, 8, 0)
    d.fb.text("Moves: 13", 0, 56, 1)      # only the last digit differs
    sent, nbytes, _ = flush_cost(board, d)
    assert 0 < sent <= 8 and nbytes <= 20
    assert board.panel.page_start == board.panel.page_end == 7
    assert panel_matches(board, d)


def test_changes_far_apart_get_separate_windows(board, hal):
    d = hal.display
    d.fb.pixel(0, 0, 1)        # page 0, column 0
    d.fb.pixel(127, 63, 1)     # page 7, column 127
    sent, nbytes, transactions = flush_cost(board, d)
    assert sent == 2 and transactions == 4
    assert panel_matches(board, d)


def test_neighbouring_pages_share_a_window_when_cheaper(board, hal):
    d = hal.display
    d.fb.vline(10, 0, 64, 1)               # one column, all 8 pages
    sent, _, transactions = flush_cost(board, d)
    assert sent == 8 and transactions == 2
    d.fb.pixel(20, 0, 1)                   # page 0 col 20 ...
    d.fb.pixel(100, 8, 1)                  # ... and page 1 col 100: apart, not merged
    sent, _, transactions = flush_cost(board, d)
    assert sent == 2 and transactions == 4
    assert panel_matches(board, d)


def test_two_changes_on_one_page_are_two_runs(board, hal):
    d = hal.display
    d.fb.pixel(5, 3, 1)
    d.fb.pixel(100, 3, 1)                  # page 0: columns 5 and 100, 94 apart
    sent, nbytes, transactions = flush_cost(board, d)
    one_run = (100 - 5 + 1) + 10        # what one spanning window costs
    assert sent == 2 and transactions == 4
    # first window 10 bytes + 1; the second keeps the page: columns only (7 + 1)
    assert nbytes == 19 < one_run
    assert (board.panel.col_start, board.panel.col_end) == (100, 100)
    assert panel_matches(board, d)


def test_a_short_gap_stays_inside_one_run(board, hal):
    d = hal.display
    d.fb.pixel(5, 3, 1)
    d.fb.pixel(15, 3, 1)                   # 9 unchanged columns between: cheaper than a window
    sent, nbytes, transactions = flush_cost(board, d)
    assert sent == 11 and transactions == 2 and nbytes == 21
    assert panel_matches(board, d)


def test_two_puzzle_cells_apart_send_less_than_their_span(board, hal):
    d = hal.display
    # two 20x20 cells of a 3x3 grid (21-pixel pitch), not page-aligned, with
    # the cell between them unchanged: pages 2..5, columns 1..20 and 43..62
    d.fb.fill_rect(1, 22, 20, 20, 1)
    d.fb.fill_rect(43, 22, 20, 20, 1)
    sent, nbytes, transactions = flush_cost(board, d)
    span = (62 - 1 + 1) * 4 + 10
    assert sent == 2 * 20 * 4 and transactions == 4
    assert nbytes == 10 + 80 + 7 + 80 < span
    assert panel_matches(board, d)
    d.fb.fill_rect(43, 22, 20, 20, 0)      # and back: only the right cell
    sent, nbytes, _ = flush_cost(board, d)
    assert sent == 80 and nbytes == 90
    assert panel_matches(board, d)


def test_many_changes_on_one_page(board, hal):
    d = hal.display
    xs = (0, 20, 40, 60, 80, 100, 127)  # more runs than kept: the last run grows
    for x in xs:
        d.fb.pixel(x, 60, 1)
    sent, nbytes, _ = flush_cost(board, d)
    assert nbytes < 128 + 10
    assert panel_matches(board, d)
    for x in xs:
        d.fb.pixel(x, 60, 0)
        d.fb.pixel(x, 1, 1)                # two pages at once, same columns
    flush_cost(board, d)
    assert panel_matches(board, d)


def test_random_sparse_changes_always_reach_the_panel(board, hal):
    d = hal.display
    rng = random.Random(11)
    for _ in range(120):
        for _ in range(rng.randint(1, 10)):
            x, y = rng.randint(0, 127), rng.randint(0, 63)
            if rng.randint(0, 2):
                d.fb.pixel(x, y, rng.randint(0, 1))
            else:
                d.fb.fill_rect(x, y, rng.randint(1, 22), rng.randint(1, 22), rng.randint(0, 1))
        d.flush()
        assert panel_matches(board, d)
        assert flush_cost(board, d) == (0, 0, 0)


def test_random_drawing_always_reaches_the_panel(board, hal):
    d = hal.display
    rng = random.Random(7)
    for _ in range(150):
        for _ in range(rng.randint(1, 4)):
            kind = rng.randint(0, 3)
            x, y = rng.randint(-8, 130), rng.randint(-8, 66)
            c = rng.randint(0, 1)
            if kind == 0:
                d.fb.pixel(x, y, c)
            elif kind == 1:
                d.fb.fill_rect(x, y, rng.randint(1, 40), rng.randint(1, 20), c)
            elif kind == 2:
                d.fb.text("%d" % rng.randint(0, 999), x, y, c)
            else:
                d.fb.line(x, y, rng.randint(0, 127), rng.randint(0, 63), c)
        d.flush()
        assert panel_matches(board, d)


def test_invalidate_resends_everything(board, hal):
    d = hal.display
    d.fb.text("x", 0, 0, 1)
    d.flush()
    d.invalidate()
    sent, _, _ = flush_cost(board, d)
    assert sent == FULL_FRAME_BYTES
    assert flush_cost(board, d) == (0, 0, 0)


def test_brightness_levels_and_invert(board, hal):
    d = hal.display
    values = []
    for level in range(5):
        d.brightness(level)
        values.append(board.panel.contrast)
    assert values == list(ml4m.DISPLAY_CONTRAST)
    assert values == sorted(values) and len(set(values)) == 5
    d.brightness(9)
    assert d.level == 4 and board.panel.contrast == 0xFF
    d.brightness(-1)
    assert d.level == 0
    d.invert(True)
    assert board.panel.inverted and d.inverted
    d.invert(False)
    assert not board.panel.inverted


def test_sleep_keeps_changes_until_wake(board, hal):
    d = hal.display
    d.sleep()
    assert not board.panel.on and d.asleep
    d.fb.fill_rect(0, 0, 16, 16, 1)
    assert flush_cost(board, d) == (0, 0, 0)      # nothing goes out while asleep
    d.wake()
    assert board.panel.on and not d.asleep
    assert panel_matches(board, d)                 # wake() sent what changed


def test_no_display_on_the_bus_runs_headless(board, store_dir):
    board.display_present = False
    hal = Hal(ml4m, str(store_dir))
    d = hal.display
    assert d.present is False and d.error
    d.fb.fill(0)
    d.fb.text("still drawing", 0, 0, 1)
    assert d.fb.pixel(1, 1) is not None
    board.bus.reset()
    assert d.flush() == 0 and board.bus.bytes == 0
    d.brightness(2)
    d.invert(True)
    d.sleep()
    d.wake()
    assert board.bus.bytes == 0
    # the fault is heard: a pattern on the speaker while frames go on
    for _ in range(60):
        hal.clock.wait_frame()
        hal.update()
    assert len([f for _t, f, duty in board.pwm_log if f and duty]) >= 3
    assert not hal.sound.busy()


def test_panel_lost_while_running_and_found_again(board, hal):
    d = hal.display
    d.fb.text("A", 0, 0, 1)
    d.flush()
    board.display_present = False
    d.fb.fill_rect(0, 0, 8, 8, 1)
    d.flush()                       # no exception: the game goes on
    assert not d.present and d.error
    d.brightness(1)                 # commands are skipped quietly too
    board.display_present = True
    assert d.probe()
    assert panel_matches(board, d)
    assert board.panel.contrast == ml4m.DISPLAY_CONTRAST[1]


def test_the_driver_module_is_released_once_the_panel_is_up(board, hal):
    # lib/ssd1306.py only brings the panel up; its code would hold ~3 KB of
    # the board's heap for nothing, so it leaves sys.modules again, also
    # after a panel found again by probe()
    import sys
    d = hal.display
    assert "ssd1306" not in sys.modules
    d.invert(True)
    d.brightness(0)
    board.display_present = False
    d.flush()
    d.fb.fill_rect(0, 0, 8, 8, 1)
    d.flush()
    assert not d.present
    board.display_present = True
    assert d.probe()
    assert "ssd1306" not in sys.modules
    # the panel found again has the settings back, and the picture
    assert board.panel.inverted and board.panel.contrast == ml4m.DISPLAY_CONTRAST[0]
    d.invert(False)
    assert panel_matches(board, d)      # (the picture compared as drawn)


def test_display_with_an_i2c_object_passed_in(board):
    from machine import I2C, Pin
    i2c = I2C(0, scl=Pin(22), sda=Pin(21), freq=400_000)
    d = Display(ml4m, i2c)
    d.fb.fill_rect(0, 0, 16, 16, 1)
    assert d.flush() == 32
    assert panel_matches(board, d)


def test_one_way_to_draw_the_fb_over_the_displays_buffer(board, hal):
    import framebuf
    d = hal.display
    assert type(d.fb) is framebuf.FrameBuffer
    assert not isinstance(d, framebuf.FrameBuffer)     # no second set of helpers
    d.fb.fill_rect(3, 9, 5, 4, 1)
    d.fb.text("7", 40, 30, 1)
    assert d.fb.pixel(3, 9) == 1 and d.fb.pixel(7, 12) == 1 and d.fb.pixel(8, 12) == 0
    assert d.buffer[1 * 128 + 3] & 0x02                 # page 1, column 3, row 9
    d.flush()
    assert panel_matches(board, d)


def test_windows_of_every_page_count(board, hal):
    d = hal.display
    for n in range(1, 9):               # n pages tall, columns 10..29: one window each
        d.fb.fill(0)
        d.flush()
        d.fb.fill_rect(10, 0, 20, 8 * n, 1)
        sent, nbytes, transactions = flush_cost(board, d)
        assert sent == 20 * n and transactions == 2 and nbytes == 10 + 20 * n
        assert panel_matches(board, d)


# ---- the panel link ------------------------------------------------------------------
class RecordingLink:
    """A panel link of a made-up panel: keeps what the display asks of it."""
    WINDOW_COST = 10

    def __init__(self, board, i2c=None):
        self.width = board.DISPLAY_WIDTH
        self.calls = []
        self.shown = bytearray(board.DISPLAY_WIDTH * board.DISPLAY_HEIGHT // 8)

    def open(self, warm=False):
        self.calls.append("open")
        return bytearray(len(self.shown))

    def begin_frame(self):
        self.calls.append("frame")

    def send_window(self, rows, p0, p1, c0, c1):
        self.calls.append(("window", p0, p1, c0, c1))
        for p in range(p0, p1 + 1):
            self.shown[p * self.width + c0:p * self.width + c1 + 1] = rows[p][c0:c1 + 1]

    def contrast(self, value):
        self.calls.append(("contrast", value))

    def invert(self, on):
        self.calls.append(("invert", on))

    def power(self, on):
        self.calls.append(("power", on))


def test_the_board_file_names_the_panel_link(monkeypatch):
    import sys
    import types
    module = types.ModuleType("firmware.hal.recording_link")
    module.Link = RecordingLink                                  # type: ignore[attr-defined]
    module.WINDOW_COST = RecordingLink.WINDOW_COST               # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "firmware.hal.recording_link", module)
    board = types.SimpleNamespace(**{k: getattr(ml4m, k) for k in dir(ml4m) if k.isupper()})
    board.DISPLAY_LINK = "recording_link"
    d = Display(board)
    link = d.link
    assert isinstance(link, RecordingLink) and d.present and link.calls == ["open"]
    d.fb.fill_rect(16, 8, 16, 16, 1)                     # pages 1-2, columns 16-31
    assert d.flush() == 32
    assert link.calls[1:] == ["frame", ("window", 1, 2, 16, 31)]
    assert link.shown == d.buffer                        # the link got the whole change
    d.brightness(0)
    d.invert(True)
    d.sleep()
    assert d.flush() == 0                                # asleep: nothing sent
    d.wake()
    assert link.calls[3:] == [("contrast", ml4m.DISPLAY_CONTRAST[0]), ("invert", True),
                              ("power", False), ("power", True)]


def test_every_board_file_names_a_panel_link_that_exists():
    import importlib
    import os
    from firmware.boards import load_board
    boards = os.path.dirname(ml4m.__file__)            # firmware/boards/
    names = [f[:-3] for f in os.listdir(boards) if f.endswith(".py") and f != "__init__.py"]
    assert names
    for name in [None] + names:
        board = load_board(name)
        link = importlib.import_module("firmware.hal." + board.DISPLAY_LINK)
        assert link.Link and link.WINDOW_COST > 0
