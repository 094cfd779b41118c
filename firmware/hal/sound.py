# Click, tones and short melodies on the speaker pin, never blocking the loop.
#
# Why two peripherals on one pin: the click is the ML4M 15-puzzle's beep, a
# DAC step (255, then 0 about 20 ms later), which is exactly what the ML4M's
# DAC does well. A tone on the DAC would need a timer interrupt at twice the pitch
# (2-4 kHz of Python callbacks, out of tune whenever the GC runs); the ESP32's
# LEDC PWM makes an exact square wave in hardware with no CPU at all. So tones
# and melodies use PWM, and the pad is handed back to the DAC for clicks:
# constructing Pin(n, Pin.OUT) takes the pad from the DAC, DAC(Pin(n)) gives it
# back. A melody is a sequence of (frequency Hz, ms) steps, 0 Hz = rest;
# update(now) moves it on, so notes keep their timing whatever the frame rate.
#
# Volume (3 loud, 2 medium, 1 soft) on the same two peripherals: the click's
# DAC step height, and the PWM duty. The speaker hears a pulse wave's
# fundamental, whose amplitude goes as sin(pi * duty): 1.0 at 50 % (loudest),
# 0.38 at 12.5 % (duty >> 2, -8 dB) and 0.098 at 3.1 % (duty >> 4, -20 dB).
# The click steps are picked to match: 100/255 = 0.39 and 25/255 = 0.098.
# About 8-12 dB apart, each level sounds clearly quieter than the one above
# (loudness is heard on a log scale), and soft stays audible in a quiet room.
from micropython import const
import time
from machine import Pin, PWM

try:
    from machine import DAC
except ImportError:   # ports without a DAC (ESP32-S3, C3)
    DAC = None

_OFF = const(0)
_ON_DAC = const(1)
_ON_PWM = const(2)
_CLICK_MS = const(20)
_CLICK_PWM_HZ = const(2000)   # the click on a speaker pin without a DAC
_CLICK_PWM_MS = const(12)
_LOUD = const(3)               # volume levels (the "volume" setting)
# by volume (1 soft, 2 medium, 3 loud; see the top of this file): the click's
# DAC step, and how far the PWM duty is shifted down from the board's loudest
_CLICK_LEVELS = const((0, 25, 100, 255))
_DUTY_SHIFTS = const((0, 4, 2, 0))     # 3.1 %, 12.5 %, 50 %

# Named sounds. "move" is the click; the rest are melodies. Each is one bytes
# literal of little-endian 16-bit words: frequency Hz, ms, frequency Hz, ms...
# (0 Hz = rest), its score in the comment above it. A bytes literal is one
# object, used as it is (README, "Why the code looks like this": packed tables).
SOUNDS = {
    # 1319 35
    "select": b"\x27\x05\x23\x00",
    # 988 30, 1480 45
    "merge": b"\xdc\x03\x1e\x00" b"\xc8\x05\x2d\x00",
    # 196 70, 0 30, 147 110
    "illegal": b"\xc4\x00\x46\x00" b"\x00\x00\x1e\x00" b"\x93\x00\x6e\x00",
    # 220 90, 0 60, 220 90, 0 60, 220 90
    "error": (b"\xdc\x00\x5a\x00" b"\x00\x00\x3c\x00" b"\xdc\x00\x5a\x00"
             b"\x00\x00\x3c\x00" b"\xdc\x00\x5a\x00"),
    # 523 90, 659 90, 784 90, 1047 120, 0 60, 784 90, 1047 260
    "win": (b"\x0b\x02\x5a\x00" b"\x93\x02\x5a\x00" b"\x10\x03\x5a\x00"
           b"\x17\x04\x78\x00" b"\x00\x00\x3c\x00" b"\x10\x03\x5a\x00"
           b"\x17\x04\x04\x01"),
    # 392 150, 330 150, 262 150, 196 350
    "lose": (b"\x88\x01\x96\x00" b"\x4a\x01\x96\x00" b"\x06\x01\x96\x00"
            b"\xc4\x00\x5e\x01"),
    # no display at boot: three high beeps and a long low one
    # 1760 80, 0 80, 1760 80, 0 80, 1760 80, 0 160, 440 500
    "fault": (b"\xe0\x06\x50\x00" b"\x00\x00\x50\x00" b"\xe0\x06\x50\x00"
             b"\x00\x00\x50\x00" b"\xe0\x06\x50\x00" b"\x00\x00\xa0\x00"
             b"\xb8\x01\xf4\x01"),
}


def _put(buf, i, freq, ms):
    """Write one step (freq Hz, ms) at buf[i:i + 4], the way SOUNDS holds them."""
    buf[i] = freq & 255
    buf[i + 1] = freq >> 8 & 255
    buf[i + 2] = ms & 255
    buf[i + 3] = ms >> 8 & 255


