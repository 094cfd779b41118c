"""Stand-in for MicroPython's `micropython` module: the code emitters are no-ops on
CPython, const() is the identity, and schedule() queues onto the emulated board."""


def const(expr):
    return expr


def native(fn):
    return fn


def viper(fn):
    return fn


def asm_xtensa(fn):
    return fn


_opt_level = 0


def opt_level(level=None):
    global _opt_level
    if level is None:
        return _opt_level
    _opt_level = level


def mem_info(verbose=None):
    print("stack: 736 out of 15360")
    print("GC: total: 111168, used: 20000, free: 91168 (emulated figures)")


def qstr_info(verbose=None):
    print("qstr pool: n_pool=1, n_qstr=0, n_str_data_bytes=0, n_total_bytes=0")


def stack_use():
    return 736


def alloc_emergency_exception_buf(size):
    pass


def kbd_intr(chr):
    pass


_heap_locked = 0


def heap_lock():
    global _heap_locked
    _heap_locked += 1
    return _heap_locked - 1


def heap_unlock():
    global _heap_locked
    _heap_locked = max(0, _heap_locked - 1)
    return _heap_locked


def heap_locked():
    return _heap_locked


def schedule(func, arg):
    """Run func(arg) soon (at the next touch of the virtual clock or a pin)."""
    from tools.emu import board
    board.current().schedule(func, arg)
