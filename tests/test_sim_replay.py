"""Replays and headless runs of the simulator: determinism, snapshots, the file format."""
import json
import os
import subprocess
import sys

import pytest

from tools.simulator import replay as replays
from tools.simulator.controls import Controls, HOLD_MS
from tools.simulator.keys import KeyDecoder
from tools.simulator import render

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim.py")
DEMO = "tests/sim_demo_main.py"

DEMO_REPLAY = [
    {"ml4m_replay": 1, "seed": 7, "main": DEMO},
    {"t_ms": 100, "event": "push right"},
    {"t_ms": 300, "event": "center"},
    {"t_ms": 350, "event": "press B"},
    {"t_ms": 420, "event": "release B"},
    {"t_ms": 500, "event": "tap down 120"},
    {"t_ms": 700, "event": "press A"},
    {"t_ms": 900, "event": "end"},
]


def sim(*args):
    result = subprocess.run([sys.executable, SIM] + list(args), cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def write_replay(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def test_same_replay_gives_the_same_final_panel_byte_for_byte(tmp_path):
    replay = write_replay(tmp_path / "demo.replay", DEMO_REPLAY)
    finals = []
    for run in range(2):
        png = tmp_path / ("final%d.png" % run)
        dump = tmp_path / ("final%d.txt" % run)
        out = sim("--headless", "--replay", replay, "--png", str(png), "--dump", str(dump))
        assert "stopped: end" in out and "7 inputs" in out
        finals.append((png.read_bytes(), dump.read_text()))
    assert finals[0] == finals[1]
    art = finals[0][1].splitlines()
    assert art[5][120] == "#"             # A is down at the end
    assert art[62][64] == "#"             # B toggled the bar on
    assert "##########" not in art[27][8:22], "the square left its start"
    assert any("#" in line[30:] for line in art[27:60])


def test_snapshots_at_virtual_times(tmp_path):
    replay = write_replay(tmp_path / "demo.replay", DEMO_REPLAY)
    shots = tmp_path / "shots"
    sim("--headless", "--replay", replay, "--snapshots", str(shots), "--at", "50,800")
    names = sorted(os.listdir(shots))
    assert names == ["at-50.png", "at-800.png", "final.png"]
    assert (shots / "at-50.png").read_bytes() != (shots / "at-800.png").read_bytes()
    assert (shots / "at-800.png").read_bytes().startswith(b"\x89PNG")


def test_headless_seconds_without_replay(tmp_path):
    dump = tmp_path / "panel.txt"
    out = sim("--headless", "--seconds", "0.3", "--main", DEMO, "--dump", str(dump))
    assert "stopped: limit" in out
    art = dump.read_text().splitlines()
    assert art[27][10:20] == "#" * 10


def test_replay_brings_its_flash(tmp_path):
    program = tmp_path / "store.py"
    program.write_text(
        "from machine import I2C, Pin\n"
        "import ssd1306\n"
        "oled = ssd1306.SSD1306_I2C(128, 64, I2C(0, scl=Pin(22), sda=Pin(21)))\n"
        "oled.fill(0)\n"
        "oled.text(open('data/name.txt').read(), 0, 0, 1)\n"
        "oled.show()\n")
    replay = write_replay(tmp_path / "r.replay", [
        {"ml4m_replay": 1, "seed": 0, "main": str(program), "store": {"data/name.txt": "hi"}},
        {"t_ms": 100, "event": "end"}])
    dump = tmp_path / "panel.txt"
    sim("--headless", "--replay", replay, "--dump", str(dump), "--no-boot")
    assert "#" in "".join(dump.read_text().splitlines()[:8])


def test_replay_file_errors_and_expansion(tmp_path):
    path = tmp_path / "r.replay"
    path.write_text('# a comment\n\n{"t_ms": 10, "event": "tap A"}\n{"t_ms": 5, "event": "tap left 30"}\n')
    replay = replays.load(str(path))
    assert replay.events == [(5, "push left"), (10, "press A"), (35, "center"),
                             (10 + replays.TAP_MS, "release A")]
    assert replay.end_ms is None and replay.header == {}
    path.write_text('{"t_ms": 10, "event": "jump"}\n')
    with pytest.raises(replays.ReplayError):
        replays.load(str(path))
    path.write_text('{"ml4m_replay": 99}\n')
    with pytest.raises(replays.ReplayError):
        replays.load(str(path))


def test_store_round_trip(tmp_path):
    src = tmp_path / "src"
    (src / "data").mkdir(parents=True)
    (src / "data" / "a.json").write_text('{"x": 1}')
    (src / "blob.bin").write_bytes(b"\xff\x00")
    files = replays.read_store(str(src))
    assert files == {"blob.bin": {"base64": "/wA="}, "data/a.json": '{"x": 1}'}
    dst = tmp_path / "dst"
    replays.write_store(str(dst), files)
    assert replays.read_store(str(dst)) == files
    with pytest.raises(replays.ReplayError):
        replays.write_store(str(dst), {"../evil": "x"})


# ---- the pieces, without a board ----------------------------------------------------

def test_key_decoder():
    d = KeyDecoder()
    assert d.feed(b"j\x1b[A\x1bOBq\x03") == ["j", "up", "down", "q", "ctrl-c"]
    assert d.feed(b"\x1b[1;2C") == ["right"]            # Shift+arrow is still the arrow
    assert d.feed(b"\x1b[") == []                        # cut in two by a read
    assert d.feed(b"D") == ["left"]
    assert d.feed(b"\x1b") == [] and d.flush() == ["esc"]
    assert d.feed(b"\x1b[15~x") == ["x"]                 # F5: ignored


def test_controls_model_holds_from_key_repeats():
    applied = []
    c = Controls(lambda event: applied.append(event))
    c.key("j", 0)
    assert applied == ["press A"]
    for t in range(30, 300, 30):                         # the keyboard auto-repeats
        c.key("j", t)
        c.tick(t)
    assert applied == ["press A"], "repeats keep the button down"
    c.tick(270 + HOLD_MS)
    assert applied == ["press A", "release A"]
    applied.clear()
    c.key("d", 1000)                                     # WASD: right
    c.key("d", 1100)                                     # a second tap, not a repeat
    assert applied == ["push right", "center"]
    c.tick(1200)
    assert applied[-1] == "push right"
    c.key("J", 2000)                                     # Shift: latched
    c.tick(5000)
    assert "press A" in applied and applied[-1] != "release A"
    assert "A(held)" in c.describe()
    c.key("J", 5100)
    assert applied[-1] == "release A"
    c.key("U", 6000)
    c.key(" ", 6001)                                     # space lets go of everything
    assert applied[-2:] == ["press D", "release D"]
    assert c.describe() == ""


def test_layout_fits_terminals():
    assert render.choose_scale(80, 24) == render.BRAILLE
    assert render.choose_scale(140, 40) == 1
    assert render.choose_scale(130, 35) == 1              # half blocks, framed, no legend
    assert render.choose_scale(128, 33) == 1              # half blocks, no frame
    assert render.Layout(128, 33, 1).border == 0 and render.Layout(130, 35, 1).border == 1
    assert render.choose_scale(127, 40) == render.BRAILLE  # 128 pixel columns need 128
    assert render.choose_scale(100, 40) == render.BRAILLE
    assert not render.Layout(50, 10, render.BRAILLE).fits
    assert render.choose_scale(270, 72) == 2
    assert render.choose_scale(80, 24, wanted=3) == 3
    layout = render.Layout(80, 24, render.BRAILLE)
    assert layout.fits and layout.status_row + 2 < 24
    pixels = [[(x + y) % 2 for x in range(128)] for y in range(64)]
    assert len(render.braille_rows(pixels)) == 16 and len(render.braille_rows(pixels)[0]) == 64
    rows = render.half_block_rows(pixels, 2)
    assert len(rows) == 64 and len(rows[0]) == 256


def test_screenshots_mode_turns_each_replay_into_a_png(tmp_path):
    for name in ("one", "two"):
        write_replay(tmp_path / (name + ".replay"), [
            {"ml4m_replay": 1, "seed": 0, "main": DEMO},
            {"t_ms": 100, "event": "press A" if name == "one" else "press B"},
            {"t_ms": 300, "event": "end"}])
    out = sim("--screenshots", str(tmp_path))
    assert out.count("screenshots:") == 2
    one, two = (tmp_path / "one.png").read_bytes(), (tmp_path / "two.png").read_bytes()
    assert one.startswith(b"\x89PNG") and one != two


def test_committed_screenshot_replays_load():
    folder = os.path.join(ROOT, "tools", "screenshots")
    names = [n for n in os.listdir(folder) if n.endswith(".replay")]
    assert "menu.replay" in names
    for name in names:
        replay = replays.load(os.path.join(folder, name))
        assert replay.end_ms is not None, name
