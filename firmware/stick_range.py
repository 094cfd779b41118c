"""The stick's centre and range, captured by Test board while the owner circles
the stick, kept in data/stick.json and given to the controls at every power-on
(use()). Borrowed at power-on and by Test board, forgotten after
(README, "Why the code looks like this").

A capture is judged before it is kept: a reason (a text for the panel) means it
is refused and the calibration before it stays. The same judgement checks the
file when it is read back, so a damaged or hand-edited file is set aside like
any other (firmware/hal/store.py)."""
from micropython import const

FILE = "stick"
KEYS = ("center_x", "center_y", "x_low", "x_high", "y_low", "y_high")
_ADC_TOP = const(4095)     # 12-bit counts
DEAD = const(100)          # an axis that moved less than this while circled is dead
_MIN_REACH = const(400)    # each end at least this far from the centre...
_MIN_CENTRE = const(300)   # ...and the centre this far inside the ADC's span


def judge(cal):
    """None when the capture can be used, else why not (fits the panel:
    short lines of up to 16 characters)."""
    for axis in ("x", "y"):
        low = cal[axis + "_low"]
        high = cal[axis + "_high"]
        centre = cal["center_" + axis]
        name = axis.upper()
        if high - low < DEAD:
            return "%s axis dead:\nmoved %d counts" % (name, high - low)
        if not _MIN_CENTRE <= centre <= _ADC_TOP - _MIN_CENTRE:
            return "%s centre %d:\nnot mid-range" % (name, centre)
        short = min(centre - low, high - centre)
        if short < _MIN_REACH:
            return "%s reach %d:\nunder %d" % (name, short, _MIN_REACH)
    return None


def check(saved):
    """The schema of data/stick.json (Store.load's check): six whole numbers
    0..4095 that judge() accepts."""
    from firmware import check as checks
    checks.table(saved, "stick")
    for key in KEYS:
        checks.integer(saved.get(key), 0, _ADC_TOP, "stick " + key)
    reason = judge(saved)
    if reason is not None:
        raise checks.Invalid("stick: " + reason.replace("\n", " "))


def load(hal):
    """The saved capture given to the controls; True when there was one."""
    saved = hal.store.load(FILE, {}, _check_saved)
    if not saved:
        return False
    use(hal, saved)
    return True


def use(hal, cal):
    """Give the controls a range: each half-axis scaled so that its own end
    reads the same (firmware/hal/controls.py: _FULL_PUSH); its centre is the rest when
    the rest could not be measured at power-on (the stick was held)."""
    controls = hal.controls
    board = hal.board
    if not controls.calibrated:
        controls.center_x = cal["center_x"]
        controls.center_y = cal["center_y"]
    left = cal["center_x"] - cal["x_low"]
    right = cal["x_high"] - cal["center_x"]
    if board.JOY_X_INVERT:          # a low raw X is a push to the right
        left, right = right, left
    up = cal["center_y"] - cal["y_low"]
    down = cal["y_high"] - cal["center_y"]
    if board.JOY_Y_INVERT:
        up, down = down, up
    reach = controls.reach
    reach[0] = left
    reach[1] = right
    reach[2] = up
    reach[3] = down


def _check_saved(saved):
    if saved:                  # {}: none captured yet
        check(saved)


def keep(hal, cal):
    """Judge a capture, save it and use it. None when kept, else the reason
    it was refused (the calibration before it stays, on the flash and in use)."""
    reason = judge(cal)
    if reason is not None:
        return reason
    if not hal.store.save(FILE, cal):
        return "Not saved:\n" + (hal.store.error or "flash")
    use(hal, cal)
    return None
