"""The 2048 screen (after the curses 2048, with the original game's rules from
firmware/games/game2048.py and the expectimax player of firmware/games/ai2048.py).

Keys
  stick   slide the tiles (one move per push; hold and nothing repeats)
  A       new game (asks "New game?" first while a game is running: A yes, B no)
  B       back to the menu (the game is saved)
  C       undo the last move (board, score and the new tile)
  D       hint: "THINKING..." then an arrow and the direction; hold D: the
          computer plays (a move every 250 ms) until D is let go

A move animates in three frames (firmware.screens.g2048_draw); a push
during the animation cuts it short. The best score and best tile are kept in
the records under "2048" (app.records: read when a game ends or is left).

The screen is the game's state and its keys; its helpers take it as
`screen: "Game"` (what they use of it, make check checks):
  g2048_draw   the tiles, the animation, the panel, and the constants the
               helpers share with the screen (always loaded)
  g2048_hint   the hint and the demo (borrowed for each); the AI it asks is
               held from the first search until D is let go
  g2048_end    the banners (borrowed when a game ends)
"""
import random
import time

from micropython import const

from firmware.games.game2048 import Game2048, LEFT, RIGHT, UP, DOWN
from firmware.hal import controls
from firmware.hal.controls import A, B, C, D
from firmware.screens.base import GameScreen, BACK, STATUS_LINE
# every frame draws with g2048_draw
from firmware.screens.g2048_draw import (
    SCORE_FIELD, BEST_FIELD, MOVES_FIELD, HELP, forget_cells, draw_board, draw_play)

_TYPE_CHECKING = const(False)   # for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.games.ai2048 import Expectimax

# What the arcade knows of this game without importing it (firmware/gamelist.py).
GAME = {
    "title": "2048",
    "icon": b"\x00\xee\xaa\xee\x00\xee\xaa\xee",
    "save": "g2048",
    # (field, label, kind, shown as), kept under the title
    "records": (("best score", "score", "highest", "number"),
                ("best tile", "tile", "highest", "number")),
}

_PLAY = const(0)
_WON = const(1)       # the win screen: keep going?
_OVER = const(2)      # no move left
_ASK = const(3)       # "New game?"

_ANIM_MS = const(100)       # the animation never lasts longer than this
_BRIGHT_MERGE = const(9)    # a merge into 512 or more: the brighter sound

# the stick's directions, and the rules' direction each one slides toward
_PUSHES = ((controls.LEFT, LEFT), (controls.RIGHT, RIGHT), (controls.UP, UP),
           (controls.DOWN, DOWN))


def _pushed(c):
    """The rules' direction the stick was just pushed toward, or -1."""
    for key, direction in _PUSHES:
        if c.just_pressed(key):
            return direction
    return -1


