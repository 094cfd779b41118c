"""The end of a puzzle game (firmware/screens/puzzle.py): the result, its
sound, the records, the banner and its frames. Imported only when a game
ends and let go when a new one starts, so none of it is held during play."""
import time

from micropython import const

from firmware.hal.controls import A
from firmware.screens.puzzle_shared import WON, LOST
from firmware.ui import clock_text
from firmware.ui.banner import Banner

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.puzzle import Game

_SOLVED_MS = const(1500)       # picture mode: the whole picture, then "You Win"
_LOST_WAIT_MS = const(700)     # after the "You Lost" banner, then a new game
_BANNER_KEYS = "A:new B:menu"


def win(screen: "Game", now):
    """Solved: moves and time, the best possible, the records; the "You Win"
    banner to show."""
    moves = screen.puzzle.moves
    secs = screen.play_ms // 1000
    screen.state = WON
    screen.save()
    lines = ["%d moves %s" % (moves, clock_text(secs))]
    if screen.optimal is not None:
        lines.append("best possible %d" % screen.optimal)
    if screen.helped:
        lines.append("solved with help")
    else:
        records = screen.app.records
        fewest = records.best(screen.records_group, "fewest moves", moves)
        fastest = records.best(screen.records_group, "fastest time", secs)
        if fewest or fastest:
            lines.append("New record!")
    screen.hal.sound.sfx("win")
    if screen.picture_mode:
        # the finished picture first, the blank's piece in place too
        now = time.ticks_add(now, _SOLVED_MS)
        screen.redraw()
    return Banner(screen.hal.display, "You Win", lines, now, _BANNER_KEYS)


def give_up(screen: "Game", now):
    """The player gave up: the "You Lost" banner to show."""
    moves = screen.puzzle.moves
    screen.state = LOST
    screen.save()
    screen.hal.sound.sfx("lose")
    return Banner(screen.hal.display, "You Lost",
                  ("after %d move%s" % (moves, "" if moves == 1 else "s"),), now, _BANNER_KEYS)


def update(screen: "Game", c, now):
    """A frame of the banner. Won: A skips it, then starts a new game. Lost:
    a new game follows the banner, or A at once."""
    banner = screen.banner
    if type(banner) is not Banner:
        # The pause menu let this module go, and firmware.ui.banner which it
        # brought, and they were imported again when the game went on: the old
        # banner would keep the old copy of that code alive beside the new one
        # (1 KB). So it is made again, where it was, with this copy (inline:
        # a function of its own would add an interned name to every puzzle).
        old = banner
        banner = screen.banner = Banner(old.display, old.title, old.details, old.start, old.keys)
        banner.inverted = old.inverted     # (whether the panel shows inverted now)
    banner.update(now)
    if screen.state == WON:
        if c.just_pressed(A):
            if banner.finished():
                screen.new_game(now)
            else:
                banner.skip(now)
                screen.redraw()            # the banner's end painted
    elif c.just_pressed(A):
        screen.lost_at = 0
        screen.new_game(now)               # (it takes the banner down)
    elif banner.finished():
        if not screen.lost_at:
            screen.lost_at = now
        elif time.ticks_diff(now, screen.lost_at) >= _LOST_WAIT_MS:
            screen.lost_at = 0
            screen.new_game(now)
