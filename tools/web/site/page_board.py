# The ML4M inside a web page: what worker.js runs in MicroPython beside the
# firmware. The hardware is the emulator's own: tools/emu/mp_node/machine.py
# (pins, ADC, DAC, PWM, I2C) with tools/emu/ssd1306_model.py on the I2C bus at
# 0x3C, the very SSD1306 model the CPython emulator and its tests use.
#
# The firmware runs unchanged: boot.py, then main.py, and again after each
# soft reset (a launch: the page starts a fresh worker, with the flash, the
# RTC memory and the panel kept: keep() / after_reset()). Only App.run, the
# endless loop, is replaced for the page (see _one_frame_at_a_time): the page
# calls frame() once per frame, and between two calls worker.js runs a
# gc.collect() at top level. This port's collector frees nothing inside a
# running call (the WebAssembly stack cannot be scanned), so that collection
# is where the frame's garbage goes, and where the heap cap is checked.
import gc
import json
import sys
import time

import machine
import port_errno
from ssd1306_model import SSD1306

# this port's files raise Emscripten's error numbers: the board's from here on
port_errno.install()

# About what an ESP32 build of MicroPython leaves for the heap (gc.mem_free()
# at the REPL of a fresh board is a little over 110 KB).
HEAP_CAP = 110 * 1024
DISPLAY_ADDR = 0x3C
DIRECTIONS = {
    "left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1),
    "upleft": (-1, -1), "upright": (1, -1), "downleft": (-1, 1), "downright": (1, 1),
}

panel = SSD1306(128, 64)
machine.devices[DISPLAY_ADDR] = panel
_heard = []                 # (ms since power-on, kind, a, b) since the last frame
_power_on = time.ticks_ms()
_shown = None               # the panel's counters when the picture was last sent
_state = {"app": None, "program": None, "baseline": 0, "peak": 0, "failed": None}


class _BoardGc:
    """The gc module as the firmware sees it here: this port's own, but for
    mem_free(), which answers as the board would (About shows it): the cap
    less what the firmware holds. This port's heap is larger and grows, so
    its own answer (over 100 MB) says nothing about the board. (The gc
    module's attributes cannot be set on this port: it stands in for it.)"""

    def __getattr__(self, name):
        return getattr(gc, name)

    def mem_free(self):
        return max(0, HEAP_CAP - (gc.mem_alloc() - _state["baseline"]))


sys.modules["gc"] = _BoardGc()      # before the firmware's `import gc`


def _output(kind, gpio, a, b):
    _heard.append((time.ticks_diff(time.ticks_ms(), _power_on), kind, a, b))


machine.on_output = _output


# ---- inputs: the same events as the simulator's replays ------------------------
def apply(event):
    """'press A' / 'release A' / 'push left' (and diagonals) / 'center'."""
    from firmware.boards import ml4m as board
    verb, _, what = event.partition(" ")
    if verb in ("press", "release"):
        for name, gpio in board.BUTTONS:
            if name == what:
                level = board.BUTTON_ACTIVE if verb == "press" else 1 - board.BUTTON_ACTIVE
                machine.drive(gpio, level)
                return
        raise ValueError("no button %r" % what)
    if verb == "center":
        dx, dy = 0, 0
    elif verb == "push" and what in DIRECTIONS:
        dx, dy = DIRECTIONS[what]
    else:
        raise ValueError("unknown input event %r" % event)
    # as tools/emu/board.py pushes the stick: fully over, through the wiring
    if board.JOY_X_INVERT:
        dx = -dx
    if board.JOY_Y_INVERT:
        dy = -dy
    machine.levels[board.JOY_X_PIN] = board.JOY_REST_X if dx == 0 else (4095 if dx > 0 else 0)
    machine.levels[board.JOY_Y_PIN] = board.JOY_REST_Y if dy == 0 else (4095 if dy > 0 else 0)


def highlighted(label):
    """True when label is the highlighted row of a list on the panel (menu,
    Settings): its 8x8 text dark on a lit bar. A replay's "choose LABEL" steps
    the stick down until it is (tools/simulator/panel_text.py on the PC)."""
    import framebuf
    w = 8 * len(label)
    fb = framebuf.FrameBuffer(bytearray(w), w, 8, framebuf.MONO_VLSB)
    fb.text(label, 0, 0, 1)
    want = [bytes(1 - fb.pixel(x, r) for x in range(w)) for r in range(8)]
    rows = [bytes(row) for row in panel.pixels()]
    for y in range(len(rows) - 7):
        x = rows[y].find(want[0])
        while x >= 0:
            if all(rows[y + r][x:x + w] == want[r] for r in range(1, 8)):
                return True
            x = rows[y].find(want[0], x + 1)
    return False


# ---- starting --------------------------------------------------------------------
def baseline():
    """Called (after a top-level gc.collect()) before the firmware starts: what the
    page's own hardware model takes is left out of the firmware's heap figures."""
    _state["baseline"] = gc.mem_alloc()


def _paced_by_the_page():
    # Clock.wait_frame would sleep until the next frame; the page's timer does that.
    return time.ticks_ms()


