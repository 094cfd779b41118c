"""The game screens' save schemas: the fields of a saved game, by type and
range, checked while a save loads (GameScreen.check_progress).

Needed only for that moment, so a screen borrows this module for the check
(GameScreen.borrow) and it leaves the heap again while the game runs.
Each function takes a save that is not {} ("no game in progress") and raises
firmware.check.Invalid (a ValueError) when a field does not fit; the rules
check the game itself when it is restored."""
from micropython import const

from firmware import check

_MOST_MS = const(360_000_000)   # 100 hours of play on one puzzle: more is a damaged save


def puzzle(data, levels):
    """The fields around the puzzle (npuzzle_setup.from_dict checks the puzzle
    itself); levels: how many shuffle levels the screen offers."""
    check.choice(data.get("size"), (3, 4, 5), "size")
    check.choice(data.get("mode"), ("numbers", "picture"), "mode")
    check.table(data.get("puzzle"), "puzzle")
    check.integer(data.get("ms"), 0, _MOST_MS, "time")
    check.integer(data.get("level"), 0, levels - 1, "level")
    check.optional(data.get("optimal"), check.integer, 0, 80, "best possible")
    check.flag(data.get("helped"), "helped")


def reversi(data):
    """The moves are only checked here as names; the rules replay them (and
    refuse an illegal one) when the game is restored."""
    from firmware.games.reversi import BLACK, WHITE, MOST_PLIES
    check.choice(data.get("mode"), (0, 1, 2, 3), "mode")
    check.choice(data.get("level"), (0, 1, 2), "level")
    check.flag(data.get("rated", False), "rated")
    game = check.table(data.get("game"), "game")
    moves = check.array(game.get("moves", []), None, "moves")
    if len(moves) > MOST_PLIES:
        raise check.Invalid("moves: %d, at most %d" % (len(moves), MOST_PLIES))
    for name in moves:
        check.text(name, 4, "move")
    start = game.get("start")
    if start is not None:
        check.text(start, 64, "start")
        check.choice(game.get("turn", BLACK), (BLACK, WHITE), "turn")


def g2048(data):
    """Only the frame: the game itself is checked by Game2048.from_dict."""
    check.table(data.get("game"), "game")


def link(data):
    """A linked Reversi game (firmware.screens.link): Reversi's fields, and
    the link's: the session, the friend, the move number."""
    reversi(data)
    link = check.table(data.get("link"), "link")
    check.integer(link.get("session"), 1, 0xFFFF, "session")
    peer = check.text(link.get("peer"), 12, "peer")
    if len(peer) != 12 or peer.strip("0123456789abcdef"):
        raise check.Invalid("peer: not an address")
    check.text(link.get("name"), 12, "name")
    check.flag(link.get("inviter"), "inviter")
    check.integer(link.get("number"), 0, 0xFFFF, "number")
    check.integer(link.get("last"), 0, 88, "last")
    check.flag(link.get("pending"), "pending")
    if "cpu" in link:                 # (older saves: the CPU played the friend's side there)
        check.flag(link["cpu"], "cpu")
