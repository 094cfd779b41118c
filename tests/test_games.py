"""Games as one file: declarations read without importing the game, the
README's example game built in and installed from /games, broken games, the
settings per game and their migration from the files an older firmware wrote."""
import json
import os
import re
import sys
import types

import pytest

from firmware import gamelist
from firmware.hal import Hal
from firmware import app as app_module
from firmware.boards import ml4m
from tests import saves
from tests.panel import shows
from tests.test_app import ROOT, choose, frames, nudge, tap, to_menu, wait


def readme_example():
    text = open(os.path.join(ROOT, "README.md")).read()
    block = text.split("<!-- example-game -->", 1)[1]
    return re.search(r"```python\n(.*?)```", block, re.S).group(1)


def boot(store_dir, games=None):
    """Power on with a flash in store_dir: saves in data/, a player's games in games/."""
    # an earlier test's games folder (the app adds its own to sys.path)
    sys.path[:] = [p for p in sys.path if not p.endswith("/games") or p.startswith(str(store_dir))]
    hal = Hal(ml4m, str(store_dir / "data"))
    arcade = app_module.App(hal, games_folder=str(games or store_dir / "games"))
    arcade.start()
    return arcade


def install(store_dir, name, code):
    folder = store_dir / "games"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(code)
    return folder / name


def labels(arcade):
    return arcade.screen.labels


def data(store_dir, name):
    return saves.read(store_dir / "data" / (name + ".json"))


# ---- the example game, installed and built in -------------------------------------------
def play_the_example(board, arcade, store_dir):
    """What the README promises of dot.py: a settings row, its value saved and
    used, a saved game and Continue, a record listed."""
    to_menu(board, arcade)
    assert "Dot" in labels(arcade)
    choose(board, arcade, "Settings")
    rows = arcade.screen.rows
    assert ("heading", "Dot", None) in [r if r[0] == "heading" else None for r in rows]
    while arcade.screen.rows[arcade.screen.cursor][1] != "Step":
        nudge(board, arcade, "down")
    assert shows(board.panel, "Step") and shows(board.panel, "1 pixel")
    nudge(board, arcade, "right")
    assert shows(board.panel, "4 pixels")
    assert data(store_dir, "dot_settings") == {"step": 4}
    tap(board, arcade, "B")

    choose(board, arcade, "Dot")
    game = arcade.screen
    assert type(game).__name__ == "Game" and (game.x, game.y) == (4, 32)
    nudge(board, arcade, "right")
    assert game.x == 8 and game.steps == 1              # the setting: 4 pixels a step
    tap(board, arcade, "B")
    assert labels(arcade)[0] == "Continue" and shows(board.panel, "Dot")
    assert data(store_dir, "dot") == {"x": 8, "y": 32, "steps": 1}
    choose(board, arcade, "Continue")
    game = arcade.screen
    assert (game.x, game.steps) == (8, 1)
    while game.steps:                                    # walk on to the ring
        nudge(board, arcade, "right")
    assert arcade.records.get("Dot") == {"fewest steps": 29}
    tap(board, arcade, "B")
    assert "Continue" not in labels(arcade)              # nothing in progress
    choose(board, arcade, "Records")
    assert shows(board.panel, "Dot") and shows(board.panel, "steps") and shows(board.panel, "29")


def test_the_readme_example_installed_in_games(board, store_dir):
    install(store_dir, "dot.py", readme_example())
    arcade = boot(store_dir)
    play_the_example(board, arcade, store_dir)


