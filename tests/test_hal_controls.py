"""Controls: debounced buttons that never lose a short press, a joystick with a
calibrated rest, dead zone and hysteresis, auto-repeat, and suspend-until-release."""
import time

import pytest

import firmware.boards.ml4m as ml4m
from firmware.hal import Hal
from firmware.hal.controls import (A, B, BUTTONS, C, DOWN, E, F, LEFT,
                                   RIGHT, UP, Controls)


@pytest.fixture
def hal(board, store_dir):
    return Hal(ml4m, str(store_dir))


def frames(hal, n):
    """Run n frames of an app loop; return a list of per-frame snapshots."""
    c = hal.controls
    out = []
    for _ in range(n):
        now = hal.clock.wait_frame()
        hal.update(now)
        out.append({
            "t": now,
            "pressed": {i for i in range(10) if c.pressed(i)},
            "just_pressed": {i for i in range(10) if c.just_pressed(i)},
            "just_released": {i for i in range(10) if c.just_released(i)},
            "repeat": {i for i in range(10) if c.repeat(i)},
            "dir": c.direction(),
            "activity": c.any_activity(),
        })
    return out


def count(snaps, key, which):
    return sum(1 for s in snaps if which in s[key])


def test_constants():
    assert (A, B, C, D_ := 3, E, F) == (0, 1, 2, 3, 4, 5)
    assert BUTTONS == (0, 1, 2, 3, 4, 5)
    assert (LEFT, RIGHT, UP, DOWN) == (6, 7, 8, 9)


def test_idle_board_reports_nothing(hal):
    snaps = frames(hal, 30)
    assert all(not s["pressed"] and not s["activity"] and s["dir"] is None for s in snaps)
    assert hal.controls.calibrated


def test_press_hold_release(board, hal):
    frames(hal, 2)
    board.press("C")
    snaps = frames(hal, 10)
    assert snaps[0]["just_pressed"] == {C}
    assert all(C in s["pressed"] for s in snaps)
    assert count(snaps, "just_pressed", C) == 1
    assert 250 <= hal.controls.held_ms(C) <= 340
    board.release("C")
    snaps = frames(hal, 3)
    assert snaps[0]["just_released"] == {C} and not snaps[0]["pressed"]
    assert hal.controls.held_ms(C) == 0


@pytest.mark.parametrize("phase_ms", [0, 5, 11, 19, 27, 32])
@pytest.mark.parametrize("edges,ms", [(5, 3), (9, 8), (15, 12)])
def test_a_bouncing_contact_gives_exactly_one_press(board, hal, phase_ms, edges, ms):
    frames(hal, 3)
    board.advance(phase_ms)
    board.bounce("A", edges=edges, ms=ms)
    snaps = frames(hal, 15)                # held about half a second
    board.bounce("A", edges=edges, ms=ms, release=True)
    snaps += frames(hal, 15)
    assert count(snaps, "just_pressed", A) == 1
    assert count(snaps, "just_released", A) == 1
    assert A not in snaps[-1]["pressed"]


def test_a_tap_shorter_than_a_frame_still_counts(board, hal):
    frames(hal, 2)
    # 8 ms press that starts and ends between two frames (30 fps = 33 ms)
    board.after(10, lambda: board.press("B"))
    board.after(18, lambda: board.release("B"))
    snaps = frames(hal, 4)
    assert count(snaps, "just_pressed", B) == 1
    assert count(snaps, "pressed", B) == 1          # one frame long
    assert count(snaps, "just_released", B) == 1


def test_a_bouncy_tap_between_frames_is_one_press(board, hal):
    frames(hal, 2)
    board.after(4, lambda: board.bounce("E", edges=7, ms=4))
    board.after(16, lambda: board.bounce("E", edges=5, ms=3, release=True))
    snaps = frames(hal, 6)
    assert count(snaps, "just_pressed", E) == 1
    assert count(snaps, "just_released", E) == 1


def test_two_quick_taps_on_different_frames_are_two_presses(board, hal):
    frames(hal, 2)
    board.after(5, lambda: board.press("A"))
    board.after(40, lambda: board.release("A"))
    board.after(120, lambda: board.press("A"))
    board.after(160, lambda: board.release("A"))
    snaps = frames(hal, 10)
    assert count(snaps, "just_pressed", A) == 2


def test_several_buttons_at_once(board, hal):
    board.press("A")
    board.press("C")
    snaps = frames(hal, 2)
    assert snaps[0]["just_pressed"] == {A, C} and snaps[1]["pressed"] == {A, C}


@pytest.mark.parametrize("name,button", [("E", E), ("F", F)])
def test_e_and_f_act_when_let_go(board, hal, name, button):
    # so that E+F (the mute chord) never also acts as E or F
    board.press(name)
    held = frames(hal, 5)
    assert all(button not in s["just_pressed"] for s in held)
    board.release(name)
    let_go = frames(hal, 3)
    assert [button in s["just_pressed"] for s in let_go] == [True, False, False]
    assert not hal.controls.chorded


