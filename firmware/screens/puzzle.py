"""The N-puzzle screen: 8-Puzzle (3x3), 15-Puzzle (4x4) and 24-Puzzle (5x5),
with numbers or pictures (after the ML4M, Godot and MSX puzzles). The keys
are in firmware/screens/puzzle_keys.py.

This module is the game: its state, its moves, saving. Its helpers take the
screen as `screen: "Game"` (what they use of it, make check checks):
  puzzle_shared         the constants the screen and its helpers share
                        (imported at the top: loaded for the whole game)
  puzzle_draw           the grid, the cells and the panel (held for the whole
                        game; with numbers, not under the end's banner)
  puzzle_keys           the keys while a game is played (held until its end)
  puzzle_pictures       picture mode (held for a game with pictures): the
                        preview, the hint's blink, a cell's piece of the picture
  puzzle_picture_files  the list of pictures, loading one        (borrowed)
  puzzle_start          size and mode, a new or a saved game     (borrowed)
  puzzle_hints          the next push, the hint lit up           (borrowed)
  puzzle_end            a game's end: result, records, banner (held from a
                        game's end until the next one starts)
"""
import time

from micropython import const

from firmware.games.npuzzle import Puzzle  # the rules, for the whole game
from firmware.hal.controls import A, B
from firmware.screens.base import GameScreen, STATUS_LINE, HELP_LINE, BACK
from firmware.screens.puzzle_shared import PLAY, ASK, HELP, LEVEL_NAMES, MOVES_FIELD, \
    TIME_FIELD

_TYPE_CHECKING = const(False)   # for make check alone: no code on the board
if _TYPE_CHECKING:
    from framebuf import FrameBuffer
    from firmware.games.npuzzle import Hinter

_SHUFFLES = ((0, "random"), (1, "easy"), (2, "medium"), (3, "hard"))

