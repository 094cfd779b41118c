"""A launch is a soft reset (README, "How it is built"): the menu is one
program and each game another, each on a fresh heap. Before machine.soft_reset()
the program that ends leaves a small note for the next one: which game to
start (or none: the menu), the menu's cursor and failures, the notes for the
player not shown yet, the idle timers and the stick's calibration. The note
lives in RTC memory, which a soft reset keeps and a power-on clears; on a port
without it, in data/launch.json. firmware/start_up.py reads it back once,
at the next start, and only after a soft reset (take_note); firmware/app.py
builds the program's first screen from it.

This module is imported only at the two ends of a program: by start_up.py,
which is forgotten before the first frame, and by App.leave(), when the
program ends (README, "Why the code looks like this": no program holds it
while the player plays).

A note is a dict of plain data, written as JSON:
  game      the menu entry's key of the game to start; absent: the menu
  start     what the game's screen is built with (module, screen, options,
            save, settings, settings file), resolved by the menu
  broken    instead of start: why the game cannot start (the crash screen says it)
  open      instead of a game: [module, class] of a system screen (Settings, Records, About)
  menu      the menu entry the cursor comes back to
  menu_fails     the menu's failures in a row
  menu_broken    True when the safe menu stands in
  notes     texts for the player not shown yet
  toast     [text, shown at ms]: the note on show at the reset
  no_folder the save folder is unusable, and the player was told
  idle      ms since the last input; dim: the panel was dimmed
  stick     the stick's calibrated rest [x, y], when it was measured
  reach     with it, the stick's range in use [left, right, up, down]
            (firmware/stick_range.py), so the next program need not read it
  games_checked  the games' declarations were read this power-on
  memory    ticks_ms of the last reset for want of memory (at most one a minute)
"""
import json
import time

import machine

NOTE = "launch"     # data/launch.json, where the port has no RTC memory


def rtc():
    """The RTC's user memory, or None where the port has none."""
    try:
        rtc = machine.RTC()
        rtc.memory()
        return rtc
    except Exception:   # AttributeError, OSError: no RTC memory on this port
        return None


def leave(app, note):
    """Fill in what carries over from the app, keep the note and reset: the
    next program starts on a fresh heap with it. Never returns
    (machine.soft_reset() raises SystemExit on the board)."""
    hal = app.hal
    store = hal.store
    now = hal.clock.now()
    notes = []
    if app.toast is not None:
        note["toast"] = list(app.toast)   # on show: the rest of its time after the reset
    if store.error:
        notes.append(store.error)
    note["notes"] = notes + store.notes
    if store.no_folder:
        note["no_folder"] = True          # said once: not again in the next program
    if store.bad:   # the reasons go to the crash log before the reset
        from firmware import crashlog
        crashlog.set_aside(store, now)
    note["menu"] = app.menu_key
    note["menu_fails"] = app.menu_fails
    note["menu_broken"] = app.menu_broken
    note["games_checked"] = app.games_checked
    note["idle"] = time.ticks_diff(now, app.idle_since)
    note["dim"] = app.dimmed
    if hal.controls.calibrated:
        note["stick"] = [hal.controls.center_x, hal.controls.center_y]
        note["reach"] = hal.controls.reach
    if app.memory_reset is not None:
        note["memory"] = app.memory_reset
    text = json.dumps(note)
    rtc_memory = rtc()
    try:
        rtc_memory.memory(text)   # pyright: ignore[reportOptionalMemberAccess]  (None: the file below)
    except Exception:    # no RTC memory, or the note is longer than it holds
        f = store.fs.open(store.path(NOTE), "w")
        try:
            f.write(text)
        finally:
            f.close()
    machine.soft_reset()
