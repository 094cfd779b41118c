"""The games: the built-in ones and a player's own in /games, each declared by
its own module.

A game module holds GAME, a dict of plain data saying what the arcade needs to
know (README, "Write your own game"): its title and icon, the name its game in
progress is saved under, its settings and its records; and a screen class
(`Game` unless GAME names another). Reading GAME means importing the module,
so it is done once per file (README, "Why the code looks like this"): a game
file that is new or changed (another size or date) is imported, its GAME
checked, written to data/games.json and the module forgotten again. The menu,
Continue, Settings, Records and the splash read that file and never import a
game; only launching one does.

A game that cannot be read (a syntax error, an import that fails, no GAME or a
wrong one, the name of a built-in game) is listed too, as a broken entry: the
menu shows it, and choosing it shows the crash screen with its file and why.

entries(app) is the list of menu entries ((key, title, icon, error) and how to
launch one: app.launch(key)); games(app) the declarations behind them.
This module is imported with the menu and released while a game runs.
"""
import os
import sys

from firmware import check, modules

# The built-in games, declared exactly like a player's game.
BUILT_IN = ("firmware.screens.puzzle", "firmware.screens.g2048", "firmware.screens.reversi")
CACHE = "games"            # data/games.json: the declarations read so far
LAYOUT = 1                 # of data/games.json; another number: read every game again

DEFAULT_ICON = b"\x7e\x81\xa5\x81\xbd\x81\x7e\x00"    # a face: a game without an icon
BROKEN_ICON = b"\x81\x42\x24\x18\x18\x24\x42\x81"     # a cross: a game that cannot start


# ---- the declarations, kept in data/games.json ------------------------------------------
def games(app):
    """Every game's declaration. Once a boot firmware/gamereader.py checks
    data/games.json entry by entry and compares it with the game files (their
    size and date); a game is imported only when its file is new or changed."""
    if app.games_checked:
        cached = app.hal.store.load(CACHE, {"layout": LAYOUT, "games": []})
        if cached.get("layout") == LAYOUT and type(cached.get("games")) is list:
            return cached["games"]
    app.games_checked = True
    from firmware.gamereader import refresh
    return refresh(app)


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



def key(game, i=0):
    """The name of a menu entry: the game's id (after "games/" for an
    installed game), and the variant's number when the game has more than one."""
    name = game["id"] if game["built_in"] else "games/" + game["id"]
    return name if len(game.get("variants", ())) < 2 else "%s/%d" % (name, i)


def title(game, variant, values):
    """The entry's title, given the game's setting values (retitle)."""
    re = variant.get("retitle")
    if re and values.get(re[0]) == re[1]:
        return re[2]
    return variant["title"]


def entries(app, declared=None):
    """The menu's game entries: [(key, title, icon, error)], in menu order.
    Launch one with app.launch(key); error is None unless it is broken.
    (declared: games(app), when the caller has it already.)"""
    from firmware import game_settings
    found = []
    for game in declared if declared is not None else games(app):
        if "error" in game:
            found.append((key(game), file_name(game["path"]), BROKEN_ICON, game["error"]))
            continue
        values = game_settings.game_values(app.hal.store, game) if _retitled(game) else {}
        for i, variant in enumerate(game["variants"]):
            icon = variant["icon"]
            found.append((key(game, i), title(game, variant, values),
                          bytes(icon) if icon else DEFAULT_ICON, None))
    return found


def entry_key(app, title):
    """The key of the menu entry with this title (None: there is none)."""
    for entry in entries(app):
        if entry[1] == title:
            return entry[0]
    return None


def set_setting(app, game_id, name, value):
    """Change a setting of the game game_id as the Settings screen does; True
    when saved (tools and tests set a game up with it)."""
    from firmware.game_settings import set_game_value
    for game in games(app):
        if game.get("id") == game_id and "error" not in game:
            return set_game_value(app.hal.store, game, name, value)
    raise KeyError(game_id)


