# The Reversi screen under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_reversi_screen.py
# Heap allocated by the screen (import + construction, per idle frame, per CPU
# move) and the time of an idle frame and of the frame in which the CPU
# searches and plays, per level, in the CPU demo. The machine stand-ins of
# tools/bench/mpbench.py (pins idle, an I2C that counts bytes) let the real HAL,
# ssd1306 driver and framebuf run. The ESP32 is taken as ~2.5x slower than MicroPython under Node.
import gc
import time

from tools.bench import mpbench

ESP32_FACTOR = mpbench.ESP32_FACTOR
mpbench.install_machine()
_SCREEN_MODULES = ("firmware.screens.reversi", "firmware.screens.reversi_draw",
                   "firmware.screens.reversi_shared", "firmware.games.reversi")


def run(hal, level):
    import random
    random.seed(1)
    app = mpbench.App(hal, {})
    hal.store.save("reversi", {})
    # Reversi's own settings: hints on, the level, the CPU demo (it plays itself)
    hal.store.save("reversi_settings", {"hints": True, "level": level, "mode": 3})
    mpbench.forget(_SCREEN_MODULES)
    a0 = gc.mem_alloc()
    from firmware.screens import reversi
    game = reversi.Game(app, save="reversi")
    game.draw(hal.display)
    hal.display.flush()
    start = gc.mem_alloc() - a0
    # idle frames while nothing happens (the demo waits between moves)
    game.cpu_at = time.ticks_add(hal.clock.now(), 1000000)
    frames = 60
    a1 = gc.mem_alloc()
    t0 = time.ticks_ms()
    for _ in range(frames):
        mpbench.frame(hal, game)
    idle_ms = time.ticks_diff(time.ticks_ms(), t0) / frames
    idle_alloc = (gc.mem_alloc() - a1) // frames
    # CPU moves: the thinking frame (search + rules + save) and the worst one
    moves = 12
    worst = 0
    total = 0
    a1 = gc.mem_alloc()
    for _ in range(moves):
        game.cpu_at = hal.clock.now()
        game.flip_n = 0
        mpbench.frame(hal, game)                       # "thinks" is drawn and flushed
        t0 = time.ticks_ms()
        mpbench.frame(hal, game)                       # the search and the move
        dt = time.ticks_diff(time.ticks_ms(), t0)
        total += dt
        worst = max(worst, dt)
    move_alloc = (gc.mem_alloc() - a1) // moves
    ply = game.game.ply
    game = None
    reversi = None
    mpbench.forget(_SCREEN_MODULES)
    return start, idle_ms, idle_alloc, total / moves, worst, move_alloc, ply


def main():
    hal = mpbench.Hal()
    print("Reversi screen under MicroPython (Node), CPU demo; ESP32 ~%.1fx slower" % ESP32_FACTOR)
    print("%-7s %9s %8s %7s %12s %12s %8s %4s" % (
        "level", "start KB", "idle ms", "idle B", "cpu frame ms", "worst ms", "move B", "ply"))
    for level in range(3):
        from firmware.screens.reversi_shared import LEVEL_NAMES
        name = LEVEL_NAMES[level]
        start, idle_ms, idle_alloc, move_ms, worst, move_alloc, ply = run(hal, level)
        print("%-7s %9.1f %8.2f %7d %12.0f %12d %8d %4d" % (
            name, start / 1024, idle_ms, idle_alloc, move_ms, worst, move_alloc, ply))
    print("start = import + construction + first draw (gc.mem_alloc growth, an upper")
    print("bound: gc.collect() frees nothing under the Node runner); cpu frame = the")
    print("frame that searches and plays (time budget per level: 250/800/1850 ms on the")
    print("ESP32, so about 100/320/740 ms here); move B = heap per CPU move (search,")
    print("JSON save). Times: Node (x%.1f for the ESP32)." % ESP32_FACTOR)


main()
