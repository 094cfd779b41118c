"""The lobby of "Play a friend": a program of its own (firmware/launch.py),
so pairing's code never shares a heap with the linked game. The boards
heard, nearest first; A invites the one chosen, and the other board shows
the invitation (A: play, B: no). Once paired, the radio goes off and the
linked game starts in a program of its own (firmware/screens/link.py),
given the pairing in its launch note: the session, the friend, who
invited, the pairing code.

The link game's program opens this one when there is no linked game to
continue; Reversi's mode "link" opens it through the same entry.

    stick up/down  choose a board        A  invite it (or accept an invitation)
    B              back to the menu (or: no / cancel the invitation)
"""
import random

from micropython import const

from firmware.games.link_pairing import (
    Lobby as Pairing, INVITED, PAIRED, DECLINED, HEARD, board_name, pairing_code)
from firmware.games.reversi_link import GAME_ID, STATE_SIZE
from firmware.hal.controls import A, B, UP, DOWN
from firmware.hal.radio import Radio
from firmware.screens.base import Screen, BACK
from firmware.ui import draw as ui_draw, tinyfont

ENTRY = "link"            # the menu entry of the linked game (firmware/screens/link.py)
_ROWS = const(4)          # boards listed at once


class Lobby(Screen):
    def __init__(self, app, **options):
        Screen.__init__(self, app, **options)
        self.radio = Radio(app.hal.board)
        self.refused = None                   # why the radio cannot be on (the panel's words)
        self.my_name = ""
        self.lobby = None                     # the pairing (firmware.games.link_pairing)
        self.lobby_i = 0                      # the board chosen in the list
        self.dirty = True

    def _radio_on(self):
        """The radio on, and the HELLOs with it; the reason when it fails."""
        try:
            self.radio.start()
        except ValueError as e:               # no radio here, or the stick on ADC2
            self.refused = str(e)
            return
        except OSError as e:
            self.refused = "Radio failed:\n" + str(e)[:16]
            return
        self.my_name = board_name(self.radio.mac)
        if self.lobby is None:
            self.lobby = Pairing(self.radio, GAME_ID, STATE_SIZE, self.my_name)
        self.redraw()

    def suspend(self):
        self.radio.stop()       # leaving, or the panel going to sleep

    def update(self, now):
        controls = self.hal.controls
        if self.refused is None and not self.radio.on:   # the first frame, or after a suspend
            self._radio_on()
        if self.refused is not None:
            return BACK if controls.just_pressed(B) else None
        lobby = self.lobby
        events = lobby.update(now)
        if events & PAIRED:
            self._paired()
        if events & (HEARD | INVITED | DECLINED):
            self.redraw()
            if events & INVITED and lobby.invited_by is not None:
                self.hal.sound.sfx("select")
            if events & DECLINED:
                self.hal.sound.sfx("illegal")
        if lobby.invited_by is not None:
            if controls.just_pressed(A):
                lobby.accept()
                self._paired()
            elif controls.just_pressed(B):
                lobby.decline()
                self.redraw()
            return None
        if lobby.inviting is not None:
            if controls.just_pressed(B):
                lobby.cancel()
                self.redraw()
            return None
        n = len(lobby.boards)
        if self.lobby_i >= n:
            self.lobby_i = max(0, n - 1)
        if n and controls.repeat(UP) and self.lobby_i > 0:
            self.lobby_i -= 1
            self.redraw()
        elif n and controls.repeat(DOWN) and self.lobby_i < n - 1:
            self.lobby_i += 1
            self.redraw()
        if controls.just_pressed(B):
            return BACK
        if controls.just_pressed(A):
            if not n:
                self.hal.sound.sfx("illegal")
                return None
            lobby.invite(lobby.boards[self.lobby_i][0], random.getrandbits(16) ^ now, now)
            self.hal.sound.click()
            self.redraw()
        return None

    def _paired(self):
        """Paired: the radio off, and the linked game in a program of its
        own, given the pairing (never returns)."""
        lobby = self.lobby
        mine, theirs = self.radio.mac, lobby.peer
        inviter, invitee = (mine, theirs) if lobby.inviter else (theirs, mine)
        paired = {"session": lobby.session, "peer": "".join("%02x" % b for b in theirs),
                  "name": lobby.peer_name, "inviter": lobby.inviter,
                  "code": pairing_code(lobby.session, inviter, invitee)}
        self.hal.sound.sfx("select")
        self.radio.stop()
        self.lobby = None
        from firmware import gamelist
        note = gamelist.launch_note(self.app, ENTRY)
        start = note.get("start")      # (none: the game is broken, and its program says why)
        if isinstance(start, dict):
            start["options"]["paired"] = paired
        self.app.leave(note)

    def draw(self, display):
        """The whole lobby (repainted when something changed)."""
        if not self.dirty:
            return
        self.dirty = False
        fb = ui_draw.page(display, "Play a friend")
        if self.refused is not None:
            lines = self.refused.split("\n")
            for i in range(len(lines)):
                ui_draw.centred(fb, lines[i], 22 + i * 10)
            ui_draw.key_line(fb, "B BACK")
            return
        lobby = self.lobby
        if lobby is None:
            return
        tinyfont.text(fb, "YOU ARE " + self.my_name, 1, 11)
        if lobby.invited_by is not None:
            ui_draw.centred(fb, lobby.invited_by[1], 22)
            ui_draw.centred(fb, "invites you", 32)
            ui_draw.key_line(fb, "A PLAY  B NO")
            return
        if lobby.inviting is not None:
            ui_draw.centred(fb, "Inviting", 22)
            ui_draw.centred(fb, lobby.name_heard(lobby.inviting) + "...", 32)
            ui_draw.key_line(fb, "B CANCEL")
            return
        boards = lobby.boards
        if not boards:
            ui_draw.centred(fb, "Looking for", 24)
            ui_draw.centred(fb, "boards...", 34)
            tinyfont.text(fb, "THE OTHER BOARD: PLAY A FRIEND", 1, 46)
            ui_draw.key_line(fb, "B BACK")
            return
        top = max(0, self.lobby_i - _ROWS + 1)
        for row in range(min(_ROWS, len(boards) - top)):
            i = top + row
            y = 18 + row * 9
            colour = ui_draw.row_bar(fb, y, i == self.lobby_i)
            fb.text(boards[i][1][:13], 2, y + 1, colour)
            for bar in range(_bars(boards[i][2])):   # the signal: nearer, more bars
                fb.vline(112 + bar * 3, y + 7 - bar * 2, 1 + bar * 2, colour)
        ui_draw.key_line(fb, "A INVITE  B BACK")


def _bars(signal):
    """0..4 bars for a signal in dBm."""
    return 4 if signal > -45 else 3 if signal > -60 else 2 if signal > -75 else 1 if signal > -90 else 0
