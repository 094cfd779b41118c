# Run on real MicroPython (WebAssembly, under Node) by tests/test_clock_wait_mp.py:
# what the clock's wait rests on (firmware/hal/clock.py), on MicroPython's own VM
# and select.poll rather than on the emulator's model of them. Node's machine
# has no Timer, so the clock is given a stand-in that, as the ESP32's timer
# interrupt does, schedules its callback (micropython.schedule). Prints one
# "name value" line per check.
import time

import micropython
import select

from firmware.hal.clock import Clock


class Timer:
    ONE_SHOT = 0

    def init(self, mode, period, callback):
        micropython.schedule(callback, self)

    def deinit(self):
        pass


def press(_arg):
    wake[0] = 1


wake = bytearray(1)
clock = Clock(30)
clock.wake = wake
clock._timer = Timer()
clock._poller = select.poll()
clock._poller.register(clock, select.POLLIN)

# a select.poll takes the clock (an io.IOBase), not ready while the frame is
# a second away and nothing is pressed
clock._next = time.ticks_add(time.ticks_us(), 1_000_000)
print("idle_ready", len(clock._poller.poll(0)))
# a press's callback, scheduled as a pin interrupt does, has run by the time
# the clock answers: the poll that asks right after it finds the clock ready
micropython.schedule(press, None)
print("press_ready", len(clock._poller.poll(0)))
wake[0] = 0
# and the clock is ready when its frame is due
clock._next = time.ticks_add(time.ticks_us(), -1)
print("due_ready", len(clock._poller.poll(0)))
# a whole wait: the frame starts when it is due, on its schedule
clock._next = time.ticks_us()
t0 = time.ticks_us()
clock.wait_frame()
print("wait_us", time.ticks_diff(time.ticks_us(), t0))
print("on_schedule", int(time.ticks_diff(clock._next, t0) == clock.frame_us))
