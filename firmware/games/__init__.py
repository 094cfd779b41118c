# The games' rules, one module per game. What they all share is here.


class IllegalMove(ValueError):
    """A move the rules do not allow: a disc on a taken square, a pass while
    a move is at hand, a direction that does not exist. (A move that is
    allowed but changes nothing, such as a tile pushed against the wall, is
    not an error: the rules answer False and the screen bumps.)"""
