"""The firmware's heap on real MicroPython, per screen, against the 60 KB target.

    .venv/bin/python tools/bench/bench_heap.py [--mpy build/mpy | --source] [--games DIR]

Drives tools/bench/mp_heap.py under the Node runner (the firmware loaded as
.mpy, as `make deploy` puts it on the board; `make bench` builds it first):

- fresh boot: one run per screen, which boots, shows the menu, opens that
  screen alone and plays it. This is the figure the target is about: a game
  started from the menu right after power-on. Each screen is run in a few
  heap layouts (mp_heap.py --pad, see there): the worst is reported, and how
  far the best was below it.
- one session: a single run that visits every screen in turn, as a player
  who never switches off would. Each game starts in a program of its own (a
  launch is a soft reset: the runner's --resets starts a fresh interpreter),
  so it carries nothing of the screens before it, the interned names (qstrs)
  included: the two columns agree but for what the session saved (records).

- the pause menu open over each game (mp_heap's "ROW, paused" rows): what it
  adds to the game's heap, judged under the worst game within the limit
  against 2 KB (README, "Why the code looks like this").

- the menu with 0 and with 20 small games of a player's installed in /games
  (mp_heap.py --installed 20), against 2 KB for the 20.
- --games DIR: the games of a folder of yours (name.py files and package
  folders name/, as make install-game takes them) installed in the emulated
  board's /games (compiled to .mpy as make install-game does, or as source
  with --source), each opened from the menu and played (its GAME["bench"]
  "play" if it declares one, else a generic plan; its "rows" too): rows of
  their own in the same table, with the same verdict. A file the bench cannot
  take stops it before anything runs, saying which file and why.

The games' declarations are read here on the PC and given to mp_heap.py
(--declared), which writes them to data/games.json as a boot before would
have: so the figures are those of the board's usual boot, when the firmware
reads no game to learn what it declares. The first boot after a deploy (or
after installing a game) reads each new game once, which leaves their
interned names in the heap until the next reboot: that boot is shown too.

"live" is the heap held between frames (after a collection), "upper" that
plus one frame's garbage. Both leave out the bench's own heap. "names" is how
many interned names the row's program needs on the board (tools/bench/names.py
counts them from the list mp_heap.py prints at each program's end; names.py
ROW shows which module brings which), "board" the live figure with those
names' pools and text as the board holds them instead of as here.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
from tools.bench import names as qnames  # noqa: E402  (run as a script too)
RUNNER = os.path.join(ROOT, "tools", "mprun", "run.mjs")
SCRIPT = "tools/bench/mp_heap.py"
TARGET_KB = 64
PADS = (0, 29, 211)       # heap layouts per row (mp_heap.py --pad: blocks kept first)
# The MicroPython heap for these runs. The collector takes any word that looks
# like a pointer into the heap for one. This port's heap would start at a low
# address (~0x37000), so ordinary data held in buffers looked like pointers and
# kept dead blocks alive: a picture's pixels (bytes 00 80 04 00 = 0x48000) kept
# the game list read at the game's launch (~5 KB) under "8-Puzzle pictures" in
# one layout (69.2 KB where the others gave 64.3); with the runner's default
# 8 MiB, 2.2 KB more on every screen in some layouts. The runner's --esp32-heap
# puts the heap where the ESP32 has it (0x3FFxxxxx), so only what would look
# like a pointer on the board does here. 256 KiB still holds the busiest frame
# (~120 KB with the bench) twice over.
HEAP = 256 * 1024
# a row of mp_heap's table: name, live, upper (the rest is not needed here)
ROW = re.compile(r"^(.+?)\s+([0-9.]+)\s+([0-9.]+)\s", re.M)


def declared():
    """The built-in games' declarations as JSON (firmware/gamelist.py reads
    them the same way on the board), and each one's bench plan."""
    sys.path.insert(0, ROOT)
    import tools.emu
    tools.emu.install()
    from firmware import gamefiles, gamereader
    found = []
    for module in gamefiles.BUILT_IN:
        decl = __import__(module, None, None, ["GAME"]).GAME
        game = gamereader.read_declaration(decl, module)
        game.update(module=module, id=module.rsplit(".", 1)[1], bench=decl.get("bench", {}))
        found.append(game)
    return json.dumps(found)


class GamesError(Exception):
    """A folder given with --games that the bench cannot take: the message
    names the file and says why."""


