"""Random play on the emulated board, to find what a long session breaks.

    .venv/bin/python tools/soak.py [--inputs N] [--seed S]     (make soak: 100,000)

Boots the whole app and feeds it seeded random inputs (tools/bench/soak_plan.py:
taps, pushes, holds, pauses, chords) that wander through every screen. Every
150 inputs it goes back to the menu with B (a screen that will not let go is
a stuck state) and counts the live Python objects there. Reports inputs,
frames, the screens reached, exceptions that escaped the app, crash screens
(with their message), stuck states and the object count over the session;
exits 1 if anything went wrong. The MicroPython twin is
tools/bench/soak_mp.py (make soak runs both)."""
import gc
import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()

from tools.bench import soak_plan  # noqa: E402

CRASH_SCREENS = ("ErrorScreen", "BareError")
SCREENS = ("Splash", "Menu", "Game", "Records", "SettingsScreen", "About")


class Soak:
    def __init__(self, seed, store_dir, before_start=()):
        from firmware.boards import ml4m
        from tools.emu.runner import Runner
        self.board = tools.emu.Board(seed=seed)
        # the firmware across its soft resets (a launch, a return): read as the app
        self.app = Runner(self.board, store_dir, ml4m, before_start=before_start)
        self.store_dir = store_dir
        self.frames = 0
        self.seen = set()
        self.exceptions = []       # tracebacks that escaped App.step
        self.crashes = []          # what the crash screens said
        self.stuck = []            # screens B could not leave
        self.objects = []          # live objects at each return to the menu

    def screen(self):
        return type(self.app.screen).__name__

    def frame(self):
        was = self.screen()
        try:
            self.app.step()
        except Exception as error:            # noqa: BLE001 (reported, then on)
            import traceback
            self.exceptions.append("".join(traceback.format_exception(error)))
        self.frames += 1
        now = self.screen()
        if now != was and now in CRASH_SCREENS:
            s = self.app.screen
            self.crashes.append("%s: %s" % (getattr(s, "title", ""), " ".join(getattr(s, "lines", ()))))
        self.seen.add(now if now != "Game" else type(self.app.screen).__module__)

    def run_frames(self, n):
        for _ in range(n):
            self.frame()

    def apply(self, step):
        kind = step[0]
        if kind == "press":
            self.board.press(step[1])
        elif kind == "release":
            self.board.release(step[1])
        elif kind == "stick":
            if step[1] is None:
                self.board.center()
            else:
                self.board.push(step[1])
        elif kind == "frames":
            self.run_frames(step[1])
        elif kind == "checkpoint":
            self.checkpoint()

    def tap(self, name):
        self.board.press(name)
        self.run_frames(3)
        self.board.release(name)
        self.run_frames(3)

    def checkpoint(self):
        for name in soak_plan.BUTTONS:
            self.board.release(name)
        self.board.center()
        self.run_frames(3)
        for _ in range(8):
            if self.screen() == "Menu":
                break
            self.tap("A" if self.screen() in CRASH_SCREENS else "B")
        if self.screen() != "Menu":
            self.stuck.append(self.screen())
            return
        gc.collect()
        self.objects.append(len(gc.get_objects()))

    def report(self, inputs):
        lines = ["soak (CPython, emulated board): %d inputs, %d frames (%.1f min of play)"
                 % (inputs, self.frames, self.frames / 30 / 60),
                 "screens reached: %s" % ", ".join(sorted(self.seen)),
                 "exceptions out of the app: %d" % len(self.exceptions),
                 "crash screens: %d" % len(self.crashes),
                 "stuck states: %d%s" % (len(self.stuck), (" (%s)" % ", ".join(self.stuck[:5])) if self.stuck else ""),
                 "soft resets (launches and returns): %d" % self.app.resets]
        if self.objects:
            lines.append("live objects in the menu: first %d, last %d, most %d (%d checks)"
                         % (self.objects[0], self.objects[-1], max(self.objects), len(self.objects)))
        for text in self.exceptions[:3] + self.crashes[:5]:
            lines.append("  " + text.strip().replace("\n", "\n  "))
        return "\n".join(lines)

    def growth(self):
        """Objects in the menu at the end over the first third's most (1.0: none)."""
        if len(self.objects) < 3:
            return 1.0
        early = max(self.objects[:max(1, len(self.objects) // 3)])
        return max(self.objects[-3:]) / early


def soak(inputs, seed, store_dir, progress_every=None, before_start=()):
    s = Soak(seed, store_dir, before_start)
    for done, steps in enumerate(soak_plan.inputs(seed, inputs), 1):
        for step in steps:
            s.apply(step)
        if progress_every and done % progress_every == 0:   # a long run shows how far it got
            print("... %d inputs, %d frames, %d exceptions, %d crash screens, %d stuck"
                  % (done, s.frames, len(s.exceptions), len(s.crashes), len(s.stuck)), flush=True)
    s.checkpoint()
    return s


def main(argv):
    inputs = int(argv[argv.index("--inputs") + 1]) if "--inputs" in argv else 100_000
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    folder = tempfile.mkdtemp(prefix="ml4m-soak-")
    try:
        s = soak(inputs, seed, folder, progress_every=5000)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(s.report(inputs))
    print("object growth: %.2fx" % s.growth())
    bad = s.exceptions or s.crashes or s.stuck or s.growth() > 1.05
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
