"""The README's screenshots replay to the same pictures (tools/screenshots:
make screenshots), and adding a game changes none of the games' pictures: the
replays choose menu entries by label."""
import glob
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, "tools", "screenshots")
REPLAYS = sorted(glob.glob(os.path.join(SHOTS, "*.replay")))


def picture(replay, png):
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--headless",
                           "--replay", replay, "--png", png], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    with open(png, "rb") as f:
        return f.read()


@pytest.mark.parametrize("replay", REPLAYS, ids=[os.path.basename(r) for r in REPLAYS])
def test_each_screenshot_replays_to_its_picture(replay, tmp_path):
    with open(replay[:-len(".replay")] + ".png", "rb") as f:
        committed = f.read()
    assert picture(replay, str(tmp_path / "shot.png")) == committed, \
        "the picture changed: if that is meant, run make screenshots and say so"


EXTRA = '''from firmware.screens.base import GameScreen
GAME = {"title": "Another", "save": "another"}


class Game(GameScreen):
    pass
'''


@pytest.mark.parametrize("name", ["puzzle8_picture", "reversi"])
def test_one_more_game_leaves_the_pictures_alone(name, tmp_path):
    lines = open(os.path.join(SHOTS, name + ".replay")).read().splitlines()
    header_at = next(i for i, line in enumerate(lines) if line.startswith("{"))
    header = json.loads(lines[header_at])
    header["store"] = {"games/another.py": EXTRA}      # an installed game: the menu is longer
    lines[header_at] = json.dumps(header)
    replay = tmp_path / (name + ".replay")
    replay.write_text("\n".join(lines) + "\n")
    with open(os.path.join(SHOTS, name + ".png"), "rb") as f:
        assert picture(str(replay), str(tmp_path / "shot.png")) == f.read()
