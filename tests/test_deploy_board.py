"""tools/deploy.py against a board on a pseudo-terminal (tools/boardsim: the MicroPython
WebAssembly port behind a pty), through mpremote as with a real board.

Most tests deploy a small project tree of their own (tmp_path), so they do not depend
on the state of firmware/; one deploys the real tree when lib/ssd1306.py is there.
"""
import os
import re
import shutil
import subprocess
import sys

import pytest

from tools import deploy
from tools.boardsim import BoardSim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _micropython_found():
    if os.environ.get("MICROPYTHON_WASM"):
        return True
    pkg = os.path.join("node_modules", "@micropython", "micropython-webassembly-pyscript")
    return any(os.path.isdir(os.path.join(ROOT, "tools", d, pkg)) for d in ("", "mprun"))


pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not _micropython_found(),
    reason="needs node and the MicroPython WebAssembly package (make deps)")


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


@pytest.fixture
def project(tmp_path):
    root = str(tmp_path / "project")
    write(root, "boot.py", "import gc\ngc.collect()\n")
    write(root, "main.py", "from firmware import app\napp.main()\n")
    write(root, "firmware/__init__.py", "")
    write(root, "firmware/app.py", "def main():\n    print('arcade')\n")
    write(root, "firmware/games/__init__.py", "")
    write(root, "firmware/games/npuzzle.py", "SIZE = 4\n\ndef solved(n):\n    return list(range(1, n))\n")
    write(root, "firmware/ui/pictures/cat.pbm", "P1\n2 2\n0 1\n1 0\n")
    write(root, "lib/ssd1306.py", "class SSD1306_I2C:\n    pass\n")
    return root


@pytest.fixture
def sim():
    with BoardSim() as board:
        yield board


def run(sim, root, *args, capsys=None):
    """deploy.py's main() in this process; returns (exit status, stdout, stderr)."""
    code = deploy.main(["--port", sim.port if sim else args[0], "--root", root, "--timeout", "3",
                        *(args if sim else args[1:])])
    out, err = capsys.readouterr()
    return code, out, err


def test_first_deploy_puts_everything_in_place(sim, project, capsys):
    code, out, err = run(sim, project, capsys=capsys)
    assert code == 0, err
    files = sim.files()
    mpys = sorted(p for p in files if p.startswith("/firmware/"))
    assert mpys == ["/firmware/__init__.mpy", "/firmware/app.mpy", "/firmware/games/__init__.mpy",
                    "/firmware/games/npuzzle.mpy", "/firmware/needs.txt", "/firmware/ui/pictures/cat.pbm"]
    for p in mpys[:4]:
        assert files[p][:2] == b"M\x06"  # compiled by mpy-cross: .mpy version 6
    assert re.match(rb"^1\.\d+\n$", files["/firmware/needs.txt"])   # main.py names it on a wrong version
    assert files["/firmware/ui/pictures/cat.pbm"] == b"P1\n2 2\n0 1\n1 0\n"
    assert files["/boot.py"] == b"import gc\ngc.collect()\n"  # boot.py and main.py as source
    assert files["/main.py"] == b"from firmware import app\napp.main()\n"
    assert files["/lib/ssd1306.py"] == b"class SSD1306_I2C:\n    pass\n"
    assert "9 copied, 0 removed, 0 unchanged; board reset" in out
    assert sim.events()[-1] == "soft reboot (friendly REPL)"  # main.py would start now
    assert os.path.exists(os.path.join(project, "build", "mpy", "firmware", "games", "npuzzle.mpy"))


def test_the_deployed_firmware_imports_on_the_board(sim, project, capsys):
    assert run(sim, project, capsys=capsys)[0] == 0
    from mpremote.transport_serial import SerialTransport
    t = SerialTransport(sim.port, baudrate=115200, timeout=1)
    try:
        t.enter_raw_repl()
        assert t.exec("from firmware.games import npuzzle\nprint(npuzzle.__file__, npuzzle.solved(3))") \
            .strip() .endswith(b"firmware/games/npuzzle.mpy [1, 2]")
    finally:
        t.exit_raw_repl()
        t.close()


def test_second_deploy_copies_nothing(sim, project, capsys):
    assert run(sim, project, capsys=capsys)[0] == 0
    before = sim.files()
    code, out, err = run(sim, project, capsys=capsys)
    assert code == 0, err
    assert "0 copied, 0 removed, 9 unchanged" in out
    assert "copy " not in out
    assert sim.files() == before


