# A small stand-in for the ESP32 port's `espnow` module on real MicroPython
# under Node and in the browser. It holds what the port allocates from
# MicroPython's heap for ESP-NOW (the receive ring buffer, 526 bytes by
# default, irecv's two reused buffers, the peer table), so the heap bench
# (tools/bench/mp_heap.py) counts the radio under a link game. Under the
# bench no other board is there: send() is heard by nobody (True, as a
# broadcast) and nothing arrives. In the browser (tools/web/site/page_board.py)
# on_send(to, message) carries a message to the other tabs, and what they
# send is put in `inbox` as (sender, message).
import network

MAX_DATA_LEN = 250
ADDR_LEN = 6
_singleton = []
on_send = None
inbox = []


class ESPNow:
    def __new__(cls):
        if not _singleton:
            _singleton.append(object.__new__(cls))
        return _singleton[0]

    def __init__(self):
        if getattr(self, "_made", False):
            return
        self._made = True
        self._on = False
        self._ring = None
        self._data = [None, bytearray(MAX_DATA_LEN)]
        self._none = (None, None)
        self._peers = []
        self.peers_table = {}

    def active(self, flag=None):
        if flag is None:
            return self._on
        if flag and not network._state["on"]:
            raise OSError("ESP_ERR_ESPNOW_IF")
        self._on = bool(flag)
        self._ring = bytearray(526) if flag else None
        if not flag:
            self._peers = []
        return self._on

    def add_peer(self, mac, *args, **kwargs):
        if mac in self._peers:
            raise OSError("ESP_ERR_ESPNOW_EXIST")
        self._peers.append(mac)

    def del_peer(self, mac):
        self._peers.remove(mac)

    def send(self, mac, msg=None, sync=True):
        if not self._on:
            raise OSError("ESP_ERR_ESPNOW_NOT_INIT")
        if len(msg) > MAX_DATA_LEN:
            raise ValueError("msg too long")
        if on_send is not None:
            on_send(bytes(mac), bytes(msg))
        return True

    def any(self):
        return self._on and bool(inbox)

    def irecv(self, timeout_ms=None):
        if not (self._on and inbox):
            return self._none
        mac, msg = inbox.pop(0)
        for key in self.peers_table:       # the table's own key, as the port returns it
            if key == mac:
                mac = key
                break
        else:
            self.peers_table[mac] = [-45, 0]
        self._data[0] = mac
        self._data[1][:] = msg
        return self._data
