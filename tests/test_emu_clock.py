"""The virtual clock: MicroPython's ticks functions, wrap-around, events, run()."""
import time

import pytest

import machine
import micropython
from tools.emu import Board, StopEmulation

PERIOD = 1 << 30


def test_install_adds_micropython_time_functions(board):
    for name in ("ticks_ms", "ticks_us", "ticks_cpu", "ticks_diff", "ticks_add",
                 "sleep_ms", "sleep_us"):
        assert callable(getattr(time, name))


def test_install_is_idempotent():
    import sys
    import tools.emu
    tools.emu.install()
    before = list(sys.path)
    tools.emu.install()
    assert sys.path == before
    assert sys.path[0].endswith("mp") and time.ticks_ms is tools.emu.ticks_ms


def test_sleep_ms_advances_virtual_time_only(board):
    t0 = time.ticks_ms()
    real0 = time.perf_counter()
    time.sleep_ms(5000)
    assert time.ticks_diff(time.ticks_ms(), t0) == 5000
    assert board.now_ms() == 5000
    assert time.perf_counter() - real0 < 1.0


def test_sleep_us_and_ticks_us(board):
    t0 = time.ticks_us()
    time.sleep_us(1234)
    assert time.ticks_diff(time.ticks_us(), t0) == 1234
    time.sleep_ms(-5)                      # negative delays are ignored, like the port
    assert board.now_ms() == pytest.approx(1.234)


def test_ticks_ms_wraps_within_seconds_of_start(board):
    start = time.ticks_ms()
    assert PERIOD - 10_000 < start < PERIOD
    time.sleep_ms(10_000)
    later = time.ticks_ms()
    assert later < start                    # wrapped: raw comparison is wrong...
    assert time.ticks_diff(later, start) == 10_000   # ...ticks_diff is right
    assert 0 <= later < PERIOD


def test_ticks_us_and_cpu_stay_in_range_and_wrap(board):
    u0, c0 = time.ticks_us(), time.ticks_cpu()
    time.sleep_ms(3000)
    u1, c1 = time.ticks_us(), time.ticks_cpu()
    assert u1 < u0 and time.ticks_diff(u1, u0) == 3_000_000
    assert 0 <= c1 < PERIOD and c1 != c0


def test_ticks_diff_and_add_follow_the_port():
    assert time.ticks_diff(5, PERIOD - 5) == 10
    assert time.ticks_diff(PERIOD - 5, 5) == -10
    assert time.ticks_add(PERIOD - 1, 2) == 1
    assert time.ticks_add(0, -1) == PERIOD - 1
    with pytest.raises(OverflowError):
        time.ticks_add(0, PERIOD // 2)


def test_busy_wait_on_ticks_still_finishes(board):
    # Without a sleep the virtual clock would never move; it creeps after many reads.
    deadline = time.ticks_add(time.ticks_ms(), 3)
    while time.ticks_diff(deadline, time.ticks_ms()) > 0:
        pass
    assert board.now_ms() >= 3


def test_scheduled_events_fire_in_time_order(board):
    fired = []
    board.at(30, lambda: fired.append(("c", board.now_ms())))
    board.at(10, lambda: fired.append(("a", board.now_ms())))
    board.at(10, lambda: fired.append(("b", board.now_ms())))
    board.advance(9)
    assert fired == []
    time.sleep_ms(15)
    assert fired == [("a", 10), ("b", 10)]
    board.advance(100)
    assert fired[-1] == ("c", 30)
    assert board.now_ms() == 124


def test_event_can_press_a_button_during_a_sleep(board):
    pin = machine.Pin(32, machine.Pin.IN)
    board.at(50, lambda: board.press("A"))
    time.sleep_ms(49)
    assert pin.value() == 0
    time.sleep_ms(2)
    assert pin.value() == 1


def test_run_stops_an_endless_loop_at_the_time_limit(board):
    frames = []

    def main_loop():
        while True:
            try:
                frames.append(time.ticks_ms())
                time.sleep_ms(33)
            except Exception:        # the app's crash handler must not catch it
                frames.append("swallowed")

    result = board.run(main_loop, 1000)
    assert result is None
    assert "swallowed" not in frames
    assert len(frames) == 31         # at 0, 33, ... 990
    assert board.now_ms() == 1000
    assert issubclass(StopEmulation, BaseException)
    assert not issubclass(StopEmulation, Exception)
    assert Board.StopEmulation is StopEmulation


def test_run_returns_the_result_of_a_finishing_function(board):
    assert board.run(lambda: 42, 100) == 42
    board.advance(500)                 # the limit does not outlive run()


def test_machine_reset_ends_run(board):
    def main():
        time.sleep_ms(10)
        machine.reset()

    board.run(main, 1000)
    assert board.resets == 1 and board.now_ms() == 10


def test_timer_periodic_and_one_shot(board):
    ticks = []
    periodic = machine.Timer(0, mode=machine.Timer.PERIODIC, period=100,
                             callback=lambda t: ticks.append(board.now_ms()))
    once = []
    machine.Timer(1).init(mode=machine.Timer.ONE_SHOT, period=250,
                          callback=lambda t: once.append(board.now_ms()))
    board.advance(450)
    assert ticks == [100, 200, 300, 400]
    assert once == [250]
    periodic.deinit()
    board.advance(500)
    assert len(ticks) == 4


def test_micropython_schedule_runs_at_the_next_clock_touch(board):
    calls = []
    micropython.schedule(calls.append, 7)
    assert calls == []
    time.ticks_ms()
    assert calls == [7]
    with pytest.raises(RuntimeError):
        for i in range(9):
            micropython.schedule(calls.append, i)


def test_micropython_stand_ins():
    assert micropython.const(5) == 5

    @micropython.native
    def f(x):
        return x + 1

    @micropython.viper
    def g(x):
        return x * 2

    assert f(1) == 2 and g(3) == 6
    micropython.alloc_emergency_exception_buf(100)
    micropython.opt_level(2)
    assert micropython.opt_level() == 2
    micropython.opt_level(0)
    micropython.mem_info()


def test_machine_module_functions(board):
    assert machine.freq() == 160_000_000
    machine.freq(240_000_000)
    assert machine.freq() == 240_000_000
    with pytest.raises(ValueError):
        machine.freq(123)
    assert len(machine.unique_id()) == 6
    t = board.now_ms()
    machine.idle()
    assert board.now_ms() == t + 1


def test_a_new_board_is_current_and_starts_at_zero(board):
    time.sleep_ms(100)
    other = Board()
    assert other.now_ms() == 0
    time.sleep_ms(5)
    assert other.now_ms() == 5 and board.now_ms() == 100
