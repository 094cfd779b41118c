"""The system's settings, in data/settings.json (each game's own are in
firmware/game_settings.py). Every change is saved and applied at once; the
file is checked on load (a file that does not fit is set aside as .bad and
the defaults are used)."""
# The system's settings: name -> (default, allowed values). The Settings
# screen shows them with their labels (firmware/screens/settings.py).
CHOICES = {
    "sound": (True, (True, False)),
    "volume": (2, (1, 2, 3)),   # 1 soft, 2 medium (a new board's), 3 loud (hal.sound.volume)
    "brightness": (3, (1, 2, 3, 4)),
    "saver_s": (120, (30, 60, 120, 300, 600)),
}

DIM_AFTER_S = 30  # the panel dims after this long without input


def check_system(saved):
    """The schema of data/settings.json: exact types, allowed values. Keys it
    does not know are left alone (an older firmware's game settings, moved
    to the games' own files: game_settings.game_values)."""
    # imported here, not at the top: the checks are released while a game
    # runs (gamelist.launch forgets them)
    from firmware import check
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
