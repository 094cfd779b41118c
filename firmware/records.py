"""Records of every game, in one store file the Records screen can show without
importing any game.

Layout: {game: {field: number}}. A field ending in " time" holds seconds.
"""


class Records:
    def __init__(self, store):
        self.store = store
        data = store.load("records", {})
        self.data = data if isinstance(data, dict) else {}

    def get(self, game):
        return self.data.get(game, {})

    def best(self, game, field, value, lower_is_better=True):
        """Keep value if it beats the record; True when it is a new record."""
        fields = self.data.setdefault(game, {})
        old = fields.get(field)
        if old is not None and (value >= old if lower_is_better else value <= old):
            return False
        fields[field] = value
        self.store.save("records", self.data)
        return True

    def count(self, game, field, n=1):
        """Add to a counter, such as wins against a CPU level."""
        fields = self.data.setdefault(game, {})
        fields[field] = fields.get(field, 0) + n
        self.store.save("records", self.data)

    def reset(self):
        self.data = {}
        return self.store.save("records", self.data)
