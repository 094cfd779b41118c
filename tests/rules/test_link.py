# The link protocol (firmware/games/link.py) and Reversi's side of it: runs
# under CPython (pytest) and MicroPython (make mptest). The air here is a
# plain list per board with seeded loss, duplicates and reordering (a small
# generator of its own: MicroPython's random has no Random objects).
from firmware.games import link
from firmware.games.link import Session, checksum
from firmware.games import link_pairing
from firmware.games.link_pairing import Lobby, pairing_code, board_name
from firmware.games.reversi import Reversi, BLACK, WHITE, PASS
from firmware.games import reversi_link
from firmware.games.reversi_link import STATE_SIZE, GAME_ID, position_into

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
FRAME_MS = 33


class Dice:
    """A seeded generator that gives the same numbers on both interpreters."""

    def __init__(self, seed):
        self.state = seed * 2654435 + 12345

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) % 2147483648
        return (self.state >> 8) % n

    def chance(self, percent):
        return self.below(100) < percent


class Air:
    def __init__(self, seed=1, loss=0, duplicate=0, reorder=0):
        self.dice = Dice(seed)
        self.loss, self.duplicate, self.reorder = loss, duplicate, reorder
        self.radios = []
        self.drop_next = None          # (sender's address, kind): its next one is lost
        self.sent = []                 # (from, to, kind) of every message

    def radio(self, mac, signal=-40):
        radio = Radio(self, mac, signal)
        self.radios.append(radio)
        return radio

    def carry(self, sender, mac, msg):
        if not sender.on:
            return False
        self.sent.append((sender.mac, bytes(mac), msg[2]))
        if self.drop_next == (sender.mac, msg[2]):
            self.drop_next = None
            return False
        for radio in self.radios:
            if radio is sender or not radio.on or (mac != BROADCAST and mac != radio.mac):
                continue
            if self.dice.chance(self.loss):
                continue
            for _ in range(2 if self.dice.chance(self.duplicate) else 1):
                at = len(radio.inbox)
                if at and self.dice.chance(self.reorder):
                    at = self.dice.below(at)
                radio.inbox.insert(at, (sender.mac, bytes(msg)))
        return True


class Radio:
    def __init__(self, air, mac, signal):
        self.air, self.mac, self.strength = air, mac, signal
        self.inbox = []
        self.sender = None
        self.on = True

    def send(self, mac, msg):
        assert len(msg) <= 250
        return self.air.carry(self, mac, msg)

    def poll(self):
        if not self.inbox:
            return None
        self.sender, msg = self.inbox.pop(0)
        return bytearray(msg)

    def signal(self, mac):
        for radio in self.air.radios:
            if radio.mac == mac:
                return radio.strength
        return -127


def mac(n):
    return bytes([0x24, 0x6F, 0x28, 0, n >> 8, n & 255])


def lobby(air, n, signal=-40):
    radio = air.radio(mac(n), signal)
    return Lobby(radio, GAME_ID, STATE_SIZE, board_name(radio.mac))


def run(parts, now, frames):
    """Step every part (lobbies or players) frames times; (now, events of each)."""
    seen = [0] * len(parts)
    for _ in range(frames):
        now += FRAME_MS
        for i, part in enumerate(parts):
            seen[i] |= part.update(now)
    return now, seen


# ---- names, codes, messages --------------------------------------------------------
def test_names_and_pairing_codes():
    assert board_name(b"\x24\x6f\x28\x11\x3f\x2a") == "ML4M-3F2A"
    a, b = mac(1), mac(2)
    code = pairing_code(0x1234, a, b)
    assert len(code) == 4 and code == pairing_code(0x1234, a, b)
    for letter in code:
        assert letter not in "0O1I2Z5S8BG"
    assert code != pairing_code(0x1235, a, b)
    assert code != pairing_code(0x1234, b, a)     # who invited is part of it


def test_checksum_catches_a_changed_and_a_swapped_byte():
    data = bytearray(b"reversi over the air")
    c = checksum(data, len(data))
    data[3] ^= 1
    assert checksum(data, len(data)) != c
    data[3] ^= 1
    data[4], data[5] = data[5], data[4]
    assert checksum(data, len(data)) != c


