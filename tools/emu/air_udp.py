"""The air between simulators on one PC: ESP-NOW messages as UDP datagrams on
localhost, so two `make sim LINK=1` (each with its own flash) can play
"Play a friend" together.

Each simulator binds the first free port of PORTS and sends every message to
all the others; the receiving simulator keeps what is addressed to its board
(or broadcast) and on its radio's channel. A datagram is the addressee (6
bytes), the sender (6), the channel (1), then the message. Nothing is lost
or reordered here on purpose (the emulated air in air.py does that, seeded,
for the tests); a simulator that is not running simply hears nothing.

    air = UdpAir()
    air.join(board)            # binds a port
    session.hooks.append(air.poll)   # every tick: what arrived goes to the radio
"""
import hashlib
import socket

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
HOST = "127.0.0.1"
PORTS = range(47300, 47308)     # up to eight simulators on one PC
RSSI = -45                      # one desk apart


def mac_for_folder(folder):
    """A board address that stays the same for one flash folder, so a game
    saved with a friend's address finds it again after a restart."""
    digest = hashlib.sha256(folder.encode()).digest()
    return bytes((0x24, 0x6F, 0x28)) + digest[:3]


class UdpAir:
    def __init__(self, ports=PORTS):
        self.ports = ports
        self.sock = None
        self.port = None
        self.board = None
        self.sent = 0

    def join(self, board, metres=None):
        """Bind the first free port; OSError when all of them are taken."""
        for port in self.ports:
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            try:
                sock.bind((HOST, port))
            except OSError:
                sock.close()
                continue
            sock.setblocking(False)
            self.sock, self.port, self.board = sock, port, board
            board.air = self
            return port
        raise OSError("no free port in %d..%d: too many simulators" % (
            self.ports[0], self.ports[-1]))

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def send(self, sender, mac, message):
        """To every other simulator's port; True (a radio's acknowledgement
        cannot be known over UDP: the protocol's own acknowledgements count)."""
        radio = sender.radio
        datagram = bytes(mac) + radio.mac + bytes((radio.channel,)) + bytes(message)
        for port in self.ports:
            if port != self.port:
                try:
                    self.sock.sendto(datagram, (HOST, port))
                    self.sent += 1
                except OSError:
                    pass            # nobody there
        return True

    def poll(self, now_ms=None):
        """Hand what arrived to the board's radio (a Session hook: every tick)."""
        if self.sock is None:
            return
        radio = self.board.radio
        while True:
            try:
                datagram = self.sock.recv(512)
            except (BlockingIOError, OSError):
                return
            if len(datagram) < 13:
                continue
            to, sender, channel = datagram[:6], datagram[6:12], datagram[12]
            if (to == BROADCAST or to == radio.mac) and radio.listening(channel):
                radio.arrive(self.board.now_ms(), sender, datagram[13:], RSSI)
