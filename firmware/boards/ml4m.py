# The ML4M handheld: pin map and calibration. The only file that names a pin.
#
# Facts from the ML4M 15-puzzle article (see the README): ESP32 at 240 MHz,
# SSD1306 128x64 on I2C (SCL GPIO22, SDA GPIO21, 400 kHz), joystick on ADC
# GPIO39 (X, read as 4095 - raw) and GPIO36 (Y), 12 bit at 11 dB, six buttons
# that read 1 when pressed, speaker on the DAC at GPIO25.
#
# Porting to another ESP32 + SSD1306 + joystick wiring is one new file: copy
# firmware/boards/devkit_proto.py (a commented example) to
# firmware/boards/<yours>.py, change the numbers, and choose it with
# `make deploy BOARD=<yours>`. Hal() without a board uses this file.

NAME = "ML4M"

# --- Display: SSD1306 on the hardware I2C bus 0 -----------------------------
I2C_ID = 0            # hardware I2C peripheral; None = machine.SoftI2C
I2C_SCL = 22
I2C_SDA = 21
I2C_FREQ = 400_000    # the SSD1306 is specified up to 400 kHz (fast mode)
DISPLAY_WIDTH = 128
DISPLAY_HEIGHT = 64
DISPLAY_ADDR = 0x3C
DISPLAY_LINK = "ssd1306_i2c"   # how the panel is spoken to: firmware/hal/ssd1306_i2c.py
# Contrast register (0x81) values for brightness levels 0..4. The SSD1306's
# light output is far from linear in this value: small steps matter at the
# bottom, so the table is roughly geometric.
DISPLAY_CONTRAST = (0x01, 0x0C, 0x30, 0x80, 0xFF)

# --- Buttons ----------------------------------------------------------------
# (name, GPIO) in the order A..F. swE is "start", swF is "select".
# GPIO34/35 are input-only without internal pulls; the ML4M has external
# resistors on every button, so no pin gets a pull.
BUTTONS = (("A", 32), ("B", 33), ("C", 35), ("D", 34), ("E", 27), ("F", 26))
BUTTON_ACTIVE = 1        # a pressed button reads 1
BUTTON_PULL = None       # None, "up" or "down"
BUTTON_DEBOUNCE_MS = 25  # contact bounce settles well inside this
# Light sleep while the panel is off (firmware/sleep.py) wakes on any of these
# going high, through the ESP32's EXT1 wake: it watches only RTC GPIOs (0, 2,
# 4, 12-15, 25-27, 32-39), all of the ML4M's buttons are, and their external
# pull-downs hold where internal pulls may be off. The stick cannot wake it.
WAKE_PINS = (32, 33, 35, 34, 27, 26)

# --- Joystick: two 12-bit ADC channels at 11 dB (full 0..3.3 V range) --------
JOY_X_PIN = 39
JOY_Y_PIN = 36
# The X potentiometer is wired backwards on the ML4M: pushing LEFT gives a
# HIGH raw count (the article reads it as 4095 - raw). UP gives a LOW raw Y.
JOY_X_INVERT = True
JOY_Y_INVERT = False
# Raw count at rest when it cannot be measured (stick held at power-on).
# The ESP32 ADC at 11 dB reads mid-supply as ~1850, not 2048.
JOY_REST_X = 1850
JOY_REST_Y = 1850
# A power-on reading further than this from the nominal rest, or wobbling by
# more than JOY_CAL_SPREAD, means the stick is being held: use the nominal rest.
JOY_CAL_LIMIT = 500
JOY_CAL_SPREAD = 400
# Dead zone with hysteresis, in counts from the calibrated rest: a direction
# engages beyond JOY_PRESS and lets go only inside JOY_RELEASE. The article's
# fixed thresholds (below 1200 / above 3000) are about 700..1150 from rest.
JOY_PRESS = 800
JOY_RELEASE = 500
JOY_SAMPLES = 4          # ADC reads averaged per axis per frame

# --- Speaker: DAC1 on GPIO25 ------------------------------------------------
SPEAKER_PIN = 25
SPEAKER_DAC = True       # the pin has a DAC (GPIO25/26 on the ESP32)
SPEAKER_DUTY = 32768     # PWM duty for tones: 50 % square wave, loudest

# --- Radio: ESP-NOW for link games (firmware/hal/radio.py) ------------------
# Wi-Fi takes the ESP32's second ADC while it is on: these pins cannot be read
# as analog inputs then, so the stick must not be on one of them (a link game
# is refused, with the reason, if it is).
RADIO = True
RADIO_CHANNEL = 1        # both boards of a link game use this Wi-Fi channel
ADC2_PINS = (0, 2, 4, 12, 13, 14, 15, 25, 26, 27)

# --- Frame rate -------------------------------------------------------------
FPS = 30