def folder_games(folder, source=False):
    """The games of a player's folder, as make install-game takes them (a
    file name.py, or a package folder name/ with its __init__.py; other files
    are left out): ([their declarations, as declared() gives the built-in
    ones, with their path in /games], {path under /games: bytes}: compiled to
    .mpy as install-game does them, or their source). Raises GamesError."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from tools import deploy
    if not os.path.isdir(folder):
        raise GamesError("no such folder" if not os.path.exists(folder) else
                         "not a folder: give the folder your games are in")
    found = []
    files = {}
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        if entry.startswith(".") or entry == "__pycache__":
            continue
        if entry.endswith(".mpy"):
            raise GamesError("%s is compiled: the bench reads a game's GAME on the PC, so give "
                             "its source (%s.py)" % (entry, entry[:-4]))
        if not (entry.endswith(".py") or os.path.isdir(path)):
            continue                                  # notes, pictures: not games
        try:
            deploy.check_game(path)                   # a module name, compiles, declares GAME
            name, compiled = deploy.game_files(path)
        except deploy.DeployError as e:
            raise GamesError(str(e).replace(os.path.abspath(path), entry).replace(path, entry))
        if source:
            compiled = _sources(folder, entry)
        found.append(_declaration(folder, entry, name, source))
        files.update(compiled)
    if not found:
        raise GamesError("no games there (name.py files or package folders name/)")
    return found, files


def _sources(folder, entry):
    """{path under /games: bytes} of a game as its source."""
    out = {}
    base = os.path.join(folder, entry)
    walked = [(folder, [], [entry])] if os.path.isfile(base) else os.walk(base)
    for where, dirs, names in walked:
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
        for n in names:
            if not n.startswith(".") and not n.endswith((".pyc", ".mpy")):
                rel = os.path.relpath(os.path.join(where, n), folder).replace(os.sep, "/")
                with open(os.path.join(where, n), "rb") as f:
                    out["/games/" + rel] = f.read()
    return out


def _declaration(folder, entry, name, source):
    """A game's declaration read on the PC, as the board reads it from /games."""
    import tools.emu
    tools.emu.install()
    from firmware import check, gamereader
    ours = lambda m: m == name or m.startswith(name + ".")   # noqa: E731  (the game, its modules)
    # a module of that name loaded here already (another game's) is put back afterwards
    before = {m: sys.modules.pop(m) for m in list(sys.modules) if ours(m)}
    sys.path.insert(0, os.path.abspath(folder))
    try:
        module = __import__(name)
    except Exception as e:   # the author's code: anything it raises is the reason
        raise GamesError("%s: importing it raised %s: %s" % (entry, type(e).__name__, e))
    finally:
        sys.path.remove(os.path.abspath(folder))
        for m in [m for m in sys.modules if ours(m)]:
            del sys.modules[m]
        sys.modules.update(before)
    decl = module.GAME
    what = entry + ("/" if os.path.isdir(os.path.join(folder, entry)) else "")
    try:
        game = gamereader.read_declaration(decl, what)
    except check.Invalid as e:
        raise GamesError(str(e))
    bench = decl.get("bench", {})
    _check_bench(bench, game, module, what)
    path = "/games/" + (name + "/__init__" if what.endswith("/") else name) + (".py" if source else ".mpy")
    game.update(module=name, id=name, path=path, built_in=False, bench=bench)
    return game


def _check_bench(bench, game, module, what):
    """GAME["bench"]: {"play": a generator function of the module, "rows":
    ((entry title, row name, {setting: value}), ...)}, checked before a run."""
    if type(bench) is not dict:
        raise GamesError("%s bench: %r is not a dict" % (what, bench))
    play = bench.get("play")
    if play is not None and (type(play) is not str or not callable(getattr(module, play, None))):
        raise GamesError("%s bench play: %r is not the name of a function of the game's module"
                         % (what, play))
    titles = [v["title"] for v in game["variants"]]
    settings = [s[0] for s in game["settings"]]
    for row in bench.get("rows", ()):
        if type(row) not in (tuple, list) or len(row) != 3 or type(row[2]) is not dict:
            raise GamesError("%s bench rows: %r is not (entry title, row name, {setting: value})"
                             % (what, row))
        if row[0] not in titles:
            raise GamesError("%s bench rows: %r is not one of its entries' titles (%s)"
                             % (what, row[0], ", ".join(titles)))
        for name in row[2]:
            if name not in settings:
                raise GamesError("%s bench rows: %r is not one of its settings (%s)"
                                 % (what, name, ", ".join(settings) or "none"))


