# mprun: --loop step
# Heap of the whole firmware under real MicroPython (the WebAssembly port):
#   node tools/mprun/run.mjs --script tools/bench/mp_heap.py [--menu-only]
#        [--frames N] [--only TEXT | --row NAME | --rows] [--pad N] [--debug]
#        [--modules] [--installed N]
# (--only: the rows whose name holds TEXT, e.g. "Reversi"; --row: that row
# alone; --rows: list the row names and stop; --pad: N small blocks kept from
# before the firmware loads, which moves everything it allocates (see
# below); --debug: modules and store
# texts left over after each row; --modules: the heap each firmware module
# takes once imported, one per frame; --installed N: N small games of a
# player's in /games, written before the boot, for the menu's cost of them). tools/bench/bench_heap.py, which
# `make bench` runs, boots afresh for each row and runs the whole session too.
# (the line above makes the runner call step() once per frame, each call a
# separate top-level run with a gc.collect() in between; an explicit
# `--loop step` does the same).
#
# The real firmware boots (Hal + App, splash, menu) on stand-ins for the
# hardware (tools/emu/mp_node/machine.py), then opens each built-in game
# (firmware/gamelist.py) from the menu (the cursor moved by the stick, A
# pressed), plays it for a few hundred frames with scripted inputs (moves,
# hints, the CPU's replies, undo, a give-up), and goes back with B. The
# settings variants a game declares in GAME["bench"] follow it (15-Puzzle 5x5
# pictures, 8-Puzzle pictures, Reversi hard), then the games of a player's in
# /games (the runner's --games DIR puts a folder's there; bench_heap.py --games
# gives their declarations, each with its "path" in /games), then Records,
# Settings and About.
# A game's play is its declared GAME["bench"]["play"] (a generator function
# of its module, given this module's helpers), else one of _PLANS below, else
# play_generic. Each game's play ends with its pause menu (E, every row, B),
# in a row of its own ("ROW, paused").
#
# Figures: gc.mem_alloc() at the start of each step(), just after the runner's
# top-level collection, is the heap held between frames ("live": in this port
# a collection inside a running call frees nothing, so that is the only point
# where garbage is gone). The largest gc.mem_alloc() at the end of a step,
# before collection, is an upper bound that also holds that frame's garbage
# (and an import's compile garbage). All include this script (a few KB,
# "bench" below), as the board's figures include main.py.
#
# Layout: where things land in the heap can move the figures. The collector
# takes any word that looks like a pointer into the heap for one, and this
# port's heap starts at a low address, so plain numbers and pixels in buffers
# can keep a dead block alive (a picture's pixels kept 5 KB of the game list
# under "8-Puzzle pictures" at --pad 0). bench_heap.py runs with the runner's
# --esp32-heap (the heap at the ESP32's addresses, 0x3FFxxxxx) and a 256 KiB
# heap, and still measures each screen in a few layouts and reports the worst.
#
# Time: frames are paced by the firmware's own Clock.wait_frame, but the
# sleeps are virtual: time.ticks_ms/us run on real time plus the time slept,
# and sleep_ms/us add to that offset at once. So hold and auto-repeat timings
# behave as on the board (a frame is 33 ms) and the bench does not wait.
import gc
import os
import sys
import time

import machine
# The radio's stand-ins (tools/emu/mp_node/network.py, espnow.py) are Python
# here but C on the board: their code is loaded now, with the bench's own
# heap, as machine's is. What the real port allocates on MicroPython's heap
# for each object still counts, because the stand-ins allocate it when the
# firmware makes the object, after the baseline: ESPNow's receive ring
# buffer when it goes active (rxbuf, 526 bytes by default, as the espnow
# docs say), irecv's [address, message] list with its 250-byte buffer, and
# the peer table.
import network  # noqa: F401
import espnow  # noqa: F401


TARGET_KB = 64
ROOT = "/data"
GAMES = "/games"
FRAMES = 400

# ---- virtual sleeps ---------------------------------------------------------
_real_ms = time.ticks_ms
_real_us = time.ticks_us
_ticks_add = time.ticks_add
_ticks_diff = time.ticks_diff
_off = [0, 0, 0]     # slept: ms, us (both as ticks values), us short of a ms


def _v_ticks_ms():
    return _ticks_add(_real_ms(), _ticks_diff(_off[0], 0))


def _v_ticks_us():
    return _ticks_add(_real_us(), _ticks_diff(_off[1], 0))