class Game(GameScreen):
    title = "2048"
    # set by g2048_hint; declared for make check (no code on the board)
    player: "Expectimax | None"
    help_lines = HELP
    timers = ("demo_next",)                 # the demo's next move waits out a pause

    def __init__(self, app, save="g2048", settings=None, **options):
        GameScreen.__init__(self, app, save=save, settings=settings, **options)
        self.animate = options.get("animate", True)
        self.game = Game2048(random)
        self.state = _PLAY
        self.pending = _PLAY                # the end the game reached, shown after the animation
        self.player = None                  # the expectimax, made on the first hint
        self.hint_nodes = options.get("hint_nodes")
        self.demo_nodes = options.get("demo_nodes")
        self.hint = -1
        self.thinking = False
        self.demo = False
        self.demo_next = None               # set by a D press on this screen
        self.new_record = False
        self.shown = bytearray(16)
        self.board_before = bytearray(16)
        self.animation = 0
        self.animation_start = 0
        rec = app.records.get(self.title)
        best = rec.get("best score", 0) if isinstance(rec, dict) else 0
        self.best = best if isinstance(best, int) else 0
        if not self.resume():
            self.new_game(self.hal.clock.now())

    # ---- games ------------------------------------------------------------------
    def check_progress(self, data):
        with self.borrow("firmware.screens.save_checks") as checks:   # only while a save loads
            checks.g2048(data)

    def restore(self, data):
        # a game the rules refuse raises ValueError: resume() sets the save aside
        self.game.from_dict(data["game"])
        game = self.game
        if game.moves == 0 or game.is_over():
            return False
        if game.won and not game.keep_going:
            # the win screen as it was left: no scroll, no flashes
            self._end_game(_WON, time.ticks_add(self.hal.clock.now(), -5000))
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
        self.animation = 0
        self.new_record = False
        self.save()
        self.redraw()

    def progress(self):
        """The game in progress (saved after every move); None when there is none."""
        game = self.game
        if game.moves == 0 or self.state == _OVER or self.pending == _OVER:
            return None
        return {"game": game.to_dict()}

    def _keep_records(self):
        game = self.game
        if not (game.score or game.moves):
            return                       # nothing played: the records are not even read
        records = self.app.records       # read now, and let go when this returns
        if game.score and records.best(self.title, "best score", game.score,
                                       lower_is_better=False):
            self.new_record = True
            self.best = game.score
        if game.moves:
            records.best(self.title, "best tile", game.max_tile(), lower_is_better=False)

    def suspend(self):
        self._keep_records()
        GameScreen.suspend(self)

    # ---- moves ------------------------------------------------------------------
    def move(self, d, now):
        """Slide toward d (the rules' direction); True if the board changed."""
        game = self.game
        self.board_before[:] = game.board
        if not game.slide(d):
            self.hal.sound.tone(196, 40)    # nothing moved: a soft low blip
            self.say("NO MOVE", now)
            return False
        if game.last_merge_max >= _BRIGHT_MERGE:
            self.hal.sound.sfx("merge")
        else:
            self.hal.sound.click()
        if game.score > self.best:        # (BEST shows the higher of the two)
            self.panel |= BEST_FIELD
        self.panel |= SCORE_FIELD | MOVES_FIELD
        self._after_move(now)
        if game.won and not game.keep_going:
            self.pending = _WON
            self.hal.sound.sfx("win")
        elif game.is_over():
            self.pending = _OVER
            self.hal.sound.sfx("lose")
        self.save()
        if self.pending != _PLAY:
            self._keep_records()
        if self.animate:
            self.animation = 1
            self.animation_start = now
        return True

    def _after_move(self, now):
        """A move or an undo: the hint and the message go, the help line stays."""
        if self.hint >= 0 or self.message:
            self.hint = -1
            self.message = ""
            self.panel |= STATUS_LINE
        self.keep_help(now)

    def undo(self, now):
        self.animation = 0
        if self.game.undo():
            self.hal.sound.click()
            self.panel |= SCORE_FIELD | BEST_FIELD | MOVES_FIELD   # an undone score was not kept
            self._after_move(now)
            self.say("UNDONE", now)
            self.save()
        else:
            self.hal.sound.tone(196, 40)
            self.say("NO UNDO", now)

    def _end_game(self, state, now):
        """The win (_WON) or no move left (_OVER), and its banner."""
        self.state = state
        self.demo = False
        # borrowed: the banner keeps the code it needs, and it goes with the banner
        with self.borrow("firmware.screens.g2048_end") as end:
            if state == _WON:
                self.show_banner(end.win_banner(self, now))
            else:
                self.show_banner(end.game_over_banner(self, now))

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
                    self.game.keep_going = True
                    self.state = _PLAY
                    self.show_banner(None)
                    self.save()
                    self.redraw()
                else:
                    self.new_game(now)
            return None

        if self.animation and time.ticks_diff(now, self.animation_start) >= _ANIM_MS:
            self.animation = 0              # a slow frame: straight to the end
        if self.animation == 0 and self.pending != _PLAY:
            self._end_game(self.pending, now)
            self.pending = _PLAY
            return None

        self.turn_lines(now)

        if self.thinking:                   # the frame after D showed "THINKING..."
            with self.borrow("firmware.screens.g2048_hint") as hint:
                hint.show(self)
            return None
        if not c.pressed(D):
            # the hint or the demo is over: the AI and its code go until the next D
            self.player = None
            self.let_go("firmware.games.ai2048")

        if c.just_pressed(A):
            if self.game.moves:
                self.state = _ASK
                self.animation = 0
                self.redraw()
            else:
                self.new_game(now)
            return None
        if c.just_pressed(C):
            self.undo(now)
            return None
        if c.just_pressed(D):
            self._ask_hint(now)
            return None
        if c.pressed(D):
            # (demo_next None: no D press here, or no memory)
            if self.demo_next is not None and time.ticks_diff(now, self.demo_next) >= 0:
                with self.borrow("firmware.screens.g2048_hint") as hint:
                    hint.play(self, now)
            return None
        if self.demo:
            self.demo = False
            self.panel |= STATUS_LINE
        d = _pushed(c)
        if d >= 0:
            self.animation = 0              # a push cuts the animation short
            self.move(d, now)
        return None

    def _ask_hint(self, now):
        """D pressed: "THINKING..." now, the search on the next frame. The
        AI is a help, not the game: with no memory for its code, a note."""
        try:
            with self.borrow("firmware.screens.g2048_hint") as hint:
                hint.ask(self, now)
        except MemoryError:
            self.demo_next = None           # nor a demo while D stays down
            self.say("NO MEM FOR HINT", now)

    # ---- drawing (firmware.screens.g2048_draw) ---------------------------------
    def draw(self, display):
        fb = display.fb
        state = self.state
        if state == _WON or state == _OVER:
            self.draw_banner(fb)
            return
        if self.repaint(fb):
            forget_cells(self)
            if state == _ASK:
                draw_board(self, fb)
                with self.borrow("firmware.ui.draw") as draw:
                    draw.ask(fb, "New game?")
                return
        elif state == _ASK:
            return
        draw_play(self, fb)
