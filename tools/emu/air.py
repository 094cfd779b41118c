"""The air between emulated boards: what ESP-NOW messages go through.

    air = Air(seed=1, loss=0.2, duplicate=0.05, reorder=0.1)
    a, b = Board(), Board()
    air.join(a, metres=1)
    air.join(b, metres=3)

A board's radio (the `network`/`espnow` stand-ins in tools/emu/mp) sends
through air.send(); each board that should hear it (the one addressed, or
every board for a broadcast) gets it after a delay, unless the air loses it.
Every chance comes from one seeded generator, so a test sees the same losses
every run. What the air does, as ESP-NOW on the chip does:

- only radios that are on, on the same channel, hear anything;
- a message to one board is acknowledged by its radio when it arrives (send()
  returns True), even if its program never reads it; a full receive buffer
  still acknowledges and drops the message (ESP-NOW's rxbuf, 526 bytes);
- loss, duplication (the radio's retry heard twice), reordering (a later
  message overtakes) and delay are chances given here; partition(group)
  splits the room in two until heal().

Time is each board's own virtual clock: a message sent at the sender's t
arrives when the receiver's clock passes t + delay. Tests step the boards
frame by frame in turn, so their clocks stay within a frame of each other.
"""
import math
import random

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
RX_BUFFER = 526          # ESP-NOW's default receive buffer (bytes), as the port has it
_HEADER = 8              # what the buffer spends on each message besides its bytes


class Air:
    def __init__(self, seed=0, loss=0.0, duplicate=0.0, reorder=0.0, delay_ms=(1, 4)):
        self.rng = random.Random(seed)
        self.loss = loss
        self.duplicate = duplicate
        self.reorder = reorder
        self.delay_ms = delay_ms
        self.boards = []
        self.metres = {}             # board -> where it stands, on a line
        self.cut = None              # a partition: the boards on one side
        self.sent = 0
        self.lost = 0

    def join(self, board, metres=1.0):
        """Put a board in the room, metres from the wall (signal: distance)."""
        if board not in self.boards:
            self.boards.append(board)
        self.metres[board] = metres
        board.air = self

    def leave(self, board):
        """The board is gone (switched off, carried away): it hears nothing."""
        if board in self.boards:
            self.boards.remove(board)
        board.air = None

    def partition(self, group):
        """Messages between the boards in group and the others are lost."""
        self.cut = set(group)

    def heal(self):
        self.cut = None

    def rssi(self, sender, receiver):
        """dBm: -30 within a metre, weaker with distance (free space)."""
        d = abs(self.metres.get(sender, 1.0) - self.metres.get(receiver, 1.0))
        return max(-127, int(-30 - 20 * math.log10(max(d, 1.0))))

    def _separated(self, a, b):
        return self.cut is not None and ((a in self.cut) != (b in self.cut))

    def send(self, sender, mac, message):
        """sender's radio sends message (bytes) to mac; True when a radio
        addressed heard it (broadcast: always True, as ESP-NOW has it)."""
        radio = sender.radio
        heard = False
        for board in self.boards:
            other = board.radio
            if board is sender or not other.listening(radio.channel):
                continue
            if mac != BROADCAST and mac != other.mac:
                continue
            self.sent += 1
            if self._separated(sender, board) or self.rng.random() < self.loss:
                self.lost += 1
                continue
            heard = True
            copies = 2 if self.rng.random() < self.duplicate else 1
            for _ in range(copies):
                delay = self.rng.uniform(*self.delay_ms)
                if self.rng.random() < self.reorder:
                    delay += self.rng.uniform(10, 60)    # overtaken by later ones
                other.arrive(sender.now_ms() + delay, radio.mac, bytes(message),
                             self.rssi(sender, board))
        return heard or mac == BROADCAST


class BoardRadio:
    """One board's radio as the chip has it: its address, on or off, its
    channel, and the messages in the air for it and in its receive buffer."""

    def __init__(self, board, mac):
        self.board = board
        self.mac = mac
        self.wlan_on = False
        self.espnow_on = False
        self.channel = 1
        self.in_flight = []          # (arrival ms, seq, mac, message, rssi)
        self.buffer = []             # (mac, message, rssi) received, not yet read
        self.seq = 0
        self.dropped = 0             # messages lost to a full receive buffer
        self.espnow = None           # the espnow stand-in's ESPNow (a singleton)

    def listening(self, channel):
        return self.wlan_on and self.channel == channel

    def arrive(self, at_ms, mac, message, rssi):
        self.seq += 1
        self.in_flight.append((at_ms, self.seq, mac, message, rssi))

    def reset(self):
        """A reset or power cut: the radio is off and forgets its buffers."""
        self.wlan_on = self.espnow_on = False
        self.in_flight = []
        self.buffer = []
        self.espnow = None           # a new interpreter makes a new one

    def collect(self):
        """Messages whose time has come go into the receive buffer (or are
        dropped when it is full, or when ESP-NOW is not on to take them)."""
        if not self.in_flight:
            return
        now = self.board.now_ms()
        due = [m for m in self.in_flight if m[0] <= now]
        if not due:
            return
        self.in_flight = [m for m in self.in_flight if m[0] > now]
        due.sort()
        used = sum(len(m[1]) + _HEADER for m in self.buffer)
        for _, _, mac, message, rssi in due:
            if not (self.espnow_on and self.wlan_on):
                continue
            if used + len(message) + _HEADER > RX_BUFFER:
                self.dropped += 1
                continue
            used += len(message) + _HEADER
            self.buffer.append((mac, message, rssi))


def mac_for(number):
    """A plausible ESP32 station address (Espressif's 24:6F:28 prefix)."""
    return bytes((0x24, 0x6F, 0x28, (number >> 16) & 255, (number >> 8) & 255, number & 255))