_DECLARED = []
# --games DIR: "staged", the folder as the board's /games holds it, and
# "declared", its games' declarations (given to every run but the menu's)
_PLAYERS = {}


def run(mpy, *args, first_boot=False, players=True):
    node = shutil.which("node")
    if node is None:
        sys.exit("bench_heap: node not found (the MicroPython runner needs Node 20): run make deps")
    if not _DECLARED:
        _DECLARED.append(declared())
    games = _PLAYERS if players else {}
    known = json.dumps(json.loads(_DECLARED[0]) + games["declared"]) if games else _DECLARED[0]
    cmd = ([node, RUNNER, "--resets", "--heap", str(HEAP), "--esp32-heap"] + (["--mpy", mpy] if mpy else [])
           + (["--games", games["staged"]] if games else [])
           + ["--script", SCRIPT] + list(args)
           + ([] if first_boot else ["--declared", known]))
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        sys.exit("bench_heap: %s failed:\n%s%s" % (" ".join(args), done.stdout, done.stderr))
    return done.stdout


def table(text):
    """{row name: (live KB, upper KB)} from mp_heap's report."""
    return {name: (float(live), float(upper))
            for name, live, upper in ROW.findall(qnames.without_dumps(text))
            if not name.startswith(("screen", "Heap", "bench")) and not name.endswith(", paused")}


# the pause menu's phase of a game's row: name, live, upper, +opened
PAUSED = re.compile(r"^(.+?), paused\s+([0-9.]+)\s+[0-9.]+\s+([+-][0-9.]+)\s", re.M)
PAUSE_LIMIT_KB = 2.0     # what the pause menu may add to a game's heap while open


def paused(text):
    """{game row: (live KB, KB the open pause menu adds)} from mp_heap's report."""
    return {name: (float(live), float(added))
            for name, live, added in PAUSED.findall(qnames.without_dumps(text))}


# The interned names (qstrs) as the board would hold them: tools/bench/names.py
# (the method, MicroPython's figures and where they were found). Under this
# bench its own ~400 names (its script, the hardware's stand-ins) are interned
# before the firmware's, fill the first pools and are shared with the firmware
# (item, title...), and the ESP32's own modules are Python here: so each
# program's names are counted as the board would intern them, and its "board"
# figure is its live figure less the pools and text its names took here, plus
# those its names take on the board.
def board_figures(text, mpy, games_dir=None, boot_files=qnames.BOOT_FILES):
    """{program's label: (names on the board, KB to add to its live figure
    for the board's names)} for each program that ended in mp_heap's output."""
    out = {}
    for program in qnames.programs(text):
        found = qnames.board_names(program, mpy, games_dir, _STATIC[0], boot_files)
        out[program.label] = (len(found),
                              (qnames.board_bytes(found) - program.bench_bytes()) / 1024)
    return out


_STATIC = [frozenset()]      # the ESP32's own names (names.esp32_static, read once)


def pool_model_holds(text):
    """The model's pools for the bench's own names equal the port's figure."""
    m = qnames.START.search(text)
    return m is not None and qnames.pools_bytes(int(m.group(2))) == int(m.group(4)) - int(m.group(3))


def verdict(live, board, names):
    """ok or OVER for the measured figure, the board's and its names."""
    return "%s%s%s" % ("ok" if live <= TARGET_KB else "OVER",
                       "" if board <= TARGET_KB else ", board OVER",
                       "" if names <= qnames.NAMES_LIMIT else ", names OVER %d" % qnames.NAMES_LIMIT)


def notes(text):
    """mp_heap's notes: a screen that did not open, say."""
    return re.findall(r"^note: (.+)$", qnames.without_dumps(text), re.M)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mpy", metavar="DIR", default=os.path.join(ROOT, "build", "mpy"),
                        help="the firmware compiled to .mpy (default build/mpy: make mpy)")
    parser.add_argument("--source", action="store_true", help="the firmware as .py source instead")
    parser.add_argument("--games", metavar="DIR",
                        help="a folder of your games (name.py, package folders): measured too")
    args = parser.parse_args(argv)
    mpy = None if args.source else args.mpy
    if mpy and not os.path.isdir(mpy):
        sys.exit("bench_heap: %s missing: run make mpy (make bench does)" % mpy)
    if args.games is None:
        return measure(mpy)
    try:
        declared_games, files = folder_games(args.games, source=mpy is None)
    except GamesError as e:
        sys.exit("bench_heap: --games %s: %s" % (args.games, e))
    with tempfile.TemporaryDirectory(prefix="bench-games-") as staged:
        for path, data in files.items():              # the folder as /games will hold it
            out = os.path.join(staged, path[len("/games/"):])
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as f:
                f.write(data)
        _PLAYERS.update(staged=staged, declared=declared_games)
        measure(mpy, games=args.games)


