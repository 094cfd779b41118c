"""Light sleep while the panel is off (README, "Sleep while the panel is off").

After the screen saver has saved the game and turned the panel off, the app
(firmware/app.py, _awake) borrows this module and calls light_sleep(app): the
CPU stops until a button wakes it, then the frame loop goes on where it was.

The wake pins are the board file's WAKE_PINS. On the ESP32 they wake it through
EXT1 (esp32.wake_on_ext1), which watches only RTC GPIOs (0, 2, 4, 12-15, 25-27,
32-39) and, on the plain ESP32, can wake on "any pin high" but not on "any pin
low": so a board names its buttons here only if they are on RTC GPIOs and read
1 when pressed (the ML4M's are: 32, 33, 35, 34, 27, 26, with external
pull-downs, which EXT1 needs: the internal pulls may be off while it sleeps).
A board without WAKE_PINS never sleeps.

Never while a serial session is attached: while the CPU sleeps the UART hears
nothing, so a host that started the arcade (`make run`, `import main` typed at
the REPL) would lose the board. attached() says when that may be the case.
"""
import sys

from firmware import modules


def attached():
    """True when a host session may be on the serial line:
    - the arcade was imported by hand: `make run` and a REPL's `import main`
      import main.py as the module "main", where the board's own boot runs it
      as __main__ (so a module named "main" is loaded only then);
    - mpremote's mount (`make run`) is on sys.path as /remote;
    - bytes are waiting on the REPL's serial line (someone typing at it)."""
    if "main" in modules.loaded() or "/remote" in sys.path:
        return True
    return serial_waiting()


def serial_waiting():
    """Bytes waiting on the board's REPL line (only the ESP32's stdin is that
    line: on a PC it is a terminal or a pipe, which says nothing of a board)."""
    if sys.platform != "esp32":
        return False
    try:
        import select
        poller = select.poll()
        poller.register(sys.stdin, select.POLLIN)
        return bool(poller.poll(0))
    except Exception:   # a port whose stdin cannot be polled: assume nobody
        return False


def light_sleep(app):
    """Sleep until a wake button is pressed, then wake the panel as any input
    does (firmware/app.py, App._awake), the controls read first so that the
    waking press is held back even when the tap was over before the CPU ran
    again. When it cannot sleep here (no wake pins, a session attached, no
    ESP32 light sleep: the browser, the Node runner) app.can_sleep goes False
    until the next power-on. When every wake button is held, not this time
    (a stuck one would wake it at once, so held ones are left out)."""
    hal = app.hal
    board = hal.board
    pins = getattr(board, "WAKE_PINS", ())
    if not pins or board.BUTTON_ACTIVE != 1 or attached():
        app.can_sleep = False
        return
    try:
        import esp32
        from machine import Pin, lightsleep
    except ImportError:
        app.can_sleep = False
        return
    free = [Pin(gpio) for gpio in pins if Pin(gpio).value() != 1]
    if not free:
        return
    hal.sound.stop()          # the speaker's PWM stops with the clocks anyway
    esp32.wake_on_ext1(free, esp32.WAKEUP_ANY_HIGH)
    lightsleep()              # no time given: only a wake pin ends it
    now = hal.clock.now()
    hal.controls.update(now)  # the waking press (or its edge), seen now...
    hal.display.wake()
    hal.display.brightness(app.settings["brightness"])
    app.dimmed = app.asleep = False
    app.idle_since = now
    hal.controls.suspend_until_release()   # ...and held back from the game
