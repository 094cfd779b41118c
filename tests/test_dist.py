"""make dist: the release zip for Thonny users and the mip packages (tools/dist.py),
installed the ways an owner would: unzipped onto a fresh flash and over an old one
that has saves, and with `mpremote mip install` from a package index served on
localhost onto the emulated serial board (tools/boardsim)."""
import contextlib
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import zipfile

import pytest

from tests.test_deploy_board import ROOT, pytestmark, sim  # noqa: F401  (needs node + MicroPython)
from tests.test_games import readme_example
from tools import deploy, dist

MPRUN = os.path.join(ROOT, "tools", "mprun", "run.mjs")


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    """The zip and dist/mip, built once for the module into a folder of its own."""
    out = str(tmp_path_factory.mktemp("dist"))
    return dist.write_zip(out=out), dist.write_mip(out=os.path.join(out, "mip")), out


def variant(zip_path, kind):
    """{board path: bytes} of one variant of the zip ("compiled" or "source")."""
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()
        top = names[0].split("/")[0]
        folder = [n.split("/")[1] for n in names if n.split("/")[1].startswith(kind)][0]
        prefix = top + "/" + folder
        return {n[len(prefix):]: z.read(n) for n in names if n.startswith(prefix + "/") and not n.endswith("/")}


def unpack(files, flash):
    for path, data in files.items():
        dest = os.path.join(flash, path.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(data)


def firmware_sources():
    return sorted(rel for rel in deploy._firmware_files(ROOT) if rel.endswith(".py"))


def test_the_zip_holds_both_variants_and_no_saves(release):
    zip_path = release[0]
    assert os.path.basename(zip_path) == "ml4m-arcade-%s.zip" % dist.version()
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()
        text = z.read(names[0]).decode()
    assert names[0].endswith("/INSTALL.txt") and "Upload to /" in text and "/data" in text
    assert not [n for n in names if "/data/" in n or n.endswith("/data")]
    compiled, source = variant(zip_path, "compiled"), variant(zip_path, "source")
    needs = "%d.%d" % deploy.MPY_RELEASE[deploy.mpy_cross_abi()]
    assert "compiled-for-micropython-%s-or-later/" % needs in "".join(names)
    for files in (compiled, source):
        assert {"/boot.py", "/main.py", "/lib/ssd1306.py"} <= set(files)
        assert files["/main.py"] == open(os.path.join(ROOT, "main.py"), "rb").read()
    for rel in firmware_sources():
        assert source["/" + rel] == open(os.path.join(ROOT, rel), "rb").read()
        assert compiled["/" + rel[:-3] + ".mpy"][:2] == b"M\x06"     # compiled by mpy-cross
    assert not [p for p in compiled if p.startswith("/firmware/") and p.endswith(".py")]
    assert compiled["/firmware/needs.txt"] == (needs + "\n").encode()


BOOT = r"""
import os, sys
root, flash, action = sys.argv[1:4]
sys.path.insert(0, root)
import tools.emu
tools.emu.install()
sys.path.insert(0, flash)          # the unzipped flash: its firmware, not the repository's
os.chdir(flash)
board = tools.emu.Board()
from firmware import app as app_module
assert app_module.__file__.startswith(flash), app_module.__file__
arcade = app_module._power_on(None, "data")

def frames(n):
    for _ in range(n):
        arcade.step()

def tap(button):
    board.press(button); frames(3); board.release(button); frames(3)

frames(60)                                      # the splash, then the menu
labels = arcade.screen.labels
if action == "play":                            # 2048 from the menu, one move, back
    while arcade.screen.labels[arcade.screen.cursor] != "2048":
        board.push("down"); frames(2); board.center(); frames(3)
    tap("A")
    for direction in ("left", "up", "right", "down"):
        board.push(direction); frames(2); board.center(); frames(3)
    tap("B")
    frames(10)
print("MENU", labels)
"""


def boot(flash, action="look"):
    proc = subprocess.run([sys.executable, "-c", BOOT, ROOT, flash, action],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_the_source_variant_boots_on_a_fresh_flash_and_an_update_keeps_the_saves(release, tmp_path):
    flash = str(tmp_path / "flash")
    files = variant(release[0], "source")
    unpack(files, flash)
    out = boot(flash, "play")
    assert "2048" in out
    saved = {name: open(os.path.join(flash, "data", name), "rb").read()
             for name in os.listdir(os.path.join(flash, "data"))}
    assert b"\"score\"" in saved["g2048.json"]               # a game in progress was saved
    unpack(files, flash)                                     # the update, as Thonny uploads it
    for name, data in saved.items():
        assert open(os.path.join(flash, "data", name), "rb").read() == data
    assert "Continue" in boot(flash)


IMPORT_ALL = r"""
import os, sys
names = []
def walk(folder, package):
    for name in sorted(os.listdir(folder)):
        if name.endswith(".mpy"):
            stem = name[:-4]
            names.append(package if stem == "__init__" else package + "." + stem)
        elif "." not in name:
            walk(folder + "/" + name, package + "." + name)
walk("/fw/firmware", "firmware")
for name in names:
    __import__(name)
    module = sys.modules[name]
    assert module.__file__.endswith(".mpy"), module.__file__
print("imported", len(names))
"""


def run_mp(script, tmp_path, *args):
    path = tmp_path / "script.py"
    path.write_text(script)
    return subprocess.run(["node", MPRUN, *args, "--script", str(path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_the_compiled_variant_loads_on_micropython(release, tmp_path):
    flash = str(tmp_path / "flash")
    unpack(variant(release[0], "compiled"), flash)
    proc = run_mp(IMPORT_ALL, tmp_path, "--mpy", flash)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "imported %d" % len(firmware_sources()) in proc.stdout


WRONG_VERSION = r"""
import os
os.mkdir("/firmware")
with open("/firmware/needs.txt", "w") as f:
    f.write("1.99\n")
with open("/firmware/__init__.mpy", "wb") as f:
    f.write(b"M\x05\x00\x1f")                 # an .mpy of another version
import sys
sys.path.insert(0, "/")
for name in [n for n in sys.modules if n.startswith("firmware")]:
    del sys.modules[name]
sys.path.remove("/fw")
exec(MAIN, {"__name__": "__main__"})
print("main.py ended")
"""


def test_a_board_with_another_micropython_is_told_which_it_needs(tmp_path):
    main = open(os.path.join(ROOT, "main.py")).read()
    proc = run_mp("MAIN = %r\n" % main + WRONG_VERSION, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "incompatible .mpy" in out and "compiled for MicroPython 1.99+ and this board runs 1." in out
    assert "install the release's source folder" in out and "main.py ended" in out


def test_the_panel_says_it_too(tmp_path):
    # On the emulated board (CPython cannot load an .mpy, so the firmware package
    # raises the port's own ValueError): the message on the panel, in 16 columns.
    fake = tmp_path / "flash"
    (fake / "firmware").mkdir(parents=True)
    (fake / "firmware" / "__init__.py").write_text("raise ValueError('incompatible .mpy file')\n")
    script = r"""
import sys, os
root, flash, main = sys.argv[1:4]
sys.path.insert(0, root)
import tools.emu
tools.emu.install()
sys.path.insert(0, flash)
board = tools.emu.Board()
exec(open(main).read(), {"__name__": "__main__"})
from tests.panel import shows
print("PANEL", shows(board.panel, "Wrong version"), shows(board.panel, "source folder"))
"""
    proc = subprocess.run([sys.executable, "-c", script, ROOT, str(fake), os.path.join(ROOT, "main.py")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "PANEL True True" in proc.stdout
    assert "compiled for MicroPython another and this board runs" in proc.stdout   # no needs.txt


def test_the_top_level_package_json_lists_the_firmware():
    with open(os.path.join(ROOT, "package.json")) as f:
        text = f.read()
    assert text == dist.package_json_text(dist.package_json()), \
        "package.json is out of date: run .venv/bin/python tools/dist.py --package-json"


@contextlib.contextmanager
def served(folder):
    """folder on http://127.0.0.1:PORT (loopback only), for mip to fetch from."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=folder)
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d" % server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def mip(sim, url, target):
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    proc = subprocess.run([mpremote, "connect", sim.port, "mip", "install", "--target", target, url],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


def test_mip_installs_the_arcade_and_a_game_onto_a_board(release, sim, tmp_path):  # noqa: F811
    zip_path, packages, out = release
    sim.put("/data/records.json", b'{"kept": 1}')
    with served(os.path.join(out, "mip")) as url:
        mip(sim, url + "/ml4m-arcade/package.json", "/")
    files = sim.files()
    compiled = variant(zip_path, "compiled")
    for path, data in compiled.items():
        assert files[path] == data, path
    assert files["/data/records.json"] == b'{"kept": 1}'          # the saves are the player's

    game = tmp_path / "mine" / "dot.py"
    game.parent.mkdir()
    game.write_text(readme_example())
    dist.write_game(str(game), str(tmp_path / "index" / "games" / "dot"))
    with served(str(tmp_path / "index")) as url:
        mip(sim, url + "/games/dot/package.json", "/games")
    assert sim.files()["/games/dot.mpy"][:2] == b"M\x06"


def test_each_built_in_game_is_a_package_of_its_own_files(release):
    packages = {os.path.basename(os.path.dirname(p)): json.load(open(p)) for p in release[1]}
    assert set(packages) == {"ml4m-arcade", "puzzle", "g2048", "reversi"}
    everything = {path for path, _ in packages["ml4m-arcade"]["urls"]}
    for game in ("puzzle", "g2048", "reversi"):
        paths = {path for path, _ in packages[game]["urls"]}
        assert "firmware/screens/%s.mpy" % game in paths and paths <= everything
    assert not ({p for p, _ in packages["puzzle"]["urls"]} & {p for p, _ in packages["reversi"]["urls"]})


def test_rule_tests_outside_the_repository_run_on_micropython(tmp_path):
    folder = tmp_path / "mygame_tests"
    folder.mkdir()
    (folder / "helper.py").write_text("def double(n):\n    return 2 * n\n")
    (folder / "test_mine.py").write_text(
        "from helper import double\nfrom firmware import check\n\n"
        "def test_double():\n    assert double(21) == 42\n\n"
        "def test_the_firmware_is_there():\n    assert check.integer(3, 0, 5, 'x') == 3\n\n"
        "def test_fails():\n    assert double(1) == 3\n")
    proc = subprocess.run(["make", "--no-print-directory", "mptest", "TESTS=" + str(folder)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert "micropython: 2 passed, 1 failed" in proc.stdout, proc.stdout + proc.stderr
    assert proc.returncode != 0
