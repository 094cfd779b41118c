"""The terminal: keys without echo, the alternate screen, and putting it all back.

Plain ANSI/VT100 sequences only (works over SSH, in any xterm-like terminal; no
curses). Ctrl-C keeps raising KeyboardInterrupt (ISIG stays on), so it stops the
simulator even while the firmware computes. It does so even when the simulator
was started with SIGINT ignored (a non-interactive shell's `cmd &`, some test
runners): Python would then leave Ctrl-C ignored and the simulator deaf to it.
Ctrl-Z is disabled because a stopped simulator would leave the shell in our
screen mode. `restore()` runs on every exit path: normal return, exception,
Ctrl-C, SIGTERM, SIGHUP.
"""
import os
import select
import signal
import termios

ENTER = "\x1b[?1049h\x1b[?7l\x1b[?25l\x1b[2J"     # alternate screen, no autowrap, hide cursor
LEAVE = "\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l"     # colours off, autowrap, show cursor, main screen


class Terminal:
    def __init__(self, fd_in=0, fd_out=1):
        self.fd_in = fd_in
        self.fd_out = fd_out
        self._saved = None
        self._old_handlers = {}
        self.resized = True

    # ---- set up and restore ---------------------------------------------------------
    def __enter__(self):
        self._saved = termios.tcgetattr(self.fd_in)
        mode = termios.tcgetattr(self.fd_in)
        iflag, oflag, cflag, lflag, ispeed, ospeed, cc = mode
        iflag &= ~(termios.IXON | termios.ICRNL | termios.INLCR | termios.IGNCR | termios.ISTRIP)
        lflag &= ~(termios.ICANON | termios.ECHO | termios.IEXTEN)
        lflag |= termios.ISIG
        cc = list(cc)
        cc[termios.VMIN] = 0
        cc[termios.VTIME] = 0
        cc[termios.VSUSP] = 0            # _POSIX_VDISABLE: Ctrl-Z does nothing
        termios.tcsetattr(self.fd_in, termios.TCSANOW,
                          [iflag, oflag, cflag, lflag, ispeed, ospeed, cc])
        for sig, handler in ((signal.SIGWINCH, self._on_resize), (signal.SIGTERM, _exit_signal),
                             (signal.SIGHUP, _exit_signal),
                             (signal.SIGINT, signal.default_int_handler)):
            self._old_handlers[sig] = signal.signal(sig, handler)
        self.write(ENTER)
        return self

    def __exit__(self, *exc):
        self.restore()
        return False

    def restore(self):
        if self._saved is None:
            return
        for sig, handler in self._old_handlers.items():
            signal.signal(sig, handler)
        self._old_handlers = {}
        try:
            self.write(LEAVE)
        finally:
            termios.tcsetattr(self.fd_in, termios.TCSADRAIN, self._saved)
            self._saved = None

    def _on_resize(self, signum, frame):
        self.resized = True

    # ---- input and output ---------------------------------------------------------------
    def read(self, timeout=0.0):
        """Bytes typed so far (b"" if none within `timeout` seconds)."""
        ready, _, _ = select.select([self.fd_in], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self.fd_in, 1024)
        except (BlockingIOError, InterruptedError):
            return b""

    def write(self, text):
        data = text.encode("utf-8")
        while data:
            try:
                done = os.write(self.fd_out, data)
            except InterruptedError:
                continue
            except BlockingIOError:
                select.select([], [self.fd_out], [], 0.1)
                continue
            data = data[done:]

    def size(self):
        try:
            size = os.get_terminal_size(self.fd_out)
            return size.columns, size.lines
        except OSError:
            return 80, 24


def _exit_signal(signum, frame):
    raise SystemExit(128 + signum)
