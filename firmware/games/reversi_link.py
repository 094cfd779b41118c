"""Reversi's side of a link game (firmware/games/link.py's Session): the
whole position as 17 bytes (64 squares at 2 bits, then the side to move),
the peer's move played by the rules, a position taken as it is. The link
screen (firmware/screens/link.py) is the Session's game side through
these functions, and the protocol's tests (tests/rules/) use them alike.
The lobby's program imports it for GAME_ID and STATE_SIZE alone, so the
rules (firmware.games.reversi) are not imported here: the squares are
counted out (11..18, 21..28, ... 81..88, as the rules number them) and
the colours are the rules' BLACK 1 and WHITE 2."""
from micropython import const

from firmware.games import IllegalMove

GAME_ID = const(1)            # Reversi's number in a link message
STATE_SIZE = const(17)


def position_into(game, buf, off):
    """Write the position into buf[off:off + 17]."""
    board = game.board
    for i in range(16):                    # two bytes a row, four squares a byte
        sq = (i // 2 + 1) * 10 + (i % 2) * 4 + 1
        byte = 0
        for j in range(4):
            byte = (byte << 2) | board[sq + j]
        buf[off + i] = byte
    buf[off + 16] = game.turn


def play(game, move):
    """The peer's move by the rules: False when it is illegal (nothing changed)."""
    try:
        game.push(move)
        return True
    except IllegalMove:
        return False


def set_position(game, data, off):
    """Take the position in data[off:off + 17] as it is: the board, the side
    to move; the move record starts again from it (undo cannot go behind).
    ValueError when it is not a position (a square or a side that is none).
    Rare (a power cut, two boards that disagree): its code is borrowed."""
    from firmware import modules
    with modules.borrowed("firmware.games.reversi_link_take") as take:   # not kept
        take.set_position(game, data, off)
