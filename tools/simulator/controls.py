"""Key presses -> timed inputs on the board.

A terminal reports key presses and the keyboard's auto-repeat, never releases. So a
key press means "pressed now", and the control lets go HOLD_MS after the last
press or repeat of its key: a tap is a short press, a held key stays pressed while
the keyboard repeats it. A key that comes again after a pause longer than any
auto-repeat interval is a second tap: the control lets go first, so the firmware
sees two presses. Shift+button latches a button down until its key comes again.

Every change to the board goes through `apply(event)` with one of the events below,
so the same strings are what --record writes and --replay plays back:
    "press A" .. "press F", "release A" .. "release F",
    "push left|right|up|down|upleft|...", "center"
"""
from tools.simulator import keys as keymap

HOLD_MS = 150        # a key's control stays pressed this long after its last (auto-)repeat
REPEAT_GAP_MS = 70   # closer than this to the previous press = the keyboard's auto-repeat
RETAP_GAP_MS = 40    # released this long between two separate taps of the same key


def apply_event(board, event):
    """Do one input event on the board (raises ValueError for a malformed one)."""
    parts = event.split()
    if not parts:
        raise ValueError("empty event")
    verb = parts[0]
    if verb == "press" and len(parts) == 2:
        board.press(parts[1])
    elif verb == "release" and len(parts) == 2:
        board.release(parts[1])
    elif verb == "push" and len(parts) == 2:
        board.push(parts[1])
    elif verb == "center" and len(parts) == 1:
        board.center()
    else:
        raise ValueError("unknown input event %r" % event)


class _Held:
    __slots__ = ("value", "last", "until")

    def __init__(self, value, now, until):
        self.value = value      # the direction (stick) or True (button)
        self.last = now         # virtual ms of the last key press or repeat
        self.until = until      # virtual ms to let go, or None while latched


class Controls:
    def __init__(self, apply):
        self._apply = apply
        self.buttons = {}         # name -> _Held
        self.stick = None         # _Held with the direction, or None at rest
        self._later = []          # (virtual ms, event): re-presses after a release gap

    # ---- keys ---------------------------------------------------------------------
    def key(self, key, now):
        """Handle one key at virtual time `now`; True if it was a control key."""
        if key in keymap.JOYSTICK_KEYS:
            self._direction(keymap.JOYSTICK_KEYS[key], now)
        elif len(key) == 1 and key.lower() in "wasd":         # Caps Lock on
            self._direction(keymap.JOYSTICK_KEYS[key.lower()], now)
        elif key in keymap.BUTTON_KEYS:
            self._button(keymap.BUTTON_KEYS[key], now)
        elif key in keymap.HOLD_KEYS:
            self._latch(keymap.HOLD_KEYS[key], now)
        elif key == keymap.LET_GO_KEY:
            self.let_go_all()
        else:
            return False
        return True

    def _direction(self, direction, now):
        held = self.stick
        if held is None:
            self._apply("push " + direction)
            self.stick = _Held(direction, now, now + HOLD_MS)
        elif held.value != direction:
            self._apply("push " + direction)            # rolled onto another direction
            self.stick = _Held(direction, now, now + HOLD_MS)
        elif now - held.last <= REPEAT_GAP_MS:
            held.last = now                             # auto-repeat: keep holding
            held.until = now + HOLD_MS
        else:
            self._apply("center")                       # a second tap
            self.stick = None
            self._later.append((now + RETAP_GAP_MS, "push " + direction))

    def _button(self, name, now):
        held = self.buttons.get(name)
        if held is None:
            self._apply("press " + name)
            self.buttons[name] = _Held(True, now, now + HOLD_MS)
        elif held.until is None:
            self._apply("release " + name)              # the key lets go of a latched button
            del self.buttons[name]
        elif now - held.last <= REPEAT_GAP_MS:
            held.last = now
            held.until = now + HOLD_MS
        else:
            self._apply("release " + name)
            del self.buttons[name]
            self._later.append((now + RETAP_GAP_MS, "press " + name))

    def _latch(self, name, now):
        held = self.buttons.get(name)
        if held is not None and held.until is None:
            self._apply("release " + name)
            del self.buttons[name]
            return
        if held is None:
            self._apply("press " + name)
        self.buttons[name] = _Held(True, now, None)

    def let_go_all(self):
        for name in sorted(self.buttons):
            self._apply("release " + name)
        self.buttons.clear()
        if self.stick is not None:
            self._apply("center")
            self.stick = None
        self._later = []

    # ---- time -----------------------------------------------------------------------
    def tick(self, now):
        """Let go of controls whose key has stopped repeating; do due re-presses."""
        for name in sorted(self.buttons):
            held = self.buttons[name]
            if held.until is not None and now >= held.until:
                self._apply("release " + name)
                del self.buttons[name]
        if self.stick is not None and self.stick.until is not None and now >= self.stick.until:
            self._apply("center")
            self.stick = None
        if self._later:
            due = [item for item in self._later if item[0] <= now]
            self._later = [item for item in self._later if item[0] > now]
            for _, event in due:
                verb, what = event.split()
                if verb == "press" and what not in self.buttons:
                    self._apply(event)
                    self.buttons[what] = _Held(True, now, now + HOLD_MS)
                elif verb == "push" and self.stick is None:
                    self._apply(event)
                    self.stick = _Held(what, now, now + HOLD_MS)

    def describe(self):
        """A few words for the status line: the stick and the buttons down."""
        parts = []
        if self.stick is not None:
            parts.append("stick " + self.stick.value)
        for name in sorted(self.buttons):
            parts.append(name + ("(held)" if self.buttons[name].until is None else ""))
        return " ".join(parts)
