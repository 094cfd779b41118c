"""The app loop: frame pacing, screen switching, idle dimming and sleep, and the
crash screen; and what a screen is to the loop (Screen, BACK). main() is what
main.py calls after every power-on and soft reset: it starts the program a
launch note names (firmware/launch.py), a game or the menu, each on a fresh
heap; what runs only at the start is in firmware/start_up.py, imported for
it and forgotten again, and launch.py, which writes the note for the next
program, is imported when this one ends."""
import gc
import sys
import time

import machine
from firmware import modules
from firmware.hal.controls import A, B, E     # loaded with the HAL already
from firmware.settings import DIM_AFTER_S
from micropython import const

_PROBE_MS = const(2000)        # a missing panel is looked for this often
_MENU_GOOD_MS = const(20000)   # a menu that ran this long before it failed is not "broken"
_MEMORY_RESET_MS = const(60000)   # a reset for want of memory, at most once this often
# what a restart after a MemoryError needs of the launch note (_out_of_memory):
# the only fields App.note keeps once the first screen is up
_RESTART_FIELDS = const(("start", "broken"))


BACK = "back"     # what update() returns to go back to the menu


class Screen:
    """What every screen is: the app loop calls update() and draw() once a frame.

    A screen reads the controls and its rules in update(now_ms) and returns:
      None         to stay,
      BACK         to go back to the menu,
      a Screen     to switch to it (the app calls suspend() on this one first).
    draw(display) paints what changed onto display.fb; the app flushes
    afterwards, and the display sends only the bytes that differ, so redrawing
    a whole screen is correct, just slower on the board. suspend() saves a game
    in progress; it runs before leaving and before the panel goes to sleep.
    A game's screen is a GameScreen (firmware/screens/base.py)."""

    def __init__(self, app, **options):
        self.app = app
        self.hal = app.hal
        self.options = options

    def update(self, now_ms):
        return None

    def draw(self, display):
        pass

    def suspend(self):
        pass

    def redraw(self):
        """Paint everything again on the next draw() (something covered the screen)."""
        self.dirty = True


class BareError(Screen):
    """The crash screen when there is no memory for the real one
    (firmware.screens.error.ErrorScreen, its child): drawn with the
    display's own text, nothing imported. A or B: back to the menu (out of
    memory: a fresh start, app.restart)."""

    def __init__(self, app, error):
        Screen.__init__(self, app)
        self.title = "Error" if error is None else type(error).__name__
        self.dirty = True

    def update(self, now_ms):
        c = self.hal.controls
        if c.just_pressed(A) or c.just_pressed(B):
            return BACK
        return None

    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = display.fb
        fb.fill(0)
        fb.text("Oops:", 0, 0, 1)
        fb.text(self.title[:16], 0, 12, 1)
        fb.text("A: restart" if self.app.restart else "A: back to menu", 0, 56, 1)


class GameBroken(Exception):
    """A game that cannot start: the message names its file and why."""


