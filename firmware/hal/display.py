# The display: a picture drawn in a frame buffer, and flush() sending only
# what changed since the last flush.
#
# A full frame is 1024 bytes: ~23 ms on the I2C bus at 400 kHz, where one
# 16x16 tile is ~2 ms. So flush() compares the frame buffer with a shadow of
# what the panel holds, finds the changed columns of each changed page (a
# page is a band of 8 pixel rows), plans rectangular windows around them and
# has the panel link send each window. The link (firmware/hal/ssd1306_i2c.py
# for the ML4M, named by the board file's DISPLAY_LINK) is the only part that
# knows how the controller is spoken to.
from micropython import const
import framebuf

_CHUNK = const(16)         # coarse compare unit, in columns
_MAX_RUNS = const(4)       # column runs kept per page (more: the last one grows)
_WIN = const(4)            # a planned window: first page, last page, first col, last col
_TAKEN = const(255)        # in a window's last page: taken on down by the next page's run
# the contrast of brightness levels 0..4, for a board file without DISPLAY_CONTRAST
_LEVELS = const((1, 12, 48, 128, 255))


class Display:
    # Everything is drawn on .fb, a plain framebuf.FrameBuffer over .buffer:
    # display.fb.fill_rect(...), display.fb.text(...), and so on.
    def __init__(self, board, i2c=None, warm=False):
        w = board.DISPLAY_WIDTH
        h = board.DISPLAY_HEIGHT
        self.width = w
        self.height = h
        pages = h // 8
        self._board = board       # its contrast levels are read from it when used
        self.level = len(getattr(board, "DISPLAY_CONTRAST", _LEVELS)) - 1
        self.inverted = False
        self.asleep = False
        self.present = False
        self.error = None          # short text when the panel is missing/lost
        # the panel link the board file names, e.g. firmware/hal/ssd1306_i2c.py
        module = __import__("firmware.hal." + board.DISPLAY_LINK, None, None, ["Link"])
        self.link = module.Link(board, i2c)
        # A gap of unchanged columns that costs more than a window of its own
        # is skipped by starting another window.
        self._window_cost = module.WINDOW_COST
        buf = None
        try:
            # warm (after a soft reset): the panel is not brought up again and
            # keeps its picture until the first flush sends the whole new one
            buf = self.link.open(warm)
            self.present = True
        except OSError:
            # Nothing answers at the address (ENODEV) or the bus hangs
            # (ETIMEDOUT): run headless; drawing still works on the buffer.
            self.error = "no display"
        if buf is None:
            buf = bytearray(w * pages)
        self.buffer = buf
        self.fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_VLSB)
        # What the panel's memory holds now. The link's open() cleared both
        # (warm: not known until the first flush, _unknown).
        self._shadow = bytearray(buf)
        mv = memoryview(buf)
        smv = memoryview(self._shadow)
        # Views made once: comparing two memoryviews is a C memcmp and makes
        # no garbage, where buf[a:b] == shadow[a:b] would copy both slices.
        self._rows = [mv[p * w:(p + 1) * w] for p in range(pages)]
        self._srows = [smv[p * w:(p + 1) * w] for p in range(pages)]
        # A changed page and its shadow are copied (C memcpy) into these two
        # scratch rows, whose 16 chunk views are made once, not one per chunk
        # of the frame nor per flush (README, "Why the code looks like this").
        self._pg = bytearray(w)
        self._spg = bytearray(w)
        pmv = memoryview(self._pg)
        spmv = memoryview(self._spg)
        self._chunks = [pmv[i:i + _CHUNK] for i in range(0, w, _CHUNK)]
        self._schunks = [spmv[i:i + _CHUNK] for i in range(0, w, _CHUNK)]
        # per page: how many runs of changed columns, and each run's first
        # and last column
        self._nruns = bytearray(pages)
        self._runs = bytearray(2 * _MAX_RUNS * pages)
        # windows being planned, _WIN bytes each: those reaching the page
        # above and those reaching this page (two lists swapped page by page)
        self._wins = bytearray(_WIN * _MAX_RUNS)
        self._wins2 = bytearray(_WIN * _MAX_RUNS)
        self._unknown = warm       # what the panel shows is not known: send it all

    # ----- flush: find what changed, plan windows, send them ------------------
    def flush(self):
        """Send what changed since the last flush. Returns the pixel bytes sent."""
        if not self.present or self.asleep:
            return 0
        if self._unknown:
            self._unknown = False
            self.invalidate()
        first = -1                  # first and last changed page
        last = -1
        for p in range(len(self._rows)):
            if self._find_runs(p):
                if first < 0:
                    first = p
                last = p
        if first < 0:
            return 0
        try:
            sent = self._send_windows(first, last)
        except OSError:              # the panel is lost (a loose wire): nothing counts
            self.present = False
            self.error = "display lost"
            return 0
        self._shadow[:] = self.buffer
        return sent

    def _find_runs(self, p):
        """Note page p's runs of changed columns; False when it is unchanged.

        Whole 16-byte chunks are compared in C; bytes one by one only next to
        a chunk boundary, to find where a run ends and the next begins. A gap
        inside one chunk (< 16 columns) is not looked for: it costs at most a
        few bytes. Columns below are those of the page copied into pg/spg."""
        if self._rows[p] == self._srows[p]:
            self._nruns[p] = 0
            return False
        pg = self._pg
        spg = self._spg
        chunks = self._chunks
        schunks = self._schunks
        runs = self._runs
        pg[:] = self._rows[p]
        spg[:] = self._srows[p]
        chunk = 0                   # the first changed chunk, then each in turn
        last_chunk = len(chunks) - 1
        while chunks[chunk] == schunks[chunk]:
            chunk += 1
        while chunks[last_chunk] == schunks[last_chunk]:
            last_chunk -= 1
        start = chunk * _CHUNK
        while pg[start] == spg[start]:
            start += 1
        slot = 2 * _MAX_RUNS * p    # where the page's runs are kept: first, last column
        last_slot = slot + 2 * _MAX_RUNS - 2
        runs[slot] = start
        prev = chunk                # the last changed chunk so far
        chunk += 1
        while chunk <= last_chunk:
            if chunks[chunk] != schunks[chunk]:
                start = chunk * _CHUNK
                # (both bytes at the boundary changed: no gap there)
                gap = pg[start] == spg[start] or pg[start - 1] == spg[start - 1]
                if slot < last_slot and gap:
                    end = self._run_end(prev)
                    while pg[start] == spg[start]:
                        start += 1
                    if start - end > self._window_cost + 1:
                        # the gap costs more than another window
                        runs[slot + 1] = end
                        slot += 2
                        runs[slot] = start
                prev = chunk
            chunk += 1
        runs[slot + 1] = self._run_end(prev)
        self._nruns[p] = (slot - 2 * _MAX_RUNS * p) // 2 + 1
        return True

    def _run_end(self, chunk):
        """The last changed column of a changed chunk of the page in pg/spg."""
        e = chunk * _CHUNK + _CHUNK - 1
        while self._pg[e] == self._spg[e]:
            e -= 1
        return e

    def _send_windows(self, first, last):
        """Plan windows over the changed pages first..last and send them.

        A run starts a window, or joins a window of the page above when the
        extra columns cost less than a window of its own. A window that no
        run of the next page joins is complete and is sent. Returns the
        pixel bytes sent."""
        above = self._wins          # windows reaching the page above
        here = self._wins2          # windows reaching this page
        n_above = 0
        sent = 0
        self.link.begin_frame()
        for p in range(first, last + 2):
            n_here = self._plan_page(p, above, n_above, here) if p <= last else 0
            for q in range(n_above):
                w = _WIN * q
                if above[w + 1] != _TAKEN:
                    # a window no run of this page joins: complete, sent
                    p0 = above[w]
                    p1 = above[w + 1]
                    c0 = above[w + 2]
                    c1 = above[w + 3]
                    self.link.send_window(self._rows, p0, p1, c0, c1)
                    sent += (c1 - c0 + 1) * (p1 - p0 + 1)
            above, here = here, above
            n_above = n_here
        return sent

    def _plan_page(self, p, above, n_above, here):
        """Windows for page p's runs into `here`, each a new one or one of
        `above` taken on down (its last page marked _TAKEN); returns how many."""
        runs = self._runs
        n = 0
        start = 2 * _MAX_RUNS * p
        for i in range(start, start + 2 * self._nruns[p], 2):
            a = runs[i]
            b = runs[i + 1]
            w = _WIN * n
            here[w] = here[w + 1] = p
            here[w + 2] = a
            here[w + 3] = b
            for q in range(n_above):
                if above[_WIN * q + 1] == _TAKEN:
                    continue
                top = above[_WIN * q]
                c0 = above[_WIN * q + 2]
                c1 = above[_WIN * q + 3]
                lo = a if a < c0 else c0
                hi = b if b > c1 else c1
                height = p - top        # pages the window of the page above has
                # bytes sent: one window grown over both, or the two apart
                together = (hi - lo + 1) * (height + 1)
                apart = (c1 - c0 + 1) * height + self._window_cost + b - a + 1
                if together <= apart:
                    above[_WIN * q + 1] = _TAKEN
                    here[w] = top
                    here[w + 2] = lo
                    here[w + 3] = hi
                    break
            n += 1
        return n

    def invalidate(self):
        """Forget what the panel shows: the next flush sends the whole frame."""
        buf = self.buffer
        sh = self._shadow
        for i in range(len(buf)):
            sh[i] = buf[i] ^ 0xFF

    # ----- the panel's settings -------------------------------------------------
    def _tell(self, setting, value):
        """Give the link a setting (a method of it); False when it is lost."""
        if not self.present:
            return False
        try:
            setting(value)
            return True
        except OSError:
            self.present = False
            self.error = "display lost"
            return False

    def brightness(self, level):
        """Brightness level 0 (dimmest) .. 4 (brightest)."""
        levels = getattr(self._board, "DISPLAY_CONTRAST", _LEVELS)
        level = 0 if level < 0 else (len(levels) - 1 if level >= len(levels) else level)
        self.level = level
        self._tell(self.link.contrast, levels[level])

    def contrast(self, value):
        """Raw contrast 0..255."""
        self._tell(self.link.contrast, value & 0xFF)

    def invert(self, on):
        self.inverted = bool(on)
        self._tell(self.link.invert, self.inverted)

    def sleep(self):
        """Panel off (what it shows is kept); flush sends nothing until wake()."""
        self.asleep = True
        self._tell(self.link.power, False)

    def wake(self):
        self.asleep = False
        self._tell(self.link.power, True)
        self.flush()

    def probe(self):
        """Try again to reach a panel that was missing. True when present."""
        if self.present:
            return True
        try:
            self.present = self.link.probe()
        except OSError:
            self.present = False
        if not self.present:
            self.error = "no display"
            return False
        self.error = None
        self.invalidate()
        self.brightness(self.level)
        self.invert(self.inverted)
        self.flush()
        return self.present
