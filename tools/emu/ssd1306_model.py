"""The SSD1306 OLED controller, seen from its I2C pins (Solomon Systech datasheet
rev 1.1, sections 8.1.5 (I2C), 9 (command table) and 10.1.3 (addressing modes)).

It keeps the chip's state -- 128x64 bits of GDDRAM, the address pointer and window,
and the display settings -- and turns it into the picture a viewer sees on the
panel. Unknown command bytes are recorded in `unknown_commands` and otherwise
ignored.

Plain Python that MicroPython runs too: the browser arcade (tools/web) runs this
very model in the page, so only png() needs CPython's struct and zlib.
"""

# Argument bytes that follow each multi-byte command.
_ARGS = {
    0x20: 1,   # memory addressing mode
    0x21: 2,   # column address window (horizontal/vertical mode)
    0x22: 2,   # page address window
    0x23: 1,   # fade out / blinking (newer revisions)
    0x26: 6, 0x27: 6,  # continuous horizontal scroll setup
    0x29: 5, 0x2A: 5,  # continuous vertical+horizontal scroll setup
    0x81: 1,   # contrast
    0x8D: 1,   # charge pump
    0xA3: 2,   # vertical scroll area
    0xA8: 1,   # multiplex ratio
    0xAD: 1,   # internal IREF (newer revisions; some drivers send it)
    0xD3: 1,   # display offset
    0xD5: 1,   # clock divide / oscillator
    0xD6: 1,   # zoom in
    0xD9: 1,   # pre-charge period
    0xDA: 1,   # COM pins hardware configuration
    0xDB: 1,   # VCOMH deselect level
}

HORIZONTAL, VERTICAL, PAGE = 0, 1, 2


