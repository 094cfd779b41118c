"""The one IRQ handler the six buttons share tells them apart by the pin it is
given: a tap shorter than a frame on any button latches that button only."""
import firmware.boards.ml4m as ml4m
from firmware.hal import Hal
from tests.test_hal_controls import count, frames


def test_each_button_short_tap_latches_that_button_only(board, store_dir):
    hal = Hal(ml4m, str(store_dir))
    assert hal.controls.irq
    for i, (name, _gpio) in enumerate(ml4m.BUTTONS):
        frames(hal, 2)
        board.after(10, lambda n=name: board.press(n))
        board.after(18, lambda n=name: board.release(n))
        snaps = frames(hal, 4)
        assert count(snaps, "just_pressed", i) == 1, name
        assert all(s["just_pressed"] <= {i} for s in snaps), name


# ---- a press starts the frame (firmware/hal/clock.py, wake) --------------------
import time  # noqa: E402

import pytest  # noqa: E402

from firmware.hal.controls import A, B  # noqa: E402


@pytest.fixture
def hal(board, store_dir):
    return Hal(ml4m, str(store_dir))


def gaps(snaps):
    return [time.ticks_diff(b["t"], a["t"]) for a, b in zip(snaps, snaps[1:])]


@pytest.mark.parametrize("after_ms", [1, 10, 20, 31])
def test_a_press_between_frames_starts_the_next_frame_at_once(board, hal, after_ms):
    start = frames(hal, 3)[-1]["t"]
    board.after(after_ms, lambda: board.press("A"))
    snaps = frames(hal, 6)
    first = time.ticks_diff(snaps[0]["t"], start)
    # the press's interrupt ends the clock's wait there, not at the 33 ms tick
    assert first == after_ms
    assert snaps[0]["just_pressed"] == {A}
    assert count(snaps, "just_pressed", A) == 1
    # the schedule starts again from that frame: 30 fps after it
    assert set(gaps(snaps)) <= {33, 34}


def test_a_press_during_a_frames_work_starts_the_next_frame_when_it_ends(board, hal):
    start = frames(hal, 3)[-1]["t"]
    board.press("B")
    board.advance(6)                 # the frame's work: the press came in it
    snaps = frames(hal, 2)
    assert time.ticks_diff(snaps[0]["t"], start) == 6      # no wait at all
    assert snaps[0]["just_pressed"] == {B}
    assert time.ticks_diff(snaps[1]["t"], snaps[0]["t"]) in (33, 34)


def test_no_press_no_early_frame(board, hal):
    snaps = frames(hal, 61)
    assert set(gaps(snaps)) <= {33, 34}
    board.after(10, lambda: board.press("A"))
    held = frames(hal, 3)
    board.after(10, lambda: board.release("A"))   # a release starts no frame
    snaps = held[-1:] + frames(hal, 4)
    assert set(gaps(snaps)) <= {33, 34}


@pytest.mark.parametrize("phase_ms", [2, 13, 29])
def test_a_bouncing_press_and_release_start_one_frame_and_one_press(board, hal, phase_ms):
    snaps = frames(hal, 3)[-1:]
    board.after(phase_ms, lambda: board.bounce("A", edges=9, ms=8))
    snaps += frames(hal, 15)
    board.after(phase_ms, lambda: board.bounce("A", edges=9, ms=8, release=True))
    snaps += frames(hal, 15)
    assert count(snaps, "just_pressed", A) == 1
    assert count(snaps, "just_released", A) == 1
    # one early frame, the press's: the bounces after its first edge wake nothing
    early = [g for g in gaps(snaps) if g < 33]
    assert len(early) == 1 and early[0] == phase_ms


def test_quick_taps_each_start_a_frame_and_count_once(board, hal):
    frames(hal, 2)
    for k in range(5):
        board.after(5 + 100 * k, lambda: board.press("A"))
        board.after(45 + 100 * k, lambda: board.release("A"))
    snaps = frames(hal, 20)
    assert count(snaps, "just_pressed", A) == 5
    assert count(snaps, "just_released", A) == 5
    # no more frames than the taps' early ones over 30 fps
    span = time.ticks_diff(snaps[-1]["t"], snaps[0]["t"])
    assert len(snaps) - 1 <= span * 30 // 1000 + 5


