# Why this module is long (~250 lines): one object, the Reversi screen made a
# link game (whose turn it is, moves to and from the radio, the friend who
# goes quiet, the saves that bring a game back after a power cut); pairing
# is in link_lobby (a program of its own), the protocol in games/link.py,
# the radio in hal/radio.py.
"""Play a friend: Reversi on two boards over the radio (ESP-NOW), each player
on their own board. The menu entry "Play a friend" (and Reversi's mode
"link") opens this game's program: a linked game saved is continued;
otherwise the lobby's program (firmware.screens.link_lobby) pairs the two
boards first, and starts this one again with the pairing in its launch note
(the inviter plays Black). So the lobby's code and the game's never share
a heap: each is a program of its own, on a fresh heap.

The game is Reversi's play on the board (firmware.screens.reversi_shared's
Play, as on one board: firmware.screens.reversi) with these changes:
  - only the player whose turn it is places a disc (the other board says
    FRIEND'S TURN); hints, the illegal-square alert and the end count are
    the one-board game's;
  - each move goes to the other board with its number and the whole
    position (firmware.games.link.Session, through Reversi's side of it,
    firmware.games.reversi_link.LinkedReversi) and comes back acknowledged;
  - the game is saved after every move with the session, the friend and the
    move number: after a power cut on either side, Continue (or this entry)
    picks it up and the two boards carry on from the later move;
  - a friend not heard for ~5 s: "Waiting for ML4M-3F2A" offers keep
    waiting, save and leave (Continue brings it back), or the CPU plays the
    friend's side: the game goes on in Reversi's own program, against the
    CPU (firmware.screens.link_boxes), and the linked game stays saved as
    it was, for the friend; B always leaves (the game is saved);
  - no undo (C) and no surrender: the friend's board has the moves too; the
    pause menu (E) has the hints and the CPU level (if the CPU steps in);
  - the results count in Records, under "Friends"; after the end, A pairs
    again (the lobby).

The radio is on only while this screen is: suspend() (leaving, or the panel
going to sleep) turns it off, and the next frame turns it on again.
"""
import time

from micropython import const

from firmware.games.link import MOVED, QUIET
from firmware.games.reversi import BLACK, PASS
from firmware.games import reversi_link
from firmware.hal.controls import A
from firmware.screens.base import STATUS_LINE
from firmware.screens.reversi_shared import (
    Play, RECORDS, LEVEL_NAMES, TWO_PLAYERS, PLAY, OVER)

GAME = {
    "title": "Play a friend",
    "icon": b"\x66\x99\x99\x66\x00\x24\x42\x81",     # two discs, and the waves between
    "save": "link",
    # Reversi's "hints" and "level" (for when the CPU takes over: link_boxes),
    # written here: Reversi's declaration is one board's module, which a
    # linked game's program does not load; then the mode: linked, always
    "settings": (
        ("hints", "Show moves", ((True, "on"), (False, "off")), True),
        ("level", "CPU level", tuple(enumerate(LEVEL_NAMES)), 1),
        ("mode", None, ((TWO_PLAYERS, "linked"),), TWO_PLAYERS),
    ),
    "at_once": ("hints", "level"),     # the pause menu (E) changes them in the game on show
    "records": RECORDS,   # won, drawn, lost: as Reversi's
}

LOBBY = ["firmware.screens.link_lobby", "Lobby"]   # the lobby's program (App.open)
_ENDS = const("firmware.screens.link_ends")   # borrowed while a game starts, saves and ends
_BOXES = const("firmware.screens.link_boxes")   # held while the code or "Waiting for" shows;
                                                # borrowed when a field of the panel changes
_SAVE_CHECKS = const("firmware.screens.save_checks")   # borrowed while a save loads
_TYPE_CHECKING = const(False)   # Session for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.games.link import Session


