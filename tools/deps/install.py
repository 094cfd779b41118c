"""Set up everything the host tools need, once: `make deps` runs this.

Each step leaves a stamp only after it has fully succeeded, so an interrupted
or failed run is redone from scratch next time instead of being trusted. A
second run with nothing changed does no work. Every failure ends with one line
saying what is missing and how to get it.

Steps:
  1. .venv with the pinned Python tools (tools/deps/requirements.txt) and the
     ESP32 stubs in .venv/mpstubs (tools/deps/stubs.txt), pyright's own files;
  2. tools/node_modules: MicroPython for WebAssembly, pinned by the lockfile;
  3. lib/ssd1306.py from the micropython-ssd1306 release on PyPI (an archive pip
     cannot install), checked against a pinned sha256;
  4. tools/emu/mp/font8x8.bin: the 8x8 font read out of the real MicroPython.
"""
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, ".venv")
VENV_PY = os.path.join(VENV, "bin", "python")
STUBS = os.path.join(VENV, "mpstubs")
NODE_DIR = os.path.join(ROOT, "tools")  # package.json + lockfile; node_modules serves every tools/ script
DRIVER = os.path.join(ROOT, "lib", "ssd1306.py")
FONT = os.path.join(ROOT, "tools", "emu", "mp", "font8x8.bin")
FONT_SCRIPT = os.path.join(ROOT, "tools", "emu", "extract_font.mjs")

# micropython-ssd1306 0.3 is a bare source archive; these are its published
# sha256 and that of the ssd1306.py inside it.
DRIVER_PACKAGE = "micropython-ssd1306"
DRIVER_ARCHIVE = "micropython-ssd1306-0.3.tar.gz"
DRIVER_ARCHIVE_SHA256 = "d00cae1ff680e6ae504e258e700f002874b0d924b1a604253b6ea63144b58289"
DRIVER_FILE_SHA256 = "fcdaff406b4c5cc56bc99a5cb1e85d58be2108b43d1bb50c432062323a48edb7"

MIN_PYTHON = (3, 10)
MIN_NODE = 20    # the browser tests' playwright-core (tools/web) needs Node 20


class SetupError(Exception):
    """One line for the user: what is missing and how to get it."""


def say(msg):
    print("deps: " + msg, flush=True)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def sha256_files(*paths):
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def read_stamp(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def write_stamp(path, value):
    with open(path, "w") as f:
        f.write(value + "\n")


def run(cmd, what, hint, cwd=None):
    """Run a command quietly; on failure show its tail and raise one clear line."""
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.strip().splitlines()[-8:])
        if tail:
            print(tail, file=sys.stderr)
        raise SetupError("%s failed: %s" % (what, hint))
    return proc.stdout


