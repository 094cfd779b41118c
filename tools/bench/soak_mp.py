# mprun: --loop step
# Random play on real MicroPython (the WebAssembly port), the twin of
# tools/soak.py: the same seeded inputs (soak_plan.py) on the firmware as
# .mpy, with the heap capped (make soak: 100 KB for the firmware, as a board
# with little free RAM, plus the ~26 KB this script holds), one frame per
# step() so that the runner's collection runs between frames as the board's
# would:
#   node tools/mprun/run.mjs --resets --heap 129024 --esp32-heap --mpy build/mpy \
#        --games build/soak/games --script tools/bench/soak_mp.py [--inputs N] [--seed S]
#        [--progress N] [--budget-s S: stop after S s of wall time, with the report]
# (--resets: a launch is a soft reset, and the runner starts a fresh
# interpreter for the next program, as the board does; this script then runs
# again from its top and goes on from where the last program stopped: its
# figures, the inputs' position, the pins held and the virtual time are
# carried in data/_soak.json, which the runner keeps as the board's flash)
# (--esp32-heap: the heap at the ESP32's addresses, so that pixels and small
# numbers in buffers do not pass for pointers and keep dead blocks alive, as
# at this port's usual low address; see tools/mprun/run.mjs)
# The README's example game is in /games (make soak: compiled, --games), and
# every 150 inputs the soak goes back to the menu and launches the next game
# entry in turn (soak_plan.py), so every game's pause menu is reached.
# Every 5,000 inputs (--progress N) a line says how far it got. Reports
# inputs, frames, the screens reached, how often each game's pause menu
# opened, the dims, sleeps and mutes, exceptions that escaped the app, crash
# screens, stuck states (a screen B cannot leave), the live heap back in the
# menu every 150 inputs (first, last, most) and the most in a game and under
# its pause menu (the firmware's: what the soak itself holds is taken off):
# a heap that creeps up, or a MemoryError late in the session, is what this
# is for. Anything wrong, or a game whose pause menu was never reached, ends
# the run with an error (make soak fails).
#
# The heap: this port starts with the --heap given and collects only between
# step() calls (inside a call its collector does nothing); a call that needs
# more adds another area instead. So the soak checks two things: the live
# heap after each collection must fit the cap (else "the capped heap ran
# out", the board's MemoryError, with the frame and the screen: a failure);
# and it counts the frames whose garbage, uncollected here, outgrew the cap
# (the heap's total size grew inside the frame). The board collects in the
# middle of such a frame, when it needs to, so those are reported, not
# failed (bench_heap.py's "upper" column is the same measure: a picture
# puzzle's start makes ~40 KB of garbage in one frame).
#
# Time is virtual: it moves only when the firmware sleeps for its next
# frame (33 ms a frame), so the soak runs as fast as the interpreter can.
import gc
import sys
import time

import machine

sys.path.append("/fw/tools/bench")
import soak_plan  # noqa: E402

_CRASH_SCREENS = ("ErrorScreen", "BareError")
ROOT = "/data"

# ---- virtual time: it passes only in sleeps -------------------------------------
_now = [time.ticks_ms(), time.ticks_us(), 0]   # ms, us, us short of a ms


