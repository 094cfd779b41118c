"""The N-puzzle screen: 8-Puzzle (3x3), 15-Puzzle (4x4) and 24-Puzzle (5x5),
with numbers or pictures (after the ML4M, Godot and MSX puzzles).

Keys
  stick   push the tile next to the blank into it (push left: the tile on the
          blank's right moves left), with auto-repeat; in cursor mode it
          moves the cursor instead
  A       new game; a started game asks first ("New game?" A yes, B no)
          and a yes gives it up ("You Lost"); in cursor mode: slide the
          run from the cursor to the blank
  B       back to the menu (the game is saved); on a question: no
  C       undo (picture mode: tap; hold C to see the picture, and push the
          stick left/right meanwhile to change the picture)
  D       hint: the tile to move lights up; hold D to watch it solve
  E       cursor mode on/off
  F       shuffle: random (uniform) / easy / medium / hard (random walks)

This module is the game: its state, the keys, saving. Its helpers take the
screen as `screen`:
  puzzle_draw           the grid, the cells and the panel
  puzzle_pictures       picture mode (loaded only for it): the picture shown
                        whole, the hint's blink, a cell's piece of the picture
  puzzle_picture_files  the list of pictures and loading one (borrowed then)
  puzzle_end            a game's end: result, records, banner (loaded when a
                        game ends, forgotten when the next one starts)
and use only this public surface of it (besides GameScreen's: hal, app,
panel, dirty, message, banner, say, redraw, save, show_banner, help_line):
  the game      puzzle (firmware.games.npuzzle.Puzzle), state (PLAY, WON,
                LOST, ASK below), play_ms, optimal, helped, records_group,
                level, lost_at; new_game(now), undo(now), save_prefs(),
                status_text(), help_lines()
  the board     size (tiles per side), cell_count, pitch, grid_side,
                grid_top, font_scale, dirty_cells, hint_index, cursor,
                cursor_on, shown_secs
  pictures      picture_mode (the puzzle_pictures module, None with numbers),
                picture_names, picture (an index into them), picture_fb,
                tile_fb, inverting_palette, hint_phase, preview, preview_until
Heap: see README, "Why the code looks like this" (modules borrowed).
"""
import time

from micropython import const

from firmware import modules
from firmware.games.npuzzle import Puzzle
from firmware.hal.controls import A, B, C, D, E, F, LEFT, RIGHT, UP, DOWN
from firmware.screens import puzzle_draw
from firmware.screens.base import GameScreen, STATUS_LINE, HELP_LINE, BACK
from firmware.screens.puzzle_draw import MOVES_FIELD, TIME_FIELD, LEVEL_FIELD, LEVEL_NAMES
from firmware.ui import draw

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
    # records per size and mode ("15-Puzzle numbers"): (field, label, kind, shown as)
    "records": (("fewest moves", "moves", "fewest", "number"),
                ("fastest time", "time", "fastest", "time")),
    # make bench's heap rows besides each entry: (entry, row, settings)
    "bench": {"rows": (("15-Puzzle", "5x5 pictures", {"big": 5, "mode": "picture"}),
                       ("8-Puzzle", "pictures", {"mode": "picture"}))},
}

# Per size: the cell pitch (pixels from one grid line to the next) and the
# grid's top row. Both are chosen so that cells cross as few 8-row pages of
# the panel as they can: a move resends its two cells, page by page (a 3x3
# with a pitch of 21 filled the height, but its middle row crossed 4 pages).
_PITCH = {3: 20, 4: 15, 5: 12}
_TOP = {3: 0, 4: 1, 5: 1}

# the game's states (screen.state)
PLAY = const(0)
WON = const(1)
LOST = const(2)
ASK = const(3)               # "New game?" over a started game

_SOLVE_HOLD_MS = const(600)  # D held this long: the solution plays
_SOLVE_STEP_MS = const(250)  # ~4 moves a second
_UNDO_KEPT = const(64)       # undo steps a save keeps across a restart

