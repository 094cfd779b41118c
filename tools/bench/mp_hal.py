# The HAL's per-frame costs under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_hal.py
# The Node port has no `machine`; the minimal stand-ins of tools/bench/mpbench.py
# (pins that read idle, an ADC at rest, a DAC/PWM that do nothing, an I2C that
# counts bytes) let the real firmware/hal code run, including lib/ssd1306.py and
# the real framebuf.
# Times are per call, the mean of a batch; the ESP32 is taken as ~2.5x slower than
# MicroPython under Node. Heap is gc.mem_alloc() growth per call with the GC
# off (median of 5): what one frame allocates (the HAL aims at ~nothing per frame).
import gc
import sys
import time

from tools.bench import mpbench

ESP32_FACTOR = mpbench.ESP32_FACTOR
mpbench.install_machine()

from firmware.boards import ml4m as board  # noqa: E402
from firmware.hal.display import Display  # noqa: E402
from firmware.hal.controls import Controls  # noqa: E402
from firmware.hal.sound import Sound  # noqa: E402
from firmware.hal.store import Store  # noqa: E402


def measure(fn, reps=300, setup=None):
    """(median-free mean us per call, bytes allocated per call)"""
    # heap: a few calls with the GC off
    allocs = []
    for _ in range(5):
        if setup:
            setup()
        gc.collect()
        gc.disable()
        a0 = gc.mem_alloc()
        fn()
        allocs.append(gc.mem_alloc() - a0)
        gc.enable()
    allocs.sort()
    # time: the port's ticks_us moves in whole ms, so time batches until at
    # least 200 ms have passed, and take off the setup's own time
    calls = 0
    total = 0
    while total < 200:
        t0 = time.ticks_ms()
        for _ in range(reps):
            if setup:
                setup()
            fn()
        total += time.ticks_diff(time.ticks_ms(), t0)
        calls += reps
    if setup:
        t0 = time.ticks_ms()
        for _ in range(calls):
            setup()
        total -= time.ticks_diff(time.ticks_ms(), t0)
    return max(0, total) * 1000 // calls, allocs[len(allocs) // 2]


def bus_bytes(i2c, flush, setup):
    setup()
    b0 = i2c.bytes
    flush()
    return "%d bus bytes" % (i2c.bytes - b0)


def row(name, us, alloc, extra=""):
    print("%-34s %9d %9d %8d  %s" % (name, us, int(us * ESP32_FACTOR), alloc, extra))


def main():
    i2c = mpbench.I2C()
    d = Display(board, i2c)
    print("HAL per-call costs under MicroPython %s" % ".".join(str(v) for v in sys.implementation.version[:3]))
    print("%-34s %9s %9s %8s" % ("call", "us node", "us esp32", "heap B"))
    for i in range(16):
        d.fb.rect((i % 4) * 16, (i // 4) * 16, 16, 16, 1)
        d.fb.text("%X" % i, (i % 4) * 16 + 4, (i // 4) * 16 + 4, 1)
    d.flush()

    us, alloc = measure(d.flush)
    row("flush, unchanged frame", us, alloc)

    state = [0]

    def toggle_tile():
        state[0] ^= 1
        d.fb.fill_rect(16, 16, 16, 16, state[0])

    us, alloc = measure(d.flush, setup=toggle_tile)
    row("flush, one 16x16 tile", us, alloc, bus_bytes(i2c, d.flush, toggle_tile))

    def toggle_status():
        state[0] ^= 1
        d.fb.fill_rect(68, 56, 60, 8, 0)
        d.fb.text("Moves 12" if state[0] else "Moves 13", 68, 56, 1)

    us, alloc = measure(d.flush, setup=toggle_status)
    row("flush, status line digit", us, alloc, bus_bytes(i2c, d.flush, toggle_status))

    def toggle_all():
        state[0] ^= 1
        d.fb.fill(state[0])

    us, alloc = measure(d.flush, reps=50, setup=toggle_all)
    row("flush, full screen", us, alloc, bus_bytes(i2c, d.flush, toggle_all))

    def scattered():
        state[0] ^= 1
        for p in range(8):
            d.fb.pixel(p * 16 + 5, p * 8 + 3, state[0])

    us, alloc = measure(d.flush, setup=scattered)
    row("flush, one pixel in every page", us, alloc, bus_bytes(i2c, d.flush, scattered))

    c = Controls(board)
    now = [time.ticks_ms()]

    def frame():
        now[0] = time.ticks_add(now[0], 33)
        c.update(now[0])
    frame()
    us, alloc = measure(frame)
    row("controls.update (idle)", us, alloc)

    s = Sound(board)
    s.sfx("win")

    def sound_frame():
        now[0] = time.ticks_add(now[0], 33)
        s.update(now[0])
        if not s.busy():
            s.sfx("win", now[0])
    us, alloc = measure(sound_frame)
    row("sound.update (melody playing)", us, alloc)

    root = "/tmp/hal_bench"
    st = Store(root)
    data = {"best": 1234, "grid": [2, 4, 8, 16, 0, 0, 2, 4, 8, 16, 32, 64, 0, 0, 0, 2]}
    n = [0]

    def save_changed():
        n[0] += 1
        data["best"] = n[0]
        st.save("g2048", data)
    us, alloc = measure(save_changed, reps=50)
    row("store.save (changed)", us, alloc)
    us, alloc = measure(lambda: st.save("g2048", data), reps=50)
    row("store.save (unchanged: no write)", us, alloc)
    us, alloc = measure(lambda: st.load("g2048", {}), reps=50)
    row("store.load", us, alloc)
    assert st.load("g2048", {})["best"] == n[0]


main()
