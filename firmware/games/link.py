# Why this module is long (~350 lines, a third of them comments): the link
# protocol reads as rules in one place, the messages' layout beside the half
# that plays the moves. Pairing (Lobby) is the other half, in
# firmware/games/link_pairing.py: a linked game's program never loads it.
"""Two boards playing one turn-based game over the radio: the rules of the
link, as plain objects (no pins, no clock: the time comes in as `now`, the
randomness as numbers, the radio as an object with send/poll/signal).

Every message is one radio packet of a fixed size for the game (at most 250
bytes), so sending and reading never allocate:

    0  'M'    1  VERSION    2  kind    3  game    4-5  session
    6...      the kind's own fields
    last two  a Fletcher-16 checksum of everything before it

  HELLO    name (length, then up to 12 characters): "I am here, playing game"
  INVITE   name; session: a new id chosen by the inviter
  ACCEPT   name
  DECLINE  (nothing)
  MOVE     number (2 bytes), move, then the whole position (the game's own
           bytes, side to move included)
  ACK      number (2 bytes), the position's checksum (2 bytes)

Pairing (Lobby, firmware/games/link_pairing.py): each board broadcasts a HELLO every half second and lists
the boards it hears, nearest (strongest signal) first. One invites another;
the other accepts; the inviter plays first (Black in Reversi) -- roles never
come from a random tie-break. If two boards invite each other at once, the
invitation of the board with the lower address stands. Both panels show the
same pairing code (pairing_code()), so the players can check they paired
with each other and not with a board in the next room.

Play (Session): a move is sent with its number and the whole position after
it; the sender repeats it every RESEND_MS until the other game (not just its
radio) answers with an ACK of that number and position. The receiver:
  number = its own + 1   plays the move by the rules; if the position it gets
                         is not the one sent, it takes the sent one (below);
  number > its own + 1   takes the sent position as it is (it missed moves:
                         a power cut before it saved);
  number = its own       a repeat: acknowledged again (its ACK was lost);
  number < its own       old: ignored, and its own later position is sent
                         back so the other board catches up.
The rule for a position that disagrees: the later move number wins; at the
same number, the inviter's position wins. Each side saves before it
acknowledges, so an acknowledged move survives a power cut on either side.
While nothing is unacknowledged each side sends an ACK of where it is every
_KEEPALIVE_MS; a peer not heard for _QUIET_MS is "quiet".
"""
import time

from micropython import const

VERSION = const(1)
_MAGIC = const(0x4D)          # 'M'
HELLO = const(1)
INVITE = const(2)
ACCEPT = const(3)
DECLINE = const(4)
MOVE = const(5)
ACK = const(6)

HEAD = const(6)               # magic, version, kind, game, session (2)
_MOVE_HEAD = const(9)         # head, number (2), move
_SMALLEST = const(22)         # head + a name field + checksum

RESEND_MS = const(300)        # an unacknowledged move or invitation, again
_KEEPALIVE_MS = const(1000)    # "still here, at move n" this often
_QUIET_MS = const(5000)        # a peer not heard this long is quiet
_READS_A_FRAME = const(8)     # messages read in one update, at most

# Session.update()'s events, bits (the Lobby's, 4 and up, are in link_pairing)
MOVED = const(1)              # the peer's move (or position) was taken
QUIET = const(2)              # the peer went quiet, or was heard again


def since(now, then):
    """Milliseconds from then to now, both ticks_ms() values (across the wrap)."""
    return time.ticks_diff(now, then)


def checksum(data, n):
    """Fletcher-16 of data[0:n]: catches a changed or swapped byte."""
    a = b = 0
    for i in range(n):
        a = (a + data[i]) % 255
        b = (b + a) % 255
    return (b << 8) | a


def message_size(state_size):
    """The size of every message of a game whose position is state_size bytes."""
    size = max(_SMALLEST, _MOVE_HEAD + state_size + 2)
    if size > 250:
        raise ValueError("a position of at most 239 bytes, not %d" % state_size)
    return size


class Link:
    """What the lobby and a session share: the radio, the game's number,
    the fixed message size and one buffer to write messages into."""

    def __init__(self, radio, game, state_size):
        self.radio = radio
        self.game = game
        self.size = message_size(state_size)
        self.out = bytearray(self.size)

    def start(self, kind, session):
        """A new message of this kind in self.out (zeros after the head)."""
        out = self.out
        for i in range(self.size):
            out[i] = 0
        out[0] = _MAGIC
        out[1] = VERSION
        out[2] = kind
        out[3] = self.game
        out[4] = (session >> 8) & 255
        out[5] = session & 255

    def send_to(self, mac):
        """Send self.out, its checksum filled in, to the board mac."""
        out = self.out
        n = self.size - 2
        c = checksum(out, n)
        out[n] = c >> 8
        out[n + 1] = c & 255
        return self.radio.send(mac, out)

    def kind_of(self, msg):
        """The kind of a message heard, or 0 when it is not one of ours: another
        game, another version, the wrong size or a bad checksum."""
        n = self.size
        if (msg is None or len(msg) != n or msg[0] != _MAGIC or msg[1] != VERSION
                or msg[3] != self.game):
            return 0
        if checksum(msg, n - 2) != (msg[n - 2] << 8) | msg[n - 1]:
            return 0
        return msg[2]