# the rules' push directions, in order (firmware.games.npuzzle: 0 left, 1 right, 2 up, 3 down)
_PUSHES = (LEFT, RIGHT, UP, DOWN)

HELP = ("A NEW  B MENU", "C UNDO  D HINT", "HOLD D: SOLVE", "E CURSOR F LVL")
_HELP_CURSOR = ("A SLIDE  E DONE", "STICK: CURSOR")

# helpers loaded only for a while (see the module's docstring)
_SAVE_CHECKS = "firmware.screens.save_checks"   # the save schemas: while a save loads
_START = "firmware.screens.puzzle_start"
_HINTS = "firmware.screens.puzzle_hints"
_END = "firmware.screens.puzzle_end"


def stick_push(controls):
    """The push direction the stick asks for this frame (auto-repeat), or None."""
    for direction in range(4):
        if controls.repeat(_PUSHES[direction]):
            return direction
    return None


class Game(GameScreen):
    message_ms = 2000

    def __init__(self, app, save=None, settings=None, **options):
        size = options.get("size", 4)
        save = save or "puzzle%d" % (size * size - 1)
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        self.prefs = save                  # the level and picture kept for this puzzle: <x>_<save>
        settings = self.settings
        if options.get("big_size_setting") and settings["big"] == 5:
            size = 5
        mode = settings["mode"]
        self.title = "%d-Puzzle" % (size * size - 1)
        # a game in progress keeps its own size and mode when the settings
        # changed since: they apply from the next game started here
        saved = self.load_progress()
        if saved and saved["size"] in ((4, 5) if options.get("big_size_setting") else (size,)):
            size = saved["size"]
            mode = saved["mode"]
        self.size = size
        self.cell_count = size * size
        self.pitch = _PITCH[size]
        self.grid_side = self.pitch * size + 1     # in pixels, both grid lines included
        self.grid_top = _TOP[size]
        self.mode = mode
        self.records_group = "%d-Puzzle %s" % (self.cell_count - 1, mode)
        self.font_scale = 2 if size == 3 else 1
        self.hinter = None                 # a Hinter once a hint is asked for
        self.level = settings["level_" + self.prefs]

        self.puzzle = Puzzle(size)
        self.state = PLAY
        self.lost_at = 0
        self.play_ms = 0                   # playing time of this game
        self.optimal = None                # 8-puzzle: best possible from the start
        self.helped = False                # the solver played moves (no records)
        self.game_level = self.level
        self.cursor_on = False
        self.cursor = 0
        self.hint_index = -1
        self.thinking = False
        self.solve_next = None             # set by a D press on this screen
        self.preview = 0                   # picture mode: the whole picture shown (puzzle_pictures)
        self.last_frame = self.hal.clock.now()
        self.shown_secs = -1
        self.dirty_cells = bytearray(self.cell_count)   # 1: repaint this cell

        self.picture_mode = None
        self.picture_names = []            # once picture mode is set up
        self.picture = 0
        if mode == "picture":              # a game with numbers never loads its code
            from firmware.screens import puzzle_pictures
            self.picture_mode = puzzle_pictures
            puzzle_pictures.setup(self, settings["picture_" + self.prefs])

        if not self.resume():
            self.new_game(self.last_frame)

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
        modules.forget(_END)                # the last game's end
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

    # ---- the end of a game -------------------------------------------------------
    def win(self, now):
        self.show_banner(self._end().win(self, now))

    def give_up(self, now):
        self.show_banner(self._end().give_up(self, now))

    def _end(self):
        """The end's code (_END), imported only when a game ends and forgotten
        when a new one starts."""
        from firmware.screens import puzzle_end
        return puzzle_end

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
            self._keys(c, now)
        return None

    def _keys(self, c, now):
        if c.just_pressed(E):
            self.cursor_on = not self.cursor_on
            self.dirty_cells[self.cursor] = 1
            self.panel |= STATUS_LINE | HELP_LINE
            self.help_i = 0
        if c.just_pressed(F):
            self.level = (self.level + 1) % len(LEVEL_NAMES)
            self.save_prefs()
            self.panel |= LEVEL_FIELD
            if self.puzzle.moves == 0:
                self.new_game(now)
            else:
                self.say("FROM NEXT GAME", now)
        if c.just_pressed(A):
            if self.cursor_on:
                self.slide(self.cursor, now)
            elif self.puzzle.moves:
                self.state = ASK           # progress would be thrown away: ask
                self.dirty = True
            else:
                self.new_game(now)
            return
        if self.picture_mode is None and c.repeat(C):
            self.undo(now)
        if c.just_pressed(D):
            if self.size > 3 or self.hinter is None:
                self.thinking = True       # say so first: a stage may take a while
                self.panel |= STATUS_LINE
            else:
                self.show_hint()
            self.solve_next = time.ticks_add(now, _SOLVE_HOLD_MS)
        # a D held since before the screen opened is no request (solve_next
        # None): only a press seen here starts the solve
        elif c.pressed(D) and c.held_ms(D) >= _SOLVE_HOLD_MS and \
                self.solve_next is not None and time.ticks_diff(now, self.solve_next) >= 0:
            self.solve_next = time.ticks_add(now, _SOLVE_STEP_MS)
            self._solve_step(now)
            return
        direction = stick_push(c)
        if direction is None:
            return
        if self.cursor_on:
            self._move_cursor(direction)
        elif self.state == PLAY:           # (an undo above may have solved it)
            self.push(direction, now)

    def _move_cursor(self, direction):
        """The cursor one cell the stick's way (it stops at the edges)."""
        size = self.size
        col = self.cursor % size
        row = self.cursor // size
        if direction == 0:
            col = max(col - 1, 0)
        elif direction == 1:
            col = min(col + 1, size - 1)
        elif direction == 2:
            row = max(row - 1, 0)
        else:
            row = min(row + 1, size - 1)
        self.dirty_cells[self.cursor] = 1
        self.cursor = row * size + col
        self.dirty_cells[self.cursor] = 1

    # ---- hints -------------------------------------------------------------------
    def show_hint(self):
        """Light up the tile the hint moves."""
        with modules.borrowed(_HINTS) as hints:
            hints.show(self)

    def _solve_step(self, now):
        """D held: the hint's move played, and the next one lit up."""
        with modules.borrowed(_HINTS) as hints:
            direction = hints.next_push(self)
        if direction is not None:
            self.helped = True
            self.push(direction, now)
            if self.state == PLAY:
                self.show_hint()

    # ---- drawing -----------------------------------------------------------------
    def status_text(self):
        """The status line: a message, else what the screen is doing."""
        if self.thinking:
            return "THINKING..."
        if self.message:
            return self.message
        if self.state == WON:
            return "SOLVED!"
        if self.preview:
            return "PICTURE"
        if self.cursor_on:
            return "CURSOR MODE"
        return "%d-PUZZLE" % (self.cell_count - 1)

    def help_lines(self):
        """The help lines that fit what the screen is doing."""
        if self.cursor_on and not self.preview:
            return _HELP_CURSOR
        if self.picture_mode is not None:
            return self.picture_mode.help_lines(self)
        return HELP

    def draw(self, display):
        fb = display.fb
        state = self.state
        if state == ASK:
            if self.dirty:
                puzzle_draw.board(self, fb)
                puzzle_draw.panel(self, fb)
                draw.ask(fb, "New game?")
        elif state == WON and self.picture_mode is not None and \
                time.ticks_diff(self.hal.clock.now(), self.banner.start) < 0:
            puzzle_draw.whole_picture(self, fb)    # solved: the finished picture first
        elif state != PLAY:
            self.draw_banner(fb)
        elif self.picture_mode is not None and self.preview:
            puzzle_draw.whole_picture(self, fb)
        elif self.dirty:
            puzzle_draw.board(self, fb)
            puzzle_draw.panel(self, fb)
        # the panel waits a frame after cells: the display sends one span of
        # columns per page, and a cell and the counter on the same page would
        # make it cover everything between them
        elif not puzzle_draw.changed_cells(self, fb):
            puzzle_draw.panel(self, fb)
