"""The radio (firmware/hal/radio.py) on emulated boards sharing an emulated
air (tools/emu/air.py): on and off, messages both ways without allocating,
signal strength, a board without the radio or with its stick on ADC2, and
the air's seeded loss, duplicates, reordering and partition."""
import types

import pytest

import firmware.boards.ml4m as ml4m
from firmware.hal.radio import Radio, BROADCAST
from tools.emu import Board
from tools.emu.air import Air


def board_file(**changes):
    """The ML4M's board file with some fields changed."""
    fields = {name: getattr(ml4m, name) for name in dir(ml4m) if name.isupper()}
    fields.update(changes)
    return types.SimpleNamespace(**fields)


def two_boards(air=None):
    air = air or Air(seed=3)
    a, b = Board(), Board()
    air.join(a, metres=0)
    air.join(b, metres=2)
    radios = []
    for board in (a, b):
        board.make_current()
        radio = Radio(ml4m)
        radio.start()
        radios.append(radio)
    return air, (a, b), radios


def later(ms, *boards):
    """Let ms pass on every board (their clocks stay together)."""
    for board in boards:
        board.advance(ms)


def on(board, fn, *args):
    board.make_current()
    return fn(*args)


def test_radio_on_only_between_start_and_stop():
    board = Board()
    radio = Radio(ml4m)
    assert not radio.on and not board.radio.wlan_on
    radio.start()
    assert radio.on and board.radio.wlan_on and board.radio.espnow_on
    assert board.radio.channel == ml4m.RADIO_CHANNEL
    assert radio.mac == board.radio.mac and len(radio.mac) == 6
    radio.stop()
    assert not radio.on and not board.radio.wlan_on and not board.radio.espnow_on
    radio.stop()                          # twice is fine
    assert radio.poll() is None and not radio.send(BROADCAST, b"x")


def test_messages_both_ways_and_the_buffer_reused():
    air, (a, b), (ra, rb) = two_boards()
    assert on(a, ra.send, rb.mac, b"hello")
    assert on(b, rb.poll) is None          # not arrived yet: poll never waits
    later(10, a, b)
    got = on(b, rb.poll)
    assert bytes(got) == b"hello" and rb.sender == ra.mac
    assert on(b, rb.poll) is None
    on(b, rb.send, ra.mac, b"again")
    later(10, a, b)
    first = on(a, ra.poll)
    on(b, rb.send, ra.mac, b"third")
    later(10, a, b)
    second = on(a, ra.poll)
    assert second is first and bytes(second) == b"third"   # one buffer, reused


def test_broadcast_and_signal_strength():
    air = Air(seed=1)
    a, near, far = Board(), Board(), Board()
    air.join(a, 0)
    air.join(near, 1)
    air.join(far, 30)
    radios = [on(x, lambda: Radio(ml4m)) for x in (a, near, far)]
    for board, radio in zip((a, near, far), radios):
        on(board, radio.start)
    on(a, radios[0].send, BROADCAST, b"hi")
    for board, radio in zip((near, far), radios[1:]):
        board.advance(10)
        assert bytes(on(board, radio.poll)) == b"hi"
        assert radio.signal(radios[0].mac) > -127
    assert radios[1].signal(radios[0].mac) > radios[2].signal(radios[0].mac)
    assert radios[0].signal(radios[1].mac) == -127   # nothing read from it yet


def test_a_radio_that_is_off_hears_nothing_and_acknowledges_nothing():
    air, (a, b), (ra, rb) = two_boards()
    on(b, rb.stop)
    assert not on(a, ra.send, rb.mac, b"anyone?")
    on(b, rb.start)
    b.advance(10)
    assert on(b, rb.poll) is None


def test_a_message_over_250_bytes_is_refused_with_the_limit():
    air, (a, b), (ra, rb) = two_boards()
    with pytest.raises(ValueError, match="at most 250 bytes, not 251"):
        on(a, ra.send, rb.mac, bytes(251))


def test_no_radio_or_a_stick_on_adc2_refuses_to_start_with_the_reason():
    board = Board()
    for changes, reason in (({"RADIO": False}, "No radio on\nthis board"),
                            ({"JOY_X_PIN": 4}, "Stick on GPIO4:\nADC2, no radio")):
        radio = Radio(board_file(**changes))
        with pytest.raises(ValueError) as refused:
            radio.start()
        assert str(refused.value) == reason
        assert all(len(line) <= 16 for line in reason.split("\n"))
        assert not radio.on and not board.radio.wlan_on      # Wi-Fi never turned on
    radio = Radio(ml4m)
    radio.start()
    assert radio.on


def test_a_full_receive_buffer_drops_but_still_acknowledges():
    air, (a, b), (ra, rb) = two_boards()
    acks = [on(a, ra.send, rb.mac, bytes(100)) for _ in range(8)]
    assert all(acks)                       # the radio heard every one
    b.advance(10)
    read = 0
    while on(b, rb.poll) is not None:
        read += 1
    assert read == 4 and b.radio.dropped == 4   # 526 bytes hold four of 108


def test_the_air_loses_duplicates_and_reorders_by_its_seed():
    def trial(seed):
        air, (a, b), (ra, rb) = two_boards(Air(seed=seed, loss=0.3, duplicate=0.2,
                                               reorder=0.3))
        got = []
        for i in range(40):
            on(a, ra.send, rb.mac, bytes([i]))
            a.advance(5)
            b.advance(5)
            while True:
                m = on(b, rb.poll)
                if m is None:
                    break
                got.append(m[0])
        b.advance(100)
        while True:
            m = on(b, rb.poll)
            if m is None:
                break
            got.append(m[0])
        return got
    got = trial(7)
    assert got == trial(7)                 # the same seed, the same air
    assert len(set(got)) < 40              # some lost
    assert len(got) > len(set(got))        # some twice
    assert got != sorted(got)              # some overtaken


def test_a_partition_cuts_the_room_until_it_heals():
    air, (a, b), (ra, rb) = two_boards()
    air.partition([a])
    assert not on(a, ra.send, rb.mac, b"x")
    air.heal()
    assert on(a, ra.send, rb.mac, b"y")
    b.advance(10)
    assert bytes(on(b, rb.poll)) == b"y"


def test_a_reset_turns_the_radio_off():
    air, (a, b), (ra, rb) = two_boards()

    def reset():
        import machine
        machine.soft_reset()
    a.make_current()
    a.run(reset, 10)
    assert not a.radio.wlan_on and not a.radio.espnow_on