def test_auto_repeat_keeps_its_timing_after_an_early_frame(board, hal):
    frames(hal, 2)
    board.after(7, lambda: board.press("A"))
    snaps = frames(hal, 30)                 # about 1 s held
    times = [time.ticks_diff(s["t"], snaps[0]["t"]) for s in snaps if A in s["repeat"]]
    assert times[0] == 0 and 350 <= times[1] <= 350 + 34
    rate = (times[-1] - times[1]) / (len(times) - 2)
    assert 75 <= rate <= 85


def test_a_port_without_select_waits_for_the_tick(board, store_dir, monkeypatch):
    import firmware.hal.clock as clock_module
    monkeypatch.setattr(clock_module, "select", None)
    hal = Hal(ml4m, str(store_dir))
    assert hal.clock.wake is None
    start = frames(hal, 3)[-1]["t"]
    board.after(10, lambda: board.press("A"))
    snaps = frames(hal, 2)
    assert time.ticks_diff(snaps[0]["t"], start) in (33, 34)
    assert snaps[0]["just_pressed"] == {A}


# ---- what the early frame costs (tools/bench/bench_hal.py prints the figures) -----
WORK_MS = 5     # the bench's Python work a frame


def tap_and_measure(board, hal, taps):
    """Tap A taps times (80 ms each, 300-600 ms apart, seeded), a tile redrawn
    on each press: each tap's press-to-panel time, taps lost, taps acted on
    twice, and the CPU's busy ms and wakes a second (the emulated ESP32's
    waits: tools/emu/board.py)."""
    import random
    rng = random.Random(7)
    edges = []
    t = board.now_ms() + 300
    for _ in range(taps):
        t += rng.uniform(300, 600)
        edges.append(t)
        board.at(t, lambda: board.press("A"))
        board.at(t + 80, lambda: board.release("A"))
    end = edges[-1] + 700
    start, idle0, wakes0 = board.now_ms(), board.idle_ns, board.wakes
    acted = {}
    doubled = 0
    on = False
    while board.now_ms() < end:
        now = hal.clock.wait_frame()
        read = board.now_ms()
        hal.update(now)
        board.advance(WORK_MS)
        if hal.controls.just_pressed(A):
            on = not on
            hal.display.fb.fill_rect(48, 16, 16, 16, 1 if on else 0)
            hal.display.flush()
            tap = max(i for i, e in enumerate(edges) if e <= read + 1e-3)
            doubled += tap in acted
            acted.setdefault(tap, board.now_ms() - edges[tap])
    seconds = (board.now_ms() - start) / 1000
    busy = (board.now_ms() - start - (board.idle_ns - idle0) / 1e6) / seconds
    return sorted(acted.values()), taps - len(acted), doubled, busy, (board.wakes - wakes0) / seconds


def test_a_press_reaches_the_panel_within_10_ms_for_less_cpu_than_the_tick(board, hal):
    lat, lost, doubled, busy, wakes = tap_and_measure(board, hal, 40)
    assert lost == 0 and doubled == 0
    assert lat[len(lat) // 2] <= 10 and lat[int(0.9 * (len(lat) - 1))] <= 15
    # the stated figures: the frame's work (~155 ms a second, a few more frames
    # for the taps'), no busy-wait tail; ~120 wakes a second from the
    # select.poll's one-tick blocks and the frame Timer
    assert busy <= 175 and wakes <= 130


def test_the_tick_loop_before_cost_more_cpu(board, store_dir, monkeypatch):
    # the loop before the early frame: one sleep_ms a frame, busy for its
    # last tick (the ESP32's sleep_ms busy-waits what is left under 10 ms)
    import firmware.hal.clock as clock_module
    monkeypatch.setattr(clock_module, "select", None)
    hal = Hal(ml4m, str(store_dir))
    lat, lost, doubled, busy, _wakes = tap_and_measure(board, hal, 40)
    assert lost == 0 and doubled == 0
    assert lat[len(lat) // 2] > 15          # the press waits for the tick
    assert busy >= 250
