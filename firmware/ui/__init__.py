from micropython import const

# The panel every screen is laid out for, in pixels: the ML4M's 128x64 SSD1306.
WIDTH = const(128)
HEIGHT = const(64)
