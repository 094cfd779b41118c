"""Stand-in for MicroPython's `network` module on the ESP32 port: the station
interface's switch, its address and its channel, on the current emulated
board's radio (tools/emu/air.py). Enough for ESP-NOW; it joins no network."""
from tools.emu import board as _board_module

STA_IF = 0
AP_IF = 1


class WLAN:
    IF_STA = STA_IF
    IF_AP = AP_IF

    def __init__(self, interface=STA_IF):
        if interface not in (STA_IF, AP_IF):
            raise ValueError("invalid WLAN interface identifier")
        self._radio = _board_module.current().radio

    def active(self, flag=None):
        if flag is None:
            return self._radio.wlan_on
        self._radio.wlan_on = bool(flag)
        if not flag:
            self._radio.espnow_on = False   # ESP-NOW stops with its interface
        return None

    def disconnect(self):
        pass

    def isconnected(self):
        return False

    def config(self, *name, **values):
        radio = self._radio
        if name:
            if name[0] == "mac":
                return radio.mac
            if name[0] == "channel":
                return radio.channel
            raise ValueError("unknown config param")
        for key, value in values.items():
            if key == "channel":
                if not radio.wlan_on:
                    raise OSError("Wifi Not Started")
                if not 1 <= value <= 14:
                    raise ValueError("channel 1..14, not %r" % value)
                radio.channel = value
            elif key not in ("txpower", "pm", "reconnects"):
                raise ValueError("unknown config param")
        return None
