"""Command line of the simulator (tools/sim.py; `make sim SIMFLAGS="..."`)."""
import argparse
import fcntl
import os
import shutil
import sys
import tempfile
import traceback

from tools.simulator import render
from tools.simulator import replay as replays
from tools.simulator.session import ROOT, ReplayFeeder, Session, seed_randomness

DESCRIPTION = """Play the ML4M Arcade firmware on an emulated board in this terminal.
Keys: arrows or WASD = joystick; j=A k=B l=C u=D i=E o=F (or 1-6) = buttons; Shift+button =
hold it until pressed again; space = let go of everything; p = PNG screenshot;
h = hide/show the legend; q or Ctrl-C = quit."""

EPILOG = """examples:
  tools/sim.py                                  play (saves kept in the flash folder)
  tools/sim.py --record game.replay             play and record the inputs
  tools/sim.py --replay game.replay             watch a recording
  tools/sim.py --window                         play in a window, with sound (make sim-window)
  tools/sim.py --headless --replay game.replay --png final.png
  tools/sim.py --headless --replay r --snapshots out --at 1000,2500"""


DEFAULT_SHOTS = os.path.join(ROOT, "screenshots")


def default_flash_dir():
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "ml4m-sim", "flash")


def lock_flash(flash):
    """Claim the flash folder for this simulator: two at once would overwrite
    each other's saves and records. The lock is a file beside the folder (not
    in it: the firmware sees the folder as its own filesystem), held with
    flock while the returned file stays open, and let go by the system when
    the process ends however it ends. None when another process holds it."""
    f = open(flash.rstrip(os.sep) + ".lock", "a")
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        return None
    return f


def open_flash(flash):
    """Make the flash folder if needed and lock it: (lock file, None), or
    (None, a one-line reason) when it cannot be used."""
    if os.path.exists(flash) and not os.path.isdir(flash):
        return None, "%s is a file, not a folder: use --flash DIR with a folder" % flash
    try:
        os.makedirs(flash, exist_ok=True)
        lock = lock_flash(flash)
    except OSError as exc:
        return None, "cannot use %s as the flash folder: %s" % (flash, exc.strerror)
    if lock is None:
        return None, "another simulator is using %s; use --flash DIR" % flash
    return lock, None


def parse_scale(text):
    if text in ("auto", "0"):
        return None
    if text in ("braille", "0.5"):
        return render.BRAILLE
    return _whole_number(text, 1, 8, "use auto, braille (or 0.5), or 1..8")


def parse_png_scale(text):
    return _whole_number(text, 1, 16, "use 1..16 (pixels per panel pixel)")


def _whole_number(text, low, high, hint):
    """int(text) if it is one from low to high, else argparse's error saying hint."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(hint)
    return value


def parse_seconds(text):
    """A positive number of seconds ("--seconds -1" would stop before the first frame)."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not value > 0:
        raise argparse.ArgumentTypeError("a number of seconds above 0, not %s" % text)
    return value


