# Reversi's overlays: the surrender confirmation and the pass notice, and what
# the pause menu's rows do (undo, a mode change; the pause menu is the system's,
# firmware/screens/pause.py). The play (firmware.screens.reversi_shared) holds
# this module while an overlay shows and lets it go when the overlay closes;
# one board's game (firmware.screens.reversi) borrows it for a row of the
# pause menu (GameScreen.helper, let_go, borrow), so the game does not hold
# this code while it is played.

import time

from micropython import const

from firmware.games.reversi import PASS
from firmware.hal.controls import A, B
from firmware.screens.base import BACK, ALL_FIELDS
from firmware.screens.reversi_shared import (
    DEMO, LINK, PLAY, NO_OVERLAY, PASS_NOTICE, SURRENDER_QUESTION,
    DEMO_DELAY_MS, colour_name, person_against_cpu)
from firmware.ui import WIDTH
from firmware.ui.draw import box, centred, ask

_TYPE_CHECKING = const(False)   # "Play", "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.reversi import Game
    from firmware.screens.reversi_shared import Play

_CPU_PASS_MS = const(1500)   # a CPU's pass notice goes away by itself


def update(screen: "Play", controls, now):
    """A frame of the overlay on show. A says yes (or passes); B says no
    (the pass notice, which comes back: to the arcade's menu)."""
    overlay = screen.overlay
    if overlay == PASS_NOTICE:
        game = screen.game
        if not game.must_pass():     # (a mode change or undo meanwhile)
            screen.overlay = NO_OVERLAY
            screen.redraw()
        elif controls.just_pressed(A) or (not screen.human(game.turn) and
                                          time.ticks_diff(now, screen.overlay_t) >= _CPU_PASS_MS):
            screen.overlay = NO_OVERLAY
            game.pass_turn()
            screen.after_move(now)
            screen.redraw()
        elif controls.just_pressed(B):
            return BACK             # (the game is saved; the notice comes back)
        return None
    if overlay == SURRENDER_QUESTION:
        if controls.just_pressed(A):
            # the person against the CPU gives up; in two players, whoever is to move
            screen.resigned = person_against_cpu(screen.mode) or screen.game.turn
            screen.finish(now)
        elif controls.just_pressed(B):
            screen.overlay = NO_OVERLAY     # no
            screen.redraw()
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


def surrender(screen: "Game", now):
    """Ask, then give the game up (the person against the CPU, or whoever is to move)."""
    if screen.state != PLAY or screen.mode == DEMO:
        screen.hal.sound.sfx("illegal")
        screen.say("NOT NOW", now)
    else:
        screen.open_overlay(SURRENDER_QUESTION, now)


def setting_changed(screen: "Game", name, value, now):
    """A setting changed from the pause menu (all of Reversi's are used at once)."""
    if name == "mode" and value != screen.mode:
        if value == LINK:
            # Play a friend, now: this game is saved in its own mode (Continue
            # brings it back), and "link" stays the mode for a new game
            screen.save()
            screen.app.launch("link")      # Play a friend's menu entry
        screen.mode = value
        if screen.game.ply > 0:
            screen.rated = False         # a game that changed hands counts for no one
        screen.thinking = False
        screen.cpu_at = time.ticks_add(now, DEMO_DELAY_MS)
        screen.remember("mode", value)
        if screen.state == PLAY:
            screen.save()
        screen.panel = ALL_FIELDS
    elif name == "level":
        if screen.game.ply > 0 and value != screen.level:
            screen.rated = False       # a game that changed level counts for no one
        screen.level = value
        screen.panel = ALL_FIELDS
    screen.show_hints()


def draw(screen: "Play", fb):
    """The overlay on show, over the board."""
    overlay = screen.overlay
    if overlay == PASS_NOTICE:
        box(fb, 0, 18, WIDTH, 28)
        centred(fb, colour_name(screen.game.turn) + " must pass", 22)
        centred(fb, "A: pass B: menu", 34)
    elif overlay == SURRENDER_QUESTION:
        ask(fb, "Surrender?")
