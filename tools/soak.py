"""Random play on the emulated board, to find what a long session breaks.

    .venv/bin/python tools/soak.py [--inputs N] [--seed S]     (make soak: 100,000)

Boots the whole app, with the README's example game installed in /games, and
feeds it seeded random inputs (tools/bench/soak_plan.py: taps, pushes, holds,
pauses, chords and the mute chord, raw stick values, the pause menu used,
long idles to the dim and the screen saver) that wander through every
screen. Every 150 inputs it goes back to the menu with B (a screen that will
not let go is a stuck state), counts the live Python objects there, and
launches the next game in turn. Reports inputs, frames, the screens reached,
how often each game's pause menu opened, the dims, sleeps and mutes,
exceptions that escaped the app, crash screens (with their message), stuck
states and the object count over the session; exits 1 if anything went
wrong, or a game's pause menu was never reached. The MicroPython twin is
tools/bench/soak_mp.py (make soak runs both)."""
import gc
import os
import shutil
import signal
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
# every game whose pause menu the soak must reach (game_name() of its screen):
# the puzzle in each size, 2048, Reversi and the README's example game
# installed in /games (Play a friend alone in the room stays in its lobby, a
# screen of its own: its linked game, and that pause menu, need a second
# board; counted as "link" when reached)
PAUSED_GAMES = ("puzzle 3x3", "puzzle 4x4", "puzzle 5x5", "g2048", "reversi", "dot")


def game_name(screen):
    """A game screen as the report names it: its module's last part, and
    the puzzle's size."""
    name = type(screen).__module__.rsplit(".", 1)[-1]
    size = getattr(screen, "size", None)
    return "%s %dx%d" % (name, size, size) if isinstance(size, int) else name


def readme_game():
    """The README's example game (dot.py), as a player would copy it."""
    import re
    with open(os.path.join(ROOT, "README.md")) as f:
        block = f.read().split("<!-- example-game -->", 1)[1]
    return re.search(r"```python\n(.*?)```", block, re.S).group(1)


