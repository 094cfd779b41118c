# SSD1306 display with partial refresh.
#
# lib/ssd1306.py (micropython-lib) brings the panel up: its init sequence and a
# clear frame. Then the driver module is released (about 3 KB of heap that a
# game can use) and the few commands needed later are sent from here.
# Its show() always sends the whole 1024-byte buffer: ~23 ms at 400 kHz. Here
# flush() compares the framebuffer with a shadow of what the panel's GDDRAM
# holds and sends only the changed columns of the changed pages through the
# controller's column/page window (commands 0x21/0x22): one 16x16 tile is ~2 ms.
from micropython import const
import framebuf

_CTRL_CMD = const(0x00)    # control byte: Co=0, D/C#=0 -> a stream of commands
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_CONTRAST = const(0x81)
_SET_NORMAL = const(0xA6)  # | 1: inverted
_PANEL_OFF = const(0xAE)
_PANEL_ON = const(0xAF)
_NOP = b"\x00\xe3"          # a command stream holding the SSD1306's no-op
_CHUNK = const(16)         # coarse compare unit, in columns
# Bus bytes that one window costs besides its pixels: the command transaction
# (address, control, 6 command bytes) and the data transaction's address and
# control byte. A gap of unchanged columns longer than this is skipped by
# starting another window; neighbouring pages share a window when the extra
# columns cost less than this.
_WINDOW_COST = const(10)
_MAX_RUNS = const(4)       # column runs kept per page (more: the last one grows)


def _make_i2c(board):
    from machine import Pin
    scl = Pin(board.I2C_SCL)
    sda = Pin(board.I2C_SDA)
    if board.I2C_ID is None:
        from machine import SoftI2C
        return SoftI2C(scl=scl, sda=sda, freq=board.I2C_FREQ)
    from machine import I2C
    return I2C(board.I2C_ID, scl=scl, sda=sda, freq=board.I2C_FREQ)


