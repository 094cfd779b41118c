"""The end of a Reversi game (firmware.screens.reversi): the result, its
sound and record, and the panel's text. Imported only when a game ends and
let go when a new one starts, so none of it is held during play."""
from micropython import const

from firmware.games.reversi import BLACK, WHITE, DRAW

_OVER = const(1)                   # screens/reversi.py's state
_YOU_BLACK = const(1)              # its mode where the CPU plays white
# (0, BLACK, WHITE, 0)[mode]: the human's colour against the CPU (by mode:
# two players, you black, you white, demo; 0: no human against the CPU)


def colour_name(colour):
    return "Black" if colour == BLACK else "White"


def finish(s, now):
    """The end: counts, the winner or a draw, a melody, the record."""
    s.state = _OVER
    s.drop_ai()                        # heap: no search until a new game
    s.thinking = False
    s.overlay = 0
    s.over_t = now
    if s.resigned:
        winner = 3 - s.resigned
    else:
        winner = s.game.winner()       # (the game is over: never None)
    human = (0, BLACK, WHITE, 0)[s.mode]
    s.outcome = ""
    if human:
        s.outcome = "drawn" if winner == DRAW else "won" if winner == human else "lost"
        if s.rated:
            s.app.records.count("Reversi " + ("easy", "medium", "hard")[s.level], s.outcome)
    s.hal.sound.sfx("lose" if s.outcome == "lost" else "win")
    s.save()
    s.remember("mode", s.mode)


def status(s):
    """The panel's lines after the end: two big, two small (the second one
    says how the empty squares were counted, "" when none were)."""
    g = s.game
    b, w = g.final_score()
    if s.resigned:
        detail = colour_name(s.resigned).upper() + " GAVE UP"
    else:
        detail = "%d-%d" % (b, w)
    if s.outcome:
        detail = "YOU " + {"won": "WIN", "lost": "LOSE", "drawn": "DRAW"}[s.outcome]
        if not s.resigned:             # yours first
            detail += " %d-%d" % ((b, w) if s.mode == _YOU_BLACK else (w, b))
    winner = 3 - s.resigned if s.resigned else g.winner()
    empty = 0 if s.resigned else g.empties()
    note = ""
    if winner == DRAW:
        if empty:
            note = "EACH +%d EMPTY" % (empty // 2)
        return "Draw", "", detail, note
    if empty:                          # the rules give them to the winner
        note = "%d + %d EMPTY" % (g.count(winner), empty)
    return colour_name(winner), "wins!", detail, note
