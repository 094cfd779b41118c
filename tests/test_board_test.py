"""Test board on the emulated ML4M: every step, the codes for the faults the
emulator injects (a stuck button, a dead stick axis, a missing panel), and the
stick's range: captured, used by the controls, kept across a reboot, refused
when absurd."""
import json
import os
import sys

from firmware import app as app_module
from firmware import modules, stick_range
from firmware.boards import ml4m
from firmware.hal.controls import UP
from tests.panel import shows
from tools.emu.runner import Runner

FRAME_MS = 1000 // ml4m.FPS
BUTTONS = "ABCDEF"
DIRECTIONS = ("left", "right", "up", "down")


def power_on_holding_a(board, store_dir):
    """Power on with A held: the app starts at Test board."""
    board.press("A")
    arcade = Runner(board, store_dir, ml4m)     # main.py's start, across resets
    assert type(arcade.screen).__name__ == "BoardTest"
    frames(arcade, 3)
    board.release("A")
    frames(arcade, 3)
    return arcade


def frames(arcade, n=1):
    for _ in range(n):
        arcade.step()


def wait(arcade, ms):
    frames(arcade, max(1, ms // FRAME_MS))


def tap(board, arcade, button):
    board.press(button)
    frames(arcade, 3)
    board.release(button)
    frames(arcade, 3)


def nudge(board, arcade, direction):
    board.push(direction)
    frames(arcade, 3)
    board.center()
    frames(arcade, 3)


def step_name(arcade):
    return type(arcade.screen.step).__name__


def press_everything(board, arcade, skip=""):
    for name in BUTTONS:
        if name not in skip:
            tap(board, arcade, name)
    for direction in DIRECTIONS:
        nudge(board, arcade, direction)


def circle(board, arcade, reach=None):
    """Let go for the centre, then push to each end (the full ADC span, or
    `reach` counts from the rest) and press A."""
    wait(arcade, 800)
    rest = ml4m.JOY_REST_X
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if reach is None:
            board.push({(-1, 0): "left", (1, 0): "right", (0, -1): "up", (0, 1): "down"}[(dx, dy)])
        else:
            board.joystick_raw(rest + dx * reach, rest + dy * reach)
        frames(arcade, 4)
    board.center()
    frames(arcade, 3)
    tap(board, arcade, "A")
    wait(arcade, 2100)          # the outcome stays on the panel for 2 s


def judge_by_eye(board, arcade, answer="A"):
    """The panel's patterns (then its question), the speaker's sweeps (then
    its question): the owner answers each."""
    assert step_name(arcade) == "Panel"
    wait(arcade, 3600)
    assert shows(board.panel, "All looked OK?")
    tap(board, arcade, answer)
    assert step_name(arcade) == "Speaker"
    wait(arcade, 2400)
    assert shows(board.panel, "soft to loud?")
    tap(board, arcade, answer)


def finish(board, arcade):
    assert step_name(arcade) == "Facts"
    assert shows(board.panel, "Firmware") and shows(board.panel, "Board ml4m.py")
    tap(board, arcade, "A")
    assert arcade.screen.done
    return arcade.screen.failures


def test_a_good_board_passes_every_step(board, store_dir):
    arcade = power_on_holding_a(board, store_dir)
    frames(arcade, 2)
    assert shows(board.panel, "Press all")
    press_everything(board, arcade)
    assert step_name(arcade) == "Stick"
    circle(board, arcade)
    judge_by_eye(board, arcade)
    assert finish(board, arcade) == []
    frames(arcade, 2)
    assert shows(board.panel, "PASS")
    tap(board, arcade, "B")
    assert type(arcade.screen).__name__ == "Menu"


def test_the_panel_step_shows_the_address_and_times_a_full_frame(board, store_dir):
    arcade = power_on_holding_a(board, store_dir)
    press_everything(board, arcade)
    circle(board, arcade)
    assert board.panel.on
    wait(arcade, 3600)
    panel = arcade.screen.step
    assert shows(board.panel, "I2C 0x3C")
    # 1024 pixel bytes and the window commands at 400 kHz: ~24 ms on the bus
    assert 20 <= panel.frame_ms <= 30
    assert board.panel.inverted                         # the last pattern
    tap(board, arcade, "A")
    assert not board.panel.inverted


def test_the_speaker_sweeps_at_each_volume_even_when_muted(board, store_dir):
    arcade = power_on_holding_a(board, store_dir)
    assert arcade.settings.set("sound", False)
    arcade.settings.apply(arcade.hal)
    press_everything(board, arcade)
    circle(board, arcade)
    wait(arcade, 3600)
    tap(board, arcade, "A")
    start = len(board.pwm_log)
    wait(arcade, 2400)
    duties = sorted({duty for _t, freq, duty in board.pwm_log[start:] if freq and duty})
    assert duties == [ml4m.SPEAKER_DUTY >> 4, ml4m.SPEAKER_DUTY >> 2, ml4m.SPEAKER_DUTY]
    tap(board, arcade, "B")                             # not heard
    assert arcade.screen.failures == [("E8", "no sound")]
    assert arcade.hal.sound.muted                       # the owner's setting back


def test_a_stuck_button_is_E2_after_10_s(board, store_dir):
    board.press("C")                    # down from power-on, never let go
    arcade = power_on_holding_a(board, store_dir)
    press_everything(board, arcade, skip="C")
    assert step_name(arcade) == "Inputs"
    wait(arcade, 10100)
    assert step_name(arcade) == "Stick"
    assert arcade.screen.failures == [("E2", "C")]


def test_a_button_never_pressed_is_E1_and_a_direction_E3(board, store_dir):
    arcade = power_on_holding_a(board, store_dir)
    for name in "ABCDE":
        tap(board, arcade, name)
    for direction in ("left", "right", "down"):
        nudge(board, arcade, direction)
    wait(arcade, 10100)
    assert arcade.screen.failures == [("E1", "F"), ("E3", "UP")]


def test_a_dead_stick_axis_is_E3_then_E4_and_its_capture_is_refused(board, store_dir):
    board.kill_axis("x", ml4m.JOY_REST_X)   # the X wiper stuck mid-way, whatever is pushed
    arcade = power_on_holding_a(board, store_dir)
    press_everything(board, arcade)
    wait(arcade, 10100)                 # LEFT and RIGHT never come
    assert step_name(arcade) == "Stick"
    circle(board, arcade)
    assert ("E4", "X axis dead") in arcade.screen.failures
    assert [code for code, _ in arcade.screen.failures] == ["E3", "E4"]
    assert not os.path.exists(os.path.join(str(store_dir), "stick.json"))   # nothing kept


def test_an_axis_cut_off_reads_as_a_stick_held_to_one_side(board, store_dir):
    board.kill_axis("x")                # the X wiper reads 0: pushed right for good (inverted X)
    arcade = power_on_holding_a(board, store_dir)
    press_everything(board, arcade)
    wait(arcade, 10100)
    # (held right, the X axis outweighs every push up or down too)
    assert arcade.screen.failures == [("E2", "RIGHT"), ("E3", "LEFT UP DOWN")]


def test_a_missing_panel_is_E6_and_the_rest_still_runs(board, store_dir):
    board.display_present = False
    arcade = power_on_holding_a(board, store_dir)
    press_everything(board, arcade)
    circle(board, arcade)
    frames(arcade, 2)
    assert step_name(arcade) == "Speaker"
    wait(arcade, 2400)
    tap(board, arcade, "A")
    assert finish_headless(board, arcade) == [("E6", "no panel at 0x3C")]


def finish_headless(board, arcade):
    tap(board, arcade, "A")
    assert arcade.screen.done
    return arcade.screen.failures


def test_the_owner_saying_no_to_the_panel_is_E7(board, store_dir):
    arcade = power_on_holding_a(board, store_dir)
    press_everything(board, arcade)
    circle(board, arcade)
    judge_by_eye(board, arcade, answer="B")
    assert finish(board, arcade) == [("E7", "panel looked wrong"), ("E8", "no sound")]
    frames(arcade, 2)
    assert shows(board.panel, "E7") and shows(board.panel, "E8")


def test_settings_opens_test_board(board, store_dir):
    from tests.test_app import boot, choose, to_menu
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Settings")
    settings = arcade.screen
    while settings.rows[settings.cursor][1] != "Test board":
        nudge(board, arcade, "down")
    tap(board, arcade, "A")
    frames(arcade, 2)
    assert type(arcade.screen).__name__ == "BoardTest"
    assert shows(board.panel, "Press all")


# ---- the stick's range -------------------------------------------------------

def test_a_captured_range_changes_what_the_controls_report_and_survives_a_reboot(board, store_dir):
    # a worn stick: its ends are only 600 counts from the rest
    arcade = power_on_holding_a(board, store_dir)
    controls = arcade.hal.controls
    board.joystick_raw(ml4m.JOY_REST_X, ml4m.JOY_REST_Y - 600)     # pushed up all it can
    frames(arcade, 2)
    assert controls.direction() is None          # 600 < the 800 a direction needs
    board.center()
    press_everything(board, arcade)
    circle(board, arcade, reach=600)
    with open(os.path.join(str(store_dir), "stick.json")) as f:
        saved = json.loads(f.read().rsplit("\n", 1)[0])
    assert saved["y_low"] == ml4m.JOY_REST_Y - 600 and saved["x_high"] == ml4m.JOY_REST_X + 600
    board.joystick_raw(ml4m.JOY_REST_X, ml4m.JOY_REST_Y - 600)
    frames(arcade, 2)
    assert controls.direction() == UP
    board.center()
    # a reboot: the range comes back from the flash
    board.power_cycle()
    hal = Runner(board, store_dir, ml4m).hal
    board.joystick_raw(ml4m.JOY_REST_X, ml4m.JOY_REST_Y - 600)
    hal.controls.update(hal.clock.now())
    assert hal.controls.direction() == UP
    assert hal.controls.stick() == (0, -1850)


def test_a_captured_range_goes_on_to_the_next_program_in_the_launch_note(board, store_dir):
    # the menu's program (and a game's) takes the range in use from the note:
    # it reads no data/stick.json and loads no firmware/stick_range.py
    arcade = power_on_holding_a(board, store_dir)
    board.center()
    press_everything(board, arcade)
    circle(board, arcade, reach=600)
    assert arcade.hal.controls.reach == [600, 600, 600, 600]
    os.remove(os.path.join(str(store_dir), "stick.json"))   # read again, it would be gone
    judge_by_eye(board, arcade)
    finish(board, arcade)
    frames(arcade, 2)
    resets = arcade.resets
    tap(board, arcade, "B")                     # Test board's program ends: the menu's starts
    assert arcade.resets == resets + 1
    assert type(arcade.screen).__name__ == "Menu"
    assert arcade.hal.controls.reach == [600, 600, 600, 600]
    assert "firmware.stick_range" not in sys.modules
    board.joystick_raw(ml4m.JOY_REST_X, ml4m.JOY_REST_Y - 600)
    frames(arcade, 2)
    assert arcade.hal.controls.direction() == UP


def test_an_absurd_capture_is_refused_with_its_reason_and_the_old_one_kept(board, store_dir):
    from firmware.hal import Hal
    hal = Hal(ml4m, str(store_dir))
    good = {"center_x": 1850, "center_y": 1850, "x_low": 1250, "x_high": 2450,
            "y_low": 1250, "y_high": 2450}
    assert stick_range.keep(hal, dict(good)) is None
    for bad, reason in (
            (dict(good, x_low=1800, x_high=1890), "X axis dead:\nmoved 90 counts"),
            (dict(good, center_y=100, y_low=0), "Y centre 100:\nnot mid-range"),
            (dict(good, y_high=1990), "Y reach 140:\nunder 400")):
        assert stick_range.keep(hal, bad) == reason
    assert hal.store.load("stick", {}) == good         # the old one, on the flash
    hal.controls.update(hal.clock.now())
    assert hal.controls.reach == [600, 600, 600, 600]   # and in use


def test_a_damaged_stick_file_is_set_aside_and_the_stick_works_as_built(board, store_dir):
    with open(os.path.join(str(store_dir), "stick.json"), "w") as f:
        f.write(json.dumps({"center_x": 5000, "center_y": 1850, "x_low": 0, "x_high": 4095,
                            "y_low": 0, "y_high": 4095}))
    hal = Runner(board, store_dir, ml4m).hal     # power-on
    assert os.path.exists(os.path.join(str(store_dir), "stick.bad"))
    [(name, reason)] = hal.store.bad
    assert name == "stick" and reason.startswith("stick center_x:") and "5000" in reason
    board.push("up")
    hal.controls.update(hal.clock.now())
    assert hal.controls.direction() == UP


# ---- on real MicroPython, with the browser arcade's machine stand-in ----------

def test_test_board_runs_on_micropython_as_in_the_browser():
    import json
    import shutil
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    modules = os.path.join(root, "tools", "node_modules", "@micropython")
    if shutil.which("node") is None or not os.path.isdir(modules):
        import pytest
        pytest.skip("needs node and the MicroPython WebAssembly package (make deps)")
    done = subprocess.run(["node", os.path.join(root, "tools", "mprun", "run.mjs"),
                           "--script", "tests/mp_board_steps.py"],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Test board: PASS" in done.stdout, done.stdout + done.stderr
    saved = json.loads(done.stdout.split("saved: ", 1)[1].splitlines()[0])
    assert saved == {"center_x": 1850, "center_y": 1850, "x_low": 0, "x_high": 4095,
                     "y_low": 0, "y_high": 4095}
