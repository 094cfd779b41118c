# Why this module is long (~600 lines): the board, the CPU's turn and the overlays'
# state in one screen (the overlays and the end already live in modules of their
# own); more helpers behind a small public surface is the next step.
"""The Reversi screen (after the LED-matrix Reversi; World Othello Federation
rules): two players on one board, a player against the CPU at three levels
with the CPU taking either colour, and a CPU-against-CPU demo.

Keys
  stick   move the cursor (auto-repeat)
  A       place a disc on the cursor's square (an illegal square sounds
          an alert, as on the LED matrix, and changes nothing); on a pass
          notice: pass; in the game menu: choose; after the end: a new game
  B       back to the menu (the game is saved); in the game menu: back to
          the game; on "Surrender?": no
  C or E  the game menu: Resume, Undo, Surrender (asks first), Mode
          (2 players / you black / you white / CPU demo), New game

The board takes the left 64x64: 8 px cells, white discs filled, black discs
hollow rings, dots between cells; a small plus marks the legal moves (the
"hints" setting), a plus inside the last disc placed marks the last
move; flipped discs blink for ~300 ms. The right side shows the disc counts
beside each colour's disc and name (so the rings read as Black), whose turn
it is, the mode and level, the result at the end (with the empty squares
the winner gets, as the rules count them), and the keys.

The CPU never freezes the board without notice: "thinks" is drawn and flushed
first, and the search runs on the next frame under the CPU's time budget
(hard: under 2 s on the ESP32), keeping the sound going from its progress
callback.
"""
import random
import time

import framebuf
from micropython import const

from firmware import modules
from firmware.games.reversi import Reversi, BLACK, WHITE, PASS, MOVE_STRIDE, square
from firmware.hal.controls import A, B, C, E, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import GameScreen, BACK, STATUS_LINE, HELP_LINE, ALL_FIELDS
from firmware.ui import WIDTH, HEIGHT, tinyfont

# What the arcade knows of this game without importing it (firmware/gamelist.py).
GAME = {
    "title": "Reversi",
    "icon": b"\x3c\x42\x81\x81\xff\xff\x7e\x3c",
    "save": "reversi",
    # (name, label, values, default, where an older firmware kept it)
    "settings": (
        ("hints", "Show moves", ((True, "on"), (False, "off")), True, "settings/reversi_hints"),
        ("level", "CPU level", ((0, "easy"), (1, "medium"), (2, "hard")), 1,
         "settings/reversi_level"),
        ("mode", "Mode", ((0, "2 players"), (1, "you black"), (2, "you white"), (3, "CPU demo")),
         1, "reversi_prefs/mode"),
    ),
    # wins, draws and losses per CPU level ("Reversi easy"): (field, label, kind, shown as)
    "records": (("won", "won", "count", "number"), ("drawn", "drawn", "count", "number"),
                ("lost", "lost", "count", "number")),
    # make bench's heap rows besides the plain one: (entry, row, settings)
    "bench": {"rows": (("Reversi", "hard", {"level": 2}),)},
}

# Heap: names that no other module reads are `_NAME = const(int)` (no module
# global), and string and picture tables are literals where they are used
# (constants of the compiled code) rather than module globals.

# the last mode, for the next new game, is the setting "mode"

# modes (tests use the numbers)
_TWO_PLAYERS = const(0)
_YOU_BLACK = const(1)        # the CPU plays white
_YOU_WHITE = const(2)        # the CPU plays black
_DEMO = const(3)             # CPU against CPU

_PLAY = const(0)
_OVER = const(1)

# overlays drawn over the board
_OV_NONE = const(0)
_OV_PASS = const(1)
_OV_MENU = const(2)

# (the game menu, the surrender question, the pass notice: screens/reversi_menu.py)
_M_RESUME = const(0)

_CELL = const(8)
_BORDER_X = const(64)        # a line between the board and the panel
_PANEL_X = const(66)

_FLIP_MS = const(300)        # flipped discs blink this long...
_FLIP_STEP_MS = const(75)    # ...changing colour this often
_BLINK_ON_MS = const(500)    # the cursor frame: shown, then hidden
_BLINK_MS = const(750)
_CPU_DELAY_MS = const(250)   # the CPU replies after the flips have shown
_DEMO_DELAY_MS = const(700)  # a demo goes slowly enough to follow
_DEMO_RESTART_MS = const(5000)
_SPIN_MS = const(150)

# the panel's own fields (bits of self.panel, after the base's status and help lines)
_P_COUNTS = const(4)
_P_MODE = const(8)