class Sound:
    def __init__(self, board):
        self._muted = False
        # the speaker's numbers are read from the board module when used
        self._board = board
        self._volume = _LOUD
        self._dac = None            # None: the pin has no DAC (clicks are short tones)
        self._pwm = None
        self._mode = _OFF
        self._sounding = False      # the PWM is making a tone (not resting)
        self._seq = None            # the melody playing, as SOUNDS stores them
        self._one = bytearray(4)    # tone() writes its note here
        self._forced = False        # the melody playing ignores mute (the fault)
        self._i = 0                 # offset of the playing step in _seq (4 bytes a step)
        # when the click, or the melody's step, ends: one at a time (a click
        # cuts a melody short, a melody ends a click)
        self._until = time.ticks_ms()
        self._clicking = False
        if board.SPEAKER_DAC and DAC is not None:
            self._to_dac()
            self._dac_write(0)

    # ---- the pad: DAC or PWM --------------------------------------------------
    def _to_dac(self):
        if self._mode == _ON_DAC or DAC is None:
            return
        pwm = self._pwm
        if pwm is not None and self._mode == _ON_PWM:
            pwm.deinit()
        self._sounding = False
        self._dac = DAC(Pin(self._board.SPEAKER_PIN))   # enables the DAC on the pad again
        self._mode = _ON_DAC

    def _dac_write(self, value):
        dac = self._dac
        if dac is not None:
            dac.write(value)

    def _to_pwm(self, freq):
        pwm = self._pwm
        duty = self._board.SPEAKER_DUTY >> _DUTY_SHIFTS[self._volume]
        if self._mode == _ON_PWM and pwm is not None:
            pwm.freq(freq)
            pwm.duty_u16(duty)
            return
        self._dac_write(0)
        pin = Pin(self._board.SPEAKER_PIN, Pin.OUT, value=0)   # a digital pad again
        if pwm is None:
            self._pwm = PWM(pin, freq=freq, duty_u16=duty)
        else:
            pwm.init(freq=freq, duty_u16=duty)
        self._mode = _ON_PWM

    def _note(self, freq):
        if freq > 0:
            self._to_pwm(freq)
            self._sounding = True
        elif self._sounding:
            pwm = self._pwm
            if pwm is not None:
                pwm.duty_u16(0)
            self._sounding = False

    # ---- what screens call ----------------------------------------------------
    @property
    def muted(self):
        return self._muted

    @muted.setter
    def muted(self, value):
        self._muted = bool(value)
        if self._muted and not self._forced:
            self.stop()

    @property
    def volume(self):
        return self._volume

    @volume.setter
    def volume(self, level):
        """1 soft, 2 medium, 3 loud (see the top of this file for the values);
        a tone already sounding changes at once."""
        level = min(max(int(level), 1), _LOUD)
        self._volume = level
        if self._sounding:
            pwm = self._pwm
            if pwm is not None:
                pwm.duty_u16(self._board.SPEAKER_DUTY >> _DUTY_SHIFTS[level])

    def click(self, now=None):
        """The ML4M 15-puzzle's beep: the DAC up to the volume's level, back
        to 0 ~20 ms later (in update)."""
        if self._muted:
            return
        if self._dac is None:       # no DAC on the pin: a short tone instead
            self.tone(_CLICK_PWM_HZ, _CLICK_PWM_MS, now)
            return
        if now is None:
            now = time.ticks_ms()
        self._seq = None            # a click cuts a melody short
        self._to_dac()
        self._dac_write(_CLICK_LEVELS[self._volume])
        self._clicking = True
        self._until = time.ticks_add(now, _CLICK_MS)

    def tone(self, freq_hz, ms, now=None):
        one = self._one             # no allocation: tones are frequent
        _put(one, 0, freq_hz, ms)
        self._start(one, now, False)

    def play(self, melody, now=None, force=False):
        """Start a melody: a sequence of (freq_hz, ms); 0 Hz is a rest.
        force: play even when muted (for the fault signal, the only one left
        when there is no display)."""
        if (self._muted and not force) or not melody:
            return
        seq = bytearray(4 * len(melody))
        i = 0
        for freq, ms in melody:
            _put(seq, i, freq, ms)
            i += 4
        self._start(seq, now, force)

    def _start(self, seq, now, force):
        """Start a melody stored as SOUNDS stores them."""
        if self._muted and not force:
            return
        if now is None:
            now = time.ticks_ms()
        if self._clicking:
            self._dac_write(0)
            self._clicking = False
        self._seq = seq
        self._forced = force
        self._i = 0
        self._until = time.ticks_add(now, seq[2] | seq[3] << 8)
        self._note(seq[0] | seq[1] << 8)

    def sfx(self, name, now=None):
        """A named sound: move, select, merge, illegal, error, win, lose, and
        fault (heard even when muted)."""
        if name == "move":
            self.click(now)
            return
        melody = SOUNDS.get(name)
        if melody is None:
            raise ValueError("no sound " + name)
        self._start(melody, now, name == "fault")

    def busy(self):
        return self._seq is not None or self._clicking

    def stop(self):
        self._seq = None
        if self._clicking:
            self._dac_write(0)
            self._clicking = False
        self._note(0)

    def update(self, now=None):
        """Move the click and the melody on; call once per frame."""
        if now is None:
            now = time.ticks_ms()
        if self._clicking and time.ticks_diff(now, self._until) >= 0:
            self._dac_write(0)
            self._clicking = False
        seq = self._seq
        if seq is None:
            return
        # steps are timed from the previous step's end, not from the frame,
        # so a late frame shortens one note instead of slowing the tune
        while time.ticks_diff(now, self._until) >= 0:
            i = self._i + 4
            self._i = i
            if i >= len(seq):
                self._seq = None
                self._note(0)
                return
            self._until = time.ticks_add(self._until, seq[i + 2] | seq[i + 3] << 8)
            self._note(seq[i] | seq[i + 1] << 8)