def test_the_readme_example_built_in(board, store_dir, monkeypatch):
    module = types.ModuleType("firmware.screens.dot")
    exec(compile(readme_example(), "README.md:dot.py", "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, "firmware.screens.dot", module)
    monkeypatch.setattr(gamelist, "BUILT_IN", gamelist.BUILT_IN + ("firmware.screens.dot",))
    monkeypatch.setitem(sys.modules, "firmware.gamelist", gamelist)
    arcade = boot(store_dir)
    play_the_example(board, arcade, store_dir)
    assert [g["id"] for g in data(store_dir, "games")["games"] if g["built_in"]][-1] == "dot"


# ---- declarations read without importing the games ----------------------------------------
def test_the_menu_reads_declarations_without_importing_a_game(board, store_dir):
    install(store_dir, "dot.py", readme_example())
    boot(store_dir)                      # the first boot reads every game once...
    for name in ("firmware.screens.puzzle", "firmware.screens.reversi", "dot"):
        sys.modules.pop(name, None)
    sys.modules.pop("firmware.gamelist", None)
    arcade = boot(store_dir)             # ...a later one reads data/games.json only
    to_menu(board, arcade)
    choose(board, arcade, "Settings")
    tap(board, arcade, "B")
    choose(board, arcade, "Records")
    tap(board, arcade, "B")
    assert "Dot" in labels(arcade) and "Reversi" in labels(arcade)
    for name in ("firmware.screens.puzzle", "firmware.screens.reversi", "dot"):
        assert name not in sys.modules, name


def test_a_changed_game_file_is_read_again(board, store_dir):
    path = install(store_dir, "dot.py", readme_example())
    boot(store_dir)
    path.write_text(readme_example().replace('"title": "Dot"', '"title": "Dot Two"'))
    os.utime(path, (1, 1))              # another date, as a copy brings
    sys.modules.pop("dot", None)
    arcade = boot(store_dir)
    to_menu(board, arcade)
    assert "Dot Two" in labels(arcade) and "Dot" not in labels(arcade)
    path.unlink()
    arcade = boot(store_dir)
    to_menu(board, arcade)
    assert "Dot Two" not in labels(arcade)


def test_a_package_folder_is_a_game(board, store_dir):
    folder = store_dir / "games" / "walk"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(readme_example().replace('"Dot"', '"Walk"')
                                        .replace('"save": "dot"', '"save": "walk"'))
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Walk")
    assert type(arcade.screen).__name__ == "Game"
    tap(board, arcade, "B")
    assert "walk" not in sys.modules      # released with the game, like a built-in one


# ---- broken games ------------------------------------------------------------------------
BROKEN = [
    ("syntax.py", "GAME = {'title': 'Syntax'\n", "SyntaxError"),
    ("imports.py", "import no_such_module\n", "no_such_module"),
    ("nodecl.py", "class Game: pass\n", "no GAME declaration"),
    ("wrong.py", "GAME = {'title': 42}\nclass Game: pass\n", "title"),
    ("noclass.py", "GAME = {'title': 'No class'}\n", "no screen class Game"),
    ("reversi.py", readme_example().replace('"Dot"', '"Other"'), "built-in game"),
    ("samename.py", readme_example().replace('"Dot"', '"2048"'), "2048 is a built-in game"),
]


@pytest.mark.parametrize("name,code,reason", BROKEN)
def test_a_broken_game_is_listed_and_named_on_the_crash_screen(board, store_dir, name, code, reason):
    install(store_dir, name, code)
    arcade = boot(store_dir)
    to_menu(board, arcade)
    assert name in labels(arcade)
    assert labels(arcade).count("Reversi") == 1 and labels(arcade).count("2048") == 1
    choose(board, arcade, name)
    assert type(arcade.screen).__name__ == "ErrorScreen"
    assert "".join(arcade.screen.lines).startswith(name)   # on screen: the file first
    assert reason in (store_dir / "data" / "crash.log").read_text()   # and why, in the log
    tap(board, arcade, "A")
    assert type(arcade.screen).__name__ == "Menu"
    choose(board, arcade, "2048")                    # the rest of the arcade plays on
    assert type(arcade.screen).__name__ == "Game"


def test_a_game_that_raises_when_it_starts_names_its_file(board, store_dir):
    install(store_dir, "boom.py", readme_example().replace(
        "GameScreen.__init__(self, app, **options)", "raise RuntimeError('no ring today')"))
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Dot")
    assert type(arcade.screen).__name__ == "ErrorScreen"
    text = "".join(arcade.screen.lines)
    assert "boom.py" in text and "noringtoday" in text.replace(" ", "")
    tap(board, arcade, "A")
    assert type(arcade.screen).__name__ == "Menu"


# ---- settings per game, and what an older firmware left ---------------------------------------
def write(store_dir, name, value):
    folder = store_dir / "data"
    folder.mkdir(exist_ok=True)
    (folder / (name + ".json")).write_text(json.dumps(value))


def test_the_files_of_the_older_firmware_become_the_games_settings(board, store_dir):
    # as the firmware before declared games wrote them
    write(store_dir, "settings", {"sound": False, "volume": 2, "brightness": 1, "saver_s": 300,
                                  "reversi_hints": False, "reversi_level": 2,
                                  "puzzle_mode": "picture", "puzzle_size": 5})
    write(store_dir, "reversi_prefs", {"mode": 3})
    write(store_dir, "puzzle_prefs", {"puzzle8": {"level": 2, "picture": "b.pbm"},
                                      "puzzle15": {"level": 1}})
    write(store_dir, "records", {"8-Puzzle numbers": {"fewest moves": 22, "fastest time": 40},
                                 "2048": {"best score": 2000, "best tile": 256},
                                 "Reversi hard": {"won": 1, "lost": 3}})
    write(store_dir, "g2048", {"game": {"board": [1] + [0] * 15}})   # any game in progress
    write(store_dir, "session", {"last": "2048"})
    arcade = boot(store_dir)
    assert arcade.settings.values == {"sound": False, "volume": 2, "brightness": 1, "saver_s": 300}
    to_menu(board, arcade)
    assert "24-Puzzle" in labels(arcade)                 # the big puzzle's size, kept
    assert arcade.screen.labels[0] == "Continue" and arcade.screen.resume == "g2048"
    assert data(store_dir, "reversi_settings") == {"hints": False, "level": 2, "mode": 3}
    assert data(store_dir, "puzzle_settings") == {
        "mode": "picture", "big": 5, "level_puzzle8": 2, "level_puzzle15": 1,
        "picture_puzzle8": "b.pbm", "picture_puzzle15": ""}
    assert data(store_dir, "g2048") == {"game": {"board": [1] + [0] * 15}}
    assert arcade.records.get("Reversi hard") == {"won": 1, "lost": 3}
    choose(board, arcade, "Settings")
    while arcade.screen.rows[arcade.screen.cursor][1] != "CPU level":
        nudge(board, arcade, "down")
    assert shows(board.panel, "hard") and shows(board.panel, "Reversi")
    nudge(board, arcade, "left")
    assert data(store_dir, "reversi_settings")["level"] == 1
    arcade.settings.cycle("sound")                       # the old keys go with the next save
    assert data(store_dir, "settings") == {"sound": True, "volume": 2, "brightness": 1,
                                           "saver_s": 300}
    rebooted = boot(store_dir)                           # and nothing is migrated twice
    to_menu(board, rebooted)
    assert data(store_dir, "reversi_settings")["level"] == 1


@pytest.mark.parametrize("value", [3.0, True, "3", None, [3], 7, 0])
def test_a_wrong_system_setting_sets_the_file_aside(board, store_dir, value):
    write(store_dir, "settings", {"sound": True, "brightness": value})
    arcade = boot(store_dir)
    assert arcade.settings["brightness"] == 3            # the default, the board boots
    assert (store_dir / "data" / "settings.bad").exists()
    to_menu(board, arcade)


@pytest.mark.parametrize("value", [1, "on", 1.0, None, [True]])
def test_a_wrong_game_setting_sets_its_file_aside(board, store_dir, value):
    write(store_dir, "reversi_settings", {"hints": value, "level": 1, "mode": 1})
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Reversi")
    assert arcade.screen.settings["hints"] is True       # the default
    assert (store_dir / "data" / "reversi_settings.bad").exists()


@pytest.mark.parametrize("records", [{"2048": {"best score": 1e400}}, {"2048": {"best score": "9"}},
                                     {"2048": {"best score": None}}, {"2048": [1]},
                                     {"2048": {"best score": True}}, {"2048": {"best score": -1}}])
def test_wrong_records_set_the_file_aside(board, store_dir, records):
    folder = store_dir / "data"
    folder.mkdir()
    (folder / "records.json").write_text(json.dumps(records).replace("Infinity", "1e400"))
    arcade = boot(store_dir)
    assert arcade.records.data == {}
    assert (folder / "records.bad").exists()
    to_menu(board, arcade)
    choose(board, arcade, "Records")
    assert shows(board.panel, "No records yet.")



def test_reset_records_that_cannot_be_saved_is_not_done(board, store_dir, monkeypatch):
    arcade = boot(store_dir)
    arcade.records.best("2048", "best score", 1234, lower_is_better=False)
    store = arcade.hal.store
    monkeypatch.setattr(store, "save", lambda name, value: False)
    assert arcade.records.reset() is False
    assert arcade.records.get("2048") == {"best score": 1234}   # not done, as said
    monkeypatch.undo()
    arcade.records.best("2048", "best tile", 64, lower_is_better=False)
    assert data(store_dir, "records") == {"2048": {"best score": 1234, "best tile": 64}}


# ---- the menu: entries, not rows ---------------------------------------------------------
def test_the_menu_comes_back_to_the_game_left_when_continue_appears(board, store_dir):
    arcade = boot(store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "2048")
    nudge(board, arcade, "left")
    nudge(board, arcade, "up")                        # a move or two: a game in progress
    tap(board, arcade, "B")
    menu = arcade.screen
    assert menu.labels[0] == "Continue" and shows(board.panel, "2048")
    assert menu.labels[menu.cursor] == "2048"       # not 8-Puzzle, one row up
    choose(board, arcade, "Reversi")                  # played last, but left with no move:
    tap(board, arcade, "B")                           # nothing of it in progress
    menu = arcade.screen
    assert menu.labels[menu.cursor] == "Reversi"
    assert menu.labels[0] == "Continue" and menu.icons[0] == menu.icons[3] and menu.resume == "g2048"
    choose(board, arcade, "Continue")                 # 2048 kept its own resume
    assert type(arcade.screen).__module__ == "firmware.screens.g2048"


# ---- the simulator: a folder of games, another board ------------------------------------------
def test_the_simulator_plays_a_folder_of_games_on_another_board(tmp_path):
    import subprocess
    games = tmp_path / "mine"
    games.mkdir()
    (games / "dot.py").write_text(readme_example())
    flash = tmp_path / "flash"
    replay = tmp_path / "dot.replay"
    replay.write_text('{"ml4m_replay": 1, "seed": 1, "main": "main.py"}\n'
                      '{"t_ms": 2000, "event": "choose Dot"}\n'
                      '{"t_ms": 2600, "event": "tap right"}\n'
                      '{"t_ms": 3200, "event": "tap B"}\n'
                      '{"t_ms": 3800, "event": "end"}\n')
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--headless",
                           "--seconds", "3", "--games", str(games), "--board", "devkit_proto",
                           "--flash", str(flash)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (flash / "games" / "dot.py").read_text() == readme_example()
    assert (flash / "board.txt").read_text() == "devkit_proto\n"
    assert "Dot" in [g.get("title") for g in saves.read(flash / "data" / "games.json")["games"]]
    # a replay of that flash plays on the board it names (the devkit's buttons)
    lines = replay.read_text().splitlines()
    header = json.loads(lines[0])
    from tools.simulator.replay import read_store
    header["store"] = read_store(str(flash))
    replay.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--headless",
                           "--replay", str(replay), "--dump", str(tmp_path / "panel.txt")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "stopped: end" in done.stdout, done.stdout + done.stderr
    saved = (tmp_path / "panel.txt").read_text()
    assert saved.count("\n") == 64
    bad = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--headless",
                          "--seconds", "1", "--board", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and "devkit_proto" in bad.stderr
