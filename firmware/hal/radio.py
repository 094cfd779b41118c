"""The radio: ESP-NOW between two boards, no router needed (MicroPython's
`network` and `espnow` modules; on the PC the emulator's stand-ins over an
emulated air, tools/emu/air.py).

It is on only while a link game runs: start() when the game starts, stop()
when it ends, when the player leaves and before the board sleeps (Wi-Fi
draws ~100 mA, and a sleeping board must not hold it on). Both boards use
one fixed channel, so they hear each other without scanning.

poll() is called once a frame and never waits: irecv(0) hands back the same
two buffers every time (ESP-NOW's own), so reading a message allocates
nothing; the sender's address is a reference into the peer table.

The board file says whether the board has the radio (RADIO) and which
analog pins Wi-Fi takes away (ADC2_PINS): the ESP32 cannot read ADC2 while
Wi-Fi is on, so a stick wired there would freeze. start() refuses then,
saying so, and the link game is refused with that message instead.
"""
from micropython import const

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
_MAX_MESSAGE = const(250)     # ESP-NOW's limit for one message (espnow.MAX_DATA_LEN)
_CHANNEL = const(1)          # both boards on this Wi-Fi channel (the board file may say another)
_MOST_PEERS = const(16)      # ESP-NOW registers up to 20 unencrypted peers


class Radio:
    def __init__(self, board):
        self.board = board
        self.channel = getattr(board, "RADIO_CHANNEL", _CHANNEL)
        self.on = False
        self.mac = b""             # this board's address, once started
        self.sender = None         # the address of the message poll() returned
        self._wlan = None
        self._now = None
        self._peers = []           # addresses registered with add_peer

    def start(self):
        """Wi-Fi's station interface and ESP-NOW on, on the fixed channel.
        ValueError when this board cannot use the radio, the reason in words
        for the panel (two lines of at most 16 characters); OSError when the
        chip refuses. The caller tells the player."""
        if self.on:
            return
        board = self.board
        if not getattr(board, "RADIO", False):
            raise ValueError("No radio on\nthis board")
        adc2 = getattr(board, "ADC2_PINS", ())
        for pin in (board.JOY_X_PIN, board.JOY_Y_PIN):
            if pin in adc2:
                # Wi-Fi owns ADC2: the stick would read nothing while linked
                raise ValueError("Stick on GPIO%d:\nADC2, no radio" % pin)
        try:
            import network
            import espnow
        except ImportError:              # a MicroPython built without them
            raise OSError("no espnow here")
        wlan = network.WLAN(network.STA_IF)
        wlan.active(True)
        wlan.config(channel=self.channel)
        now = espnow.ESPNow()
        now.active(True)
        self._wlan, self._now = wlan, now
        self.mac = bytes(wlan.config("mac"))
        self._peers = []
        self.on = True
        self._register(BROADCAST)

    def stop(self):
        """Both off again (safe to call when already off)."""
        if not self.on:
            return
        self.on = False
        try:
            self._now.active(False)
            self._wlan.active(False)
        except OSError:
            pass
        self._now = self._wlan = None
        self._peers = []
        self.sender = None

    def _register(self, mac):
        if mac in self._peers:
            return
        if len(self._peers) >= _MOST_PEERS:
            old = self._peers.pop(1)       # never the broadcast address
            self._now.del_peer(old)
        try:
            self._now.add_peer(mac)
        except OSError:      # registered already (ESP-NOW kept it from an earlier start)
            pass
        self._peers.append(mac)

    def send(self, mac, message):
        """Send message (bytes or a bytearray, at most 250 bytes) to one board,
        or to every board on the channel that listens (mac BROADCAST);
        True when its radio heard it (not that its program read it)."""
        if not self.on:
            return False
        if len(message) > _MAX_MESSAGE:
            raise ValueError("a radio message is at most %d bytes, not %d" % (
                _MAX_MESSAGE, len(message)))
        try:
            self._register(mac)
            return bool(self._now.send(mac, message, mac != BROADCAST))
        except OSError:                  # its buffers full, the peer table full
            return False

    def poll(self):
        """The next message heard (a bytearray reused by the next poll; its
        sender in self.sender), or None at once when there is none."""
        now = self._now
        if not self.on or not now.any():
            return None
        mac, message = now.irecv(0)
        if message is None:
            return None
        self.sender = mac
        return message

    def signal(self, mac):
        """The signal strength (dBm, -127..0) of the last message read from
        mac; -127 when none was."""
        if not self.on:
            return -127
        entry = self._now.peers_table.get(mac)
        return entry[0] if entry else -127
