"""The two ends of a linked game (firmware.screens.link): its start, from
the lobby's pairing or from the save, and its end, the result against the
friend; and what a save holds of it. Borrowed only then (GameScreen.borrow),
so the linked game does not hold this code while it is played."""
from micropython import const

from firmware.games.link import Session
from firmware.games.reversi import BLACK, WHITE, DRAW
from firmware.games.reversi_link import GAME_ID, STATE_SIZE
from firmware.screens.link import LOBBY
from firmware.screens.reversi_shared import Play, TWO_PLAYERS

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.link import Game

_RECORDS = const("Friends")            # the Records group of linked games


def link(screen: "Game", session, peer, inviter, name, number=0, last=0, pending=False):
    """The Session with the friend (peer: its address as 12 hex digits);
    the screen is its game side (position_into, play, set_position, moved)."""
    screen.session = Session(screen.radio, GAME_ID, STATE_SIZE, screen, session,
                             bytes(int(peer[i:i + 2], 16) for i in range(0, 12, 2)),
                             inviter, number, last, pending)
    screen.colour = BLACK if inviter else WHITE
    screen.peer_name = name


def new_game(screen: "Game", now):
    """A new linked game when the lobby has just paired us (the inviter
    plays Black); otherwise (none to continue, or one that has ended)
    the lobby's program, to pair again. Never returns then."""
    paired = screen.paired
    if paired is None:
        if screen.session is not None:
            screen.session = None
            screen.save()                  # the ended game is not Continue's
        screen.app.leave({"open": LOBBY})
        return
    screen.paired = None
    link(screen, paired["session"], paired["peer"], paired["inviter"], paired["name"])
    screen.code = paired["code"]
    Play.new_game(screen, now)     # an empty board, saved with the session
    screen.mode = TWO_PLAYERS
    screen.rated = False
    screen.box_dirty = True


def restore(screen: "Game", data):
    """The saved linked game back: False when the lobby has just paired us
    with another friend (a new pairing: a new game)."""
    saved = data["link"]
    paired = screen.paired
    if paired is not None and (paired["session"] != saved["session"]
                               or paired["peer"] != saved["peer"]):
        return False
    link(screen, saved["session"], saved["peer"], saved["inviter"], saved["name"],
         saved["number"], saved["last"], saved["pending"])   # (the hints: our colour)
    if not Play.restore(screen, data):
        return False
    screen.mode = TWO_PLAYERS              # (whatever the save says: a linked game is
    screen.rated = False                   # two players, unrated)
    screen.paired = None                   # (the same pairing: started again after a reset)
    return True


def progress(screen: "Game"):
    """The linked game in progress, as saved after every move: Reversi's
    fields, and the link's (the session, the friend, the move number)."""
    session = screen.session
    return {"v": 1, "game": screen.game.to_dict(), "mode": TWO_PLAYERS, "level": screen.level,
            "rated": False, "link": {
                "session": session.session, "peer": "".join("%02x" % b for b in session.peer),
                "name": screen.peer_name, "inviter": session.inviter,
                "number": session.number, "last": session.last_move,
                "pending": session.pending}}


def finish(screen: "Game"):
    """The result against the friend: counted in Records, and on the panel
    ("YOU WIN 40-24")."""
    winner = screen.game.winner()
    outcome = "drawn" if winner == DRAW else "won" if winner == screen.colour else "lost"
    screen.app.records.count(_RECORDS, outcome)
    black, white = screen.game.final_score()
    mine, theirs = (black, white) if screen.colour == BLACK else (white, black)
    lines = screen.end_lines
    screen.end_lines = (lines[0], lines[1], "YOU %s %d-%d" % (
        {"won": "WIN", "lost": "LOSE", "drawn": "DRAW"}[outcome], mine, theirs), lines[3])
