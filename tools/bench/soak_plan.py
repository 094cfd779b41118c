# Random play for the soak tests: the same seeded sequence of inputs on
# CPython (tools/soak.py, on the emulated board) and on real MicroPython
# (tools/bench/soak_mp.py). Its own small generator (xorshift32), so both
# interpreters draw exactly the same inputs from a seed.
#
# inputs(seed, n) yields n inputs, each a list of steps:
#   ("press", name) / ("release", name)   a button A..F
#   ("stick", direction)                   "left", "right", "up", "down" or None (centre)
#   ("frames", k)                          let k frames run
#   ("checkpoint",)                        go back to the menu (B until it shows) and
#                                          measure (every CHECK_EVERY inputs)
# Taps, pushes, holds (a held D plays the solve or the demo), pauses and two
# buttons at once, weighted so that every screen is reached from the menu.

BUTTONS = ("A", "B", "C", "D", "E", "F")
DIRECTIONS = ("left", "right", "up", "down")
CHECK_EVERY = 150


class Xorshift:
    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x % n


def inputs(seed, n):
    rng = Xorshift(seed)
    for i in range(n):
        if i and i % CHECK_EVERY == 0:
            yield [("checkpoint",)]
        r = rng.below(100)
        if r < 40:                      # a tap (B less often: it leaves the screen)
            name = BUTTONS[rng.below(6)]
            if name == "B" and rng.below(3):
                name = "A"
            yield [("press", name), ("frames", 1 + rng.below(3)),
                   ("release", name), ("frames", 1 + rng.below(3))]
        elif r < 78:                    # a push of the stick
            yield [("stick", DIRECTIONS[rng.below(4)]), ("frames", 1 + rng.below(12)),
                   ("stick", None), ("frames", 1 + rng.below(3))]
        elif r < 86:                    # a long hold (D: the solve or the demo)
            name = "D" if rng.below(2) else BUTTONS[rng.below(6)]
            yield [("press", name), ("frames", 10 + rng.below(40)), ("release", name),
                   ("frames", 1)]
        elif r < 95:                    # a pause
            yield [("frames", 1 + rng.below(30))]
        else:                           # two buttons at once
            a = BUTTONS[rng.below(6)]
            b = BUTTONS[rng.below(6)]
            yield [("press", a), ("press", b), ("frames", 2 + rng.below(4)),
                   ("release", a), ("release", b), ("frames", 1)]
