"""Test helpers for the simulator: run tools/sim.py on a pseudo-terminal, and a small
model of the terminal screen that reads back the panel the simulator drew.

The screen model understands what the simulator writes (cursor moves, SGR colours,
erase, the private modes for the alternate screen, autowrap and the cursor); it is
not a general VT100.
"""
import codecs
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim.py")
HALF = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}
_BRAILLE_BIT = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
_CSI = re.compile(r"\x1b\[([?]?)([0-9;]*)([@-~])")
_PARTIAL = re.compile(r"\x1b(\[[?]?[0-9;]*)?$")


class Screen:
    def __init__(self, columns, rows):
        self.columns = columns
        self.rows = rows
        self.grid = [[" "] * columns for _ in range(rows)]
        self.row = 0
        self.col = 0
        self.alternate = False
        self.cursor_visible = True
        self.bells = 0
        self.raw = ""
        self._pending = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")()

    def feed(self, data):
        text = self._pending + self._decoder.decode(data)
        self._pending = ""
        self.raw += text
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == "\x1b":
                m = _CSI.match(text, i)
                if m is None:
                    if _PARTIAL.match(text, i):
                        self._pending = text[i:]      # a sequence cut in two by a read
                        return
                    i += 1
                    continue
                self._csi(m.group(1), m.group(2), m.group(3))
                i = m.end()
                continue
            if ch == "\a":
                self.bells += 1
            elif ch == "\r":
                self.col = 0
            elif ch == "\n":
                self.row = min(self.rows - 1, self.row + 1)
            elif ch >= " ":
                if self.row < self.rows and self.col < self.columns:
                    self.grid[self.row][self.col] = ch
                self.col += 1
            i += 1

    def _csi(self, private, params, final):
        numbers = [int(p) if p else 0 for p in params.split(";")] if params else []
        if private == "?" and final in "hl":
            on = final == "h"
            for mode in numbers:
                if mode == 1049:
                    self.alternate = on
                    self.grid = [[" "] * self.columns for _ in range(self.rows)]
                elif mode == 25:
                    self.cursor_visible = on
        elif final == "H":
            row = numbers[0] if numbers else 1
            col = numbers[1] if len(numbers) > 1 else 1
            self.row, self.col = max(0, row - 1), max(0, col - 1)
        elif final == "J" and (numbers or [0])[0] == 2:
            self.grid = [[" "] * self.columns for _ in range(self.rows)]

    def lines(self):
        return ["".join(row) for row in self.grid]

    def text(self):
        return "\n".join(self.lines())

    def panel(self):
        """The pixels (64 rows of 128) read back from the framed panel, or None."""
        lines = self.lines()
        for top, line in enumerate(lines):
            left = line.find("\u250c")
            if left < 0:
                continue
            right = line.find("\u2510", left)
            if right < 0:
                continue
            body = []
            for below in lines[top + 1:]:
                if below[left] == "\u2514":
                    break
                body.append(below[left + 1:right])
            else:
                return None
            return decode_panel(body)
        return None


def decode_panel(body):
    width = len(body[0]) if body else 0
    if len(body) == 16 and width == 64:             # braille
        pixels = [[0] * 128 for _ in range(64)]
        for cy, line in enumerate(body):
            for cx, ch in enumerate(line):
                bits = ord(ch) - 0x2800 if ch != " " else 0
                for dy in range(4):
                    for dx in range(2):
                        if bits & _BRAILLE_BIT[dy][dx]:
                            pixels[cy * 4 + dy][cx * 2 + dx] = 1
        return pixels
    scale = width // 128
    if scale < 1 or len(body) != 32 * scale:
        return None
    rows = []
    for line in body:
        upper = [HALF.get(ch, (0, 0))[0] for ch in line[::scale]]
        lower = [HALF.get(ch, (0, 0))[1] for ch in line[::scale]]
        rows.append(upper)
        rows.append(lower)
    return rows[::scale]


LIMIT_S = 120.0    # seconds: a hang, not a slow machine


class PtySim:
    """tools/sim.py running on a pseudo-terminal of a given size."""

    def __init__(self, args, columns=140, rows=40, sigint=signal.SIG_DFL):
        """sigint: how the simulator finds Ctrl-C's signal when it starts. Set
        here, not inherited from pytest: a test run started with SIGINT ignored
        (a non-interactive shell's `make test &`) passes that on to its
        children, and the Ctrl-C test then depended on how it was started."""
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.termios_before = termios.tcgetattr(self.slave)
        self.screen = Screen(columns, rows)
        env = dict(os.environ, TERM="xterm", LANG="C.UTF-8")
        slave = self.slave

        def controlling_tty():
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            signal.signal(signal.SIGINT, sigint)

        self.proc = subprocess.Popen([sys.executable, SIM] + list(args), cwd=ROOT,
                                     stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True, preexec_fn=controlling_tty,
                                     close_fds=True)

    def pump(self, seconds=0.05):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:          # EIO: the child closed the terminal
                return
            if not data:
                return
            self.screen.feed(data)

    # The time limits below only stop a hung simulator; they are not a speed
    # test. 10 s was missed on a loaded machine (five test runs on two cores:
    # the Ctrl-C test failed 3 of 7 full runs while the simulator was merely
    # waiting for a core), so they are generous.
    def wait_for(self, predicate, timeout=LIMIT_S, what="the screen"):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            if predicate(self.screen):
                return
            if self.proc.poll() is not None:
                self.pump(0.1)
                if predicate(self.screen):
                    return
                break
        raise AssertionError("timed out waiting for %s; screen:\n%s\nraw tail: %r"
                             % (what, self.screen.text(), self.screen.raw[-2000:]))

    def send(self, keys):
        os.write(self.master, keys.encode() if isinstance(keys, str) else keys)

    def wait_exit(self, timeout=LIMIT_S):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            if self.proc.poll() is not None:
                self.pump(0.2)
                return self.proc.returncode
        self.kill()
        raise AssertionError("the simulator did not exit; raw tail: %r" % self.screen.raw[-2000:])

    def kill(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def close(self):
        self.kill()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
