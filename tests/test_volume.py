"""Volume: three levels on the speaker's two peripherals (the
click's DAC step height and the tones' PWM duty), saved with the settings,
applied at once and at boot; mute stays a separate on/off."""
import types

import pytest

import firmware.boards.ml4m as ml4m
from firmware.hal import Hal
from firmware.hal.sound import SOUNDS, Sound
from firmware.screens import settings as settings_screen
from firmware.settings import CHOICES
from tests.test_hal_sound import score as packed_score
from tests.panel import shows
from tests.test_app import boot, choose, frames, nudge, tap, to_menu

FULL = ml4m.SPEAKER_DUTY


@pytest.fixture
def hal(board, store_dir):
    return Hal(ml4m, str(store_dir))


def run(hal, n):
    for _ in range(n):
        hal.clock.wait_frame()
        hal.update()


def heard(board):
    """PWM log as (freq, duty) of what is heard, changes only (0, 0 = silence)."""
    out = []
    for _t, freq, duty in board.pwm_log:
        step = (freq, duty) if duty else (0, 0)
        if out[-1:] != [step] and (out or step != (0, 0)):
            out.append(step)       # (a freq change logged before the duty's is no sound)
    return out


def click_height(board, hal):
    board.dac_log.clear()
    hal.sound.click()
    top = board.dac_log[-1][1]
    run(hal, 3)
    assert board.dac_log[-1][1] == 0            # and back down
    return top


def test_default_is_loud_as_before(board, hal):
    assert hal.sound.volume == 3
    assert click_height(board, hal) == 255      # the ML4M 15-puzzle's beep
    hal.sound.tone(440, 50)
    assert heard(board)[-1] == (440, FULL)      # a 50 % square wave


def test_each_level_lowers_the_click_and_the_duty(board, hal):
    tops, duties = [], []
    for level in (3, 2, 1):
        hal.sound.volume = level
        tops.append(click_height(board, hal))
        hal.sound.tone(660, 40)
        duties.append(heard(board)[-1][1])
        run(hal, 3)
    assert tops == [255, 100, 25]
    assert duties == [FULL, FULL >> 2, FULL >> 4]
    assert all(d > 0 for d in duties) and all(t > 0 for t in tops)


def test_out_of_range_levels_are_clamped(board, hal):
    hal.sound.volume = 9
    assert hal.sound.volume == 3
    hal.sound.volume = 0
    assert hal.sound.volume == 1


def test_a_sounding_tone_changes_level_at_once(board, hal):
    hal.sound.tone(523, 500)
    run(hal, 2)
    hal.sound.volume = 1
    assert board.pwm_log[-1][1:] == (523, FULL >> 4)
    run(hal, 20)
    assert heard(board)[-1] == (0, 0) and not hal.sound.busy()


@pytest.mark.parametrize("level", [1, 2, 3])
def test_named_sounds_play_in_full_at_every_level(board, hal, level):
    hal.sound.volume = level
    duty = FULL >> (4, 2, 0)[level - 1]
    for name in ("select", "merge", "illegal", "error", "win", "lose"):
        board.pwm_log.clear()
        hal.sound.sfx(name)
        run(hal, 90)
        assert not hal.sound.busy(), name
        score = [f for f, _ms in packed_score(name)]
        got = heard(board)
        assert [f for f, _d in got] == score + [0], name
        assert all(d == duty for f, d in got if f), name


def test_mute_still_silences_everything_at_any_level(board, hal):
    s = hal.sound
    for level in (3, 2, 1):
        s.volume = level
        s.muted = True
        board.pwm_log.clear()
        board.dac_log.clear()
        s.click()
        s.tone(440, 50)
        for name in ("move", "select", "win", "error"):
            s.sfx(name)
        s.volume = 3 if level == 1 else 1           # changing level while muted
        run(hal, 30)
        assert board.dac_log == [] and heard(board) == [], level
        s.muted = False
    s.volume = 2
    assert click_height(board, hal) == 100          # unmuted: the level kept


