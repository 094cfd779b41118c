"""The end of a puzzle game (firmware.screens.puzzle): the result, its
sound, the records and the banner. Imported only when a game ends and let
go when a new one starts, so none of it is held during play."""
import time

from micropython import const

from firmware.ui import draw
from firmware.ui.banner import Banner

_WON = const(1)                # screens/puzzle.py's states
_LOST = const(2)
_SOLVED_MS = const(1500)       # picture mode: the whole picture, then "You Win"
_BANNER_KEYS = "A:new B:menu"


def win(s, now):
    """Solved: moves and time, the best possible, the records; the "You Win"
    banner to show."""
    p = s.puzzle
    secs = s.ms // 1000
    s.state = _WON
    s.save()
    lines = ["%d moves %s" % (p.moves, draw.clock_text(secs))]
    if s.optimal is not None:
        lines.append("best possible %d" % s.optimal)
    if s.helped:
        lines.append("solved with help")
    else:
        fewest = s.app.records.best(s.key, "fewest moves", p.moves)
        fastest = s.app.records.best(s.key, "fastest time", secs)
        if fewest or fastest:
            lines.append("New record!")
    s.hal.sound.sfx("win")
    if s.pics is not None:
        # the finished picture first, the blank's piece in place too
        now = time.ticks_add(now, _SOLVED_MS)
        s.redraw()
    return Banner(s.hal.display, "You Win", lines, now, _BANNER_KEYS)


def give_up(s, now):
    """The player gave up: the "You Lost" banner to show."""
    p = s.puzzle
    s.state = _LOST
    s.save()
    s.hal.sound.sfx("lose")
    return Banner(s.hal.display, "You Lost",
                  ("after %d move%s" % (p.moves, "" if p.moves == 1 else "s"),),
                  now, _BANNER_KEYS)
