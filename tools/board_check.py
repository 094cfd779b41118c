#!/usr/bin/env python3
"""Check a real board: `make board-check [PORT=/dev/ttyUSB0]`.

    python tools/board_check.py [--port P] [--timeout S] [--root DIR]

On the board's own MicroPython, against the firmware deployed on it (make
deploy first): the rule tests (tests/rules/), then what `make bench` can only
estimate on a PC: power-on to the menu, a full frame and a one-tile update on
the panel's bus, press to pixels, each screen's heap at a fresh boot, a puzzle
hint, a 2048 hint and a Reversi CPU move at each level. It prints one table to
paste into an issue (with the MicroPython version and the board file) and saves
it in backups/board-check-<date-time>.txt.

What it leaves on the board: nothing. Its code and the rule tests go to
/bc_tmp (compiled for the board), the firmware it runs keeps its saves in
/bc_tmp/data, and /bc_tmp is removed at the end, whatever happened; /data is
only read (its game list, copied). The board is soft-reset before each figure
(a fresh heap, and main.py not run: the raw REPL's reset), and once more at the
end, so the arcade starts again. The board-side half is tools/board_check_mp.py.
"""
import argparse
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools import deploy  # noqa: E402
from tools.deploy import DeployError  # noqa: E402

ROOT = deploy.ROOT
TMP = "/bc_tmp"
ON_BOARD = "tools/board_check_mp.py"
RULES = "tests/rules"
LEVELS = ("easy", "medium", "hard")    # firmware/games/reversi_ai.py LEVELS, in order
STEP_TIMEOUT = 300                     # s without a byte from the board: it is stuck


def compile_for(board_info, rel, out_dir):
    """{board file name: bytes} for a module of ours: .mpy for the board's
    architecture when its MicroPython loads ours, else the source."""
    path = os.path.join(ROOT, rel)
    name = os.path.basename(rel)
    try:
        deploy.check_board(board_info, False, deploy.mpy_cross_abi())
    except DeployError:
        with open(path, "rb") as f:
            return name, f.read()
    out = os.path.join(out_dir, name[:-3] + ".mpy")
    data = deploy.compile_mpy(rel, ROOT, out, deploy.board_arch(board_info), module=name[:-3])
    return name[:-3] + ".mpy", data


class Check:
    """The board in the raw REPL, with /bc_tmp on it."""

    def __init__(self, board, say):
        self.board = board
        self.say = say

    def fresh(self):
        """Soft reset in the raw REPL: a fresh heap, main.py not run."""
        try:
            self.board.transport.enter_raw_repl(soft_reset=True)
        except Exception as e:
            raise DeployError(f"the board did not come back from a soft reset: {e}") from None

    def call(self, code, what):
        """Run `import bc; bc.<code>` on a fresh board; {name: value} of its
        BC lines, and the rest of what it printed."""
        self.fresh()
        program = "import sys\nsys.path.insert(0, %r)\nimport board_check_mp as bc\n%s\n" % (TMP, code)
        try:
            out, err = self.board.transport.exec_raw(program, timeout=STEP_TIMEOUT)
        except Exception as e:
            raise DeployError(f"lost the board during {what}: {e}") from None
        text = out.decode(errors="replace")
        if err:
            last = (err.decode(errors="replace").strip().splitlines() or ["error"])[-1]
            raise DeployError(f"{what} failed on the board: {last}")
        found = {}
        rest = []
        for line in text.splitlines():
            if line.startswith("BC "):
                _, name, value = line.split(" ", 2)
                found[name] = value.strip()
            elif line.strip():
                rest.append(line.rstrip())
        return found, rest


def run(port=None, timeout=10.0, say=print, root=ROOT):
    """The whole check; returns (table text, path it was saved to)."""
    board = deploy.connect(port, timeout, "board-check")
    # deploy gives a pty 1 s to answer; the simulated board (tools.boardsim)
    # answers a command only once it has run, and a step may run for minutes
    board.transport.serial.timeout = STEP_TIMEOUT
    check = Check(board, say)
    rows = []
    try:
        info = board.probe()
        files, _ = board.listing(["/firmware/app.mpy", "/firmware/app.py", "/firmware/__init__.mpy",
                                  "/firmware/__init__.py", "/board.txt", TMP])
        if not any(p.startswith("/firmware/app.") for p in files):
            raise DeployError("no firmware on the board: run make deploy first")
        board_file = "ml4m"
        if "/board.txt" in files:
            board_file = board.read("/board.txt").decode().strip() or board_file
        say(f"board: MicroPython {deploy.version_str(info.version)} on {info.platform}, "
            f"board file {board_file}.py")
        build = os.path.join(root, "build", "board-check")
        name, data = compile_for(info, ON_BOARD, build)
        uploads = {TMP + "/" + name: data}
        for name in sorted(os.listdir(os.path.join(ROOT, RULES))):
            if name.startswith("test_") and name.endswith(".py"):
                dest, data = compile_for(info, RULES + "/" + name, os.path.join(build, "rules"))
                uploads[TMP + "/rules/" + dest] = data
        board.exec(deploy.BOARD_HELPERS)   # (a /bc_tmp left by a check cut short is reused)
        for folder in (TMP, TMP + "/rules", TMP + "/data"):
            board.exec("try:\n os.mkdir(%r)\nexcept OSError:\n pass" % folder)
        for dest, data in sorted(uploads.items()):
            board.write(dest, data)
        check.call("bc.prepare()", "preparing")
        rows += measure(check, say)
        table = format_table(info, board_file, rows)
    finally:
        try:
            check.fresh()
            board.exec(deploy.BOARD_HELPERS)
            board.exec(_REMOVE_TMP)
        except Exception:   # the board is gone: nothing more to do on it
            pass
        board.soft_reset()  # the arcade starts again
        board.close(leave_raw=False)
    stamp = datetime.datetime.now().strftime("%Y-%m-%d_%H%M%S")
    path = os.path.join(root, "backups", f"board-check-{stamp}.txt")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(table + "\n")
    say(table)
    say(f"saved as {os.path.relpath(path, root)}")
    return table, path


