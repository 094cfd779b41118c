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
game; only the game's own program does (launch_note, firmware/launch.py).

A game that cannot be read (a syntax error, an import that fails, no GAME or a
wrong one, the name of a built-in game) is listed too, as a broken entry: the
menu shows it, and choosing it shows the crash screen with its file and why.

entries(app) is the list of menu entries ((key, title, icon, error) and how to
launch one: app.launch(key)); games(app) the declarations behind them.
This module is the menu's: a game's program never imports it.
"""
from firmware import check
from firmware.gamefiles import CACHE, LAYOUT, file_name

DEFAULT_ICON = b"\x7e\x81\xa5\x81\xbd\x81\x7e\x00"    # a face: a game without an icon
BROKEN_ICON = b"\x81\x42\x24\x18\x18\x24\x42\x81"     # a cross: a game that cannot start


# ---- the declarations, kept in data/games.json ------------------------------------------
def games(app):
    """Every game's declaration. Once a boot firmware/gamereader.py checks
    data/games.json entry by entry and compares it with the game files (their
    size and date); a game is imported only when its file is new or changed."""
    if app.games_checked:
        cached = app.hal.store.load(CACHE, {"layout": LAYOUT, "games": []}, None, "Game list")
        if cached.get("layout") == LAYOUT and type(cached.get("games")) is list:
            return cached["games"]
    app.games_checked = True
    from firmware.gamereader import refresh
    return refresh(app)


def key(game, i=0):
    """The name of a menu entry: the game's id (after "games/" for an
    installed game), and the variant's number when the game has more than one."""
    name = game["id"] if game["built_in"] else "games/" + game["id"]
    return name if len(game.get("variants", ())) < 2 else "%s/%d" % (name, i)


def title(game, variant, values, store=None):
    """The entry's title, given the game's setting values (retitle): the
    title of what choosing it opens. A retitle with a save field (the
    puzzle's "size") takes the value from the game in progress, which keeps
    the size it began with when Settings changed since."""
    re = variant.get("retitle")
    if not re:
        return variant["title"]
    value = values.get(re[0])
    if len(re) > 3 and store is not None and variant["save"]:
        saved = store.load(variant["save"], {})
        if re[3] in saved:
            value = saved[re[3]]
    return re[2] if value == re[1] else variant["title"]


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
            found.append((key(game, i), title(game, variant, values, app.hal.store),
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
def launch_note(app, key):
    """The launch note (firmware/launch.py) of a menu entry: what the game's
    own program needs to start it on a fresh heap, resolved here in the
    menu's (its settings, its save's name, its options), or why it cannot
    start. The entry goes first in the games played recently."""
    game, i = find(games(app), key)
    if game is None:
        return {"game": key, "broken": "no game " + str(key)}
    path = file_name(game["path"])
    if "error" in game:
        error = game["error"]        # a declaration's error begins with the file's name
        return {"game": key, "broken": error if error.startswith(path) else path + ": " + error}
    from firmware.game_settings import game_values, file_name as settings_file
    variant = game["variants"][i]
    settings = game_values(app.hal.store, game)
    _remember(app.hal.store, key)
    return {"game": key, "start": {
        "module": game["module"], "screen": game["screen"], "path": path,
        "options": variant["options"], "save": variant["save"], "settings": settings,
        "file": settings_file(game) if settings else None}}


def _check_session(value):
    check.table(value, "session")
    for name in check.array(value["recent"], None, "session recent"):
        check.text(name, 40, "session key")


def _remember(store, name):
    """Put an entry's key first in the session's list of games played recently."""
    recent = store.load("session", {"recent": []}, _check_session, "Continue")["recent"]
    store.save("session", {"recent": [name] + [k for k in recent if k != name][:15]})


def resumable(app, declared):
    """The key of the menu entry of the game left in progress most recently,
    or None; declared: games(app). Each game keeps its own: leaving one in
    progress and finishing another still offers the first."""
    store = app.hal.store
    session = store.load("session", {"recent": []}, _check_session, "Continue")
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
        variant = game["variants"][i]
        if variant["save"] is not None and store.load(variant["save"], {}, None, variant["title"]):
            return name
    return None
