# The 2048 screen under real MicroPython (the Node runner):
#   node tools/mprun/run.mjs --script tools/bench/mp_2048_screen.py
# Heap allocated by the screen (gc.mem_alloc growth: import + construction +
# first draw, the first hint with the search module, per move, per idle frame)
# and the time of a move (rules + save + the animation's frames + panel, each
# flushed) and of an idle frame, on the stand-ins of tools/bench/mpbench.py.
# The ESP32 is taken as ~2.5x slower than MicroPython under Node.
import gc
import time

from tools.bench import mpbench

ESP32_FACTOR = mpbench.ESP32_FACTOR
mpbench.install_machine()
_SCREEN_MODULES = ("firmware.screens.g2048", "firmware.screens.g2048_draw",
                   "firmware.screens.g2048_hint", "firmware.screens.g2048_end",
                   "firmware.games.game2048", "firmware.games.ai2048")


def run(hal, animate):
    import random
    random.seed(1)
    app = mpbench.App(hal, {})
    hal.store.save("g2048", {})
    mpbench.forget(_SCREEN_MODULES)
    gc.collect()
    a0 = gc.mem_alloc()
    from firmware.screens import g2048, g2048_hint
    game = g2048.Game(app, save="g2048", animate=animate)
    game.draw(hal.display)
    hal.display.flush()
    start = gc.mem_alloc() - a0
    moves = 0
    a1 = gc.mem_alloc()
    t0 = time.ticks_ms()
    now = hal.clock.now()
    for i in range(60):
        g = game.game
        d = i % 4
        if not g.can_slide(d):
            continue
        game.move(d, now)
        moves += 1
        for _ in range(5):           # the animation's frames, then the panel
            game.draw(hal.display)
            hal.display.flush()
        if g.is_over():
            break
    move_ms = time.ticks_diff(time.ticks_ms(), t0) / moves
    move_alloc = (gc.mem_alloc() - a1) // moves
    frames = 100
    a1 = gc.mem_alloc()
    t0 = time.ticks_ms()
    for _ in range(frames):
        mpbench.frame(hal, game)
    frame_ms = time.ticks_diff(time.ticks_ms(), t0) / frames
    idle_alloc = (gc.mem_alloc() - a1) // frames
    hint_alloc = hint_ms = 0
    if animate:
        a1 = gc.mem_alloc()
        t0 = time.ticks_ms()
        g2048_hint.search(game, 0, 400)     # the board's 1 s is ~400 ms under Node
        hint_ms = time.ticks_diff(time.ticks_ms(), t0)
        hint_alloc = gc.mem_alloc() - a1
    game = None
    g2048 = g2048_hint = None
    mpbench.forget(_SCREEN_MODULES)
    return start, hint_alloc, move_ms, move_alloc, frame_ms, idle_alloc, hint_ms


def main():
    hal = mpbench.Hal()
    print("2048 screen under MicroPython (Node); ESP32 ~%.1fx slower" % ESP32_FACTOR)
    print("%-10s %9s %9s %8s %8s %9s %7s %8s" % (
        "animation", "start KB", "hint KB", "move ms", "move B", "idle ms", "idle B", "hint ms"))
    for animate in (False, True):
        r = run(hal, animate)
        print("%-10s %9.1f %9.1f %8.2f %8d %9.2f %7d %8d" % (
            ("on" if animate else "off",
             r[0] / 1024, r[1] / 1024, r[2], r[3], r[4], r[5], r[6])))
    print("KB/B: gc.mem_alloc() growth (upper bounds: garbage included);")
    print("start = import + construction + first draw, hint = the first hint (search")
    print("module + caches, budget 400 ms under Node), move = per move incl. its frames.")


main()
