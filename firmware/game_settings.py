"""A game's settings, as its declaration lists them (GAME["settings"],
firmware/gamelist.py): in data/<game>_settings.json, checked on load (a file
that does not fit is set aside as .bad and the defaults are used). Imported
with the menu, the Settings screen and a game that has settings."""
from firmware import check


def check_value(setting, value, what=None):
    """Raise check.Invalid unless value is allowed for this setting (what: how
    the message names it, the setting's name by default)."""
    values = setting[2]
    if values == "text":
        return check.text(value, 32, what or setting[0])
    return check.choice(value, [pair[0] for pair in values], what or setting[0])


def file_name(game):
    return game["id"] + "_settings"


def _checker(game):
    """The check of data/<game>_settings.json: each setting one of its values."""
    def check_game(saved):
        check.table(saved, file_name(game))
        for setting in game["settings"]:
            check_value(setting, saved[setting[0]])
    return check_game


def _exists(store, name):
    try:
        store.fs.open(store.path(name), "r").close()
    except OSError:
        return False
    return True


def game_values(store, game):
    """{setting: value} of a game (its declaration from gamelist.games()).
    The first time, with no file yet, the values come from where an older
    firmware kept them (each setting's `old` path: "file/key/..."), and the
    defaults where they are missing or wrong."""
    defaults = {}
    for setting in game.get("settings", ()):
        defaults[setting[0]] = setting[3]
    if not defaults:
        return defaults
    name = file_name(game)
    if not _exists(store, name):
        if not migrates(game):
            return defaults           # the file comes with the first change
        values = _migrated(store, game, defaults)
        store.save(name, values)
        return values
    return store.load(name, defaults, _checker(game))


def migrates(game):
    """True when a setting of the game was kept elsewhere by an older firmware."""
    for setting in game.get("settings", ()):
        if setting[4]:
            return True
    return False


def _migrated(store, game, defaults):
    values = dict(defaults)
    files = {}
    for setting in game["settings"]:
        old = setting[4]
        if not old:
            continue
        path = old.split("/")
        if path[0] not in files:
            files[path[0]] = store.load(path[0], {})   # read as it is: checked below
        value = files[path[0]]
        for step in path[1:]:
            value = value.get(step) if type(value) is dict else None
        try:
            values[setting[0]] = check_value(setting, value)
        except check.Invalid:
            pass   # missing or wrong in the old file: the default
    return values


def set_game_value(store, game, name, value):
    """Change one setting of a game; True when saved."""
    values = game_values(store, game)
    values[name] = value
    return store.save(file_name(game), values)


def own_settings(store, module_name):
    """(values, file name) of the game whose module is module_name (imported)."""
    import sys
    from firmware.gamereader import read_declaration
    decl = getattr(sys.modules[module_name], "GAME", {"title": module_name})
    game = read_declaration(decl, module_name)
    game["id"] = module_name[module_name.rfind(".") + 1:]
    return game_values(store, game), file_name(game)
