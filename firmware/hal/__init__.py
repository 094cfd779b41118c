# The ML4M hardware layer: one object holding display, controls, sound, clock
# and store, built from a board module (firmware/boards/ml4m.py by default;
# firmware/boards/__init__.py finds the one chosen at deploy).
from firmware.hal.clock import Clock
from firmware.hal.display import Display
from firmware.hal.controls import Controls
from firmware.hal.sound import Sound
from firmware.hal.store import Store


class Hal:
    # warm: after a soft reset (a launch), the panel keeps its picture and is
    # not brought up again; stick: the stick's rest measured before it
    def __init__(self, board=None, store_root="/data", fs=None, warm=False, stick=None):
        if board is None:
            from firmware.boards import load_board
            board = load_board()
        self.board = board
        self.sound = Sound(board)
        self.display = Display(board, warm=warm)
        controls = self.controls = Controls(board, rest=stick)
        self.store = Store(store_root, fs)
        # a press starts the frame at once instead of at the next tick; a
        # port without pin IRQs has the clock read the buttons while it waits
        self.clock = Clock(getattr(board, "FPS", 30), controls.wake,
                           None if controls.irq else controls.poll)
        if not self.display.present and not warm:
            # headless: the firmware runs on (and the REPL stays reachable);
            # the player hears that something is wrong (once, at power-on)
            self.sound.sfx("fault")

    def update(self, now=None):
        """controls.update and sound.update for this frame; returns now."""
        if now is None:
            now = self.clock.now()
        self.controls.update(now)
        self.sound.update(now)
        return now
