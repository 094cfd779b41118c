# Why this module is long (~330 lines): one object, the game's play and the
# CPU's turn, with drawing, start, end, overlays and the search already in
# helpers of their own.
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

The screen is split by job, each helper given the screen as `screen: "Game"`
(what they use of it, make check checks):
  reversi_shared  the modes, states, overlays and level names the screen and
                  its helpers share (always loaded)
  reversi_draw    the board and the panel (held, but let go while an overlay
                  covers them)
  reversi_start   a new game, a saved one back (borrowed only then)
  reversi_cpu     the CPU's move, with its search (borrowed only then)
  reversi_menu    the overlays: surrender question, pass notice (held while
                  one shows), and the pause menu's rows: Undo, Surrender and
                  the settings changed at once (borrowed)
  reversi_end     the end of a game (borrowed only then)
"""
import time

from micropython import const

from firmware.games.reversi import Reversi, square
from firmware.hal.controls import A, B, C, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import GameScreen, BACK, STATUS_LINE
from firmware.screens.reversi_shared import (
    LEVEL_NAMES, MODE_NAMES, DEMO, PLAY, OVER, NO_OVERLAY, PASS_NOTICE,
    HINT, PAINT, COUNTS, HELP, cpu_plays, cpu_delay_ms)

# What the arcade knows of this game without importing it (firmware/gamelist.py).
GAME = {
    "title": "Reversi",
    "icon": b"\x3c\x42\x81\x81\xff\xff\x7e\x3c",
    "save": "reversi",
    # (name, label, values, default, where an older firmware kept it)
    "settings": (
        ("hints", "Show moves", ((True, "on"), (False, "off")), True, "settings/reversi_hints"),
        ("level", "CPU level", tuple(enumerate(LEVEL_NAMES)), 1, "settings/reversi_level"),
        ("mode", "Mode", tuple(enumerate(MODE_NAMES)), 1, "reversi_prefs/mode"),
    ),
    # the pause menu (E): its own rows, and the settings it changes in the game on show
    "actions": (("Undo", "undo_move"), ("Surrender", "surrender")),
    "at_once": ("hints", "level", "mode"),
    # wins, draws and losses per CPU level ("Reversi easy"): (field, label, kind, shown as)
    "records": (("won", "won", "count", "number"), ("drawn", "drawn", "count", "number"),
                ("lost", "lost", "count", "number")),
    # make bench's heap rows besides the plain one: (entry, row, settings)
    "bench": {"rows": (("Reversi", "hard", {"level": 2}),)},
}

# Heap: private names are `_NAME = const(int)` (README: "Why the code looks like this").
_FLIP_MS = const(300)        # flipped discs blink this long...
_FLIP_STEP_MS = const(75)    # ...changing colour this often
_BLINK_ON_MS = const(500)    # the cursor frame: shown, then hidden
_BLINK_MS = const(750)
_DEMO_RESTART_MS = const(5000)
_CPU_RETRY_MS = const(2000)  # no memory for the CPU's move: it tries again after this


class Game(GameScreen):
    title = "Reversi"
    help_lines = HELP
    timers = ("flip_t", "blink_t", "overlay_t", "cpu_at", "over_t")   # (the pause menu)
    # The screen's fields, given their first values by reversi_start.set_up
    # (its code is needed once, so it is not held during play); declared
    # here for make check (no code on the board).
    node_budget: "int | None"  # a node budget for the CPU (tests); None: the CPU's own defaults
    game: Reversi
    moves: bytearray          # the hints' moves (gen_moves writes them here)
    cells: bytearray          # per square: the HINT and PAINT bits
    marked: bool              # some square is marked in self.cells
    flips: bytearray          # the squares flipped by the last move
    flip_n: int               # how many of them blink
    flip_t: int
    flip_phase: int
    last_sq: int              # the last move drawn with a mark
    cx: int                   # the cursor's column and row
    cy: int
    blink_t: int
    cursor_shown: bool
    cursor_drawn: int         # row * 8 + col of the frame drawn (-1: none)
    state: int                # PLAY or OVER (reversi_shared)
    overlay: int              # what covers the board (reversi_shared: NO_OVERLAY, ...)
    overlay_dirty: bool
    overlay_t: int
    thinking: bool            # "thinks" is on the panel: the CPU searches next frame
    spin: int                 # the spinner's step (reversi_cpu)
    cpu_at: int               # when the CPU may move
    over_t: int
    resigned: int             # the colour that surrendered
    outcome: str              # "won" / "lost" / "drawn" against the CPU
    end_lines: tuple          # the panel's status lines after the end (reversi_end)
    level: int                # the CPU's level
    rated: bool               # one vs-CPU mode all game: results count
    mode: int                 # the last mode, for the next new game

    def __init__(self, app, save="reversi", settings=None, **options):
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        with self.borrow("firmware.screens.reversi_start") as start:   # only now
            start.set_up(self)
        if not self.resume():
            self.new_game(self.blink_t)

    # ---- games ---------------------------------------------------------------
    def check_progress(self, data):
        with self.borrow("firmware.screens.save_checks") as checks:   # only while a save loads
            checks.reversi(data)

    def restore(self, data):
        # only while a game starts
        with self.borrow("firmware.screens.reversi_start") as start:
            return start.restore(self, data)

    def new_game(self, now):
        with self.borrow("firmware.screens.reversi_start") as start:
            start.new_game(self, now)

    def progress(self):
        """The game in progress (saved after every move); None when there is none."""
        data = self.game.to_dict()
        if self.state != PLAY or not (data["moves"] or "start" in data):
            return None
        return {"v": 1, "game": data, "mode": self.mode, "level": self.level, "rated": self.rated}

    def redraw(self):
        GameScreen.redraw(self)
        self.overlay_dirty = True

    def cpu_plays(self, colour):
        return cpu_plays(self.mode, colour)

    def human(self, colour):
        """True when a person plays colour."""
        return not cpu_plays(self.mode, colour)

    # ---- moves ---------------------------------------------------------------
    def mark(self, sq):
        """Repaint square sq on the next draw()."""
        self.cells[sq] |= PAINT
        self.marked = True

    def show_hints(self):
        """Which squares show a hint: the legal moves of a person to move."""
        game = self.game
        show = self.state == PLAY and self.settings["hints"] and self.human(game.turn)
        moves = self.moves
        n = game.gen_moves(moves, 0) if show else 0
        # bit 0 of cells[sq] (HINT): shown now; bit 1 for now: a hint from now on
        cells = self.cells
        for i in range(n):
            cells[moves[i]] |= 2
        for sq in range(11, 89):
            bits = cells[sq]
            hint = bits & 3
            if hint == 1 or hint == 2:     # shown and no longer, or the other way
                bits |= PAINT
                self.marked = True
            cells[sq] = (bits & PAINT) | (hint >> 1)

    def place(self, move, now):
        """A person's move; an illegal square sounds and changes nothing."""
        if self.state != PLAY or self.game.flips_for(move) == 0:
            self.hal.sound.sfx("illegal")
            self.say("NOT LEGAL", now)
            return False
        self.end_flips()
        self.game.push(move)
        self.after_move(now)
        return True

    def after_move(self, now):
        """After a move (or a pass): flips blink, click, save, the end?"""
        game = self.game
        self.end_flips()
        if self.last_sq:
            self.mark(self.last_sq)
        last = game.last_move()
        self.last_sq = last or 0
        if last:
            self.mark(last)
            flipped = game.last_flips()
            n = min(len(flipped), len(self.flips))
            for i in range(n):
                self.flips[i] = flipped[i]
                self.mark(flipped[i])
            self.flip_n = n
            self.flip_t = now
            self.flip_phase = 0
            self.hal.sound.click()
        self.panel |= COUNTS | STATUS_LINE
        self.cpu_at = time.ticks_add(now, cpu_delay_ms(self.mode))
        if game.is_game_over():
            self.finish(now)
        else:
            self.save()
        self.show_hints()

    def end_flips(self):
        """The flipped discs stop blinking."""
        for i in range(self.flip_n):
            self.mark(self.flips[i])
        self.flip_n = 0

    def finish(self, now):
        """The end: the result, its sound and record (reversi_end)."""
        # only while a game ends
        with self.borrow("firmware.screens.reversi_end") as end:
            end.finish(self, now)
        self.show_hints()
        self.redraw()

    # ---- the frame -----------------------------------------------------------
    def update(self, now):
        controls = self.hal.controls
        self._tick(now)
        if self.overlay:                   # (B there: back to the game, or no)
            result = self.helper("firmware.screens.reversi_menu").update(self, controls, now)
            if not self.overlay:
                # the overlays' code goes, and the drawing helpers it
                # brought (the board and panel do not use them)
                self.let_go("firmware.screens.reversi_menu")
            return result
        if controls.just_pressed(B):
            return BACK
        if controls.just_pressed(C):
            self.undo_move(now)
            return None
        self._stick(controls)
        game = self.game
        if self.state == OVER:
            if controls.just_pressed(A) or (self.mode == DEMO and
                                            time.ticks_diff(now, self.over_t) >= _DEMO_RESTART_MS):
                self.new_game(now)
            return None
        if self.flip_n:
            if controls.just_pressed(A) and self.human(game.turn):
                self.place(square(self.cx, self.cy), now)
            return None                    # the CPU and a pass wait for the flips
        if game.must_pass():
            self.open_overlay(PASS_NOTICE, now)
            return None
        if self.cpu_plays(game.turn):
            if self.thinking:              # "thinks" is on the panel: search now
                self._cpu_move(now)
            elif time.ticks_diff(now, self.cpu_at) >= 0:
                self.thinking = True
                self.panel |= STATUS_LINE
            return None
        if controls.just_pressed(A):
            self.place(square(self.cx, self.cy), now)
        return None

    def _cpu_move(self, now):
        """The CPU's move (reversi_cpu, borrowed for it). With no memory for
        its search, the board goes back to where the search began (it plays
        on the game itself), the player is told, and the CPU tries again in
        a moment: late in a long session the heap may be too broken up for a
        while, and the game in progress is never lost to a crash screen."""
        game = self.game
        ply = game.ply
        try:
            with self.borrow("firmware.screens.reversi_cpu") as cpu:
                cpu.move(self, now)
        except MemoryError:
            while game.ply > ply:
                game.pop()
            self.redraw()                  # the board as the rules have it again
            self.thinking = False
            self.cpu_at = time.ticks_add(now, _CPU_RETRY_MS)
            self.say("NO MEM: WAIT", now)

    def open_overlay(self, overlay, now):
        """Cover the board with an overlay (reversi_shared: PASS_NOTICE, ...)."""
        self.overlay = overlay
        self.overlay_t = now
        self.overlay_dirty = True

    # ---- the pause menu's rows (GAME["actions"], GAME["at_once"]) -------------
    def undo_move(self, now):
        """Back one move (two players) or to the person's last turn (C too)."""
        with self.borrow("firmware.screens.reversi_menu") as menu:
            menu.undo(self, now)

    def surrender(self, now):
        """Ask, then give the game up (the person against the CPU, or whoever is to move)."""
        with self.borrow("firmware.screens.reversi_menu") as menu:
            menu.surrender(self, now)

    def setting_changed(self, name, value):
        with self.borrow("firmware.screens.reversi_menu") as menu:
            menu.setting_changed(self, name, value, self.hal.clock.now())

    def _tick(self, now):
        """Timers: the flips, the cursor's blink, messages."""
        if self.flip_n:
            elapsed = time.ticks_diff(now, self.flip_t)
            if elapsed >= _FLIP_MS:
                self.end_flips()
            elif elapsed // _FLIP_STEP_MS != self.flip_phase:
                self.flip_phase = elapsed // _FLIP_STEP_MS
                for i in range(self.flip_n):
                    self.mark(self.flips[i])
        shown = time.ticks_diff(now, self.blink_t) % _BLINK_MS < _BLINK_ON_MS
        self.cursor_shown = shown and self.state == PLAY
        self.turn_lines(now)

    def _stick(self, controls):
        x, y = self.cx, self.cy
        if controls.repeat(LEFT) and x > 0:
            x -= 1
        elif controls.repeat(RIGHT) and x < 7:
            x += 1
        elif controls.repeat(UP) and y > 0:
            y -= 1
        elif controls.repeat(DOWN) and y < 7:
            y += 1
        if x != self.cx or y != self.cy:
            self.cx, self.cy = x, y
            self.blink_t = self.hal.clock.now()   # the frame shows at once where it went
            self.cursor_shown = self.state == PLAY

    def draw(self, display):
        fb = display.fb
        if self.overlay:
            # The board and the panel wait under the box, and their drawing
            # code is let go meanwhile (closing the box repaints them all).
            if self.dirty:
                self.helper("firmware.screens.reversi_draw").draw(self, fb)
                self.overlay_dirty = True
            self.let_go("firmware.screens.reversi_draw")
            if self.overlay_dirty:
                self.overlay_dirty = False
                self.helper("firmware.screens.reversi_menu").draw(self, fb)
            return
        board = self.helper("firmware.screens.reversi_draw")
        board.draw(self, fb)
        board.cursor(self, fb)
