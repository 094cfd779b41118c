"""Terminal input bytes -> key names, and which key does what on the ML4M.

Key names are the character itself for printable keys ("j", "J", "1"), or
"up"/"down"/"left"/"right", "ctrl-c", "esc". Escape sequences we do not use
(function keys, mouse, focus reports) are dropped.
"""

# The joystick: arrow keys, or W A S D under the left hand.
JOYSTICK_KEYS = {
    "up": "up", "down": "down", "left": "left", "right": "right",
    "w": "up", "a": "left", "s": "down", "d": "right",
}
# Buttons A-F: J K L / U I O under the right hand (two rows of three, like a gamepad),
# or the digits 1-6.
BUTTON_KEYS = {"j": "A", "k": "B", "l": "C", "u": "D", "i": "E", "o": "F"}
BUTTON_KEYS.update({str(n + 1): name for n, name in enumerate("ABCDEF")})
# Shift + a button key: hold that button down until the same key comes again, for
# the things that need a long hold (a held hint plays the solution).
HOLD_KEYS = {key.upper(): name for key, name in BUTTON_KEYS.items() if key.isalpha()}
HOLD_KEYS.update(zip("!@#$%^", "ABCDEF"))   # Shift+1..6 on a US layout

QUIT_KEYS = ("q", "ctrl-c")
SCREENSHOT_KEY = "p"
LEGEND_KEYS = ("h", "?")
LET_GO_KEY = " "

# The buttons' keys, on the status line at all times: WASD moves the stick,
# so a and d are no buttons, whatever their letters suggest.
BUTTON_MAP = "j=A k=B l=C u=D i=E o=F"

LEGEND = (
    "stick: arrows or WASD   buttons: " + BUTTON_MAP + " (or 1-6)",
    "Shift+button: hold/let go   space: let go all   p: PNG   h: legend   q: quit",
)

_ARROWS = {"A": "up", "B": "down", "C": "right", "D": "left"}


class KeyDecoder:
    """Turns the byte stream of a terminal into key names. An escape sequence split
    across two reads is kept until the rest arrives; a lone ESC comes out as "esc"
    when flush() is called after a pause."""

    def __init__(self):
        self._pending = b""

    def feed(self, data):
        buf = self._pending + data
        self._pending = b""
        keys = []
        i = 0
        n = len(buf)
        while i < n:
            byte = buf[i]
            if byte == 0x1B:
                if i + 1 >= n:
                    self._pending = buf[i:]
                    break
                second = buf[i + 1]
                if second == 0x5B:                          # CSI: ESC [ params final
                    j = i + 2
                    while j < n and not 0x40 <= buf[j] <= 0x7E:
                        j += 1
                    if j >= n:
                        self._pending = buf[i:]
                        break
                    final = chr(buf[j])
                    if final in _ARROWS:                    # also Shift/Ctrl+arrow (ESC [1;2A)
                        keys.append(_ARROWS[final])
                    i = j + 1
                elif second == 0x4F:                        # SS3: ESC O A (application cursor keys)
                    if i + 2 >= n:
                        self._pending = buf[i:]
                        break
                    final = chr(buf[i + 2])
                    if final in _ARROWS:
                        keys.append(_ARROWS[final])
                    i += 3
                elif second == 0x1B:
                    keys.append("esc")
                    i += 1
                else:                                       # Alt+key: the key
                    i += 1
                continue
            if byte == 0x03:
                keys.append("ctrl-c")
            elif 0x20 <= byte < 0x7F:
                keys.append(chr(byte))
            elif byte in (0x0D, 0x0A):
                keys.append("enter")
            i += 1
        return keys

    def flush(self):
        """Keys held back waiting for the rest of an escape sequence (call after a pause)."""
        pending, self._pending = self._pending, b""
        return ["esc"] if pending else []
