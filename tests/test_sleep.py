"""Light sleep while the panel is off (firmware/sleep.py), on the emulated
ML4M: machine.lightsleep() lets virtual time pass until a wake pin goes high
(tools/emu/board.py). Wake on each button, no input lost or doubled, the game
saved before the CPU stops, the loop going on where it was, and never while a
host session is attached."""
import sys
import types

import pytest

from firmware import sleep as sleep_module
from firmware.boards import devkit_proto, ml4m
from tests.test_app import Counter, boot, frames, patch, tap, to_menu, wait

SAVER_MS = 120000


def idle_until_asleep(board, arcade, wake=None):
    """Leave it alone until the panel is off (and the CPU sleeps, where it
    does: wake(), called shortly before, schedules what wakes it)."""
    wait(arcade, SAVER_MS - 8000)
    if wake is not None:
        wake()
    wait(arcade, 8500)
    assert not board.panel.on or wake is not None


def counter_on_show(board, arcade):
    to_menu(board, arcade)
    counter = Counter(arcade)
    arcade.switch(counter)
    return counter


@pytest.mark.parametrize("button", "ABCDEF")
def test_each_button_wakes_it_and_the_waking_press_is_no_move(board, store_dir, button):
    arcade = boot(board, store_dir)
    counter = counter_on_show(board, arcade)
    wait(arcade, SAVER_MS - 8000)
    board.after(65000, lambda: board.press(button))   # about a minute into the sleep
    wait(arcade, 8000)                  # the panel goes off, the CPU sleeps...
    assert len(board.sleeps) == 1       # ...once, until the press
    start, end = board.sleeps[0]
    assert 55000 < end - start < 61000
    assert board.ext1_wake == (ml4m.WAKE_PINS, True)    # any of the six going high
    frames(arcade, 3)
    board.release(button)
    frames(arcade, 3)
    assert board.panel.on
    assert arcade.screen is counter     # the loop went on where it was
    assert counter.moves == 0           # the waking press was not a move
    tap(board, arcade, "A")
    assert counter.moves == 1           # and the next one counts, once


def test_a_tap_over_before_the_cpu_looks_still_wakes_the_panel(board, store_dir):
    arcade = boot(board, store_dir)
    counter = counter_on_show(board, arcade)

    def wake():             # a tap 20 s into the sleep, gone before the next frame reads it
        board.after(28000, lambda: board.press("D"))
        board.after(28000.5, lambda: board.release("D"))
    idle_until_asleep(board, arcade, wake)
    assert len(board.sleeps) == 1
    assert board.panel.on               # not back to sleep: the wake is the input
    assert counter.moves == 0
    tap(board, arcade, "A")
    assert counter.moves == 1


def test_the_game_is_saved_before_the_cpu_stops(board, store_dir):
    import json
    import os
    from tests.test_app import choose
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "2048")
    game = arcade.screen
    for direction in ("left", "right", "up", "down"):   # (the tiles are random: one moves)
        board.push(direction)
        frames(arcade, 3)
        board.center()
        frames(arcade, 3)
        if game.game.moves:
            break
    assert game.progress() is not None      # a game in progress, to be saved
    seen = []

    def look():             # the flash at the moment the CPU stops
        with open(os.path.join(str(store_dir), "g2048.json")) as f:
            seen.append(json.loads(f.read().rsplit("\n", 1)[0]))
    board.on_sleep = look
    game.game.score += 4    # a change no move saved: only the screen saver saves it
    board.after(SAVER_MS + 5000, lambda: board.press("B"))
    wait(arcade, SAVER_MS + 2000)
    assert len(seen) == 1
    assert seen[0] == game.progress()


def test_a_stuck_button_is_left_out_of_the_wake_pins(board, store_dir):
    # stuck since power-on: it would wake it at once (C: A held at power-on
    # opens Test board, B is safe boot)
    board.press("C")
    arcade = boot(board, store_dir)
    counter_on_show(board, arcade)
    idle_until_asleep(board, arcade, lambda: board.after(20000, lambda: board.press("E")))
    assert len(board.sleeps) == 1 and board.sleeps[0][1] - board.sleeps[0][0] > 10000
    assert board.ext1_wake == (tuple(g for g in ml4m.WAKE_PINS if g != 35), True)
    assert board.panel.on               # E woke it


def test_the_stick_does_not_wake_it_a_button_does(board, store_dir):
    arcade = boot(board, store_dir)
    counter = counter_on_show(board, arcade)

    pressed_at = []

    def wake():
        board.after(10000, lambda: board.push("left"))     # analog: no wake pin
        board.after(10200, board.center)
        board.after(30000, lambda: board.press("B"))
        pressed_at.append(board.now_ms() + 30000)
    idle_until_asleep(board, arcade, wake)
    assert len(board.sleeps) == 1
    assert 0 <= board.sleeps[0][1] - pressed_at[0] <= 5     # slept through the push, to B
    assert board.panel.on and counter.moves == 0


def test_the_sleep_setting_off_keeps_the_cpu_awake(board, store_dir):
    arcade = boot(board, store_dir)
    counter_on_show(board, arcade)
    assert arcade.settings.set("sleep", False)
    idle_until_asleep(board, arcade)
    wait(arcade, 5000)
    assert board.sleeps == []
    assert boot(board, store_dir).settings["sleep"] is False    # saved: off after a reboot too


@pytest.mark.parametrize("session", ["import main", "mpremote mount", "typing"])
def test_never_while_a_session_is_attached(board, store_dir, monkeypatch, session):
    if session == "import main":        # make run, or `import main` at the REPL
        monkeypatch.setitem(sys.modules, "main", types.ModuleType("main"))
    elif session == "mpremote mount":
        monkeypatch.setattr(sys, "path", ["/remote"] + sys.path)
    arcade = boot(board, store_dir)
    if session == "typing":             # bytes waiting on the REPL's line (in every program)
        patch(arcade, monkeypatch, "firmware.sleep", "serial_waiting", lambda: True)
    counter = counter_on_show(board, arcade)
    idle_until_asleep(board, arcade)
    wait(arcade, 5000)
    assert board.sleeps == []           # the panel is off, the CPU is not
    tap(board, arcade, "A")
    assert board.panel.on and counter.moves == 0


def test_a_board_without_wake_pins_never_sleeps(store_dir):
    import tools.emu
    board = tools.emu.Board("DEVKIT_PROTO")
    from tools.emu.runner import Runner
    arcade = Runner(board, store_dir, devkit_proto)
    wait(arcade, 2000)
    idle_until_asleep(board, arcade)
    wait(arcade, 5000)
    assert devkit_proto.WAKE_PINS == () and board.sleeps == []


def test_the_emulated_ext1_takes_only_rtc_gpios(board):
    import esp32
    from machine import Pin
    with pytest.raises(ValueError):
        esp32.wake_on_ext1(pins=[Pin(16)], level=esp32.WAKEUP_ANY_HIGH)
    esp32.wake_on_ext1(pins=[Pin(32)], level=esp32.WAKEUP_ANY_HIGH)
    assert board.ext1_wake == ((32,), True)
