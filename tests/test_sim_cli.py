"""The simulator's command line and the host tools' rough edges: the flash
folder's lock, clear one-line errors, where screenshots go, the PNG's
brightness, tools/sim.py run as written, make help and the README's tables."""
import os
import subprocess
import sys

import pytest

from tools.simulator import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim.py")
DEMO = "tests/sim_demo_main.py"


def run_sim(*args, cwd=ROOT):
    return subprocess.run([sys.executable, SIM] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=60)


# ---- the flash folder ----------------------------------------------------------------
def test_two_simulators_on_one_flash_folder(tmp_path):
    flash = tmp_path / "flash"
    lock, problem = cli.open_flash(str(flash))
    assert problem is None and flash.is_dir()
    try:
        result = run_sim("--headless", "--seconds", "0.1", "--main", DEMO, "--flash", str(flash))
        assert result.returncode == 1
        assert result.stderr == "sim: another simulator is using %s; use --flash DIR\n" % flash
        other = run_sim("--headless", "--seconds", "0.1", "--main", DEMO,
                        "--flash", str(tmp_path / "other"))
        assert other.returncode == 0, other.stderr
    finally:
        lock.close()
    again = run_sim("--headless", "--seconds", "0.1", "--main", DEMO, "--flash", str(flash))
    assert again.returncode == 0, again.stderr           # let go when the first one ended
    assert os.listdir(flash) == []                       # the lock is not in the board's files


def test_a_flash_path_that_is_a_file_is_one_clear_line(tmp_path):
    path = tmp_path / "saves"
    path.write_text("not a folder")
    result = run_sim("--headless", "--seconds", "0.1", "--main", DEMO, "--flash", str(path))
    assert result.returncode == 1
    assert result.stderr == ("sim: %s is a file, not a folder: use --flash DIR with a folder\n"
                             % path)


# ---- screenshots -----------------------------------------------------------------------
def test_screenshots_go_to_an_ignored_folder_made_when_needed(tmp_path):
    assert cli.build_parser().parse_args([]).shots == os.path.join(ROOT, "screenshots")
    ignored = subprocess.run(["git", "check-ignore", "-q", "screenshots/ml4m-1.png"], cwd=ROOT)
    assert ignored.returncode == 0

    class Panel:
        def png(self, path, scale, brightness):
            with open(path, "wb") as f:
                f.write(b"%d %d" % (scale, brightness))

    class Board:
        panel = Panel()

    from tools.simulator.frontend import FrontEnd
    ui = FrontEnd()
    ui.board = Board()
    ui.shots_dir = str(tmp_path / "new" / "shots")        # --shots DIR: made on the first shot
    ui.png_scale = 3
    ui.screenshot()
    saved = os.listdir(tmp_path / "new" / "shots")
    assert len(saved) == 1 and ui.current_message().startswith("saved ")
    assert (tmp_path / "new" / "shots" / saved[0]).read_bytes() == b"3 0"


def test_pngs_are_full_white_unless_asked(tmp_path):
    def lit_level(*extra):
        png = tmp_path / "p.png"
        result = run_sim("--headless", "--seconds", "0.3", "--main", DEMO, "--png", str(png),
                         "--scale-png", "1", *extra)
        assert result.returncode == 0, result.stderr
        import struct
        import zlib
        data = png.read_bytes()
        raw = zlib.decompress(data[41:41 + struct.unpack(">I", data[33:37])[0]])
        return max(raw)

    assert lit_level() == 255
    assert lit_level("--png-brightness") > 0              # (the demo runs at full contrast)


@pytest.mark.parametrize("bad", ["0", "17", "x", "-1"])
def test_scale_png_is_checked_like_scale(bad, capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["--scale-png", bad])
    assert "use 1..16" in capsys.readouterr().err


