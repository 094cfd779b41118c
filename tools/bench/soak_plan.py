# Random play for the soak tests: the same seeded sequence of inputs on
# CPython (tools/soak.py, on the emulated board) and on real MicroPython
# (tools/bench/soak_mp.py). Its own small generator (xorshift32), so both
# interpreters draw exactly the same inputs from a seed.
#
# inputs(seed, n) yields n inputs, each a list of steps:
#   ("press", name) / ("release", name)   a button A..F
#   ("stick", direction)                   "left", "right", "up", "down" or None (centre)
#   ("raw", x, y)                          the stick's two ADC counts as read (X wired
#                                          inverted: left is high); values beyond
#                                          0..4095 are clamped by the driver, as the
#                                          ADC cannot read past its ends
#   ("frames", k)                          let k frames run
#   ("idle", what, button)                 nothing touched until the panel has dimmed
#                                          (what "dim") or the screen saver has put it
#                                          to sleep (what "saver": the settings' saver_s
#                                          at that moment, so the driver reads it), on
#                                          the virtual clock; then button wakes it
#   ("checkpoint",)                        go back to the menu (B until it shows) and
#                                          measure (every CHECK_EVERY inputs)
#   ("visit", k)                           from the menu, launch its k-th game entry
#                                          (k modulo the number of game entries; the
#                                          driver reads the menu), every game in turn
# Taps, pushes, holds (a held D plays the solve or the demo), pauses, chords
# (two buttons, a button with the stick, E+F held for the mute), raw stick
# values (drift inside the dead zone, diagonals, partial pushes about the
# thresholds, the ADC's ends), the pause menu (E) with its rows used, and
# long idles, weighted so that every screen is reached from the menu.

BUTTONS = ("A", "B", "C", "D", "E", "F")
DIRECTIONS = ("left", "right", "up", "down")
CHECK_EVERY = 150
REST = 1850          # the stick's rest in ADC counts (firmware/boards/ml4m.py)
ADC_MAX = 4095


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

    def between(self, lo, hi):
        return lo + self.below(hi - lo + 1)


def tap(name, rng=None):
    held = 1 + rng.below(3) if rng else 2
    return [("press", name), ("frames", held), ("release", name), ("frames", 1 + (rng.below(3) if rng else 1))]


def push(direction, frames=2):
    return [("stick", direction), ("frames", frames), ("stick", None), ("frames", 2)]


def pause_menu(rng):
    """E in a game: the pause menu, one of its rows used, then closed.
    Rows from the top are Resume, the game's actions and settings; from the
    bottom (the cursor wraps: up from Resume) Save and leave, New game,
    Keys, Brightness, Sound. On another screen E does what that screen does."""
    steps = tap("E")
    r = rng.below(10)
    if r < 5:                       # the system's rows, counted up from Resume
        up = rng.between(1, 5)      # 1 Save and leave .. 5 Sound
        for _ in range(up):
            steps += push("up")
    else:                           # Resume, the game's own rows
        for _ in range(rng.below(5)):
            steps += push("down")
        up = 0
    act = rng.below(4)
    if act == 0:                    # change a value (settings, sound, brightness)
        for _ in range(rng.between(1, 3)):
            steps += push("right" if rng.below(3) else "left")
    elif act == 1 or up == 3:       # A: resume, an action, Keys, New game? or leave
        steps += tap("A")
        if up == 2 or rng.below(3) == 0:
            steps += tap("A" if rng.below(2) else "B")   # New game? yes or no; Keys back
    else:
        steps += [("frames", rng.between(1, 20))]
    steps += tap("E" if rng.below(2) else "B")           # closed (if still open)
    return steps


