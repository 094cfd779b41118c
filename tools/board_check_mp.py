# What `make board-check` (tools/board_check.py) runs ON the board, under its
# own MicroPython, against the firmware deployed there. The host copies this
# file (compiled for the board) to /bc_tmp, soft-resets the board before each
# measurement so each starts on a fresh heap, calls one function, and reads
# the lines it prints: "BC name value". Nothing outside /bc_tmp is written:
# the firmware runs on a store in /bc_tmp/data (a copy of the board's game
# list, so the boot is the usual one, not the first after a deploy), and
# /bc_tmp goes when the check ends.
import gc
import os
import sys
import time

TMP = "/bc_tmp"
STORE = TMP + "/data"
_base = [0]     # gc.mem_alloc() before the firmware: this module and the REPL
_loaded = [()]  # the modules loaded before it


def say(name, value):
    print("BC", name, value)


def _median(values):
    values = sorted(values)
    return values[len(values) // 2]


def _us_since(t):
    return time.ticks_diff(time.ticks_us(), t)


def prepare():
    """The temporary store, with a copy of the board's game list."""
    try:
        os.mkdir(STORE)
    except OSError:
        pass
    try:
        with open("/data/games.json") as f:
            text = f.read()
    except OSError:
        return
    with open(STORE + "/games.json", "w") as f:
        f.write(text)


def boot():
    """Power-on to the menu drawn on the panel, as main.py does it (the import
    of the firmware's .mpy files included; MicroPython's own start-up not)."""
    gc.collect()
    _base[0] = gc.mem_alloc()
    _loaded[0] = set(sys.modules)
    t = time.ticks_us()
    from firmware import app
    arcade = app.start(None, STORE)
    if arcade is None:
        raise RuntimeError("safe boot: let go of B")
    hal_ms = _us_since(t) / 1000
    arcade.start(arcade.menu())
    arcade.step()           # the menu's first frame, drawn and flushed
    return arcade, hal_ms, _us_since(t) / 1000


def boot_and_bus():
    """Boot time; a full frame and a one-tile update on the panel's bus; the
    work from reading a press to its pixels on the panel (a menu move)."""
    arcade, hal_ms, menu_ms = boot()
    say("boot_hal_ms", "%.0f" % hal_ms)
    say("boot_menu_ms", "%.0f" % menu_ms)
    display = arcade.hal.display
    say("panel", "yes" if display.present else "no")
    full = []
    tile = []
    for i in range(7):
        display.invalidate()
        t = time.ticks_us()
        display.flush()
        full.append(_us_since(t))
        display.fb.fill_rect(56, 24, 16, 16, i & 1)
        t = time.ticks_us()
        display.flush()
        tile.append(_us_since(t))
    say("frame_ms", "%.1f" % (_median(full) / 1000))
    say("tile_ms", "%.1f" % (_median(tile) / 1000))
    from firmware.hal.controls import DOWN, UP
    hal = arcade.hal
    controls = hal.controls
    press = []
    for i in range(6):
        t = time.ticks_us()
        now = hal.update()                 # the pins and the stick, read as every frame
        # the stick pushed: what update() would report for a fresh push
        # (set directly: nobody is at the board to push it)
        bit = 1 << (DOWN if i & 1 == 0 else UP)
        controls._state = controls._repeat = bit
        controls._prev = 0
        arcade.screen.update(now)
        arcade.screen.draw(hal.display)
        hal.display.flush()
        press.append(_us_since(t))
    say("press_ms", "%.1f" % (_median(press) / 1000))


def screens():
    """The names heap() takes: the menu, each game entry, the system screens."""
    arcade = boot()[0]
    from firmware import gamelist
    names = ["Menu"] + [entry[1] for entry in gamelist.entries(arcade) if entry[3] is None]
    say("screens", "|".join(names + ["Settings", "Records", "About"]))


_SYSTEM = {"Settings": ("firmware.screens.settings", "SettingsScreen"),
           "Records": ("firmware.screens.records", "Records"),
           "About": ("firmware.screens.about", "About")}


def heap(name, frames=45):
    """The live heap of the menu or a system screen at a fresh boot: opened
    from the menu, run for 1.5 s, collected; the heap this module held before
    the firmware is taken off. (A game: write_launch, then heap_launched.)"""
    arcade = boot()[0]
    if name in _SYSTEM:
        arcade.switch(arcade.open(*_SYSTEM[name]))
    _run(arcade, frames)


def write_launch(name):
    """The menu's half of a game's launch: its launch note, as choosing the
    game writes it (firmware/gamelist.py, launch.py), into the RTC memory.
    The check's next call comes after a soft reset, as the launch's would."""
    import json
    import machine
    from firmware import gamelist
    arcade = boot()[0]
    note = gamelist.launch_note(arcade, gamelist.entry_key(arcade, name))
    machine.RTC().memory(json.dumps(note))
    say("noted", name)


def heap_launched(frames=45):
    """The game's own program, as main.py starts it after a launch's soft
    reset: the note in the RTC memory read, the game on a fresh heap with
    none of the menu's modules or names; run for 1.5 s, collected."""
    gc.collect()
    _base[0] = gc.mem_alloc()
    from firmware import app
    arcade = app.start(None, STORE)
    if arcade is None:
        raise RuntimeError("safe boot: let go of B")
    _run(arcade, frames)


def _run(arcade, frames):
    for _ in range(frames):
        arcade.step()
    gc.collect()
    say("heap", "%.1f" % ((gc.mem_alloc() - _base[0]) / 1024))
    say("free", "%.1f" % (gc.mem_free() / 1024))


def puzzle_hint(width):
    """The first hint on fresh shuffles (it plans the solution): median and
    slowest of three."""
    import random
    from firmware.games import npuzzle, npuzzle_hints, npuzzle_setup
    times = []
    for seed in (1, 2, 3):
        random.seed(seed)
        puzzle = npuzzle.Puzzle(width)
        npuzzle_setup.shuffle_uniform(puzzle, random)
        hinter = npuzzle.Hinter()
        gc.collect()
        t = time.ticks_us()
        npuzzle_hints.hint(hinter, puzzle)
        times.append(_us_since(t))
    say("hint_ms", "%.0f %.0f" % (_median(times) / 1000, max(times) / 1000))


def hint_2048():
    """A 2048 hint (the AI's best move) along a seeded game: median and slowest of ten."""
    import random
    from firmware.games import ai2048
    from firmware.games.game2048 import Game2048
    random.seed(7)
    game = Game2048(random)
    game.new_game()
    ai = ai2048.Expectimax()
    times = []
    for _ in range(10):
        gc.collect()
        t = time.ticks_us()
        move = ai.best_move(game.board)
        times.append(_us_since(t))
        if move < 0:
            break
        game.slide(move)
    say("hint_ms", "%.0f %.0f" % (_median(times) / 1000, max(times) / 1000))


def reversi_move(level):
    """The CPU's move at move 30 of three seeded games (easy against easy to
    get there): median and slowest time, and the deepest search."""
    import random
    from firmware.games.reversi_ai import Ai, EASY
    from firmware.games.reversi_tools import Reversi
    times = []
    depth = 0
    for seed in (1, 2, 3):
        random.seed(seed)
        game = Reversi()
        easy = Ai(EASY, budget_ms=0, rng=random)
        while not game.is_game_over() and game.ply < 30:
            game.push(easy.choose(game))
        ai = Ai(level)
        gc.collect()
        t = time.ticks_us()
        ai.choose(game)
        times.append(_us_since(t))
        depth = max(depth, ai.depth)
    say("move_ms", "%.0f %.0f %d" % (_median(times) / 1000, max(times) / 1000, depth))


def run_tests(path):
    """The test_* functions of one rule-test module, in name order."""
    folder, name = path.rsplit("/", 1)
    sys.path.insert(0, folder)
    module = __import__(name.rsplit(".", 1)[0])
    sys.path.pop(0)
    passed = failed = 0
    for test in sorted(k for k in dir(module) if k.startswith("test_")):
        gc.collect()
        try:
            getattr(module, test)()
            passed += 1
        except Exception as e:
            failed += 1
            print("FAIL", name, test)
            sys.print_exception(e)
    say("tests", "%d %d" % (passed, failed))


def remove(path):
    """Remove path and everything under it (the check's own folder)."""
    try:
        mode = os.stat(path)[0]
    except OSError:
        return
    if mode & 0x4000:
        for entry in os.ilistdir(path):
            remove(path + "/" + entry[0])
        os.rmdir(path)
    else:
        os.remove(path)
