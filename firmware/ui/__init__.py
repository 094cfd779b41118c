from micropython import const

# The panel every screen is laid out for, in pixels: the ML4M's 128x64 SSD1306.
WIDTH = const(128)
HEIGHT = const(64)


def clock_text(seconds):
    """m:ss, or h:mm:ss past an hour. Here rather than in firmware.ui.draw:
    a puzzle's panel shows its time all game, and needs nothing else of draw."""
    seconds = int(seconds)
    if seconds >= 3600:
        return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    return "%d:%02d" % (seconds // 60, seconds % 60)
