"""The start of a Reversi game (firmware.screens.reversi_shared): the screen's
fields set up, a new game, or a saved one back. Borrowed only while a game
starts (GameScreen.borrow), so none of it is held during play."""
import time

from micropython import const

from firmware.games.reversi import Reversi, MOVE_STRIDE
from firmware.screens.reversi_shared import PLAY, NO_OVERLAY, LINK, cpu_delay_ms

_TYPE_CHECKING = const(False)   # "Play" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.reversi_shared import Play


def set_up(screen: "Play"):
    """The screen's fields (Game declares what each one is) before its first
    game starts."""
    screen.game = Reversi()
    screen.moves = bytearray(MOVE_STRIDE)
    screen.cells = bytearray(100)
    screen.marked = False
    screen.flips = bytearray(24)
    screen.flip_n = 0
    screen.flip_t = 0
    screen.flip_phase = 0
    screen.last_sq = 0
    screen.cx = 3
    screen.cy = 2
    screen.blink_t = screen.hal.clock.now()
    screen.cursor_shown = False
    screen.cursor_drawn = -1
    screen.state = PLAY
    screen.overlay = NO_OVERLAY
    screen.overlay_dirty = False
    screen.overlay_t = 0
    screen.thinking = False
    screen.cpu_at = 0
    screen.over_t = 0
    screen.resigned = 0
    screen.outcome = ""
    screen.end_lines = ()
    screen.level = screen.settings["level"]
    screen.rated = True
    screen.mode = screen.settings["mode"]


def restore(screen: "Play", data):
    """The saved game back (GameScreen.restore): False when it is over."""
    game = screen.game
    try:
        saved = data["game"]
        if saved.get("start"):
            # a set-up position: only tests and tools make them
            with screen.borrow("firmware.games.reversi_tools") as tools:
                tools.load(game, saved)
        else:
            game.load(saved)
    except (ValueError, IndexError):   # IllegalMove is a ValueError
        game.reset()
        raise                          # resume() sets the save aside
    if game.is_game_over():
        game.reset()
        return False
    screen.mode = data["mode"]
    screen.level = data["level"]
    screen.rated = data.get("rated", False)
    last = game.last_move()
    if last:
        screen.cx = last % 10 - 1
        screen.cy = last // 10 - 1
    _started(screen, screen.hal.clock.now())
    return True


def new_game(screen: "Play", now):
    """A new game in the mode last chosen, at the level the settings say.
    The mode "link": Play a friend instead, in a program of its own (a
    launch: never returns)."""
    if screen.mode == LINK:
        screen.app.launch("link")      # Play a friend's menu entry
    screen.game.reset()
    screen.level = screen.settings["level"]
    screen.rated = True
    screen.cx = 3
    screen.cy = 2
    _started(screen, now)
    screen.save()


def _started(screen: "Play", now):
    screen.state = PLAY
    screen.overlay = NO_OVERLAY
    screen.thinking = False
    screen.resigned = 0
    screen.outcome = ""
    screen.flip_n = 0
    screen.last_sq = screen.game.last_move() or 0
    screen.cpu_at = time.ticks_add(now, cpu_delay_ms(screen.mode))
    screen.show_hints()
    screen.redraw()
