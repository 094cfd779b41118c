"""Reading the games' declarations (see firmware/gamelist.py): each game
file that is new or changed since data/games.json was written is imported,
its GAME checked and kept there, and the module forgotten again. The file
itself is checked with the same rules when it is read back: an entry that no
declaration could have given (a hand edit, a damaged file) sets it aside and
every game is read again. Imported at boot (with the splash) and released
with it."""
import gc
import sys

from firmware import check
from firmware.game_settings import check_value
from firmware import gamelist
from firmware import modules
from firmware.gamelist import CACHE, LAYOUT

TITLE_LONGEST = 13   # characters beside a menu row's icon
ROW_LONGEST = 15     # a setting's label and value, a record's label and value, with a space

ACTIONS_MOST = 3     # a game's own rows in the pause menu
KINDS = ("fewest", "fastest", "highest", "count")     # how a record is kept
SHOWS = ("number", "time")                            # how a record is shown


def _icon(value, what):
    if value is None:
        return None
    if type(value) is list:       # as data/games.json keeps it
        return check.integers(value, 8, 0, 255, what + " icon")
    if type(value) is not bytes:
        raise check.Invalid("%s icon: %s is not bytes" % (what, check.shown(value)))
    if len(value) != 8:
        raise check.Invalid("%s icon: %d bytes, not 8 (8 rows of 8 pixels)" % (what, len(value)))
    return list(value)


def _variant(decl, what):
    """One menu entry of a game: title, icon, save name, options, retitle."""
    check.table(decl, what)
    title = check.text(decl.get("title"), TITLE_LONGEST, what + " title")
    if not title:
        raise check.Invalid(what + ": empty title")
    save = decl.get("save")
    if save is not None:
        check.text(save, 24, what + " save")
    options = decl.get("options", {})
    check.table(options, what + " options")
    retitle = decl.get("retitle")   # (setting, value, title): another title for that value
    if retitle is not None:
        if type(retitle) not in (tuple, list) or len(retitle) != 3:
            raise check.Invalid(what + ": retitle is (setting, value, title)")
        retitle = [check.text(retitle[0], 16, what + " retitle"), retitle[1],
                   check.text(retitle[2], TITLE_LONGEST, what + " retitle")]
    return {"title": title, "icon": _icon(decl.get("icon"), what), "save": save,
            "options": options, "retitle": retitle}


def _setting(decl, what):
    """(name, label, values, default[, old]): values is a tuple of (value,
    label) pairs, or "text" for a free short text; label None keeps the value
    without a row in Settings (a game's remembered choice); old says where the
    value was kept before games declared their settings ("file/key/...")."""
    if type(decl) not in (tuple, list) or len(decl) not in (4, 5):
        raise check.Invalid("%s settings: %s is not (name, label, values, default[, old])"
                            % (what, check.shown(decl)))
    name = check.text(decl[0], 16, what + " setting name")
    label = decl[1]
    if label is not None:
        check.text(label, ROW_LONGEST - 3, what + " " + name + " label")
    values = decl[2]
    if values != "text":
        if type(values) not in (tuple, list) or not values:
            raise check.Invalid(what + ": " + name + " values")
        pairs = []
        for pair in values:
            if type(pair) not in (tuple, list) or len(pair) != 2:
                raise check.Invalid(what + ": " + name + " values are (value, label)")
            check.text(pair[1], 9, what + " " + name + " value label")
            if label is not None and len(label) + len(pair[1]) > ROW_LONGEST:
                raise check.Invalid("%s %s: label %r and value %r are %d characters together, %d at most"
                                    % (what, name, label, pair[1], len(label) + len(pair[1]), ROW_LONGEST))
            pairs.append([pair[0], pair[1]])
        values = pairs
    old = decl[4] if len(decl) == 5 else None
    check.optional(old, _text, what + " " + name + " old place")
    setting = [name, label, values, decl[3], old]
    check_value(setting, decl[3], what + " " + name + " default")   # one of the values
    return setting


def _record(decl, what):
    """(field, label, kind, show): kind is one of KINDS, show one of SHOWS."""
    if type(decl) not in (tuple, list) or len(decl) != 4:
        raise check.Invalid("%s records: %s is not (field, label, kind, show)" % (what, check.shown(decl)))
    field = check.text(decl[0], 24, what + " record")
    label = check.text(decl[1], 9, what + " record label")
    check.choice(decl[2], KINDS, what + " record kind")
    check.choice(decl[3], SHOWS, what + " record show")
    return [field, label, decl[2], decl[3]]


def _sequence(value, what):
    if type(value) not in (tuple, list):
        raise check.Invalid(what + ": not a list")
    return value


def read_declaration(decl, what):
    """GAME as declared -> the plain data kept in data/games.json (raises
    check.Invalid with a short reason when it is not a declaration)."""
    check.table(decl, what + " GAME")   # "dot.py GAME: ... is not an object"
    variants = decl.get("variants")
    if variants is None:
        variants = [_variant(decl, what)]
    else:
        if type(variants) not in (tuple, list) or not variants:
            raise check.Invalid(what + ": variants is a list of entries")
        variants = [_variant(v, what) for v in variants]
    title = check.text(decl.get("title", variants[0]["title"]), 16, what + " title")   # Settings' heading
    screen = check.text(decl.get("screen", "Game"), 24, what + " screen")
    settings = [_setting(s, what) for s in _sequence(decl.get("settings", ()), what + " settings")]
    records = [_record(r, what) for r in _sequence(decl.get("records", ()), what + " records")]
    actions = [_action(a, what) for a in _sequence(decl.get("actions", ()), what + " actions")]
    if len(actions) > ACTIONS_MOST:
        raise check.Invalid(what + ": %d actions, %d at most" % (len(actions), ACTIONS_MOST))
    at_once = [_named(name, settings, what) for name in _sequence(decl.get("at_once", ()), what + " at_once")]
    return {"title": title, "screen": screen, "variants": variants,
            "settings": settings, "records": records, "actions": actions, "at_once": at_once}


