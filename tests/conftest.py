"""pytest setup: the emulated ML4M stands in for the real board (tools/emu).

How the suite stays fast (`make test`: ~100 s of CPU time in all, spread over the
cores; README, "Play it, test it"). A new test gets all of this by itself, or by
using the fixtures here:

- Every core: `make pytest` runs `pytest -n auto` (pytest-xdist) while `make test`
  runs the MicroPython rule tests and pyright beside it. Tests run in any order, on
  two or more worker processes at once: a test must not depend on another having
  run, and writes only in its own folders (`tmp_path`, `store_dir`), never in a
  shared one (build/, the repository). One file alone: plain `pytest tests/x.py`.
- Tests that share a costly fixture run on one worker, so it is made once: their
  files are in ONE_WORKER below (the browser tests). A new file of browser tests
  goes there too. Every other test is handed out on its own. (xdist's own
  `xdist_group` mark does nothing under pytest 9: see the scheduler below.)
- Tests marked `@pytest.mark.long` are handed out first, so that no long test is
  left for the end while the other worker has nothing to do. Mark a test that
  takes more than ~1 s of CPU (or several seconds of waiting on a subprocess).
- Compiled code is shared: the firmware forgets a game's modules when it closes
  and imports them again next time (firmware/modules.py), thousands of times in a
  run; each source text is compiled once per worker (_cached_source_to_code
  below), whether or not Python may write __pycache__ (PYTHONDONTWRITEBYTECODE).
- gc.collect() is cheap: the firmware calls it, as the board must, at every boot
  and every game opened or left, and in a test process a full collection walks
  pytest's own ~40,000 objects (~50 ms each time: 2/3 of the CPU time of the tests
  that boot the app). They are frozen (gc.freeze) after collection and again every
  REFREEZE_EVERY tests, so a collection walks only what the tests made since. (The
  random-play test's object count sees only those too: a planted leak of one
  object per menu frame shows as 2.3x growth; unfrozen, 1.14x in a run of that
  file alone, and less in a whole run.)
- The browser: the `chromium` fixture builds the site (tools/web/build.py),
  serves it and starts headless Chromium once per worker, and runs one check of
  tools/web/test/browser.mjs per call, each in a fresh browser context (empty
  storage, as a first visit). Add a check there, and a test that calls
  `chromium.run("name", **spec)` (tests/test_web.py).
- Booting the app on the emulated board costs a few ms of CPU with the above, so
  each test boots its own (tests/test_app.py's boot()) from an empty flash: no
  booted state is shared between tests, and none needs to be.

Long runs (100,000 random inputs, MicroPython's heap at the ESP32's addresses)
are in `make soak`, not here.
"""
import gc
import importlib.machinery
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()

import pytest  # noqa: E402

# Files whose tests share a session or module fixture that costs seconds: each
# runs whole on one worker (test_web.py: the site and Chromium; the parity test:
# its MicroPython run).
ONE_WORKER = {"test_web.py", "test_framebuf_parity.py"}
REFREEZE_EVERY = 50


def pytest_configure(config):
    config.addinivalue_line("markers", "long: takes seconds; handed out first (tests/conftest.py)")


def pytest_collection_modifyitems(config, items):
    """Long tests first (a stable sort: the same order on every worker)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.hookimpl(optionalhook=True)      # pytest without xdist does not know the hook
def pytest_xdist_make_scheduler(config, log):
    """xdist's own grouping (--dist loadgroup) does not group under pytest 9
    (it renames items in a way pytest 9 ignores): this scheduler hands out each
    test alone, except the files in ONE_WORKER, each handed out whole. The
    biggest of those go first (xdist orders the units by their size)."""
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            path = nodeid.split("::", 1)[0]
            return path if os.path.basename(path) in ONE_WORKER else nodeid

    return Scheduling(config, log)


# ---- shared compiled code ----------------------------------------------------
_compiled = {}
_source_to_code = importlib.machinery.SourceFileLoader.source_to_code


def _cached_source_to_code(self, data, path, *args, **kwargs):
    """The code of a source text compiled before (same path, same bytes), or
    compiled now: exact, whatever the file's time stamp says."""
    key = (path, bytes(data))
    code = _compiled.get(key)
    if code is None:
        code = _compiled[key] = _source_to_code(self, data, path, *args, **kwargs)
    return code


importlib.machinery.SourceFileLoader.source_to_code = _cached_source_to_code


# ---- cheap gc.collect() ------------------------------------------------------
_tests_run = 0


def _freeze():
    gc.collect()
    gc.freeze()


def pytest_collection_finish(session):
    _freeze()


def pytest_runtest_teardown(item, nextitem):
    global _tests_run
    _tests_run += 1
    if _tests_run % REFREEZE_EVERY == 0:
        _freeze()


