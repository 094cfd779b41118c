"""The end of a Reversi game (firmware.screens.reversi_shared): the result, its
sound and record, and the panel's text for it. Borrowed only while a game
ends (GameScreen.borrow), so none of it is held during play or after."""
from micropython import const

from firmware.games.reversi import DRAW
from firmware.screens.reversi_shared import (
    YOU_BLACK, OVER, NO_OVERLAY, LEVEL_NAMES, colour_name, person_against_cpu)

_TYPE_CHECKING = const(False)   # "Play" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.reversi_shared import Play


def finish(screen: "Play", now):
    """The end: counts, the winner or a draw, a melody, the record."""
    screen.state = OVER
    screen.thinking = False
    screen.overlay = NO_OVERLAY
    screen.over_t = now
    # BLACK, WHITE or DRAW (the game is over: never None); who gave up loses
    winner = 3 - screen.resigned if screen.resigned else screen.game.winner()
    person = person_against_cpu(screen.mode)
    screen.outcome = ""
    if person:
        screen.outcome = "drawn" if winner == DRAW else "won" if winner == person else "lost"
        if screen.rated:
            # under the game's title and the level: "Reversi easy"
            screen.app.records.count(screen.title + " " + LEVEL_NAMES[screen.level], screen.outcome)
    screen.hal.sound.sfx("lose" if screen.outcome == "lost" else "win")
    screen.save()
    screen.remember("mode", screen.mode)
    screen.end_lines = _lines(screen, winner)


def _lines(screen: "Play", winner):
    """The panel's lines after the end: two big, two small (the second one
    says how the empty squares were counted, "" when none were)."""
    game = screen.game
    black, white = game.final_score()
    if screen.resigned:
        detail = colour_name(screen.resigned).upper() + " GAVE UP"
    else:
        detail = "%d-%d" % (black, white)
    if screen.outcome:
        detail = "YOU " + {"won": "WIN", "lost": "LOSE", "drawn": "DRAW"}[screen.outcome]
        if not screen.resigned:        # yours first
            detail += " %d-%d" % ((black, white) if screen.mode == YOU_BLACK else (white, black))
    empty = 0 if screen.resigned else game.empties()
    note = ""
    if winner == DRAW:
        if empty:
            note = "EACH +%d EMPTY" % (empty // 2)
        return "Draw", "", detail, note
    if empty:                          # the rules give them to the winner
        note = "%d + %d EMPTY" % (game.count(winner), empty)
    return colour_name(winner), "wins!", detail, note
