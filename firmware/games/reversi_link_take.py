"""A position sent by the friend's board, taken as it is (reversi_link's
set_position: the Session's stated rule when two boards disagree, or when
one missed moves to a power cut). Rare, so a linked game borrows this code
for the moment (firmware.modules.borrowed) rather than holding it while it
is played. The position's 17 bytes as reversi_link writes them: 64 squares
at 2 bits (0 empty, 1 BLACK, 2 WHITE), then the side to move."""


def set_position(game, data, off):
    """Take the position in data[off:off + 17]; the move record starts again
    from it. ValueError when it is not a position (a square or a side that
    is none)."""
    turn = data[off + 16]
    if turn != 1 and turn != 2:            # BLACK, WHITE
        raise ValueError("side to move %d is neither 1 nor 2" % turn)
    cells = ""
    for i in range(64):
        value = (data[off + i // 4] >> (6 - 2 * (i % 4))) & 3
        if value == 3:
            raise ValueError("square %d holds 3" % i)
        cells += "-XO"[value]
    from firmware import modules
    with modules.borrowed("firmware.games.reversi_tools") as tools:   # (the rules' set-up)
        tools.set_position(game, cells, turn)