class Display(framebuf.FrameBuffer):
    # The drawing helpers (.fill, .text, .rect, ...) are FrameBuffer's own,
    # over the same buffer as .fb: no bound method per helper held in the
    # instance. Screens draw on .fb, a plain FrameBuffer (quicker lookups).
    def __init__(self, board, i2c=None):
        w = board.DISPLAY_WIDTH
        h = board.DISPLAY_HEIGHT
        self.width = w
        self.height = h
        self.pages = h // 8
        self._levels = getattr(board, "DISPLAY_CONTRAST", (1, 12, 48, 128, 255))
        self.level = len(self._levels) - 1
        self.inverted = False
        self.asleep = False
        self.present = False
        self.error = None          # short text when the panel is missing/lost
        self._addr = board.DISPLAY_ADDR
        self._col0 = 32 if w == 64 else 0   # 64-wide panels start at column 32
        self._i2c = i2c
        buf = None
        try:
            buf = self._open(board)
        except OSError:
            # Nothing answers at the address (ENODEV) or the bus hangs
            # (ETIMEDOUT): run headless; drawing still works on the buffer.
            self.error = "no display"
        if buf is None:
            buf = bytearray(w * self.pages)
        self.buffer = buf
        super().__init__(buf, w, h, framebuf.MONO_VLSB)
        self.fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_VLSB)
        # What the panel's GDDRAM holds now. The driver's init cleared both.
        self._shadow = bytearray(buf)
        mv = memoryview(buf)
        smv = memoryview(self._shadow)
        # Views made once: comparing two memoryviews is a C memcmp and makes
        # no garbage, where buf[a:b] == shadow[a:b] would copy both slices.
        self._rows = [mv[p * w:(p + 1) * w] for p in range(self.pages)]
        self._srows = [smv[p * w:(p + 1) * w] for p in range(self.pages)]
        # A changed page and its shadow are copied (C memcpy) into these two
        # scratch rows, whose chunk views are made once: 16 views instead of
        # one per chunk of the whole frame (2 x 64, ~2.5 KB held), and no
        # view made per flush either.
        self._pg = bytearray(w)
        self._spg = bytearray(w)
        pmv = memoryview(self._pg)
        spmv = memoryview(self._spg)
        self._chunks = [pmv[i:i + _CHUNK] for i in range(0, w, _CHUNK)]
        self._schunks = [spmv[i:i + _CHUNK] for i in range(0, w, _CHUNK)]
        # per page: how many runs of changed columns, and each run's first
        # and last column
        self._nruns = bytearray(self.pages)
        self._runs = bytearray(2 * _MAX_RUNS * self.pages)
        # windows being built, (first page, last page, first col, last col)
        # each; two lists swapped page by page
        self._wins = bytearray(4 * _MAX_RUNS)
        self._wins2 = bytearray(4 * _MAX_RUNS)
        self._cmd = bytearray((_CTRL_CMD, _SET_COL_ADDR, 0, 0, _SET_PAGE_ADDR, 0, 0))
        # (cmd[5], cmd[6]: the pages of the last window sent in this flush)
        self._ccmd = memoryview(self._cmd)[:4]    # columns only
        # writevto vectors: control byte 0x40 (data) then one view per page;
        # made when a window of that many pages is first sent
        self._vecs = [None] * self.pages

    def _open(self, board=None):
        """Bring the panel up (cleared); returns the driver's frame buffer."""
        import sys
        from ssd1306 import SSD1306_I2C
        i2c = self._i2c
        if i2c is None:
            # (set at the first call, from __init__: board is given there)
            i2c = self._i2c = _make_i2c(board)
        try:
            buf = SSD1306_I2C(self.width, self.height, i2c, self._addr).buffer
        finally:
            # nothing else holds the driver: its code goes with the module
            sys.modules.pop("ssd1306", None)
        self.present = True
        self.error = None
        return buf

    def _lost(self):
        self.present = False
        self.error = "display lost"

    def flush(self):
        """Send what changed since the last flush. Returns the pixel bytes sent."""
        i2c = self._i2c
        if not self.present or self.asleep or i2c is None:
            return 0
        w = self.width
        pages = self.pages
        rows = self._rows
        srows = self._srows
        chunks = self._chunks
        schunks = self._schunks
        pg = self._pg
        spg = self._spg
        nruns = self._nruns
        runs = self._runs
        per_page = w // _CHUNK
        first = -1                  # first and last changed page
        for p in range(pages):
            if rows[p] == srows[p]:
                nruns[p] = 0
                continue
            if first < 0:
                first = p
            final = p
            # Runs of changed columns. Whole 16-byte chunks are compared in C;
            # bytes one by one only next to a chunk boundary, to find where a
            # run ends and the next begins. A gap inside one chunk (< 16
            # columns) is not looked for: it costs at most a few bytes.
            # Indices below are columns of the page copied into pg/spg.
            pg[:] = rows[p]
            spg[:] = srows[p]
            k = 0
            j = per_page - 1
            while chunks[k] == schunks[k]:
                k += 1
            while chunks[j] == schunks[j]:
                j -= 1
            a = k * _CHUNK
            while pg[a] == spg[a]:
                a += 1
            r = 2 * _MAX_RUNS * p
            last = r + 2 * _MAX_RUNS - 2
            runs[r] = a
            prev = k
            k += 1
            while k <= j:
                if chunks[k] != schunks[k]:
                    a = k * _CHUNK
                    # (both bytes at the boundary changed: no gap there)
                    if r < last and (pg[a] == spg[a] or pg[a - 1] == spg[a - 1]):
                        e = prev * _CHUNK + _CHUNK - 1
                        while pg[e] == spg[e]:
                            e -= 1
                        while pg[a] == spg[a]:
                            a += 1
                        if a - e > _WINDOW_COST + 1:
                            # the gap costs more than another window
                            runs[r + 1] = e
                            r += 2
                            runs[r] = a
                    prev = k
                k += 1
            e = prev * _CHUNK + _CHUNK - 1
            while pg[e] == spg[e]:
                e -= 1
            runs[r + 1] = e
            nruns[p] = (r - 2 * _MAX_RUNS * p) // 2 + 1
        if first < 0:
            return 0
        # Windows: a run starts one, or joins a window of the page above when
        # the extra columns cost less than a window of its own. A window that
        # no run of the next page joins is sent.
        sent = 0
        cur = self._wins
        nxt = self._wins2
        ncur = 0
        self._cmd[5] = 255          # no window sent yet in this flush
        try:
            for p in range(first, final + 2):
                nn = 0
                joined = 0          # bit q: window q of cur goes on
                if p <= final:
                    for i in range(2 * _MAX_RUNS * p, 2 * _MAX_RUNS * p + 2 * nruns[p], 2):
                        a = runs[i]
                        b = runs[i + 1]
                        j = 4 * nn
                        nxt[j] = nxt[j + 1] = p
                        nxt[j + 2] = a
                        nxt[j + 3] = b
                        for q in range(ncur):
                            if joined & (1 << q):
                                continue
                            c0 = cur[4 * q + 2]
                            c1 = cur[4 * q + 3]
                            n = p - cur[4 * q]
                            lo = a if a < c0 else c0
                            hi = b if b > c1 else c1
                            if (hi - lo + 1) * (n + 1) <= (c1 - c0 + 1) * n + _WINDOW_COST + b - a + 1:
                                joined |= 1 << q
                                nxt[j] = cur[4 * q]
                                nxt[j + 2] = lo
                                nxt[j + 3] = hi
                                break
                        nn += 1
                for q in range(ncur):
                    if not joined & (1 << q):
                        sent += self._send(i2c, cur[4 * q], cur[4 * q + 1], cur[4 * q + 2], cur[4 * q + 3])
                cur, nxt = nxt, cur
                ncur = nn
        except OSError:
            self._lost()
            return sent
        self._shadow[:] = self.buffer
        return sent

    def _send(self, i2c, p0, p1, c0, c1):
        cmd = self._cmd
        cmd[2] = c0 + self._col0
        cmd[3] = c1 + self._col0
        if cmd[5] == p0 and cmd[6] == p1:
            # The last window covered the same pages and was filled exactly,
            # so the controller's page pointer is back at p0 (horizontal
            # addressing wraps it to the window's first page): setting the
            # columns is enough (0x21 moves only the column pointer).
            i2c.writeto(self._addr, self._ccmd)
        else:
            cmd[5] = p0
            cmd[6] = p1
            i2c.writeto(self._addr, cmd)
        vec = self._vecs[p1 - p0]
        if vec is None:
            vec = self._vecs[p1 - p0] = [b"\x40"] + [None] * (p1 - p0 + 1)
        rows = self._rows
        full = c0 == 0 and c1 == self.width - 1
        for k in range(p1 - p0 + 1):
            # the window wraps from c1 back to c0 on the next page, so the
            # rows of the rectangle go out back to back in one transaction
            vec[k + 1] = rows[p0 + k] if full else rows[p0 + k][c0:c1 + 1]
        i2c.writevto(self._addr, vec)
        return (c1 - c0 + 1) * (p1 - p0 + 1)

    def invalidate(self):
        """Forget what the panel shows: the next flush sends the whole frame."""
        buf = self.buffer
        sh = self._shadow
        for i in range(len(buf)):
            sh[i] = buf[i] ^ 0xFF

    def _command(self, cmd, arg=None):
        if not self.present:
            return False
        try:
            self._i2c.writeto(self._addr, bytes((_CTRL_CMD, cmd) if arg is None
                                                else (_CTRL_CMD, cmd, arg)))
            return True
        except OSError:
            self._lost()
            return False

    def brightness(self, level):
        """Brightness level 0 (dimmest) .. 4 (brightest)."""
        levels = self._levels
        level = 0 if level < 0 else (len(levels) - 1 if level >= len(levels) else level)
        self.level = level
        self._command(_SET_CONTRAST, levels[level])

    def contrast(self, value):
        """Raw SSD1306 contrast 0..255."""
        self._command(_SET_CONTRAST, value & 0xFF)

    def invert(self, on):
        self.inverted = bool(on)
        self._command(_SET_NORMAL | (1 if on else 0))

    def sleep(self):
        """Panel off (GDDRAM is kept); flush sends nothing until wake()."""
        self.asleep = True
        self._command(_PANEL_OFF)

    def wake(self):
        self.asleep = False
        self._command(_PANEL_ON)
        self.flush()

    def probe(self):
        """Try again to reach a panel that was missing. True when present.
        Cheap while nothing answers: one two-byte write, no driver loaded."""
        if self.present:
            return True
        if self._i2c is None:        # the bus itself could not be set up
            return False
        try:
            self._i2c.writeto(self._addr, _NOP)     # anyone there?
            self._open()     # (the driver's new buffer is dropped: ours is drawn on)
        except OSError:
            self.present = False
            self.error = "no display"
            return False
        self.invalidate()
        self.brightness(self.level)
        self.invert(self.inverted)
        self.flush()
        return self.present