# bits of self.cells[square]
_C_HINT = const(1)           # a hint is shown there (bit 1: _hints' new one)
_C_PAINT = const(4)          # repaint the square


_SAVE_CHECKS = "firmware.screens.save_checks"   # the save schemas: borrowed to load a save


def _menu():
    """The overlays' module (firmware.screens.reversi_menu), imported when
    one opens and let go when it closes (modules.forget)."""
    from firmware.screens import reversi_menu
    return reversi_menu


class Game(GameScreen):
    title = "Reversi"

    def __init__(self, app, save="reversi", settings=None, **options):
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        # a node budget for the CPU (tests); None: the CPU's own defaults
        self.node_budget = options.get("node_budget")
        # 7x7 pictures, MONO_HLSB (one byte a row, MSB leftmost)
        bits = (b"\x38\x7c\xfe\xfe\xfe\x7c\x38"    # 0 white disc
                b"\x38\x7c\xee\xc6\xee\x7c\x38"    # 1 the last: a plus-shaped hole
                b"\x38\x44\x82\x82\x82\x44\x38"    # 2 black disc: a ring
                b"\x38\x44\x92\xba\x92\x44\x38"    # 3 the last: a plus inside
                b"\x00\x00\x10\x38\x10\x00\x00")   # 4 a hint
        self.pics = tuple(framebuf.FrameBuffer(bytearray(bits[i:i + 7]), 7, 7, framebuf.MONO_HLSB)
                          for i in range(0, 35, 7))
        self.game = Reversi()
        self.ai = None
        self.moves = bytearray(MOVE_STRIDE)
        # per square: bit 0 (_C_HINT) a hint shown, bit 2 (_C_PAINT) repaint it
        self.cells = bytearray(100)
        self.marked = False                # some square is marked in self.cells
        self.flips = bytearray(24)         # the squares flipped by the last move
        self.flip_n = 0
        self.flip_t = 0
        self.flip_phase = 0
        self.last_sq = 0                   # the last move drawn with a mark
        self.cx = 3
        self.cy = 2
        self.blink_t = self.hal.clock.now()
        self.cursor_shown = False
        self.cursor_drawn = -1             # row * 8 + col of the frame drawn (-1: none)
        self.state = _PLAY
        self.overlay = _OV_NONE
        self.ov_dirty = False
        self.menu_i = 0
        self.overlay_t = 0
        self.thinking = False
        self.spin = 0
        self.spin_t = 0
        self.cpu_at = 0
        self.over_t = 0
        self.resigned = 0                  # the colour that surrendered
        self.outcome = ""                  # "won" / "lost" / "drawn" against the CPU
        self.dirty = True
        self.level = self.settings["level"]
        self.rated = True                  # one vs-CPU mode all game: results count
        self.mode = self.settings["mode"]
        if not self.resume():
            self.new_game(self.blink_t)

    # ---- games ---------------------------------------------------------------
    def check_progress(self, data):
        with modules.borrowed(_SAVE_CHECKS) as checks:   # only while a save loads
            checks.reversi(data)

    def restore(self, data):
        mode = data["mode"]
        level = data["level"]
        try:
            saved = data["game"]
            if saved.get("start"):
                # a set-up position: only tests and tools make them
                from firmware.games.reversi_tools import load
                load(self.game, saved)
            else:
                self.game.load(saved)
        except (ValueError, IndexError):   # IllegalMove is a ValueError
            self.game.reset()
            raise                          # resume() sets the save aside
        if self.game.is_game_over():
            self.game.reset()
            return False
        self.mode = mode
        self.level = level
        self.rated = data.get("rated", False)
        last = self.game.last_move()
        if last:
            self.cx = last % 10 - 1
            self.cy = last // 10 - 1
        self._started(self.hal.clock.now())
        return True

    def new_game(self, now):
        self.game.reset()
        self.level = self.settings["level"]
        self.rated = True
        self.cx = 3
        self.cy = 2
        self._started(now)
        self.save()

    def _started(self, now):
        modules.forget("firmware.screens.reversi_end")
        self.state = _PLAY
        self.overlay = _OV_NONE
        self.thinking = False
        self.resigned = 0
        self.outcome = ""
        self.flip_n = 0
        self.last_sq = self.game.last_move() or 0
        self.cpu_at = time.ticks_add(now, _DEMO_DELAY_MS if self.mode == _DEMO else _CPU_DELAY_MS)
        self._hints()
        self.redraw()

    def progress(self):
        """The game in progress (saved after every move); None when there is none."""
        d = self.game.to_dict()
        if self.state != _PLAY or not (d["moves"] or "start" in d):
            return None
        return {"v": 1, "game": d, "mode": self.mode, "level": self.level, "rated": self.rated}

    def redraw(self):
        GameScreen.redraw(self)
        self.ov_dirty = True

    def cpu_plays(self, colour):
        m = self.mode
        return m == _DEMO or (m == _YOU_BLACK and colour == WHITE) or (m == _YOU_WHITE and colour == BLACK)

    # ---- moves ---------------------------------------------------------------
    def _mark(self, sq):
        self.cells[sq] |= _C_PAINT
        self.marked = True

    def _hints(self):
        """Which squares show a hint: the legal moves of a human to move.
        Bit 0 of cells[sq]: shown now; bit 1: a hint from now on."""
        g = self.game
        cells = self.cells
        moves = self.moves
        show = (self.state == _PLAY and self.settings["hints"]
                and not self.cpu_plays(g.turn))
        n = g.gen_moves(moves, 0) if show else 0
        for i in range(n):
            cells[moves[i]] |= 2
        for sq in range(11, 89):
            c = cells[sq]
            h = c & 3
            if h == 1 or h == 2:
                c |= _C_PAINT
                self.marked = True
            cells[sq] = (c & _C_PAINT) | (h >> 1)

    def place(self, move, now):
        """A human's move; an illegal square sounds and changes nothing."""
        g = self.game
        if self.state != _PLAY or g.flips_for(move) == 0:
            self.hal.sound.sfx("illegal")
            self.say("NOT LEGAL", now)
            return False
        self._end_flips()
        g.push(move)
        self._moved(now)
        return True

    def _moved(self, now):
        """After a move (or a pass): flips blink, click, save, the end?"""
        g = self.game
        self._end_flips()
        if self.last_sq:
            self._mark(self.last_sq)
        last = g.last_move()
        self.last_sq = last or 0
        if last:
            self._mark(last)
            fl = g.last_flips()
            n = min(len(fl), len(self.flips))
            for i in range(n):
                self.flips[i] = fl[i]
                self._mark(fl[i])
            self.flip_n = n
            self.flip_t = now
            self.flip_phase = 0
            self.hal.sound.click()
        self.panel |= _P_COUNTS | STATUS_LINE
        self.cpu_at = time.ticks_add(now, _DEMO_DELAY_MS if self.mode == _DEMO else _CPU_DELAY_MS)
        if g.is_game_over():
            self.finish(now)
        else:
            self.save()
        self._hints()

    def _end_flips(self):
        if self.flip_n:
            for i in range(self.flip_n):
                self._mark(self.flips[i])
            self.flip_n = 0

    def finish(self, now):
        """The end (firmware.screens.reversi_end, imported only now)."""
        from firmware.screens import reversi_end
        reversi_end.finish(self, now)
        self._hints()
        self.redraw()

    # ---- the CPU ---------------------------------------------------------------
    def _ai(self):
        if self.ai is None or self.ai.level != self.level:
            self.ai = None
            from firmware.games.reversi_ai import Ai
            self.ai = Ai(self.level, node_budget=self.node_budget,
                         progress=self._progress, rng=random)
        return self.ai

    def drop_ai(self):
        """Heap: the Ai and its module (firmware.games.reversi_ai) go while
        the CPU does not search (an overlay, two players, the end); _ai()
        brings them back."""
        self.ai = None
        modules.forget("firmware.games.reversi_ai")

    def _progress(self, ai):
        """Called every few dozen nodes while the CPU thinks: the sound goes
        on and a spinner turns, so the board never looks frozen."""
        now = time.ticks_ms()
        self.hal.sound.update(now)
        if time.ticks_diff(now, self.spin_t) >= _SPIN_MS:
            self.spin_t = now
            self.spin = (self.spin + 1) & 3
            display = self.hal.display
            self._draw_spinner(display.fb)
            display.flush()
        return False

    def _cpu_move(self, now):
        g = self.game
        self.spin_t = now
        move = self._ai().choose(g)
        self.thinking = False
        self.panel |= STATUS_LINE
        if move is None:                   # cannot happen while the game goes on
            return
        now = time.ticks_ms()
        if move == PASS:
            g.pass_turn()
        else:
            g.push(move)
        self._moved(now)

    # ---- the frame -----------------------------------------------------------
    def update(self, now):
        c = self.hal.controls
        self._tick(now)
        if self.overlay:                   # (B there: back to the game, or no)
            r = _menu().update(self, c, now)
            if not self.overlay:
                # the overlays' code goes, and the drawing helpers it
                # brought (the board and panel do not use them)
                modules.forget("firmware.screens.reversi_menu")
                modules.forget("firmware.ui.draw")
            return r
        if c.just_pressed(B):
            return BACK
        if c.just_pressed(C) or c.just_pressed(E):
            self.overlay = _OV_MENU
            self.drop_ai()                 # heap: no search while an overlay shows
            self.menu_i = _M_RESUME
            self.ov_dirty = True
            self.hal.sound.sfx("select")
            return None
        self._stick(c)
        g = self.game
        if self.state == _OVER:
            if c.just_pressed(A) or (self.mode == _DEMO and
                                     time.ticks_diff(now, self.over_t) >= _DEMO_RESTART_MS):
                self.new_game(now)
            return None
        if self.flip_n:
            if c.just_pressed(A) and not self.cpu_plays(g.turn):
                self.place(square(self.cx, self.cy), now)
            return None                    # the CPU and a pass wait for the flips
        if g.must_pass():
            self.overlay = _OV_PASS
            self.drop_ai()
            self.overlay_t = now
            self.ov_dirty = True
            return None
        if self.cpu_plays(g.turn):
            if self.thinking:              # "thinks" is on the panel: search now
                self._cpu_move(now)
            elif time.ticks_diff(now, self.cpu_at) >= 0:
                self.thinking = True
                self.panel |= STATUS_LINE
            return None
        if c.just_pressed(A):
            self.place(square(self.cx, self.cy), now)
        return None

    def _tick(self, now):
        """Timers: the flips, the cursor's blink, messages."""
        if self.flip_n:
            t = time.ticks_diff(now, self.flip_t)
            if t >= _FLIP_MS:
                self._end_flips()
            elif t // _FLIP_STEP_MS != self.flip_phase:
                self.flip_phase = t // _FLIP_STEP_MS
                for i in range(self.flip_n):
                    self._mark(self.flips[i])
        shown = time.ticks_diff(now, self.blink_t) % _BLINK_MS < _BLINK_ON_MS
        self.cursor_shown = shown and self.state == _PLAY
        self.turn_lines(now)

    def _stick(self, c):
        x, y = self.cx, self.cy
        if c.repeat(LEFT) and x > 0:
            x -= 1
        elif c.repeat(RIGHT) and x < 7:
            x += 1
        elif c.repeat(UP) and y > 0:
            y -= 1
        elif c.repeat(DOWN) and y < 7:
            y += 1
        if x != self.cx or y != self.cy:
            self.cx, self.cy = x, y
            self.blink_t = self.hal.clock.now()   # the frame shows at once where it went
            self.cursor_shown = self.state == _PLAY

    # ---- drawing ---------------------------------------------------------------
    def draw(self, display):
        fb = display.fb
        if self.overlay and not self.dirty:
            # the board and the panel wait under the box: closing it repaints all
            if self.ov_dirty:
                self.ov_dirty = False
                _menu().draw(self, fb)
            return
        if self.dirty:
            self.dirty = False
            fb.fill(0)
            for y in range(0, HEIGHT, _CELL):
                for x in range(0, _BORDER_X, _CELL):
                    fb.pixel(x, y, 1)
            fb.vline(_BORDER_X, 0, HEIGHT, 1)
            for sq in range(11, 89):
                if 0 < sq % 10 < 9:
                    self._draw_square(fb, sq)
            self.marked = False
            self.cursor_drawn = -1
            self.panel = ALL_FIELDS
        elif self.marked:
            self.marked = False
            cells = self.cells
            for sq in range(11, 89):
                if cells[sq] & _C_PAINT:
                    self._draw_square(fb, sq)
        if self.panel:
            self._draw_panel(fb)
        if self.overlay:
            self.ov_dirty = False
            _menu().draw(self, fb)
        else:
            self._draw_cursor(fb)

    def _draw_square(self, fb, sq):
        self.cells[sq] &= _C_HINT
        g = self.game
        p = g.board[sq]
        x = (sq % 10 - 1) * _CELL + 1
        y = (sq // 10 - 1) * _CELL + 1
        if p and self.flip_n and (self.flip_phase & 1) == 0:
            for i in range(self.flip_n):   # a flipped disc blinks its old colour
                if self.flips[i] == sq:
                    p = 3 - p
                    break
        pics = self.pics
        if p == WHITE:
            fb.blit(pics[1] if sq == self.last_sq else pics[0], x, y)
        elif p == BLACK:
            fb.blit(pics[3] if sq == self.last_sq else pics[2], x, y)
        elif self.cells[sq]:
            fb.blit(pics[4], x, y)
        else:
            fb.fill_rect(x, y, 7, 7, 0)

    def _draw_cursor(self, fb):
        want = self.cy * 8 + self.cx if self.cursor_shown else -1
        old = self.cursor_drawn
        if want == old:
            return
        if old >= 0:                       # erase: the frame runs only over the grid dots
            x = (old & 7) * _CELL
            y = (old >> 3) * _CELL
            fb.rect(x, y, _CELL + 1, _CELL + 1, 0)
            fb.pixel(x, y, 1)
            fb.pixel(x + _CELL, y, 1)
            if y + _CELL < HEIGHT:
                fb.pixel(x, y + _CELL, 1)
                fb.pixel(x + _CELL, y + _CELL, 1)
            fb.vline(_BORDER_X, 0, HEIGHT, 1)
        if want >= 0:
            fb.rect(self.cx * _CELL, self.cy * _CELL, _CELL + 1, _CELL + 1, 1)
        self.cursor_drawn = want

    def _draw_panel(self, fb):
        bits = self.panel
        self.panel = 0
        g = self.game
        x = _PANEL_X
        if bits & _P_COUNTS:
            # a small arrow (whose turn), the disc, the count, the colour's
            # name beside its disc (the convention said on screen), who plays it
            for colour, y in ((BLACK, 1), (WHITE, 11)):
                fb.fill_rect(x, y - 1, WIDTH - _PANEL_X, 10, 0)
                if self.state == _PLAY and g.turn == colour:
                    fb.vline(x, y + 1, 5, 1)
                    fb.vline(x + 1, y + 2, 3, 1)
                    fb.pixel(x + 2, y + 3, 1)
                fb.blit(self.pics[0 if colour == WHITE else 2], x + 4, y)
                n = g.count(colour)
                tinyfont.text(fb, "%d" % n, x + (18 if n < 10 else 13), y, 1, 2)
                tinyfont.text(fb, "BLACK" if colour == BLACK else "WHITE", x + 25, y + 1)
                if self.mode != _TWO_PLAYERS:
                    tinyfont.text(fb, "CPU" if self.cpu_plays(colour) else "YOU", x + 49, y + 1)
        if bits & _P_MODE:
            fb.fill_rect(x, 21, WIDTH - _PANEL_X, 6, 0)
            if self.mode == _TWO_PLAYERS:
                text = "2 PLAYERS"
            else:                                       # reversi_ai.LEVEL_NAMES
                text = ("DEMO " if self.mode == _DEMO else "CPU ") + ("easy", "medium", "hard")[self.level]
            tinyfont.text(fb, text, x, 21)
        if bits & STATUS_LINE:
            fb.fill_rect(x, 28, WIDTH - _PANEL_X, 29, 0)
            line1, line2, detail, note = self._status()
            fb.text(line1, x, 29, 1)
            fb.text(line2, x, 38, 1)
            if note:                       # two small lines under the big ones
                tinyfont.text(fb, detail, x, 46)
                tinyfont.text(fb, note, x, 52)
            else:
                tinyfont.text(fb, detail, x, 49)
            if self.thinking:
                self._draw_spinner(fb)
        if bits & HELP_LINE:
            fb.fill_rect(x, 57, WIDTH - _PANEL_X, 7, 0)
            if self.state == _OVER:
                lines = ("A NEW  B MENU", "C GAME MENU")
            elif self.mode == _DEMO:       # the CPU plays both: no A
                lines = ("B MENU", "C GAME MENU")
            else:
                lines = ("A PLACE  B MENU", "C GAME MENU")
            tinyfont.text(fb, self.help_line(lines), x, 58)

    def _status(self):
        g = self.game
        if self.state == _OVER:
            from firmware.screens import reversi_end
            return reversi_end.status(self)
        turn = "Black" if g.turn == BLACK else "White"
        if self.message:
            detail = self.message
        elif self.thinking:
            detail = "THINKING..."
        elif self.mode != _TWO_PLAYERS and not self.cpu_plays(g.turn):
            detail = "YOUR MOVE"
        else:
            detail = ""
        if self.thinking:
            return turn, "thinks", detail, ""
        return turn, "to move", detail, ""

    def _draw_spinner(self, fb):
        x = 120
        y = 49
        fb.fill_rect(x, y, 5, 5, 0)
        s = self.spin
        fb.fill_rect(x + (2 if s == 1 or s == 2 else 0), y + (2 if s >= 2 else 0), 3, 3, 1)
