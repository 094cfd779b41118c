"""select on the ESP32 as the firmware's clock uses it (firmware/hal/clock.py):
poll() waits on objects that answer ioctl, blocking a FreeRTOS tick at a time
until one is ready or an interrupt (a pin, a Timer) wakes it. The model is the
current board's (tools/emu/board.py, SelectPoll). MicroPython keeps this module's
u-name beside `select`; CPython's own select (files only) keeps its name here."""
from tools.emu.board import current

POLLIN = 1
POLLOUT = 4
POLLERR = 8
POLLHUP = 16


def poll():
    return current().poll()
