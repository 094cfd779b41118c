"""Porting: the HAL runs on another wiring given one new board file."""
import os
import re

import pytest

import firmware.boards.ml4m as ml4m
from firmware.boards import load_board
from firmware.hal import Hal
from firmware.hal.controls import A, DOWN, E, LEFT, RIGHT, UP
from tools.emu import Board

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def proto():
    return Board(wiring="DEVKIT_PROTO")


def frames(hal, n):
    out = []
    for _ in range(n):
        hal.update(hal.clock.wait_frame())
        c = hal.controls
        out.append(({i for i in range(10) if c.just_pressed(i)}, c.direction()))
    return out


def fields(module):
    return {name for name in dir(module) if name.isupper()}


def test_load_board():
    assert load_board() is ml4m
    port = load_board("devkit_proto")
    assert port.NAME == "DEVKIT_PROTO"


def test_every_board_file_has_every_field():
    boards_dir = os.path.join(ROOT, "firmware", "boards")
    names = [n[:-3] for n in os.listdir(boards_dir) if n.endswith(".py") and n != "__init__.py"]
    assert "devkit_proto" in names
    for name in names:
        assert fields(load_board(name)) == fields(ml4m), name


def test_only_board_files_name_pins():
    pin_number = re.compile(r"\b(Pin|ADC|DAC|PWM)\(\s*\d")
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        for name in files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, ROOT)
            if not name.endswith(".py") or rel.startswith(os.path.join("firmware", "boards")):
                continue
            with open(path) as f:
                assert not pin_number.search(f.read()), rel


def test_the_hal_runs_on_the_second_board(proto, store_dir):
    hal = Hal(load_board("devkit_proto"), str(store_dir))
    d = hal.display
    assert d.present                                     # 0x3D on GPIO18/19
    d.fb.fill_rect(32, 16, 16, 16, 1)
    proto.bus.reset()
    assert d.flush() == 32 and proto.bus.bytes == 42
    rows = proto.panel.pixels()
    assert rows[16][32] and rows[31][47] and not rows[32][48]

    c = hal.controls
    assert c.calibrated and (c.center_x, c.center_y) == (2048, 2048)
    assert all(not jp and dirn is None for jp, dirn in frames(hal, 10))  # pulled up: idle
    proto.press("A")                                     # active low
    assert frames(hal, 1)[0][0] == {A}
    proto.release("A")
    frames(hal, 2)
    proto.bounce("E", edges=7, ms=5)
    snaps = frames(hal, 10)
    proto.release("E")                                   # E acts when let go (the mute chord)
    snaps += frames(hal, 5)
    assert sum(E in jp for jp, _ in snaps) == 1
    for where, expected in (("left", LEFT), ("right", RIGHT), ("up", UP), ("down", DOWN)):
        proto.push(where)
        assert frames(hal, 1)[0][1] == expected, where
        proto.center()
        frames(hal, 1)

    hal.sound.click()                                    # DAC2 on GPIO26
    assert proto.dac_log[-1][1] == 255
    hal.sound.sfx("select")
    assert proto.pwm_log and proto.pwm_log[-1][1] > 0


def test_the_ml4m_file_on_the_other_wiring_finds_no_panel(proto, store_dir):
    # the wrong board file: no panel at 0x3C on GPIO22/21 -> headless, not a crash
    hal = Hal(ml4m, str(store_dir))
    assert not hal.display.present


def test_the_board_chosen_at_deploy_is_read_from_board_txt(tmp_path, monkeypatch, capsys):
    from firmware.boards import chosen_board
    monkeypatch.chdir(tmp_path)
    assert chosen_board() == "ml4m"                      # nothing chosen: the ML4M
    (tmp_path / "board.txt").write_text("devkit_proto\n")
    assert chosen_board() == "devkit_proto"
    assert load_board(chosen_board()).NAME == "DEVKIT_PROTO"
    assert load_board("no_such_board").NAME == "ML4M"    # a typo still boots, and says so
    assert "no board file firmware/boards/no_such_board.py" in capsys.readouterr().out
