"""Clock: milliseconds, elapsed time, and frame pacing that sleeps."""
import time

import pytest

from firmware.hal.clock import Clock


def run(clock, board, n, work_ms=0):
    starts = []
    for _ in range(n):
        starts.append(clock.wait_frame())
        if work_ms:
            board.advance(work_ms)
    return starts


def gaps(starts):
    return [time.ticks_diff(b, a) for a, b in zip(starts, starts[1:])]


def test_now(board):
    clock = Clock()
    t = clock.now()
    assert t == time.ticks_ms()
    board.advance(250)
    assert time.ticks_diff(clock.now(), t) == 250


def test_thirty_frames_a_second(board):
    clock = Clock(30)
    starts = run(clock, board, 91)
    assert time.ticks_diff(starts[-1], starts[0]) in range(2999, 3002)
    assert set(gaps(starts)) <= {33, 34}


def test_work_in_the_frame_does_not_change_the_rate(board):
    clock = Clock(30)
    starts = run(clock, board, 61, work_ms=12)
    assert time.ticks_diff(starts[-1], starts[0]) in range(1999, 2002)
    assert clock.late == 0


def test_an_overrun_frame_starts_the_schedule_again(board):
    clock = Clock(30)
    run(clock, board, 3)
    board.advance(200)                  # a frame that took 200 ms
    starts = run(clock, board, 4)
    assert clock.late == 1
    assert all(g >= 33 for g in gaps(starts))   # no burst of catch-up frames


def test_sixty_fps(board):
    clock = Clock(60)
    starts = run(clock, board, 61)
    assert time.ticks_diff(starts[-1], starts[0]) in range(999, 1002)


def test_pacing_sleeps_and_never_spins(board, monkeypatch):
    calls = {"sleep": 0, "reads": 0}
    real_sleep, real_ms, real_us = time.sleep_ms, time.ticks_ms, time.ticks_us

    def sleep_ms(ms):
        calls["sleep"] += 1
        real_sleep(ms)

    def ticks_ms():
        calls["reads"] += 1
        return real_ms()

    def ticks_us():
        calls["reads"] += 1
        return real_us()
    monkeypatch.setattr(time, "sleep_ms", sleep_ms)
    monkeypatch.setattr(time, "ticks_ms", ticks_ms)
    monkeypatch.setattr(time, "ticks_us", ticks_us)
    clock = Clock(30)
    run(clock, board, 30, work_ms=5)
    assert calls["sleep"] == 30                 # one sleep per frame
    assert calls["reads"] <= 3 * 30 + 1         # a few clock reads, no polling loop


@pytest.mark.parametrize("fps,phase_us", [(30, 0), (30, 12_345), (23, 7_001), (60, 777)])
def test_frames_keep_pace_across_the_tick_wrap(board, fps, phase_us):
    # the emulated ticks_us wraps (2**30) 2 s and ticks_ms 3 s after the
    # board starts; at 30 fps from the start the schedule lands exactly on
    # the wrap, which hides a clock that subtracts raw ticks: other phases
    # and rates put frames on both sides of it
    board.advance_ns(phase_us * 1000)
    clock = Clock(fps)
    starts = run(clock, board, 4 * fps)
    assert any(b < a for a, b in zip(starts, starts[1:]))   # it did wrap
    frame_ms = 1000 // fps
    assert set(gaps(starts)) <= {frame_ms, frame_ms + 1}
    assert clock.late == 0


def test_poll_hook_runs_at_each_look_while_waiting(board):
    # (a port without pin IRQs: the clock reads the buttons at every tick)
    seen = []
    clock = Clock(30, bytearray(1), lambda: seen.append(board.now_ms()))
    run(clock, board, 10)
    assert len(seen) >= 10 * 3                  # every 10 ms tick in each frame's wait
    assert all(b - a <= 10 for a, b in zip(seen, seen[1:]))


def test_a_watching_clock_sleeps_in_select_until_the_frame_timer(board, monkeypatch):
    # the emulated ESP32 (tools/emu): select.poll blocks a tick at a time and the
    # frame's Timer ends the wait; no sleep_ms at all, so no busy-wait tail
    slept = []
    monkeypatch.setattr(time, "sleep_ms", slept.append)
    clock = Clock(30, bytearray(1))
    assert clock.wake is not None
    idle0, wakes0 = board.idle_ns, board.wakes
    starts = run(clock, board, 91, work_ms=5)
    assert set(gaps(starts)) <= {33, 34} and clock.late == 0    # the same pacing
    assert slept == []
    # 3 s: 28 ms of each frame blocked, woken by the ticks inside it and the timer
    idle_ms = (board.idle_ns - idle0) / 1e6
    assert idle_ms >= 90 * 27
    assert board.wakes - wakes0 <= 90 * 5
    clock.wake[0] = 1                             # a press: no wait at all
    t = clock.wait_frame()
    assert t == time.ticks_ms()


def test_a_press_ends_the_wait_at_once_and_restarts_the_schedule(board):
    wake = bytearray(1)
    clock = Clock(30, wake)
    start = run(clock, board, 3, work_ms=5)[-1]
    board.after(11, lambda: wake.__setitem__(0, 1) or board.notify())   # as the IRQ does
    t = clock.wait_frame()
    assert time.ticks_diff(t, start) == 16
    wake[0] = 0                                   # (the controls lower it)
    starts = [t] + run(clock, board, 3)
    assert set(gaps(starts)) <= {33, 34}          # 30 fps again from the early frame


def test_a_clock_without_select_or_a_timer_waits_for_the_tick(board, monkeypatch):
    import firmware.hal.clock as clock_module
    monkeypatch.setattr(clock_module, "select", None)
    clock = Clock(30, bytearray(1))
    assert clock.wake is None
    starts = run(clock, board, 31, work_ms=5)
    assert set(gaps(starts)) <= {33, 34}
