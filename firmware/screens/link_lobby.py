"""Pairing for "Play a friend" (firmware.screens.link): the boards heard,
nearest first; A invites the one chosen, and the other board shows the
invitation (A: play, B: no). Loaded only while no friend is paired, and let
go when the game starts. `screen` is the link Game screen; it holds the radio
(screen.radio), its own name (screen.my_name) and, here, screen.lobby.

    stick up/down  choose a board        A  invite it (or accept an invitation)
    B              back to the menu (or: no / cancel the invitation)
"""
import random

from micropython import const

from firmware.games import link
from firmware.games.reversi_link import GAME_ID, STATE_SIZE
from firmware.hal.controls import A, B, UP, DOWN
from firmware.screens.base import BACK
from firmware.ui import draw as ui_draw, tinyfont

_ROWS = const(4)          # boards listed at once


def start(screen, now):
    """The lobby: HELLOs out, the list of boards heard."""
    screen.lobby = link.Lobby(screen.radio, GAME_ID, STATE_SIZE, screen.my_name)
    screen.lobby_i = 0
    screen.redraw()


def update(screen, now):
    """A frame of pairing; the screen to go to (BACK) or None."""
    lobby = screen.lobby
    controls = screen.hal.controls
    events = lobby.update(now)
    if events & link.PAIRED:
        screen.paired(lobby, now)
        return None
    if events & (link.HEARD | link.INVITED | link.DECLINED):
        screen.redraw()
        if events & link.INVITED and lobby.invited_by is not None:
            screen.hal.sound.sfx("select")
        if events & link.DECLINED:
            screen.hal.sound.sfx("illegal")
    if lobby.invited_by is not None:
        if controls.just_pressed(A):
            lobby.accept()
            screen.paired(lobby, now)
        elif controls.just_pressed(B):
            lobby.decline()
            screen.redraw()
        return None
    if lobby.inviting is not None:
        if controls.just_pressed(B):
            lobby.cancel()
            screen.redraw()
        return None
    n = len(lobby.boards)
    if screen.lobby_i >= n:
        screen.lobby_i = max(0, n - 1)
    if n and controls.repeat(UP) and screen.lobby_i > 0:
        screen.lobby_i -= 1
        screen.redraw()
    elif n and controls.repeat(DOWN) and screen.lobby_i < n - 1:
        screen.lobby_i += 1
        screen.redraw()
    if controls.just_pressed(B):
        return BACK
    if controls.just_pressed(A):
        if not n:
            screen.hal.sound.sfx("illegal")
            return None
        lobby.invite(lobby.boards[screen.lobby_i][0], random.getrandbits(16) ^ now, now)
        screen.hal.sound.click()
        screen.redraw()
    return None


def _bars(signal):
    """0..4 bars for a signal in dBm."""
    return 4 if signal > -45 else 3 if signal > -60 else 2 if signal > -75 else 1 if signal > -90 else 0


def draw(screen, fb):
    """The whole lobby (repainted when something changed)."""
    if not screen.dirty:
        return
    screen.dirty = False
    lobby = screen.lobby
    fb.fill(0)
    ui_draw.title_bar(fb, "Play a friend")
    tinyfont.text(fb, "YOU ARE " + screen.my_name, 1, 11)
    if lobby.invited_by is not None:
        ui_draw.centred(fb, lobby.invited_by[1], 22)
        ui_draw.centred(fb, "invites you", 32)
        ui_draw.key_line(fb, "A PLAY  B NO")
        return
    if lobby.inviting is not None:
        ui_draw.centred(fb, "Inviting", 22)
        name = lobby.name_heard(lobby.inviting)
        ui_draw.centred(fb, name + "...", 32)
        ui_draw.key_line(fb, "B CANCEL")
        return
    boards = lobby.boards
    if not boards:
        ui_draw.centred(fb, "Looking for", 24)
        ui_draw.centred(fb, "boards...", 34)
        tinyfont.text(fb, "THE OTHER BOARD: PLAY A FRIEND", 1, 46)
        ui_draw.key_line(fb, "B BACK")
        return
    top = max(0, screen.lobby_i - _ROWS + 1)
    for row in range(min(_ROWS, len(boards) - top)):
        i = top + row
        y = 18 + row * 9
        colour = ui_draw.row_bar(fb, y, i == screen.lobby_i)
        fb.text(boards[i][1][:13], 2, y + 1, colour)
        for bar in range(_bars(boards[i][2])):   # the signal: nearer, more bars
            fb.vline(112 + bar * 3, y + 7 - bar * 2, 1 + bar * 2, colour)
    ui_draw.key_line(fb, "A INVITE  B BACK")
