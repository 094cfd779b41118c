"""The menu's games. Adding a game is one new screen module and one line here.

module:  a module under firmware/screens/ that defines `Game`, a Screen.
save:    the store name its game in progress is saved under (None when there is
         none), so the menu can offer "Continue" without importing the game.
options: keyword arguments for Game(app, **options).
"""


class Entry:
    def __init__(self, title, module, save, options, icon):
        self.title = title
        self.module = module
        self.save = save
        self.options = options
        self.icon = icon  # 8 rows of 8 pixels, MSB leftmost


GAMES = (
    Entry("15-Puzzle", "firmware.screens.puzzle", "puzzle15", {"size": 4, "big_size_setting": True},
          b"\xff\x99\x99\xff\xff\x99\x99\xff"),
    Entry("8-Puzzle", "firmware.screens.puzzle", "puzzle8", {"size": 3},
          b"\xff\x92\x92\xff\x92\x92\xff\x00"),
    Entry("2048", "firmware.screens.g2048", "g2048", {},
          b"\x00\xee\xaa\xee\x00\xee\xaa\xee"),
    Entry("Reversi", "firmware.screens.reversi", "reversi", {},
          b"\x3c\x42\x81\x81\xff\xff\x7e\x3c"),
)


def find(title):
    for entry in GAMES:
        if entry.title == title:
            return entry
    return None
