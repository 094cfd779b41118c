"""make install-game / remove-game and the board choice of make deploy, against a
board on a pseudo-terminal (tools/boardsim: MicroPython WebAssembly behind a pty,
through mpremote as with a real board); and README's example game installed as
.mpy and started by the real firmware on it."""
import os

import pytest

from tests.test_deploy_board import ROOT, pytestmark, project, sim, write  # noqa: F401
from tests.test_games import readme_example
from tools import deploy


def run(*args, capsys):
    code = deploy.main(["--timeout", "3", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "mine" / "dot.py"
    path.parent.mkdir()
    path.write_text(readme_example())
    return str(path)


def test_install_compiles_copies_only_changes_and_remove_keeps_saves(sim, game, capsys):
    code, out, err = run("--port", sim.port, "--install-game", game, capsys=capsys)
    assert code == 0, err
    files = sim.files()
    assert files["/games/dot.mpy"][:2] == b"M\x06"          # compiled by mpy-cross
    assert "/games/dot.py" not in files
    code, out, err = run("--port", sim.port, "--install-game", game, capsys=capsys)
    assert code == 0 and "0 copied, 1 unchanged" in out      # nothing changed, nothing sent
    with open(game, "a") as f:
        f.write("\n# a comment: the same code, nothing to send\n")
    assert "0 copied" in run("--port", sim.port, "--install-game", game, capsys=capsys)[1]
    with open(game, "a") as f:
        f.write("RING_X = 119\n")
    code, out, err = run("--port", sim.port, "--install-game", game, capsys=capsys)
    assert "1 copied" in out

    sim.put("/data/dot.json", b'{"x": 8, "y": 32, "steps": 1}')
    sim.put("/data/dot_settings.json", b'{"step": 4}')
    sim.put("/data/games.json", b'{"layout": 1, "games": [{"id": "dot", "built_in": false, '
                                b'"variants": [{"save": "dot"}]}]}')
    code, out, err = run("--port", sim.port, "--remove-game", "dot", capsys=capsys)
    assert code == 0, err
    files = sim.files()
    assert "/games/dot.mpy" not in files
    assert "/data/dot.json" in files and "/data/dot_settings.json" in files   # kept
    run("--port", sim.port, "--install-game", game, capsys=capsys)
    code, out, err = run("--port", sim.port, "--remove-game", "dot", "--drop-saves", capsys=capsys)
    assert code == 0, err
    files = sim.files()
    assert not [p for p in files if "dot" in p]
    code, out, err = run("--port", sim.port, "--remove-game", "dot", capsys=capsys)
    assert code == 1 and "no game dot" in err


def test_a_package_game_replaces_the_file_and_back(sim, game, tmp_path, capsys):
    assert run("--port", sim.port, "--install-game", game, capsys=capsys)[0] == 0
    package = tmp_path / "pkg" / "dot"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(readme_example())
    (package / "levels.py").write_text("LEVELS = (1, 2)\n")
    (package / "title.pbm").write_text("P1\n1 1\n1\n")
    code, out, err = run("--port", sim.port, "--install-game", str(package), capsys=capsys)
    assert code == 0, err
    files = sim.files()
    assert sorted(p for p in files if p.startswith("/games/")) == [
        "/games/dot/__init__.mpy", "/games/dot/levels.mpy", "/games/dot/title.pbm"]
    (package / "levels.py").unlink()
    assert run("--port", sim.port, "--install-game", str(package), capsys=capsys)[0] == 0
    assert "/games/dot/levels.mpy" not in sim.files()          # stale module of the game gone
    assert run("--port", sim.port, "--install-game", game, capsys=capsys)[0] == 0
    assert sorted(p for p in sim.files() if p.startswith("/games/")) == ["/games/dot.mpy"]
    assert "/games/dot" not in sim.dirs()


@pytest.mark.parametrize("name,text,why", [
    ("reversi.py", "GAME = {}\n", "name of a built-in game"),
    ("bad.py", "def (:\n", "mpy-cross could not compile"),
    ("my-game.py", "GAME = {}\n", "cannot be imported"),
])
def test_games_that_cannot_go_are_refused_with_a_reason(sim, tmp_path, capsys, name, text, why):
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run("--port", sim.port, "--install-game", str(path), capsys=capsys)
    assert code == 1 and why in err
    assert not [p for p in sim.files() if p.startswith("/games/")]


@pytest.mark.parametrize("name,text,why", [
    ("missing.py", None, "no game at"),
    ("bad.py", "def (:\n", "mpy-cross could not compile bad.py"),
    ("plain.py", "X = 1\n", "declares no GAME at its top level"),
])
def test_the_game_is_checked_before_a_board_is_looked_for(tmp_path, capsys, name, text, why):
    # no board at all: the game's own fault is what the author hears first
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    code, out, err = run("--port", str(tmp_path / "no-such-port"), "--install-game", str(path), capsys=capsys)
    assert code == 1 and why in err, err


def test_without_a_board_the_hint_names_the_command_used(tmp_path, capsys, game, monkeypatch):
    monkeypatch.setattr(deploy, "auto_port", lambda target: (_ for _ in ()).throw(
        deploy.DeployError("make %s PORT=/dev/ttyUSB0" % target)))
    assert "make install-game PORT=" in run("--install-game", game, capsys=capsys)[2]
    assert "make remove-game PORT=" in run("--remove-game", "dot", capsys=capsys)[2]


def test_install_checks_the_board_like_deploy(sim, game, capsys):
    sim.fake(version=(1, 19, 1))
    code, out, err = run("--port", sim.port, "--install-game", game, capsys=capsys)
    assert code == 1 and "too old" in err


@pytest.mark.long
def test_deploy_board_choice_is_kept_on_the_board(sim, project, capsys):
    write(project, "firmware/boards/__init__.py", "")
    write(project, "firmware/boards/ml4m.py", "NAME = 'ML4M'\n")
    write(project, "firmware/boards/devkit_proto.py", "NAME = 'DEVKIT_PROTO'\n")
    code, out, err = run("--port", sim.port, "--root", project, "--board", "devkit_proto",
                         capsys=capsys)
    assert code == 0, err
    assert sim.files()["/board.txt"] == b"devkit_proto\n"
    code, out, err = run("--port", sim.port, "--root", project, capsys=capsys)
    assert code == 0 and " 0 copied" in out
    assert sim.files()["/board.txt"] == b"devkit_proto\n"     # kept without BOARD=
    code, out, err = run("--port", sim.port, "--root", project, "--board", "ml4m", capsys=capsys)
    assert sim.files()["/board.txt"] == b"ml4m\n"
    code, out, err = run("--port", sim.port, "--root", project, "--board", "nope", capsys=capsys)
    assert code == 1 and "devkit_proto, ml4m" in err


@pytest.mark.long
@pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "lib", "ssd1306.py")),
                    reason="lib/ssd1306.py not fetched yet (make deps)")
