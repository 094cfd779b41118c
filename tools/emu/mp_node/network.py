# A small stand-in for the ESP32 port's `network` module on real MicroPython
# under Node (tools/mprun/run.mjs): the station interface's switch, address
# and channel, for ESP-NOW (tools/emu/mp_node/espnow.py). It joins no
# network and no other board: the heap bench measures a link game with it.
STA_IF = 0
AP_IF = 1
_state = {"on": False, "channel": 1}
MAC = b"\x24\x6f\x28\x00\x3f\x2a"


class WLAN:
    IF_STA = STA_IF
    IF_AP = AP_IF

    def __init__(self, interface=STA_IF):
        self.interface = interface

    def active(self, flag=None):
        if flag is None:
            return _state["on"]
        _state["on"] = bool(flag)
        return None

    def disconnect(self):
        pass

    def config(self, *name, **values):
        if name:
            return MAC if name[0] == "mac" else _state[name[0]]
        _state.update(values)
        return None