def _sleep_us(us):
    if us > 0:
        _now[1] = time.ticks_add(_now[1], us)
        frac = _now[2] + us
        _now[0] = time.ticks_add(_now[0], frac // 1000)
        _now[2] = frac % 1000


time.ticks_ms = lambda: _now[0]
time.ticks_us = lambda: _now[1]
time.sleep_us = _sleep_us
time.sleep_ms = lambda ms: _sleep_us(ms * 1000)
time.sleep = lambda s: _sleep_us(int(s * 1000000))
# The clock waits for a frame in select.poll, woken by a machine.Timer
# (firmware/hal/clock.py); here that wait would take real milliseconds while
# this virtual time stood still. Without a Timer the clock waits in
# time.sleep_ms, above: virtual. (The Timer and poll objects it then does not
# make are a few dozen bytes of the heap; their code is loaded all the same.)
del machine.Timer

# ---- inputs (the ML4M's wiring: buttons read 1 pressed, X inverted) --------------
_BUTTON_GPIO = {"A": 32, "B": 33, "C": 35, "D": 34, "E": 27, "F": 26}
_REST = 1850
_STICK = {"left": (3900, _REST), "right": (100, _REST), "up": (_REST, 100),
          "down": (_REST, 3900), None: (_REST, _REST)}
for _gpio in _BUTTON_GPIO.values():
    machine.levels[_gpio] = 0
machine.levels[39], machine.levels[36] = _STICK[None]


def _arg(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


INPUTS = _arg("--inputs", 100000)
SEED = _arg("--seed", 1)
PROGRESS = _arg("--progress", 5000)
BUDGET_S = _arg("--budget-s", 0)   # stop (with the report) after this many seconds of wall time
_DONE = 1 << 30                # the place after the last input (and its checkpoint)
# every game whose pause menu the soak must reach (tools/soak.py's PAUSED_GAMES)
PAUSED_GAMES = ("puzzle 3x3", "puzzle 4x4", "puzzle 5x5", "g2048", "reversi", "dot")
_s = {"frames": 0, "exceptions": 0, "crashes": 0, "stuck": 0, "seen": set(),
      "heap": None, "app": None, "gen": None, "total": 0, "cap": 0, "out_of_heap": 0, "before": 0, "was": None,
      "garbage_over": 0, "garbage_over_live": 0, "garbage_over_at": "-",
      "paused": {}, "dims": 0, "savers": 0, "mutes": 0, "idles": [0, 0], "in_game": 0, "in_pause": 0, "first": True, "peaks": {},
      "in_game_at": "-"}


def _screen():
    return type(_s["app"].screen).__name__


def _game_name(screen):
    """A game screen as the report names it (tools/soak.py's game_name)."""
    name = type(screen).__module__.rsplit(".", 1)[-1]
    size = getattr(screen, "size", None)
    return "%s %dx%d" % (name, size, size) if isinstance(size, int) else name


def _frames(n):
    for _ in range(n):
        app = _s["app"]
        was = app.screen
        dimmed, asleep = app.dimmed, app.asleep
        _s["was"] = type(was)            # (described only if the heap runs out)
        try:
            app.step()
        except SystemExit:               # a launch: the next program goes on from here
            _s["frames"] += 1
            _pos[2] += 1
            _carry()
            raise
        except Exception as error:       # reported, and the soak goes on
            _s["exceptions"] += 1
            sys.print_exception(error)
        _s["frames"] += 1
        _pos[2] += 1
        if app.dimmed and not dimmed:
            _s["dims"] += 1
        if app.asleep and not asleep:
            _s["savers"] += 1
        if app.hal.controls.chorded:
            _s["mutes"] += 1
        screen = app.screen
        if screen is not was or _s["first"]:    # (a program's first screen too)
            _s["first"] = False
            now = type(screen).__name__
            if now in _CRASH_SCREENS:
                _s["crashes"] += 1
                print("crash screen:", getattr(screen, "title", ""), getattr(screen, "lines", ""))
            elif now == "Pause":
                name = _game_name(screen.game)
                _s["paused"][name] = _s["paused"].get(name, 0) + 1
            _s["seen"].add(now if now != "Game" else type(screen).__module__)
        # nothing of the soak's may keep a screen the app has let go alive (the
        # generator's locals live on while it waits): the heap figures would count it
        was = screen = None
        yield


def _tap(name):
    machine.drive(_BUTTON_GPIO[name], 1)
    yield from _frames(3)
    machine.drive(_BUTTON_GPIO[name], 0)
    yield from _frames(3)


def _push(direction):
    machine.levels[39], machine.levels[36] = _STICK[direction]
    yield from _frames(2)
    machine.levels[39], machine.levels[36] = _STICK[None]
    yield from _frames(3)


def _checkpoint():
    """Back to the menu with B (A on a crash screen); a screen still there
    after 8 taps gets a minute more, a tap a second (Test board's steps give
    up after 10 s each); after that it is stuck (tools/soak.py's checkpoint)."""
    for gpio in _BUTTON_GPIO.values():
        machine.drive(gpio, 0)
    machine.levels[39], machine.levels[36] = _STICK[None]
    yield from _frames(3)
    for i in range(68):
        if _screen() == "Menu":
            break
        yield from _tap("A" if _screen() in _CRASH_SCREENS else "B")
        if i >= 8:
            yield from _frames(24)
    if _screen() != "Menu":
        _s["stuck"] += 1
        print("stuck in", _screen())
        return
    yield "measure"                      # the next step() starts collected: live heap


def _visit(k):
    """From the menu, its k-th game entry (modulo their number), with the stick and A."""
    if _screen() != "Menu":
        return
    menu = _s["app"].screen
    target = menu.first_game + k % menu.games
    for _ in range(len(menu.labels)):
        if menu.cursor == target:
            break
        yield from _push("down")
    if menu.cursor == target:
        yield from _tap("A")


def _idle(what, button):
    """Nothing touched until the panel dims, or the screen saver puts it to
    sleep (its time as set now), then button wakes it. Asleep, the virtual
    clock skips to the press: the board's light sleep stops the CPU until it
    (this port has none, so the firmware would only watch the controls)."""
    app = _s["app"]
    from firmware.settings import DIM_AFTER_S
    seconds = app.settings["saver_s"] if what == "saver" else DIM_AFTER_S
    _s["idles"][what == "saver"] += 1
    end = time.ticks_add(_now[0], seconds * 1000 + 3000)
    while time.ticks_diff(end, _now[0]) > 0:
        if _s["app"].asleep:
            _sleep_us(time.ticks_diff(end, _now[0]) * 1000)
            break
        yield from _frames(1)
    machine.drive(_BUTTON_GPIO[button], 1)


def _session():
    yield
    resumed = _carried()
    yield
    # collected: what the soak itself holds in this program (its script, the
    # plan, the figures carried), taken off every heap figure below
    _s["own_here"] = _s["before"]
    if not resumed:
        _s["own"] = _s["before"]
        _s["t0"] = time.time()
    # Start in steps: a collection runs only between step() calls in this port,
    # while the board collects whenever it needs to. The first boot's splash
    # imports every game once to read its declaration (gamelist.games): that
    # one call's garbage outgrows the cap with no collection in it, which says
    # nothing of the board, so the heap is watched from the first input on
    # (the boot's heap is measured by make bench: tools/bench/mp_heap.py).
    from firmware import app as app_module
    yield
    # a program's first frames import its screen's modules in one call each,
    # with no collection inside (this port's): their garbage says nothing of
    # the board, whose collector runs when it needs to
    _s["booting"] = _START_FRAMES
    # as main.py, after a power-on or a soft reset (the launch note in the RTC memory)
    _s["app"] = app_module.start(None, ROOT)
    app_module = None
    yield
    at = list(_pos)                       # where the last program stopped (0: the start)
    # the plan goes on from that item (its place carried), not drawn again from the start
    done = at[0] - 1 if _place else 0     # the plan's items, checkpoints and visits too
    played = _place[0] if _place else 0   # the inputs among them
    plan = () if at[0] == _DONE else soak_plan.inputs(SEED, INPUTS, _place)   # (_DONE: the last checkpoint left)
    for steps in plan:
        done += 1
        if steps[0][0] not in ("checkpoint", "visit"):
            played += 1
        if BUDGET_S and time.time() - _s["t0"] > BUDGET_S and steps[0][0] != "visit":
            _s["stopped"] = played - 1
            break
        if played % PROGRESS == 0 and done != at[0] and steps[0][0] not in ("checkpoint", "visit"):
            _progress(played)             # a long run shows how far it got
        for k, step in enumerate(steps):
            if done == at[0] and k < at[1]:
                continue                  # done by the program before (the pins are as it left them)
            left = step[1] - at[2] if (done, k) == (at[0], at[1]) and step[0] == "frames" else None
            _pos[0], _pos[1], _pos[2] = done, k, 0
            kind = step[0]
            if kind == "press":
                machine.drive(_BUTTON_GPIO[step[1]], 1)
            elif kind == "release":
                machine.drive(_BUTTON_GPIO[step[1]], 0)
            elif kind == "stick":
                machine.levels[39], machine.levels[36] = _STICK[step[1]]
            elif kind == "raw":           # the ADC reads no further than its ends
                machine.levels[39] = min(max(step[1], 0), soak_plan.ADC_MAX)
                machine.levels[36] = min(max(step[2], 0), soak_plan.ADC_MAX)
            elif kind == "frames":
                if left is not None:
                    _pos[2] = at[2]
                yield from _frames(step[1] if left is None else left)
            elif kind == "idle":
                yield from _idle(step[1], step[2])
            elif kind == "visit":
                yield from _visit(step[1])
            else:
                yield from _checkpoint()
    _pos[0], _pos[1], _pos[2] = _DONE, 0, 0
    yield from _checkpoint()


# ---- across soft resets -----------------------------------------------------------
_STATE = ROOT + "/_soak.json"
_pos = [0, 0, 0]          # plan item number, step in it, frames of that step done
_place = []               # that item's place in the plan (soak_plan.inputs)
_CARRIED = ("frames", "exceptions", "crashes", "stuck", "heap", "out_of_heap", "own", "boot_grew",
            "garbage_over", "garbage_over_live", "garbage_over_at",
            "paused", "dims", "savers", "mutes", "idles", "in_game", "in_pause", "in_game_at", "peaks", "t0", "stopped")


def _carry():
    import json
    state = {"pos": _pos, "place": _place, "now": _now, "seen": sorted(_s["seen"]),
             "levels": [[k, v] for k, v in machine.levels.items()]}
    for name in _CARRIED:
        state[name] = _s.get(name)
    with open(_STATE, "w") as f:
        f.write(json.dumps(state))


def _carried():
    """The figures and the place of the programs before this one (False: the first)."""
    import json
    try:
        with open(_STATE) as f:
            state = json.loads(f.read())
    except OSError:
        return False
    for name in _CARRIED:
        if state[name] is not None:
            _s[name] = state[name]
    _s["seen"] = set(state["seen"])
    _pos[:] = state["pos"]
    _place[:] = state["place"]
    _now[:] = state["now"]
    for gpio, level in state["levels"]:      # what the player still holds
        machine.levels[gpio] = level
    return True


def _kb(n):
    return n / 1024


def _kb_text(n):
    return "%.1f KB" % _kb(n) if n else "-"


def _progress(done):
    heap = _s["heap"] or [0, 0, 0, 0]
    print("... %d inputs, %d frames, %d exceptions, %d crash screens, %d stuck, heap ran out %d,"
          " live heap in the menu last %.1f KB, most %.1f KB, in games most %.1f KB, paused most %.1f KB;"
          " pause menus %s; dims %d, sleeps %d, mutes %d; most in games at %s"
          % (done, _s["frames"], _s["exceptions"], _s["crashes"], _s["stuck"], _s["out_of_heap"],
             _kb(heap[1]), _kb(heap[2]), _kb(_s["in_game"]), _kb(_s["in_pause"]),
             " ".join("%s:%d" % (k.replace(" ", ""), v) for k, v in sorted(_s["paused"].items())),
             _s["dims"], _s["savers"], _s["mutes"], _s["in_game_at"]))


def _missing_pauses():
    return [name for name in PAUSED_GAMES if not _s["paused"].get(name)]


def _report():
    heap = _s["heap"]
    played = INPUTS if _s.get("stopped") is None else _s["stopped"]
    if played != INPUTS:
        print("soak: STOPPED after %d of %d inputs (--budget-s %d)" % (played, INPUTS, BUDGET_S))
    print("soak (MicroPython %s, firmware as .mpy): %d inputs, %d frames (%.1f min of play), %d s"
          % (".".join(str(v) for v in sys.implementation.version[:3]),
             played, _s["frames"], _s["frames"] / 30 / 60, time.time() - _s["t0"]))
    print("screens reached:", ", ".join(sorted(_s["seen"])))
    paused = _s["paused"]
    print("pause menu opened:", ", ".join("%s %d" % (name, paused.get(name, 0)) for name in
                                         PAUSED_GAMES + tuple(sorted(n for n in paused if n not in PAUSED_GAMES))))
    print("idles: %d to the dim, %d to the screen saver; the panel dimmed %d times, slept %d;"
          " mute chord %d times" % (_s["idles"][0], _s["idles"][1], _s["dims"], _s["savers"], _s["mutes"]))
    print("exceptions out of the app:", _s["exceptions"])
    print("crash screens:", _s["crashes"])
    print("stuck states:", _s["stuck"])
    print("times the capped heap ran out (the live heap over it: the board's MemoryError):",
          _s["out_of_heap"])
    print("frames whose garbage outgrew the cap, uncollected in this port (the board collects"
          " inside them): %d, the most live before one %.1f KB (%s)"
          % (_s["garbage_over"], _s["garbage_over_live"] / 1024, _s["garbage_over_at"]))
    print("heap added at a program's start, at most (its first frames, not counted): %.1f KB"
          % (_s.get("boot_grew", 0) / 1024))
    print("held by the soak itself (script, plan, runner; not in the figures below): %.1f KB"
          " at the start, %.1f KB at the end" % (_s["own"] / 1024, _s["own_here"] / 1024))
    if heap:
        print("live heap in the menu: first %.1f KB, last %.1f KB, most %.1f KB (%d checks)"
              % (_kb(heap[0]), _kb(heap[1]), _kb(heap[2]), heap[3]))
    print("live heap in games, most: %.1f KB (%s); with the pause menu open, most: %.1f KB"
          % (_kb(_s["in_game"]), _s["in_game_at"], _kb(_s["in_pause"])))
    print("live heap, most, in each game / with its pause menu open: " + ", ".join(
        "%s %s / %s" % (name, _kb_text(p[0]), _kb_text(p[1])) for name, p in sorted(_s["peaks"].items())))
    bad = []
    if _s["exceptions"] or _s["crashes"] or _s["stuck"] or _s["out_of_heap"]:
        bad.append("exceptions, crash screens, stuck states or the heap ran out")
    if _missing_pauses():
        bad.append("no pause menu in " + ", ".join(_missing_pauses()))
    if _s["idles"][1] and not _s["savers"]:
        bad.append("the screen saver never came")
    print("soak:", "PROBLEMS: " + "; ".join(bad) if bad else "ok")
    return not bad


_measure = [False]


def _where():
    """The screen on show, and for a puzzle its size, mode and hint state."""
    app = _s["app"]
    screen = None if app is None else app.screen
    if screen is None:
        return "-"
    text = type(screen).__module__
    if hasattr(screen, "size") and hasattr(screen, "hinter"):
        text += " %dx%d %s%s, state %d, moves %d" % (
            screen.size, screen.size, screen.mode, " (hinting)" if screen.hinter is not None else "",
            screen.state, screen.puzzle.moves)
    return text


def _note_heap(live):
    """The live heap in the menu: first, last, most and how many checks. Not
    a list of every check: that list would grow through the session (2.7 KB
    by 100,000 inputs, a 4 KB block when it doubles) and be counted as the
    firmware's heap creeping up."""
    heap = _s["heap"]
    if heap is None:
        _s["heap"] = [live, live, live, 1]
    else:
        heap[1] = live
        heap[2] = max(heap[2], live)
        heap[3] += 1


def _note_game_heap(live):
    """The most live heap while a game, or its pause menu, was on show: in
    all, and for each game (its name worked out once per screen)."""
    app = _s["app"]
    if app is None or app.screen is None or _s.get("booting"):
        return
    screen = app.screen
    paused = type(screen).__name__ == "Pause"
    if not paused and not hasattr(screen, "save_name"):   # not a game (GameScreen)
        return
    if id(screen) != _named[0]:          # (its id: the soak holds no screen alive)
        _named[0] = id(screen)
        _named[1] = _game_name(screen.game if paused else screen)
    peaks = _s["peaks"].get(_named[1])
    if peaks is None:
        peaks = _s["peaks"][_named[1]] = [0, 0]
    if live > peaks[paused]:
        peaks[paused] = live
    if paused:
        _s["in_pause"] = max(_s["in_pause"], live)
    elif live > _s["in_game"]:
        _s["in_game"] = live
        _s["in_game_at"] = _where()


_named = [0, ""]      # the id of the screen last named by _note_game_heap, and its name


_START_FRAMES = 4     # a program's start and its first frames (see _session)


def _watch_heap(live, total):
    if not _s["cap"]:
        _s["cap"] = total                # the --heap given (this program's first step)
    if live > _s["cap"]:
        _s["out_of_heap"] += 1
        print("heap ran out at frame %d, from %s to %s (live %.1f KB, the cap %.1f KB)"
              % (_s["frames"], getattr(_s["was"], "__module__", "-"), _where(), live / 1024,
                 _s["cap"] / 1024))
        import micropython
        micropython.qstr_info()          # a new pool of interned names is one big block
    if _s.get("booting"):
        _s["booting"] -= 1
        if _s["total"]:
            _s["boot_grew"] = max(_s.get("boot_grew") or 0, total - _s["total"])
    elif _s["total"] and total > _s["total"]:
        _s["garbage_over"] += 1          # collected on the board, mid-frame (see the top)
        if _s["before"] > _s["garbage_over_live"]:
            _s["garbage_over_live"] = _s["before"]
            _s["garbage_over_at"] = _where()
    _s["total"] = total


def step():
    # each of these walks the whole heap's table (~80 us here): twice a frame, no more
    live = gc.mem_alloc()                   # just after the runner's collection
    _watch_heap(live, live + gc.mem_free())
    _s["before"] = live
    if _measure[0]:
        _note_heap(live - _s["own_here"])
        _measure[0] = False
    elif "own_here" in _s:
        _note_game_heap(live - _s["own_here"])
    if _s["gen"] is None:
        _s["gen"] = _session()
    try:
        what = next(_s["gen"])
    except StopIteration:
        if not _report():
            raise SystemExit("soak: problems (above)")   # make soak fails
        return False
    _measure[0] = what == "measure"
    return True