def session_of(msg):
    return (msg[4] << 8) | msg[5]


def number_of(msg):
    return (msg[6] << 8) | msg[7]


class Session(Link):
    """One game's moves between two paired boards. `game` is the game's side
    of the link, an object with:
        position_into(buf, off)  write the whole position (side to move
                                 included): state_size bytes
        play(move)               the peer's move by the rules: False if illegal
        set_position(msg, off)   take a position as it is (the stated rule)
        moved(number, move)      a move was made or taken: save now, before
                                 anything is acknowledged
    number is the move number the position has (0 at the start); last_move
    the move that made it; pending: our own move not yet acknowledged."""

    def __init__(self, radio, game_id, state_size, game, session, peer, inviter,
                 number=0, last_move=0, pending=False):
        Link.__init__(self, radio, game_id, state_size)
        self.linked = game
        self.state_size = state_size
        self.scratch = bytearray(state_size)
        self.session = session
        self.peer = bytes(peer)
        self.inviter = inviter
        self.number = number
        self.last_move = last_move
        self.pending = pending
        self.sent_at = None
        self.heard_at = None
        self.quiet = False

    def play(self, move, now):
        """Our move, already made on our game: numbered, saved, sent."""
        self.number += 1
        self.last_move = move
        self.pending = True
        self.linked.moved(self.number, move)
        self._send_position(now)

    def _send_position(self, now):
        self.start(MOVE, self.session)
        out = self.out
        out[6] = (self.number >> 8) & 255
        out[7] = self.number & 255
        out[8] = self.last_move
        self.linked.position_into(out, _MOVE_HEAD)
        self.sent_at = now
        self.send_to(self.peer)

    def _position_check(self):
        self.linked.position_into(self.scratch, 0)
        return checksum(self.scratch, self.state_size)

    def _ack(self, now):
        self.start(ACK, self.session)
        out = self.out
        out[6] = (self.number >> 8) & 255
        out[7] = self.number & 255
        c = self._position_check()
        out[8] = c >> 8
        out[9] = c & 255
        self.sent_at = now
        self.send_to(self.peer)

    def update(self, now):
        """Read what the peer sent, repeat what is unacknowledged, say we are
        here; the events (bits: MOVED, QUIET)."""
        events = 0
        radio = self.radio
        if self.heard_at is None:
            self.heard_at = now            # the clock starts with the session
        for _ in range(_READS_A_FRAME):
            msg = radio.poll()
            if msg is None:
                break
            if radio.sender != self.peer:
                continue
            kind = self.kind_of(msg)
            if kind == 0 or session_of(msg) != self.session:
                continue
            self.heard_at = now
            if kind == MOVE:
                events |= self._move_heard(msg, now)
            elif kind == ACK:
                self._ack_heard(msg, now)
            elif kind == INVITE and not self.inviter:
                # the inviter did not hear our ACCEPT: say it again
                self.start(ACCEPT, self.session)
                self.send_to(self.peer)
        quiet = since(now, self.heard_at) >= _QUIET_MS
        if quiet != self.quiet:
            self.quiet = quiet
            events |= QUIET
        wait = RESEND_MS if self.pending else _KEEPALIVE_MS
        if self.sent_at is None or since(now, self.sent_at) >= wait:
            if self.pending:
                self._send_position(now)
            else:
                self._ack(now)
        return events

    def _move_heard(self, msg, now):
        number = number_of(msg)
        if number < self.number:           # old: it missed ours; send it again
            self._send_position(now)
            return 0
        game = self.linked
        try:
            if number == self.number:
                if self._same_position(msg):
                    self.pending = False       # (it is where we are)
                    self._ack(now)
                    return 0
                if self.inviter:               # the inviter's position wins
                    self._send_position(now)
                    return 0
                game.set_position(msg, _MOVE_HEAD)
            elif number == self.number + 1:
                if not (game.play(msg[8]) and self._same_position(msg)):
                    game.set_position(msg, _MOVE_HEAD)   # the later move's position wins
            else:
                game.set_position(msg, _MOVE_HEAD)       # it missed moves: taken whole
        except ValueError:                 # not a position of this game: ignored
            return 0
        self.number = number
        self.last_move = msg[8]
        self.pending = False
        game.moved(number, msg[8])         # saved before it is acknowledged
        self._ack(now)
        return MOVED

    def _same_position(self, msg):
        self.linked.position_into(self.scratch, 0)
        scratch = self.scratch
        for i in range(self.state_size):
            if scratch[i] != msg[_MOVE_HEAD + i]:
                return False
        return True

    def _ack_heard(self, msg, now):
        number = number_of(msg)
        if number == self.number:
            check = (msg[8] << 8) | msg[9]
            if check == self._position_check():
                self.pending = False
            elif self.inviter and (self.sent_at is None
                                   or since(now, self.sent_at) >= RESEND_MS):
                self._send_position(now)   # we disagree: the inviter's position wins
        elif number < self.number and not self.pending:
            # it says it is behind (it lost a move to a power cut): catch it up
            if self.sent_at is None or since(now, self.sent_at) >= RESEND_MS:
                self._send_position(now)
