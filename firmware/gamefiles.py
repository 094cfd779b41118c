"""Where the games are: the built-in ones (firmware/screens/) and a player's
own in /games, found as files with their size and date, which is how
firmware/gamereader.py tells a new or changed game file from one whose
declaration data/games.json keeps already (CACHE, in its LAYOUT)."""
import os
import sys

# The built-in games, declared exactly like a player's game.
BUILT_IN = ("firmware.screens.puzzle", "firmware.screens.g2048", "firmware.screens.reversi",
            "firmware.screens.link")
CACHE = "games"            # data/games.json: the declarations read so far
LAYOUT = 1                 # of data/games.json; another number: read every game again


# ---- finding the game files --------------------------------------------------------
def stamp(path):
    """(size, date) of a file, or None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st[6], st[8]]


def built_in_file(module):
    """Where a built-in module's file is (the board keeps it as .mpy)."""
    base = module.replace(".", "/")
    for folder in sys.path:
        for ext in (".mpy", ".py"):
            path = (folder + "/" if folder else "") + base + ext
            if stamp(path) is not None:
                return path
    return base + ".py"


def installed_files(folder):
    """[(name, path)] of the games in folder: name.py, name.mpy or a package
    folder name/ with an __init__.py or __init__.mpy."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        path = folder + "/" + name
        if name.endswith(".py") or name.endswith(".mpy"):
            stem = name[:name.rindex(".")]
            if not found or found[-1][0] != stem:   # name.mpy and name.py: one game
                found.append((stem, path))
        else:
            for init in ("/__init__.mpy", "/__init__.py"):
                if stamp(path + init) is not None:
                    found.append((name, path + init))
                    break
    return found


def files(app):
    """[(id, module, path, built_in)] of every game, built-in ones first."""
    files = []
    for module in BUILT_IN:
        files.append((module[module.rindex(".") + 1:], module, built_in_file(module), True))
    for name, path in installed_files(app.games_folder):
        files.append((name, name, path, False))
    return files


def use_folder(folder):
    """Installed games import like top-level modules from their folder (a
    package's own modules too), after everything of the firmware's."""
    if folder not in sys.path:
        sys.path.append(folder)


def file_name(path):
    """The name a player knows a game file by: dot.py, dot.mpy, or walk/ for a package."""
    if path.endswith("/__init__.py") or path.endswith("/__init__.mpy"):
        path = path[:path.rindex("/")]
        return path[path.rfind("/") + 1:] + "/"
    return path[path.rfind("/") + 1:]
