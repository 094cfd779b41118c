"""Shown when a screen raised: the exception's type and message, then back to
the menu. The traceback is in the crash log on the board (/data/crash.log).
Its plainer parent, BareError (in firmware/app.py, always loaded),
stands in when there is no memory to import this one."""
from firmware.app import BareError
from firmware.ui import draw


def _text(error):
    """The message, or nothing if there is none or it cannot be made into
    text (an exception whose __str__ raises)."""
    if error is None:
        return ""
    try:
        return str(error)
    except Exception:
        return "(no message)"


def _fits(name):
    return len("Oops: " + name) <= draw.COLUMNS


def _short(name):
    """An error's name that fits a line: "ZeroDivisionError" -> "ZeroDivision"."""
    return name[:-5] if len(name) > draw.COLUMNS and name.endswith("Error") else name


class ErrorScreen(BareError):
    """game: the short file name of the game that raised (None: not a game's
    fault); it comes first, then the reason, so neither is cut off by a path."""

    def __init__(self, app, error=None, logged=True, game=None):
        BareError.__init__(self, app, error)     # the title, and A/B: back
        reason = _text(error)
        if not _fits(self.title):                # "ZeroDivisionError": in the text instead
            reason = _short(self.title) + ": " + reason
        if game and not reason.startswith(game):
            reason = game + ": " + reason
        self.lines = draw.wrap(reason, max_lines=5)
        self.logged = logged

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = draw.page(display, "Oops: " + self.title if _fits(self.title) else "Oops")
        for i, line in enumerate(self.lines):
            fb.text(line, 0, 11 + i * 9, 1)
        fb.text(self.key_line(), 0, 56, 1)

    def key_line(self):
        if self.app.restart:            # out of memory twice in a minute
            return "A: restart"
        return "A: menu, logged" if self.logged else "A: menu (no log)"
