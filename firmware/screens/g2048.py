# Why this module is long (~540 lines): one game screen with its animation, hint,
# demo and panel; moving its helpers behind a small public surface of the screen is
# the next step of the readability work.
"""The 2048 screen (after the curses 2048, with the original game's rules from
firmware/games/game2048.py and the expectimax player of firmware/games/ai2048.py).

Keys
  stick   slide the tiles (one move per push; hold and nothing repeats)
  A       new game (asks "New game?" first while a game is running: A yes, B no)
  B       back to the menu (the game is saved)
  C       undo the last move (board, score and the new tile)
  D       hint: "THINKING..." then an arrow and the direction; hold D: the
          computer plays (a move every 250 ms) until D is let go

The left 64x64 holds the 4x4 tiles, 16x16 each (a 15x15 box with cut
corners and a one-pixel gap). How a tile shows its number:
  2 .. 64          outlined box, 4x7 digits
  128 .. 512       outlined box, 3x5 digits
  1K .. 64K        filled box, 4x7 digits and K in black: "1K" "2K" ... "64K"
                   (K = 1024: 1024 is 1K, 16384 is 16K), one number at a glance
  128K             filled box, 3x5 ("128K": 131072, the largest tile a 4x4
                   board can hold)
A tile made by a merge flashes in the other style for one frame.

On the right: score, best score (app.records "2048": "best score", "best
tile"), the move count, the hint or a message, and the keys (turning over
while the player pauses).

A move animates in three frames (under 100 ms at 30 fps): the tiles half-way
to where they go, the new board with the merged tiles flashing, the new board
with the new tile. A push during the animation cuts it short. Only what
changed is sent to the panel (the display compares with what it shows).
"""
import random
import time

from micropython import const

from firmware import modules
from firmware.games.game2048 import Game2048, NO_CELL
from firmware.hal.controls import A, B, C, D, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import GameScreen, BACK, STATUS_LINE, HELP_LINE, ALL_FIELDS
from firmware.ui import WIDTH, HEIGHT, draw, tinyfont

# What the arcade knows of this game without importing it (firmware/gamelist.py).
GAME = {
    "title": "2048",
    "icon": b"\x00\xee\xaa\xee\x00\xee\xaa\xee",
    "save": "g2048",
    # (field, label, kind, shown as), kept under RECORD_KEY
    "records": (("best score", "score", "highest", "number"),
                ("best tile", "tile", "highest", "number")),
}

RECORD_KEY = "2048"

_PANEL_X = const(66)
_CELL = const(16)
_BOX = const(15)

_PLAY = const(0)
_WON = const(1)       # the win screen: keep going?
_OVER = const(2)      # no move left
_ASK = const(3)       # "New game?"

_HINT_MS = const(1000)      # the hint's search budget on the board
_DEMO_MS = const(150)       # each demo move's budget on the board
_DEMO_HOLD_MS = const(600)  # D held this long: the demo plays
_DEMO_STEP_MS = const(250)  # a demo move every this many ms
_ANIM_MS = const(100)       # the animation never lasts longer than this
_BRIGHT_MERGE = const(9)    # a merge into 512 or more: the brighter sound

# Hints and the demo stop at the AI's node cap (ai2048.BOARD_NODES), the
# setting its strength benchmark measures (and ~35 ms on the ESP32); the time
# budgets above are only a safety net. The same cap on the PC keeps the
# emulator (whose clock stands still while Python computes) deterministic.

# the panel's own fields (bits of self.panel, after the base's status and help lines)
_P_SCORE = const(4)
_P_BEST = const(8)
_P_MOVES = const(16)

_STICK = (LEFT, RIGHT, UP, DOWN)    # index = the rules' direction
_WORDS = ("LEFT", "RIGHT", "UP", "DOWN")
_HELP = ("A NEW  B MENU", "C UNDO  D HINT", "HOLD D: DEMO")
# 8x8 arrows, rows MSB-left, per direction
_ARROWS = (
    b"\x10\x30\x7f\xff\x7f\x30\x10\x00",
    b"\x08\x0c\xfe\xff\xfe\x0c\x08\x00",
    b"\x18\x3c\x7e\xff\x18\x18\x18\x18",
    b"\x18\x18\x18\x18\xff\x7e\x3c\x18",
)


# What a tile of exponent e shows (1: "2" ... 17: "128K"): constant strings,
# interned with the module, none made at run time.
_LABELS = ("", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1K", "2K",
           "4K", "8K", "16K", "32K", "64K", "128K")


def tile_label(e):
    """The number a tile of exponent e stands for, as shown (1: "2" ... 10: "1K" ...
    17: "128K")."""
    return _LABELS[e]


