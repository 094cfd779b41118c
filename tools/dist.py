#!/usr/bin/env python3
"""Releases for owners without a terminal: `make dist`.

    python tools/dist.py [--out DIR]              the release zip and the mip packages
    python tools/dist.py --package-json           rewrite the top-level package.json
    python tools/dist.py --game PATH [--out DIR]  a mip package of a player's game

The zip, dist/ml4m-arcade-<version>.zip, holds one folder with two ways to install:
    INSTALL.txt                                 how to upload it with Thonny
    compiled-for-micropython-X.Y-or-later/      .mpy files, as `make deploy` puts them
    source-for-any-micropython/                 .py files, as `make deploy-src` does
Each variant folder is laid out as the board's flash: its contents go to / as they
are (Thonny: select everything inside it, right-click, "Upload to /"). Neither holds
/data, so uploading a new release over an old one keeps the saves and records.
The file list is the one `make deploy` copies (tools/deploy.py local_files): one list.

mip (MicroPython's own installer) reads a package.json: {"urls": [[board path, url]],
"version": ...}, urls relative to the package.json. `make dist` writes
    dist/mip/ml4m-arcade/package.json    the arcade, compiled (mpremote mip install --target / URL)
    dist/mip/<game>/package.json         one built-in game's own files, for updating it alone
and the top-level package.json is the arcade as source, so a clone on a web host or
GitHub installs with `mpremote mip install --target / github:OWNER/REPO`. The
display driver is not ours to ship from the repository (lib/ssd1306.py is fetched and
pinned by make deps): the top-level package names micropython-lib's "ssd1306" as a dep,
and the zip and dist/mip carry the pinned copy.

A player's game: `--game dot.py` writes dist/mip/games/dot/package.json and the game's
files (compiled), installed with `mpremote mip install --target /games URL`.
"""
import argparse
import json
import os
import shutil
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from tools import deploy  # noqa: E402

NAME = "ml4m-arcade"
INSTALL_TEXT = """\
ML4M Arcade {version}: installing without a terminal
=====================================================

This zip holds the arcade twice. Use ONE of the two folders:

  {compiled}/
      faster to start, less heap: for a board running MicroPython {needs} or later
      (the About screen, or the first line of Thonny's shell, says which one yours runs).

  {source}/
      the same firmware as .py source: works on any MicroPython from v1.22.

With Thonny (4.x or 5.x):
  1. Tools > Options > Interpreter: "MicroPython (ESP32)" and the board's port.
  2. View > Files. In the top (This computer) pane, open the folder you chose.
  3. Select everything inside it (boot.py, main.py, firmware, lib), right-click,
     "Upload to /". Thonny asks before it overwrites: answer yes to all.
  4. Press the board's reset button (or Ctrl-D in Thonny's shell). The menu starts.

Updating: do the same with the new release. Your saves and records live in /data
on the board, which this zip never contains, so they are kept. If you switch from the
compiled folder to the source one (or back), delete /firmware on the board first:
a .py beside an .mpy of the same name would be used instead of it.

If the panel says "Wrong version of MicroPython", the compiled files were built for another
MicroPython: upload the source folder instead, or flash MicroPython {needs}+.
Holding B while the board powers on skips the arcade, so Thonny can always take over.
"""


class DistError(Exception):
    """One line for the user."""


def version(root=ROOT):
    """firmware/__init__.py's VERSION, read without importing the firmware."""
    with open(os.path.join(root, "firmware", "__init__.py")) as f:
        for line in f:
            if line.startswith("VERSION"):
                return line.split("=", 1)[1].strip().strip("\"'")
    raise DistError("no VERSION in firmware/__init__.py")


def needed_release(abi):
    """The first MicroPython release that loads .mpy files of this ABI, e.g. '1.23'."""
    release = deploy.MPY_RELEASE.get(abi)
    if release is None:
        raise DistError(f"mpy-cross emits .mpy {abi[0]}.{abi[1]}, which tools/deploy.py MPY_RELEASE does not know")
    return "%d.%d" % release


def variants(root=ROOT):
    """(folder name, {board path: host file}, needs) for the compiled and the source variant."""
    abi = deploy.mpy_cross_abi()
    needs = needed_release(abi)
    compiled = deploy.local_files(root, source=False, build=os.path.join(root, "build", "dist-mpy"))
    source = deploy.local_files(root, source=True)
    return (("compiled-for-micropython-%s-or-later" % needs, compiled, needs),
            ("source-for-any-micropython", source, needs))


def _sorted(files):
    return sorted(files.items(), key=lambda item: deploy._copy_order(item[0]))


