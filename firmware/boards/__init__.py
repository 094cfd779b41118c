"""The board files, one per wiring (ml4m.py, devkit_proto.py), and which one
this board runs: chosen at deploy and kept in /board.txt. Read at power-on
(firmware/start_up.py), then forgotten with it: the HAL keeps the board's
module it was built from."""
from micropython import const

# private const(): no interned names on the board for them
_DEFAULT_BOARD = const("ml4m")
_CHOSEN = const("board.txt")     # /board.txt: the board file chosen at deploy (make deploy BOARD=...)


def chosen_board():
    """The name of the board file chosen for this board: /board.txt, written by
    `make deploy BOARD=name` (the simulator's --board writes it in its flash),
    or the ML4M when there is none."""
    try:
        with open(_CHOSEN) as f:
            name = f.read().strip()
    except OSError:
        return _DEFAULT_BOARD
    return name or _DEFAULT_BOARD


def load_board(name=None):
    """firmware/boards/<name>.py (the ML4M's by default). A name with no board
    file (a typo in board.txt) falls back to the ML4M's, with a word on the
    REPL: a board that boots is better than one that stops here."""
    if name is None:
        name = _DEFAULT_BOARD
    try:
        return __import__("firmware.boards." + name, None, None, [name])
    except ImportError:
        print("no board file firmware/boards/%s.py: using %s" % (name, _DEFAULT_BOARD))
        return __import__("firmware.boards." + _DEFAULT_BOARD, None, None, [_DEFAULT_BOARD])
