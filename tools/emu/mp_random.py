"""MicroPython's `random` for the firmware on CPython, so a seed deals the same
game in the simulator as on the board and in the browser.

The firmware draws its shuffles, new tiles and the CPU's noise with
random.randrange after random.seed(n). CPython's random is a Mersenne Twister;
MicroPython's (extmod/modrandom.c, on the ESP32 and the WebAssembly port
alike) is Ilya Levin's public-domain Yasmarang generator, with randrange(n)
taking the low bits of a draw until one is below n. Generator is that
algorithm in Python, on 32-bit words as the C code has them.

installed(seed) puts it in place of the random module's functions for the
length of a simulator run (tools/simulator/cli.py) and puts CPython's back
after, so tests in the same process see the random module they expect.
"""
import contextlib
import random

_MASK = 0xFFFFFFFF


class Generator:
    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, n=0):
        self.pad = int(n) & _MASK
        self.n = 69
        self.d = 233
        self.dat = 0

    def _next(self):
        pad = (self.pad + self.dat + self.d * self.n) & _MASK
        pad = ((pad << 3) + (pad >> 29)) & _MASK
        self.pad = pad
        self.n = pad | 2
        self.d = (self.d ^ ((pad << 31) + (pad >> 1))) & _MASK
        self.dat = (self.dat ^ pad ^ (self.d >> 8) ^ 1) & 0xFF
        return (pad ^ (self.d << 5) ^ (pad >> 18) ^ (self.dat << 1)) & _MASK

    def getrandbits(self, bits):
        if not 0 <= bits <= 32:
            raise ValueError("bits must be 32 or less")
        return self._next() & (_MASK >> (32 - bits)) if bits else 0

    def _below(self, n):
        mask = 1
        while (n & mask) < n:
            mask = (mask << 1) | 1
        while True:
            r = self._next() & mask
            if r < n:
                return r

    def randrange(self, start, stop=None, step=1):
        if stop is None:
            if start <= 0:
                raise ValueError("empty range for randrange()")
            return self._below(start)
        if step == 1:
            if stop <= start:
                raise ValueError("empty range for randrange()")
            return start + self._below(stop - start)
        count = (stop - start + step + (-1 if step > 0 else 1)) // step
        if count <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * self._below(count)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        return seq[self._below(len(seq))]


_NAMES = ("seed", "getrandbits", "randrange", "randint", "choice")


@contextlib.contextmanager
def installed(seed):
    """random.seed/getrandbits/randrange/randint/choice are MicroPython's,
    seeded with seed, until the block ends."""
    generator = Generator(seed)
    saved = {name: getattr(random, name) for name in _NAMES}
    for name in _NAMES:
        setattr(random, name, getattr(generator, name))
    try:
        yield generator
    finally:
        for name, function in saved.items():
            setattr(random, name, function)
