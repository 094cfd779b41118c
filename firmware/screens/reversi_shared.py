"""What Reversi's two screens share: the play on the board (Play), and the
modes, states, overlays, CPU levels' names, the CPU's pace and who plays
which colour, which their helpers (firmware/screens/reversi_*.py) share too.
Always loaded.

The play on the board (after the LED-matrix Reversi; World Othello
Federation rules) is the cursor, a disc placed, the flips, the hints, the
pass notice, the end and the drawing. Two screens are this play with their
own parts, and neither one's parts are in the other's program:
  firmware.screens.reversi  a game on one board: two players, a player
                            against the CPU, the CPU's demo; undo, surrender
  firmware.screens.link     a game with a friend on another board (Play a
                            friend)

Keys
  stick   move the cursor (auto-repeat)
  A       place a disc on the cursor's square (an illegal square sounds
          an alert, as on the LED matrix, and changes nothing); on a pass
          notice: pass; after the end: a new game
  B       back to the menu (the game is saved); on an overlay: back to the
          game, or no
  C       undo, where the game has it (undo_move)

The play is split by job, each helper given the screen as `screen: "Play"`
(what they use of it, make check checks):
  reversi_draw    the board and the panel (held, but let go while an overlay
                  covers them)
  reversi_start   a new game, a saved one back (borrowed only then)
  reversi_menu    the overlays (held while one shows)
  reversi_end     the end of a game (borrowed only then)
"""
import time

from micropython import const

from firmware.games.reversi import BLACK, WHITE, Reversi, square
from firmware.hal.controls import A, B, C, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import GameScreen, BACK, STATUS_LINE, FIRST_FIELD

# modes: who plays which colour (the number is saved, in the game and in the
# "mode" setting, whose names one board's GAME gives: firmware/screens/reversi.py)
TWO_PLAYERS = const(0)
YOU_BLACK = const(1)         # the CPU plays white
YOU_WHITE = const(2)         # the CPU plays black
DEMO = const(3)              # CPU against CPU
LINK = const(4)              # with a friend on another board: a new game opens
                             # Play a friend (firmware/screens/link.py), never
                             # a mode of a game on this screen

# the help line while a person plays (the pause menu's Keys shows it too)
HELP = ("A PLACE  B MENU", "C UNDO  E PAUSE")

# won, drawn and lost, in Records (GAME["records"]: (field, label, kind, shown as)):
# Reversi's and Play a friend's
RECORDS = (("won", "won", "count", "number"), ("drawn", "drawn", "count", "number"),
           ("lost", "lost", "count", "number"))

# the CPU levels (firmware.games.reversi_ai: EASY, MEDIUM, HARD)
LEVEL_NAMES = ("easy", "medium", "hard")

# the screen's state
PLAY = const(0)
OVER = const(1)

# what covers the board (firmware.screens.reversi_menu draws them)
NO_OVERLAY = const(0)
PASS_NOTICE = const(1)
SURRENDER_QUESTION = const(3)

# bits of screen.cells[square]
HINT = const(1)              # a hint is shown there
PAINT = const(4)             # repaint the square

# the panel's own fields (bits of screen.panel, after GameScreen's lines)
COUNTS = FIRST_FIELD         # the disc counts, whose turn
MODE = FIRST_FIELD << 1      # the mode and the CPU's level

# Heap: private names are `_NAME = const(int)` (README: "Why the code looks like this").
_CPU_DELAY_MS = const(250)   # the CPU replies after the flips have shown
DEMO_DELAY_MS = const(700)   # a demo goes slowly enough to follow
_FLIP_MS = const(300)        # flipped discs blink this long...
_FLIP_STEP_MS = const(75)    # ...changing colour this often
_BLINK_ON_MS = const(500)    # the cursor frame: shown, then hidden
_BLINK_MS = const(750)


def colour_name(colour):
    return "Black" if colour == BLACK else "White"


def person_against_cpu(mode):
    """The colour a person plays against the CPU in mode; 0 when nobody
    does (two players, or the demo)."""
    if mode == YOU_BLACK:
        return BLACK
    if mode == YOU_WHITE:
        return WHITE
    return 0


def cpu_delay_ms(mode):
    """How long the CPU waits before its move: slower in the demo."""
    return DEMO_DELAY_MS if mode == DEMO else _CPU_DELAY_MS


class Play(GameScreen):
    title = "Reversi"
    help_lines = HELP
    timers = ("flip_t", "blink_t", "overlay_t", "cpu_at", "over_t")   # (the pause menu)
    # The screen's fields, given their first values by reversi_start.set_up
    # (its code is needed once, so it is not held during play); declared
    # here for make check (no code on the board).
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
    cpu_at: int               # when the CPU may move
    over_t: int
    resigned: int             # the colour that surrendered
    outcome: str              # "won" / "lost" / "drawn" against the CPU
    end_lines: tuple          # the panel's status lines after the end (reversi_end)
    level: int                # the CPU's level
    rated: bool               # one vs-CPU mode all game: results count
    mode: int                 # the last mode, for the next new game

    def __init__(self, app, save=None, settings=None, **options):
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        with self.borrow("firmware.screens.reversi_start") as start:   # only now
            start.set_up(self)
        if not self.resume():
            self.new_game(self.blink_t)

    # ---- games ---------------------------------------------------------------
    def restore(self, data):
        # only while a game starts
        with self.borrow("firmware.screens.reversi_start") as start:
            return start.restore(self, data)

    def new_game(self, now):
        with self.borrow("firmware.screens.reversi_start") as start:
            start.new_game(self, now)

    def redraw(self):
        GameScreen.redraw(self)
        self.overlay_dirty = True

    def human(self, colour):
        """True when a person on this board plays colour (here: both; one
        board's game has the CPU, a linked game the friend)."""
        return True

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
        self.cpu_at = time.ticks_add(now, cpu_delay_ms(self.mode))   # (the CPU's, on one board)
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

    def undo_move(self, now):
        """C: back a move, in a game that has undo (firmware.screens.reversi)."""

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
            if controls.just_pressed(A):
                self.new_game(now)
            return None
        if self.flip_n:
            if controls.just_pressed(A) and self.human(game.turn):
                self.place(square(self.cx, self.cy), now)
            return None                    # the CPU and a pass wait for the flips
        if game.must_pass():
            self.open_overlay(PASS_NOTICE, now)
            return None
        if self.cpu_turn(now):
            return None
        if controls.just_pressed(A):
            self.place(square(self.cx, self.cy), now)
        return None

    def cpu_turn(self, now):
        """True when the CPU has the move (then A places nothing): only ever
        on one board (firmware.screens.reversi)."""
        return False

    def open_overlay(self, overlay, now):
        """Cover the board with an overlay (reversi_shared: PASS_NOTICE, ...)."""
        self.overlay = overlay
        self.overlay_t = now
        self.overlay_dirty = True

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
