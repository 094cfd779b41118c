"""MicroPython's u-name for its built-in io (firmware/hal/clock.py imports
IOBase from it): on a PC, CPython's io."""
from io import *  # noqa: F401,F403
from io import IOBase  # noqa: F401
