# Test board (firmware/screens/board_test.py) on real MicroPython, with the
# stand-in `machine` the browser arcade uses (tools/emu/mp_node/machine.py):
#   node tools/mprun/run.mjs --script tests/mp_board_steps.py
# run by tests/test_board_test.py. Sleeps pass at once (the clock moves on by
# what was slept), so its 10 s give-ups and the panel's patterns cost no time.
# Prints the result line Test board prints, and the saved stick range.
import time

from machine import drive, levels

_slept = [0]
_real_ms = time.ticks_ms
_real_us = time.ticks_us


def _ticks_ms():
    return time.ticks_add(_real_ms(), _slept[0] // 1000)


def _ticks_us():
    return time.ticks_add(_real_us(), _slept[0])


def _sleep_ms(ms):
    if ms > 0:
        _slept[0] += ms * 1000


def _sleep_us(us):
    if us > 0:
        _slept[0] += us


time.ticks_ms = _ticks_ms
time.ticks_us = _ticks_us
time.sleep_ms = _sleep_ms
time.sleep_us = _sleep_us
# no machine.Timer: the clock waits in the time.sleep_ms above, which this
# virtual time moves (its select.poll wait would take real milliseconds)
import machine  # noqa: E402
del machine.Timer

from firmware import app  # noqa: E402  (after the clock: the firmware reads it)

_X = 39          # ML4M: the stick's X (inverted) and Y ADC pins, 12-bit counts
_Y = 36
_REST = 1850
arcade = app.start(None, "/data")
arcade.start(arcade.open("firmware.screens.board_test", "BoardTest"))


def frames(n):
    for _ in range(n):
        arcade.step()


def tap(gpio):
    drive(gpio, 1)
    frames(3)
    drive(gpio, 0)
    frames(3)


def stick(x, y, n=4):
    levels[_X] = x
    levels[_Y] = y
    frames(n)


frames(2)
for gpio in (32, 33, 35, 34, 27, 26):      # A..F
    tap(gpio)
for x, y in ((4095, _REST), (0, _REST), (_REST, 0), (_REST, 4095)):
    stick(x, y)
    stick(_REST, _REST)
frames(20)                                 # let go: the centre
for x, y in ((4095, _REST), (0, _REST), (_REST, 0), (_REST, 4095)):
    stick(x, y)                            # circled
stick(_REST, _REST)
tap(32)                                    # A: done
frames(65)                                 # the outcome, 2 s
frames(110)                                # the panel's patterns
tap(32)                                    # they looked right
frames(75)                                 # the three sweeps
tap(32)                                    # heard
tap(32)                                    # this board: on to the result
with open("/data/stick.json") as f:
    print("saved:", f.read().split("\n")[0])