def test_play_still_takes_note_pairs(board, hal):
    hal.sound.volume = 2
    hal.sound.play(((700, 40), (0, 20), (900, 40)))
    run(hal, 8)
    assert heard(board) == [(700, FULL >> 2), (0, 0), (900, FULL >> 2), (0, 0)]


def test_pwm_click_without_a_dac_follows_the_volume(board):
    port = types.SimpleNamespace(SPEAKER_PIN=25, SPEAKER_DAC=False, SPEAKER_DUTY=32768)
    s = Sound(port)
    s.volume = 1
    s.click()
    assert board.dac_log == [] and board.pwm_log[-1][2] == 32768 >> 4


def test_every_stored_sound_is_whole_steps():
    for name, packed in SOUNDS.items():
        assert len(packed) >= 4 and len(packed) % 4 == 0, name
        assert all(ms > 0 for _f, ms in packed_score(name)), name


def test_volume_row_fits_the_panel():
    names = [name for _, name, _ in settings_screen.SYSTEM]
    assert names.index("volume") == names.index("sound") + 1
    label, key, shown = settings_screen.SYSTEM[names.index("volume")]
    assert len(shown) == len(CHOICES[key][1])
    for text in shown:
        assert len(label) + 1 + len(text) <= 15, text     # beside the scroll bar


def test_volume_setting_is_applied_at_once_heard_saved_and_survives_a_reboot(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert arcade.settings["volume"] == 2 and arcade.hal.sound.volume == 2   # a new board: medium
    choose(board, arcade, "Settings")
    nudge(board, arcade, "down")                   # Volume, under Sound
    assert shows(board.panel, "Volume") and shows(board.panel, "medium")
    nudge(board, arcade, "right")                  # medium -> loud
    assert arcade.settings["volume"] == 3 and shows(board.panel, "loud")
    board.pwm_log.clear()
    nudge(board, arcade, "left")                   # loud -> medium
    assert arcade.settings["volume"] == 2 and arcade.hal.sound.volume == 2
    assert shows(board.panel, "medium")
    assert (880, FULL >> 2) in heard(board)        # a short tone at the new level
    frames(arcade, 10)
    assert heard(board)[-1] == (0, 0) and not arcade.hal.sound.busy()
    nudge(board, arcade, "left")                   # medium -> soft
    assert arcade.hal.sound.volume == 1 and shows(board.panel, "soft")
    nudge(board, arcade, "left")                   # soft -> loud (wraps round)
    assert arcade.hal.sound.volume == 3 and shows(board.panel, "loud")
    tap(board, arcade, "A")                        # loud -> soft (A steps up, wraps)
    assert arcade.hal.sound.volume == 1
    nudge(board, arcade, "right")                  # soft -> medium
    assert arcade.settings["volume"] == 2
    assert arcade.settings["sound"] is True        # mute is a separate setting

    rebooted = boot(board, store_dir)              # a new HAL on the same flash
    assert rebooted.settings["volume"] == 2
    assert rebooted.hal.sound.volume == 2
    assert not rebooted.hal.sound.muted
    board.dac_log.clear()
    rebooted.hal.sound.click()
    assert board.dac_log[-1][1] == 100


def test_muted_and_soft_both_survive_a_reboot(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Settings")
    tap(board, arcade, "A")                        # Sound: on -> off
    nudge(board, arcade, "down")
    board.pwm_log.clear()
    nudge(board, arcade, "left")                   # medium -> soft, not heard
    assert heard(board) == []
    rebooted = boot(board, store_dir)
    assert rebooted.hal.sound.muted and rebooted.hal.sound.volume == 1


def test_a_bad_saved_volume_falls_back_to_medium(board, store_dir):
    hal = Hal(ml4m, str(store_dir))
    hal.store.save("settings", {"volume": 7, "sound": True})
    arcade = boot(board, store_dir)
    assert arcade.settings["volume"] == 2 and arcade.hal.sound.volume == 2
