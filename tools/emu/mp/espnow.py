"""Stand-in for MicroPython's `espnow` module (ESP32 port): ESPNow() with
active, add_peer, del_peer, send, irecv, recv, any and peers_table, over the
emulated air (tools/emu/air.py) that the current board's radio is in.

As on the chip: the WLAN interface must be active, a peer must be added
before send(), a message is at most 250 bytes, irecv() reuses its two
buffers, and peers_table is updated only when a message is read."""
from tools.emu import board as _board_module

MAX_DATA_LEN = 250
ADDR_LEN = 6
MAX_TOTAL_PEER_NUM = 20
KEY_LEN = 16


class ESPNow:
    def __new__(cls):
        # a singleton per board, as on the port: every ESPNow() is the same object
        radio = _board_module.current().radio
        if getattr(radio, "espnow", None) is None:
            radio.espnow = object.__new__(cls)
            radio.espnow._made = False
        return radio.espnow

    def __init__(self):
        if self._made:
            return
        self._made = True
        self._board = _board_module.current()
        self._radio = self._board.radio
        self._peers = []
        self.peers_table = {}
        self._data = [None, bytearray(MAX_DATA_LEN)]
        self._none = (None, None)

    def active(self, flag=None):
        radio = self._radio
        if flag is None:
            return radio.espnow_on
        if flag and not radio.wlan_on:
            raise OSError("ESP_ERR_ESPNOW_IF")
        radio.espnow_on = bool(flag)
        if not flag:
            radio.buffer = []
            self._peers = []
        return radio.espnow_on

    def _check(self):
        if not self._radio.espnow_on:
            raise OSError("ESP_ERR_ESPNOW_NOT_INIT")

    def add_peer(self, mac, *args, **kwargs):
        self._check()
        if len(mac) != ADDR_LEN:
            raise ValueError("invalid peer MAC address")
        if mac in self._peers:
            raise OSError("ESP_ERR_ESPNOW_EXIST")
        if len(self._peers) >= MAX_TOTAL_PEER_NUM:
            raise OSError("ESP_ERR_ESPNOW_FULL")
        self._peers.append(bytes(mac))

    def del_peer(self, mac):
        self._check()
        if mac not in self._peers:
            raise OSError("ESP_ERR_ESPNOW_NOT_FOUND")
        self._peers.remove(bytes(mac))

    def get_peers(self):
        return tuple((mac, None, 0, 0, False) for mac in self._peers)

    def send(self, mac, msg=None, sync=True):
        self._check()
        if not self._radio.wlan_on:
            raise OSError("ESP_ERR_ESPNOW_IF")
        if mac not in self._peers:
            raise OSError("ESP_ERR_ESPNOW_NOT_FOUND")
        if isinstance(msg, str):
            msg = msg.encode()
        if len(msg) > MAX_DATA_LEN:
            raise ValueError("msg too long")
        air = self._board.air
        heard = air.send(self._board, bytes(mac), bytes(msg)) if air is not None else False
        return heard if sync else True

    def any(self):
        self._check()
        self._radio.collect()
        return bool(self._radio.buffer)

    def _next(self):
        radio = self._radio
        radio.collect()
        if not radio.buffer:
            return None
        mac, message, rssi = radio.buffer.pop(0)
        entry = self.peers_table.get(mac)
        if entry is None:
            self.peers_table[mac] = entry = [rssi, 0]
        for key in self.peers_table:     # the table's own key, as the port returns it
            if key == mac:
                mac = key
                break
        entry[0] = rssi
        entry[1] = self._board.ticks_ms()
        return mac, message

    def irecv(self, timeout_ms=None):
        self._check()
        got = self._next()
        if got is None:
            if timeout_ms:
                self._board.sleep_ms(timeout_ms)   # nothing arrives while we wait here
                got = self._next()
            if got is None:
                return self._none
        mac, message = got
        buf = self._data[1]
        buf[:] = message                          # the port reuses its buffer
        self._data[0] = mac
        return self._data

    def recv(self, timeout_ms=None):
        mac, message = self.irecv(timeout_ms)
        if message is None:
            return self._none
        return mac, bytes(message)
