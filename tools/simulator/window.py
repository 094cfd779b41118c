"""The window front end (tools/sim.py --window, `make sim-window`): the panel in a
pygame window, the speaker through the sound card, and the keyboard with real
key presses and releases, so a held key is held and two arrows make a diagonal.

Like the terminal front end it is a tick hook of a Session: it runs in the
firmware's own thread, at tick times, so a session it records replays exactly.
pygame is optional: only this mode imports it (`make sim-window` installs the
pinned version into .venv).
"""
import array
import contextlib
import os
import sys
import time

from tools.simulator import keys as keymap
from tools.simulator.frontend import FrontEnd, Pacer
from tools.simulator.session import ReplayFeeder

FRAME_S = 1 / 30          # at most ~30 redraws a second
PIXEL = 6                 # window pixels per panel pixel
BORDER = 12
STATUS_H = 44             # room for the status line and the legend
RATE = 22050              # sound card samples per second
CLICK_MS = 3              # a DAC step heard as a short click

LEGEND = ("stick: arrows/WASD (two for a diagonal)   " + keymap.BUTTON_MAP
          + " or 1-6   p: PNG   q/Esc: quit")
# SDL's video drivers that show nothing: without a display SDL falls back to
# one of them by itself, and the window would never appear
NO_WINDOW_DRIVERS = ("offscreen", "dummy")
NO_DISPLAY = "no display: play in the terminal with make sim"


class NoDisplay(Exception):
    """There is no display to open the window on."""


def no_display(pygame, environ=os.environ):
    """True when SDL, initialised, drives no screen and nobody asked for that
    (tests ask for the dummy driver with SDL_VIDEODRIVER)."""
    driver = pygame.display.get_driver()
    return driver in NO_WINDOW_DRIVERS and environ.get("SDL_VIDEODRIVER") != driver