# What the arcade knows of this game without importing it (firmware/gamelist.py).
# The shuffle level and the picture are remembered per puzzle (F and C+stick
# change them in the game), with no row in Settings (label None).
GAME = {
    "title": "Puzzles",
    "variants": (
        {"title": "15-Puzzle", "icon": b"\xff\x99\x99\xff\xff\x99\x99\xff", "save": "puzzle15",
         "options": {"size": 4, "big_size_setting": True}, "retitle": ("big", 5, "24-Puzzle", "size")},
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

_UNDO_KEPT = const(64)       # undo steps a save keeps across a restart


class Game(GameScreen):
    message_ms = 2000
    help_lines = HELP
    timers = ("last_frame",)     # the clock stands still while the game is paused
    # Set by the helpers (puzzle_start.set_up; picture mode's
    # puzzle_picture_files.setup), declared here so that make check knows them
    # (a bare annotation makes no code on the board).
    puzzle: "Puzzle | None"        # (None for a moment: a new size, puzzle_start)
    size: int                      # tiles per side
    cell_count: int
    pitch: int                     # pixels from one grid line to the next
    grid_side: int                 # in pixels, both grid lines included
    grid_top: int
    font_scale: int
    mode: str                      # "numbers" or "picture"
    records_group: str
    hinter: "Hinter | None"        # the hint's plan, once a hint is asked for
    level: int
    game_level: int
    lost_at: int
    optimal: "int | None"
    cursor_on: bool
    cursor: int
    solve_next: "int | None"
    preview: int
    preview_until: int
    shown_secs: int
    dirty_cells: "bytearray | None"
    picture_fb: "FrameBuffer"
    tile_fb: "FrameBuffer"
    inverting_palette: "FrameBuffer"
    hint_phase: int

    def __init__(self, app, save=None, settings=None, **options):
        size = options.get("size", 4)
        save = save or "puzzle%d" % (size * size - 1)
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        self.prefs = save                  # the level and picture kept for this puzzle: <x>_<save>
        # (its code is needed only now)
        with self.borrow("firmware.screens.puzzle_start") as start:
            size = start.settings_size(self)
            self.title = "%d-Puzzle" % (size * size - 1)   # (a note about a bad save names it)
            start.set_up(self, size, options.get("big_size_setting"))
        self._pictures()
        if not self.resume():
            self.new_game(self.last_frame)

    def _pictures(self):
        """Picture mode (puzzle_pictures, held for the game) adds picture_fb,
        tile_fb, inverting_palette and hint_phase; a game with numbers never
        loads its code."""
        self.picture_mode = self.mode == "picture"
        self.picture_names = []            # once picture mode is set up
        self.picture = 0
        if self.picture_mode:
            self.helper("firmware.screens.puzzle_pictures").setup(self, self.settings["picture_" + self.prefs])

    def toggle_cursor(self, now):
        """The pause menu's Cursor mode: the stick moves a cursor, A slides the
        run of tiles from it to the blank (or back to moving tiles)."""
        self.cursor_on = not self.cursor_on
        self.dirty_cells[self.cursor] = 1
        self.panel |= STATUS_LINE | HELP_LINE
        self.help_i = 0

    def save_prefs(self):
        """The shuffle level and the picture, for the next game of this puzzle."""
        self.remember("level_" + self.prefs, self.level)
        if self.picture_names:
            self.remember("picture_" + self.prefs, self.picture_names[self.picture])

    # ---- games ------------------------------------------------------------------
    def check_progress(self, data):
        with self.borrow("firmware.screens.save_checks") as checks:   # only while a save loads
            checks.puzzle(data, len(LEVEL_NAMES))

    def restore(self, data):
        with self.borrow("firmware.screens.puzzle_start") as start:
            return start.restore(self, data)

    def new_game(self, now):
        # the last game's end, and its banner's code
        self.let_go("firmware.screens.puzzle_end")
        with self.borrow("firmware.screens.puzzle_start") as start:
            changed = start.follow_settings(self)   # Settings changed the size or mode since
            start.new_game(self, now)
        if changed:
            self._pictures()
        self.save()
        if self.picture_mode:
            self.helper("firmware.screens.puzzle_pictures").start_preview(self, now)
        self.redraw()

    def progress(self):
        """The game in progress (saved after every move); None when there is none."""
        if (self.state != PLAY and self.state != ASK) or self.puzzle.moves == 0:
            return None
        return {"size": self.size, "mode": self.mode, "puzzle": self.puzzle.to_dict(_UNDO_KEPT),
                "ms": self.play_ms, "level": self.game_level, "optimal": self.optimal,
                "helped": self.helped}

    # ---- moves ------------------------------------------------------------------
    def _after(self, before, moved, now):
        """After a push, slide or undo (the blank was at before; moved: what
        the rules said): nothing moved, a soft low blip; else the run of
        cells between is repainted, a click, the save, a win?"""
        if not moved:
            self.hal.sound.tone(196, 40)
            return moved
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

    # ---- play and the end of a game: one of the two codes is held ----------------
    def _end(self):
        """The end's code (puzzle_end), held from a game's end until the next
        game starts. What only play needs goes meanwhile: the keys' code
        (puzzle_keys), the grid's drawing (puzzle_draw: with numbers the
        banner covers the screen; a picture's win shows the whole picture
        first), the hint's plan (the next game plans afresh) and the undo
        steps (up to 512 bytes; a game over is not undone)."""
        self.let_go("firmware.screens.puzzle_keys")
        if not self.picture_mode:
            self.let_go("firmware.screens.puzzle_draw")
        self.hinter = None
        self.puzzle.history = bytearray()
        return self.helper("firmware.screens.puzzle_end")

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
            self.helper("firmware.screens.puzzle_end").update(self, c, now)
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
        elif not self.picture_mode or not self.helper("firmware.screens.puzzle_pictures").update(self, c, now):
            self.helper("firmware.screens.puzzle_keys").play(self, c, now)
        return None

    # ---- hints -------------------------------------------------------------------
    def show_hint(self):
        """Light up the tile the hint moves."""
        with self.borrow("firmware.screens.puzzle_hints") as hints:
            hints.show(self)

    def solve_step(self, now):
        """D held: the hint's move played, and the next one lit up."""
        with self.borrow("firmware.screens.puzzle_hints") as hints:
            direction = hints.next_push(self)
        if direction is not None:
            self.helped = True
            self.push(direction, now)
            if self.state == PLAY:
                self.show_hint()

    # ---- drawing -----------------------------------------------------------------
    def draw(self, display):
        if self.banner is not None and not self.picture_mode:
            self.draw_banner(display.fb)   # a game's end with numbers (see _end)
        else:
            self.helper("firmware.screens.puzzle_draw").draw_screen(self, display.fb)