def _v_sleep_ms(ms):
    if ms > 0:
        _off[0] = _ticks_add(_off[0], ms)
        _off[1] = _ticks_add(_off[1], ms * 1000)


def _v_sleep_us(us):
    if us > 0:
        _off[1] = _ticks_add(_off[1], us)
        frac = _off[2] + us
        _off[0] = _ticks_add(_off[0], frac // 1000)
        _off[2] = frac % 1000


def _v_sleep(s):
    _v_sleep_us(int(s * 1000000))


time.ticks_ms = _v_ticks_ms
time.ticks_us = _v_ticks_us
time.sleep_ms = _v_sleep_ms
time.sleep_us = _v_sleep_us
time.sleep = _v_sleep
# The clock waits for a frame in select.poll, woken by a machine.Timer
# (firmware/hal/clock.py); here that wait would take real milliseconds while
# this virtual time stood still. Without a Timer the clock waits in
# time.sleep_ms, above: virtual. (The Timer and poll objects it then does not
# make are a few dozen bytes of the heap; their code is loaded all the same.)
del machine.Timer

# ---- inputs -------------------------------------------------------------------
# ML4M wiring (firmware/boards/ml4m.py): buttons read 1 when pressed; X is inverted.
_BUTTON_GPIO = {"A": 32, "B": 33, "C": 35, "D": 34, "E": 27, "F": 26}
_JOY_X = 39
_JOY_Y = 36
_REST = 1850
_STICK = {"left": (3900, _REST), "right": (100, _REST), "up": (_REST, 100),
          "down": (_REST, 3900), None: (_REST, _REST)}
_DIRS = ("left", "right", "up", "down")


def press(name):
    machine.drive(_BUTTON_GPIO[name], 1)


def release(name):
    machine.drive(_BUTTON_GPIO[name], 0)


def stick(direction):
    x, y = _STICK[direction]
    machine.levels[_JOY_X] = x
    machine.levels[_JOY_Y] = y


stick(None)
for _name in _BUTTON_GPIO:
    machine.levels[_BUTTON_GPIO[_name]] = 0

# ---- figures --------------------------------------------------------------------
# phase -> [live peak, upper bound, frames, live at the last frame]
_stats = {}
_order = []
_notes = []
_phase = ["bench"]
_count = [0]        # frames run
_menu_after = {}    # game row -> live heap back in the menu afterwards
_app = [None]


_before = {}        # phase -> live heap of the frame before it began


def phase(name):
    if name not in _stats:
        _stats[name] = [0, 0, 0, 0]
        _order.append(name)
        if _phase[0] in _stats:
            _before[name] = _stats[_phase[0]][3]
    _phase[0] = name


def _live(n):
    s = _stats[_phase[0]]
    if n > s[0]:
        s[0] = n
    s[3] = n


def _upper(n):
    s = _stats[_phase[0]]
    if n > s[1]:
        s[1] = n
    s[2] += 1


# ---- driving the app (generators: one yield = one frame) ------------------------
def frames(n):
    app = _app[0]
    for _ in range(n):
        try:
            app.step()
        except SystemExit:   # a launch: this program ends, the next goes on (run.mjs --resets)
            _count[0] += 1
            _carry()
            # the interned names this program ended with, each listed
            # (tools/bench/names.py: the names the board would hold; the menu's
            # program, the one with the menu's module, ends launching the row)
            import micropython
            print("names at the end of:", ("menu, launching " if "firmware.screens.menu" in sys.modules
                                           else "") + _phase[0])
            micropython.qstr_info(1)
            print("end of names")
            raise
        _count[0] += 1
        yield


def tap(name, down=2, up=2):
    press(name)
    yield from frames(down)
    release(name)
    yield from frames(up)


def hold(name, n):
    press(name)
    yield from frames(n)
    release(name)
    yield from frames(2)


def push(direction, down=1, up=2):
    stick(direction)
    yield from frames(down)
    stick(None)
    yield from frames(up)


def screen_name():
    return type(_app[0].screen).__name__


def to_menu():
    """B until the menu shows (a game may need it twice: an overlay first)."""
    for _ in range(4):
        if screen_name() == "Menu":
            return
        yield from tap("B")
    if screen_name() != "Menu":
        _notes.append("%s: B did not reach the menu; app.switch(BACK) used" % _phase[0])
        from firmware.screens.base import BACK
        _app[0].switch(BACK)
        yield from frames(1)


def choose(label, key=None):
    """Move the menu's cursor to label (or to the game entry with this key)
    with the stick and press A."""
    menu = _app[0].screen
    labels = menu.labels
    if key is not None:
        from firmware import gamelist
        keys = [e[0] for e in gamelist.entries(_app[0])]
        target = menu.first_game + keys.index(key)
        keys = gamelist = None
    else:
        target = labels.index(label)
    while menu.cursor != target:
        down = (target - menu.cursor) % len(labels) <= len(labels) // 2
        yield from push("down" if down else "up")
    menu = labels = None   # let the menu go with the game's first frames, as the app does
    yield from tap("A", 2, 1)


# ---- scripted play per game -------------------------------------------------------
def play_puzzle(rng, n):
    start = _count[0]
    k = 0
    picture = _app[0].screen.mode == "picture"
    if picture:
        yield from tap("A")                  # the picture shown first: A starts the game
    while _count[0] - start < n:
        k += 1
        yield from push(_DIRS[rng.getrandbits(2)])
        if k % 25 == 0:
            yield from tap("D", 2, 6)        # a hint (the solver's first import)
        if k == 40:
            yield from hold("D", 90)         # hold D: watch it solve for a while
        if k % 30 == 15:
            if picture:
                yield from hold("C", 40)     # the picture preview
            else:
                yield from tap("C")          # undo
        if k == 90:
            yield from tap("A", 2, 30)       # give up: the "You Lost" banner
            yield from tap("A", 2, 4)


def _cursor_to(s, m):
    """The stick moves Reversi's cursor onto square m (16 pushes at most)."""
    col, row = m % 10 - 1, m // 10 - 1
    for _ in range(16):
        if s.cx == col and s.cy == row:
            break
        if s.cx != col:
            yield from push("left" if col < s.cx else "right")
        else:
            yield from push("up" if row < s.cy else "down")


def play_reversi(rng, n):
    # up to the end of the game (the hard CPU's exact endgame solve), at most 3n frames
    from firmware.games.reversi import PASS
    start = _count[0]
    menu_done = False
    while _count[0] - start < 3 * n:
        s = _app[0].screen
        g = s.game
        if s.state != 0 and _count[0] - start >= n:
            break
        if not menu_done and _count[0] - start > n // 2:
            menu_done = True
            # C is undo (Reversi's old game menu is the pause menu now, opened
            # at the row's end): undo, the cursor down and up, undo again
            yield from tap("C", 2, 6)
            yield from push("down")
            yield from push("up")
            yield from tap("C", 2, 4)
            continue
        if s.overlay or s.state != 0:        # a pass notice, the end: A
            yield from tap("A", 2, 4)
            continue
        if s.flip_n or s.thinking or s.cpu_plays(g.turn):
            yield from frames(1)
            continue
        moves = [m for m in g.legal_moves() if m != PASS]
        if not moves:
            yield from frames(1)
            continue
        m = moves[rng.getrandbits(8) % len(moves)]
        yield from _cursor_to(s, m)
        yield from tap("A", 2, 2)


def play_2048(rng, n):
    start = _count[0]
    k = 0
    while _count[0] - start < n:
        k += 1
        yield from push(_DIRS[rng.getrandbits(2)], 1, 3)
        if k % 20 == 0:
            yield from tap("D", 2, 8)        # a hint
        if k == 30:
            yield from hold("D", 120)        # hold D: the computer plays
        if k % 35 == 0:
            yield from tap("C")              # undo


def play_generic(rng, n):
    # a game without a script of its own: stick moves, with D and C now and then
    start = _count[0]
    k = 0
    while _count[0] - start < n:
        k += 1
        yield from push(_DIRS[rng.getrandbits(2)], 1, 3)
        if k % 20 == 0:
            yield from tap("D", 2, 6)
        if k % 35 == 0:
            yield from tap("C")


def play_system(rng, n):
    start = _count[0]
    while _count[0] - start < n:
        yield from push("down", 1, 4)


def play_link(rng, n):
    # Play a friend: first the lobby's program (the radio on, HELLOs out),
    # then, paired, the linked game's program (a launch: the lobby's code is
    # not in its heap). No second board answers under this bench: the
    # invitation is put in the lobby as one heard, and A accepts it. In the
    # game, the friend's replies are put in the radio's inbox as their board
    # would send them (_friend_moves), until the end of the game or at most
    # 4n frames; our moves go out and are sent again, unacknowledged. Once,
    # the friend stays quiet for 6 s: the "Waiting for" box shows, and A
    # keeps waiting ("CPU plays" would go on in Reversi's own program).
    s = _app[0].screen
    if type(s).__name__ == "Lobby":
        yield from frames(30)
        friend = b"\x24\x6f\x28\x00\x00\x02"
        lobby = _app[0].screen.lobby
        lobby.boards.append([friend, "ML4M-0002", -50, _app[0].hal.clock.now()])
        lobby.invited_by = [friend, "ML4M-0002", 0x1234]
        lobby = s = None
        yield from tap("A", 2, 60)           # accepted: the linked game's program starts
        _notes.append("the lobby did not start the linked game")
        return
    s = None
    phase("Play a friend, paired")
    yield from tap("A", 2, 4)                # the pairing code seen
    start = _count[0]
    quiet_done = False
    while _count[0] - start < 4 * n:
        s = _app[0].screen
        g = s.game
        if s.state != 0:
            if _count[0] - start >= n:
                break
            yield from frames(1)
            continue
        if s.waiting:                        # the friend went quiet: keep waiting
            while s.wait_i:
                yield from push("up")
            yield from tap("A", 2, 4)
            continue
        if s.overlay:                        # a pass notice: A
            yield from tap("A", 2, 4)
            continue
        if s.flip_n:
            yield from frames(1)
            continue
        if g.turn != s.colour:
            if not quiet_done and g.ply >= 6:
                quiet_done = True
                s = g = None
                yield from frames(6 * 30)    # the friend quiet for 6 s
                continue
            _friend_moves(s, rng)
            s = g = None
            yield from frames(3)
            continue
        moves = [m for m in g.legal_moves() if m != 0]
        if not moves:
            yield from frames(1)
            continue
        m = moves[rng.getrandbits(8) % len(moves)]
        yield from _cursor_to(s, m)
        s = g = None
        yield from tap("A", 2, 2)


def _friend_moves(screen, rng):
    """The friend's reply, as their board would send it: a MOVE message
    (the next number, the move, the whole position after it; its checksum)
    put in the radio's inbox from the friend's address."""
    import espnow
    from firmware.games import link, reversi_link
    session = screen.session
    game = screen.game
    moves = game.legal_moves()
    move = moves[rng.getrandbits(8) % len(moves)]
    msg = bytearray(session.size)
    msg[0] = 0x4D                            # 'M'
    msg[1] = link.VERSION
    msg[2] = link.MOVE
    msg[3] = reversi_link.GAME_ID
    msg[4] = session.session >> 8
    msg[5] = session.session & 255
    number = session.number + 1
    msg[6] = number >> 8
    msg[7] = number & 255
    msg[8] = move
    game.push(move)                          # the position after it, then back
    reversi_link.position_into(game, msg, 9)
    game.pop()
    c = link.checksum(msg, len(msg) - 2)
    msg[len(msg) - 2] = c >> 8
    msg[len(msg) - 1] = c & 255
    espnow.inbox.append((bytes(session.peer), msg))


_PLANS = {"firmware.screens.puzzle": play_puzzle, "firmware.screens.reversi": play_reversi,
          "firmware.screens.link": play_link,
          "firmware.screens.g2048": play_2048}


def _module_file(module):
    """The module is there as source or compiled (the runner's --mpy)."""
    path = "/fw/" + module.replace(".", "/")
    for ext in (".py", ".mpy"):
        try:
            os.stat(path + ext)
            return True
        except OSError:
            pass
    return False


def _set(game_id, settings):
    """Change a game's settings; returns the values they had."""
    if not settings:
        return {}
    from firmware import gamelist, game_settings as values
    old = {}
    for game in gamelist.games(_app[0]):
        if game.get("id") == game_id:
            now = values.game_values(_app[0].hal.store, game)
            for name in settings:
                old[name] = now[name]
                gamelist.set_setting(_app[0], game_id, name, settings[name])
    gamelist = values = None
    return old


def open_row(item, rng):
    """In the menu's program: a row's settings changed, its game chosen (a
    launch: the program ends there), or a system screen opened and played."""
    row, game, settings = item
    if game is None:                         # Records, Settings, About: a program each too
        _where["saved"] = {}
        _where["next"] = "game"
        phase(row)
        yield from choose(row)
        return
    title, module, save, key, game_id, plan = game
    if settings and save:
        _app[0].hal.store.save(save, {})     # a variant starts a new game
    _where["saved"] = _set(game_id, settings)
    _where["next"] = "game"
    phase(row)
    yield from choose(title, key)


def play_row(item, rng, n):
    """In the game's own program: play it, then B (back to the menu's program)."""
    row, game, _settings = item
    phase(row)
    app = _app[0]
    if screen_name() in ("ErrorScreen", "BareError"):
        err = app.screen
        _notes.append("%s: did not open: %s %s" % (row, err.title, " ".join(getattr(err, "lines", ()))))
    elif game is None:
        yield from play_system(rng, 60)
    else:
        yield from game[5](rng, n)
        yield from pause_menu(row)
    _where["next"] = "menu"
    yield from to_menu()


def pause_menu(row):
    """The pause menu over the game as the play left it: E, the cursor down
    through every row (each drawn with its value) and B, in a phase of its
    own ("ROW, paused": its +opened is what the open menu adds to the game's
    heap of the frame before). The frames after it are the game's again."""
    playing = _phase[0]
    phase(row + ", paused")
    yield from tap("E")
    if screen_name() != "Pause":
        _notes.append("%s: E did not open the pause menu" % row)
    else:
        for _ in range(len(_app[0].screen.rows)):
            yield from push("down")
        yield from tap("B")
    phase(playing)
    yield from frames(4)


def back_in_menu(row):
    phase("menu after " + row)
    yield from frames(6)
    _menu_after[row] = _stats["menu after " + row][3]
    if _opts["debug"]:
        store = _app[0].hal.store
        print("debug: after %s: modules %s, store remembers %d files" % (
            row, sorted(sys.modules), len(store._saved)))
        import micropython
        micropython.qstr_info()


_SYSTEM = (("Records", "firmware.screens.records"),
           ("Settings", "firmware.screens.settings"),
           ("About", "firmware.screens.about"))


_DECLARED = ROOT + "/_declared.json"   # the declarations the first program read


def _declared():
    """The games' declarations: given by bench_heap.py (--declared JSON, read
    on the PC), so that neither this bench nor the firmware has to import
    every game to learn them, as on the board from its second boot on
    (data/games.json). Without --declared the games are imported here, the
    built-in ones and those in /games before the boot (their interned names
    then count, as on a first boot after a deploy)."""
    import json
    if "--declared" in sys.argv:
        return json.loads(sys.argv[sys.argv.index("--declared") + 1])
    try:                 # read by the first program (a launch's program imports no game)
        with open(_DECLARED) as f:
            return json.loads(f.read())
    except OSError:
        pass
    before = set(sys.modules)
    from firmware import gamefiles, gamereader
    found = []
    for module in gamefiles.BUILT_IN:
        __import__(module)
        decl = sys.modules[module].GAME
        game = gamereader.read_declaration(decl, module)
        game["module"] = module
        game["id"] = module[module.rindex(".") + 1:]
        game["bench"] = decl.get("bench", {})
        found.append(game)
    gamefiles.use_folder(GAMES)
    for name, path in gamefiles.installed_files(GAMES):   # a player's (the runner's --games)
        decl = __import__(name).GAME
        game = gamereader.read_declaration(decl, name)
        game.update(module=name, id=name, path=path, built_in=False, bench=decl.get("bench", {}))
        found.append(game)
    decl = gamefiles = gamereader = None
    for name in [n for n in sys.modules if n not in before]:
        _forget_modules(name)
    try:
        os.mkdir(ROOT)
    except OSError:
        pass
    with open(_DECLARED, "w") as f:
        f.write(json.dumps(found))
    return found


def _game_rows(declared):
    """(row name, game, settings) for every game declared (built-in, then a
    player's), each entry of it, and the settings variants it declares in
    GAME["bench"]["rows"]: (entry title, row name, {setting: value}).
    game: (title, module, save, key, id, plan)."""
    rows = []
    for decl in declared:
        module = decl["module"]
        game_id = decl["id"]
        variants = decl["variants"]
        bench = decl.get("bench") or {}
        plan = _PLANS.get(module) or (_declared_plan(module, bench["play"])
                                      if "play" in bench else play_generic)
        entry = game_id if decl.get("built_in", True) else "games/" + game_id   # gamelist.key
        for i, v in enumerate(variants):
            key = entry if len(variants) < 2 else "%s/%d" % (entry, i)
            game = (v["title"], module, v.get("save"), key, game_id, plan)
            rows.append((v["title"], game, {}))
            for title, name, settings in bench.get("rows", ()):
                if title == v["title"]:
                    rows.append((v["title"] + " " + name, game, settings))
    return rows


def _prepare():
    """The rows to run; the installed games and data/games.json written.
    (A function of its own, not in the session's generator: a generator's
    frame stays in the heap and could hold the declarations' last pointers.)"""
    declared = _declared()
    rows = [r for r in _game_rows(declared) if _wanted(r[0])]
    installed = 0
    if "--installed" in sys.argv:
        installed = int(sys.argv[sys.argv.index("--installed") + 1])
        install_games(installed)
    if "--declared" in sys.argv:
        write_cache(declared, installed)
    return rows


def write_cache(declared, installed):
    """data/games.json as a boot before this one left it: the firmware then
    reads no game to learn what it declares (the board's usual boot)."""
    import json
    before = set(sys.modules)
    from firmware import gamefiles, gamereader
    games = []
    for decl in declared:
        game = {}
        for k in decl:
            if k != "bench":
                game[k] = decl[k]
        if game.get("built_in", True):      # (a player's game comes with its path in /games)
            game["path"] = gamefiles.built_in_file(game["module"])
            game["built_in"] = True
        game["stamp"] = gamefiles.stamp(game["path"])
        games.append(game)
    for i in range(installed):
        game = gamereader.read_declaration(_installed_game(i), "game%d" % i)
        game["path"] = "%s/game%d.py" % (GAMES, i)
        game["stamp"] = gamefiles.stamp(game["path"])
        game["id"] = game["module"] = "game%d" % i
        game["built_in"] = False
        games.append(game)
    try:
        os.mkdir(ROOT)
    except OSError:
        pass
    with open(ROOT + "/games.json", "w") as f:
        f.write(json.dumps({"layout": 1, "games": games}))
    games = gamefiles = gamereader = None
    for name in [n for n in sys.modules if n not in before]:
        _forget_modules(name)


class Helpers:
    """What a game's own bench plan is given (GAME["bench"]["play"], called as
    play(helpers, rng, n), a generator: one yield a frame)."""
    frames = staticmethod(frames)
    tap = staticmethod(tap)
    hold = staticmethod(hold)
    push = staticmethod(push)

    @staticmethod
    def screen():
        return _app[0].screen


def _declared_plan(module, name):
    def plan(rng, n):
        play = getattr(sys.modules[module], name)   # imported by then: the game is open
        yield from play(Helpers, rng, n)
    return plan


# A player's game for the menu's cost of installed games (--installed N): a
# title, an icon, a saved game, a setting and a record, like README's example.
def _installed_game(i):
    return {"title": "Game %d" % i, "icon": bytes((i, 66, 129, 129, 129, 129, 66, 60)),
            "save": "game%d" % i, "settings": (("speed", "Speed", ((1, "slow"), (2, "fast")), 1),),
            "records": (("best", "best", "highest", "number"),)}


_INSTALLED = """from firmware.screens.base import GameScreen, BACK
GAME = %r


class Game(GameScreen):
    def update(self, now_ms):
        return BACK if self.hal.controls.just_pressed(1) else None
"""


def install_games(n):
    try:
        os.mkdir(GAMES)
    except OSError:
        pass
    for i in range(n):
        with open("%s/game%d.py" % (GAMES, i), "w") as f:
            f.write(_INSTALLED % (_installed_game(i),))


def _forget_modules(name):
    sys.modules.pop(name, None)
    if "." in name:
        parent, child = name.rsplit(".", 1)
        if hasattr(sys.modules.get(parent), child):
            delattr(sys.modules[parent], child)


def _wanted(row):
    if _opts["row"] is not None:
        return row == _opts["row"]
    return not _opts["only"] or _opts["only"] in row


def _items():
    """The rows of this run: (row, game, settings) for the games, (label,
    None, None) for the system screens."""
    rows = [r for r in _game_rows(_declared()) if _wanted(r[0])]
    return rows + [(label, None, None) for label, _m in _SYSTEM if _wanted(label)]


def session(menu_only, n):
    """The whole session, one program at a time: a launch ends the program
    (frames() carries the figures over), and run.mjs --resets runs this
    script again in a fresh interpreter, which goes on where _where says."""
    import random
    random.seed(7 + mprun_resets)  # noqa: F821  (set by run.mjs)
    rng = random
    if mprun_resets == 0:  # noqa: F821
        phase("boot")
    items = _ITEMS
    from firmware import app as app_module
    # as main.py starts, after a power-on or a soft reset (no /board.txt
    # here: the ML4M's board file)
    _app[0] = app_module.start(None, ROOT, GAMES)
    app_module = None
    if mprun_resets == 0:  # noqa: F821
        yield from frames(1)
        _where["next"] = "first menu"
        yield from tap("A", 1, 1)                # skip the splash: the menu's program
        yield from frames(60)
        _notes.append("the splash did not end in a reset")
    if _where["next"] == "first menu":
        phase("menu")
        for _ in range(9):                       # down through every entry and back
            yield from push("down")
        for _ in range(9):
            yield from push("up")
        yield from frames(20)
        if _opts["debug"]:
            print("debug: modules in the menu:", sorted(sys.modules))
            import micropython
            micropython.qstr_info()
        if menu_only:
            return
    elif _where["next"] == "game":
        yield from play_row(items[_where["row"]], rng, n)
        return                                   # (B resets: the line above ends the program)
    else:
        item = items[_where["row"]]
        if item[1] is not None:
            _set(item[1][4], _where["saved"])
        yield from back_in_menu(item[0])
    while _where["row"] + 1 < len(items):
        _where["row"] += 1
        yield from open_row(items[_where["row"]], rng)


def _prepare_items():
    _prepare()
    return _items()


# ---- across soft resets -----------------------------------------------------------
STATE = ROOT + "/_heap_bench.json"
_where = {"row": -1, "next": "menu", "saved": {}}   # where the session goes on after a reset


def _carry():
    """What the next program needs to go on, into the flash (run.mjs keeps /data)."""
    import json
    with open(STATE, "w") as f:
        f.write(json.dumps({"stats": _stats, "order": _order, "before": _before,
                            "notes": _notes, "menu_after": _menu_after, "count": _count[0],
                            "phase": _phase[0], "off": _off, "where": _where, "t0": _t0[0],
                            "bench": _bench[1]}))


def _carried():
    """The figures of the programs before this one (False: this is the first)."""
    import json
    try:
        with open(STATE) as f:
            state = json.loads(f.read())
    except OSError:
        return False
    _stats.update(state["stats"])
    _order.extend(state["order"])
    _before.update(state["before"])
    _notes.extend(state["notes"])
    _menu_after.update(state["menu_after"])
    _count[0] = state["count"]
    _phase[0] = state["phase"]
    _off[:] = state["off"]
    _where.update(state["where"])
    _t0[0] = state["t0"]
    _bench[1] = state["bench"]
    return True


def _firmware_modules(path="/fw/firmware", name="firmware"):
    out = [name]
    for entry in sorted(os.listdir(path)):
        if entry.endswith(".py") and entry != "__init__.py":
            out.append(name + "." + entry[:-3])
        elif entry.endswith(".mpy") and entry != "__init__.mpy":
            out.append(name + "." + entry[:-4])
        elif "." not in entry and entry != "__pycache__":
            # a folder of modules is a package with or without an __init__
            # (firmware/screens has none: a namespace package)
            out += _firmware_modules(path + "/" + entry, name + "." + entry)
    return out


def modules_session():
    """Each firmware module imported on its own frame: what it adds to the heap
    (with the modules it pulls in that were not there yet)."""
    yield
    for name in _firmware_modules():
        phase(name)
        before = set(sys.modules)
        try:
            __import__(name)
        except Exception as e:   # a module that needs the HAL up, say
            _notes.append("%s: %s %s" % (name, type(e).__name__, e))
        _pulled[name] = sorted(k for k in sys.modules if k not in before and k != name)
        yield


_pulled = {}


def _listing():
    return ["/fw/firmware/" + name for name in os.listdir("/fw/firmware")]


def report_modules():
    print("Heap per firmware module under MicroPython (imported in this order, %s;"
          % ("as .mpy" if "/fw/firmware/app.mpy" in _listing() else "from source"))
    print("a module's figure includes what it pulls in that was not loaded yet), KB:")
    total = 0
    for name in _order:
        if name not in _pulled:
            continue
        added = _stats[name][3] - _before[name]
        total += added
        extra = ", ".join(_pulled[name])
        print("%-34s %6.1f  %s" % (name, _kb(added), ("with " + extra) if extra else ""))
    print("%-34s %6.1f" % ("all", _kb(total)))
    for note in _notes:
        print("note:", note)


# ---- the runner's loop ----------------------------------------------------------
_opts = {"debug": False, "only": None, "row": None, "modules": ()}


def _args():
    argv = sys.argv
    menu_only = "--menu-only" in argv
    _opts["debug"] = "--debug" in argv
    if "--only" in argv:
        _opts["only"] = argv[argv.index("--only") + 1]
    if "--row" in argv:
        _opts["row"] = argv[argv.index("--row") + 1]
    n = FRAMES
    if "--frames" in argv:
        n = int(argv[argv.index("--frames") + 1])
    return menu_only, n


_bench = [0, 0]     # the bench's own heap in this program, and in the first
_ITEMS = []         # the rows of this run (session())
_named = [False]
_gen = [None]
_t0 = [0]


def _kb(n):
    return n / 1024


def report():
    import micropython
    micropython.qstr_info()       # interned names now (the first such line: at the start)
    bench = 0                     # (each program's own bench heap is taken off as measured)
    print("Heap under MicroPython %s (WebAssembly port), KB: gc.mem_alloc() less this"
          % ".".join(str(v) for v in sys.implementation.version[:3]))
    print("bench's own %.1f KB (script, stand-ins, runtime: measured before the firmware)"
          % _kb(_bench[1]))
    print("%-24s %7s %7s %7s %8s %7s  %s" % ("screen", "live", "upper", "+opened", "menu aft",
                                            "frames", "target %d KB" % TARGET_KB))
    for name in _order:
        if name.startswith("menu after ") or name == "bench":
            continue
        live, upper, n, _last = _stats[name]
        if n == 0:
            continue
        added = "%+7.1f" % _kb(live - _before[name]) if name in _before and name not in (
            "boot", "menu") else ""
        after = "%8.1f" % _kb(_menu_after[name] - bench) if name in _menu_after else ""
        verdict = "" if name == "boot" else ("ok" if live - bench <= TARGET_KB * 1024 else "OVER")
        print("%-24s %7.1f %7.1f %7s %8s %7d  %s" % (name, _kb(live - bench), _kb(upper - bench),
                                                     added, after, n, verdict))
    print("live: peak heap held between frames (after a collection); upper: peak before")
    print("the collection (that frame's garbage too); +opened: live peak less the menu's")
    print("heap just before the screen opened; menu aft: the menu's heap afterwards.")
    print("Rows run in order in one session; each game in a program of its own (a")
    print("launch is a soft reset: a fresh interpreter), so it carries no interned names")
    print("of the rows before it (--only ROW: one row). %d frames." % _count[0])
    for note in _notes:
        print("note:", note)


def step():
    n = gc.mem_alloc()
    if _gen[0] is None:
        if "--rows" in sys.argv:
            for row in [r[0] for r in _game_rows(_declared())] + [label for label, _m in _SYSTEM]:
                print("row:", row)
            return False
        if not _named[0]:
            # The interned names before the firmware (report() prints them again
            # after), in a step of its own: the first print keeps a buffer, which
            # belongs in the bench's own heap, measured on the next step. So do
            # the figures of the programs before this one (after a launch).
            _named[0] = True
            _carried()
            if "--modules" not in sys.argv:
                # the rows (and, first, the flash prepared), before the bench's
                # own heap is measured: a session's list of rows is not the
                # firmware's heap
                _args()
                _ITEMS.extend(_prepare_items() if mprun_resets == 0 else _items())  # noqa: F821
            if "--modules" not in sys.argv:
                import micropython
                micropython.qstr_info()
            if "--pad" in sys.argv:
                n = int(sys.argv[sys.argv.index("--pad") + 1])
                _named.append([bytearray(8) for _ in range(n)])
            return True
        _bench[0] = n
        if mprun_resets == 0:  # noqa: F821
            _bench[1] = n
            _t0[0] = _real_ms()
        menu_only, frames_per_game = _args()
        if "--modules" in sys.argv:
            phase("bench")
            _gen[0] = modules_session()
        else:
            _gen[0] = session(menu_only, frames_per_game)
    else:
        _live(n - _bench[0])
    try:
        next(_gen[0])
    except StopIteration:
        if "--modules" in sys.argv:
            report_modules()
        else:
            report()
        return False
    _upper(gc.mem_alloc() - _bench[0])
    return True
