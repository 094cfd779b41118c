# Example port: a breadboard ESP32 devkit instead of the ML4M.
#
# A port to other wiring is this one file. Every field firmware/boards/ml4m.py has
# must be here (the HAL reads them all); only the numbers change. Choose it
# with `make deploy BOARD=devkit_proto` (kept on the board in /board.txt) or
# `tools/sim.py --board devkit_proto`; in code:
#     from firmware.boards import load_board
#     from firmware.hal import Hal
#     hal = Hal(load_board("devkit_proto"), "/data")
# The emulator has the same wiring as Board(wiring="DEVKIT_PROTO"), and
# tests/test_hal_port.py runs the HAL on it.

NAME = "DEVKIT_PROTO"

# --- Display ----------------------------------------------------------------
# A 0.96" SSD1306 module whose address jumper is set to 0x3D, on the pins the
# ESP32's I2C(0) uses by default.
I2C_ID = 0            # None would bit-bang the bus with machine.SoftI2C
I2C_SCL = 18
I2C_SDA = 19
I2C_FREQ = 400_000
DISPLAY_WIDTH = 128
DISPLAY_HEIGHT = 64
DISPLAY_ADDR = 0x3D
DISPLAY_LINK = "ssd1306_i2c"   # how the panel is spoken to: firmware/hal/ssd1306_i2c.py
DISPLAY_CONTRAST = (0x01, 0x0C, 0x30, 0x80, 0xFF)   # brightness levels 0..4

# --- Buttons ----------------------------------------------------------------
# Plain push buttons from the pin to GND with no resistor: a pressed button
# reads 0 and a released one floats, so every pin needs the internal pull-up.
# (GPIO34-39 have no pulls: never put a button like this on them. And keep
# buttons off GPIO36/39 anyway: ESP32 erratum 3.11, ADC use there makes
# spurious edge interrupts, and the controls catch presses by IRQ.)
BUTTONS = (("A", 13), ("B", 14), ("C", 16), ("D", 17), ("E", 4), ("F", 5))
BUTTON_ACTIVE = 0
BUTTON_PULL = "up"
BUTTON_DEBOUNCE_MS = 25
# Light sleep while the panel is off wakes on these pins (firmware/sleep.py):
# none here. The ESP32's EXT1 wake watches only RTC GPIOs (16, 17 and 5 are
# not) and cannot wake on "any pin low", which buttons to GND would need. So
# this board never sleeps; the panel still turns off.
WAKE_PINS = ()

# --- Joystick ---------------------------------------------------------------
# A thumb-stick module on the input-only ADC pins, mounted the usual way round:
# LEFT gives a low X, UP gives a low Y.
JOY_X_PIN = 34
JOY_Y_PIN = 35
JOY_X_INVERT = False
JOY_Y_INVERT = False
JOY_REST_X = 2048     # this module's rest, measured once by hand
JOY_REST_Y = 2048
JOY_CAL_LIMIT = 500
JOY_CAL_SPREAD = 400
JOY_PRESS = 800
JOY_RELEASE = 500
JOY_SAMPLES = 4

# --- Speaker ----------------------------------------------------------------
# A small speaker through a transistor on GPIO26, which is DAC2. On a pin
# without a DAC set SPEAKER_DAC = False: the click is then a short PWM burst.
SPEAKER_PIN = 26
SPEAKER_DAC = True
SPEAKER_DUTY = 32768

# --- Radio ------------------------------------------------------------------
# The devkit's ESP32 has the radio; the stick is on ADC1 (GPIO34/35), which
# Wi-Fi leaves alone. A stick on one of ADC2_PINS could not be read while a
# link game runs: the game is refused then, saying why.
RADIO = True
RADIO_CHANNEL = 1
ADC2_PINS = (0, 2, 4, 12, 13, 14, 15, 25, 26, 27)

FPS = 30
