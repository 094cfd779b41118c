"""The player's settings: the system's in data/settings.json, each game's in
data/<game>_settings.json (the game declares them, firmware/gamelist.py).
Every change is saved and applied at once; every file is checked on load (a
file that does not fit is set aside as .bad and the defaults are used)."""
from firmware import check

# The system's settings: name -> (default, allowed values). The Settings
# screen shows them with their labels (firmware/screens/settings.py).
CHOICES = {
    "sound": (True, (True, False)),
    "volume": (3, (1, 2, 3)),   # 1 soft, 2 medium, 3 loud (hal.sound.volume)
    "brightness": (3, (1, 2, 3, 4)),
    "saver_s": (120, (30, 60, 120, 300, 600)),
}

DIM_AFTER_S = 30  # the panel dims after this long without input


def check_system(saved):
    """The schema of data/settings.json: exact types, allowed values. Keys it
    does not know are left alone (an older firmware's game settings, migrated
    by the games: see game_values)."""
    check.table(saved, "settings")
    for name in CHOICES:
        check.choice(saved[name], CHOICES[name][1], "settings " + name)


class Settings:
    def __init__(self, store):
        self.store = store
        defaults = {}
        for name in CHOICES:
            defaults[name] = CHOICES[name][0]
        saved = store.load("settings", defaults, check_system)
        self.values = {}
        for name in CHOICES:
            self.values[name] = saved[name]

    def __getitem__(self, name):
        return self.values[name]

    def set(self, name, value):
        """Change a setting; True when saved (on False the old value stays)."""
        old = self.values[name]
        self.values[name] = value
        if self.store.save("settings", self.values):
            return True
        self.values[name] = old
        return False

    def cycle(self, name, step=1):
        """Move a setting to the next (or previous) allowed value, save it."""
        allowed = CHOICES[name][1]
        i = allowed.index(self.values[name])
        return self.set(name, allowed[(i + step) % len(allowed)])

    def apply(self, hal):
        hal.sound.muted = not self.values["sound"]
        hal.sound.volume = self.values["volume"]
        hal.display.brightness(self.values["brightness"])


# ---- a game's settings ---------------------------------------------------------------
def file_name(game):
    return game["id"] + "_settings"


def _checker(game):
    from firmware.gamelist import check_value

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
        values = _migrated(store, game, defaults)
        store.save(name, values)
        return values
    return store.load(name, defaults, _checker(game))


def _migrated(store, game, defaults):
    from firmware.gamelist import check_value
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


class GameSettings:
    """A game's settings as its screen sees them: values["name"], and
    set("name", value) for a choice the game remembers itself (saved at once)."""

    def __init__(self, store, game):
        self.store = store
        self.game = game
        self.values = game_values(store, game)

    def __getitem__(self, name):
        return self.values[name]

    def get(self, name, default=None):
        return self.values.get(name, default)

    def set(self, name, value):
        for setting in self.game["settings"]:
            if setting[0] == name:
                from firmware.gamelist import check_value
                check_value(setting, value)
        self.values[name] = value
        return self.store.save(file_name(self.game), self.values)


def own_settings(store, module_name):
    """The settings of the game whose module is module_name (already imported)."""
    import sys
    from firmware.gamelist import read_declaration
    decl = getattr(sys.modules[module_name], "GAME", {"title": module_name})
    game = read_declaration(decl, module_name)
    game["id"] = module_name[module_name.rfind(".") + 1:]
    return GameSettings(store, game)