def _retitled(game):
    for variant in game["variants"]:
        if variant.get("retitle"):
            return True
    return False


def file_name(path):
    """The name a player knows a game file by: dot.py, dot.mpy, or walk/ for a package."""
    if path.endswith("/__init__.py") or path.endswith("/__init__.mpy"):
        path = path[:path.rindex("/")]
        return path[path.rfind("/") + 1:] + "/"
    return path[path.rfind("/") + 1:]


def find(declared, wanted):
    """(game, variant index) of an entry's key among games(app), or (None, 0)."""
    for game in declared:
        if "error" in game:
            if key(game) == wanted:
                return game, 0
            continue
        for i in range(len(game["variants"])):
            if key(game, i) == wanted:
                return game, i
    return None, 0


# ---- starting a game -------------------------------------------------------------------
class GameBroken(Exception):
    """A game that cannot start: the message names its file and why."""


def _drop_declaration(module):
    """The running game's GAME dict goes (README, "Why the code looks like
    this"): what the arcade needs of it is in data/games.json, and gamereader
    imports the module afresh to read it again. Set to None before it is
    removed, as in modules.forget."""
    if hasattr(module, "GAME"):
        setattr(module, "GAME", None)
        delattr(module, "GAME")


def launch(app, key):
    """Start the game of a menu entry: the game's settings read, the menu's
    modules forgotten, then the game's code imported. A game that cannot
    start raises GameBroken naming its file (the crash screen shows it)."""
    from firmware.game_settings import game_values, file_name as settings_file
    game, i = find(games(app), key)
    if game is None:
        raise GameBroken("no game " + str(key))
    path = file_name(game["path"])
    if "error" in game:
        error = game["error"]        # a declaration's error begins with the file's name
        raise GameBroken(error if error.startswith(path) else path + ": " + error)
    variant = game["variants"][i]
    settings = game_values(app.hal.store, game)
    settings_name = settings_file(game) if settings else None
    _remember(app.hal.store, key)
    module_name, class_name = game["module"], game["screen"]
    options, save = variant["options"], variant["save"]
    game = variant = None
    app._release()
    try:
        fresh = module_name not in sys.modules   # not shared with anyone already
        module = app._import(module_name)
        if fresh:
            _drop_declaration(module)
        screen = getattr(module, class_name)(app, save=save, settings=settings,
                                             settings_file=settings_name, **options)
        screen.game_file = path      # the crash screen names the game that raised
        # the checks of stored values are needed while the game loads its
        # save, not while it runs
        modules.forget("firmware.check")
        return screen
    except Exception as e:
        try:
            sys.print_exception(e)  # type: ignore[attr-defined]  # to the REPL
        except AttributeError:
            pass
        raise GameBroken("%s: %s: %s" % (path, type(e).__name__, e))


def _check_session(value):
    check.table(value, "session")
    for name in check.array(value["recent"], None, "session recent"):
        check.text(name, 40, "session key")


def _remember(store, name):
    """Put an entry's key first in the session's list of games played recently."""
    recent = store.load("session", {"recent": []}, _check_session)["recent"]
    store.save("session", {"recent": [name] + [k for k in recent if k != name][:15]})


def resumable(app, declared):
    """The key of the menu entry of the game left in progress most recently,
    or None; declared: games(app). Each game keeps its own: leaving one in
    progress and finishing another still offers the first."""
    store = app.hal.store
    session = store.load("session", {"recent": []}, _check_session)
    recent = session["recent"]
    if not recent and "last" in session:
        # an older firmware kept the title of the last game launched
        for game in declared:
            for i, variant in enumerate(game.get("variants", ())):
                if variant["title"] == session["last"]:
                    recent = [key(game, i)]
    for name in recent:
        game, i = find(declared, name)
        if game is None or "error" in game:
            continue
        save = game["variants"][i]["save"]
        if save is not None and store.load(save, {}):
            return name
    return None