def test_a_message_is_one_packet_and_the_limit_is_said():
    assert link.message_size(STATE_SIZE) <= 250
    assert link.message_size(239) == 250
    try:
        link.message_size(240)
        assert False
    except ValueError as e:
        assert "at most 239 bytes, not 240" in str(e)


def test_messages_from_another_game_version_or_with_a_bad_checksum_are_refused():
    air = Air()
    a, b = lobby(air, 1), lobby(air, 2)
    a.update(0)
    msg = bytearray(b.radio.inbox[0][1])
    assert b.kind_of(msg) == link.HELLO
    for i, value in ((1, 2), (3, 9), (10, msg[10] ^ 4)):
        bad = bytearray(msg)
        bad[i] = value
        assert b.kind_of(bad) == 0
    assert b.kind_of(msg[:-1]) == 0


def test_ticks_wrap():
    assert link.since(5, (1 << 30) - 5) == 10
    assert link.since(100, 40) == 60


# ---- pairing -------------------------------------------------------------------------
def test_boards_heard_nearest_first_and_forgotten_when_gone():
    air = Air()
    me, far, near = lobby(air, 1), lobby(air, 2, signal=-80), lobby(air, 3, signal=-35)
    now, seen = run([me, far, near], 0, 20)
    assert seen[0] & link_pairing.HEARD
    assert [e[1] for e in me.boards] == [board_name(mac(3)), board_name(mac(2))]
    near.radio.on = False                # carried out of the room
    now, seen = run([me, far, near], now, 120)
    assert [e[1] for e in me.boards] == [board_name(mac(2))]


def until(parts, now, bit, who, most=300):
    """Step until parts[who] reports event bit; now."""
    for _ in range(most):
        now, seen = run(parts, now, 1)
        if seen[who] & bit:
            return now
    assert False, "no event %d in %d frames" % (bit, most)


def pair(air, a, b, now=0):
    """a invites b, b accepts: now."""
    now, _ = run([a, b], now, 20)
    a.invite(b.radio.mac, 0xBEEF, now)
    now = until([a, b], now, link_pairing.INVITED, 1)
    assert b.invited_by[1] == a.name.decode()
    b.accept()
    return until([a, b], now, link_pairing.PAIRED, 0)


def test_invite_accept_roles_and_the_same_code_on_both():
    air = Air()
    a, b = lobby(air, 1), lobby(air, 2)
    pair(air, a, b)
    assert a.inviter and not b.inviter          # the inviter plays Black
    assert a.session == b.session == 0xBEEF
    assert a.peer == b.radio.mac and b.peer == a.radio.mac
    assert a.peer_name == board_name(mac(2)) and b.peer_name == board_name(mac(1))
    assert (pairing_code(a.session, a.radio.mac, a.peer)
            == pairing_code(b.session, b.peer, b.radio.mac))


def test_a_declined_invitation():
    air = Air()
    a, b = lobby(air, 1), lobby(air, 2)
    now, _ = run([a, b], 0, 20)
    a.invite(b.radio.mac, 7, now)
    now, _ = run([a, b], now, 3)
    b.decline()
    now, seen = run([a, b], now, 3)
    assert seen[0] & link_pairing.DECLINED and a.inviting is None and not seen[0] & link_pairing.PAIRED


def test_two_boards_inviting_each_other_the_lower_address_stands():
    air = Air()
    a, b = lobby(air, 1), lobby(air, 2)
    now, _ = run([a, b], 0, 20)
    a.invite(b.radio.mac, 11, now)
    b.invite(a.radio.mac, 22, now)
    now, seen = run([a, b], now, 5)
    assert b.invited_by is not None and b.invited_by[2] == 11 and b.inviting is None
    assert a.invited_by is None and a.inviting == b.radio.mac


