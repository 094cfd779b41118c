"""Stand-in for MicroPython's `esp32` module: the EXT1 wake-up that light sleep
uses (firmware/sleep.py). As on the ESP32 port, only RTC GPIOs may be named,
and the level is one of two: any pin high, or all pins low. The emulated
board's lightsleep() (tools/emu/board.py) reads what is set here.
"""
from tools.emu import board as _board_module

WAKEUP_ALL_LOW = False
WAKEUP_ANY_HIGH = True

# The ESP32's RTC GPIOs: the only pins EXT0/EXT1 can watch.
RTC_GPIOS = frozenset((0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39))


def wake_on_ext1(pins, level):
    """pins: None (no EXT1 wake) or a tuple/list of Pin objects."""
    board = _board_module.current()
    if pins is None:
        board.ext1_wake = None
        return
    gpios = []
    for pin in pins:
        gpio = getattr(pin, "id", None)
        if gpio not in RTC_GPIOS:
            raise ValueError("invalid pin")
        gpios.append(gpio)
    board.ext1_wake = (tuple(gpios), bool(level))
