# The WebAssembly port's files speak the board's error numbers.
#
# MicroPython's WebAssembly port keeps its files in Emscripten's filesystem,
# whose errors carry Emscripten's numbers (WASI's: a missing file is 44, a
# name that exists 20), while the port's own errno module has MicroPython's
# (ENOENT 2, EEXIST 17), as the ESP32's files and errno module do. So on this
# port `e.args[0] == errno.ENOENT` is never true, and the firmware's store
# took every file not written yet for a damaged one (set aside, a note on the
# panel, a line in crash.log). install() wraps open() and the os calls the
# firmware makes so that their OSErrors carry the errno module's numbers, as
# on the board. The page (tools/web/site/page_board.py) and the Node runner's
# scripts (tools/bench/mp_heap.py) install it before the firmware starts.
import builtins
import errno
import os

# Emscripten's number -> the errno module's (the ones the firmware tells apart;
# ENOTDIR, ENOSPC and EROFS are not in MicroPython's errno module: 20, 28, 30)
_BOARD = {44: errno.ENOENT, 20: errno.EEXIST, 54: 20, 31: errno.EISDIR, 51: 28,
          2: errno.EACCES, 29: errno.EIO, 48: errno.ENOMEM, 69: 30, 28: errno.EINVAL}


def _as_on_the_board(call):
    def wrapped(*args):
        try:
            return call(*args)
        except OSError as e:
            if e.args and e.args[0] in _BOARD:
                raise OSError(_BOARD[e.args[0]])
            raise
    return wrapped


def install():
    """Once: open() and os's file calls raise the board's numbers from now on."""
    if getattr(builtins, "_port_errno", False):
        return
    builtins._port_errno = True
    builtins.open = _as_on_the_board(builtins.open)
    for name in ("remove", "rename", "mkdir", "rmdir", "stat", "listdir", "ilistdir", "chdir"):
        if hasattr(os, name):
            setattr(os, name, _as_on_the_board(getattr(os, name)))