_SAVE_CHECKS = "firmware.screens.save_checks"   # the save schemas: borrowed to load a save


def _banner(display, over, lines, now):
    """The end-of-game banner: "You Win", or "Game Over" on two lines (one
    line would be wider than the panel). firmware.ui.banner is imported
    here, when a game ends: it is not needed (nor held) while playing."""
    from firmware.ui.banner import Banner, big_text

    class _OverBanner(Banner):
        def draw(self, fb):
            fb.fill(0)
            x = 32
            if self.elapsed < 800:
                x = WIDTH - 96 * self.elapsed // 800
            big_text(fb, "Game", x, 0)
            big_text(fb, "Over", x, 17)
            y = 36
            for line in self.details:
                draw.centred(fb, line, y)
                y += 10

    if over:
        return _OverBanner(display, "Game Over", lines, now)
    return Banner(display, "You Win", lines, now)


class Game(GameScreen):
    title = "2048"

    def __init__(self, app, save="g2048", settings=None, **options):
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        self.store = self.hal.store
        self.records = app.records
        self.animate = options.get("animate", True)
        self.game = Game2048(random)
        self.state = _PLAY
        self.player = None                  # the expectimax, made on the first hint
        self.hint_nodes = options.get("hint_nodes")   # None: the AI's own cap
        self.demo_nodes = options.get("demo_nodes")
        self.hint = -1                      # direction shown, -1 none
        self.thinking = False
        self.demo = False
        self.demo_next = None               # set by a D press on this screen
        self.new_record = False
        now = self.hal.clock.now()
        # drawing
        self.shown = bytearray(16)          # what each cell shows: exponent | 32 flash, 255 unknown
        self.prev = bytearray(16)           # the board before the last move (animation)
        self.anim = 0                       # animation frame to draw next, 0: none
        self.anim_start = 0
        self.pending = _PLAY                # the end of the game waits for the animation
        rec = self.records.get(RECORD_KEY)
        best = rec.get("best score", 0) if isinstance(rec, dict) else 0
        self.best = best if isinstance(best, int) else 0
        if not self.resume():
            self.new_game(now)

    # ---- games ------------------------------------------------------------------
    def check_progress(self, data):
        with modules.borrowed(_SAVE_CHECKS) as checks:   # only while a save loads
            checks.g2048(data)

    def restore(self, data):
        now = self.hal.clock.now()
        # a game the rules refuse raises ValueError: resume() sets the save aside
        self.game.from_dict(data["game"])
        g = self.game
        if g.moves == 0 or g.is_over():
            return False
        if g.won and not g.keep_going:
            self._win_screen(time.ticks_add(now, -5000))   # no scroll, no flashes
        return True

    def new_game(self, now):
        self._keep_records()
        self.game.new_game()
        self.state = _PLAY
        self.pending = _PLAY
        self.show_banner(None)
        self.hal.display.invert(False)
        self.hint = -1
        self.thinking = False
        self.demo = False
        self.anim = 0
        self.new_record = False
        self.save()
        self.redraw()

    def progress(self):
        """The game in progress (saved after every move); None when there is none."""
        g = self.game
        if g.moves == 0 or self.state == _OVER or self.pending == _OVER:
            return None
        return {"game": g.to_dict()}

    def _keep_records(self):
        g = self.game
        if g.score and self.records.best(RECORD_KEY, "best score", g.score, lower_is_better=False):
            self.new_record = True
        if g.moves:
            self.records.best(RECORD_KEY, "best tile", g.max_tile(), lower_is_better=False)

    def suspend(self):
        self._keep_records()
        GameScreen.suspend(self)

    # ---- moves ------------------------------------------------------------------
    def move(self, d, now):
        """Slide toward d (the rules' direction); True if the board changed."""
        g = self.game
        self.prev[:] = g.board
        if not g.slide(d):
            self.hal.sound.tone(196, 40)    # nothing moved: a soft low blip
            self.say("NO MOVE", now)
            return False
        if g.last_merge_max >= _BRIGHT_MERGE:
            self.hal.sound.sfx("merge")
        else:
            self.hal.sound.click()
        if g.score > self.best:
            self.best = g.score
            self.panel |= _P_BEST
        self.panel |= _P_SCORE | _P_MOVES
        self._moved(now)
        if g.won and not g.keep_going:
            self.pending = _WON
            self.hal.sound.sfx("win")
        elif g.is_over():
            self.pending = _OVER
            self.hal.sound.sfx("lose")
        self.save()
        if self.pending != _PLAY:
            self._keep_records()
        if self.animate:
            self.anim = 1
            self.anim_start = now
        return True

    def _moved(self, now):
        if self.hint >= 0 or self.message:
            self.hint = -1
            self.message = ""
            self.panel |= STATUS_LINE
        self.keep_help(now)

    def undo(self, now):
        self.anim = 0
        if self.game.undo():
            self.hal.sound.click()
            self.panel |= _P_SCORE | _P_MOVES
            self._moved(now)
            self.say("UNDONE", now)
            self.save()
        else:
            self.hal.sound.tone(196, 40)
            self.say("NO UNDO", now)

    def _search(self, nodes, ms):
        """The AI's move (-1 none). The AI is a help, not the game: with no
        memory for it (a long session's heap), the player is told and the
        game goes on."""
        try:
            from firmware.games import ai2048 as ai   # imported on the first hint
            if self.player is None:
                self.player = ai.Expectimax()
            p = self.player
            p.max_nodes = ai.BOARD_NODES if nodes is None else nodes
            p.budget_ms = ms
            return p.best_move(self.game.board)
        except MemoryError:
            self.player = None
            self.demo = False
            self.say("NO MEM FOR HINT", self.hal.clock.now())
            return -1

    # ---- the end of a game -------------------------------------------------------
    def _win_screen(self, now):
        self.state = _WON
        self.demo = False
        lines = ("score %d" % self.game.score, "Keep going?", "A:yes B:menu")
        self.show_banner(_banner(self.hal.display, False, lines, now))

    def _over_screen(self, now):
        self.state = _OVER
        self.demo = False
        g = self.game
        first = "New record!" if self.new_record else "best %d" % self.best
        lines = ("score %d" % g.score, first, "A:new B:menu")
        self.show_banner(_banner(self.hal.display, True, lines, now))

    # ---- the frame ---------------------------------------------------------------
    def update(self, now):
        c = self.hal.controls
        state = self.state
        if state == _ASK:
            if c.just_pressed(A):
                self.new_game(now)
            elif c.just_pressed(B):
                self.state = _PLAY
                self.redraw()
            return None
        if c.just_pressed(B):
            return BACK
        if state != _PLAY:
            self.banner.update(now)
            if c.just_pressed(A):
                self.banner.skip(now)
                if state == _WON:
                    self.game.continue_playing()
                    self.state = _PLAY
                    self.save()
                    self.redraw()
                else:
                    self.new_game(now)
            return None

        if self.anim and time.ticks_diff(now, self.anim_start) >= _ANIM_MS:
            self.anim = 0                   # a slow frame: straight to the end
        if self.anim == 0 and self.pending != _PLAY:
            if self.pending == _WON:
                self._win_screen(now)
            else:
                self._over_screen(now)
            self.pending = _PLAY
            return None

        self.turn_lines(now)

        if self.player is not None and not c.pressed(D):
            # the hint or the demo is over: let the searcher (its 4 KB line
            # cache) go until the next one; it warms up again in a few ms
            self.player = None
        if self.thinking:                   # the frame after D showed "THINKING..."
            self.thinking = False
            self.hint = self._search(self.hint_nodes, _HINT_MS)
            self.panel |= STATUS_LINE
            return None

        if c.just_pressed(A):
            if self.game.moves:
                self.state = _ASK
                self.anim = 0
                self.dirty = True
            else:
                self.new_game(now)
            return None
        if c.just_pressed(C):
            self.undo(now)
            return None
        if c.just_pressed(D):
            self.thinking = True
            self.hint = -1
            self.panel |= STATUS_LINE
            self.demo_next = time.ticks_add(now, _DEMO_HOLD_MS)
            return None
        if c.pressed(D):
            # a D held since before the screen opened is no request (and
            # a tick compared with 0 would depend on the counter's phase)
            if self.demo_next is not None and time.ticks_diff(now, self.demo_next) >= 0:
                if not self.demo:
                    self.demo = True
                    self.panel |= STATUS_LINE
                self.demo_next = time.ticks_add(now, _DEMO_STEP_MS)
                d = self._search(self.demo_nodes, _DEMO_MS)
                if d >= 0:
                    self.move(d, now)
                    self.hint = d
                    self.panel |= STATUS_LINE
            return None
        if self.demo:
            self.demo = False
            self.panel |= STATUS_LINE
        for d in range(4):
            if c.just_pressed(_STICK[d]):
                self.anim = 0               # a push cuts the animation short
                self.move(d, now)
                break
        return None

    # ---- drawing -----------------------------------------------------------------
    def draw(self, display):
        fb = display.fb
        state = self.state
        if state == _WON or state == _OVER:
            self.draw_banner(fb)
            return
        if self.dirty:
            self.dirty = False
            fb.fill(0)
            for i in range(16):
                self.shown[i] = 255
            self.panel = ALL_FIELDS
            if state == _ASK:
                self._draw_board(fb, 0)
                draw.ask(fb, "New game?")
                return
        elif state == _ASK:
            return
        anim = self.anim
        if anim == 1:
            self.anim = 2
            self._draw_slide(fb)
            return
        if anim == 2:
            self.anim = 3
            self._draw_board(fb, 2)
            return
        if anim == 3:
            self.anim = 0
        if self._draw_board(fb, 0):
            # the panel waits a frame: the display sends one span of columns
            # per page, and a cell and a panel field on the same page would
            # make it send everything between them
            return
        if self.panel:
            self._draw_panel(fb)

    def _draw_board(self, fb, flash):
        """Cells that differ from what they show; flash=2: merged tiles flash and
        the new tile waits. True if any cell was drawn."""
        g = self.game
        b = g.board
        shown = self.shown
        merged = g.merged
        spawn = g.spawn_at
        drew = False
        for i in range(16):
            e = b[i]
            if flash:
                if i == spawn:
                    e = 0
                elif merged[i]:
                    e |= 32
            if shown[i] != e:
                shown[i] = e
                _draw_tile(fb, (i & 3) * _CELL, (i >> 2) * _CELL, e & 31, e & 32)
                drew = True
        return drew

    def _draw_slide(self, fb):
        """The tiles half-way from where they were to where they go."""
        prev = self.prev
        moved_to = self.game.moved_to
        fb.fill_rect(0, 0, HEIGHT, HEIGHT, 0)   # the board: the panel's left square
        for i in range(16):
            self.shown[i] = 255
            if not prev[i]:
                fb.pixel((i & 3) * _CELL + 7, (i >> 2) * _CELL + 7, 1)
        for i in range(16):
            e = prev[i]
            j = moved_to[i]
            if e and j != NO_CELL:
                x = ((i & 3) + (j & 3)) * _CELL // 2
                y = ((i >> 2) + (j >> 2)) * _CELL // 2
                _draw_tile(fb, x, y, e, 0)

    def _draw_panel(self, fb):
        bits = self.panel
        self.panel = 0
        x = _PANEL_X
        g = self.game
        if bits & _P_SCORE:
            fb.fill_rect(x, 0, WIDTH - _PANEL_X, 14, 0)
            tinyfont.text(fb, "SCORE", x, 0)
            fb.text(str(g.score), x, 6, 1)
        if bits & _P_BEST:
            fb.fill_rect(x, 16, WIDTH - _PANEL_X, 14, 0)
            tinyfont.text(fb, "BEST", x, 16)
            fb.text(str(self.best if self.best > g.score else g.score), x, 22, 1)
        if bits & _P_MOVES:
            fb.fill_rect(x, 32, WIDTH - _PANEL_X, 6, 0)
            tinyfont.text(fb, "MOVES %d" % g.moves, x, 32)
        if bits & STATUS_LINE:
            fb.fill_rect(x, 40, WIDTH - _PANEL_X, 16, 0)
            if self.thinking:
                tinyfont.text(fb, "THINKING...", x, 42)
            elif self.hint >= 0:
                draw.icon(fb, _ARROWS[self.hint], x, 40)
                fb.text(_WORDS[self.hint], x + 11, 40, 1)
                if self.demo:
                    tinyfont.text(fb, "DEMO", x, 50)
            elif self.demo:
                tinyfont.text(fb, "DEMO", x, 50)
            elif self.message:
                tinyfont.text(fb, self.message, x, 42)
        if bits & HELP_LINE:
            fb.fill_rect(x, 57, WIDTH - _PANEL_X, 7, 0)
            tinyfont.text(fb, self.help_line(_HELP), x, 58)


def _draw_tile(fb, x, y, e, flash):
    """One cell at (x, y): a dot when empty, else the tile of exponent e (see the
    module's notes); flash draws it in the other style."""
    fb.fill_rect(x, y, _CELL, _CELL, 0)
    if not e:
        fb.pixel(x + 7, y + 7, 1)
        return
    filled = e >= 10
    if flash:
        filled = not filled
    if filled:
        fb.fill_rect(x, y, _BOX, _BOX, 1)
    else:
        fb.rect(x, y, _BOX, _BOX, 1)
    fb.pixel(x, y, 0)
    fb.pixel(x + _BOX - 1, y, 0)
    fb.pixel(x, y + _BOX - 1, 0)
    fb.pixel(x + _BOX - 1, y + _BOX - 1, 0)
    colour = 0 if filled else 1
    # 4x7 digits where the label fits inside the box's border (13 pixels:
    # two digits, or up to two digits and a K), else 3x5
    size = 1 if 7 <= e <= 9 or e == 17 else 2
    tinyfont.centred(fb, _LABELS[e], x, y, _BOX, _BOX, colour, size)
