"""Hints for a puzzle (firmware/games/npuzzle.py): the next push of the plan
a Hinter keeps, planned again with firmware.games.npuzzle_solver when the
player strayed from it. Loaded only for a hint, by
firmware/screens/puzzle_hints.py; the plan itself stays in the Hinter between
frames (see README, "Why the code looks like this")."""
from firmware.games.npuzzle import BLANK_STEP, find


def _follow(hinter, tiles):
    """Advance through the plan if the player followed it; True if the
    board is somewhere on the remaining plan."""
    exp = hinter.expected
    if len(exp) != len(tiles):
        return False
    w = hinter.width
    blank = find(exp, 0)
    plan = hinter.plan
    while hinter.step < len(plan):
        if exp == tiles:
            return True
        dc, dr = BLANK_STEP[plan[hinter.step]]
        q = blank + dr * w + dc
        exp[blank] = exp[q]
        exp[q] = 0
        blank = q
        hinter.step += 1
    return False


def hint(hinter, puzzle):
    """The push direction to play next, or None when solved."""
    if puzzle.is_solved():
        return None
    tiles = puzzle.tiles
    if hinter.width != puzzle.width or not _follow(hinter, tiles):
        from firmware.games.npuzzle_solver import solve8, plan_stage
        hinter.width = puzzle.width
        if puzzle.width == 3:
            hinter.plan = solve8(tiles)
        else:
            hinter.plan = plan_stage(tiles, puzzle.width)
        hinter.step = 0
        hinter.expected = bytearray(tiles)
    return hinter.plan[hinter.step]