def _action(decl, what):
    """(label, method): a row of the pause menu that calls method(now) on the screen."""
    if type(decl) not in (tuple, list) or len(decl) != 2:
        raise check.Invalid(what + ": an action is (label, method name)")
    return [check.text(decl[0], ROW_LONGEST - 1, what + " action label"),
            check.text(decl[1], 24, what + " action method")]


def _named(name, settings, what):
    """A setting's name in GAME["at_once"]: one the game declares."""
    for setting in settings:
        if setting[0] == name:
            return name
    raise check.Invalid(what + ": at_once names %r, which is not one of its settings" % (name,))


def _read(module, path, what):
    """Import a game module for its declaration, then forget it again."""
    try:
        return _declared(module, what)
    except Exception as e:   # a broken game never breaks the arcade
        broken: dict = {"error": "%s: %s" % (type(e).__name__, e)
                        if not isinstance(e, check.Invalid) else str(e)}
        return broken
    finally:
        gc.collect()         # the game's code, forgotten, goes now


def _declared(module, what):
    """The checked declaration of game module `module`, imported for it alone."""
    if module in sys.modules and not hasattr(sys.modules[module], "GAME"):
        # a game still running has let its GAME go (gamelist.launch): read afresh
        modules.forget(module)
    with modules.borrowed(module) as game_module:
        decl = getattr(game_module, "GAME", None)
        if decl is None:
            raise check.Invalid(what + ": no GAME declaration")
        game = read_declaration(decl, what)
        if not hasattr(game_module, game["screen"]):
            raise check.Invalid(what + ": no screen class " + game["screen"])
        return game


def _check_cache(value):
    """The check of data/games.json (Store.load): each entry as refresh()
    writes it, a declaration checked as when it was read, or a broken game's
    error; another firmware's layout is not checked (every game is read again)."""
    if value.get("layout") != LAYOUT:
        return
    for game in check.array(value.get("games"), None, CACHE + " games"):
        check.table(game, CACHE + " entry")
        what = _text(game.get("path"), CACHE + " path")
        _text(game.get("id"), what + " id")
        _text(game.get("module"), what + " module")
        check.flag(game.get("built_in"), what + " built_in")
        if "error" in game:
            _text(game["error"], what + " error")
        else:
            check.array(game.get("variants"), None, what + " variants")   # always a list here
            read_declaration(game, what)


def _text(value, what):
    """A text of any length (a path, a file's name, an error message)."""
    if type(value) is not str:
        raise check.Invalid(what + ": not a text")
    return value


def refresh(app):
    """Read every game file that is new or changed since data/games.json was
    written; drop the ones that are gone. Returns the list of games."""
    store = app.hal.store
    cached = store.load(CACHE, {"layout": LAYOUT, "games": []}, _check_cache, "Game list")
    if cached.get("layout") != LAYOUT or type(cached.get("games")) is not list:
        cached = {"layout": LAYOUT, "games": []}
    old = {}
    for game in cached["games"]:
        if type(game) is dict and "path" in game:
            old[game["path"]] = game
    games = []
    changed = len(old) != len(cached["games"])
    built_in_titles = []
    gamelist.use_folder(app.games_folder)
    for name, module, path, built_in in gamelist.files(app):
        when = gamelist.stamp(path)
        game = old.pop(path, None)
        if game is None or when is None or game.get("stamp") != when:
            what = gamelist.file_name(path) if not built_in else module
            game = _read(module, path, what)
            game["path"] = path
            game["stamp"] = when
            changed = True
        for field, value in (("id", name), ("module", module), ("built_in", built_in)):
            if game.get(field) != value:
                game[field] = value
                changed = True
        if built_in:
            built_in_titles.extend(v["title"] for v in game.get("variants", ()))
        elif "error" not in game:
            clash = _clash(game, name, built_in_titles)
            if clash:
                game = {"error": clash, "path": path, "stamp": when, "id": name,
                        "module": module, "built_in": False, "clash": True}
        games.append(game)
    if old:
        changed = True
    if changed:
        # games declared again next boot if this cannot be saved: slower, not wrong
        store.save(CACHE, {"layout": LAYOUT, "games": games})
    # the settings an older firmware kept elsewhere move to the games' own
    # files now, before anything saves over those
    from firmware.game_settings import game_values, migrates
    for game in games:
        if "error" not in game and migrates(game):
            game_values(store, game)
    return games


def _clash(game, name, built_in_titles):
    """Why an installed game may not take its place (None: it may)."""
    for module in gamelist.BUILT_IN:
        if module.endswith("." + name):
            return name + " is the name of a built-in game"
    for v in game["variants"]:
        if v["title"] in built_in_titles:
            return v["title"] + " is a built-in game"
    return None
