"""The one IRQ handler the six buttons share tells them apart by the pin it is
given: a tap shorter than a frame on any button latches that button only."""
import firmware.boards.ml4m as ml4m
from firmware.hal import Hal
from tests.test_hal_controls import count, frames


def test_each_button_short_tap_latches_that_button_only(board, store_dir):
    hal = Hal(ml4m, str(store_dir))
    assert hal.controls.irq
    for i, (name, _gpio) in enumerate(ml4m.BUTTONS):
        frames(hal, 2)
        board.after(10, lambda n=name: board.press(n))
        board.after(18, lambda n=name: board.release(n))
        snaps = frames(hal, 4)
        assert count(snaps, "just_pressed", i) == 1, name
        assert all(s["just_pressed"] <= {i} for s in snaps), name
