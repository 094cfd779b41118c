"""The Reversi screen: a game on one board (after the LED-matrix Reversi;
World Othello Federation rules): two players, a player against the CPU at
three levels with the CPU taking either colour, and a CPU-against-CPU demo.
The play on the board (cursor, discs, flips, hints, the pass notice, the
end, the drawing) is firmware.screens.reversi_shared's Play, which Play a
friend (firmware.screens.link) is too; this module is what one board adds
to it, so a linked game's program holds none of it.

Keys (besides the play's: firmware.screens.reversi_shared)
  C       undo: back one move (two players) or to the person's last turn
  E       the game menu: Resume, Undo, Surrender (asks first; B: no), Mode
          (2 players / you black / you white / CPU demo), New game

One board's helpers, each given the screen as `screen: "Game"`:
  reversi_cpu     the CPU's move, with its search (borrowed only then)
  reversi_menu    the pause menu's rows: Undo, Surrender and the settings
                  changed at once (borrowed); the surrender question
"""
import time

from micropython import const

from firmware.screens.base import STATUS_LINE
from firmware.screens.reversi_shared import (
    Play, RECORDS, LEVEL_NAMES, TWO_PLAYERS, DEMO, OVER, PLAY, person_against_cpu)

# What the arcade knows of this game without importing it (firmware/gamelist.py).
GAME = {
    "title": "Reversi",
    "icon": b"\x3c\x42\x81\x81\xff\xff\x7e\x3c",
    "save": "reversi",
    # (name, label, values, default, where an older firmware kept it)
    "settings": (
        ("hints", "Show moves", ((True, "on"), (False, "off")), True, "settings/reversi_hints"),
        ("level", "CPU level", tuple(enumerate(LEVEL_NAMES)), 1, "settings/reversi_level"),
        # the modes in their numbers' order (reversi_shared: TWO_PLAYERS, YOU_BLACK...);
        # one constant tuple of texts, which are not names on the board
        ("mode", "Mode", tuple(enumerate(("2 players", "you black", "you white", "CPU demo",
                                          "link"))), 1, "reversi_prefs/mode"),
    ),
    # the pause menu (E): its own rows, and the settings it changes in the game on show
    "actions": (("Undo", "undo_move"), ("Surrender", "surrender")),
    "at_once": ("hints", "level", "mode"),
    # wins, draws and losses per CPU level ("Reversi easy")
    "records": RECORDS,
    # make bench's heap rows besides the plain one: (entry, row, settings)
    "bench": {"rows": (("Reversi", "hard", {"level": 2}),)},
}

# Heap: private names are `_NAME = const(int)` (README: "Why the code looks like this").
_DEMO_RESTART_MS = const(5000)
_CPU_RETRY_MS = const(2000)  # no memory for the CPU's move: it tries again after this


class Game(Play):
    node_budget = None        # a node budget for the CPU (tests set one); None: its own
    # one board's own field, declared for make check (no code on the board)
    spin: int                 # the spinner's step while the CPU thinks (reversi_cpu)

    # ---- games ---------------------------------------------------------------
    def check_progress(self, data):
        with self.borrow("firmware.screens.save_checks") as checks:   # only while a save loads
            checks.reversi(data)

    def progress(self):
        """The game in progress (saved after every move); None when there is none."""
        data = self.game.to_dict()
        if self.state != PLAY or not (data["moves"] or "start" in data):
            return None
        return {"v": 1, "game": data, "mode": self.mode, "level": self.level, "rated": self.rated}

    def human(self, colour):
        return not self.cpu_plays(colour)

    def cpu_plays(self, colour):
        """True when the CPU plays colour in this game's mode."""
        mode = self.mode
        if mode == TWO_PLAYERS:
            return False
        return mode == DEMO or colour != person_against_cpu(mode)

    # ---- the frame -----------------------------------------------------------
    def update(self, now):
        if self.state == OVER and self.mode == DEMO and \
                time.ticks_diff(now, self.over_t) >= _DEMO_RESTART_MS:
            self.new_game(now)             # the demo plays on by itself
        return Play.update(self, now)

    def cpu_turn(self, now):
        """The CPU's move, when it plays the side to move: "thinks" on the
        panel once its time has come, the search in the next frame."""
        if not self.cpu_plays(self.game.turn):
            return False
        if self.thinking:                  # "thinks" is on the panel: search now
            self._cpu_move(now)
        elif time.ticks_diff(now, self.cpu_at) >= 0:
            self.thinking = True
            self.panel |= STATUS_LINE
        return True

    def _cpu_move(self, now):
        """The CPU's move (reversi_cpu, borrowed for it). With no memory for
        its search, the board goes back to where the search began (it plays
        on the game itself), the player is told, and the CPU tries again in
        a moment: late in a long session the heap may be too broken up for a
        while, and the game in progress is never lost to a crash screen.
        (The retry is here, not in reversi_cpu: there may be no memory to
        import it.)"""
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
