"""The stick's rest position measured: at power-on (Controls, given no rest)
and from Settings' "Calibrate stick". A module of its own because no game
needs it: a game's program starts with the rest measured before its launch
(the launch note), and at power-on this module is forgotten with
firmware/start_up.py, which brings the HAL up (README, "Why the code looks
like this": code only a program's start needs)."""
from micropython import const

_CAL_GROUPS = const(8)    # readings averaged (each of board.JOY_SAMPLES samples)


def calibrate(controls):
    """Measure the stick's rest position. If the stick is being held (far
    from the nominal rest, or moving), keep the nominal rest and ignore the
    stick until it comes back. Returns True when the rest was measured."""
    lo_x = lo_y = 4095
    hi_x = hi_y = sx = sy = 0
    for _ in range(_CAL_GROUPS):
        x = controls._read(controls._adc_x)
        y = controls._read(controls._adc_y)
        sx += x
        sy += y
        lo_x = min(lo_x, x)
        hi_x = max(hi_x, x)
        lo_y = min(lo_y, y)
        hi_y = max(hi_y, y)
    x = sx // _CAL_GROUPS
    y = sy // _CAL_GROUPS
    board = controls._board
    rest_x = board.JOY_REST_X
    rest_y = board.JOY_REST_Y
    lim = board.JOY_CAL_LIMIT
    spread = board.JOY_CAL_SPREAD
    ok = (abs(x - rest_x) <= lim and abs(y - rest_y) <= lim
          and hi_x - lo_x <= spread and hi_y - lo_y <= spread)
    if ok:
        controls.center_x = x
        controls.center_y = y
    else:
        controls.center_x = rest_x
        controls.center_y = rest_y
    controls.calibrated = ok
    controls._dir = -1
    controls._sample_stick()
    if not ok:
        # whatever the held stick says now is not a move
        if controls._dir >= 0:
            controls._mask |= 1 << controls._dir
    return ok
