"""The N-puzzle screen: 8-Puzzle (3x3), 15-Puzzle (4x4) and 24-Puzzle (5x5),
with numbers or pictures (after the ML4M, Godot and MSX puzzles). The keys
are in firmware/screens/puzzle_keys.py.

This module is the game: its state, its moves, saving. Its helpers take the
screen as `screen`:
  puzzle_keys           the keys while a game is played (forgotten at its end)
  puzzle_draw           the grid, the cells and the panel
  puzzle_pictures       picture mode (loaded only for it): the preview, the
                        hint's blink, a cell's piece of the picture
  puzzle_picture_files  the list of pictures, loading one        (borrowed)
  puzzle_start          size and mode, a new or a saved game     (borrowed)
  puzzle_hints          the next push, the hint lit up           (borrowed)
  puzzle_end            a game's end: result, records, banner (loaded when
                        a game ends, forgotten when the next one starts)
and use only this public surface of it (besides GameScreen's: hal, app,
settings, panel, dirty, message, banner, help_i, say, redraw, save,
load_progress, show_banner, draw_banner, help_line):
  the game    puzzle (firmware.games.npuzzle.Puzzle), state (PLAY, WON, LOST,
              ASK below), mode, play_ms, optimal, helped, level,
              game_level, records_group, hinter, thinking, solve_next,
              lost_at; new_game(now), push(direction, now), slide(i, now),
              undo(now), show_hint(), solve_step(now), save_prefs()
  the board   size (tiles per side), cell_count, pitch, grid_side, grid_top,
              font_scale, dirty_cells, hint_index, cursor, cursor_on,
              shown_secs
  pictures    picture_mode (the puzzle_pictures module, None with numbers),
              picture_names, picture (an index into them), picture_fb,
              tile_fb, inverting_palette, hint_phase, preview, preview_until
"""
import time

from micropython import const

from firmware import modules
from firmware.games.npuzzle import Puzzle  # the rules, for the whole game
from firmware.hal.controls import A, B
from firmware.screens.base import GameScreen, STATUS_LINE, HELP_LINE, FIRST_FIELD, BACK

_SHUFFLES = ((0, "random"), (1, "easy"), (2, "medium"), (3, "hard"))

# What the arcade knows of this game without importing it (firmware/gamelist.py).
# The shuffle level and the picture are remembered per puzzle (F and C+stick
# change them in the game), with no row in Settings (label None).
GAME = {
    "title": "Puzzles",
    "variants": (
        {"title": "15-Puzzle", "icon": b"\xff\x99\x99\xff\xff\x99\x99\xff", "save": "puzzle15",
         "options": {"size": 4, "big_size_setting": True}, "retitle": ("big", 5, "24-Puzzle")},
        {"title": "8-Puzzle", "icon": b"\xff\x92\x92\xff\x92\x92\xff\x00", "save": "puzzle8",
         "options": {"size": 3}},
    ),
    # (name, label, values, default, where an older firmware kept it)
    "settings": (
        ("mode", "Tiles", (("numbers", "numbers"), ("picture", "picture")), "numbers",
         "settings/puzzle_mode"),
        ("big", "Big puzzle", ((4, "15"), (5, "24")), 4, "settings/puzzle_size"),
        ("level_puzzle8", None, _SHUFFLES, 0, "puzzle_prefs/puzzle8/level"),
        ("level_puzzle15", None, _SHUFFLES, 0, "puzzle_prefs/puzzle15/level"),
        ("picture_puzzle8", None, "text", "", "puzzle_prefs/puzzle8/picture"),
        ("picture_puzzle15", None, "text", "", "puzzle_prefs/puzzle15/picture"),
    ),
    # the pause menu (E): a row of the game's own
    "actions": (("Cursor mode", "toggle_cursor"),),
    # records per size and mode ("15-Puzzle numbers"): (field, label, kind, shown as)
    "records": (("fewest moves", "moves", "fewest", "number"),
                ("fastest time", "time", "fastest", "time")),
    # make bench's heap rows besides each entry: (entry, row, settings)
    "bench": {"rows": (("15-Puzzle", "5x5 pictures", {"big": 5, "mode": "picture"}),
                       ("8-Puzzle", "pictures", {"mode": "picture"}))},
}

