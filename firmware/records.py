"""Records of every game, in one store file the Records screen can show without
importing any game.

Layout: {group: {field: number}}, a group per game or per way of playing it
("8-Puzzle numbers", "Reversi easy"); the fields are the ones the games
declare (GAME["records"]: field, label, kind, how to show it).

No program holds a Records object (nor this module) between frames: app.records
(firmware/app.py) reads the file into one where it is used, a game's end, the
Records screen, Settings' reset, and it goes when that is done.
"""
from micropython import const

_LARGEST = const(1000000000)  # no game counts this far; a bigger number is damage


def check_records(data):
    """The schema of data/records.json: short texts to whole numbers >= 0."""
    from firmware import check     # (here: see settings.check_system)
    check.table(data, "records")
    for group in data:
        check.text(group, 32, "records group")
        fields = check.table(data[group], "records " + group)
        for field in fields:
            check.text(field, 24, "records field")
            check.integer(fields[field], 0, _LARGEST, "records " + field)


class Records:
    def __init__(self, store):
        self.store = store
        self.data = store.load("records", {}, check_records)

    def get(self, game):
        return self.data.get(game, {})

    def keep(self, group, field, value, kind):
        """Keep value as declared by kind ("fewest"/"fastest": lower is
        better, "highest": higher is, "count": added); True when it is a new
        record (or, for a count, when it was saved)."""
        if kind == "count":
            return self.count(group, field, value)
        return self.best(group, field, value, lower_is_better=kind != "highest")

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
        return self.store.save("records", self.data)

    def reset(self):
        """Forget every record: done and saved, or (False) not done at all,
        so a later record cannot wipe the old ones the player still sees."""
        if not self.store.save("records", {}):
            return False
        self.data = {}
        return True