class Soak:
    def __init__(self, seed, store_dir, before_start=(), games_folder=None):
        from firmware.boards import ml4m
        from tools.emu.runner import Runner
        self.board = tools.emu.Board(seed=seed)
        # the firmware across its soft resets (a launch, a return): read as the app
        self.app = Runner(self.board, store_dir, ml4m, games_folder=games_folder,
                          before_start=before_start)
        self.store_dir = store_dir
        self.frames = 0
        self.seen = set()
        self.exceptions = []       # tracebacks that escaped App.step
        self.crashes = []          # what the crash screens said
        self.stuck = []            # screens B could not leave
        self.objects = []          # live objects at each return to the menu
        self.paused = {}           # game -> times its pause menu opened
        self.dims = self.savers = self.mutes = self.wakes = 0
        self.idles = {"dim": 0, "saver": 0}

    def screen(self):
        return type(self.app.screen).__name__

    def frame(self):
        was = self.app.screen
        app = self.app.app
        dimmed, asleep = (app.dimmed, app.asleep) if app is not None else (False, False)
        try:
            self.app.step()
        except Exception as error:            # noqa: BLE001 (reported, then on)
            import traceback
            self.exceptions.append("".join(traceback.format_exception(error)))
        self.frames += 1
        app = self.app.app
        if app is None:
            return
        self.dims += app.dimmed and not dimmed
        self.savers += app.asleep and not asleep
        self.mutes += app.hal.controls.chorded
        screen = app.screen
        if screen is was:
            return
        now = type(screen).__name__
        if now in CRASH_SCREENS:
            self.crashes.append("%s: %s" % (getattr(screen, "title", ""), " ".join(getattr(screen, "lines", ()))))
        if now == "Pause":
            name = game_name(screen.game)
            self.paused[name] = self.paused.get(name, 0) + 1
        self.seen.add(now if now != "Game" else type(screen).__module__)

    def run_frames(self, n):
        for _ in range(n):
            self.frame()

    def apply(self, step):
        kind = step[0]
        board = self.board
        if kind == "press":
            board.press(step[1])
        elif kind == "release":
            board.release(step[1])
        elif kind == "stick":
            if step[1] is None:
                board.center()
            else:
                board.push(step[1])
        elif kind == "raw":                   # the ADC reads no further than its ends
            x, y = step[1], step[2]
            board.joystick_raw(min(max(x, 0), soak_plan.ADC_MAX), min(max(y, 0), soak_plan.ADC_MAX))
        elif kind == "frames":
            self.run_frames(step[1])
        elif kind == "idle":
            self.idle(step[1], step[2])
        elif kind == "checkpoint":
            self.checkpoint()
        elif kind == "visit":
            self.visit(step[1])

    def idle(self, what, button):
        """Nothing touched until the panel dims (or the screen saver puts it
        to sleep: the saver's time as set now), then button wakes it. The
        board's light sleep (firmware/sleep.py) stops the CPU until that
        press, so it is scheduled before the idle; asleep without light
        sleep, the virtual clock skips to it (nothing runs but the watch)."""
        from firmware.settings import DIM_AFTER_S
        app = self.app.app
        if app is None:
            return
        seconds = app.settings["saver_s"] if what == "saver" else DIM_AFTER_S
        self.idles[what] += 1
        board = self.board
        end = board.now_ms() + seconds * 1000 + 3000
        board.at(end, lambda: board.press(button))
        while board.now_ms() < end:
            app = self.app.app
            if app is not None and app.asleep and not (app.settings["sleep"] and app.can_sleep):
                board.advance(end - board.now_ms())
            self.frame()
        self.wakes += 1

    def tap(self, name):
        self.board.press(name)
        self.run_frames(3)
        self.board.release(name)
        self.run_frames(3)

    def push(self, direction):
        self.board.push(direction)
        self.run_frames(2)
        self.board.center()
        self.run_frames(3)

    def checkpoint(self):
        """Back to the menu with B (A on a crash screen). A screen that is
        still there after 8 taps gets a minute more, a tap a second (Test
        board's steps give up after 10 s each); after that it is stuck."""
        for name in soak_plan.BUTTONS:
            self.board.release(name)
        self.board.center()
        self.run_frames(3)
        for i in range(68):
            if self.screen() == "Menu":
                break
            self.tap("A" if self.screen() in CRASH_SCREENS else "B")
            if i >= 8:
                self.run_frames(24)
        if self.screen() != "Menu":
            self.stuck.append(self.screen())
            return
        gc.collect()
        self.objects.append(len(gc.get_objects()))

    def visit(self, k):
        """From the menu, the k-th of its game entries (modulo their number):
        the cursor moved there with the stick, then A."""
        if self.screen() != "Menu":
            return
        menu = self.app.screen
        target = menu.first_game + k % menu.games
        for _ in range(len(menu.labels)):
            if menu.cursor == target:
                break
            self.push("down")
        if menu.cursor == target:
            self.tap("A")

    def missing_pauses(self):
        return [name for name in PAUSED_GAMES if not self.paused.get(name)]

    def report(self, inputs):
        lines = ["soak (CPython, emulated board): %d inputs, %d frames (%.1f min of play)"
                 % (inputs, self.frames, self.frames / 30 / 60),
                 "screens reached: %s" % ", ".join(sorted(self.seen)),
                 "pause menu opened: %s" % ", ".join(
                     "%s %d" % (name, self.paused.get(name, 0)) for name in
                     PAUSED_GAMES + tuple(sorted(set(self.paused) - set(PAUSED_GAMES)))),
                 "idles: %d to the dim, %d to the screen saver; the panel dimmed %d times, "
                 "slept %d (light sleeps %d); mute chord %d times"
                 % (self.idles["dim"], self.idles["saver"], self.dims, self.savers,
                    len(self.board.sleeps), self.mutes),
                 "exceptions out of the app: %d" % len(self.exceptions),
                 "crash screens: %d" % len(self.crashes),
                 "stuck states: %d%s" % (len(self.stuck), (" (%s)" % ", ".join(self.stuck[:5])) if self.stuck else ""),
                 "soft resets (launches and returns): %d" % self.app.resets]
        if self.objects:
            lines.append("live objects in the menu: first %d, last %d, most %d (%d checks)"
                         % (self.objects[0], self.objects[-1], max(self.objects), len(self.objects)))
        if self.missing_pauses():
            lines.append("pause menu never reached in: %s" % ", ".join(self.missing_pauses()))
        for text in self.exceptions[:3] + self.crashes[:5]:
            lines.append("  " + text.strip().replace("\n", "\n  "))
        return "\n".join(lines)

    def growth(self):
        """Objects in the menu at the end over the first third's most (1.0: none)."""
        if len(self.objects) < 3:
            return 1.0
        early = max(self.objects[:max(1, len(self.objects) // 3)])
        return max(self.objects[-3:]) / early

    def bad(self):
        """What went wrong, in a few words each (empty: clean)."""
        bad = []
        if self.exceptions or self.crashes or self.stuck:
            bad.append("exceptions, crash screens or stuck states")
        if self.growth() > 1.05:
            bad.append("object growth %.2fx" % self.growth())
        if self.missing_pauses():
            bad.append("no pause menu in " + ", ".join(self.missing_pauses()))
        if self.idles["saver"] and not self.savers:
            bad.append("the screen saver never came")
        return bad


class Stopped(BaseException):
    """SIGTERM (a time bound, `timeout`): the report of what was played so far."""


def soak(inputs, seed, store_dir, progress_every=None, before_start=(), games_folder=None, played=None):
    """Play inputs of the plan (the checkpoints and visits between them not
    counted) on a board whose flash is store_dir (and games_folder).
    played: a list that holds the Soak and the inputs done so far, for a
    report when the run is stopped early."""
    s = Soak(seed, store_dir, before_start, games_folder)
    done = 0
    if played is not None:
        played[:] = [s, 0]
    for steps in soak_plan.inputs(seed, inputs):
        for step in steps:
            s.apply(step)
        if steps[0][0] in ("checkpoint", "visit"):
            continue
        done += 1
        if played is not None:
            played[1] = done
        if progress_every and done % progress_every == 0:   # a long run shows how far it got
            print("... %d inputs, %d frames, %d exceptions, %d crash screens, %d stuck, objects in the"
                  " menu last %d, most %d; pause menus %s"
                  % (done, s.frames, len(s.exceptions), len(s.crashes), len(s.stuck),
                     s.objects[-1] if s.objects else 0, max(s.objects) if s.objects else 0,
                     " ".join("%s:%d" % (k.replace(" ", ""), v) for k, v in sorted(s.paused.items()))),
                  flush=True)
    s.checkpoint()
    return s


def with_example_game(folder):
    """A games folder (a board's /games) with the README's example game in it."""
    games = os.path.join(folder, "games")
    os.makedirs(games, exist_ok=True)
    with open(os.path.join(games, "dot.py"), "w") as f:
        f.write(readme_game())
    return games


def main(argv):
    inputs = int(argv[argv.index("--inputs") + 1]) if "--inputs" in argv else 100_000
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    if "--write-game" in argv:      # the example game for the MicroPython soak's /games
        with_example_game(argv[argv.index("--write-game") + 1])
        return 0
    folder = tempfile.mkdtemp(prefix="ml4m-soak-")
    played = []

    def stop(signum, frame):
        raise Stopped()
    signal.signal(signal.SIGTERM, stop)
    try:
        s = soak(inputs, seed, os.path.join(folder, "data"), progress_every=5000,
                 games_folder=with_example_game(folder), played=played)
    except Stopped:                 # timed out: what was played is still reported
        s, inputs = played
        print("soak: STOPPED (SIGTERM) after %d inputs" % inputs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(s.report(inputs))
    print("object growth: %.2fx" % s.growth())
    bad = s.bad()
    print("soak:", "PROBLEMS: " + "; ".join(bad) if bad else "ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