# the game's states (screen.state)
PLAY = const(0)
WON = const(1)
LOST = const(2)
ASK = const(3)               # "New game?" over a started game

# the panel's own fields (bits of screen.panel, after the base's status and help lines)
MOVES_FIELD = FIRST_FIELD
TIME_FIELD = FIRST_FIELD << 1
LEVEL_FIELD = FIRST_FIELD << 2
MODE_FIELD = FIRST_FIELD << 3

LEVEL_NAMES = ("RANDOM", "EASY", "MEDIUM", "HARD")   # the shuffle levels (F)
HELP = ("A NEW  B MENU", "C UNDO  D HINT", "HOLD D: SOLVE", "F LVL  E PAUSE")

_UNDO_KEPT = const(64)       # undo steps a save keeps across a restart

# helpers loaded only for a while (see above; README, "Why the code looks like this")
_SAVE_CHECKS = "firmware.screens.save_checks"   # the save schemas: while a save loads
_START = "firmware.screens.puzzle_start"
_HINTS = "firmware.screens.puzzle_hints"
_END = "firmware.screens.puzzle_end"
_BANNER = "firmware.ui.banner"                  # (imported by puzzle_end)
_KEYS = "firmware.screens.puzzle_keys"


class Game(GameScreen):
    message_ms = 2000
    help_lines = HELP
    # set by puzzle_start.set_up (the module docstring lists the rest); declared
    # here for the type checker: a bare annotation makes no code on the board
    puzzle: Puzzle
    size: int
    mode: str
    level: int
    game_level: int
    optimal: "int | None"
    cursor: int
    shown_secs: int
    dirty_cells: bytearray

    def __init__(self, app, save=None, settings=None, **options):
        size = options.get("size", 4)
        save = save or "puzzle%d" % (size * size - 1)
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        self.prefs = save                  # the level and picture kept for this puzzle: <x>_<save>
        settings = self.settings
        big = options.get("big_size_setting")     # the "big" setting makes it a 24-puzzle
        if big and settings["big"] == 5:
            size = 5
        self.title = "%d-Puzzle" % (size * size - 1)   # (a note about a bad save names it)
        with modules.borrowed(_START) as start:   # (its code is needed only now)
            start.set_up(self, size, big)

        # picture mode (puzzle_pictures) adds picture_fb, tile_fb,
        # inverting_palette, hint_phase and preview_until
        self.picture_mode = None
        self.picture_names = []            # once picture mode is set up
        self.picture = 0
        if self.mode == "picture":         # a game with numbers never loads its code
            from firmware.screens import puzzle_pictures
            self.picture_mode = puzzle_pictures
            puzzle_pictures.setup(self, settings["picture_" + self.prefs])

        if not self.resume():
            self.new_game(self.last_frame)

    def toggle_cursor(self, now):
        """The pause menu's Cursor mode: the stick moves a cursor, A slides the
        run of tiles from it to the blank (or back to moving tiles)."""
        self.cursor_on = not self.cursor_on
        self.dirty_cells[self.cursor] = 1
        self.panel |= STATUS_LINE | HELP_LINE
        self.help_i = 0

    def resumed(self, paused_ms):
        GameScreen.resumed(self, paused_ms)
        self.last_frame = time.ticks_add(self.last_frame, paused_ms)   # the clock stood still

    def save_prefs(self):
        """The shuffle level and the picture, for the next game of this puzzle."""
        self.remember("level_" + self.prefs, self.level)
        if self.picture_names:
            self.remember("picture_" + self.prefs, self.picture_names[self.picture])

    # ---- games ------------------------------------------------------------------
    def check_progress(self, data):
        with modules.borrowed(_SAVE_CHECKS) as checks:   # only while a save loads
            checks.puzzle(data, len(LEVEL_NAMES))

    def restore(self, data):
        with modules.borrowed(_START) as start:
            return start.restore(self, data)

    def new_game(self, now):
        modules.forget(_END)                # the last game's end, and its banner's code
        modules.forget(_BANNER)
        with modules.borrowed(_START) as start:
            start.new_game(self, now)
        self.save()
        if self.picture_mode is not None:
            self.picture_mode.start_preview(self, now)
        self.redraw()

    def progress(self):
        """The game in progress (saved after every move); None when there is none."""
        if (self.state != PLAY and self.state != ASK) or self.puzzle.moves == 0:
            return None
        return {"size": self.size, "mode": self.mode, "puzzle": self.puzzle.to_dict(_UNDO_KEPT),
                "ms": self.play_ms, "level": self.game_level, "optimal": self.optimal,
                "helped": self.helped}

    # ---- moves ------------------------------------------------------------------
    def _moved(self, before, now):
        """After the rules moved tiles (the blank was at before): repaint the
        run of cells between, click, save, check for a win."""
        first, last = sorted((before, self.puzzle.blank))
        step = 1 if first // self.size == last // self.size else self.size
        for i in range(first, last + 1, step):
            self.dirty_cells[i] = 1
        if self.hint_index >= 0:
            self.dirty_cells[self.hint_index] = 1
            self.hint_index = -1
        self.dirty_cells[self.cursor] = 1
        self.panel |= MOVES_FIELD
        self.keep_help(now)                # the help turns over only while the player pauses
        self.hal.sound.click()
        if self.puzzle.is_solved():
            self.win(now)
        else:
            self.save()

    def _after(self, before, moved, now):
        """After a push, slide or undo (the blank was at before; moved: what
        the rules said)."""
        if moved:
            self._moved(before, now)
        else:
            self.hal.sound.tone(196, 40)   # nothing to move: a soft low blip
        return moved

    def push(self, direction, now):
        before = self.puzzle.blank
        return self._after(before, self.puzzle.push(direction), now)

    def slide(self, index, now):
        before = self.puzzle.blank
        return self._after(before, self.puzzle.slide(index), now)

    def undo(self, now):
        before = self.puzzle.blank
        return self._after(before, self.puzzle.undo(), now)

    # ---- play and the end of a game: one of the two codes is loaded -----------------
    def _keys(self):
        """The keys' code (_KEYS): imported while a game is played, forgotten
        while its end shows."""
        from firmware.screens import puzzle_keys
        return puzzle_keys

    def _end(self):
        """The end's code (_END): imported when a game ends, forgotten when a
        new one starts."""
        modules.forget(_KEYS)
        from firmware.screens import puzzle_end
        return puzzle_end

    def win(self, now):
        self.show_banner(self._end().win(self, now))

    def give_up(self, now):
        self.show_banner(self._end().give_up(self, now))

    # ---- the frame ---------------------------------------------------------------
    def update(self, now):
        c = self.hal.controls
        dt = time.ticks_diff(now, self.last_frame)
        self.last_frame = now
        if self.state == ASK:
            if c.just_pressed(A):
                self.give_up(now)
            elif c.just_pressed(B):
                self.state = PLAY
                self.redraw()
            return None
        if c.just_pressed(B):
            return BACK
        if self.state != PLAY:
            self._end().update(self, c, now)
            return None
        if self.puzzle.moves and 0 < dt < 250:   # time counts only while playing
            self.play_ms += dt
            if self.play_ms // 1000 != self.shown_secs:
                self.panel |= TIME_FIELD
        self.turn_lines(now)

        if self.thinking:                  # the frame after D showed "THINKING"
            self.thinking = False
            self.panel |= STATUS_LINE
            self.show_hint()
        elif self.picture_mode is None or not self.picture_mode.update(self, c, now):
            self._keys().play(self, c, now)
        return None

    # ---- hints -------------------------------------------------------------------
    def show_hint(self):
        """Light up the tile the hint moves."""
        with modules.borrowed(_HINTS) as hints:
            hints.show(self)

    def solve_step(self, now):
        """D held: the hint's move played, and the next one lit up."""
        with modules.borrowed(_HINTS) as hints:
            direction = hints.next_push(self)
        if direction is not None:
            self.helped = True
            self.push(direction, now)
            if self.state == PLAY:
                self.show_hint()

    # ---- drawing -----------------------------------------------------------------
    def draw(self, display):
        # imported here, not at the top: it takes its constants from this
        # module, and the arcade reading GAME (firmware/gamereader.py) needs none of it
        from firmware.screens import puzzle_draw
        puzzle_draw.draw_screen(self, display.fb)
