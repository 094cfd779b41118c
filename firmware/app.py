"""The app loop: frame pacing, screen switching, idle dimming and sleep, and the
crash screen. main() is what main.py calls at power-on."""
import gc
import sys
import time

from firmware.screens.base import BACK
from firmware.settings import DIM_AFTER_S, Settings
from firmware.records import Records
from micropython import const

# const() with a leading underscore: folded into the code, no module globals
_SAFE_BOOT_BUTTON = const(1)   # B (firmware.hal.controls): hold it while powering on
                               # and the app stays out of the way
_TOAST_MS = const(2000)        # how long a "not saved" note stays on screen
_PROBE_MS = const(2000)        # a missing panel is looked for this often


class App:
    def __init__(self, hal, games_folder="games"):
        self.hal = hal
        self.settings = Settings(hal.store)
        self.settings.apply(hal)
        self.records = Records(hal.store)
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
        self.toast = None          # (text, shown at ms)
        self.probed = self.idle_since   # when a missing panel was last looked for

    # ---- screens -------------------------------------------------------------
    def start(self, screen=None):
        if screen is None:
            # through _import, so the splash is released when the menu comes
            screen = self.open("firmware.screens.splash", "Splash")
        self.screen = screen

    def menu(self):
        # imported like a game: while a game runs, the menu's code, its list
        # and the game list are not in the heap; back from the game they are
        # loaded again (a few ms)
        return self._import("firmware.screens.menu").Menu(self, key=self.menu_key)

    def launch(self, key):
        """Start the game of a menu entry (key: gamelist.entries()); the
        menu's modules go first, the game's code is imported only now."""
        from firmware import gamelist
        return gamelist.launch(self, key)

    def open(self, module_name, class_name):
        """A system screen (Records, Settings, About), imported on demand too."""
        self._leave_menu()
        return getattr(self._import(module_name), class_name)(self)

    def _import(self, name):
        """Import name; the first import after a release notes what was
        loaded before it, so _release can forget everything it brought."""
        gc.collect()
        if self.loaded is None:
            self.loaded = set(sys.modules)
        __import__(name)
        return sys.modules[name]

    def _leave_menu(self):
        """The menu opens a screen: forget every module imported for the menu
        (the menu, the catalog, the drawing helpers). A screen that draws
        with the same helpers imports them again (a few ms); one that does
        not has their heap to itself."""
        loaded = self.loaded
        if loaded is not None:
            for name in [n for n in sys.modules if n not in loaded]:
                forget(name)
        gc.collect()

    def _release(self):
        """Forget every module imported for the screen we leave, then collect."""
        if self.loaded is not None:
            for name in [n for n in sys.modules if n not in self.loaded]:
                forget(name)
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
        """A screen raised: log it, show it, and get back to a working menu."""
        now = self.hal.clock.now()
        try:
            sys.print_exception(error)  # type: ignore[attr-defined]  # to the REPL
        except AttributeError:
            pass
        self.screen = None
        self._release()
        # the crash log and the error screen are only needed now: imported
        # after the release, they go again with the error screen
        logged = self._import("firmware.crashlog").append(self.hal.store.root, error, now)
        self.hal.display.invert(False)
        self.hal.sound.sfx("error")
        self.screen = self._import("firmware.screens.error").ErrorScreen(
            self, error=error, logged=logged)
        self.screen.redraw()

    # ---- the loop --------------------------------------------------------------
    def step(self):
        hal = self.hal
        now = hal.clock.now()
        hal.controls.update(now)
        hal.sound.update(now)
        if not self._awake(now):
            hal.clock.wait_frame()   # asleep: only the controls are watched
            return
        try:
            target = self.screen.update(now)
            if target is not None:
                self.switch(target)
            self.screen.draw(hal.display)
        except Exception as error:   # never BaseException: Ctrl-C must stop us
            self.crash(error)
            self.screen.draw(hal.display)
        self._show_store_error(now)
        hal.display.flush()
        if not hal.display.present:
            self._look_for_panel(now)
        hal.clock.wait_frame()

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

    def _show_store_error(self, now):
        """The flash refused a write: the game goes on, and the player is told."""
        store = self.hal.store
        if store.error:
            self.toast = (store.error, now)
            store.error = None
        if self.toast is None:
            return
        text, since = self.toast
        fb = self.hal.display.fb
        if time.ticks_diff(now, since) < _TOAST_MS:
            fb.fill_rect(0, 54, 128, 10, 0)
            fb.rect(0, 54, 128, 10, 1)
            fb.text(text[:15], 4, 55, 1)
        else:
            self.toast = None
            self.screen.redraw()   # repaint what the note covered

    def run(self):
        if self.screen is None:
            self.start()
        while True:
            self.step()


def forget(name):
    """Drop module name from sys.modules and from its package's attributes,
    so nothing but live objects still holds it."""
    del sys.modules[name]
    parent, _, child = name.rpartition(".")
    if parent in sys.modules and hasattr(sys.modules[parent], child):
        delattr(sys.modules[parent], child)


def safe_boot(hal):
    """True (after a note on the panel) when the safe-boot button is held."""
    if not hal.controls.pressed(_SAFE_BOOT_BUTTON):
        return False
    fb = hal.display.fb
    fb.fill(0)
    fb.text("Safe boot", 28, 16, 1)
    fb.text("App skipped,", 16, 32, 1)
    fb.text("REPL is free", 16, 44, 1)
    hal.display.flush()
    return True


# Saves live in "data", relative to the current folder: that is /data on the
# board (MicroPython starts in /), and the simulator runs in a folder of its own.
STORE_ROOT = "data"


def main(board=None, store_root=STORE_ROOT):
    from firmware.hal import Hal, chosen_board, load_board
    if board is None:
        board = load_board(chosen_board())
    hal = Hal(board, store_root)
    hal.controls.update(hal.clock.now())
    if safe_boot(hal):
        return None
    app = App(hal)   # headless (no panel) it runs on: the HAL has sounded the fault
    app.run()