# ---- play ------------------------------------------------------------------------
class Player:
    """One board's side: a Reversi game, its Session, and a dice to move with.
    The Player is the Session's game side, as the link screen is on a board
    (firmware/screens/link.py), through the same functions of reversi_link."""

    def __init__(self, radio, lobby_or_saved, seed, number=0, last_move=0, pending=False,
                 game=None):
        self.game = game or Reversi()
        self.saves = []
        p = lobby_or_saved
        self.session = Session(radio, GAME_ID, STATE_SIZE, self, p.session, p.peer,
                               p.inviter, number, last_move, pending)
        self.colour = BLACK if p.inviter else WHITE
        self.dice = Dice(seed)

    def position_into(self, buf, off):
        position_into(self.game, buf, off)

    def play(self, move):
        return reversi_link.play(self.game, move)

    def set_position(self, data, off):
        reversi_link.set_position(self.game, data, off)

    def moved(self, number, move):
        self.saves.append(number)

    def update(self, now):
        events = self.session.update(now)
        game = self.game
        if (not game.is_game_over() and game.turn == self.colour
                and not self.session.pending and not self.session.quiet):
            moves = game.legal_moves()
            move = moves[self.dice.below(len(moves))]
            game.push(move)
            self.session.play(move, now)
        return events


def position(game):
    buf = bytearray(STATE_SIZE)
    position_into(game, buf, 0)
    return bytes(buf)


def paired_players(air=None, seed=1):
    air = air or Air(seed)
    a, b = lobby(air, 1), lobby(air, 2)
    now = pair(air, a, b)
    return air, Player(a.radio, a, seed), Player(b.radio, b, seed + 1), now


def play_out(players, now, most=6000):
    for _ in range(most):
        now, _ = run(players, now, 1)
        done = [p.game.is_game_over() and not p.session.pending for p in players]
        if all(done):
            break
    return now


def test_a_whole_game_both_boards_agree():
    air, black, white, now = paired_players()
    play_out([black, white], now)
    assert black.game.is_game_over() and white.game.is_game_over()
    assert position(black.game) == position(white.game)
    assert black.session.number == white.session.number > 50
    assert black.game.winner() == white.game.winner()
    assert white.saves == list(range(1, white.session.number + 1))   # each move saved once


def moves_sent(air, sender):
    return len([m for m in air.sent if m[0] == sender.session.radio.mac and m[2] == link.MOVE])


def test_a_lost_acknowledgement_the_move_is_sent_again_and_taken_once():
    air, black, white, now = paired_players()
    white.colour = black.colour = 0              # White only listens here
    now, _ = run([black, white], now, 2)         # the keepalives are out of the way
    black.colour = BLACK
    air.drop_next = (white.session.radio.mac, link.ACK)
    now, _ = run([black, white], now, 1)         # Black moves; White's ACK is lost
    assert black.session.number == 1 and black.session.pending
    now, _ = run([black, white], now, 30)
    assert moves_sent(air, black) >= 2           # sent again...
    assert not black.session.pending             # ...until acknowledged
    assert white.saves == [1]                    # taken (and saved) once
    assert position(black.game) == position(white.game)


def test_a_duplicated_move_is_taken_once():
    air, black, white, now = paired_players(Air(5, duplicate=100))
    now = play_out([black, white], now)
    assert position(black.game) == position(white.game)
    assert white.saves == list(range(1, white.session.number + 1))


def send_move(session, number):
    """session sends a MOVE numbered number with its position now."""
    session.start(link.MOVE, session.session)
    session.out[6] = number >> 8
    session.out[7] = number & 255
    session.out[8] = 0
    position_into(session.linked.game, session.out, 9)   # (linked: the Player)
    session.send_to(session.peer)


def test_an_old_move_is_ignored_and_the_later_position_sent_back():
    air, black, white, now = paired_players()
    now, _ = run([black, white], now, 60)
    assert white.session.number >= 4
    before, number = position(white.game), white.session.number
    black.game.board[11] = WHITE                 # an old position, numbered 1
    send_move(black.session, 1)
    black.game.board[11] = 0
    sent = moves_sent(air, white)
    white.session.update(now + 1)
    assert position(white.game) == before and white.session.number == number
    assert moves_sent(air, white) == sent + 1    # its later position, back


def test_a_board_that_missed_moves_takes_the_later_position_whole():
    air, black, white, now = paired_players()
    now, _ = run([black, white], now, 40)
    # white reboots from an older save: a fresh game at move 0
    number = black.session.number
    white = Player(white.session.radio, white.session, 9, game=Reversi())
    white.session.inviter = False
    now, _ = run([black, white], now, 40)
    assert white.session.number >= number
    assert position(black.game) == position(white.game)