def check_prerequisites():
    if sys.version_info < MIN_PYTHON:
        raise SetupError("Python %d.%d+ is needed, this is %s: install a newer python3 (python.org or your package manager)"
                         % (MIN_PYTHON + (sys.version.split()[0],)))
    node = shutil.which("node")
    if not node:
        raise SetupError("Node.js %d+ is needed and `node` is not on PATH: install it (nodejs.org or your package manager)" % MIN_NODE)
    version = subprocess.run([node, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    match = re.match(r"v(\d+)", version)
    if not match or int(match.group(1)) < MIN_NODE:
        raise SetupError("Node.js %d+ is needed, found %s: install a newer one (nodejs.org)" % (MIN_NODE, version or "an unknown version"))
    if not shutil.which("npm"):
        raise SetupError("npm is needed (it comes with Node.js) and is not on PATH: reinstall Node.js with npm")


def python_tools():
    requirements = os.path.join(ROOT, "tools", "deps", "requirements.txt")
    stubs = os.path.join(ROOT, "tools", "deps", "stubs.txt")
    stamp = os.path.join(VENV, ".ml4m-installed")
    wanted = sha256_files(requirements, stubs)
    if read_stamp(stamp) == wanted and os.path.exists(VENV_PY):
        return
    say("creating .venv with the pinned Python tools")
    shutil.rmtree(VENV, ignore_errors=True)  # never build on a half-made venv
    run([sys.executable, "-m", "venv", VENV], "creating the virtual environment",
        "install Python's venv module (on Debian/Ubuntu: apt install python3-venv)")
    pip = [VENV_PY, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    offline_hint = "cannot install from PyPI: check the network connection to the package registry (or a proxy setting)"
    run(pip + ["-r", requirements], "installing the Python tools", offline_hint)
    run(pip + ["--no-deps", "--target", STUBS, "-r", stubs], "installing the ESP32 stubs", offline_hint)
    # pyright's wrapper fetches the pyright package it pins on first use: do it now.
    run([os.path.join(VENV, "bin", "pyright"), "--version"], "fetching pyright",
        "cannot reach the npm registry: check the network connection")
    write_stamp(stamp, wanted)


def window_tools():
    """pygame for `tools/sim.py --window` (make sim-window only)."""
    requirements = os.path.join(ROOT, "tools", "deps", "requirements-window.txt")
    stamp = os.path.join(VENV, ".ml4m-window-installed")   # goes with the venv
    wanted = sha256_files(requirements)
    if read_stamp(stamp) == wanted:
        return
    say("installing pygame for the simulator's window mode")
    run([VENV_PY, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-r", requirements],
        "installing pygame", "cannot install it from PyPI: check the network connection, "
        "or play in the terminal with `make sim`")
    write_stamp(stamp, wanted)


def node_tools():
    lock = os.path.join(NODE_DIR, "package-lock.json")
    stamp = os.path.join(NODE_DIR, "node_modules", ".ml4m-installed")
    wanted = sha256_file(lock)
    if read_stamp(stamp) == wanted:
        return
    say("installing MicroPython for WebAssembly (npm ci)")
    shutil.rmtree(os.path.join(NODE_DIR, "node_modules"), ignore_errors=True)
    run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], "npm ci in tools/",
        "cannot install from the npm registry: check the network connection", cwd=NODE_DIR)
    write_stamp(stamp, wanted)


def index_url():
    """The package index pip is configured to use (PyPI unless the user set another)."""
    try:
        out = subprocess.run([VENV_PY, "-m", "pip", "config", "get", "global.index-url"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip().rstrip("/")
    except OSError:
        pass
    # pip's own idea of the default index
    out = subprocess.run([VENV_PY, "-c", "from pip._internal.models.index import PyPI; print(PyPI.simple_url)"],
                         stdout=subprocess.PIPE, text=True)
    return out.stdout.strip().rstrip("/")


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.read()
    except OSError as e:
        raise SetupError("cannot download %s from the package registry (%s): check the network connection"
                         % (DRIVER_PACKAGE, getattr(e, "reason", e)))


def display_driver():
    if os.path.exists(DRIVER) and sha256_file(DRIVER) == DRIVER_FILE_SHA256:
        return
    say("fetching lib/ssd1306.py from the %s release" % DRIVER_PACKAGE)
    base = index_url()
    page = fetch("%s/%s/" % (base, DRIVER_PACKAGE)).decode("utf-8", "replace")
    links = re.findall(r'href="([^"]*%s[^"]*)"' % re.escape(DRIVER_ARCHIVE), page)
    if not links:
        raise SetupError("%s is not on the package index %s: check the pinned release name" % (DRIVER_ARCHIVE, base))
    link = urllib.request.urljoin(base + "/" + DRIVER_PACKAGE + "/", links[0].split("#")[0])
    archive = fetch(link)
    got = hashlib.sha256(archive).hexdigest()
    if got != DRIVER_ARCHIVE_SHA256:
        raise SetupError("%s has sha256 %s, expected %s: refusing to use it (a changed or corrupted download)"
                         % (DRIVER_ARCHIVE, got, DRIVER_ARCHIVE_SHA256))
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        member = next((m for m in tar.getmembers() if m.isfile() and m.name.endswith("/ssd1306.py")), None)
        if member is None:
            raise SetupError("%s holds no ssd1306.py" % DRIVER_ARCHIVE)
        source = tar.extractfile(member).read()
    if hashlib.sha256(source).hexdigest() != DRIVER_FILE_SHA256:
        raise SetupError("ssd1306.py inside %s differs from the pinned one: refusing to use it" % DRIVER_ARCHIVE)
    os.makedirs(os.path.dirname(DRIVER), exist_ok=True)
    with open(DRIVER + ".part", "wb") as f:
        f.write(source)
    os.replace(DRIVER + ".part", DRIVER)  # appears whole or not at all


def font():
    if os.path.exists(FONT) or not os.path.exists(FONT_SCRIPT):
        return
    say("reading the 8x8 font out of MicroPython")
    run(["node", FONT_SCRIPT], "extracting the font", "see the message above")


def main(argv=()):
    try:
        check_prerequisites()
        python_tools()
        node_tools()
        display_driver()
        font()
        if "--window" in argv:
            window_tools()
    except SetupError as e:
        say(str(e))
        return 1
    except KeyboardInterrupt:
        say("interrupted; the next `make deps` redoes the unfinished step")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