_REMOVE_TMP = """\
def _rm(p):
    try:
        mode = os.stat(p)[0]
    except OSError:
        return
    if mode & 0x4000:
        for e in os.ilistdir(p):
            _rm(p + '/' + e[0])
        os.rmdir(p)
    else:
        os.remove(p)
_rm(%r)
""" % TMP


def measure(check, say):
    """[(section, what, figure)] for the table, step by step."""
    rows = []
    for name in sorted(os.listdir(os.path.join(ROOT, RULES))):
        if not (name.startswith("test_") and name.endswith(".py")):
            continue
        say(f"rule tests: {name}")
        found, rest = check.call("bc.run_tests(%r)" % (TMP + "/rules/" + name[:-3]), name)
        passed, failed = found["tests"].split()
        for line in rest:
            say("  " + line)
        rows.append(("rule tests", name, f"{passed} passed, {failed} failed"))
    say("boot, bus, press")
    found, _ = check.call("bc.boot_and_bus()", "the boot")
    rows += [("time", "power-on to the menu on the panel", found["boot_menu_ms"] + " ms"),
             ("time", "  of which imports, HAL, saves read", found["boot_hal_ms"] + " ms"),
             ("bus", "a full frame (1024 B)", found["frame_ms"] + " ms"),
             ("bus", "a one-tile update (16x16)", found["tile_ms"] + " ms"),
             ("time", "press to pixels: the frame's work", found["press_ms"] + " ms"),
             ("bus", "panel answers", found["panel"])]
    found, _ = check.call("bc.screens()", "the list of screens")
    for name in found["screens"].split("|"):
        say(f"heap: {name}")
        if name in ("Menu", "Records", "Settings", "About"):
            heap, rest = check.call("bc.heap(%r)" % name, "the heap of " + name)
        else:                 # a game: a launch, its own program after a soft reset
            check.call("bc.write_launch(%r)" % name, "the launch of " + name)
            heap, rest = check.call("bc.heap_launched()", "the heap of " + name)
            if not heap and not rest:
                # the program launched another at once (Play a friend's game,
                # with no friend paired yet, starts its lobby): that one
                heap, rest = check.call("bc.heap_launched()", "the heap of " + name)
        if "heap" not in heap:
            raise DeployError("the heap of %s: the board printed no figure: %s"
                              % (name, " / ".join(rest[-5:]) or "nothing"))
        rows.append(("heap", name + " at a fresh boot", f"{heap['heap']} KB ({heap['free']} KB free)"))
    for width, title in ((3, "8-puzzle"), (4, "15-puzzle")):
        say(f"hint: {title}")
        found, _ = check.call("bc.puzzle_hint(%d)" % width, title + " hint")
        median, worst = found["hint_ms"].split()
        rows.append(("AI", f"{title} first hint (3 shuffles)", f"{median} ms, slowest {worst}"))
    say("hint: 2048")
    found, _ = check.call("bc.hint_2048()", "2048 hint")
    median, worst = found["hint_ms"].split()
    rows.append(("AI", "2048 hint (10 moves)", f"{median} ms, slowest {worst}"))
    for level, name in enumerate(LEVELS):
        say(f"Reversi CPU: {name}")
        found, _ = check.call("bc.reversi_move(%d)" % level, "Reversi " + name)
        median, worst, depth = found["move_ms"].split()
        rows.append(("AI", f"Reversi CPU move, {name} (move 30)",
                     f"{median} ms, slowest {worst}, depth {depth}"))
    return rows


def format_table(info, board_file, rows):
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    head = (f"ML4M board check, {when}: MicroPython {deploy.version_str(info.version)} "
            f"on {info.platform}, board file {board_file}.py")
    width = max(len(what) for _, what, _ in rows)
    lines = [head, "", "| | what | figure |", "|---|---|---|"]
    for section, what, figure in rows:
        lines.append(f"| {section.ljust(10)} | {what.ljust(width)} | {figure} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Test the firmware on a real board and measure it.")
    parser.add_argument("--port", default=None, help="serial port (default: the first USB serial port)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the REPL")
    parser.add_argument("--root", default=ROOT, help="where backups/ goes (default: this repository)")
    args = parser.parse_args(argv)
    try:
        run(args.port, args.timeout, root=args.root)
    except DeployError as e:
        print("board-check: " + str(e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("board-check: interrupted (the next run removes what it left in /bc_tmp)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
