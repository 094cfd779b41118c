# Reversi's overlays: the game menu (Resume, Undo, Surrender, Mode, New game),
# the surrender confirmation and the pass notice, with what they do (undo,
# surrender, a mode change, a pass). firmware.screens.reversi imports this
# module when an overlay opens and lets it go when the overlay closes
# (GameScreen.helper, let_go), so the game does not hold this code while it
# is played.

import time

from micropython import const

from firmware.games.reversi import PASS
from firmware.hal.controls import A, B, C, E, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import BACK, ALL_FIELDS
from firmware.screens.reversi_shared import (
    DEMO, PLAY, NO_OVERLAY, PASS_NOTICE, GAME_MENU, SURRENDER_QUESTION,
    MODE_NAMES, DEMO_DELAY_MS, colour_name, person_against_cpu)
from firmware.ui import draw as ui_draw, tinyfont

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.reversi import Game

# the game menu's rows
_MENU_N = const(5)
_M_RESUME = const(0)
_M_UNDO = const(1)
_M_SURRENDER = const(2)
_M_MODE = const(3)
_M_NEW = const(4)
_CPU_PASS_MS = const(1500)   # a CPU's pass notice goes away by itself


def update(screen: "Game", controls, now):
    """A frame of the overlay on show. A chooses or says yes; B says no,
    or goes back (the game menu: to the game; the pass notice, which comes
    back: to the arcade's menu)."""
    overlay = screen.overlay
    if overlay == PASS_NOTICE:
        game = screen.game
        if not game.must_pass():     # (a mode change or undo meanwhile)
            screen.overlay = NO_OVERLAY
            screen.redraw()
        elif controls.just_pressed(A) or (screen.cpu_plays(game.turn) and
                                          time.ticks_diff(now, screen.overlay_t) >= _CPU_PASS_MS):
            screen.overlay = NO_OVERLAY
            game.pass_turn()
            screen.after_move(now)
            screen.redraw()
        elif controls.just_pressed(B):
            return BACK             # (the game is saved; the notice comes back)
        elif controls.just_pressed(C) or controls.just_pressed(E):
            screen.overlay = GAME_MENU
            screen.menu_i = _M_RESUME
            screen.redraw()
        return None
    if overlay == SURRENDER_QUESTION:
        if controls.just_pressed(A):
            # the person against the CPU gives up; in two players, whoever is to move
            screen.resigned = person_against_cpu(screen.mode) or screen.game.turn
            screen.finish(now)
        elif controls.just_pressed(B) or controls.just_pressed(C) or controls.just_pressed(E):
            screen.overlay = NO_OVERLAY     # no
            screen.redraw()
        return None
    # the game menu
    if controls.repeat(UP):
        screen.menu_i = (screen.menu_i - 1) % _MENU_N
        screen.overlay_dirty = True
        screen.hal.sound.click()
    elif controls.repeat(DOWN):
        screen.menu_i = (screen.menu_i + 1) % _MENU_N
        screen.overlay_dirty = True
        screen.hal.sound.click()
    if controls.just_pressed(B) or controls.just_pressed(C) or controls.just_pressed(E):
        screen.overlay = NO_OVERLAY     # back to the game
        screen.redraw()
        return None
    if screen.menu_i == _M_MODE:
        step = -1 if controls.repeat(LEFT) else 1 if controls.repeat(RIGHT) or controls.just_pressed(A) else 0
        if step:
            set_mode(screen, (screen.mode + step) % len(MODE_NAMES), now)
            screen.overlay_dirty = True
            screen.hal.sound.click()
        return None
    if not controls.just_pressed(A):
        return None
    i = screen.menu_i
    screen.overlay = NO_OVERLAY
    screen.redraw()
    if i == _M_UNDO:
        undo(screen, now)
    elif i == _M_SURRENDER:
        if screen.state != PLAY or screen.mode == DEMO:
            screen.hal.sound.sfx("illegal")
            screen.say("NOT NOW", now)
        else:
            screen.overlay = SURRENDER_QUESTION
    elif i == _M_NEW:
        screen.new_game(now)
    return None


def undo(screen: "Game", now):
    """Back one move (two players) or to the person's previous turn (vs
    CPU); the alert when there is nothing to take back."""
    game = screen.game
    if screen.mode == DEMO or screen.state != PLAY or game.ply == 0:
        screen.hal.sound.sfx("illegal")
        screen.say("CAN'T UNDO", now)
        return False
    person = person_against_cpu(screen.mode)   # 0: two players, each move is undone alone
    popped = []
    while game.ply > 0:
        move = game.pop()
        popped.append(move)
        if move != PASS and (person == 0 or game.turn == person):
            break
    if game.turn != person and person != 0 or popped[-1] == PASS:
        for i in range(len(popped) - 1, -1, -1):   # nothing to go back to
            game.push(popped[i])
        screen.hal.sound.sfx("illegal")
        screen.say("CAN'T UNDO", now)
        return False
    screen.thinking = False
    screen.flip_n = 0
    last = game.last_move()
    screen.last_sq = last or 0
    screen.hal.sound.click()
    screen.save()
    screen.show_hints()
    screen.redraw()
    return True


def set_mode(screen: "Game", mode, now):
    if mode == screen.mode:
        return
    screen.mode = mode
    if screen.game.ply > 0:
        screen.rated = False         # a game that changed hands counts for no one
    screen.thinking = False
    screen.cpu_at = time.ticks_add(now, DEMO_DELAY_MS)
    screen.remember("mode", mode)
    if screen.state == PLAY:
        screen.save()
    screen.show_hints()
    screen.panel = ALL_FIELDS


def draw(screen: "Game", fb):
    """The overlay on show, over the board."""
    overlay = screen.overlay
    if overlay == PASS_NOTICE:
        ui_draw.box(fb, 0, 18, ui_draw.WIDTH, 28)
        ui_draw.centred(fb, colour_name(screen.game.turn) + " must pass", 22)
        ui_draw.centred(fb, "A: pass B: menu", 34)
    elif overlay == SURRENDER_QUESTION:
        ui_draw.ask(fb, "Surrender?")
    elif overlay == GAME_MENU:
        ui_draw.box(fb, 10, 0, 108, ui_draw.HEIGHT)
        for i in range(_MENU_N):
            y = 2 + i * 10
            selected = i == screen.menu_i
            fb.fill_rect(11, y, 106, 10, 1 if selected else 0)
            fb.text(("Resume", "Undo", "Surrender", "Mode", "New game")[i], 14, y + 1,
                    0 if selected else 1)
            if i == _M_MODE:
                tinyfont.text(fb, MODE_NAMES[screen.mode].upper(), 52, y + 3, 0 if selected else 1)
                if selected:               # the stick changes it
                    tinyfont.text(fb, "<", 47, y + 3, 0)
                    tinyfont.text(fb, ">", 90, y + 3, 0)
        tinyfont.centred(fb, "A CHOOSE  B BACK", 11, 55, 106, 7)