def test_a_changed_file_is_the_only_one_copied(sim, project, capsys):
    assert run(sim, project, capsys=capsys)[0] == 0
    write(project, "firmware/games/npuzzle.py", "SIZE = 5\n")
    code, out, _ = run(sim, project, capsys=capsys)
    assert code == 0
    assert re.findall(r"copy +(\S+)", out) == ["/firmware/games/npuzzle.mpy"]


def test_stale_files_of_ours_go_and_the_users_stay(sim, project, capsys):
    user = {
        "/data/puzzle.json": b'{"board": [1, 2, 3]}',
        "/data/records.json": b'{"best": 42}',
        "/pictures/mine.pbm": b"P1\n1 1\n1\n",
        "/lib/umqtt/simple.py": b"# another package\n",
    }
    for path, data in user.items():
        sim.put(path, data)
    sim.put("/firmware/retired_game.mpy", b"M\x06old")
    sim.put("/firmware/old/screen.mpy", b"M\x06old")
    code, out, err = run(sim, project, capsys=capsys)
    assert code == 0, err
    files = sim.files()
    assert "/firmware/retired_game.mpy" not in files
    assert "/firmware/old/screen.mpy" not in files and "/firmware/old" not in sim.dirs()
    for path, data in user.items():
        assert files[path] == data
    assert "remove /firmware/retired_game.mpy" in out


def test_a_py_twin_is_removed(sim, project, capsys):
    # An older source deploy (or a hand copy) left app.py: it would be imported
    # instead of the new app.mpy.
    sim.put("/firmware/app.py", b"def main():\n    print('old')\n")
    code, _, err = run(sim, project, capsys=capsys)
    assert code == 0, err
    files = sim.files()
    assert "/firmware/app.py" not in files and "/firmware/app.mpy" in files


def test_source_deploy_swaps_mpy_for_py_and_back(sim, project, capsys):
    assert run(sim, project, capsys=capsys)[0] == 0
    code, out, err = run(sim, project, "--source", capsys=capsys)
    assert code == 0, err
    files = sim.files()
    assert not [p for p in files if p.endswith(".mpy")]
    assert files["/firmware/games/npuzzle.py"].startswith(b"SIZE = 4")
    assert "deployed (source)" in out
    assert run(sim, project, capsys=capsys)[0] == 0
    assert not [p for p in sim.files() if p.startswith("/firmware/") and p.endswith(".py")]


def test_dry_run_changes_nothing(sim, project, capsys):
    code, out, _ = run(sim, project, "--dry-run", capsys=capsys)
    assert code == 0
    assert "would copy   /main.py" in out
    assert sim.files() == {}


def test_not_micropython_is_refused(sim, project, capsys):
    sim.fake(name="circuitpython", version=(9, 2, 1), mpy=6 | 1 << 8)
    code, out, err = run(sim, project, capsys=capsys)
    assert code == 1
    assert err == "deploy: the board runs circuitpython v9.2.1, not MicroPython: " \
                  "flash MicroPython v1.22 or later for the ESP32\n"
    assert sim.files() == {}


def test_too_old_micropython_is_refused(sim, project, capsys):
    sim.fake(version=(1, 21, 0), mpy=6 | 1 << 8)
    code, _, err = run(sim, project, "--source", capsys=capsys)
    assert code == 1
    assert "MicroPython v1.21.0, too old: the firmware needs v1.22 or later" in err
    assert err.count("\n") == 1


def test_older_mpy_abi_is_refused_but_source_deploys(sim, project, capsys):
    sim.fake(version=(1, 22, 2), mpy=6 | 2 << 8)
    code, _, err = run(sim, project, capsys=capsys)
    assert code == 1
    assert "needs MicroPython v1.23 or later" in err and "make deploy-src" in err
    code, _, err = run(sim, project, "--source", capsys=capsys)
    assert code == 0, err
    assert "/firmware/app.py" in sim.files()


def test_no_board_found(project, capsys):
    code, _, err = run(None, project, "/dev/ttyNOSUCHPORT9", capsys=capsys)
    assert code == 1
    assert err.startswith("deploy: no board found at /dev/ttyNOSUCHPORT9")
    assert err.count("\n") == 1


def test_port_busy(sim, project, capsys):
    import serial
    holder = serial.Serial(sim.port, 115200, exclusive=True)  # e.g. a serial monitor left open
    try:
        code, _, err = run(sim, project, capsys=capsys)
    finally:
        holder.close()
    assert code == 1
    assert err.startswith(f"deploy: port busy: {sim.port} is open in another program")
    assert err.count("\n") == 1


