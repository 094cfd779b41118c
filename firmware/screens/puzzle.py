# Why this module is long (~610 lines): one screen for three sizes and two modes
# (picture mode and the end of a game already live in modules of their own); more
# helpers behind a small public surface of the screen is the next step.
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

The grid is drawn with lines (as on the ML4M 15-puzzle); a move repaints only
the cells it touched and the panel fields that changed.
"""
import random
import time

from micropython import const

from firmware import modules
from firmware.games.npuzzle import Puzzle, Hinter
from firmware.hal.controls import A, B, C, D, E, F, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import GameScreen, STATUS_LINE, HELP_LINE, ALL_FIELDS, BACK
from firmware.ui import WIDTH, HEIGHT, draw, tinyfont

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

# Per width: the cell pitch (pixels from one grid line to the next) and the
# grid's top row. Both are chosen so that cells cross as few 8-row pages of
# the panel as they can: a move resends its two cells, page by page (a 3x3
# with a pitch of 21 filled the height, but its middle row crossed 4 pages).
_PITCH = {3: 20, 4: 15, 5: 12}
_TOP = {3: 0, 4: 1, 5: 1}
_PANEL_X = const(66)

_LEVELS = ("RANDOM", "EASY", "MEDIUM", "HARD")
_WALK = (0, 4, 12, 30)       # random-walk pushes per level, times the width

_PLAY = const(0)
_WON = const(1)
_LOST = const(2)
_ASK = const(3)              # "New game?" over a started game

_SOLVE_HOLD_MS = const(600)  # D held this long: the solution plays
_SOLVE_STEP_MS = const(250)  # ~4 moves a second
_LOST_WAIT_MS = const(700)   # after the "You Lost" banner, then a new game
_UNDO_KEPT = const(64)       # undo steps a save keeps across a restart

# the panel's own fields (bits of self.panel, after the base's status and help lines)
_P_MOVES = const(4)
_P_TIME = const(8)
_P_LEVEL = const(16)
_P_MODE = const(32)

_STICK = (LEFT, RIGHT, UP, DOWN)   # index = the rules' push direction

_HELP_NUMBERS = ("A NEW  B MENU", "C UNDO  D HINT", "HOLD D: SOLVE", "E CURSOR F LVL")
_HELP_CURSOR = ("A SLIDE  E DONE", "STICK: CURSOR")


_SAVE_CHECKS = "firmware.screens.save_checks"   # the save schemas: borrowed to load a save


_SOLVER = "firmware.games.npuzzle_solver"   # ~11 KB with its 3x3 tables: borrowed


class Game(GameScreen):
    message_ms = 2000

    def __init__(self, app, save=None, settings=None, **options):
        w = options.get("size", 4)
        save = save or "puzzle%d" % (w * w - 1)
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        self.prefs = save                  # the level and picture kept for this puzzle: <x>_<save>
        settings = self.settings
        if options.get("big_size_setting") and settings["big"] == 5:
            w = 5
        mode = settings["mode"]
        self.title = "%d-Puzzle" % (w * w - 1)
        # a game in progress keeps its own size and mode when the settings
        # changed since: they apply from the next game started here
        saved = self.load_progress()
        if saved and saved["size"] in ((4, 5) if options.get("big_size_setting") else (w,)):
            w = saved["size"]
            mode = saved["mode"]
        self.w = w
        self.n = w * w
        self.p = _PITCH[w]
        self.g = self.p * w + 1            # grid side in pixels
        self.gy = _TOP[w]
        self.mode = mode
        self.key = "%d-Puzzle %s" % (self.n - 1, self.mode)
        self.font_scale = 2 if w == 3 else 1
        self.hinter = None                 # a Hinter once a hint is asked for
        self.level = settings["level_" + self.prefs]

        self.puzzle = Puzzle(w)
        self.state = _PLAY
        self.lost_at = 0
        self.ms = 0                        # playing time of this game
        self.optimal = None                # 8-puzzle: best possible from the start
        self.helped = False                # the solver played moves (no records)
        self.game_level = self.level
        self.cursor_on = False
        self.cursor = 0
        self.hint_index = -1
        self.thinking = False
        self.solve_next = None             # set by a D press on this screen
        self.c_preview = False
        self.preview = 0                   # 0 none, 1 shown at start (timed), 2 C held
        self.preview_until = 0
        self.last = self.hal.clock.now()
        self.shown_time = -1
        self.dirty = True
        self.cells = bytearray(self.n)     # 1: repaint this cell
        self.panel = ALL_FIELDS

        # picture mode: its code lives in firmware.screens.puzzle_pictures,
        # imported only for it (a game with numbers never loads it)
        self.pics = None
        self.pictures = []                 # picture names, once picture mode is set up
        self.pic = 0
        if self.mode == "picture":
            from firmware.screens import puzzle_pictures
            self.pics = puzzle_pictures
            puzzle_pictures.setup(self, settings["picture_" + self.prefs])

        if not self.resume():
            self.new_game(self.last)

    # ---- preferences ---------------------------------------------------------------
    def _save_prefs(self):
        """The shuffle level and the picture, for the next game of this puzzle."""
        self.remember("level_" + self.prefs, self.level)
        if self.pictures:
            self.remember("picture_" + self.prefs, self.pictures[self.pic])

    # ---- games ------------------------------------------------------------------
    def check_progress(self, data):
        with modules.borrowed(_SAVE_CHECKS) as checks:   # only while a save loads
            checks.puzzle(data, len(_LEVELS))

    def restore(self, data):
        if data["size"] != self.w or data["mode"] != self.mode:
            return False            # one of another size or mode
        # a puzzle the rules refuse raises ValueError: resume() sets the save aside
        puzzle = Puzzle.from_dict(data["puzzle"])
        if puzzle.width != self.w:
            raise ValueError("puzzle width: not the save's size")
        if puzzle.is_solved():
            return False
        self.ms = data["ms"]
        self.optimal = data["optimal"]
        self.helped = data["helped"]
        self.game_level = data["level"]
        self.puzzle = puzzle
        self._cursor_home()
        return True

    def new_game(self, now):
        modules.forget("firmware.screens.puzzle_end")   # the last game's end
        p = self.puzzle
        self.game_level = self.level
        if self.level == 0:
            p.shuffle_uniform(random)
        else:
            p.shuffle_walk(random, _WALK[self.level] * self.w)
        self.optimal = None
        if self.w == 3:
            try:
                with modules.borrowed(_SOLVER) as solver:
                    self.optimal = solver.optimal_length8(p.tiles)
            except MemoryError:     # "best possible" is a bonus: the game goes on
                self.say("NO MEM FOR BEST", now)
        self.ms = 0
        self.helped = False
        if self.hinter is not None:
            self.hinter.forget()
        self.hint_index = -1
        self.thinking = False
        self.state = _PLAY
        self.show_banner(None)
        self.hal.display.invert(False)
        self.cursor_on = False
        self._cursor_home()
        self.save()
        if self.pics is not None:
            self.pics.start_preview(self, now)
        self.redraw()

    def progress(self):
        """The game in progress (saved after every move); None when there is none."""
        p = self.puzzle
        if (self.state != _PLAY and self.state != _ASK) or p.moves == 0:
            return None
        d = p.to_dict(_UNDO_KEPT)
        return {"size": self.w, "mode": self.mode, "puzzle": d, "ms": self.ms,
                "level": self.game_level, "optimal": self.optimal, "helped": self.helped}

    # ---- moves ------------------------------------------------------------------
    def _cursor_home(self):
        p = self.puzzle
        for d in range(4):
            i = p.tile_for_push(d)
            if i >= 0:
                self.cursor = i
                return

    def _mark_run(self, a, b):
        """Cells a..b along a row or column need repainting."""
        w = self.w
        if a > b:
            a, b = b, a
        step = 1 if a // w == b // w else w
        i = a
        while i <= b:
            self.cells[i] = 1
            i += step

    def _moved(self, before, now):
        """After the rules moved tiles: repaint, click, save, check for a win."""
        self._mark_run(before, self.puzzle.blank)
        if self.hint_index >= 0:
            self.cells[self.hint_index] = 1
            self.hint_index = -1
        self.cells[self.cursor] = 1
        self.panel |= _P_MOVES
        # the key help turns over only while the player pauses
        self.keep_help(now)
        self.hal.sound.click()
        if self.puzzle.is_solved():
            self.win(now)
        else:
            self.save()

    def push(self, d, now):
        before = self.puzzle.blank
        if self.puzzle.push(d):
            self._moved(before, now)
            return True
        self.nope()
        return False

    def slide(self, index, now):
        before = self.puzzle.blank
        k = self.puzzle.slide(index)
        if k:
            self._moved(before, now)
        else:
            self.nope()
        return k

    def undo(self, now):
        before = self.puzzle.blank
        if self.puzzle.undo():
            self._moved(before, now)
        else:
            self.nope()

    def nope(self):
        """A move with nothing to move: no change, a soft low blip."""
        self.hal.sound.tone(196, 40)

    # ---- the end of a game -------------------------------------------------------
    def win(self, now):
        self.show_banner(self._end().win(self, now))

    def give_up(self, now):
        self.show_banner(self._end().give_up(self, now))

    def _end(self):
        """The end's code (firmware.screens.puzzle_end), imported only now
        and forgotten when a new game starts."""
        from firmware.screens import puzzle_end
        return puzzle_end

    # ---- the frame ---------------------------------------------------------------
    def update(self, now):
        c = self.hal.controls
        dt = time.ticks_diff(now, self.last)
        self.last = now
        if self.state == _ASK:
            if c.just_pressed(A):
                self.give_up(now)
            elif c.just_pressed(B):
                self.state = _PLAY
                self.redraw()
            return None
        if c.just_pressed(B):
            return BACK
        if self.state != _PLAY:
            return self._update_banner(c, now)
        if self.puzzle.moves and 0 < dt < 250:   # time counts only while playing
            self.ms += dt
            if self.ms // 1000 != self.shown_time:
                self.panel |= _P_TIME
        self.turn_lines(now)

        if self.thinking:                  # the frame after D showed "THINKING"
            self.thinking = False
            self.panel |= STATUS_LINE
            self._show_hint()
            return None

        if self.pics is not None and self.pics.update(self, c, now):
            return None

        if c.just_pressed(E):
            self.cursor_on = not self.cursor_on
            self.cells[self.cursor] = 1
            self.panel |= STATUS_LINE | HELP_LINE
            self.help_i = 0
        if c.just_pressed(F):
            self.level = (self.level + 1) % len(_LEVELS)
            self._save_prefs()
            self.panel |= _P_LEVEL
            if self.puzzle.moves == 0:
                self.new_game(now)
            else:
                self.say("FROM NEXT GAME", now)
        if c.just_pressed(A):
            if self.cursor_on:
                self.slide(self.cursor, now)
            elif self.puzzle.moves:
                self.state = _ASK          # progress would be thrown away: ask
                self.dirty = True
            else:
                self.new_game(now)
            return None
        if self.pics is None and c.repeat(C):
            self.undo(now)
        if c.just_pressed(D):
            if self.w > 3 or self.hinter is None:
                self.thinking = True       # say so first: a stage may take a while
                self.panel |= STATUS_LINE
            else:
                self._show_hint()
            self.solve_next = time.ticks_add(now, _SOLVE_HOLD_MS)
        # a D held since before the screen opened is no request (solve_next
        # None): only a press seen here starts the solve
        elif c.pressed(D) and c.held_ms(D) >= _SOLVE_HOLD_MS and \
                self.solve_next is not None and time.ticks_diff(now, self.solve_next) >= 0:
            self.solve_next = time.ticks_add(now, _SOLVE_STEP_MS)
            d = self._hint()
            if d is not None:
                self.helped = True
                self.push(d, now)
                if self.state == _PLAY:
                    self._show_hint()
            return None
        for d in range(4):
            if c.repeat(_STICK[d]):
                if self.cursor_on:
                    self._move_cursor(d)
                elif self.state == _PLAY:
                    self.push(d, now)
                break
        return None

    def _move_cursor(self, d):
        w = self.w
        col = self.cursor % w
        row = self.cursor // w
        if d == 0:
            col = col - 1 if col > 0 else col
        elif d == 1:
            col = col + 1 if col < w - 1 else col
        elif d == 2:
            row = row - 1 if row > 0 else row
        else:
            row = row + 1 if row < w - 1 else row
        self.cells[self.cursor] = 1
        self.cursor = row * w + col
        self.cells[self.cursor] = 1

    def _hint(self):
        """The push to play next (None when solved). The Hinter keeps its plan
        between frames; the solver it imports to make a plan is let go at
        once, so the heap between frames never holds the solver and its
        tables (~11 KB), only while a plan is being made."""
        if self.hinter is None:
            self.hinter = Hinter()
        try:
            d = self.hinter.hint(self.puzzle)
        except MemoryError:         # a help, not the game: say so and go on
            self.hinter = None
            d = None
            self.say("NO MEM FOR HINT", self.hal.clock.now())
        modules.forget(_SOLVER)    # the Hinter imports it: its heap goes between hints
        return d

    def _show_hint(self):
        d = self._hint()
        if self.hint_index >= 0:
            self.cells[self.hint_index] = 1
        self.hint_index = -1 if d is None else self.puzzle.tile_for_push(d)
        if self.hint_index >= 0:
            self.cells[self.hint_index] = 1

    def _update_banner(self, c, now):
        banner = self.banner
        banner.update(now)
        if self.state == _WON:
            if c.just_pressed(A):
                if banner.finished():
                    self.new_game(now)
                else:
                    banner.skip(now)
                    self.banner_done = False
            return None
        # _LOST: a new game follows the banner
        if banner.finished():
            if not self.lost_at:
                self.lost_at = now
            if time.ticks_diff(now, self.lost_at) >= _LOST_WAIT_MS or c.just_pressed(A):
                self.lost_at = 0
                self.new_game(now)
        elif c.just_pressed(A):
            banner.skip(now)
            self.lost_at = 0
            self.new_game(now)
        return None

    # ---- drawing -----------------------------------------------------------------
    def draw(self, display):
        fb = display.fb
        state = self.state
        if state == _ASK:
            if self.dirty:
                self._draw_all(fb)
                self._draw_panel(fb)
                draw.ask(fb, "New game?")
            return
        if state == _WON and self.pics is not None and \
                time.ticks_diff(self.hal.clock.now(), self.banner.start) < 0:
            if self.dirty:                 # solved: the finished picture
                self.dirty = False
                fb.fill_rect(0, 0, _PANEL_X - 1, 64, 0)
                self.pics.draw_picture(self, fb)
                self.panel = ALL_FIELDS
            if self.panel:
                self._draw_panel(fb)
            return
        if state != _PLAY:
            self.draw_banner(fb)
            return
        pics = self.pics
        if pics is not None and self.preview:
            if self.dirty:
                self.dirty = False
                fb.fill_rect(0, 0, _PANEL_X - 1, HEIGHT, 0)
                pics.draw_picture(self, fb)
                self.panel = ALL_FIELDS
            self._draw_panel(fb)
            return
        if self.dirty:
            self._draw_all(fb)
        else:
            cells = self.cells
            drew = False
            for i in range(self.n):
                if cells[i]:
                    cells[i] = 0
                    self._draw_cell(fb, i)
                    drew = True
            if drew:
                # the panel waits a frame: the display sends one span of
                # columns per page, and a cell and the counter on the same
                # page would make it cover everything between them
                return
        if self.panel:
            self._draw_panel(fb)

    def _draw_all(self, fb):
        """The grid, every cell, and the whole panel next."""
        self.dirty = False
        fb.fill(0)
        p = self.p
        g = self.g
        gy = self.gy
        for i in range(self.w + 1):
            fb.hline(0, gy + i * p, g, 1)
            fb.vline(i * p, gy, g, 1)
        for i in range(self.n):
            self._draw_cell(fb, i)
            self.cells[i] = 0
        self.panel = ALL_FIELDS

    def _draw_cell(self, fb, i):
        p = self.p
        s = p - 1
        x = (i % self.w) * p + 1
        y = self.gy + (i // self.w) * p + 1
        tile = self.puzzle.tiles[i]
        hint = i == self.hint_index
        pics = self.pics
        if pics is not None:
            pics.draw_cell(self, fb, tile, x, y, hint, self.cursor_on and i == self.cursor)
            return
        fb.fill_rect(x, y, s, s, 1 if hint else 0)
        if tile:
            tinyfont.centred(fb, str(tile), x, y, s, s, 0 if hint else 1, 2, self.font_scale)
        if self.cursor_on and i == self.cursor:
            fb.rect(x, y, s, s, 0 if hint else 1)

    def _field(self, fb, y, h):
        fb.fill_rect(_PANEL_X, y, WIDTH - _PANEL_X, h, 0)

    def _draw_panel(self, fb):
        bits = self.panel
        self.panel = 0
        x = _PANEL_X
        if bits & _P_MOVES:
            self._field(fb, 0, 16)
            tinyfont.text(fb, "MOVES", x, 0)
            fb.text(str(self.puzzle.moves), x, 8, 1)   # one page: a move resends it
        if bits & _P_TIME:
            secs = self.ms // 1000
            self.shown_time = secs
            self._field(fb, 17, 16)
            tinyfont.text(fb, "TIME", x, 17)
            fb.text(draw.clock_text(secs), x, 24, 1)
        if bits & _P_LEVEL:
            self._field(fb, 34, 6)
            tinyfont.text(fb, "SHUFFLE " + _LEVELS[self.level], x, 34)
        if bits & _P_MODE:
            self._field(fb, 41, 6)
            if self.pics is not None:
                tinyfont.text(fb, "PICTURE %d/%d" % (self.pic + 1, len(self.pictures)), x, 41)
            else:
                tinyfont.text(fb, "NUMBERS", x, 41)
        if bits & STATUS_LINE:
            self._field(fb, 48, 6)
            if self.thinking:
                text = "THINKING..."
            elif self.message:
                text = self.message
            elif self.state == _WON:
                text = "SOLVED!"
            elif self.preview:
                text = "PICTURE"
            elif self.cursor_on:
                text = "CURSOR MODE"
            else:
                text = "%d-PUZZLE" % (self.n - 1)
            tinyfont.text(fb, text, x, 48)
        if bits & HELP_LINE:
            self._field(fb, 57, 7)
            pics = self.pics
            if self.cursor_on and not self.preview:
                lines = _HELP_CURSOR
            elif pics is not None:
                lines = pics.HELP_PREVIEW if self.preview else pics.HELP
            else:
                lines = _HELP_NUMBERS
            tinyfont.text(fb, self.help_line(lines), x, 58)
