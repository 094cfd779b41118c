# How long a launch takes on real MicroPython (the WebAssembly port), each
# program on a fresh interpreter as on the board:
#   node tools/mprun/run.mjs --resets --mpy build/mpy --script tools/bench/mp_launch.py
# (make bench runs it). A launch is a soft reset (firmware/launch.py): the menu
# writes its note and resets; run.mjs --resets starts a fresh interpreter with
# the flash and the RTC memory kept and runs this script again from its top,
# which reads where it was in data/_launch_bench.json (the splash ends in one
# too: the menu is always the first screen of its program). For each game: A on its
# menu entry -> the reset, the game's program from its first line to its
# first frame sent; B -> the reset, the menu's program to its first frame.
# Times are the interpreter's own work (the frame pacing's sleeps left out);
# the ESP32 estimate is that x2.5 (as the other MicroPython benches take the
# board), plus the panel's bus time for the bytes sent, plus the port's own
# soft reset and boot.py, which cannot be measured here (RESET_MS, assumed).
import json
import time

import machine

ESP32_FACTOR = 2.5      # as tools/bench/mpbench.py
RESET_MS = 50           # the ESP32's soft reset and boot.py: assumed, not measured
BUS_US_PER_BYTE = 22.5  # 9 bits at 400 kHz
TARGET_MS = 600
ENTRIES = ("15-Puzzle", "8-Puzzle", "2048", "Reversi")
STATE = "/data/_launch_bench.json"
A_PIN, B_PIN = 32, 33


def _missing_file_as_on_the_board():
    """This port reports a missing file as errno 44, the board as 2 (see
    tools/bench/mp_heap.py): the store would take it for a damaged file."""
    import builtins
    port_open = open

    def board_open(path, mode="r"):
        try:
            return port_open(path, mode)
        except OSError as e:
            if e.args and e.args[0] == 44:
                raise OSError(2, "ENOENT")
            raise
    builtins.open = board_open


def _state():
    try:
        with open(STATE) as f:
            return json.load(f)
    except OSError:
        return {"entry": 0, "rows": [], "row": {}}


def _keep(state):
    with open(STATE, "w") as f:
        json.dump(state, f)


def _ms(t0, t1):
    return time.ticks_diff(t1, t0) / 1000


def _until_reset(app, state, field, pin):
    """Press the button and run frames until the program resets (the time
    from the press to the reset goes into the row), then let the reset go on."""
    machine.drive(pin, 1)
    t0 = time.ticks_us()
    try:
        for _ in range(10):
            app.step()
    except SystemExit:
        state["row"][field] = _ms(t0, time.ticks_us())
        _keep(state)
        raise
    raise RuntimeError("no reset after %s" % field)


_pacing = [False]   # the frame pacing's sleep (off while a start is timed)


def _wait_frame(clock):
    if _pacing[0]:
        time.sleep_ms(1000 // clock.fps)
    return time.ticks_ms()


def _first_frame(app, t_start, bus_before):
    """Time from the program's first line to its first frame sent, and the bus ms of it."""
    app.step()
    took = _ms(t_start, time.ticks_us())
    _pacing[0] = True
    return took, (machine.bus["bytes"] - bus_before) * BUS_US_PER_BYTE / 1000


def _launch_next(app, state):
    title = ENTRIES[state["entry"]]
    menu = app.screen
    menu.cursor = menu.labels.index(title)
    state["row"] = {"title": title}
    _until_reset(app, state, "a_to_reset", A_PIN)


def _report(rows):
    print("Launch latency on MicroPython (WebAssembly, firmware as .mpy), ms; each program on")
    print("a fresh interpreter. ESP32 estimate: x%.1f, plus the panel's bus time, plus %d ms"
          % (ESP32_FACTOR, RESET_MS))
    print("assumed for the port's own soft reset and boot.py (not measurable here).")
    print("%-10s %9s %9s %6s %9s %9s %6s %10s %10s" % (
        "game", "A->reset", "start", "bus", "B->reset", "menu", "bus", "A (ESP32)", "B (ESP32)"))
    worst = 0
    for r in rows:
        a = ESP32_FACTOR * (r["a_to_reset"] + r["game"]) + r["game_bus"] + RESET_MS
        b = ESP32_FACTOR * (r["b_to_reset"] + r["menu"]) + r["menu_bus"] + RESET_MS
        worst = max(worst, a, b)
        print("%-10s %9.1f %9.1f %6.1f %9.1f %9.1f %6.1f %10.0f %10.0f" % (
            r["title"], r["a_to_reset"], r["game"], r["game_bus"], r["b_to_reset"], r["menu"],
            r["menu_bus"], a, b))
    print("slowest launch (ESP32 estimate): %.0f ms of %d: %s"
          % (worst, TARGET_MS, "ok" if worst <= TARGET_MS else "OVER"))


def main():
    _missing_file_as_on_the_board()
    from firmware.hal.clock import Clock
    Clock.wait_frame = _wait_frame
    _pacing[0] = mprun_resets == 0  # noqa: F821  (power-on: paced; a start: timed)
    state = _state()
    t_start = time.ticks_us()
    bus_before = machine.bus["bytes"]
    from firmware import app as app_module
    from firmware.boards import ml4m
    app = app_module.start(ml4m, "/data")
    if mprun_resets == 0:          # power-on: the splash, skipped: the menu's program  # noqa: F821
        for _ in range(3):
            app.step()
        state["first"] = True
        _keep(state)
        machine.drive(A_PIN, 1)
        for _ in range(10):
            app.step()
        raise RuntimeError("the splash did not end in a reset")
    if state.pop("first", False):  # the menu's first program: the first launch
        for _ in range(5):
            app.step()
        _launch_next(app, state)
    row = state["row"]
    if type(app.screen).__name__ == "Game":
        row["game"], row["game_bus"] = _first_frame(app, t_start, bus_before)
        machine.drive(A_PIN, 0)
        for _ in range(3):
            app.step()
        _until_reset(app, state, "b_to_reset", B_PIN)
    row["menu"], row["menu_bus"] = _first_frame(app, t_start, bus_before)
    machine.drive(B_PIN, 0)
    for _ in range(3):
        app.step()
    state["rows"].append(row)
    state["entry"] += 1
    if state["entry"] < len(ENTRIES):
        _launch_next(app, state)
    _report(state["rows"])


main()
