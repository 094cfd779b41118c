# Click, tones and short melodies on the speaker pin, never blocking the loop.
#
# Why two peripherals on one pin: the click is the article's beep, a DAC step
# (255, then 0 about 20 ms later), which is exactly what the ML4M's DAC does
# well. A tone on the DAC would need a timer interrupt at twice the pitch
# (2-4 kHz of Python callbacks, out of tune whenever the GC runs); the ESP32's
# LEDC PWM makes an exact square wave in hardware with no CPU at all. So tones
# and melodies use PWM, and the pad is handed back to the DAC for clicks:
# constructing Pin(n, Pin.OUT) takes the pad from the DAC, DAC(Pin(n)) gives it
# back. A melody is a sequence of (frequency Hz, ms) steps, 0 Hz = rest;
# update(now) moves it on, so notes keep their timing whatever the frame rate.
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
_CLICK_PWM = ((2000, 12),)   # the click on a speaker pin without a DAC

# Named sounds. "move" is the click; the rest are melodies.
SOUNDS = {
    "select": ((1319, 35),),
    "merge": ((988, 30), (1480, 45)),
    "illegal": ((196, 70), (0, 30), (147, 110)),
    "error": ((220, 90), (0, 60), (220, 90), (0, 60), (220, 90)),
    "win": ((523, 90), (659, 90), (784, 90), (1047, 120), (0, 60), (784, 90), (1047, 260)),
    "lose": ((392, 150), (330, 150), (262, 150), (196, 350)),
    # no display at boot: three high beeps and a long low one
    "fault": ((1760, 80), (0, 80), (1760, 80), (0, 80), (1760, 80), (0, 160), (440, 500)),
}


class Sound:
    def __init__(self, board):
        self._muted = False
        self._pin_id = board.SPEAKER_PIN
        self._duty = board.SPEAKER_DUTY
        self._use_dac = bool(board.SPEAKER_DAC) and DAC is not None
        self._dac = None
        self._pwm = None
        self._mode = _OFF
        self._sounding = False      # the PWM is making a tone (not resting)
        self._seq = None
        self._forced = False        # the melody playing ignores mute (the fault)
        self._i = 0
        self._until = time.ticks_ms()
        self._clicking = False
        self._click_until = self._until
        if self._use_dac:
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
        self._dac = DAC(Pin(self._pin_id))   # enables the DAC on the pad again
        self._mode = _ON_DAC

    def _dac_write(self, value):
        dac = self._dac
        if dac is not None:
            dac.write(value)

    def _to_pwm(self, freq):
        pwm = self._pwm
        if self._mode == _ON_PWM and pwm is not None:
            pwm.freq(freq)
            pwm.duty_u16(self._duty)
            return
        self._dac_write(0)
        pin = Pin(self._pin_id, Pin.OUT, value=0)   # a digital pad again
        if pwm is None:
            self._pwm = PWM(pin, freq=freq, duty_u16=self._duty)
        else:
            pwm.init(freq=freq, duty_u16=self._duty)
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

    def click(self, now=None):
        """The articles' beep: the DAC to 255, back to 0 ~20 ms later (in update)."""
        if self._muted:
            return
        if not self._use_dac:
            self.play(_CLICK_PWM, now)
            return
        if now is None:
            now = time.ticks_ms()
        self._seq = None            # a click cuts a melody short
        self._to_dac()
        self._dac_write(255)
        self._clicking = True
        self._click_until = time.ticks_add(now, _CLICK_MS)

    def tone(self, freq_hz, ms, now=None):
        self.play(((freq_hz, ms),), now)

    def play(self, melody, now=None, force=False):
        """Start a melody: a sequence of (freq_hz, ms); 0 Hz is a rest.
        force: play even when muted (for the fault signal, the only one left
        when there is no display)."""
        if (self._muted and not force) or not melody:
            return
        if now is None:
            now = time.ticks_ms()
        if self._clicking:
            self._dac_write(0)
            self._clicking = False
        self._seq = melody
        self._forced = force
        self._i = 0
        freq, ms = melody[0]
        self._until = time.ticks_add(now, ms)
        self._note(freq)

    def sfx(self, name, now=None):
        """A named sound: move, select, merge, illegal, error, win, lose, and
        fault (heard even when muted)."""
        if name == "move":
            self.click(now)
            return
        melody = SOUNDS.get(name)
        if melody is None:
            raise ValueError("no sound " + name)
        self.play(melody, now, name == "fault")

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
        if self._clicking and time.ticks_diff(now, self._click_until) >= 0:
            self._dac_write(0)
            self._clicking = False
        seq = self._seq
        if seq is None:
            return
        # steps are timed from the previous step's end, not from the frame,
        # so a late frame shortens one note instead of slowing the tune
        while time.ticks_diff(now, self._until) >= 0:
            self._i += 1
            if self._i >= len(seq):
                self._seq = None
                self._note(0)
                return
            freq, ms = seq[self._i]
            self._until = time.ticks_add(self._until, ms)
            self._note(freq)
