"""Tracebacks of crashes, appended to a log file on the board, bounded in size."""
import os
import sys

LIMIT = 4096  # bytes; past it the log moves to <name>.old (one generation kept)


def format_exception(exc):
    try:
        import io
        buf = io.StringIO()
        sys.print_exception(exc, buf)  # type: ignore[attr-defined]  # MicroPython
        return buf.getvalue()  # pyright: ignore[reportAttributeAccessIssue]  (the stubs lack it)
    except AttributeError:  # CPython (the emulated board)
        import traceback
        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def append(root, exc, when_ms=0):
    """Add exc's traceback to root/crash.log; False if the flash refused."""
    return _write(root, "--- crash at %d ms\n" % when_ms, format_exception(exc))


def note(root, text, when_ms=0):
    """Add a line that is not a crash (a damaged file set aside, and why)."""
    return _write(root, "--- note at %d ms\n" % when_ms, text + "\n")


def set_aside(store, when_ms=0):
    """Note each file the store set aside this run (store.bad), and why."""
    while store.bad:
        name, reason = store.bad.pop(0)
        note(store.root, "%s.json set aside as %s.bad: %s" % (name, name, reason), when_ms)


def _write(root, head, text):
    path = root + "/crash.log"
    try:
        try:
            if os.stat(path)[6] > LIMIT:
                try:
                    os.remove(path + ".old")   # FAT will not rename onto it
                except OSError:
                    pass
                os.rename(path, path + ".old")
        except OSError:
            pass  # no log yet
        with open(path, "a") as f:
            f.write(head)
            f.write(text)
        return True
    except OSError:
        return False
