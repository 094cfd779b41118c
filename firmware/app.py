"""The app loop: frame pacing, screen switching, idle dimming and sleep, and the
crash screen. main() is what main.py calls at power-on; what runs only then
is in firmware/start_up.py, imported for it and forgotten again."""
import gc
import sys
import time

from firmware import modules
from firmware.hal.controls import A, B, E     # loaded with the HAL already
from firmware.screens.base import BACK, Screen, GameScreen
from firmware.settings import DIM_AFTER_S
from micropython import const

_PROBE_MS = const(2000)        # a missing panel is looked for this often
_MENU_GOOD_MS = const(20000)   # a menu that ran this long before it failed is not "broken"


class App:
    def __init__(self, hal, games_folder="games"):
        self.hal = hal
        self.screen = None
        # sys.modules names before the modules of the screen on show were
        # imported: the menu, a game, a system screen and the error screen are
        # each imported on demand and forgotten again when they go (_release)
        self.loaded = None
        self.games_folder = games_folder   # a player's games: /games on the board
        self.games_checked = False         # the games' declarations read this boot
        self.menu_key = None               # the menu entry chosen last (firmware.screens.menu)
        self.idle_since = hal.clock.now()
        self.dimmed = False
        self.asleep = False
        self.toast = None          # the store's note on show: (text, shown at ms)
        self.probed = self.idle_since   # when a missing panel was last looked for
        self.menu_since = self.idle_since   # when the menu was last being built
        self.building_menu = False # a crash now is the menu's
        self.menu_fails = 0        # the menu's crashes in a row (each within 20 s of its start)
        self.menu_broken = False   # it failed twice in a row: the safe menu from now on
        with modules.borrowed("firmware.start_up") as start_up:
            self.settings, self.records = start_up.settings_and_records(hal)

    # ---- screens -------------------------------------------------------------
    def start(self, screen=None):
        if screen is None:
            try:
                # through _import, so the splash is released when the menu comes
                screen = self.open("firmware.screens.splash", "Splash")
            except Exception as error:
                self.crash(error)
                return
        self.screen = screen

    def menu(self):
        if self.menu_broken:
            # the menu failed twice in a row: a plain one (games, Settings)
            return self._import("firmware.screens.safe_menu").SafeMenu(self)
        # imported like a game, and released while one runs
        # (README, "Why the code looks like this")
        self.menu_since = self.hal.clock.now()
        self.building_menu = True
        menu = self._import("firmware.screens.menu").Menu(self, key=self.menu_key)
        self.building_menu = False
        return menu

    def launch(self, key):
        """Start the game of a menu entry (key: gamelist.entries()); the
        menu's modules go first, the game's code is imported only now."""
        from firmware import gamelist
        return gamelist.launch(self, key)

    def open(self, module_name, class_name):
        """A system screen (Records, Settings, About), imported on demand too."""
        self._release()
        return getattr(self._import(module_name), class_name)(self)

    def _import(self, name):
        """Import name; the first import after a release notes what was
        loaded before it, so _release can forget everything it brought."""
        gc.collect()
        if self.loaded is None:
            self.loaded = modules.loaded()
        __import__(name)
        return sys.modules[name]

    def _release(self):
        """Forget every module imported for the screen we leave (back from a
        game, or the menu opening one: the menu, the game list, the drawing
        helpers), then collect. A screen that draws with the same helpers
        imports them again (a few ms)."""
        if self.loaded is not None:
            modules.forget_since(self.loaded)
            self.loaded = None
        gc.collect()

    def switch(self, target):
        """Leave the current screen for target: BACK (the menu) or a Screen."""
        old = self.screen
        if old is not None and old is not target:
            old.suspend()
        if target == BACK:
            self.screen = None   # drop our reference before the modules go
            old = None
            self._release()
            target = self.menu()
        self.screen = target
        self.hal.display.invert(False)

    def crash(self, error):
        """A screen raised: log it, show it, and get back to a working menu.
        Nothing in here may stop the app: a MemoryError while logging or
        while importing the error screen falls back to a picture drawn with
        what is already in memory, and if even that fails, to a line on
        the REPL and the next frame."""
        now = self.hal.clock.now()
        # A menu that fails within 20 s of its start, twice in a row, is not
        # built again: back from the crash screen comes the safe menu (no
        # loop menu -> crash screen -> menu until the battery runs out)
        if self.building_menu or type(self.screen).__name__ == "Menu":
            if time.ticks_diff(now, self.menu_since) < _MENU_GOOD_MS:
                self.menu_fails += 1
            else:
                self.menu_fails = 1
            if self.menu_fails >= 2:
                self.menu_broken = True
        else:
            self.menu_fails = 0
        self.building_menu = False
        _print(error)
        game = getattr(self.screen, "game_file", None)   # a game raised: name it
        self.screen = None
        try:
            self._release()
        except Exception:
            pass
        logged = False
        try:
            # the crash log and the error screen are only needed now: imported
            # after the release, they go again with the error screen
            logged = self._import("firmware.crashlog").append(self.hal.store.root, error, now)
        except Exception:            # e.g. MemoryError formatting the traceback
            pass
        try:
            self.hal.display.invert(False)
            self.hal.sound.sfx("error")
        except Exception:
            pass
        try:
            self.screen = self._import("firmware.screens.error").ErrorScreen(
                self, error=error, logged=logged, game=game)
        except Exception:            # no memory for the error screen's module
            self.screen = BareError(self, error)
        self.screen.redraw()

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
            self._draw_after_crash()
        if not awake:
            hal.clock.wait_frame()   # asleep: only the controls are watched
            return
        self._show_store_notes(now)
        hal.display.flush()
        if not hal.display.present:
            self._look_for_panel(now)
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
            self.toast = ("Sound on" if sound else "Sound off" if saved else "Not saved!", now)
            return None
        if controls.just_pressed(E) and isinstance(self.screen, GameScreen):
            from firmware.screens.pause import Pause
            return Pause(self, self.screen)
        return None

    def _draw_after_crash(self):
        """The error screen's picture; if drawing it raises too, the bare
        one; if that raises, a line on the REPL and on with the next frame."""
        try:
            self.screen.draw(self.hal.display)
            return
        except Exception as error:
            _print(error)
        try:
            self.screen = BareError(self, None)
            self.screen.draw(self.hal.display)
        except Exception as error:
            _print(error)

    def _look_for_panel(self, now):
        """No panel (missing at power-on, or a loose wire since): the game runs
        on headless and the panel is looked for every 2 s; once it answers,
        it gets the whole picture, dimmed or not, as drawn (probe)."""
        if time.ticks_diff(now, self.probed) >= _PROBE_MS:
            self.probed = now
            self.hal.display.probe()

    def _awake(self, now):
        """Dim, then sleep the panel when idle; wake on input without passing it on."""
        hal = self.hal
        if hal.controls.any_activity():
            self.idle_since = now
            if self.dimmed or self.asleep:
                if self.asleep:
                    hal.display.wake()
                hal.display.brightness(self.settings["brightness"])
                self.dimmed = self.asleep = False
                hal.controls.suspend_until_release()
            return True
        if self.asleep:
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
            __import__("firmware.store_notes")
            if not sys.modules["firmware.store_notes"].show(self, now):
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


class BareError(Screen):
    """The crash screen when there is no memory for the real one
    (firmware.screens.error.ErrorScreen, its child): drawn with the
    display's own text, nothing imported. A or B: back to the menu."""

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
        fb.text("A: back to menu", 0, 56, 1)


# Saves live in "data", relative to the current folder: that is /data on the
# board (MicroPython starts in /), and the simulator runs in a folder of its own.
STORE_ROOT = "data"


def main(board=None, store_root=STORE_ROOT):
    """Power-on: the HAL, safe boot, the app; then the loop, for good."""
    app = _power_on(board, store_root)
    if app is not None:       # None: safe boot, the REPL is free
        app.run()


def _power_on(board, store_root):
    """The first steps, from firmware/start_up.py, forgotten again before the
    loop starts (a function of its own: no frame holds the module after)."""
    with modules.borrowed("firmware.start_up") as start_up:
        hal = start_up.hal(board, store_root)
        if start_up.safe_boot(hal):
            return None
        return App(hal)   # headless (no panel) it runs on: the HAL has sounded the fault
