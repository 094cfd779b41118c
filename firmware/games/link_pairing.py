"""Pairing for a link game (firmware/games/link.py has the messages and the
play that follows): the boards heard, nearest first, invitations out and
in, the pairing code, the boards' names. A game's lobby loads this module;
a linked game, once paired, does not (its program starts from the save).

Each board broadcasts a HELLO every half second and lists the boards it
hears, nearest (strongest signal) first. One invites another; the other
accepts; the inviter plays first (Black in Reversi) -- roles never come
from a random tie-break. If two boards invite each other at once, the
invitation of the board with the lower address stands. Both panels show
the same pairing code (pairing_code()), so the players can check they
paired with each other and not with a board in the next room. Once paired,
a Lobby also carries a game's own messages (send(), MESSAGE).
"""
from micropython import const

from firmware.games.link import (
    Link, HEAD, HELLO, INVITE, ACCEPT, DECLINE, MOVE, ACK, RESEND_MS, since, session_of)

# Lobby.update()'s events, bits (after the Session's, firmware/games/link.py)
INVITED = const(4)            # an invitation arrived (or was withdrawn)
PAIRED = const(8)             # paired; start a Session
DECLINED = const(16)          # our invitation was declined
HEARD = const(32)             # the list of boards changed
MESSAGE = const(64)           # paired: the friend sent the game's own data

_NAME_MAX = const(12)
HELLO_MS = const(500)         # a HELLO this often while pairing
GONE_MS = const(3000)         # a board not heard this long leaves the list
_MOST_BOARDS = const(6)       # the lobby lists this many boards at most
_READS_A_FRAME = const(8)     # messages read in one update, at most

_CODE_LETTERS = const("ACDEFHJKLMNPRTUVWXY34679")   # no 0/O, 1/I, 2/Z, 5/S, 8/B, G


def board_name(mac, prefix="ML4M"):
    """A short name from a board's address: ML4M-3F2A."""
    return "%s-%02X%02X" % (prefix, mac[4], mac[5])


def pairing_code(session, inviter, invitee):
    """4 characters both boards work out the same way from the session and
    both addresses: equal codes on two panels mean they paired together."""
    h = session & 0xFFFF
    for mac in (inviter, invitee):
        for byte in mac:
            h = (h * 33 + byte) % 16777213     # stays a small int on the board
    n = len(_CODE_LETTERS)
    code = ""
    for _ in range(4):
        code += _CODE_LETTERS[h % n]
        h //= n
    return code


def name_of(msg):
    """The name in a HELLO, INVITE or ACCEPT (a new str: read only when a
    board is first heard or invites)."""
    n = min(msg[HEAD], _NAME_MAX)
    return bytes(msg[HEAD + 1:HEAD + 1 + n]).decode()