def test_a_position_that_is_none_is_refused_with_the_reason_and_ignored():
    game = Reversi()
    data = bytearray(STATE_SIZE)
    position_into(game, data, 0)
    for where, value, reason in ((16, 0, "side to move 0 is neither 1 nor 2"),
                                 (0, 0xC0, "square 0 holds 3")):
        bad = bytearray(data)
        bad[where] = value
        try:
            reversi_link.set_position(game, bad, 0)
            assert False
        except ValueError as e:
            assert str(e) == reason
    assert position(game) == bytes(data)             # nothing taken
    air, black, white, now = paired_players()
    now, _ = run([black, white], now, 20)
    black.colour = white.colour = 0                   # nobody moves from here
    now, _ = run([black, white], now, 20)
    before, number = position(white.game), white.session.number
    black.session.start(link.MOVE, black.session.session)
    out = black.session.out
    out[6], out[7], out[8] = 0, number + 5, 0         # a later move, taken whole...
    position_into(black.game, out, 9)
    out[9 + 16] = 0                                   # ...were it a position
    black.session.send_to(black.session.peer)
    assert not white.session.update(now + 1) & link.MOVED
    assert position(white.game) == before and white.session.number == number


def test_the_same_move_number_with_another_position_the_inviter_wins():
    for damaged in ("white", "black"):
        air, black, white, now = paired_players()
        now, _ = run([black, white], now, 20)
        black.colour = white.colour = 0              # nobody moves from here
        now, _ = run([black, white], now, 20)
        assert black.session.number == white.session.number > 0
        player = white if damaged == "white" else black
        player.game.board[11] = 3 - player.game.board[11] if player.game.board[11] else WHITE
        player.game._recount()
        black_before = position(black.game)
        now, _ = run([black, white], now, 60)        # the keepalives find it
        assert position(white.game) == position(black.game) == black_before, damaged


def test_a_quiet_peer_then_heard_again():
    air, black, white, now = paired_players()
    now, _ = run([black, white], now, 10)
    white.session.radio.on = False
    now, seen = run([black], now, 200)           # 6.6 s
    assert black.session.quiet and seen[0] & link.QUIET
    white.session.radio.on = True
    now, seen = run([black, white], now, 60)
    assert not black.session.quiet


def test_a_pass_travels_as_a_move():
    game = Reversi()
    # White (b1) has no move, Black (a1) has c1
    from firmware.games.reversi_tools import set_position
    set_position(game, "XO" + "-" * 62, WHITE)
    assert game.must_pass()
    other = Reversi()
    set_position(other, "XO" + "-" * 62, WHITE)
    before = position(other)
    assert not reversi_link.play(other, 13)      # c1: not White's (an illegal move: refused)
    assert position(other) == before
    assert reversi_link.play(other, PASS) and other.turn == BLACK


def test_a_lossy_air_every_game_finishes_and_both_agree():
    for seed in range(3):
        air = Air(seed + 10, loss=20, duplicate=10, reorder=20)
        air, black, white, now = paired_players(air, seed + 3)
        play_out([black, white], now, 30000)
        assert black.game.is_game_over() and white.game.is_game_over(), seed
        assert position(black.game) == position(white.game), seed
        assert black.session.number == white.session.number, seed


def test_paired_lobbies_carry_a_game_s_own_messages_and_stop_saying_hello():
    air = Air()
    a, b, other = lobby(air, 1), lobby(air, 2), lobby(air, 3)
    pair(air, a, b)
    run([a, b, other], 0, 5)
    hellos = len([m for m in air.sent if m[2] == link.HELLO and m[0] in (mac(1), mac(2))])
    assert a.send(b"ping")
    other.radio.send(b.radio.mac, b"ping")      # not from the friend: not passed on
    events = b.update(1000)
    assert events & link_pairing.MESSAGE and bytes(b.message) == b"ping"
    assert not b.update(1033) & link_pairing.MESSAGE and b.message is None
    run([a, b], 2000, 60)
    assert len([m for m in air.sent if m[2] == link.HELLO and m[0] in (mac(1), mac(2))]) == hellos
