"""Shown when a screen raised: the exception's type and message, then back to
the menu. The traceback is in the crash log on the board (/data/crash.log).
Its plainer parent, BareError (in firmware.screens.base, always loaded),
stands in when there is no memory to import this one."""
from firmware.screens.base import BareError
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


def _heading(name):
    """"Oops: ValueError" when it fits the title bar, else the error's name alone."""
    heading = "Oops: " + name
    return heading if len(heading) <= draw.COLUMNS else name[:draw.COLUMNS]


class ErrorScreen(BareError):
    def __init__(self, app, error=None, logged=True):
        BareError.__init__(self, app, error)     # the title, and A/B: back
        self.lines = draw.wrap(_text(error), max_lines=4)
        self.logged = logged

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = draw.page(display, _heading(self.title))
        for i, line in enumerate(self.lines):
            fb.text(line, 0, 11 + i * 9, 1)
        fb.text("log saved" if self.logged else "log not saved", 0, 47, 1)
        fb.text(self.key_line(), 0, 56, 1)
