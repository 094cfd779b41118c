"""The board files, one per wiring (ml4m.py, devkit_proto.py), and which one
this board runs: chosen at deploy and kept in /board.txt. Read at power-on
(firmware/start_up.py), then forgotten with it: the HAL keeps the board's
module it was built from."""
DEFAULT_BOARD = "ml4m"
CHOSEN = "board.txt"     # /board.txt: the board file chosen at deploy (make deploy BOARD=...)


def chosen_board():
    """The name of the board file chosen for this board: /board.txt, written by
    `make deploy BOARD=name` (the simulator's --board writes it in its flash),
    or the ML4M when there is none."""
    try:
        with open(CHOSEN) as f:
            name = f.read().strip()
    except OSError:
        return DEFAULT_BOARD
    return name or DEFAULT_BOARD


def load_board(name=None):
    """firmware/boards/<name>.py (the ML4M's by default). A name with no board
    file (a typo in board.txt) falls back to the ML4M's, with a word on the
    REPL: a board that boots is better than one that stops here."""
    if name is None:
        name = DEFAULT_BOARD
    try:
        return __import__("firmware.boards." + name, None, None, [name])
    except ImportError:
        print("no board file firmware/boards/%s.py: using %s" % (name, DEFAULT_BOARD))
        return __import__("firmware.boards." + DEFAULT_BOARD, None, None, [DEFAULT_BOARD])
