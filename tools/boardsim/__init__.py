"""A MicroPython board on a pseudo-terminal, for the host tools' tests (no hardware).

    with BoardSim() as sim:            # starts Node + board.mjs, opens a pty
        sim.port                       # e.g. "/dev/pts/7": give it to mpremote / deploy.py
        sim.files()                    # {"/boot.py": b"...", ...}: the board's flash
        sim.put("/data/puzzle.json", b"{}")
        sim.quota(4096)                # flash of 4 KB: writes past it fail with ENOSPC
        sim.fake(name="micropython", version=(1, 21, 0), mpy=0x106)   # from the next reset
        sim.mute()                     # the board stops answering
        sim.events()                   # ["soft reboot (raw REPL)", ...]

The board itself is the MicroPython WebAssembly port driven through its REPL
(tools/boardsim/board.mjs says where it acts like a real board where the port does not).
This module owns the pseudo-terminal: a thread copies bytes from the pty master to
Node's stdin and another from Node's stdout back to the master, so the slave side is
a serial port like /dev/ttyUSB0. A control pipe beside the serial line lets a test read
and change the flash without going through the REPL.

`python -m tools.boardsim` runs one until Ctrl-C, for trying `make deploy PORT=...` by hand.
"""
import base64
import json
import os
import shutil
import subprocess
import threading
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "board.mjs")


class BoardSimError(Exception):
    pass


def node_available():
    return shutil.which("node") is not None


class BoardSim:
    def __init__(self, heap=131072):
        self.heap = heap
        self.proc = None
        self.master = self._slave = None
        self.port = None
        self._threads = []
        self._ctl_lock = threading.Lock()

    # --- life cycle ---

    def start(self):
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no newline translation: a plain serial line
        self.port = os.ttyname(self._slave)
        ctl_in_r, self._ctl_w = os.pipe()
        self._ctl_r, ctl_out_w = os.pipe()
        self.proc = subprocess.Popen(
            ["node", SCRIPT, "--heap", str(self.heap),
             "--ctl-in", str(ctl_in_r), "--ctl-out", str(ctl_out_w)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            pass_fds=(ctl_in_r, ctl_out_w), bufsize=0)
        os.close(ctl_in_r)
        os.close(ctl_out_w)
        self._ctl_reader = os.fdopen(self._ctl_r, "rb", buffering=0)
        for target in (self._host_to_board, self._board_to_host):
            t = threading.Thread(target=target, daemon=True)
            t.start()
            self._threads.append(t)
        self._control({"op": "events"})  # waits until the board has booted
        return self

    def close(self):
        if self.proc is None:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._ctl_w, self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._ctl_reader.close()
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # --- the serial line ---

    def _host_to_board(self):
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if not data:
                return
            try:
                self.proc.stdin.write(data)
            except (OSError, ValueError, AttributeError):
                return

    def _board_to_host(self):
        out = self.proc.stdout
        while True:
            data = out.read1(4096) if hasattr(out, "read1") else os.read(out.fileno(), 4096)
            if not data:
                return
            try:
                os.write(self.master, data)
            except OSError:
                return

    # --- control channel ---

    def _control(self, request):
        with self._ctl_lock:
            os.write(self._ctl_w, (json.dumps(request) + "\n").encode())
            line = b""
            while not line.endswith(b"\n"):
                chunk = self._ctl_reader.read(1)
                if not chunk:
                    raise BoardSimError("the simulated board stopped")
                line += chunk
        reply = json.loads(line)
        if not reply.pop("ok"):
            raise BoardSimError(reply["error"])
        return reply

    def files(self):
        """The board's flash: {path: bytes} (folders are in dirs())."""
        reply = self._control({"op": "files"})
        return {p: base64.b64decode(d) for p, d in reply["files"].items()}

    def dirs(self):
        return self._control({"op": "files"})["dirs"]

    def put(self, path, data):
        self._control({"op": "put", "path": path, "data": base64.b64encode(data).decode()})

    def quota(self, size):
        """Limit the flash to `size` bytes (None: no limit); returns the bytes now used."""
        return self._control({"op": "quota", "bytes": size})["used"]

    def fake(self, name="micropython", version=(1, 27, 0), mpy=None, platform="esp32"):
        """Make sys.implementation report another system, now and after every soft reset."""
        self._control({"op": "fake", "impl": {"name": name, "version": list(version),
                                              "mpy": mpy, "platform": platform}})

    def mute(self, on=True):
        self._control({"op": "mute", "on": on})

    def events(self):
        return self._control({"op": "events"})["events"]
