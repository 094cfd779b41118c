# The ML4M hardware layer: one object holding display, controls, sound, clock
# and store, built from a board module (firmware/boards/ml4m.py by default).
from firmware.hal.clock import Clock
from firmware.hal.display import Display
from firmware.hal.controls import Controls
from firmware.hal.sound import Sound
from firmware.hal.store import Store


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


class Hal:
    def __init__(self, board=None, store_root="/data", fs=None):
        if board is None:
            board = load_board()
        self.board = board
        self.clock = Clock(getattr(board, "FPS", 30))
        self.sound = Sound(board)
        self.display = Display(board)
        self.controls = Controls(board)
        self.store = Store(store_root, fs)
        if not self.controls.irq:
            self.clock.poll = self.controls.poll
        if not self.display.present:
            # headless: the firmware runs on (and the REPL stays reachable);
            # the player hears that something is wrong
            self.sound.sfx("fault")

    def update(self, now=None):
        """controls.update and sound.update for this frame; returns now."""
        if now is None:
            now = self.clock.now()
        self.controls.update(now)
        self.sound.update(now)
        return now
