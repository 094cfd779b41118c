"""bench_heap.py --games DIR: a folder of a player's games measured as the
built-in ones are (README, "Write your own game"): installed in the emulated
board's /games, each opened from the menu and played (its own GAME["bench"]
play and rows), and a folder it cannot take refused before anything runs,
naming the file and saying why."""
import os
import re

import pytest

from tests.mprunner import NEEDS_RUNNER
from tests.test_games import readme_example
from tools.bench import bench_heap, names

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A package game with relative imports, its own bench play (which says what it
# was given) and a bench row with a setting changed.
WALK = '''# walk: a step to the right at each push, at the pace set in Settings
from firmware.hal.controls import B, RIGHT
from firmware.screens.base import GameScreen, BACK
from .steps import FIRST

GAME = {
    "title": "Walk",
    "settings": (("pace", "Pace", ((1, "slow"), (3, "fast")), 1),),
    "bench": {"rows": (("Walk", "fast", {"pace": 3}),), "play": "bench_play"},
}


class Game(GameScreen):
    def __init__(self, app, **options):
        GameScreen.__init__(self, app, **options)
        self.x = 0
        self.dirty = True

    def update(self, now_ms):
        controls = self.hal.controls
        if controls.just_pressed(B):
            return BACK
        if controls.just_pressed(RIGHT):
            self.x = (self.x + self.settings["pace"]) % 128
            self.dirty = True
        return None

    def draw(self, display):
        if self.repaint(display.fb):
            display.fb.pixel(self.x, 32, 1)


def bench_play(bench, rng, n):
    print("walk's own play: pace %d, %s" % (bench.screen().settings["pace"], FIRST))
    for _ in range(n // 4):
        yield from bench.push("right")
'''


def games_folder(folder):
    """The README's example game, the package game above, and a note that is no game."""
    folder.mkdir()
    (folder / "dot.py").write_text(readme_example())
    (folder / "walk").mkdir()
    (folder / "walk" / "__init__.py").write_text(WALK)
    (folder / "walk" / "steps.py").write_text('FIRST = "from its own module"\n')
    (folder / "notes.txt").write_text("not a game: left out\n")
    return folder


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """The folder read and staged as bench_heap.main does (as source: no make mpy needed)."""
    folder = games_folder(tmp_path_factory.mktemp("bench") / "games")
    declared, files = bench_heap.folder_games(str(folder), source=True)
    out = tmp_path_factory.mktemp("staged")
    for path, data in files.items():
        target = out / path[len("/games/"):]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    bench_heap._PLAYERS.update(staged=str(out), declared=declared)
    yield folder, declared, files
    bench_heap._PLAYERS.clear()


def test_a_folder_is_read_and_staged_as_install_game_leaves_it(staged):
    folder, declared, files = staged
    assert sorted(files) == ["/games/dot.py", "/games/walk/__init__.py", "/games/walk/steps.py"]
    assert [(g["id"], g["path"], g["built_in"]) for g in declared] == [
        ("dot", "/games/dot.py", False), ("walk", "/games/walk/__init__.py", False)]
    assert declared[1]["bench"]["play"] == "bench_play"
    # compiled, as make install-game puts them on the board (the bench's default)
    _declared, compiled = bench_heap.folder_games(str(folder))
    assert sorted(compiled) == ["/games/dot.mpy", "/games/walk/__init__.mpy", "/games/walk/steps.mpy"]


@NEEDS_RUNNER[0]
@NEEDS_RUNNER[1]
def test_each_game_of_the_folder_is_a_row_played_with_its_own_bench(staged):
    rows = re.findall(r"^row: (.+)$", bench_heap.run(None, "--rows"), re.M)
    mine = rows.index("Dot")          # after the built-in games, before the system screens
    assert rows[mine:mine + 3] == ["Dot", "Walk", "Walk fast"], rows
    assert rows.index("Play a friend") < mine < rows.index("Records"), rows
    # its own GAME["bench"] row (the pace set to 3) and play, opened from the menu in /games
    text = bench_heap.run(None, "--row", "Walk fast")
    assert "walk's own play: pace 3, from its own module" in text, text
    shown = bench_heap.table(text)
    assert set(shown) == {"boot", "menu", "Walk fast"}, text
    assert 5 < shown["Walk fast"][0] <= shown["Walk fast"][1] < 200
    assert "did not open" not in text and re.search(r"^Walk fast .* (ok|OVER)$", text, re.M), text
    # its names on the board count its files in /games (read from the staged folder)
    [walk] = [p for p in names.programs(text) if p.label == "Walk fast"]
    found = names.board_names(walk, None, bench_heap._PLAYERS["staged"], names.esp32_static())
    assert {"/games/walk/__init__.py", "/games/walk/steps.py", "walk", "bench_play"} <= set(found)


BAD = {
    "plain.py": ("x = 1\n", "plain.py declares no GAME at its top level"),
    "typo.py": ("GAME = {'title': 'Typo'\n", "typo.py"),
    "raises.py": ("GAME = {'title': 'Raises'}\n1 / 0\n",
                  "raises.py: importing it raised ZeroDivisionError: division by zero"),
    "long.py": ("GAME = {'title': 'Minesweeper Classic'}\n", "long.py title"),
    "noplay.py": ("GAME = {'title': 'No play', 'bench': {'play': 'missing'}}\n",
                  "noplay.py bench play: 'missing' is not the name of a function of the game's module"),
    "badrow.py": ("GAME = {'title': 'Bad row', 'bench': {'rows': (('Other', 'x', {}),)}}\n",
                  "badrow.py bench rows: 'Other' is not one of its entries' titles (Bad row)"),
    "badset.py": ("GAME = {'title': 'Bad set', 'bench': {'rows': (('Bad set', 'x', {'speed': 2}),)}}\n",
                  "badset.py bench rows: 'speed' is not one of its settings (none)"),
    "dot.mpy": (b"M\x06", "dot.mpy is compiled: the bench reads a game's GAME on the PC, so give its "
                          "source (dot.py)"),
    "loose": (None, "loose is a folder without __init__.py: not a game package"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_file_that_is_not_a_game_is_named_with_why(tmp_path, capsys, name):
    content, said = BAD[name]
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "fine.py").write_text(readme_example())
    if content is None:
        (folder / name).mkdir()
    elif isinstance(content, bytes):
        (folder / name).write_bytes(content)
    else:
        (folder / name).write_text(content)
    with pytest.raises(SystemExit) as stop:
        bench_heap.main(["--source", "--games", str(folder)])
    message = str(stop.value)
    assert message.startswith("bench_heap: --games %s: " % folder), message
    assert said in message, message
    assert str(tmp_path) not in message[len("bench_heap: --games %s: " % folder):], message


@pytest.mark.parametrize("make, said", [
    (lambda p: p, "no such folder"),
    (lambda p: (p.write_text(readme_example()), p)[1], "not a folder: give the folder your games are in"),
    (lambda p: (p.mkdir(), (p / "notes.txt").write_text("hi"), p)[2],
     "no games there (name.py files or package folders name/)"),
])
def test_a_folder_that_holds_no_games_is_refused(tmp_path, make, said):
    path = make(tmp_path / "games")
    with pytest.raises(SystemExit) as stop:
        bench_heap.main(["--source", "--games", str(path)])
    assert str(stop.value) == "bench_heap: --games %s: %s" % (path, said)
