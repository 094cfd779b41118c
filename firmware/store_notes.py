"""What the store has to tell the player, one note at a time over the bottom
of the screen: a write the flash refused (the game goes on) or a damaged file
set aside (its reason goes to the crash log first). The app imports this
module only while there is a note to show and forgets it when the last one
has gone (README, "Why the code looks like this")."""
import time

from firmware import modules
from micropython import const

_SHOW_MS = const(2000)        # how long a note stays on screen


def show(app, now):
    """Log what was set aside, take the next note and draw it over the
    screen while its time lasts. False when no note is left."""
    store = app.hal.store
    if store.bad:
        with modules.borrowed("firmware.crashlog") as crashlog:
            crashlog.set_aside(store, now)
    if app.toast is None:
        if store.error:
            app.toast = (store.error, now)
            store.error = None
        elif store.notes:
            app.toast = (store.notes.pop(0), now)
    if app.toast is None:
        return False
    text, since = app.toast
    if time.ticks_diff(now, since) < _SHOW_MS:
        _draw(app.hal.display.fb, text)
        return True
    app.toast = None
    if app.screen is not None:
        app.screen.redraw()   # repaint what the note covered
    return bool(store.error or store.notes)


def _draw(fb, text):
    """A note over the bottom of the screen: one or two lines of at most 15
    characters (split at "\n")."""
    lines = text.split("\n")[:2]
    h = 10 * len(lines)
    y = 64 - h
    fb.fill_rect(0, y, 128, h, 0)
    fb.rect(0, y, 128, h, 1)
    for line in lines:
        fb.text(line[:15], 4, y + 1, 1)
        y += 9
