"""The player's settings: saved in the store, applied to the hardware at once."""

# Each setting: name -> (default, allowed values). A saved value outside the
# allowed ones (an old or hand-edited file) falls back to the default.
CHOICES = {
    "sound": (True, (True, False)),
    "volume": (3, (1, 2, 3)),   # 1 soft, 2 medium, 3 loud (hal.sound.volume)
    "brightness": (3, (1, 2, 3, 4)),
    "saver_s": (120, (30, 60, 120, 300, 600)),
    "reversi_hints": (True, (True, False)),
    "reversi_level": (1, (0, 1, 2)),
    "puzzle_mode": ("numbers", ("numbers", "picture")),
    "puzzle_size": (4, (4, 5)),
}

DIM_AFTER_S = 30  # the panel dims after this long without input


class Settings:
    def __init__(self, store):
        self.store = store
        saved = store.load("settings", {})
        if not isinstance(saved, dict):
            saved = {}
        self.values = {}
        for name in CHOICES:
            default, allowed = CHOICES[name]
            value = saved.get(name, default)
            # the type too: 3.0 == 3 and True == 1, but neither is a setting
            ok = value in allowed and type(value) is type(default)
            self.values[name] = value if ok else default

    def __getitem__(self, name):
        return self.values[name]

    def set(self, name, value):
        self.values[name] = value
        return self.store.save("settings", self.values)

    def cycle(self, name, step=1):
        """Move a setting to the next (or previous) allowed value, save it."""
        allowed = CHOICES[name][1]
        i = allowed.index(self.values[name]) if self.values[name] in allowed else 0
        return self.set(name, allowed[(i + step) % len(allowed)])

    def apply(self, hal):
        hal.sound.muted = not self.values["sound"]
        hal.sound.volume = self.values["volume"]
        hal.display.brightness(self.values["brightness"])
