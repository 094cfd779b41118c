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


def note(game):
    """The player's note when the game's settings file is set aside: the
    game's title on the first line (the file's name means nothing to them)."""
    return game["title"] + "\nsettings reset"


def game_values(store, game):
    """{setting: value} of a game (its declaration from gamelist.games()).
    The first time, with no file yet, the values come from where an older
    firmware kept them (each setting's `old` path: "file/key/..."), and the
    defaults where they are missing or wrong. The file is read as every
    stored file is (Store.load): a complete .tmp a power cut left in its
    place is put back, a damaged file is set aside."""
    defaults = {}
    for setting in game.get("settings", ()):
        defaults[setting[0]] = setting[3]
    if not defaults:
        return defaults
    name = file_name(game)
    values = store.load(name, defaults, _checker(game), note(game), none_if_missing=True)
    if values is not None:
        return values
    if not migrates(game):
        return defaults               # the file comes with the first change
    values = _migrated(store, game, defaults)
    store.save(name, values)
    return values


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
            # read as it is (checked below); a damaged one is noted as the game's settings
            files[path[0]] = store.load(path[0], {}, None, note(game))
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
