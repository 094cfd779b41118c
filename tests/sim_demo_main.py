# A tiny program for the simulator's tests (it stands in for main.py): it uses the
# emulated hardware the way any MicroPython program would -- the stock ssd1306
# driver on I2C, the buttons as Pins, the stick on an ADC -- and nothing else.
#   * a 10x10 square starts at (10, 27) and moves 4 px per frame while the stick
#     is pushed;
#   * while button A is down, a filled 16x16 block shows at the top right (112, 0);
#   * button B toggles a bar across the bottom (y 60..63) on each press;
#   * button F makes a click on the DAC;
#   * the frame counter is written in the corner at (0, 0) -- only when asked,
#     so that panel comparisons stay about the inputs.
import time

from machine import ADC, DAC, I2C, Pin
import ssd1306

i2c = I2C(0, scl=Pin(22), sda=Pin(21), freq=400000)
oled = ssd1306.SSD1306_I2C(128, 64, i2c)
button_a = Pin(32, Pin.IN)
button_b = Pin(33, Pin.IN)
button_f = Pin(26, Pin.IN)
stick_x = ADC(Pin(39), atten=ADC.ATTN_11DB)
stick_y = ADC(Pin(36), atten=ADC.ATTN_11DB)
speaker = DAC(Pin(25))

x, y = 10, 27
bar = False
b_was = 0
f_was = 0
while True:
    raw_x = 4095 - stick_x.read()     # the ML4M's X is wired inverted
    raw_y = stick_y.read()
    if raw_x < 1000:
        x = max(0, x - 4)
    elif raw_x > 3000:
        x = min(118, x + 4)
    if raw_y < 1000:
        y = max(0, y - 4)
    elif raw_y > 3000:
        y = min(50, y + 4)
    b = button_b.value()
    if b and not b_was:
        bar = not bar
    b_was = b
    f = button_f.value()
    if f and not f_was:
        speaker.write(255)
        time.sleep_ms(2)
        speaker.write(0)
    f_was = f
    oled.fill(0)
    oled.rect(x, y, 10, 10, 1)
    if button_a.value():
        oled.fill_rect(112, 0, 16, 16, 1)
    if bar:
        oled.fill_rect(0, 60, 128, 4, 1)
    oled.show()
    time.sleep_ms(10)