@contextlib.contextmanager
def quiet_stderr():
    """Hide what C libraries write straight to file descriptor 2 meanwhile:
    SDL's complaints about a missing display, ALSA's dozen lines about a
    missing sound card (the status line says "no sound" in plain words)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class WindowFrontEnd(FrontEnd):
    def __init__(self, session, pygame, replay=None, shots_dir=".", title="ML4M Arcade",
                 scale=PIXEL, realtime=True, environ=os.environ):
        self.session = session
        self.board = session.board
        self.pg = pygame
        self.replay = replay
        self._feeder = ReplayFeeder(session, replay) if replay is not None else None
        self.shots_dir = shots_dir
        self.scale = scale
        self.realtime = realtime
        self._pacer = Pacer()
        self._stick_keys = set()          # directions whose keys are down
        self._button_keys = {}            # button -> how many of its keys are down
        self._stick = "center"
        self._last_draw = -1.0
        self._pixels = None
        self._contrast = None
        self.redraws = 0
        with quiet_stderr():
            pygame.display.init()
        if no_display(pygame, environ):
            pygame.quit()
            raise NoDisplay(NO_DISPLAY)
        pygame.font.init()
        w = 128 * scale + 2 * BORDER
        h = 64 * scale + 2 * BORDER + STATUS_H
        self.screen = pygame.display.set_mode((w, h))
        pygame.display.set_caption(title)
        self.font = pygame.font.Font(None, 20)
        self._sound = _Speaker(pygame)
        if not self._sound.ok:
            self.say("no sound: " + self._sound.error, seconds=6)

    # ---- the tick ---------------------------------------------------------------------
    def __call__(self, now):
        if self.realtime:
            self._pacer(now)
        if self._feeder is not None:
            self._feeder(now)
        self._events()
        self._sound.follow(self.session.sound)
        self.draw()

    def _events(self):
        pg = self.pg
        for event in pg.event.get():
            if event.type == pg.QUIT:
                self.session.quit("quit")
            elif event.type == pg.KEYDOWN:
                self._key(event, True)
            elif event.type == pg.KEYUP:
                self._key(event, False)
            elif event.type == pg.WINDOWFOCUSLOST:
                self._let_go_all()        # keys released elsewhere never come back up

    def _key(self, event, down):
        name = self.pg.key.name(event.key)     # "up", "a", "1", "escape", ...
        if down and name in ("q", "escape"):
            self.session.quit("quit")
        if down and name == keymap.SCREENSHOT_KEY:
            self.screenshot()
        if self.replay is not None:
            return                        # a replay drives the controls
        if name in keymap.JOYSTICK_KEYS:
            direction = keymap.JOYSTICK_KEYS[name]
            if down:
                self._stick_keys.add(direction)
            else:
                self._stick_keys.discard(direction)
            self._update_stick()
        elif name in keymap.BUTTON_KEYS:
            button = keymap.BUTTON_KEYS[name]
            count = self._button_keys.get(button, 0)
            if down:
                if count == 0:
                    self.session.apply("press " + button)
                self._button_keys[button] = count + 1
            elif count:
                if count == 1:
                    self.session.apply("release " + button)
                    del self._button_keys[button]
                else:
                    self._button_keys[button] = count - 1

    def _update_stick(self):
        keys = self._stick_keys
        vertical = "" if ("up" in keys) == ("down" in keys) else ("up" if "up" in keys else "down")
        horizontal = "" if ("left" in keys) == ("right" in keys) else (
            "left" if "left" in keys else "right")
        direction = (vertical + horizontal) or "center"
        if direction != self._stick:
            self._stick = direction
            self.session.apply("center" if direction == "center" else "push " + direction)

    def _let_go_all(self):
        for button in sorted(self._button_keys):
            self.session.apply("release " + button)
        self._button_keys.clear()
        self._stick_keys.clear()
        self._update_stick()

    # ---- output ---------------------------------------------------------------------
    def draw(self, force=False):
        wall = time.monotonic()
        if not force and wall - self._last_draw < FRAME_S:
            return
        self._last_draw = wall
        pg = self.pg
        panel = self.board.panel
        pixels = panel.pixels()
        if force or pixels != self._pixels or panel.contrast != self._contrast:
            self._pixels = pixels
            self._contrast = panel.contrast
            self._draw_panel(pixels, panel.contrast)
        self._draw_status()
        pg.display.flip()
        self.redraws += 1

    def _draw_panel(self, pixels, contrast):
        pg = self.pg
        # lit pixels brighter with more contrast (as PNGs with --png-brightness)
        level = 60 + (195 * contrast) // 255
        lit = bytes((level, level, min(255, level + 20)))
        dark = b"\x00\x00\x00"
        rgb = b"".join(lit if p else dark for row in pixels for p in row)
        image = pg.image.frombuffer(rgb, (128, 64), "RGB")
        image = pg.transform.scale(image, (128 * self.scale, 64 * self.scale))
        self.screen.fill((40, 40, 40))
        self.screen.blit(image, (BORDER, BORDER))

    def _draw_status(self):
        pg = self.pg
        top = 64 * self.scale + 2 * BORDER
        area = pg.Rect(0, top, self.screen.get_width(), STATUS_H)
        self.screen.fill((40, 40, 40), area)
        parts = ["%.1f s" % (self.board.now_ms() / 1000)]
        if self.session.sound.active:
            parts.append("\u266a")
        if self._stick != "center":
            parts.append("stick " + self._stick)
        parts.extend(sorted(self._button_keys))
        if self.replay is not None:
            parts.append("REPLAY")
        if self.session.recorder is not None:
            parts.append("REC")
        if self._pacer.behind:
            parts.append("(slower than the board)")
        message = self.current_message()
        if message is not None:
            parts.append(message)
        colour = (220, 220, 220)
        self.screen.blit(self.font.render("   ".join(parts), True, colour), (BORDER, top + 2))
        self.screen.blit(self.font.render(LEGEND, True, (150, 150, 150)), (BORDER, top + 22))

    # ---- after the firmware stopped -------------------------------------------------------
    def wait_for_quit(self, note):
        """The program ended by itself: keep the last picture up until q or the window closes."""
        self._sound.silence()
        self.say(note + " -- press q to leave", seconds=1e9)
        pg = self.pg
        while True:
            self.draw(force=True)
            for event in pg.event.get():
                if event.type == pg.QUIT:
                    return
                if event.type == pg.KEYDOWN:
                    name = pg.key.name(event.key)
                    if name in ("q", "escape"):
                        return
                    if name == keymap.SCREENSHOT_KEY:
                        self.screenshot()
            time.sleep(0.05)

    def close(self):
        self._sound.silence()
        self.pg.quit()


class _Speaker:
    """The emulated speaker on the sound card: the PWM's square wave at its
    frequency (louder with more duty), and a short click for each DAC step."""

    def __init__(self, pygame):
        self.pg = pygame
        self.ok = False
        self.error = ""
        self._tones = {}
        self._tone = None
        self._clicks = 0
        self._channel = None
        try:
            with quiet_stderr():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            self.ok = pygame.mixer.get_init() is not None
            self._click = self._samples([12000] * (RATE * CLICK_MS // 1000))
        except pygame.error as exc:
            self.error = str(exc)

    def _samples(self, values):
        return self.pg.mixer.Sound(buffer=array.array("h", values).tobytes())

    def _square(self, freq, duty):
        key = (freq, duty)
        sound = self._tones.get(key)
        if sound is None:
            # one period, looped: a square wave whose loudness follows the duty
            # (the firmware's volume levels are duty levels, 50 % the loudest)
            amplitude = int(9000 * min(duty, 32768) / 32768)
            period = max(2, RATE // max(1, freq))
            half = period // 2
            sound = self._samples([amplitude] * half + [-amplitude] * (period - half))
            self._tones[key] = sound
        return sound

    def follow(self, monitor):
        if not self.ok:
            return
        if monitor.tone != self._tone:
            self._tone = monitor.tone
            if self._channel is not None:
                self._channel.stop()
                self._channel = None
            if monitor.tone is not None:
                self._channel = self._square(*monitor.tone).play(loops=-1)
        if monitor.clicks != self._clicks:
            self._clicks = monitor.clicks
            if monitor.tone is None:
                self._click.play()

    def silence(self):
        if self.ok:
            self.pg.mixer.stop()
        self._tone = None
        self._channel = None