def raw_stick(rng):
    """The stick as its potentiometers read, not four clean directions."""
    r = rng.below(5)
    steps = []
    if r == 0:                      # drift: a rest that wanders inside the dead zone
        x, y = REST, REST
        for _ in range(rng.between(3, 12)):
            x = min(max(x + rng.between(-120, 120), REST - 480), REST + 480)
            y = min(max(y + rng.between(-120, 120), REST - 480), REST + 480)
            steps += [("raw", x, y), ("frames", rng.between(1, 8))]
    elif r == 1:                    # a diagonal, full or part way
        far = rng.between(600, 2300)
        sx = 1 if rng.below(2) else -1
        sy = 1 if rng.below(2) else -1
        steps += [("raw", REST + sx * far, REST + sy * (far - rng.between(-150, 150))),
                  ("frames", rng.between(1, 15))]
    elif r == 2:                    # at and beyond the ends of the ADC's range
        ends = (-400, 0, 1, ADC_MAX - 1, ADC_MAX, ADC_MAX + 500)
        steps += [("raw", ends[rng.below(6)], ends[rng.below(6)]), ("frames", rng.between(1, 12))]
    elif r == 3:                    # about the thresholds: hysteresis, jitter frame by frame
        base = rng.between(420, 900)
        axis_x = rng.below(2)
        sign = 1 if rng.below(2) else -1
        for _ in range(rng.between(4, 16)):
            d = sign * (base + rng.between(-150, 150))
            steps += [("raw", REST + d, REST) if axis_x else ("raw", REST, REST + d), ("frames", 1)]
    else:                           # a slow sweep through a whole axis
        axis_x = rng.below(2)
        for v in range(0, ADC_MAX + 1, rng.between(200, 700)):
            steps += [("raw", v, REST) if axis_x else ("raw", REST, v), ("frames", 1)]
    return steps + [("stick", None), ("frames", 1 + rng.below(3))]


def chord(rng):
    """Two inputs at once."""
    r = rng.below(4)
    if r == 0:                      # the mute chord: E+F held a second (or not quite)
        first, second = ("E", "F") if rng.below(2) else ("F", "E")
        held = rng.between(32, 45) if rng.below(4) else rng.between(10, 28)
        return [("press", first), ("frames", rng.below(3)), ("press", second),
                ("frames", held), ("release", first), ("frames", rng.below(2)),
                ("release", second), ("frames", 2)]
    if r == 1:                      # a button with the stick pushed
        name = BUTTONS[rng.below(6)]
        direction = DIRECTIONS[rng.below(4)]
        return [("stick", direction), ("press", name), ("frames", rng.between(2, 20)),
                ("release", name), ("stick", None), ("frames", 2)]
    a = BUTTONS[rng.below(6)]       # two buttons
    b = BUTTONS[rng.below(6)]
    return [("press", a), ("press", b), ("frames", 2 + rng.below(4)),
            ("release", a), ("release", b), ("frames", 1)]


def inputs(seed, n, place=None):
    """The plan: n inputs from seed (the items above). place, if given, is a
    list kept up to date before each item: [input number, part (0 the
    checkpoint, 1 the visit, 2 the input), the generator's state, visits].
    Given the place of an item from an earlier run of the same plan, the plan
    starts again at that item, as if the items before it had been drawn: a
    soak going on after a soft reset does not draw them all again (which made
    a long MicroPython soak take time in the square of its length)."""
    rng = Xorshift(seed)
    first, part, visits = 0, 0, 0
    if place:
        first, part, rng.state, visits = place

    def here(i, part):
        if place is not None:
            place[:] = [i, part, rng.state, visits]

    for i in range(first, n):
        if i and i % CHECK_EVERY == 0 and part < 2:
            # back to the menu, measured; then the next game entry in turn
            # (every game's pause menu, whatever the random walk reaches)
            if part == 0:
                here(i, 0)
                yield [("checkpoint",)]
            here(i, 1)
            yield [("visit", visits), ("frames", rng.between(5, 40))] + pause_menu(rng)
            visits += 1
        part = 0
        here(i, 2)
        r = rng.below(1000)
        if r < 360:                     # a tap (B less often: it leaves the screen)
            name = BUTTONS[rng.below(6)]
            if name == "B" and rng.below(3):
                name = "A"
            yield tap(name, rng)
        elif r < 660:                   # a push of the stick
            yield [("stick", DIRECTIONS[rng.below(4)]), ("frames", 1 + rng.below(12)),
                   ("stick", None), ("frames", 1 + rng.below(3))]
        elif r < 730:                   # a long hold (D: the solve or the demo)
            name = "D" if rng.below(2) else BUTTONS[rng.below(6)]
            yield [("press", name), ("frames", 10 + rng.below(40)), ("release", name),
                   ("frames", 1)]
        elif r < 800:                   # a pause
            yield [("frames", 1 + rng.below(30))]
        elif r < 860:                   # the stick's raw values
            yield raw_stick(rng)
        elif r < 900:                   # chords
            yield chord(rng)
        elif r < 998:                   # the pause menu
            yield pause_menu(rng)
        else:                           # a long idle: the dim, or the screen saver
            what = "saver" if rng.below(3) == 0 else "dim"
            name = BUTTONS[rng.below(6)]
            yield [("idle", what, name), ("frames", 2), ("release", name), ("frames", 2)]