def write_zip(root=ROOT, out=None):
    """dist/ml4m-arcade-<version>.zip; returns its path."""
    out = out or os.path.join(root, "dist")
    os.makedirs(out, exist_ok=True)
    ver = version(root)
    top = "%s-%s" % (NAME, ver)
    (compiled_name, compiled, needs), (source_name, source, _) = variants(root)
    path = os.path.join(out, top + ".zip")
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        text = INSTALL_TEXT.format(version=ver, compiled=compiled_name, source=source_name, needs=needs)
        z.writestr(top + "/INSTALL.txt", text)
        for folder, files in ((compiled_name, compiled), (source_name, source)):
            for board_path, host in _sorted(files):
                if board_path.startswith("/data/") or board_path == "/data":
                    raise DistError(f"{board_path} would overwrite a player's saves: not in a release")
                z.write(host, top + "/" + folder + board_path)
    os.replace(tmp, path)
    return path


def _package(files, out, ver, deps=()):
    """Copy files ({board path: host file}) under out and write out/package.json."""
    shutil.rmtree(out, ignore_errors=True)
    urls = []
    for board_path, host in _sorted(files):
        rel = board_path.lstrip("/")
        dest = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(host, dest)
        urls.append([rel, rel])
    package = {"urls": urls, "version": ver}
    if deps:
        package["deps"] = [list(d) for d in deps]
    _write_json(os.path.join(out, "package.json"), package)
    return os.path.join(out, "package.json")


def built_in_games(root=ROOT):
    """{game id: [module file, ...]}: each built-in game's own modules (those no
    other game imports), found from the game list's BUILT_IN and the files' names."""
    games = {}
    for game in deploy.BUILT_IN_GAMES:
        prefixes = {"puzzle": ("puzzle", "npuzzle"), "g2048": ("g2048", "game2048", "ai2048"),
                    "reversi": ("reversi",)}[game]
        found = []
        for rel in deploy._firmware_files(root):
            folder, name = os.path.split(rel)
            if folder in ("firmware/screens", "firmware/games") and name.startswith(prefixes):
                found.append(rel)
        games[game] = found
    return games


def write_mip(root=ROOT, out=None):
    """dist/mip/: the arcade and each built-in game as compiled mip packages."""
    out = out or os.path.join(root, "dist", "mip")
    ver = version(root)
    (_, compiled, _), _ = variants(root)
    written = [_package(compiled, os.path.join(out, NAME), ver)]
    for game, rels in built_in_games(root).items():
        files = {}
        for rel in rels:
            mpy = "/" + rel[:-3] + ".mpy" if rel.endswith(".py") else "/" + rel
            files[mpy] = compiled[mpy]
        written.append(_package(files, os.path.join(out, game), ver))
    return written


def package_json(root=ROOT):
    """The top-level package.json: the arcade as source, urls relative to the repository."""
    urls = []
    for board_path, host in _sorted(deploy.local_files(root, source=True)):
        rel = os.path.relpath(host, root).replace(os.sep, "/")
        if rel == "lib/ssd1306.py":
            continue          # fetched, never committed: the dep below brings it
        urls.append([board_path.lstrip("/"), rel])
    return {"urls": urls, "deps": [["ssd1306", "latest"]], "version": version(root)}


def package_json_text(package):
    """A package.json as people write them: one [board path, url] pair a line."""
    lines = ["{"]
    for key, value in package.items():
        if isinstance(value, list):
            rows = ",\n".join("    " + json.dumps(v) for v in value)
            lines.append('  "%s": [\n%s\n  ],' % (key, rows))
        else:
            lines.append('  "%s": %s,' % (key, json.dumps(value)))
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}\n"


def _write_json(path, package):
    with open(path, "w") as f:
        f.write(package_json_text(package))


def write_game(path, out=None):
    """dist/mip/games/<name>/: a player's game, compiled, as a mip package for /games."""
    name, contents = deploy.game_files(path)
    out = out or os.path.join(ROOT, "dist", "mip", "games", name)
    shutil.rmtree(out, ignore_errors=True)
    urls = []
    for board_path, data in sorted(contents.items()):
        rel = board_path[len(deploy.GAMES_DIR) + 1:]
        dest = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(data)
        urls.append([rel, rel])
    _write_json(os.path.join(out, "package.json"), {"urls": urls, "version": "1"})
    return os.path.join(out, "package.json")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Build the ML4M Arcade release zip and mip packages.")
    parser.add_argument("--out", default=None, help="output folder (default: dist/)")
    parser.add_argument("--package-json", action="store_true",
                        help="rewrite the top-level package.json (the arcade as source, for mip)")
    parser.add_argument("--game", metavar="PATH", help="a mip package of a player's game (name.py or a folder)")
    args = parser.parse_args(argv)
    try:
        if args.package_json:
            _write_json(os.path.join(ROOT, "package.json"), package_json())
            print("dist: wrote package.json")
        elif args.game:
            path = write_game(args.game, args.out and os.path.join(args.out, "games"))
            print("dist: wrote " + os.path.relpath(path) + "  (mpremote mip install --target /games URL)")
        else:
            z = write_zip(out=args.out)
            print("dist: wrote " + os.path.relpath(z) + "  (upload with Thonny: INSTALL.txt inside)")
            for p in write_mip(out=args.out and os.path.join(args.out, "mip")):
                print("dist: wrote " + os.path.relpath(p))
    except (DistError, deploy.DeployError) as e:
        print("dist: " + str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
