# The puzzle screen under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_puzzle_screen.py
# Heap allocated by the screen (gc.mem_alloc growth: import + construction,
# the first hint, per move, per idle frame) and the time of a move (rules +
# save + draw + flush) and of an idle frame. The machine stand-ins of
# tools/bench/mpbench.py (pins idle, an I2C that counts bytes) let the real
# HAL, ssd1306 driver and framebuf run.
# The ESP32 is taken as ~2.5x slower than MicroPython under Node.
import gc
import time

from tools.bench import mpbench

ESP32_FACTOR = mpbench.ESP32_FACTOR
mpbench.install_machine()
_SCREEN_MODULES = ("firmware.screens.puzzle", "firmware.games.npuzzle")


def run(hal, options, size, mode):
    import random
    random.seed(1)
    app = mpbench.App(hal, {})
    hal.store.save("puzzle_settings", {"big": size, "mode": mode})   # the puzzle's own settings
    hal.store.save(options["save"], {})
    mpbench.forget(_SCREEN_MODULES)
    a0 = gc.mem_alloc()
    from firmware.screens import puzzle
    game = puzzle.Game(app, **options)
    game.preview = 0
    game.draw(hal.display)
    hal.display.flush()
    start = gc.mem_alloc() - a0
    # moves: rules, save, the cells' frame and the counter's frame
    moves = 60
    a1 = gc.mem_alloc()
    t0 = time.ticks_ms()
    now = hal.clock.now()
    for i in range(moves):
        d = game.puzzle.legal_pushes()[i % 2]
        game.push(d, now)
        game.draw(hal.display)
        hal.display.flush()
        game.draw(hal.display)
        hal.display.flush()
    move_ms = time.ticks_diff(time.ticks_ms(), t0) / moves
    move_alloc = (gc.mem_alloc() - a1) // moves
    # an idle frame: controls, update, draw, flush
    frames = 100
    a1 = gc.mem_alloc()
    t0 = time.ticks_ms()
    for _ in range(frames):
        mpbench.frame(hal, game)
    frame_ms = time.ticks_diff(time.ticks_ms(), t0) / frames
    idle_alloc = (gc.mem_alloc() - a1) // frames
    # the first hint: imports the solver (and its 3x3 tables when needed)
    a1 = gc.mem_alloc()
    t0 = time.ticks_ms()
    game.show_hint()
    hint_ms = time.ticks_diff(time.ticks_ms(), t0)
    hint_alloc = gc.mem_alloc() - a1
    game = None
    puzzle = None
    mpbench.forget(_SCREEN_MODULES)
    return start, hint_alloc, move_ms, move_alloc, frame_ms, idle_alloc, hint_ms


def main():
    hal = mpbench.Hal()
    print("Puzzle screen under MicroPython (Node); ESP32 ~%.1fx slower" % ESP32_FACTOR)
    print("%-5s %-8s %9s %9s %8s %8s %9s %7s %8s" % (
        "size", "mode", "start KB", "hint KB", "move ms", "move B", "idle ms", "idle B", "hint ms"))
    for title, options, size in (("3x3", {"size": 3, "save": "puzzle8"}, 4),
                                 ("4x4", {"size": 4, "big_size_setting": True, "save": "puzzle15"}, 4),
                                 ("5x5", {"size": 4, "big_size_setting": True, "save": "puzzle15"}, 5)):
        for mode in ("numbers", "picture"):
            start, hint_alloc, move_ms, move_alloc, frame_ms, idle_alloc, hint_ms = run(hal, options, size, mode)
            print("%-5s %-8s %9.1f %9.1f %8.2f %8d %9.2f %7d %8d" % (
                title, mode, start / 1024, hint_alloc / 1024, move_ms, move_alloc, frame_ms,
                idle_alloc, hint_ms))
    print("KB/B: gc.mem_alloc() growth. gc.collect() frees nothing under the Node runner,")
    print("so these are upper bounds of the heap held (compile garbage included):")
    print("start = import + construction + first draw (3x3: the solver for the optimal")
    print("length too, dropped again), hint = the first hint (solver import + tables),")
    print("move = per move (mostly the JSON save). Times: Node (x%.1f for the ESP32)." % ESP32_FACTOR)


main()