def measure(mpy, games=None):
    """Run the bench and print its table (games: the --games folder's name)."""
    rows = re.findall(r"^row: (.+)$", run(mpy, "--rows"), re.M)
    # Every run is its own MicroPython instance: they can go side by side.
    runs = [(row, pad) for row in rows + [None] for pad in PADS]   # None: the whole session
    menus = [("--menu-only", "--installed", "0"), ("--menu-only", "--installed", "20")]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        texts = dict(zip(runs, pool.map(
            lambda job: run(mpy, *((["--row", job[0]] if job[0] else []) + ["--pad", str(job[1])])),
            runs)))
        menu_texts = list(pool.map(lambda args: run(mpy, *args, players=False), menus))
        worst_row = max(rows, key=lambda r: max(table(texts[(r, pad)])[r][0] for pad in PADS))
        first = run(mpy, "--row", worst_row, first_boot=True)
    # per fresh-boot row, the layout with the largest live peak; for the
    # session, each row's largest over the layouts
    fresh = {}
    spread = {}
    reports = {}
    for row in rows:
        tables = sorted(((table(texts[(row, pad)]), pad) for pad in PADS),
                        key=lambda tp: tp[0][row][0])
        fresh[row] = tables[-1][0]
        spread[row] = tables[-1][0][row][0] - tables[0][0][row][0]
        reports[row] = texts[(row, tables[-1][1])]
    sessions = [table(texts[(None, pad)]) for pad in PADS]
    session = {name: max(t[name] for t in sessions) for name in sessions[0]}
    reports["one session"] = texts[(None, PADS[0])]
    menu = max(t["menu"][0] for t in fresh.values())   # (the same boot each time)
    # the board's names and figure of each program, the worst of the layouts
    # (a row's menu program ends launching it: "menu, launching ROW")
    _STATIC[0] = frozenset(qnames.esp32_static())
    boards = {(row, pad): board_figures(texts[(row, pad)], mpy, _PLAYERS.get("staged"))
              for row in rows for pad in PADS}

    def on_board(row, label):
        """(names, board KB) of a program: the worst layouts' (0, nan: it did not end)."""
        names, board = 0, float("nan")
        for pad in PADS:
            if label in boards[(row, pad)]:
                count, added = boards[(row, pad)][label]
                live = table(texts[(row, pad)]).get(label.split(", launching ")[0], (0.0, 0.0))[0]
                names = max(names, count)
                board = live + added if board != board else max(board, live + added)
        return names, board

    menus_board = [on_board(row, "menu, launching " + row) for row in rows]
    menu_names = max(m[0] for m in menus_board)
    menu_board = max(m[1] for m in menus_board)
    print("Heap under MicroPython (WebAssembly port), firmware as %s, KB (target %d)"
          % (".mpy" if mpy else "source", TARGET_KB))
    print("%-24s %11s %7s %6s %5s %6s %11s %7s" % ("", "fresh boot", "", "", "", "", "one session",
                                                  ""))
    print("%-24s %11s %7s %6s %5s %6s %11s %7s  %s" % ("screen", "live", "upper", "layout", "names",
                                                      "board", "live", "upper", "verdict"))
    print("%-24s %11.1f %7s %6s %5d %6.1f %11.1f %7s  %s" % (
        "menu", menu, "", "", menu_names, menu_board, session["menu"][0], "",
        verdict(menu, menu_board, menu_names)))
    worst = 0.0
    worst_board, worst_names = (menu_board, "menu"), (menu_names, "menu")
    for row in rows:
        # the row, then its later stages in programs of their own, named "row,
        # stage" by its play (Play a friend: the lobby, then "Play a friend,
        # paired"): the worst of the same layouts
        for stage in [row] + sorted(n for n in fresh[row] if n.startswith(row + ", ")):
            figures = [table(texts[(row, pad)]).get(stage, (0.0, 0.0)) for pad in PADS]
            live, upper = max(f[0] for f in figures), max(f[1] for f in figures)
            s_live, s_upper = session.get(stage, (0.0, 0.0))
            names, board = on_board(row, stage)
            worst = max(worst, live)
            worst_board = max(worst_board, (board, stage))
            worst_names = max(worst_names, (names, stage))
            print("%-24s %11.1f %7.1f %6s %5s %6.1f %11.1f %7.1f  %s" % (
                stage[:24], live, upper, "-%.1f" % spread[row] if stage == row else "",
                names or "-", board, s_live, s_upper, verdict(live, board, names)))
    print("fresh boot: each screen opened from the menu right after power-on (the")
    print("target's figure), the worst of %d heap layouts; layout: how much less the" % len(PADS))
    print("best layout held. one session: every screen in turn without a reboot (also")
    print("the worst layout), each game in a program of its own (a launch is a soft")
    print("reset). live: held between frames; upper: that plus one frame's garbage.")
    print("names: the interned names the row's program needs on the board (the menu:")
    print("its program, which launches the row); over %d they take the names' 640-entry"
          % qnames.NAMES_LIMIT)
    print("pool, +%.1f KB at once (tools/bench/names.py ROW: which module brings which)."
          % ((qnames.pools_bytes(qnames.NAMES_LIMIT + 1) - qnames.pools_bytes(qnames.NAMES_LIMIT))
             / 1024))
    print("board: the live figure with those names' pools and text as the board holds")
    print("them, not as here (this bench's own ~400 names come first%s)." % (
        "" if pool_model_holds(reports[rows[0]]) else
        "; NOT matching this port's pool figures: names.py's pools_bytes is off"))
    print("largest fresh-boot live peak: %.1f KB of %d; on the board: %.1f KB (%s); "
          "most names on the board: %d (%s, limit %d)"
          % (worst, TARGET_KB, worst_board[0], worst_board[1], worst_names[0], worst_names[1],
             qnames.NAMES_LIMIT))
    # the pause menu open (E) over each game, in the game row's worst layout:
    # what it adds to the game's heap of the frame before E, and how far the
    # heap then stands above the game's own peak (the highest of the row's
    # phases: Play a friend's pause opens over its linked game, not its lobby)
    pauses = {row: paused(reports[row]).get(row) for row in rows}
    pauses = {row: (p[0], p[1], p[0] - max(f[0] for n, f in fresh[row].items()
                                           if n == row or n.startswith(row + ", ")))
              for row, p in pauses.items() if p}
    print("the pause menu open (E), KB more than the game's heap before E / than its peak: "
          + ", ".join("%s %+.1f / %+.1f" % (row, p[1], p[2]) for row, p in pauses.items()))
    # judged under the worst game the 64 KB limit holds for: the one whose
    # heap is largest with the pause menu open
    within = [row for row in pauses if max(f[0] for n, f in fresh[row].items()
                                           if n == row or n.startswith(row + ", ")) <= TARGET_KB]
    if within:
        row = max(within, key=lambda r: pauses[r][0])
        added = pauses[row][1]
        print("the pause menu over the worst game within the limit, %s (%.1f KB open): %+.1f KB "
              "while open (limit %+.1f): %s" % (row, pauses[row][0], added, PAUSE_LIMIT_KB,
                                                 "ok" if added <= PAUSE_LIMIT_KB else "OVER"))
    if games:
        print("your games (--games %s), each in /games and opened from the menu: the rows of %s"
              % (games, ", ".join(v["title"] for g in _PLAYERS["declared"] for v in g["variants"])))
    menu0, menu20 = (table(t)["menu"][0] for t in menu_texts)
    print("menu, no game installed: %.1f KB; with 20 installed: %.1f KB (%+.1f KB, "
          "limit +2.0)" % (menu0, menu20, menu20 - menu0))
    print("first boot after a deploy (every game read once, its names kept until the "
          "next reboot): menu %.1f KB, %s %.1f KB" % (table(first)["menu"][0], worst_row,
                                                       table(first)[worst_row][0]))
    for run_name, text in reports.items():
        for note in notes(text):
            print("note (%s): %s" % (run_name, note))


if __name__ == "__main__":
    main(sys.argv[1:])
