"""The firmware on an emulated board from power-on, across its soft resets:
the one way every host-side tool and test runs it (the simulators, the soak,
the benchmarks, the tests).

    runner = Runner(board, "flash/data")       # power-on: the splash, then the menu
    runner.step()                              # one frame of the app
    runner.screen                              # (the app's attributes, read through)

On the board a launch is machine.soft_reset(): boot.py and main.py run again on
an empty heap, with the RTC memory kept. Here the emulated machine.soft_reset()
raises ResetRequested; the runner catches it, forgets every module of the
firmware (so the next start imports them afresh: a fresh interpreter, module
state and all), tells the board (reset cause SOFT_RESET, PWM stopped, pin IRQs
dropped; RTC memory, panel and clock kept) and starts the firmware again the
way main.py does (firmware.app.start, then the loop one frame at a time).

run_programs() runs boot.py and main.py themselves (the simulators), with the
same reset handling. before_start: functions called with the runner before
each start, for a test that patches a firmware module in every program.
"""
import os
import runpy
import sys

from tools.emu.board import ResetRequested

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_LIB = os.path.join(ROOT, "lib") + os.sep


class Runner:
    def __init__(self, board, store_root, board_file=None, games_folder=None, start=True,
                 before_start=()):
        self.board = board
        self.store_root = str(store_root)
        self.board_file = board_file          # a firmware.boards module; None: the chosen one
        self._games_folder = None if games_folder is None else str(games_folder)
        self.app = None                       # None before the start, and after a safe boot
        self.resets = 0                       # soft resets so far (launches and returns)
        self.before_start = list(before_start)
        if start:
            self.start()

    # ---- the firmware's start ---------------------------------------------------------
    def start(self):
        """What main.py does up to the first frame: firmware.app.start(). A
        soft reset already there (a program that cannot start) starts again."""
        while True:
            for hook in self.before_start:
                hook(self)
            from firmware import app as app_module
            kwargs = {} if self._games_folder is None else {"games_folder": self._games_folder}
            try:
                self.app = app_module.start(self.board_file, self.store_root, **kwargs)
                return self.app
            except ResetRequested:
                self._fresh_interpreter()

    def soft_reset(self):
        """The board's soft reset: a fresh interpreter, then the firmware's start."""
        self._fresh_interpreter()
        self.start()

    def _fresh_interpreter(self):
        self.resets += 1
        self.board.soft_reset()
        self.app = None
        forget_firmware(self._games_folder)

    # ---- running ---------------------------------------------------------------------
    def step(self):
        """One frame of the app (after a safe boot: a frame's time passes). A
        soft reset inside it starts the firmware again before this returns."""
        if self.app is None:
            self.board.advance(1000 / 30)
            return
        try:
            self.app.step()
        except ResetRequested:
            self.soft_reset()

    def frames(self, n):
        for _ in range(n):
            self.step()

    def play(self, title):
        """Start the game of the menu entry titled title as the menu does (a
        soft reset into the game's program); returns the game's screen."""
        from firmware import gamelist
        key = gamelist.entry_key(self.app, title)
        assert key is not None, "no menu entry %r" % title
        try:
            self.app.launch(key)
        except ResetRequested:
            self.soft_reset()
        return self.app.screen

    def run_main(self):
        """firmware.app.main() as main.py calls it, again after each soft reset,
        for good: returns after a safe boot, or by an exception (Ctrl-C, the
        board's StopEmulation)."""
        while True:
            for hook in self.before_start:
                hook(self)
            from firmware import app as app_module
            kwargs = {} if self._games_folder is None else {"games_folder": self._games_folder}
            try:
                return app_module.main(self.board_file, self.store_root, **kwargs)
            except ResetRequested:
                self._fresh_interpreter()

    def run_programs(self, programs, reseed=None):
        """Run the programs (paths: boot.py, main.py) as the board does after
        every reset: each soft reset runs them again on a fresh interpreter.
        reseed(resets): called before each run after a reset (a fresh
        interpreter's random starts again: the browser's seeds it with the
        page's seed + resets, and the simulator the same way, so a replay
        deals the same games in both). Returns when they return; a firmware
        that resets again and again (50 times, each within 100 ms of the
        last) raises ResetRequested."""
        quick = 0
        last = None
        while True:
            if reseed is not None and self.resets:
                reseed(self.resets)
            try:
                for path in programs:
                    runpy.run_path(path, run_name="__main__")
                return
            except ResetRequested:
                now = self.board.now_ms()
                quick = quick + 1 if last is not None and now - last < 100 else 0
                last = now
                if quick >= 50:
                    raise
                self._fresh_interpreter()

    def __getattr__(self, name):
        """The app's attributes (screen, hal, settings, ...), read through:
        tests written against one App keep reading well across resets."""
        app = self.__dict__.get("app")
        if app is None:
            raise AttributeError(name)
        return getattr(app, name)


def forget_firmware(games_folder=None):
    """A fresh interpreter, as far as the firmware can tell: every module of
    firmware/, of lib/ (the panel's driver) and of a games folder (this one,
    or any other folder named games an earlier run used) goes, and the next
    import reads it afresh."""
    folder = None if games_folder is None else os.path.abspath(games_folder) + os.sep
    for name in list(sys.modules):
        module = sys.modules[name]
        path = os.path.abspath(getattr(module, "__file__", None) or "/")
        if (name == "firmware" or name.startswith("firmware.") or path.startswith(_LIB)
                or (folder is not None and path.startswith(folder))
                or os.sep + "games" + os.sep in path):
            del sys.modules[name]