def test_the_installed_mpy_game_starts_in_the_real_firmware(sim, game, capsys):
    assert run("--port", sim.port, "--no-reset", capsys=capsys)[0] == 0      # the real tree
    assert run("--port", sim.port, "--no-reset", "--install-game", game, capsys=capsys)[0] == 0
    with open(os.path.join(ROOT, "tools", "emu", "mp_node", "machine.py"), "rb") as f:
        sim.put("/lib/machine.py", f.read())      # the hardware stand-ins the benches use
    board = deploy.connect(sim.port, 3)
    try:
        board.probe()
        out = board.exec(
            "import os\nos.chdir('/')\n"
            "from firmware.boards import ml4m\nfrom firmware.hal import Hal\n"
            "from firmware.app import App\n"
            "from firmware.settings import Settings\n"
            "hal = Hal(ml4m, 'data')\n"
            "app = App(hal, Settings(hal.store))\napp.start()\n"
            "from firmware import gamelist\n"
            "print([e[1] for e in gamelist.entries(app)])\n"
            "note = gamelist.launch_note(app, 'games/dot')\n"   # the game's program, as launched
            "played = App(hal, app.settings, note=note)\nplayed.start()\n"
            "game = played.screen\n"
            "print(type(game).__name__, game.settings, sys.modules['dot'].__file__)\n"
            "game.x, game.steps = 9, 2\ngame.save()\n"
            "print(open('data/dot.json').read())\n").decode()
    finally:
        board.close()
    assert "'15-Puzzle', '8-Puzzle', '2048', 'Reversi', 'Play a friend', 'Dot'" in out
    assert "Game {'step': 1} /games/dot.mpy" in out or "Game {'step': 1} games/dot.mpy" in out
    assert '"steps": 2' in out