def parse_times(text):
    try:
        return sorted(float(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError("a comma-separated list of milliseconds") from None


def build_parser():
    p = argparse.ArgumentParser(prog="tools/sim.py", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scale", type=parse_scale, default=None, metavar="N",
                   help="panel size: auto (default: the largest that fits), braille (64x16 "
                        "cells, fits 80x24), or 1..8 (half blocks: 128N x 32N cells)")
    p.add_argument("--record", metavar="FILE", help="write the session's inputs to FILE (JSON lines)")
    p.add_argument("--replay", metavar="FILE", help="play back the inputs recorded in FILE")
    p.add_argument("--window", action="store_true",
                   help="play in a window with sound, keys pressed and released as on a "
                        "gamepad (needs pygame: make sim-window installs it)")
    p.add_argument("--headless", action="store_true",
                   help="no terminal: run as fast as possible and write pictures")
    p.add_argument("--snapshots", metavar="DIR",
                   help="headless: write DIR/at-<ms>.png for each --at time and DIR/final.png")
    p.add_argument("--at", type=parse_times, default=[], metavar="MS[,MS...]",
                   help="headless: virtual times (ms) of the snapshots")
    p.add_argument("--png", metavar="FILE", help="write the final panel to FILE as PNG")
    p.add_argument("--dump", metavar="FILE", help="write the final panel to FILE as text art (# and .)")
    p.add_argument("--seconds", type=parse_seconds, metavar="N",
                   help="stop after N seconds of virtual time")
    p.add_argument("--bell", action="store_true", help="ring the terminal bell when the speaker sounds")
    p.add_argument("--seed", type=int, help="seed of the firmware's random (default: fresh each "
                                            "session, 0 when headless; a replay brings its own)")
    p.add_argument("--flash", metavar="DIR",
                   help="folder standing in for the board's flash, where the games save "
                        "(default %s)" % default_flash_dir())
    p.add_argument("--fresh", action="store_true", help="start from an empty flash (a temporary folder)")
    p.add_argument("--shots", metavar="DIR", default=DEFAULT_SHOTS,
                   help="where the p key saves screenshots, made when the first one is "
                        "saved (default screenshots/ in the repo, ignored by git)")
    p.add_argument("--games", metavar="DIR",
                   help="install the games in DIR (name.py files and package folders) in the "
                        "flash's games folder first, as make install-game does on the board")
    p.add_argument("--link", action="store_true",
                   help="a radio that reaches the other simulators on this PC started with "
                        "--link (Play a friend; give each its own --flash)")
    p.add_argument("--board", metavar="NAME", choices=board_names(),
                   help="run on firmware/boards/NAME.py (%s; kept in the flash's board.txt, "
                        "as make deploy BOARD=NAME keeps it on the board)" % ", ".join(board_names()))
    p.add_argument("--main", metavar="FILE", help="the program to run instead of the repo's main.py")
    p.add_argument("--no-boot", action="store_true", help="do not run boot.py first")
    p.add_argument("--screenshots", metavar="DIR",
                   help="replay every DIR/*.replay headless into DIR/*.png (make screenshots)")
    p.add_argument("--scale-png", type=parse_png_scale, default=4, metavar="N",
                   help="pixel size in PNG files, 1..16 (default 4)")
    p.add_argument("--png-brightness", action="store_true",
                   help="PNGs show lit pixels as bright as the panel's contrast makes them "
                        "(default: full white)")
    return p


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.screenshots:
        return screenshots(args.screenshots, args.scale_png, args.png_brightness)
    if args.headless and args.replay is None and args.seconds is None:
        parser.error("--headless needs --replay FILE or --seconds N")
    if (args.snapshots or args.at) and not args.headless:
        parser.error("--snapshots and --at go with --headless")
    if args.at and not args.snapshots:
        parser.error("--at needs --snapshots DIR")
    if args.record and args.replay:
        parser.error("--record and --replay do not mix")
    if args.window and args.headless:
        parser.error("--window and --headless do not mix")
    if args.window:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # no banner on import
        try:
            import pygame  # noqa: F401  (only this mode needs it)
        except ImportError:
            parser.error("--window needs pygame: run `make sim-window` (it installs the pinned "
                         "version into .venv), or play in the terminal with `make sim`")
    elif not args.headless and not (os.isatty(0) and os.isatty(1)):
        parser.error("the terminal mode needs a terminal; use --headless for pictures")

    def absolute(path):
        return None if path is None else os.path.abspath(path)

    record, png, dump = absolute(args.record), absolute(args.png), absolute(args.dump)
    snapshots, shots = absolute(args.snapshots), absolute(args.shots)
    # a file to write into a folder that is not there: said now, not in a
    # traceback after the session
    for option, path in (("--record", record), ("--png", png), ("--dump", dump)):
        if path is not None and not os.path.isdir(os.path.dirname(path)):
            parser.error("%s %s: there is no folder %s (make it first)"
                         % (option, getattr(args, option[2:]), os.path.dirname(path)))

    replay = None
    if args.replay:
        try:
            replay = replays.load(args.replay)
        except (OSError, replays.ReplayError) as exc:
            parser.error(str(exc))

    if args.seed is not None:
        seed = args.seed
    elif replay is not None:
        seed = replay.seed
    elif args.headless:
        seed = 0
    else:
        seed = int.from_bytes(os.urandom(3), "big")

    main_rel = args.main or (replay.header.get("main") if replay else None) or "main.py"
    main_path = main_rel if os.path.isabs(main_rel) else os.path.join(ROOT, main_rel)
    if args.main and not os.path.isabs(args.main):
        main_path = os.path.abspath(args.main)
    if not os.path.isfile(main_path):
        parser.error("no program at %s" % main_path)
    programs = ([] if args.no_boot else [os.path.join(ROOT, "boot.py")]) + [main_path]

    # The flash: a replay brings the files the session started with; headless and
    # --fresh runs start empty; a played session keeps its saves between runs.
    temporary = lock = None
    if replay is not None or args.fresh or (args.headless and not args.flash):
        temporary = flash = tempfile.mkdtemp(prefix="ml4m-flash-")
        if replay is not None:
            replays.write_store(flash, replay.header.get("store", {}))
    else:
        flash = absolute(args.flash) or default_flash_dir()
        lock, problem = open_flash(flash)
        if problem:
            print("sim: " + problem, file=sys.stderr)
            return 1

    if args.games:
        try:
            installed = install_games(args.games, flash)
        except OSError as exc:
            parser.error("--games %s: %s" % (args.games, exc))
        if not installed:
            parser.error("--games %s: no games there (name.py files or package folders)" % args.games)
    if args.board:
        with open(os.path.join(flash, "board.txt"), "w") as f:
            f.write(args.board + "\n")
    header = {"seed": seed, "main": _repo_relative(main_path), "tick_ms": None,
              "store": replays.read_store(flash)}
    cwd = os.getcwd()
    os.chdir(flash)       # the firmware saves relative to its current folder, / on the board
    try:
        return _run(args, replay, seed, programs, header, record, png, dump, snapshots, shots)
    finally:
        os.chdir(cwd)
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)
        if lock is not None:
            lock.close()


def screenshots(folder, scale_png=4, brightness=False):
    """Each DIR/name.replay, replayed headless in a process of its own (a fresh
    board and fresh firmware modules), gives DIR/name.png: its final panel."""
    import glob
    import subprocess
    names = sorted(glob.glob(os.path.join(folder, "*.replay")))
    if not names:
        print("screenshots: no *.replay files in %s" % folder, file=sys.stderr)
        return 1
    sim = os.path.join(ROOT, "tools", "sim.py")
    failed = 0
    for name in names:
        png = name[:-len(".replay")] + ".png"
        result = subprocess.run([sys.executable, sim, "--headless", "--replay", name,
                                 "--png", png, "--scale-png", str(scale_png)]
                                + (["--png-brightness"] if brightness else []),
                                capture_output=True, text=True)
        if result.returncode != 0:
            failed += 1
            print("screenshots: %s failed:\n%s" % (name, result.stderr.strip()), file=sys.stderr)
        else:
            print("screenshots: %s" % os.path.relpath(png))
    return 1 if failed else 0


def _repo_relative(path):
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def board_names():
    folder = os.path.join(ROOT, "firmware", "boards")
    return sorted(n[:-3] for n in os.listdir(folder) if n.endswith(".py") and n != "__init__.py")


def _wiring():
    """The emulated board's wiring for the board file the flash names (board.txt,
    read in the flash folder as the firmware reads it), by the file's NAME."""
    name = "ml4m"
    if os.path.exists("board.txt"):
        with open("board.txt") as f:
            name = f.read().strip() or name
    if name not in board_names():
        return None      # the firmware falls back to the ML4M too
    import importlib
    return importlib.import_module("firmware.boards." + name).NAME


def install_games(folder, flash):
    """Copy the games in folder (name.py, name.mpy, package folders) to
    flash/games, as make install-game does on the board; returns their names."""
    target = os.path.join(flash, "games")
    names = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "__init__.py")):
            os.makedirs(target, exist_ok=True)
            shutil.copytree(path, os.path.join(target, name), dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
            names.append(name)
        elif name.endswith((".py", ".mpy")) and os.path.isfile(path):
            os.makedirs(target, exist_ok=True)
            shutil.copy2(path, os.path.join(target, name))   # (its date too: read again when changed)
            names.append(name)
    return names


def _make_session(seed):
    import tools.emu
    tools.emu.install()
    board = tools.emu.Board(seed=seed, wiring=_wiring())
    seed_randomness(seed)
    session = Session(board)
    session.seed = seed          # seeded again at each soft reset, as the browser does
    return session


def _run(args, replay, seed, programs, header, record, png, dump, snapshots, shots):
    # the firmware's random is MicroPython's, so a seed deals the same games
    # here as on the board and in the browser (tools/emu/mp_random.py)
    from tools.emu import mp_random
    with mp_random.installed(seed):
        return _run_seeded(args, replay, seed, programs, header, record, png, dump, snapshots, shots)


def _run_seeded(args, replay, seed, programs, header, record, png, dump, snapshots, shots):
    session = _make_session(seed)
    if getattr(args, "link", False):
        # another simulator on this PC is the friend's board (tools/emu/air_udp.py)
        from tools.emu.air_udp import UdpAir, mac_for_folder
        session.board.radio.mac = mac_for_folder(os.getcwd())
        air = UdpAir()
        try:
            port = air.join(session.board)
        except OSError as exc:
            print("sim: --link: %s" % exc, file=sys.stderr)
            return 1
        session.hooks.append(air.poll)
        print("sim: linked on UDP port %d (localhost)" % port, file=sys.stderr)
    header["tick_ms"] = session.tick_ms
    if record:
        session.recorder = replays.Recorder(record, header)
    try:
        if args.headless:
            status = _headless(args, session, replay, programs, snapshots)
        elif args.window:
            status = _windowed(args, session, replay, programs, shots)
        else:
            status = _interactive(args, session, replay, programs, shots)
    finally:
        if session.recorder is not None:
            session.recorder.close()
    panel = session.board.panel
    if png:
        panel.png(png, scale=args.scale_png, brightness=args.png_brightness)
    if dump:
        with open(dump, "w") as f:
            f.write(panel.text_art() + "\n")
    if session.error is not None:
        print("the firmware stopped with an exception:", file=sys.stderr)
        traceback.print_exception(type(session.error), session.error, session.error.__traceback__)
        return 1
    if record:
        print("recorded %d inputs to %s" % (session.events_applied, record))
    return status


def _windowed(args, session, replay, programs, shots):
    import pygame
    from tools.simulator.window import NoDisplay, WindowFrontEnd
    try:
        ui = WindowFrontEnd(session, pygame, replay=replay, shots_dir=shots)
    except NoDisplay as exc:
        print("sim: %s" % exc, file=sys.stderr)
        return 1
    except pygame.error as exc:
        print("sim: no window could be opened (%s): play in the terminal with `make sim`" % exc,
              file=sys.stderr)
        return 1
    try:
        return _play(args, session, ui, programs)
    finally:
        ui.close()


def _headless(args, session, replay, programs, snapshots):
    board = session.board
    if replay is not None:
        session.hooks.append(ReplayFeeder(session, replay))
    if snapshots:
        os.makedirs(snapshots, exist_ok=True)
        for ms in args.at:
            name = "at-%s.png" % (int(ms) if ms == int(ms) else ms)
            path = os.path.join(snapshots, name)
            board.at(ms, lambda path=path: board.panel.png(path, scale=args.scale_png,
                                                           brightness=args.png_brightness))
    if args.seconds is not None:
        limit = args.seconds * 1000
    elif replay.end_ms is not None:
        limit = None                           # the replay's "end" stops it
    else:
        limit = replay.last_ms + 1000          # time for the last input to show
    if args.at:
        last_at = args.at[-1] + session.tick_ms
        if limit is not None and limit < last_at:
            limit = last_at
    reason = session.run(programs, limit)
    if snapshots:
        board.panel.png(os.path.join(snapshots, "final.png"), scale=args.scale_png,
                        brightness=args.png_brightness)
    print("headless: %.0f ms of virtual time, %d inputs, stopped: %s"
          % (board.now_ms(), session.events_applied, reason))
    return 0


def _interactive(args, session, replay, programs, shots):
    from tools.simulator.terminal import Terminal
    from tools.simulator.ui import TerminalFrontEnd
    with Terminal() as terminal:
        ui = TerminalFrontEnd(session, terminal, scale=args.scale, bell=args.bell,
                              replay=replay, shots_dir=shots)
        return _play(args, session, ui, programs)


def _play(args, session, ui, programs):
    """Run the firmware with the front end `ui` as a tick hook, until q, the
    time limit or the end of a replay (then the last picture stays up)."""
    limit = None if args.seconds is None else args.seconds * 1000
    ui.png_scale = args.scale_png
    ui.png_brightness = args.png_brightness
    session.hooks.append(ui)
    try:
        reason = session.run(programs, limit)
    except KeyboardInterrupt:
        reason = "quit"
        if session.recorder is not None:
            session.recorder.event(session.board.now_ms(), "end")
    if reason in ("returned", "end", "limit"):
        note = {"returned": "the program ended", "end": "replay finished",
                "limit": "time limit reached"}[reason]
        try:
            ui.wait_for_quit(note)
        except KeyboardInterrupt:
            pass
    return 0