class Game(Play):
    title = "Play a friend"
    help_lines = ("A PLACE  B LEAVE",)   # the pause menu's Keys (no undo, no game menu here)
    # set by link_ends; declared for make check (no code on the board)
    session: "Session | None"

    def __init__(self, app, save="link", settings=None, paired=None, **options):
        from firmware.hal.radio import Radio
        self.radio = Radio(app.hal.board)   # (on from the first frame)
        self.paired = paired               # the lobby's pairing, until the game starts
        self.session = None
        self.colour = BLACK
        self.peer_name = ""
        self.code = ""                 # the pairing code, on show until the first move
        self.waiting = False           # the "Waiting for" box on show
        self.wait_i = 0
        self.replacing = False         # "CPU plays" asking before it replaces Reversi's game
        self.box_dirty = False
        Play.__init__(self, app, save=save, settings=settings, **options)

    # ---- the radio -------------------------------------------------------------
    def suspend(self):
        Play.suspend(self)
        self.radio.stop()

    # ---- the linked game: from the lobby's pairing, or from the save -------------
    def new_game(self, now):
        with self.borrow(_ENDS) as ends:       # only while a game starts
            ends.new_game(self, now)

    # ---- saves -----------------------------------------------------------------
    def progress(self):
        if self.session is None or self.state != PLAY:
            return None
        with self.borrow(_ENDS) as ends:       # at each save, for a moment
            return ends.progress(self)

    def check_progress(self, data):
        with self.borrow(_SAVE_CHECKS) as checks:   # only while a save loads
            checks.link(data)

    def restore(self, data):
        with self.borrow(_ENDS) as ends:
            return ends.restore(self, data)

    # ---- the game's side of the Session (firmware.games.link) ------------------
    def position_into(self, buf, off):
        reversi_link.position_into(self.game, buf, off)

    def play(self, move):
        """The friend's move by the rules: False when it is illegal."""
        return reversi_link.play(self.game, move)

    def set_position(self, data, off):
        reversi_link.set_position(self.game, data, off)

    def moved(self, number, move):
        """A move made here or taken from the friend (the Session): saved,
        and the friend's shown. Ours is the one the Session has pending (sent,
        not acknowledged yet); when it takes the friend's, none is."""
        self.code = ""
        if self.session.pending:
            self.save()
            return
        now = self.hal.clock.now()
        self.app.idle_since = now             # the friend's move wakes the panel
        Play.after_move(self, now)
        self.redraw()                         # (their position may have been taken whole)

    # ---- whose turn ----------------------------------------------------------
    def human(self, colour):
        return colour == self.colour

    def place(self, move, now):
        if self.session is not None and self.game.turn != self.colour and self.state == PLAY:
            self.hal.sound.sfx("illegal")
            self.say("FRIEND'S TURN", now)
            return False
        return Play.place(self, move, now)

    def after_move(self, now):
        Play.after_move(self, now)     # flips, click, save, the end
        if self.session is not None:
            last = self.game.last_move()
            self.session.play(last or PASS, now)   # numbered, saved, sent

    def undo_move(self, now):
        """C: no undo in a shared game (the friend's board has the move)."""
        if self.session is None:
            return
        self.hal.sound.sfx("illegal")
        self.say("NO UNDO: LINKED", now)

    def resumed(self, paused_ms):
        """Back from the pause menu: the friend was not listened to meanwhile,
        so the quiet clock starts again rather than counting the pause."""
        Play.resumed(self, paused_ms)
        if self.session is not None and self.session.heard_at is not None:
            self.session.heard_at = time.ticks_add(self.session.heard_at, paused_ms)

    def open_overlay(self, overlay, now):
        """The pass notice, the one overlay here (no surrender), when we
        must pass: the friend's board passes for them."""
        if self.game.turn == self.colour:
            Play.open_overlay(self, overlay, now)

    def finish(self, now):
        """The end as in a one-board game, then the result against the friend."""
        Play.finish(self, now)
        if self.session is not None:
            with self.borrow(_ENDS) as ends:   # only while a game ends
                ends.finish(self)

    # ---- the frame -----------------------------------------------------------
    def update(self, now):
        controls = self.hal.controls
        if not self.radio.on:                  # the first frame, or back from a suspend
            try:
                self.radio.start()
            except (ValueError, OSError):      # none here, or it failed: the lobby's program says why
                self.app.leave({"open": LOBBY})
        session = self.session
        events = session.update(now)           # (the friend's move: moved(), shown there)
        if events & QUIET:                     # the friend went quiet, or is back:
            self.helper(_BOXES).quiet(self, now)   # the box opens or closes
        if events & MOVED:
            self.panel |= STATUS_LINE
        if self.waiting or self.code:          # a box on show: its keys
            return self.helper(_BOXES).keys(self, now)
        if self.state == OVER and session.pending and controls.just_pressed(A):
            self.say("SENDING...", now)        # the last move is not there yet
            return None
        return Play.update(self, now)

    def draw(self, display):
        fb = display.fb
        if self.waiting or self.code:          # a box over the board
            self.helper(_BOXES).draw(self, fb)
            return
        self.let_go(_BOXES)                    # (nothing, when no box showed)
        fields = self.panel
        Play.draw(self, display)
        if fields:                             # the link's words on Reversi's panel
            with self.borrow(_BOXES) as boxes:   # only when some field changed
                boxes.panel(self, fb, fields)