class Lobby(Link):
    """Pairing: the boards heard (boards: [address, name, signal, heard at],
    nearest first), invitations out and in. update(now) once a frame."""

    def __init__(self, radio, game, state_size, name):
        Link.__init__(self, radio, game, state_size)
        self.name = name.encode()
        self.boards = []
        self.hello_at = None
        self.inviting = None          # the address we invite, until answered
        self.invite_at = 0
        self.invited_by = None        # [address, name, session] of an invitation to us
        self.session = 0              # paired: the session, the peer, our role
        self.peer = None
        self.peer_name = ""
        self.inviter = False
        self.message = None           # paired: the friend's data (MESSAGE)

    def _send_named(self, kind, session, name, mac):
        self.start(kind, session)
        n = min(len(name), _NAME_MAX)
        self.out[HEAD] = n
        for i in range(n):
            self.out[HEAD + 1 + i] = name[i]
        return self.send_to(mac)

    def invite(self, mac, session, now):
        """Invite the board mac into a new session (a non-zero 16-bit number
        the caller draws at random); the invitation is repeated until it is
        answered or cancel()led."""
        self.inviting = bytes(mac)
        self.session = session & 0xFFFF or 1
        self.invite_at = now
        self._send_named(INVITE, self.session, self.name, self.inviting)

    def cancel(self):
        self.inviting = None
        self.session = 0

    def accept(self):
        """Accept the invitation on show: paired, the inviter plays first."""
        mac, name, session = self.invitation()
        self._send_named(ACCEPT, session, self.name, mac)
        self._paired(mac, name, session, False)

    def invitation(self):
        """[address, name, session] of the invitation on show (ValueError: none)."""
        if self.invited_by is None:
            raise ValueError("no invitation to answer")
        return self.invited_by

    def decline(self):
        mac, name, session = self.invitation()
        self.start(DECLINE, session)
        self.send_to(mac)
        self.invited_by = None

    def _paired(self, mac, name, session, inviter):
        self.peer, self.peer_name, self.session, self.inviter = mac, name, session, inviter
        self.inviting = self.invited_by = None

    def send(self, data):
        """Paired: send the friend's board data of the game's own (bytes, at
        most 250); True when its radio heard it."""
        return self.radio.send(self.peer, data)

    def update(self, now):
        """Hear what came, say HELLO, repeat an invitation; the events (bits).
        Paired: MESSAGE when the friend's board sent data of the game's own
        (in self.message until the next update: one a call)."""
        events = 0
        radio = self.radio
        self.message = None
        for _ in range(_READS_A_FRAME):
            msg = radio.poll()
            if msg is None:
                break
            if self.peer is not None and radio.sender == self.peer and self.kind_of(msg) == 0:
                self.message = msg
                return events | MESSAGE
            events |= self._heard(radio.sender, msg, now)
            if events & PAIRED:
                return events
        if self.peer is not None:
            return events                  # paired: no more HELLOs
        if self.hello_at is None or since(now, self.hello_at) >= HELLO_MS:
            self.hello_at = now
            self._send_named(HELLO, 0, self.name, b"\xff\xff\xff\xff\xff\xff")
            events |= self._forget_gone(now)
        if self.inviting is not None and since(now, self.invite_at) >= RESEND_MS:
            self.invite_at = now
            self._send_named(INVITE, self.session, self.name, self.inviting)
        return events

    def _heard(self, mac, msg, now):
        kind = self.kind_of(msg)
        if kind == 0:
            return 0
        events = self._note(mac, msg, kind, now)
        session = session_of(msg)
        if kind == INVITE:
            if self.peer is not None:
                if self.peer == mac and session == self.session and not self.inviter:
                    # paired, but the inviter did not hear our ACCEPT: again
                    self._send_named(ACCEPT, session, self.name, self.peer)
                return events
            if self.inviting is not None and self.inviting == mac and self.radio.mac < bytes(mac):
                return events              # we invited each other: ours stands
            if self.invited_by is None or self.invited_by[2] != session:
                self.inviting = None       # theirs stands (or we were not inviting)
                self.invited_by = [bytes(mac), name_of(msg), session]
                events |= INVITED
        elif self.inviting is not None and mac == self.inviting and session == self.session:
            if kind == DECLINE:
                self.cancel()
                events |= DECLINED
            elif kind == ACCEPT or kind == MOVE or kind == ACK:
                # an ACCEPT lost on the way: its session's messages say the same
                name = name_of(msg) if kind == ACCEPT else self.name_heard(mac)
                self._paired(self.inviting, name, session, True)
                events |= PAIRED
        return events

    def name_heard(self, mac):
        for entry in self.boards:
            if entry[0] == mac:
                return entry[1]
        return board_name(mac)

    def _note(self, mac, msg, kind, now):
        """A board heard: into the list (or its signal and time refreshed),
        the list kept nearest first."""
        signal = self.radio.signal(mac)
        for entry in self.boards:
            if entry[0] == mac:
                entry[2] = signal
                entry[3] = now
                self._sort()
                return 0
        if kind not in (HELLO, INVITE):
            return 0
        if len(self.boards) >= _MOST_BOARDS:
            self._sort()
            if self.boards[-1][2] >= signal:
                return 0
            self.boards.pop()
        self.boards.append([bytes(mac), name_of(msg), signal, now])
        self._sort()
        return HEARD

    def _sort(self):
        # a few entries: insertion sort, strongest signal first (stable)
        boards = self.boards
        for i in range(1, len(boards)):
            j = i
            while j > 0 and boards[j - 1][2] < boards[j][2]:
                boards[j - 1], boards[j] = boards[j], boards[j - 1]
                j -= 1

    def _forget_gone(self, now):
        before = len(self.boards)
        self.boards = [e for e in self.boards if since(now, e[3]) < GONE_MS]
        events = HEARD if len(self.boards) != before else 0
        invited = self.invited_by
        if invited is not None and not self._listed(invited[0]):
            self.invited_by = None         # the inviter went away
            events |= INVITED
        return events

    def _listed(self, mac):
        for entry in self.boards:
            if entry[0] == mac:
                return True
        return False
