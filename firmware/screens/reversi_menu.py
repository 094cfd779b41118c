# Reversi's overlays: the game menu (Resume, Undo, Surrender, Mode, New game),
# the surrender confirmation and the pass notice, with what they do (undo,
# surrender, a mode change, a pass). firmware.screens.reversi imports this
# module when an overlay opens and lets it go when the overlay closes, so
# the game does not hold this code while it is played.

import time

from micropython import const

from firmware.games.reversi import BLACK, WHITE, PASS
from firmware.hal.controls import A, B, C, E, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import BACK, ALL_FIELDS
from firmware.ui import draw as _draw, tinyfont

_TWO_PLAYERS = const(0)
_DEMO = const(3)
_PLAY = const(0)
_OV_NONE = const(0)
_OV_PASS = const(1)
_OV_MENU = const(2)
_OV_CONFIRM = const(3)
_MENU_N = const(5)
_M_RESUME = const(0)
_M_UNDO = const(1)
_M_SURRENDER = const(2)
_M_MODE = const(3)
_M_NEW = const(4)
_DEMO_DELAY_MS = const(700)
_CPU_PASS_MS = const(1500)   # a CPU's pass notice goes away by itself


def update(s, c, now):
    """A frame of the overlay on show (s: the Game screen). A chooses or says
    yes; B says no, or goes back (the game menu: to the game; the pass
    notice, which comes back: to the arcade's menu)."""
    ov = s.overlay
    if ov == _OV_PASS:
        g = s.game
        if not g.must_pass():          # (a mode change or undo meanwhile)
            s.overlay = _OV_NONE
            s.redraw()
        elif c.just_pressed(A) or (s.cpu_plays(g.turn) and
                                   time.ticks_diff(now, s.overlay_t) >= _CPU_PASS_MS):
            s.overlay = _OV_NONE
            g.pass_turn()
            s._moved(now)
            s.redraw()
        elif c.just_pressed(B):
            return BACK                    # (the game is saved; the notice comes back)
        elif c.just_pressed(C) or c.just_pressed(E):
            s.overlay = _OV_MENU
            s.menu_i = _M_RESUME
            s.redraw()
        return None
    if ov == _OV_CONFIRM:
        if c.just_pressed(A):
            g = s.game
            human = (0, BLACK, WHITE, 0)[s.mode]   # the human's colour (0: none)
            s.resigned = human if human else g.turn
            s.finish(now)
        elif c.just_pressed(B) or c.just_pressed(C) or c.just_pressed(E):
            s.overlay = _OV_NONE           # no
            s.redraw()
        return None
    # the game menu
    if c.repeat(UP):
        s.menu_i = (s.menu_i - 1) % _MENU_N
        s.ov_dirty = True
        s.hal.sound.click()
    elif c.repeat(DOWN):
        s.menu_i = (s.menu_i + 1) % _MENU_N
        s.ov_dirty = True
        s.hal.sound.click()
    if c.just_pressed(B) or c.just_pressed(C) or c.just_pressed(E):
        s.overlay = _OV_NONE           # back to the game
        s.redraw()
        return None
    if s.menu_i == _M_MODE:
        step = -1 if c.repeat(LEFT) else 1 if c.repeat(RIGHT) or c.just_pressed(A) else 0
        if step:
            set_mode(s, (s.mode + step) % 4, now)
            s.ov_dirty = True
            s.hal.sound.click()
        return None
    if not c.just_pressed(A):
        return None
    i = s.menu_i
    s.overlay = _OV_NONE
    s.redraw()
    if i == _M_UNDO:
        undo(s, now)
    elif i == _M_SURRENDER:
        if s.state != _PLAY or s.mode == _DEMO:
            s.hal.sound.sfx("illegal")
            s.say("NOT NOW", now)
        else:
            s.overlay = _OV_CONFIRM
    elif i == _M_NEW:
        s.new_game(now)
    return None


def undo(s, now):
    """Back one move (two players) or to the human's previous turn (vs
    CPU); the alert when there is nothing to take back."""
    g = s.game
    if s.mode == _DEMO or s.state != _PLAY or g.ply == 0:
        s.hal.sound.sfx("illegal")
        s.say("CAN'T UNDO", now)
        return False
    human = (0, BLACK, WHITE, 0)[s.mode]   # the human's colour (0: none)
    popped = []
    while g.ply > 0:
        m = g.pop()
        popped.append(m)
        if m != PASS and (human == 0 or g.turn == human):
            break
    if g.turn != human and human != 0 or popped[-1] == PASS:
        for i in range(len(popped) - 1, -1, -1):   # nothing to go back to
            g.push(popped[i])
        s.hal.sound.sfx("illegal")
        s.say("CAN'T UNDO", now)
        return False
    s.thinking = False
    s.flip_n = 0
    last = g.last_move()
    s.last_sq = last or 0
    s.hal.sound.click()
    s.save()
    s._hints()
    s.redraw()
    return True


def set_mode(s, mode, now):
    if mode == s.mode:
        return
    s.mode = mode
    if mode == _TWO_PLAYERS:
        s.drop_ai()                    # heap: the CPU's search only while it plays
    if s.game.ply > 0:
        s.rated = False                # a game that changed hands counts for no one
    s.thinking = False
    s.cpu_at = time.ticks_add(now, _DEMO_DELAY_MS)
    s.remember("mode", mode)
    if s.state == _PLAY:
        s.save()
    s._hints()
    s.panel = ALL_FIELDS


def draw(s, fb):
    """The overlay on show, over the board."""
    ov = s.overlay
    if ov == _OV_PASS:
        _draw.box(fb, 0, 18, _draw.WIDTH, 28)
        _draw.centred(fb, ("Black" if s.game.turn == BLACK else "White") + " must pass", 22)
        _draw.centred(fb, "A: pass B: menu", 34)
    elif ov == _OV_CONFIRM:
        _draw.ask(fb, "Surrender?")
    elif ov == _OV_MENU:
        _draw.box(fb, 10, 0, 108, _draw.HEIGHT)
        for i in range(_MENU_N):
            y = 2 + i * 10
            sel = i == s.menu_i
            fb.fill_rect(11, y, 106, 10, 1 if sel else 0)
            fb.text(("Resume", "Undo", "Surrender", "Mode", "New game")[i], 14, y + 1,
                    0 if sel else 1)
            if i == _M_MODE:
                tinyfont.text(fb, ("2 PLAYERS", "YOU BLACK", "YOU WHITE", "CPU DEMO")[s.mode],
                              52, y + 3, 0 if sel else 1)
                if sel:                    # the stick changes it
                    tinyfont.text(fb, "<", 47, y + 3, 0)
                    tinyfont.text(fb, ">", 90, y + 3, 0)
        tinyfont.centred(fb, "A CHOOSE  B BACK", 11, 55, 106, 7)
