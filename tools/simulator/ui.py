"""The terminal front end: pacing, keys, and drawing the panel, status and legend.

It is a tick hook of a Session (see session.py): it never runs on its own thread,
so nothing it does races the firmware.
"""
import time

from tools.simulator import keys as keymap
from tools.simulator import render
from tools.simulator.controls import Controls
from tools.simulator.frontend import FrontEnd, Pacer
from tools.simulator.session import Quit, ReplayFeeder

FRAME_S = 1 / 30          # at most ~30 redraws a second
BELL_GAP_S = 0.15
NOTE = "\u266a"           # the sound cue in the status line
NOTE_S = 0.25             # shown at least this long (wall time), so a click is seen

PANEL_ON = "\x1b[0;97;40m"     # bright pixels on black, whatever the terminal's theme
PANEL_DIM = "\x1b[0;37;40m"    # low contrast (dimmed by the firmware)
FRAME = "\x1b[0;90m"
RESET = "\x1b[0m"


class TerminalFrontEnd(FrontEnd):
    def __init__(self, session, terminal, scale=None, bell=False, realtime=True,
                 replay=None, shots_dir=".", title="ML4M"):
        self.session = session
        self.board = session.board
        self.terminal = terminal
        self.wanted_scale = scale
        self.bell = bell
        self.realtime = realtime
        self.replay = replay                  # a Replay to play, or None: keys drive
        self._feeder = ReplayFeeder(session, replay) if replay is not None else None
        self.shots_dir = shots_dir
        self.title = title
        self.controls = Controls(session.apply)
        self.decoder = keymap.KeyDecoder()
        self.show_legend = True
        self._last_draw = -1.0
        self._last_bell = -1.0
        self._note_until = -1.0
        self._last_key = time.monotonic()
        self._pacer = Pacer()
        self._pixels = None
        self._lines = {}                      # (row, column) -> text last written there
        self._body = {}                       # panel row -> its text on the screen
        self._colour = None
        self._layout = None
        self.redraws = 0

    # ---- the tick ---------------------------------------------------------------------
    def __call__(self, now):
        self._pace(now)
        if self._feeder is not None:
            self._feeder(now)
        else:
            self.controls.tick(now)
        self._keys(now)
        self._sound()
        self.draw()

    def _pace(self, now):
        if self.realtime:
            self._pacer(now)

    @property
    def behind(self):
        return self._pacer.behind

    def _keys(self, now):
        data = self.terminal.read(0)
        wall = time.monotonic()
        keys = self.decoder.feed(data) if data else []
        if not data and wall - self._last_key > 0.05:
            keys = self.decoder.flush()
        if data:
            self._last_key = wall
        for key in keys:
            self.command(key, now)

    def command(self, key, now):
        if key in keymap.QUIT_KEYS:
            self.session.quit("quit")
        elif key == keymap.SCREENSHOT_KEY:
            self.screenshot()
        elif key in keymap.LEGEND_KEYS:
            self.show_legend = not self.show_legend
            self.terminal.resized = True      # the panel may grow into the legend's room
        elif self.replay is None:
            self.controls.key(key, now)

    def _sound(self):
        sound = self.session.sound
        if sound.active:
            self._note_until = time.monotonic() + NOTE_S
        if sound.started:
            self._last_draw = -1.0        # show the note in this tick's draw
        if self.bell and sound.started:
            wall = time.monotonic()
            if wall - self._last_bell >= BELL_GAP_S:
                self._last_bell = wall
                self.terminal.write("\a")

    # ---- drawing --------------------------------------------------------------------------
    def draw(self, force=False):
        wall = time.monotonic()
        if not force and wall - self._last_draw < FRAME_S:
            return
        self._last_draw = wall
        if self.terminal.resized:
            self.terminal.resized = False
            columns, rows = self.terminal.size()
            spare = 0 if self.show_legend else render.FOOTER_ROWS - 1
            scale = render.choose_scale(columns, rows + spare, self.wanted_scale)
            self._layout = render.Layout(columns, rows, scale)
            self._lines = {}
            self._body = {}
            self._pixels = None
            self.terminal.write("\x1b[0m\x1b[2J")
        layout = self._layout
        pixels = self.board.panel.pixels()
        out = []
        if not layout.fits:
            # said where the panel would be: the status line may be off-screen
            for i, line in enumerate(layout.too_small()):
                self._put(out, i, 0, render.clip(line, layout.columns))
        elif pixels != self._pixels or self._panel_colour() != self._colour:
            # (the firmware dims the panel without changing a pixel: that shows too)
            self._pixels = pixels
            self._panel_lines(layout, pixels, out)
        self._footer(layout, out)
        if out:
            self.redraws += 1
            self.terminal.write("".join(out))

    def _put(self, out, row, column, text):
        """Queue `text` at a 0-based screen position if that row changed."""
        if row >= self._layout.rows:
            return
        key = (row, column)
        if self._lines.get(key) == text:
            return
        self._lines[key] = text
        out.append("\x1b[%d;%dH%s" % (row + 1, column + 1, text))

    def _panel_colour(self):
        return PANEL_DIM if self.board.panel.contrast < 0x20 else PANEL_ON

    def _panel_lines(self, layout, pixels, out):
        border = layout.border
        width = layout.columns - layout.left - 2 * border
        body = [render.clip(line, width) for line in render.render_panel(pixels, layout.scale)]
        colour = self._panel_colour()
        if colour != self._colour:
            self._colour = colour
            self._body = {}
        inner = len(body[0]) if body else 0
        side = "\u2502" if border else ""
        if border:
            self._put(out, layout.top, layout.left,
                      FRAME + "\u250c" + "\u2500" * inner + "\u2510" + RESET)
        for i, line in enumerate(body):
            row = layout.top + border + i
            if row >= layout.rows:
                break
            old = self._body.get(i)
            self._body[i] = line
            if old == line:
                continue
            if old is None or len(old) != len(line):
                out.append("\x1b[%d;%dH%s%s%s%s%s%s%s" % (
                    row + 1, layout.left + 1, FRAME, side, colour, line, FRAME, side, RESET))
                continue
            # Only the changed stretch of the row: a moving cursor or one tile
            # costs a few bytes, which matters over a slow SSH link.
            start = 0
            while old[start] == line[start]:
                start += 1
            end = len(line) - 1
            while old[end] == line[end]:
                end -= 1
            out.append("\x1b[%d;%dH%s%s%s" % (row + 1, layout.left + 1 + border + start, colour,
                                              line[start:end + 1], RESET))
        if border:
            self._put(out, layout.top + 1 + len(body), layout.left,
                      FRAME + "\u2514" + "\u2500" * inner + "\u2518" + RESET)

    def _footer(self, layout, out):
        width = layout.columns
        status = self.status()
        self._put(out, layout.status_row, 0, render.clip(status, width - 1).ljust(width - 1))
        lines = keymap.LEGEND if self.show_legend else ()
        for i in range(layout.legend_rows):
            text = lines[i] if i < len(lines) else ""
            self._put(out, layout.status_row + 1 + i, 0,
                      "\x1b[2m" + render.clip(text, width - 1).ljust(width - 1) + RESET)

    def status(self):
        seconds = self.board.now_ms() / 1000
        parts = [" %s %7.1fs" % (self.title, seconds),
                 NOTE if time.monotonic() < self._note_until else " ", keymap.BUTTON_MAP]
        held = self.controls.describe()
        if held:
            parts.append(held)
        if self.replay is not None:
            parts.append("REPLAY")
        if self.session.recorder is not None:
            parts.append("REC")
        if self._layout is not None and not self._layout.fits:
            parts.append("(enlarge the terminal)")
        if self.behind:
            parts.append("(slower than the board)")
        message = self.current_message()
        if message is not None:
            parts.append(message)
        return "  ".join(parts)

    # ---- after the firmware stopped -------------------------------------------------------
    def wait_for_quit(self, note):
        """The program ended by itself: keep the last picture up until q."""
        self.say(note + " -- press q to leave", seconds=1e9)
        self.draw(force=True)
        while True:
            data = self.terminal.read(0.1)
            for key in self.decoder.feed(data) if data else ():
                if key in keymap.QUIT_KEYS:
                    return
                if key == keymap.SCREENSHOT_KEY:
                    self.screenshot()
            self.draw(force=True)


__all__ = ["TerminalFrontEnd", "Quit"]