def test_a_board_that_does_not_answer(sim, project, capsys):
    sim.mute()
    code, _, err = run(sim, project, "--timeout", "1", capsys=capsys)
    assert code == 1
    assert err == (f"deploy: the board on {sim.port} does not answer the raw REPL (Ctrl-A): "
                   "press its reset button and try again\n")


def test_full_flash(sim, project, capsys):
    sim.put("/data/puzzle.json", b"x" * 100)
    sim.quota(300)  # room for the saves and a few small files, not the whole firmware
    code, out, err = run(sim, project, capsys=capsys)
    assert code == 1
    assert re.fullmatch(r"deploy: the board's flash is full: could not write (\S+) \(\d+ bytes, \d+ bytes free\); "
                        r"remove files from the board \(e\.g\. pictures\) and deploy again\n", err), err
    failed = err.split("could not write ")[1].split(" ")[0]
    files = sim.files()
    assert failed not in files  # no cut-off file left to break the import
    assert files["/data/puzzle.json"] == b"x" * 100
    sim.quota(None)
    code, out, err = run(sim, project, capsys=capsys)  # room again: the deploy completes
    assert code == 0, err


def test_backup_copies_the_saves(sim, project, capsys):
    sim.put("/data/puzzle.json", b'{"moves": 12}')
    sim.put("/data/records/best.json", b'{"15": 88}')
    code = deploy.main(["--backup", "--port", sim.port, "--root", project, "--timeout", "3"])
    out, err = capsys.readouterr()
    assert code == 0, err
    [stamp] = os.listdir(os.path.join(project, "backups"))
    saved = os.path.join(project, "backups", stamp, "data")
    with open(os.path.join(saved, "puzzle.json"), "rb") as f:
        assert f.read() == b'{"moves": 12}'
    with open(os.path.join(saved, "records", "best.json"), "rb") as f:
        assert f.read() == b'{"15": 88}'
    assert "backed up 2 files" in out


def test_the_command_line(sim, project):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"),
                           "--port", sim.port, "--root", project],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "9 copied" in proc.stdout


def _makefile_has(rule):
    try:
        with open(os.path.join(ROOT, "Makefile")) as f:
            return re.search(r"^%s:" % re.escape(rule), f.read(), re.M) is not None
    except OSError:
        return False


@pytest.mark.long
@pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "lib", "ssd1306.py")),
                    reason="lib/ssd1306.py not fetched yet (make deps)")
def test_the_real_tree_deploys_and_imports(sim, capsys):
    # The repository's own firmware, as `make deploy PORT=...` sends it when the
    # Makefile has the rule (else through deploy.py directly).
    if _makefile_has("deploy") and shutil.which("make"):
        proc = subprocess.run(["make", "--no-print-directory", "deploy", "PORT=" + sim.port],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    else:
        assert deploy.main(["--port", sim.port, "--timeout", "3"]) == 0, capsys.readouterr().err
    files = sim.files()
    assert files["/main.py"] == open(os.path.join(ROOT, "main.py"), "rb").read()
    assert "/lib/ssd1306.py" in files and "/firmware/__init__.mpy" in files
    assert not [p for p in files if p.startswith("/firmware/") and p.endswith(".py")]
    assert deploy.main(["--port", sim.port, "--timeout", "3"]) == 0
    assert " 0 copied, 0 removed" in capsys.readouterr().out


def test_the_simulated_board_acts_like_a_board(sim):
    # What mpremote relies on and the WebAssembly port does not do by itself.
    import serial
    port = serial.Serial(sim.port, 115200, timeout=2)
    try:
        port.write(b"\r\x03\r\x01")
        assert port.read_until(b"raw REPL; CTRL-B to exit\r\n>").endswith(b"raw REPL; CTRL-B to exit\r\n>")
        port.write(b"\x05A\x01")
        assert port.read(2) == b"R\x00"  # raw-paste declined: plain raw REPL
        port.write(b"print(6 * 7)\x04")
        assert port.read_until(b"\x04>") == b"OK42\n\x04\x04>"
        port.write(b"\x04")  # soft reset: the files stay, no banner, raw REPL again
        after = port.read_until(b"raw REPL; CTRL-B to exit\r\n>")
        assert after == b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>"
        assert sim.events() == ["soft reboot (raw REPL)"]
    finally:
        port.close()
