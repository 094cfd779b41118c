"""Buttons, joystick, speaker and GPIO rules of the emulated board."""
import time

import pytest

from machine import ADC, DAC, PWM, Pin
from tools.emu import DEVKIT_PROTO, Board

BUTTON_PINS = {"A": 32, "B": 33, "C": 35, "D": 34, "E": 27, "F": 26}


def test_buttons_read_one_when_pressed(board):
    pins = {name: Pin(gpio, Pin.IN) for name, gpio in BUTTON_PINS.items()}
    assert [p.value() for p in pins.values()] == [0] * 6
    board.press("C")
    assert pins["C"].value() == 1 and pins["C"]() == 1
    assert sum(p.value() for p in pins.values()) == 1
    board.release("C")
    assert pins["C"].value() == 0


def test_hold_and_tap_advance_time(board):
    pin = Pin(33, Pin.IN)
    seen = []
    board.at(100, lambda: seen.append(pin.value()))
    board.hold("B", 250)
    assert seen == [1] and pin.value() == 0 and board.now_ms() == 250
    board.tap("B")
    assert board.now_ms() == 310


def test_unknown_button_is_an_error(board):
    with pytest.raises(ValueError):
        board.press("G")


def test_input_only_pins_refuse_output_and_have_no_pulls(board):
    with pytest.raises(ValueError):
        Pin(34, Pin.OUT)
    with pytest.raises(ValueError):
        Pin(39, Pin.OPEN_DRAIN)
    floating = Pin(35, Pin.IN, Pin.PULL_UP)     # accepted, but there is no pull-up
    board.drive(35, None)
    assert floating.value() == 0
    pulled = Pin(4, Pin.IN, Pin.PULL_UP)
    assert pulled.value() == 1


def test_invalid_pins(board):
    for gpio in (6, 20, 24, 28, 40):
        with pytest.raises(ValueError):
            Pin(gpio)


def test_output_pin_reads_back_its_latch(board):
    led = Pin(2, Pin.OUT, value=1)
    assert led.value() == 1
    led.off()
    assert led() == 0
    led(1)
    assert led.value() == 1


def test_irq_fires_on_the_requested_edges(board):
    events = []
    button = Pin(32, Pin.IN)
    button.irq(lambda p: events.append((p.value(), board.now_ms())), Pin.IRQ_RISING)
    board.press("A")
    board.advance(5)
    board.release("A")
    board.advance(5)
    assert events == [(1, 0)]
    button.irq(lambda p: events.append(("fall", p.value())), Pin.IRQ_FALLING, hard=True)
    board.press("A")
    board.release("A")                 # a hard IRQ runs at once, inside the edge
    assert events[-1] == ("fall", 0)
    button.irq(None)
    board.press("A")
    board.release("A")
    assert len(events) == 2


def test_soft_irqs_beyond_the_scheduler_queue_are_dropped(board):
    calls = []
    Pin(32, Pin.IN).irq(calls.append, Pin.IRQ_RISING | Pin.IRQ_FALLING)
    for _ in range(6):
        board.press("A")
        board.release("A")
    time.ticks_ms()
    assert len(calls) == 8 and board.dropped_irqs == 4


def test_bounce_produces_every_edge_and_ends_pressed(board):
    rising, falling = [], []
    button = Pin(33, Pin.IN)
    button.irq(lambda p: rising.append(board.now_ms()), Pin.IRQ_RISING, hard=True)
    board.bounce("B", edges=5, ms=4)
    assert len(rising) == 1            # the first contact happens now
    button.irq(lambda p: (rising if p.value() else falling).append(board.now_ms()),
               Pin.IRQ_RISING | Pin.IRQ_FALLING, hard=True)
    board.advance(10)
    assert rising == [0, 2, 4] and falling == [1, 3]
    assert button.value() == 1
    board.bounce("B", edges=4, ms=3, release=True)    # rounded up to 5 edges
    board.advance(10)
    assert button.value() == 0
    assert len(falling) == 2 + 3


def test_polling_sees_the_bounce_in_progress(board):
    button = Pin(32, Pin.IN)
    board.bounce("A", edges=3, ms=2)
    samples = []
    for _ in range(4):
        samples.append(button.value())
        time.sleep_us(700)
    assert samples == [1, 1, 0, 1]


