# main.py runs after boot.py: start the arcade (firmware/app.py does the work,
# including safe boot and the crash screen, so this file never needs to change).
try:
    from firmware import app
except ValueError as error:
    # .mpy files compiled for another MicroPython ("incompatible .mpy file"): say
    # which one they need, on the REPL and the panel, instead of a traceback
    if ".mpy" not in str(error):
        raise
    import sys
    have = "%d.%d.%d" % sys.implementation.version[:3]
    try:
        with open("/firmware/needs.txt") as f:   # written by make deploy and make dist
            needs = f.read().strip() + "+"
    except OSError:
        needs = "another"
    print("ML4M Arcade: %s: the firmware was compiled for MicroPython %s and this board runs %s."
          " Flash a MicroPython it was compiled for, or install the release's source folder"
          " (or make deploy-src)." % (error, needs, have))
    try:
        # the ML4M's panel (the board file is an .mpy too, so its wiring is written here)
        from machine import I2C, Pin
        import ssd1306
        panel = ssd1306.SSD1306_I2C(128, 64, I2C(0, scl=Pin(22), sda=Pin(21)))
        for row, line in enumerate(("Wrong version", "of MicroPython:", "board " + have,
                                    "needs " + needs, "or install the", "source folder")):
            panel.text(line, 0, row * 10, 1)
        panel.show()
    except Exception:       # no panel, other wiring: the REPL line is enough
        pass
else:
    app.main()
