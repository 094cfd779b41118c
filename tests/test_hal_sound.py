"""Sound: the DAC click, PWM tones and melodies advanced by the frame loop
(never blocking it), mute, named sounds."""
import struct
import types

import pytest

import firmware.boards.ml4m as ml4m
from firmware.hal import Hal
from firmware.hal.sound import SOUNDS, Sound


@pytest.fixture
def hal(board, store_dir):
    return Hal(ml4m, str(store_dir))


def frames(hal, n):
    starts = []
    for _ in range(n):
        starts.append(hal.clock.wait_frame())
        hal.update()
    return starts


def score(name):
    """A named sound as (freq, ms) steps (SOUNDS packs them in bytes)."""
    packed = SOUNDS[name]
    return [struct.unpack_from("<HH", packed, i) for i in range(0, len(packed), 4)]


def notes(board):
    """The PWM log as (time_ms, freq) changes of what is heard (0 = silence)."""
    out = []
    for t, freq, duty in board.pwm_log:
        heard = freq if duty else 0
        if not out or out[-1][1] != heard:
            out.append((t, heard))
    return out


def test_click_is_the_articles_beep_without_blocking(board, hal):
    frames(hal, 2)
    board.dac_log.clear()
    t0 = board.now_ms()
    hal.sound.click()
    assert board.now_ms() == t0                 # click() returned at once
    assert board.dac_log == [(t0, 255)]
    frames(hal, 3)
    (t1, v1), (t2, v2) = board.dac_log
    assert (v1, v2) == (255, 0)
    assert 20 <= t2 - t1 <= 20 + 34             # stopped by update() ~20 ms later


def test_move_is_the_click(board, hal):
    board.dac_log.clear()
    hal.sound.sfx("move")
    assert board.dac_log[-1][1] == 255


def test_tone_starts_and_stops_by_itself(board, hal):
    frames(hal, 1)
    t0 = board.now_ms()
    hal.sound.tone(440, 100)
    assert board.now_ms() == t0
    assert notes(board)[-1] == (t0, 440)
    assert hal.sound.busy()
    frames(hal, 6)
    heard = notes(board)
    assert heard[-1][1] == 0 and 100 <= heard[-1][0] - t0 <= 134
    assert not hal.sound.busy()


def test_a_melody_plays_while_frames_keep_coming(board, hal):
    frames(hal, 1)
    t0 = board.now_ms()
    hal.sound.sfx("win")
    starts = frames(hal, 60)                    # 2 s of frames
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert max(gaps) <= 34                      # the loop never waited for the music
    melody = score("win")
    heard = notes(board)
    assert [f for _t, f in heard] == [f for f, _ms in melody] + [0]
    # every note starts within a frame of its place in the score
    due = t0
    for (t, f), (freq, ms) in zip(heard, melody):
        assert due <= t <= due + 34, (freq, t - t0, due - t0)
        due += ms


def test_every_named_sound_exists_and_ends(board, hal):
    for name in ("move", "illegal", "win", "lose", "error", "merge", "select", "fault"):
        hal.sound.sfx(name)
        frames(hal, 90)
        assert not hal.sound.busy(), name
    with pytest.raises(ValueError):
        hal.sound.sfx("fanfare")


def test_a_new_sound_replaces_the_one_playing(board, hal):
    hal.sound.sfx("lose")
    frames(hal, 2)
    hal.sound.sfx("select")
    frames(hal, 10)
    assert notes(board)[-2][1] == score("select")[0][0]
    assert not hal.sound.busy()


def test_click_after_a_tone_takes_the_pin_back_for_the_dac(board, hal):
    hal.sound.tone(880, 500)
    frames(hal, 2)
    board.dac_log.clear()
    hal.sound.click()
    assert board.pwm_log[-1][1:] == (0, 0)      # PWM released the pin
    assert board.dac_log[-1][1] == 255
    hal.sound.tone(660, 50)                     # and back to PWM
    assert notes(board)[-1][1] == 660


def test_mute(board, hal):
    s = hal.sound
    s.muted = True
    board.pwm_log.clear()
    board.dac_log.clear()
    for name in ("move", "win", "error"):
        s.sfx(name)
    s.tone(440, 100)
    s.click()
    frames(hal, 30)
    assert board.dac_log == [] and notes(board) == []
    s.muted = False
    s.sfx("lose")
    frames(hal, 2)
    s.muted = True                              # muting cuts a melody short
    assert notes(board)[-1][1] == 0 and not s.busy()


def test_a_late_frame_does_not_slow_the_tune(board, hal):
    frames(hal, 1)
    t0 = board.now_ms()
    hal.sound.sfx("lose")                       # 150+150+150+350 ms
    board.advance(400)                          # the loop stalled
    frames(hal, 1)
    assert notes(board)[-1][1] == score("lose")[2][0]     # 300..450 ms: the third note
    frames(hal, 15)
    end_t, end_f = notes(board)[-1]
    assert end_f == 0 and not hal.sound.busy()
    assert 800 <= end_t - t0 <= 800 + 34        # ended on time, not 400 ms late


def test_the_packed_table_holds_the_scores():
    # the sounds as they were written before the table was packed into bytes
    assert {name: tuple(score(name)) for name in SOUNDS} == {
        "select": ((1319, 35),),
        "merge": ((988, 30), (1480, 45)),
        "illegal": ((196, 70), (0, 30), (147, 110)),
        "error": ((220, 90), (0, 60), (220, 90), (0, 60), (220, 90)),
        "win": ((523, 90), (659, 90), (784, 90), (1047, 120), (0, 60), (784, 90), (1047, 260)),
        "lose": ((392, 150), (330, 150), (262, 150), (196, 350)),
        "fault": ((1760, 80), (0, 80), (1760, 80), (0, 80), (1760, 80), (0, 160), (440, 500)),
    }


def test_play_takes_note_pairs(board, hal):
    frames(hal, 1)
    hal.sound.play(((700, 40), (0, 20), (1900, 40)))
    frames(hal, 8)
    assert [f for _t, f in notes(board)] == [700, 0, 1900, 0]


def test_speaker_without_a_dac_clicks_with_pwm(board):
    port = types.SimpleNamespace(SPEAKER_PIN=25, SPEAKER_DAC=False, SPEAKER_DUTY=32768)
    s = Sound(port)
    s.click()
    assert board.dac_log == [] and notes(board)[-1][1] > 0
    board.advance(50)
    s.update()
    assert notes(board)[-1][1] == 0


def test_the_fault_signal_is_heard_even_when_muted(board, hal):
    # with no display it is the only sign of trouble, and the saved settings
    # may well say "muted"
    hal.sound.sfx("fault")
    hal.sound.muted = True
    frames(hal, 2)
    assert hal.sound.busy()
    frames(hal, 60)
    heard = [f for _t, f in notes(board)]
    assert heard == [f for f, _ms in score("fault")] + [0]
    board.pwm_log.clear()
    hal.sound.sfx("win")                        # other sounds stay muted
    assert notes(board) == []