# ---- tools/sim.py as the README and --help write it ---------------------------------------
def test_tools_sim_py_runs_as_written():
    assert os.access(SIM, os.X_OK)
    with open(SIM) as f:
        assert f.readline() == "#!/usr/bin/env python3\n"
    env = dict(os.environ, PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
    result = subprocess.run(["tools/sim.py", "--help"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: tools/sim.py")
    assert "tools/sim.py --record game.replay" in result.stdout     # the examples, as run


# ---- make help and the README's table ---------------------------------------------------------
INTERNAL_TARGETS = {"help", "window-deps"}      # steps of other targets, not commands


def make_targets():
    with open(os.path.join(ROOT, "Makefile")) as f:
        text = f.read()
    phony = text.split(".PHONY:", 1)[1].split("\n\n", 1)[0].replace("\\\n", " ")
    return sorted(set(phony.split()) - INTERNAL_TARGETS)


def test_make_help_is_aligned_and_names_every_target():
    result = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and lines
    columns = set()
    for line in lines:
        assert line.startswith("make ")
        name, rest = line[5:].split(" ", 1)
        columns.add(len(line) - len(rest.lstrip()))      # where the description starts
    assert len(columns) == 1, lines
    for target in make_targets():
        assert "make " + target + " " in result.stdout + " " or \
            "make " + target + ":" in result.stdout, target


def test_the_readme_table_lists_every_command():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    table = readme.split("| command | what it does |", 1)[1]
    for target in make_targets():
        assert "`make " + target + "`" in table, target
    assert "ml4m-sim/flash/data/*.json" in readme            # where the simulator's saves go


def test_board_hints_name_the_right_target_and_a_command_that_exists(monkeypatch, capsys):
    import serial.tools.list_ports
    from tools import deploy
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    assert deploy.main(["--backup"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("backup: no board found") and "make backup PORT=" in err
    assert deploy.main([]) == 1
    assert "make deploy PORT=" in capsys.readouterr().err
    assert deploy.main(["--port", "/dev/ttyNOSUCHPORT9"]) == 1
    err = capsys.readouterr().err
    assert ".venv/bin/mpremote devs" in err
    assert os.path.exists(os.path.join(ROOT, ".venv", "bin", "mpremote"))
    with open(os.path.join(ROOT, "Makefile")) as f:
        assert "the ports: $(VENV)/bin/mpremote devs" in f.read()     # make repl, make run


# ---- host tools: a clear line, never a traceback or a wrong hint ------------------------------
def test_a_picture_into_a_missing_folder_and_a_negative_time_are_refused_at_once(tmp_path):
    missing = tmp_path / "no such folder" / "end.png"
    result = run_sim("--headless", "--seconds", "1", "--main", DEMO, "--png", str(missing))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "--png %s: there is no folder %s" % (missing, missing.parent) in result.stderr
    result = run_sim("--headless", "--seconds", "-1", "--main", DEMO)
    assert result.returncode == 2
    assert "--seconds: a number of seconds above 0, not -1" in result.stderr


def test_web_serve_on_a_busy_port_names_the_web_servers_variable(tmp_path):
    import socket
    (tmp_path / "index.html").write_text("<p>arcade</p>")
    busy = socket.socket()
    busy.bind(("", 0))
    busy.listen(1)
    try:
        port = busy.getsockname()[1]
        result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "web", "serve.py"),
                                 "--port", str(port), "--dir", str(tmp_path)],
                                capture_output=True, text=True, timeout=60)
    finally:
        busy.close()
    assert result.returncode == 1
    assert "make web-serve WEBPORT=%d" % (port + 1) in result.stderr
    assert " PORT=" not in result.stderr                 # the board's serial port: not this


def test_make_repl_on_a_port_that_is_not_there_says_so():
    result = subprocess.run(["make", "--no-print-directory", "repl", "PORT=/dev/ttyNOSUCHPORT9"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    said = result.stdout + result.stderr
    assert result.returncode != 0
    assert "repl: no board answered on /dev/ttyNOSUCHPORT9" in said
    assert "PORT=/dev/ttyUSB0" not in said               # not the port just named, as a hint
