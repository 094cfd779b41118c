# The ML4M hardware layer: one object holding display, controls, sound, clock
# and store, built from a board module (firmware/board.py by default).
from firmware.hal.clock import Clock
from firmware.hal.display import Display
from firmware.hal.controls import Controls
from firmware.hal.sound import Sound
from firmware.hal.store import Store


def load_board(name=None):
    """firmware.board (the ML4M) by default, else firmware/boards/<name>.py."""
    if name is None:
        from firmware import board
        return board
    module = __import__("firmware.boards." + name, None, None, [name])
    return module


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