def _one_frame_at_a_time(app):
    """App.run for the page: start as run() does, then hand the app to frame()."""
    if app.screen is None:
        app.start()
    app.hal.clock.wait_frame = _paced_by_the_page
    _state["app"] = app


def power_on(seed):
    """Run boot.py and main.py as the board does at power-on (and after a soft
    reset: after_reset() first)."""
    import espnow
    espnow.on_send = _radio_send
    import random
    random.seed(seed)
    exec(open("/boot.py").read(), {"__name__": "__main__"})
    from firmware import app
    app.App.run = _one_frame_at_a_time
    exec(open("/main.py").read(), {"__name__": "__main__"})


# ---- a soft reset: what the board keeps, into the next interpreter ----------------
def keep():
    """After machine.soft_reset(): the RTC memory and the panel (its picture and
    settings: a soft reset does not touch it) as a JSON text for after_reset()."""
    state = {}
    for name, value in panel.__dict__.items():
        if type(value) in (bytearray, bytes):
            state[name] = ["hex", bytes(value).hex()]
        elif type(value) in (int, bool, str, dict, list) or value is None:
            state[name] = value
    return json.dumps({"rtc": machine._rtc_memory[0].hex(), "panel": state,
                       "levels": [[k, v] for k, v in machine.levels.items()]})


def after_reset(text):
    """In the fresh interpreter, before power_on(): what keep() kept."""
    kept = json.loads(text)
    machine._cause[0] = machine.SOFT_RESET
    machine._rtc_memory[0] = bytes.fromhex(kept["rtc"])
    for gpio, level in kept["levels"]:     # what the player still holds
        machine.levels[gpio] = level
    for name, value in kept["panel"].items():
        if type(value) is list and len(value) == 2 and value[0] == "hex":
            value = bytearray(bytes.fromhex(value[1]))
        setattr(panel, name, value)


def run_program(source):
    """A test program instead of the firmware: its step() is called once a frame
    until it returns a false value."""
    scope = {"__name__": "__main__"}
    exec(source, scope)
    _state["program"] = scope["step"]


# ---- the radio between tabs (Play a friend) ------------------------------------------
# worker.js carries each message the firmware sends to the other tabs of this
# browser (a BroadcastChannel) as hex: addressee, sender, then the message;
# a message from another tab comes in as the input event "radio <hex>".
_radio_out = []


def set_board(number):
    """?board=N: this tab's board, with an address of its own (ML4M-00NN)."""
    import network
    network.MAC = bytes((0x24, 0x6F, 0x28, 0, 0, number & 255))


def _radio_send(to, message):
    import network
    _radio_out.append((to + network.MAC + message).hex())


def _radio_heard(text):
    import espnow
    import network
    data = bytes.fromhex(text)
    to = data[:6]
    if network._state["on"] and (to == b"\xff\xff\xff\xff\xff\xff" or to == network.MAC):
        espnow.inbox.append((data[6:12], data[12:]))


# ---- one frame ---------------------------------------------------------------------
def frame(events):
    """Apply the inputs (one event a line), run one frame; returns a JSON text:
    {"picture": hex of 8192 0/1 bytes (only when the panel changed),
     "contrast", "sounds": [[ms, kind, a, b]...], "fps"}."""
    for event in events.split("\n"):
        if event.startswith("radio "):
            _radio_heard(event[6:])
        elif event:
            apply(event)
    app = _state["app"]
    if app is not None:
        app.step()
    elif _state["program"] is not None:
        if not _state["program"]():
            _state["program"] = None
    _state["peak"] = max(_state["peak"], gc.mem_alloc() - _state["baseline"])
    report = {"sounds": _heard[:],
              "fps": app.hal.clock.fps if app is not None else 30,
              "contrast": panel.contrast}
    del _heard[:]
    if _radio_out:
        report["radio"] = _radio_out[:]
        del _radio_out[:]
    picture = _picture()
    if picture is not None:
        report["picture"] = picture
    return json.dumps(report)


def _picture():
    global _shown
    counters = (panel.data_bytes, panel.commands)
    if counters == _shown:
        return None
    _shown = counters
    return b"".join(bytes(row) for row in panel.pixels()).hex()


def settle():
    """After the top-level gc.collect(): the heap the firmware keeps, checked
    against the cap. Over the cap, the firmware gets the MemoryError the board
    would have raised (the app shows its crash screen; a test program stops).
    Returns a JSON text {"live", "cap", "peak", "failed", "running"}."""
    live = gc.mem_alloc() - _state["baseline"]
    if live > HEAP_CAP and _state["failed"] is None:
        error = MemoryError("memory allocation failed: %d bytes live, the board has %d"
                            % (live, HEAP_CAP))
        if _state["app"] is not None:
            _state["app"].crash(error)      # what App.step does with a MemoryError
        else:
            _state["program"] = None
        _state["failed"] = "MemoryError: %s" % error
    elif live <= HEAP_CAP and _state["app"] is not None:
        _state["failed"] = None     # the crash screen let go of it: the app goes on
    report = {"live": live, "cap": HEAP_CAP, "peak": _state["peak"], "failed": _state["failed"],
              "running": _state["app"] is not None or _state["program"] is not None}
    _state["peak"] = 0
    return json.dumps(report)