def test_joystick_rest_and_directions_in_raw_counts(board):
    x = ADC(Pin(39), atten=ADC.ATTN_11DB)
    y = ADC(Pin(36), atten=ADC.ATTN_11DB)
    assert (x.read(), y.read()) == (1850, 1850)
    board.push("left")
    assert x.read() > 4000 and y.read() == 1850      # X is wired inverted
    board.push("right")
    assert x.read() < 100
    board.push("up")
    assert y.read() < 100 and x.read() == 1850
    board.push("down-right")
    assert y.read() > 4000 and x.read() < 100
    board.center()
    assert (x.read(), y.read()) == (1850, 1850)
    board.joystick_raw(123, 3456)
    assert (x.read(), y.read()) == (123, 3456)
    with pytest.raises(ValueError):
        board.push("sideways")


def test_adc_default_attenuation_saturates(board):
    # The port's default is ATTN_0DB (0..0.95 V): forgetting atten= pins the stick at max.
    x = ADC(Pin(39))
    assert x.read() == 4095
    x.atten(ADC.ATTN_11DB)
    assert x.read() == 1850


def test_adc_width_u16_and_microvolts(board):
    x = ADC(Pin(39), atten=ADC.ATTN_11DB)
    board.joystick_raw(4095, 0)
    assert x.read_u16() == 65535
    assert x.read_uv() == 3_100_000
    board.joystick_raw(2048, 0)
    x.width(ADC.WIDTH_9BIT)
    assert x.read() == 256
    assert x.read_u16() == (256 << 7) | (256 >> 2)


def test_adc_needs_a_pin_on_an_adc_channel(board):
    assert ADC(39, atten=ADC.ATTN_11DB).read() == 1850     # a GPIO number works too
    with pytest.raises(ValueError):
        ADC(Pin(5))
    with pytest.raises(ValueError):
        ADC(40)


def test_polling_a_pin_without_sleeping_still_sees_a_scheduled_press(board):
    button = Pin(32, Pin.IN)
    board.at(5, lambda: board.press("A"))
    while not button.value():
        pass
    assert 5 <= board.now_ms() < 6


def test_noise_moves_readings_within_bounds(board):
    y = ADC(Pin(36), atten=ADC.ATTN_11DB)
    board.noise = 20
    readings = [y.read() for _ in range(300)]
    assert min(readings) >= 1830 and max(readings) <= 1870
    assert len(set(readings)) > 10
    board.noise = 0
    assert y.read() == 1850


def test_noise_is_seeded_per_board():
    def readings():
        b = Board(seed=3)
        b.noise = 50
        adc = ADC(Pin(39), atten=ADC.ATTN_11DB)
        return [adc.read() for _ in range(20)]

    assert readings() == readings()


def test_dac_writes_are_logged_with_their_time(board):
    dac = DAC(Pin(25))
    dac.write(128)
    time.sleep_ms(3)
    dac.write(0)
    assert board.dac_log == [(0, 128), (3, 0)]
    with pytest.raises(ValueError):
        dac.write(256)
    with pytest.raises(ValueError):
        DAC(Pin(27))


def test_pwm_changes_are_logged(board):
    pwm = PWM(Pin(25), freq=440, duty_u16=32768)
    time.sleep_ms(100)
    pwm.freq(880)
    pwm.duty(0)
    time.sleep_ms(50)
    pwm.deinit()
    assert board.pwm_log == [(0, 440, 32768), (100, 880, 32768), (100, 880, 0), (150, 0, 0)]
    assert pwm.freq() == 880
    other = PWM(Pin(2), freq=1000)     # not the speaker: not in the speaker log
    other.duty_u16(100)
    assert len(board.pwm_log) == 4


def test_second_wiring_has_its_own_pins():
    board = Board(wiring=DEVKIT_PROTO)
    a = Pin(13, Pin.IN)                 # active-low button, no pull: floats
    assert a.value() == 0
    a.init(Pin.IN, Pin.PULL_UP)
    assert a.value() == 1
    board.press("A")
    assert a.value() == 0
    board.release("A")
    assert a.value() == 1
    x = ADC(Pin(34), atten=ADC.ATTN_11DB)
    board.push("left")                  # not inverted on this board
    assert x.read() == 0
    DAC(Pin(26)).write(7)
    assert board.dac_log == [(0, 7)]
    by_name = Board(wiring="DEVKIT_PROTO")
    assert by_name.wiring["i2c_scl"] == 18
