"""Modules loaded on demand and let go again (README, "Why the code looks like
this"): once nothing but sys.modules holds a module, forgetting it lets the
next collection free it. Importing it again later costs a few ms.

    with borrowed("firmware.ui.pictures") as pictures:   # import, use, forget
        pictures.show(...)

    before = loaded()          # a screen's modules, imported over many frames
    ...
    forget_since(before)       # ... all forgotten when it goes

A game screen does not use these directly: its code for a moment comes and
goes through GameScreen.borrow(), helper() and let_go()
(firmware/screens/base.py), which forget with forget() here. Only this module
and that one touch sys.modules.
"""
import sys


def forget(name):
    """Drop module name (if loaded) from sys.modules and from its package's
    attributes, so nothing but live objects still holds it. Each is set to
    None first: a MicroPython dict keeps a removed value until its slot is reused."""
    if name in sys.modules:
        sys.modules[name] = None  # type: ignore[assignment]  # (see above)
        del sys.modules[name]
    parent, _, child = name.rpartition(".")
    package = sys.modules.get(parent)
    if package is not None and hasattr(package, child):
        setattr(package, child, None)
        delattr(package, child)


def loaded():
    """The names of the modules loaded now, for forget_since(): a tuple,
    half a set's heap, which a borrow holds while it lasts (the pause menu's
    for as long as it shows), and looked through only when one ends."""
    return tuple(sys.modules)


def forget_since(before, keep=()):
    """Forget every module imported since before (loaded()), but
    those in keep."""
    for name in [n for n in sys.modules if n not in before and n not in keep]:
        forget(name)


class borrowed:
    """`with borrowed(name) as module:` imports module name for the block and
    forgets it, with whatever it imported, when the block ends (also when it
    raises). A module that was loaded before the block stays loaded, and so
    do those in keep."""

    def __init__(self, name, keep=()):
        self.name = name
        self.keep = keep
        self.before = ()            # the modules loaded before the block (loaded())

    def __enter__(self):
        self.before = loaded()
        try:
            __import__(self.name)
        except Exception:    # half an import (a syntax error further down): gone too
            self.__exit__()
            raise
        return sys.modules[self.name]

    def __exit__(self, *error):
        forget_since(self.before, self.keep)
        self.before = ()
        return False