# ---- the emulated board -----------------------------------------------------
@pytest.fixture
def board():
    """A fresh ML4M, made current: machine.* objects created afterwards bind to it."""
    return tools.emu.Board()


@pytest.fixture
def store_dir(tmp_path):
    """An empty folder standing in for the board's flash filesystem."""
    return tmp_path


# ---- each test starts with the firmware its file imported -----------------------------
# A launch is a soft reset (tools/emu/runner.py): the firmware's modules are
# forgotten and imported afresh, as on the board. A test file's own
# `from firmware... import X`, made when it was collected, would then name
# another copy than the one an app of a later test runs. So each test starts
# with the modules as they were after collection.
_IMPORTED = {}


def _firmware(name):
    return name == "firmware" or name.startswith("firmware.")


def pytest_collection_finish(session):
    _IMPORTED.update((n, m) for n, m in sys.modules.items() if _firmware(n))


@pytest.fixture(autouse=True)
def firmware_as_imported():
    for name in [n for n in sys.modules if _firmware(n)]:
        del sys.modules[name]
    sys.modules.update(_IMPORTED)
    for module in _IMPORTED.values():   # a package's attribute naming a later copy
        for attr, value in list(vars(module).items()):
            if (type(value) is type(sys) and _firmware(value.__name__)
                    and _IMPORTED.get(value.__name__) is not value):
                delattr(module, attr)
    yield


# ---- the browser arcade in headless Chromium --------------------------------
CHROMIUM = os.environ.get("ML4M_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
WEB = os.path.join(ROOT, "tools", "web")
CHECK_LIMIT_S = 180     # one check's answer: a hang, not a slow machine


class Chromium:
    """tools/web/test/browser.mjs --serve: Chromium kept open, one check per run()."""

    def __init__(self, url, folder):
        path = os.path.join(folder, "spec.json")
        with open(path, "w") as f:
            json.dump({"url": url, "chromium": CHROMIUM}, f)
        self.log = open(os.path.join(folder, "browser.log"), "w+")
        self.proc = subprocess.Popen(["node", os.path.join(WEB, "test", "browser.mjs"), "--serve", path],
                                     cwd=WEB, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, start_new_session=True)
        self.pending = b""

    def run(self, check, **spec):
        """The result of browser.mjs's check named check (a dict with "ok" and
        its figures); spec: what the check reads from its spec (pictures...)."""
        if self.proc.poll() is not None:
            raise AssertionError("browser.mjs has stopped (exit %s): %s" % (self.proc.returncode, self._log_tail()))
        self.proc.stdin.write((json.dumps({"check": check, "spec": spec}) + "\n").encode())
        self.proc.stdin.flush()
        line = self._answer(time.monotonic() + CHECK_LIMIT_S)
        if line is None:
            tail = self._log_tail()
            self.stop()
            raise AssertionError("browser.mjs gave no answer for %r in %d s: %s" % (check, CHECK_LIMIT_S, tail))
        return json.loads(line)

    def _answer(self, deadline):
        """One line from browser.mjs, or None if it ended or the deadline passed."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode()

    def _log_tail(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()[-3000:] or "(nothing on its stderr)"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()            # browser.mjs closes Chromium and ends
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:    # hung: it and its Chromium go
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


class WebSite:
    """The built site being served: url (ends in /) and folder."""

    def __init__(self, url, folder):
        self.url = url
        self.folder = folder

    def put(self, name, text):
        """A file served beside the site (a game a ?game= link loads): name's URL
        is url + name."""
        with open(os.path.join(self.folder, name), "w") as f:
            f.write(text)


@pytest.fixture(scope="session")
def web_site(tmp_path_factory):
    """The browser arcade built (tools/web/build.py) and served on a free port, once
    per worker: a WebSite."""
    site = str(tmp_path_factory.mktemp("web") / "site")
    subprocess.run([sys.executable, os.path.join(WEB, "build.py"), "--out", site], check=True)
    server = subprocess.Popen([sys.executable, os.path.join(WEB, "serve.py"), "--port", "0", "--dir", site],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"localhost:(\d+)", server.stdout.readline()).group(1))
        yield WebSite("http://127.0.0.1:%d/" % port, site)
    finally:
        server.terminate()
        server.wait()


@pytest.fixture(scope="session")
def chromium(web_site, tmp_path_factory):
    """Headless Chromium on the built site, started once per worker:
    chromium.run(check, spec) runs one check of tools/web/test/browser.mjs."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("the browser tests need Chromium: sudo apt-get install chromium "
                    "(or set ML4M_CHROMIUM to a Chromium binary)")
    browser = Chromium(web_site.url, str(tmp_path_factory.mktemp("chromium")))
    try:
        yield browser
    finally:
        browser.stop()