class App:
    """One program: the menu, one system screen or one game, whichever the
    launch note names (note: {} at power-on)."""
    can_sleep = True   # False once light sleep was refused (firmware/sleep.py)

    def __init__(self, hal, settings, games_folder="games", note=None):
        note = note or {}
        self.hal = hal
        self.settings = settings
        self.screen = None
        self.note = note       # what this program was started with (start() keeps a restart's part)
        self.game = note.get("game")       # the menu entry of the game this program plays
        self.games_folder = games_folder   # a player's games: /games on the board
        self.games_checked = note.get("games_checked", False)   # declarations read this power-on
        self.menu_key = note.get("menu")   # the menu entry chosen last (firmware.screens.menu)
        now = hal.clock.now()
        self.idle_since = time.ticks_add(now, -note.get("idle", 0))
        self.dimmed = False
        self.asleep = False
        if note.get("dim"):        # it was dimmed before the reset: still is
            hal.display.brightness(0)
            self.dimmed = True
        hal.store.notes[0:0] = note.get("notes", ())
        # the store's note on show: (text, shown at ms); one on show before the
        # reset goes on for the rest of its time (ticks_ms runs on over a soft reset)
        toast = note.get("toast")
        self.toast = (toast[0], toast[1]) if toast else None
        self.probed = now          # when a missing panel was last looked for
        self.menu_since = now      # when the menu was last being built
        self.menu_fails = note.get("menu_fails", 0)    # the menu's crashes in a row (each within 20 s of its start)
        self.menu_broken = note.get("menu_broken", False)   # it failed twice in a row: the safe menu from now on
        self.memory_reset = note.get("memory")    # ticks of the last reset for want of memory
        self.restart = False       # out of memory twice in a minute: the crash screen says so

    # ---- screens -------------------------------------------------------------
    def start(self, screen=None):
        """The first screen: the game launched, the menu back from a game, or
        the splash at power-on."""
        if screen is None:
            menu = False      # the menu is being built: a crash now is the menu's
            try:
                if self.game is not None:
                    screen = self.game_screen()
                elif "open" in self.note:     # Settings, Records, About
                    screen = self.open(*self.note["open"])
                elif self.note:
                    menu = not self.menu_broken
                    screen = self.menu()
                else:
                    screen = self.open("firmware.screens.splash", "Splash")
            except Exception as error:
                self.crash(error, menu)
                screen = self.screen      # the crash screen comes first
        self.screen = screen
        # Of the note, a restart after a MemoryError needs the game's start
        # only (_out_of_memory): the rest (the notes, the toast, the menu's
        # cursor, the stick's calibration...) is in the app and the HAL now,
        # and held whole it would stay in the heap for the program's life.
        note = self.note
        self.note = {}
        for field in _RESTART_FIELDS:
            if field in note:
                self.note[field] = note[field]

    @property
    def records(self):
        """The records of every game (firmware/records.py), read from the store
        now: a game's end, the Records screen and Settings' reset use them for
        a moment and let them go, so no program holds them, nor their code,
        between frames. Each use reads data/records.json again (take it once:
        `records = self.app.records`); a damaged file is set aside then, with
        a note, as at power-on (firmware/start_up.py)."""
        with modules.borrowed("firmware.records") as records:
            return records.Records(self.hal.store)

    def game_screen(self):
        """The screen of the game this program was launched for (self.note),
        built on the fresh heap with what the menu resolved: its settings, its
        save's name, its options. A game that cannot start raises GameBroken
        naming its file (the crash screen shows it); no memory stays a
        MemoryError (the app starts again on a fresh heap)."""
        note = self.note
        if "broken" in note:
            raise GameBroken(note["broken"])
        start = note["start"]
        if self.games_folder not in sys.path:   # a player's game imports from its folder
            sys.path.append(self.games_folder)
        try:
            module = __import__(start["module"], None, None, [start["screen"]])
            screen = getattr(module, start["screen"])(
                self, save=start["save"], settings=start["settings"],
                settings_file=start["file"], **start["options"])
            screen.game_file = start["path"]   # the crash screen names the game that raised
        except MemoryError:
            raise
        except Exception as e:
            _print(e)
            raise GameBroken("%s: %s: %s" % (start["path"], type(e).__name__, e))
        # the checks of stored values are needed while the game loads its save,
        # not while it runs
        modules.forget("firmware.check")
        return screen

    def menu(self):
        """The menu, the first screen of its program (the safe one after two failures)."""
        if self.menu_broken:
            return self.open("firmware.screens.safe_menu", "SafeMenu")
        self.menu_since = self.hal.clock.now()
        return self.open("firmware.screens.menu", "Menu")   # (its cursor: self.menu_key)

    def launch(self, key):
        """Start the game of a menu entry (key: gamelist.entries()) in a
        program of its own: a soft reset. Never returns."""
        from firmware import gamelist
        self.menu_key = key
        self.leave(gamelist.launch_note(self, key))

    def open(self, module_name, class_name, **options):
        """The screen a program starts with (the splash, the menu, a system
        screen) or Test board, imported now (B: the menu's program again, on
        a fresh heap). By the module's name as text: a game's program holds
        no interned name for the menu's modules."""
        gc.collect()
        module = __import__(module_name, None, None, [class_name])
        return getattr(module, class_name)(self, **options)

    def leave(self, note):
        """End this program for the one the note names (none: the menu).
        Never returns: firmware/launch.py resets. Heap: launch.py is imported
        now, at the program's end, when its screen has let its heap go (README,
        "Why the code looks like this"); with no memory even for that, the
        reset comes without a note, and the menu starts."""
        self.screen = None
        gc.collect()
        try:
            from firmware import launch
        except MemoryError:
            machine.soft_reset()
            return
        launch.leave(self, note)

    def switch(self, target):
        """Leave the current screen for target: BACK (the menu) or a Screen."""
        old = self.screen
        if old is not None and old is not target:
            old.suspend()
        if isinstance(target, str):   # BACK
            # the menu is always the first screen of a program of its own: back
            # from a game, a system screen or a crash (and after the splash, with
            # the power-on's reading of the games), on a fresh heap
            self.screen = old = None
            self.leave({})
            return
        self.screen = target
        self.hal.display.invert(False)

    def crash(self, error, menu=False):
        """A screen raised (menu: the menu, while it was built): log it, show
        it, and get back to a working menu.
        Nothing in here may stop the app: a MemoryError while logging or
        while importing the error screen falls back to a picture drawn with
        what is already in memory, and if even that fails, to a line on
        the REPL and the next frame. Out of memory, the program starts again
        where the player was on a fresh heap (at most once a minute)."""
        now = self.hal.clock.now()
        # A menu that fails within 20 s of its start, twice in a row, is not
        # built again: back from the crash screen comes the safe menu (no
        # loop menu -> crash screen -> menu until the battery runs out).
        # Only the menu's own failures count: a game fails in its own program,
        # and no memory is no fault of the menu's (a fresh heap cures it).
        if isinstance(error, MemoryError):
            pass
        elif menu or type(self.screen).__name__ == "Menu":
            if time.ticks_diff(now, self.menu_since) < _MENU_GOOD_MS:
                self.menu_fails += 1
            else:
                self.menu_fails = 1
            if self.menu_fails >= 2:
                self.menu_broken = True
        else:
            self.menu_fails = 0
        _print(error)
        if isinstance(error, MemoryError):
            self._out_of_memory(now)
        game = getattr(self.screen, "game_file", None)   # a game raised: name it
        self.screen = None
        gc.collect()
        logged = False
        try:
            from firmware import crashlog
            logged = crashlog.append(self.hal.store.root, error, now)
        except Exception:            # e.g. MemoryError formatting the traceback
            pass
        try:
            self.hal.display.invert(False)
            self.hal.sound.sfx("error")
        except Exception:
            pass
        try:
            self.screen = self.open("firmware.screens.error", "ErrorScreen",
                                    error=error, logged=logged, game=game)
        except Exception:            # no memory for the error screen's module
            self.screen = BareError(self, error)
        self.screen.redraw()

    def _out_of_memory(self, now):
        """What can be saved is saved, and the same program starts again on a
        fresh heap (README, "On the board"). A second time within a minute the
        crash screen stays and says so: A starts the menu afresh."""
        last = self.memory_reset
        if last is not None and time.ticks_diff(now, last) < _MEMORY_RESET_MS:
            self.restart = True
            return
        try:
            if self.screen is not None:
                self.screen.suspend()
        except Exception:
            pass
        self.memory_reset = now
        # the note that starts this same program again (the same game, or the menu)
        note = {}
        if self.game is not None:
            note["game"] = self.game
            for field in _RESTART_FIELDS:
                if field in self.note:
                    note[field] = self.note[field]
        try:
            self.leave(note)
        except Exception as error:   # no memory even for the note: the crash screen
            _print(error)

    # ---- the loop --------------------------------------------------------------
    def step(self):
        hal = self.hal
        now = hal.clock.now()
        hal.controls.update(now)
        hal.sound.update(now)
        try:
            awake = self._awake(now)   # may save the game (the screen saver)
            if awake:
                if self.screen is None:
                    self.start()
                target = self._system_keys(now) or self.screen.update(now)
                if target is not None:
                    self.switch(target)
                self.screen.draw(hal.display)
        except Exception as error:   # never BaseException: Ctrl-C must stop us
            self.crash(error)
            awake = True
            # the error screen's picture; if drawing it raises too, the bare
            # one; if that raises, a line on the REPL and on with the next frame
            try:
                self.screen.draw(hal.display)
            except Exception as draw_error:
                _print(draw_error)
                try:
                    self.screen = BareError(self, None)
                    self.screen.draw(hal.display)
                except Exception as bare_error:
                    _print(bare_error)
        if not awake:
            hal.clock.wait_frame()   # asleep: only the controls are watched
            return
        self._show_store_notes(now)
        hal.display.flush()
        if not hal.display.present and time.ticks_diff(now, self.probed) >= _PROBE_MS:
            # no panel (missing at power-on, or a loose wire since): the game
            # runs on headless and the panel is looked for every 2 s; once it
            # answers, it gets the whole picture, dimmed or not, as drawn
            self.probed = now
            hal.display.probe()
        hal.clock.wait_frame()

    def _system_keys(self, now):
        """The keys the system keeps, on every screen: E and F held together
        mute or unmute (saved, with a note), and E in a game opens the pause
        menu over it (firmware/screens/pause.py, imported only while it shows)."""
        controls = self.hal.controls
        if controls.chorded:
            sound = not self.settings["sound"]
            saved = self.settings.set("sound", sound)
            self.settings.apply(self.hal)
            # a setting the flash did not keep is not changed (Settings.set)
            self.toast = ("Sound " + ("on" if sound else "off") if saved else "Not saved!", now)
            return None
        if controls.just_pressed(E):
            # a game's screen (firmware/screens/base.py: GameScreen) lends
            # modules; the pause menu is borrowed from it for as long as it
            # shows: what it imports goes again when it closes (Pause.update).
            # Other screens have no pause menu.
            game = self.screen
            borrow = getattr(game, "borrow", None)
            if borrow is not None:
                lent = borrow("firmware.screens.pause")
                return lent.__enter__().Pause(self, game, lent)
        return None

    def _awake(self, now):
        """Dim, then sleep the panel when idle (and the CPU: firmware/sleep.py).
        Input brightens a dimmed panel and counts (the board was in sight); a
        key that wakes a panel that was off only wakes it (the player could
        not see what it would do)."""
        hal = self.hal
        if hal.controls.any_activity():
            self.idle_since = now
            if self.dimmed or self.asleep:
                if self.asleep:
                    hal.display.wake()
                    hal.controls.suspend_until_release()
                hal.display.brightness(self.settings["brightness"])
                self.dimmed = self.asleep = False
            return True
        if self.asleep:
            if self.settings["sleep"] and self.can_sleep:
                # saved already (below): the CPU stops until a button, which
                # wakes the panel as any input does
                with modules.borrowed("firmware.sleep") as sleep:
                    sleep.light_sleep(self)
            return False
        idle = time.ticks_diff(now, self.idle_since)
        if idle >= self.settings["saver_s"] * 1000:
            self.screen.suspend()   # unsaved state is saved before the panel sleeps
            hal.display.sleep()
            self.asleep = True
            return False
        if not self.dimmed and idle >= DIM_AFTER_S * 1000:
            hal.display.brightness(0)
            self.dimmed = True
        return True

    def _show_store_notes(self, now):
        """The store's notes for the player (firmware/store_notes.py: imported
        while there is one, forgotten when the last has gone). A failure here
        (no memory to import it) is tried again next frame, never a stop."""
        store = self.hal.store
        if self.toast is None and not (store.bad or store.error or store.notes):
            return
        try:
            notes = __import__("firmware.store_notes", None, None, ["show"])
            if not notes.show(self, now):
                modules.forget("firmware.store_notes")
        except Exception as error:   # never BaseException: Ctrl-C must stop us
            _print(error)

    def run(self):
        if self.screen is None:
            self.start()
        while True:
            self.step()


def _print(error):
    """The traceback to the REPL, if the port can (and it does not fail)."""
    try:
        sys.print_exception(error)  # type: ignore[attr-defined]
    except Exception:
        pass


# Saves live in "data", relative to the current folder: that is /data on the
# board (MicroPython starts in /), and the simulator runs in a folder of its own.
_STORE_ROOT = const("data")


def main(board=None, store_root=_STORE_ROOT, games_folder="games"):
    """After a power-on or a soft reset: the program the launch note names,
    then its loop, for good (until the next launch resets)."""
    app = start(board, store_root, games_folder)
    if app is not None:       # None: safe boot, the REPL is free
        app.run()


def start(board=None, store_root=_STORE_ROOT, games_folder="games"):
    """The HAL, the settings, and the app at its first screen;
    firmware/start_up.py does it and is forgotten again (a function of its
    own: no frame holds the module after). None: safe boot."""
    with modules.borrowed("firmware.start_up") as start_up:
        begun = start_up.begin(board, store_root)
    if begun is None:
        return None
    hal, settings, note, test_first = begun
    app = App(hal, settings, games_folder, note)
    # A held at power-on: Test board first
    app.start(app.open("firmware.screens.board_test", "BoardTest") if test_first else None)
    return app
