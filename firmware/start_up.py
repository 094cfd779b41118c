"""The start of every program, after a power-on or a soft reset: the launch
note taken (firmware/launch.py), the board file chosen, the hardware brought
up (warm after a soft reset: the panel keeps its picture, the stick its
calibration), safe boot after a power-on, then the settings read (and, after
a power-on, the records checked). firmware/app.py imports this module for
that and forgets it afterwards, so none of it is in the heap while the
player plays (README, "Why the code looks like this").

The Settings object made here stays with the app, and its module's code with
it; the records are read where they are used (App.records)."""
import json
import sys

import machine
from firmware import launch, modules
from firmware.hal.store import Store
from firmware.settings import Settings
from micropython import const

_SAFE_BOOT_BUTTON = const(1)   # B (firmware.hal.controls): hold it while powering on
                               # and the app stays out of the way
_TEST_BOARD_BUTTON = const(0)  # A: held while powering on, Test board comes first


def begin(board, store_root):
    """(hal, settings, note, test board first) for firmware.app.App, or None
    after a safe boot. note is what the program before this one left ({}
    after a power-on, a hard reset, or a soft reset with no launch: Ctrl-D)."""
    note = take_note(Store(store_root))
    hal = _hal(board, store_root, note)
    test_first = False
    power_on = note is None
    if power_on:
        if machine.reset_cause() != machine.SOFT_RESET:
            if hal.controls.pressed(_SAFE_BOOT_BUTTON):
                # safe boot: a note on the panel, and the app stays out of the way
                fb = hal.display.fb
                fb.fill(0)
                fb.text("Safe boot", 28, 16, 1)
                fb.text("App skipped,", 16, 32, 1)
                fb.text("REPL is free", 16, 44, 1)
                hal.display.flush()
                return None
            # A held: Test board before the menu
            test_first = hal.controls.pressed(_TEST_BOARD_BUTTON)
        note = {}
    # the settings read from the store. A file its checks let through can
    # still raise here (a value the hardware refuses): it is set aside, the
    # defaults are used, and the board never shows a blank panel at every
    # power-on
    settings = _read(hal, Settings, "settings")
    if power_on:
        # The records are read where they are used (App.records), and let go.
        # At power-on they are read once here too, the same way, so a damaged
        # file is set aside and said now, not at the end of the first game.
        # (Imported here: forgotten with this module, and no later program
        # holds their names.)
        from firmware.records import Records
        _read(hal, Records, "records")
    return hal, settings, note, test_first


def take_note(store):
    """The note left by the program before this one, or None (a power-on, a
    hard reset, Ctrl-D at the REPL with no launch). Cleared as it is read: a
    note is used once."""
    if machine.reset_cause() != machine.SOFT_RESET:
        return None
    rtc = launch.rtc()
    text = None
    try:
        if rtc is not None:
            text = rtc.memory()
            rtc.memory(b"")
        if not text:
            path = store.path(launch.NOTE)
            f = store.fs.open(path, "r")
            try:
                text = f.read()
            finally:
                f.close()
            store.fs.remove(path)
        note = json.loads(text)
    except Exception:    # no note (OSError), or not one of ours (ValueError)
        return None
    return note if type(note) is dict else None


def _hal(board, store_root, note):
    """The hardware layer, on the board file chosen at deploy when board is
    None; warm after a launch (note). A missing panel does not stop it: the
    HAL has sounded the fault and the app runs on headless."""
    from firmware.boards import chosen_board, load_board
    from firmware.hal import Hal
    if board is None:
        board = load_board(chosen_board())
    if note is None:
        hal = Hal(board, store_root)
    else:
        hal = Hal(board, store_root, warm=True, stick=note.get("stick"))
        # an unusable save folder was said once, in the program before: not again
        hal.store.no_folder = note.get("no_folder", False)
    if note is not None and hal.controls.calibrated and "reach" in note:
        # the range the program before had in use: data/stick.json is not
        # read again (nor firmware/stick_range.py loaded, with its names)
        hal.controls.reach[:] = note["reach"]
    else:
        # the stick's range captured by Test board, if the owner did; its
        # centre stands in for a rest that could not be measured. Borrowed by
        # its name as text: a program that takes the range from the note
        # interns no name of it
        with modules.borrowed("firmware.stick_range") as stick_range:
            stick_range.load(hal)
    hal.controls.update(hal.clock.now())
    if note is None:
        return hal
    # the button that launched the game (or left it) may still be held: it
    # is not a press in this program
    hal.controls.suspend_until_release()
    return hal


def _read(hal, kind, name):
    """kind(hal.store) (Settings: applied to the hardware), or, when that
    raises, the file set aside (reason in the crash log) and kind(hal.store)
    again with the defaults."""
    for attempt in (1, 2):
        try:
            made = kind(hal.store)
            if kind is Settings:
                made.apply(hal)
            return made
        except Exception as error:   # never BaseException: Ctrl-C must stop us
            if attempt == 2:
                raise
            try:
                sys.print_exception(error)  # type: ignore[attr-defined]  # to the REPL
            except Exception:
                pass
            try:
                reason = str(error)
            except Exception:         # even that raises: its type's name
                reason = type(error).__name__
            hal.store.set_aside(name, "start-up: " + reason)