class SSD1306:
    def __init__(self, width=128, height=64, rng=None, external_vcc=False):
        self.width = width            # the panel's visible size
        self.height = height
        self.external_vcc = external_vcc
        # GDDRAM holds 8 pages x 128 columns whatever the panel shows; after power-up
        # it holds garbage, so firmware that never clears it shows noise.
        if rng is not None:
            self.gddram = bytearray(rng.getrandbits(8) for _ in range(8 * 128))
        else:
            self.gddram = bytearray(8 * 128)
        self.power_on_reset()
        self.unknown_commands = []
        self.commands = 0             # command bytes decoded (arguments included)
        self.data_bytes = 0           # GDDRAM bytes written

    def power_on_reset(self):
        """Register values after RES# (datasheet section 9 'reset' column)."""
        self.mode = PAGE
        self.col_start, self.col_end = 0, 127
        self.page_start, self.page_end = 0, 7
        self.col = 0
        self.page = 0
        self.contrast = 0x7F
        self.entire_on = False        # A5: all pixels lit regardless of RAM
        self.inverted = False
        self.on = False               # AE after reset: sleep
        self.seg_remap = False        # A1: column 127 drives SEG0
        self.com_reverse = False      # C8: scan COM[N-1] .. COM0
        self.start_line = 0
        self.mux = 63
        self.offset = 0
        self.com_alt = True           # DA bit 4: alternative COM pin configuration
        self.com_lr_remap = False     # DA bit 5
        self.charge_pump = False      # 8D 14 enables it; without it (internal VCC) nothing lights
        self.scrolling = False
        self.settings = {}            # raw bytes of timing settings (D5, D9, DB, ...)
        self._cmd = None              # command waiting for its argument bytes
        self._args = []

    # ---- I2C side ----------------------------------------------------------------
    def i2c_write(self, data):
        """One I2C write transaction (the bytes after the address byte).

        A control byte Co|D/C#|000000 comes first. Co=0: every following byte of this
        transaction is of that kind (D/C#=0 command, 1 GDDRAM data). Co=1: exactly
        one such byte follows, then another control byte."""
        i = 0
        n = len(data)
        while i < n:
            control = data[i]
            i += 1
            is_data = bool(control & 0x40)
            if control & 0x80:
                if i < n:
                    self._byte(data[i], is_data)
                    i += 1
                continue
            while i < n:
                self._byte(data[i], is_data)
                i += 1

    def i2c_read(self, count):
        """In I2C mode only the status byte can be read: D6 = 1 when the display is off."""
        status = 0x40 if not self.on else 0x00
        return bytes([status]) * count

    def _byte(self, value, is_data):
        if is_data:
            self.write_ram(value)
        else:
            self.command_byte(value)

    # ---- commands ------------------------------------------------------------------
    def command_byte(self, value):
        # Argument state survives control bytes and transactions: the stock driver
        # sends "0x20" and its argument "0x00" in two separate transactions.
        self.commands += 1
        if self._cmd is not None:
            self._args.append(value)
            if len(self._args) == _ARGS[self._cmd]:
                cmd, args = self._cmd, self._args
                self._cmd, self._args = None, []
                self._execute(cmd, args)
            return
        if value in _ARGS:
            self._cmd, self._args = value, []
            return
        self._execute(value, ())

    def _execute(self, cmd, args):
        if cmd <= 0x0F:                         # lower column nibble (page mode)
            self.col = (self.col & 0x70) | cmd
        elif cmd <= 0x1F:                       # upper column nibble (page mode)
            self.col = ((cmd & 0x07) << 4) | (self.col & 0x0F)
        elif cmd == 0x20:
            if args[0] & 3 != 3:                # 3 is invalid
                self.mode = args[0] & 3
        elif cmd == 0x21:
            self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col_start
        elif cmd == 0x22:
            self.page_start, self.page_end = args[0] & 7, args[1] & 7
            self.page = self.page_start
        elif cmd == 0x2E:
            self.scrolling = False
        elif cmd == 0x2F:
            self.scrolling = True                # accepted; the picture does not scroll
        elif 0x40 <= cmd <= 0x7F:
            self.start_line = cmd & 0x3F
        elif cmd == 0x81:
            self.contrast = args[0]
        elif cmd == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif cmd in (0xA0, 0xA1):
            self.seg_remap = cmd == 0xA1
        elif cmd in (0xA4, 0xA5):
            self.entire_on = cmd == 0xA5
        elif cmd in (0xA6, 0xA7):
            self.inverted = cmd == 0xA7
        elif cmd == 0xA8:
            if args[0] & 0x3F >= 15:             # 0..14 are invalid
                self.mux = args[0] & 0x3F
        elif cmd in (0xAE, 0xAF):
            self.on = cmd == 0xAF
        elif 0xB0 <= cmd <= 0xB7:
            self.page = cmd & 7
        elif cmd in (0xC0, 0xC8):
            self.com_reverse = cmd == 0xC8
        elif cmd == 0xD3:
            self.offset = args[0] & 0x3F
        elif cmd == 0xDA:
            self.com_alt = bool(args[0] & 0x10)
            self.com_lr_remap = bool(args[0] & 0x20)
        elif cmd in (0xD5, 0xD9, 0xDB, 0xAD, 0x23, 0xD6, 0xA3, 0x26, 0x27, 0x29, 0x2A):
            self.settings[cmd] = tuple(args)
        elif cmd == 0xE3:
            pass                                 # NOP
        else:
            self.unknown_commands.append(cmd)

    # ---- GDDRAM --------------------------------------------------------------------
    def write_ram(self, value):
        self.gddram[self.page * 128 + self.col] = value
        self.data_bytes += 1
        self._step()

    def _step(self):
        """Move the address pointer after a GDDRAM access (datasheet 10.1.3)."""
        if self.mode == PAGE:
            # Only the column moves; past column 127 it returns to 0, same page.
            self.col = (self.col + 1) & 0x7F
        elif self.mode == HORIZONTAL:
            if self.col == self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page == self.page_end else (self.page + 1) & 7
            else:
                self.col = (self.col + 1) & 0x7F
        else:  # VERTICAL
            if self.page == self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col == self.col_end else (self.col + 1) & 0x7F
            else:
                self.page = (self.page + 1) & 7

    def ram_bit(self, column, row):
        """One GDDRAM bit: column 0..127, RAM row 0..63 (bit row%8 of page row//8)."""
        return (self.gddram[(row >> 3) * 128 + column] >> (row & 7)) & 1

    # ---- what the viewer sees ------------------------------------------------------
    def _lit_possible(self):
        # Off, or on without a charge pump on an internal-VCC module: nothing lights.
        return self.on and (self.charge_pump or self.external_vcc)

    def _ram_row(self, y):
        """RAM row shown on viewer row y (0 = top), or None if that row is dark.

        The module is mounted so that the micropython-lib init (A1, C8, DA 0x12)
        gives an upright picture: viewer row y sits on COM (H-1-y)."""
        h = self.height
        half = h // 2
        com = h - 1 - y
        panel_alt = h == 64        # 128x64 modules are wired for alternative COM pins
        if self.com_alt and not panel_alt:
            com = (com % half) * 2 + com // half
        elif panel_alt and not self.com_alt:
            com = (com % 2) * half + com // 2   # rows come out interleaved
        if self.com_lr_remap:
            com = (com + half) % h
        lines = self.mux + 1
        scan = lines - 1 - com if self.com_reverse else com
        if not 0 <= scan < lines:
            return None
        # Approximation: the offset and start line shift which RAM row is scanned.
        return (scan + self.offset + self.start_line) & 63

    def _column(self, x):
        # Viewer column x sits on SEG (W-1-x); A1 maps SEG s to column 127-s.
        seg = self.width - 1 - x
        return 127 - seg if self.seg_remap else seg

    def pixel(self, x, y):
        """1 if the viewer sees pixel (x, y) lit, else 0."""
        if not self._lit_possible():
            return 0
        row = self._ram_row(y)
        if row is None:
            return 0
        lit = 1 if self.entire_on else self.ram_bit(self._column(x), row)
        return lit ^ 1 if self.inverted else lit

    def pixels(self):
        """The picture as `height` rows of `width` 0/1 values."""
        if not self._lit_possible():
            return [[0] * self.width for _ in range(self.height)]
        columns = [self._column(x) for x in range(self.width)]
        picture = []
        for y in range(self.height):
            row = self._ram_row(y)
            if row is None:
                picture.append([0] * self.width)
                continue
            page = (row >> 3) * 128
            bit = row & 7
            flip = 1 if self.inverted else 0
            if self.entire_on:
                picture.append([1 ^ flip] * self.width)
            else:
                picture.append([((self.gddram[page + c] >> bit) & 1) ^ flip for c in columns])
        return picture

    def text_art(self, on="#", off="."):
        return "\n".join("".join(on if p else off for p in row) for row in self.pixels())

    def png(self, path=None, scale=4, brightness=False):
        """The picture as a grayscale PNG: lit pixels full white, or with
        `brightness` as bright as the panel's contrast makes them (the dimmed
        panel darker). Writes it to `path` if given; returns the PNG bytes."""
        import struct   # here, not at the top: MicroPython has no zlib.compress
        import zlib
        level = 60 + (195 * self.contrast) // 255 if brightness else 255
        raw = bytearray()
        for row in self.pixels():
            line = bytearray([0])   # filter type: none
            for p in row:
                line.extend(bytes([level if p else 0]) * scale)
            for _ in range(scale):
                raw.extend(line)

        def chunk(kind, body):
            return (struct.pack(">I", len(body)) + kind + body
                    + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

        header = struct.pack(">IIBBBBB", self.width * scale, self.height * scale, 8, 0, 0, 0, 0)
        data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))
        if path is not None:
            with open(path, "wb") as f:
                f.write(data)
        return data