def test_e_and_f_held_together_are_the_chord_and_neither_key(board, hal):
    CHORD_MS = 1000     # firmware/hal/controls.py: _CHORD_MS, a second of both
    c = hal.controls

    def run(n):
        seen = []
        for _ in range(n):
            now = hal.clock.wait_frame()
            hal.update(now)
            seen.append((now, c.chorded, [b for b in range(10) if c.just_pressed(b)]))
        return seen

    board.press("E")
    run(2)
    board.press("F")
    held = run(2 * CHORD_MS // 33)
    board.release("E")
    board.release("F")
    after = run(4)
    fired = [t for t, chorded, _ in held if chorded]
    assert len(fired) == 1                                   # once per hold
    assert CHORD_MS <= fired[0] - held[0][0] < CHORD_MS + 50  # after a second of both
    assert all(not keys for _, _, keys in held + after)      # never E, never F


def test_a_short_e_and_f_together_is_nothing(board, hal):
    board.press("E")
    board.press("F")
    frames(hal, 5)
    board.release("E")
    board.release("F")
    snaps = frames(hal, 4)
    assert all(not s["just_pressed"] for s in snaps) and not hal.controls.chorded


@pytest.mark.parametrize("where,expected", [("left", LEFT), ("right", RIGHT),
                                            ("up", UP), ("down", DOWN)])
def test_joystick_directions(board, hal, where, expected):
    frames(hal, 2)
    board.push(where)
    snaps = frames(hal, 5)
    assert snaps[0]["just_pressed"] == {expected}
    assert all(s["dir"] == expected for s in snaps)
    assert hal.controls.pressed(expected)
    board.center()
    snaps = frames(hal, 2)
    assert snaps[0]["just_released"] == {expected} and snaps[0]["dir"] is None


def test_x_is_inverted_on_the_ml4m(board, hal):
    # raw X high = LEFT (the article's 4095 - raw); raw Y low = UP
    board.joystick_raw(3900, 1850)
    assert frames(hal, 1)[0]["dir"] == LEFT
    board.joystick_raw(1850, 200)
    assert frames(hal, 2)[-1]["dir"] == UP
    dx, dy = hal.controls.stick()
    assert dy < -1000 and abs(dx) < 100


def test_diagonal_gives_one_direction(board, hal):
    board.joystick_raw(1850 - 1500, 1850 - 1000)   # mostly RIGHT, a bit UP
    snaps = frames(hal, 5)
    assert all(s["pressed"] == {RIGHT} for s in snaps)
    board.push("upleft")
    snaps = frames(hal, 3)
    assert len(snaps[-1]["pressed"]) == 1


def test_noisy_stick_at_rest_never_moves(board, store_dir):
    board.noise = 350                       # +-350 counts on every read
    hal = Hal(ml4m, str(store_dir))
    assert hal.controls.calibrated
    assert abs(hal.controls.center_x - 1850) < 150
    snaps = frames(hal, 600)                # 20 s
    assert all(s["dir"] is None and not s["pressed"] for s in snaps)


def test_noisy_push_is_one_move(board, hal):
    board.noise = 300
    frames(hal, 3)
    board.push("right")
    snaps = frames(hal, 60)
    assert count(snaps, "just_pressed", RIGHT) == 1
    assert all(s["dir"] == RIGHT for s in snaps)


def test_hysteresis_at_the_threshold(board, hal):
    # A stick resting right at the press threshold, wobbling across it, gives
    # one move and no chatter.
    board.noise = 120
    frames(hal, 3)
    board.joystick_raw(1850 - 820, 1850)
    snaps = frames(hal, 90)
    assert count(snaps, "just_pressed", RIGHT) == 1
    assert count(snaps, "just_released", RIGHT) == 0


def test_a_drifting_rest_never_makes_a_move(board, hal):
    # the pot's rest wanders 700 counts over a minute (temperature, wear)
    board.noise = 60
    snaps = []
    for step in range(60):
        board.joystick_raw(1850 + step * 12, 1850 - step * 10)
        snaps += frames(hal, 30)
    assert all(s["dir"] is None for s in snaps)
    assert hal.controls.center_x > 2300       # the rest was followed
    # and a real push still works from the new rest
    board.push("left")
    assert frames(hal, 2)[-1]["dir"] == LEFT


def test_stick_held_at_power_on_uses_the_nominal_rest(board, store_dir):
    board.push("left")
    hal = Hal(ml4m, str(store_dir))
    c = hal.controls
    assert not c.calibrated
    assert (c.center_x, c.center_y) == (ml4m.JOY_REST_X, ml4m.JOY_REST_Y)
    snaps = frames(hal, 20)
    assert all(s["dir"] is None and not s["pressed"] for s in snaps)   # not a move
    board.center()
    snaps = frames(hal, 5)
    assert all(s["dir"] is None and not s["just_released"] for s in snaps)
    board.push("left")
    assert frames(hal, 1)[0]["just_pressed"] == {LEFT}


def test_stick_slightly_off_at_power_on_is_measured(board, store_dir):
    board.joystick_raw(1850 + 250, 1850 - 200)    # a worn stick's rest
    hal = Hal(ml4m, str(store_dir))
    c = hal.controls
    assert c.calibrated
    assert abs(c.center_x - 2100) < 20 and abs(c.center_y - 1650) < 20
    assert all(s["dir"] is None for s in frames(hal, 30))
    assert c.calibrate()


def test_auto_repeat_timing(board, hal):
    frames(hal, 2)
    board.push("right")
    snaps = frames(hal, 45)                 # 1.5 s
    times = [s["t"] for s in snaps if RIGHT in s["repeat"]]
    t0 = snaps[0]["t"]
    assert times[0] == t0                   # the frame of the push
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert 350 <= gaps[0] <= 350 + 34       # the delay, to the next frame
    rate = (times[-1] - times[1]) / (len(times) - 2)
    assert 75 <= rate <= 85                 # the rate on average
    assert all(g >= 60 for g in gaps[1:])   # never a burst
    board.center()
    assert not any(s["repeat"] for s in frames(hal, 20))


def test_auto_repeat_works_for_buttons(board, hal):
    frames(hal, 2)
    board.press("A")
    snaps = frames(hal, 30)                 # 1 s
    times = [s["t"] - snaps[0]["t"] for s in snaps if A in s["repeat"]]
    assert times[0] == 0 and 350 <= times[1] <= 384
    assert len(times) in (9, 10)            # 0, ~350, then every 80 ms to ~1 s


def test_no_repeat_burst_after_a_long_frame(board, hal):
    frames(hal, 2)
    board.push("down")
    frames(hal, 20)
    board.advance(1000)                     # the loop stalled for a second
    snaps = frames(hal, 1)
    assert DOWN in snaps[0]["repeat"]
    assert DOWN not in frames(hal, 1)[0]["repeat"]


def test_any_activity(board, hal):
    assert not any(s["activity"] for s in frames(hal, 5))
    board.press("D")
    assert frames(hal, 1)[0]["activity"]
    board.release("D")
    assert frames(hal, 1)[0]["activity"]            # the release frame counts
    assert not any(s["activity"] for s in frames(hal, 5))
    board.push("up")
    assert frames(hal, 1)[0]["activity"]


def test_a_stuck_button_or_stick_is_not_activity(board, hal):
    board.press("A")
    board.push("left")
    assert frames(hal, 1)[0]["activity"]            # taken: a change
    assert not any(s["activity"] for s in frames(hal, 300))   # 10 s unchanged
    board.press("E")                                # any other change counts
    assert frames(hal, 1)[0]["activity"]
    board.center()
    assert frames(hal, 1)[0]["activity"]


def test_suspend_until_release(board, hal):
    c = hal.controls
    frames(hal, 2)
    board.press("A")
    board.push("left")
    snap = frames(hal, 1)[0]
    assert snap["activity"] and snap["just_pressed"] == {A, LEFT}
    c.suspend_until_release()                # e.g. this press woke the screen
    assert not c.pressed(A) and not c.just_pressed(A) and not c.repeat(LEFT)
    snaps = frames(hal, 30)
    assert all(not s["pressed"] and not s["repeat"] for s in snaps)
    # held unchanged is not activity (a stuck button must let the panel sleep)
    assert not any(s["activity"] for s in snaps)
    board.release("A")
    board.center()
    snaps = frames(hal, 3)
    assert not any(s["just_released"] for s in snaps)
    board.press("A")
    assert frames(hal, 1)[0]["just_pressed"] == {A}


def test_without_pin_irqs_the_clock_polls_the_buttons(board, store_dir, monkeypatch):
    from machine import Pin

    def no_irq(self, *args, **kwargs):
        raise OSError(22)
    monkeypatch.setattr(Pin, "irq", no_irq)
    hal = Hal(ml4m, str(store_dir))
    assert hal.controls.irq is False and hal.clock.poll == hal.controls.poll
    frames(hal, 2)
    board.after(10, lambda: board.press("B"))
    board.after(22, lambda: board.release("B"))
    snaps = frames(hal, 4)
    assert count(snaps, "just_pressed", B) == 1
    # the poll that sees the press starts the frame: the clock calls it at
    # each look while it waits, every tick (10 ms)
    start = frames(hal, 2)[-1]["t"]
    board.after(10, lambda: board.press("C"))
    snaps = frames(hal, 1)
    assert snaps[0]["just_pressed"] == {C}
    assert time.ticks_diff(snaps[0]["t"], start) <= 10 + 10


def test_controls_alone_with_explicit_time(board):
    c = Controls(ml4m)
    board.press("C")
    c.update(1000)
    assert c.just_pressed(C)
    c.update(1100)
    assert c.held_ms(C) == 100
