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


class RingsNow:
    ONE_SHOT = 0

    def init(self, mode, period, callback):
        micropython.schedule(callback, self)

    def deinit(self):
        pass


def press(_arg):
    wake[0] = 1


clock = Clock(30)
wake = bytearray(1)
clock.wake = wake
clock._poller = select.poll()
clock._poller.register(clock, select.POLLIN)

# a select.poll takes the clock (an io.IOBase), which is not ready at first
print("idle_ready", len(clock._poller.poll(0)))
# a press's callback, scheduled as a pin interrupt does, has run by the time the
# clock answers: the poll that asks right after it finds the clock ready
micropython.schedule(press, None)
print("press_ready", len(clock._poller.poll(0)))
wake[0] = 0
# the frame timer's callback likewise: a wait for a frame ends when it rings
clock._timer = RingsNow()
clock._next = time.ticks_us()
t0 = time.ticks_ms()
clock.wait_frame()
print("timer_rang", clock._rang)
print("timer_wait_ms", time.ticks_diff(time.ticks_ms(), t0))
