# The panel link for an SSD1306 on I2C: everything that knows how this
# controller is spoken to. firmware/hal/display.py keeps the picture and
# decides what to send; a board file names its link (DISPLAY_LINK), so an
# SH1106 or an SPI panel is another module with the same methods:
#   open()              bring the panel up, cleared; returns the driver's frame
#   probe()             is a panel there again? (brought up when it is)
#   begin_frame()       a flush starts: forget where the last window was
#   send_window(...)    the pixels of a rectangle of pages and columns
#   contrast(value), invert(on), power(on)
# Each of them raises OSError when the panel does not answer.
#
# lib/ssd1306.py (micropython-lib) brings the panel up: its init sequence and
# a clear frame. Then the driver module is released (README, "Why the code
# looks like this") and the few commands needed later are sent from here.
from micropython import const

_CTRL_CMD = const(0x00)    # control byte: Co=0, D/C#=0 -> a stream of commands
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_CONTRAST = const(0x81)
_SET_NORMAL = const(0xA6)  # | 1: inverted
_PANEL_OFF = const(0xAE)
_PANEL_ON = const(0xAF)
_NO_PAGE = const(255)      # "no window sent yet in this flush"

# Bus bytes that one window costs besides its pixels: the command transaction
# (address, control, 6 command bytes) and the data transaction's address and
# control byte. The display uses it to weigh a gap against another window.
WINDOW_COST = const(10)


class Link:
    def __init__(self, board, i2c=None):
        self.width = board.DISPLAY_WIDTH
        self.height = board.DISPLAY_HEIGHT
        self._board = board
        self._i2c = i2c
        # The window command: columns (cmd[2], cmd[3]) then pages (cmd[5],
        # cmd[6], the pages of the last window sent in this flush).
        self._cmd = bytearray((_CTRL_CMD, _SET_COL_ADDR, 0, 0, _SET_PAGE_ADDR, 0, 0))
        self._columns_cmd = memoryview(self._cmd)[:4]
        # writevto vectors: control byte 0x40 (data) then one view per page;
        # made when a window of that many pages is first sent
        self._vectors = [None] * (self.height // 8)

    def open(self, warm=False):
        """Bring the panel up (cleared), and the bus first if it is not up
        yet; returns the driver's frame buffer. warm: the panel is up already
        (a soft reset) and keeps its picture: only asked whether it is there
        (returns None: the display makes its own buffer)."""
        if self._i2c is None:
            from machine import Pin
            board = self._board
            scl = Pin(board.I2C_SCL)
            sda = Pin(board.I2C_SDA)
            if board.I2C_ID is None:
                from machine import SoftI2C
                self._i2c = SoftI2C(scl=scl, sda=sda, freq=board.I2C_FREQ)
            else:
                from machine import I2C
                self._i2c = I2C(board.I2C_ID, scl=scl, sda=sda, freq=board.I2C_FREQ)
        if warm:
            # anyone there? (a no-op command)
            self._i2c.writeto(self._board.DISPLAY_ADDR, b"\x00\xe3")
            return None
        from firmware import modules
        from ssd1306 import SSD1306_I2C
        try:
            return SSD1306_I2C(self.width, self.height, self._i2c, self._board.DISPLAY_ADDR).buffer
        finally:
            # nothing else holds the driver: its code goes with the module
            modules.forget("ssd1306")

    def probe(self):
        """True when a panel answers (then brought up again, cleared).
        Cheap while nothing answers: one two-byte write, no driver loaded."""
        if self._i2c is None:        # the bus itself could not be set up
            return False
        # anyone there? (a no-op command)
        self._i2c.writeto(self._board.DISPLAY_ADDR, b"\x00\xe3")
        self.open()      # (the driver's new buffer is dropped: the display's is drawn on)
        return True

    def begin_frame(self):
        self._cmd[5] = _NO_PAGE

    def send_window(self, rows, p0, p1, c0, c1):
        """Send pages p0..p1, columns c0..c1 of `rows` (one view per page)."""
        addr = self._board.DISPLAY_ADDR
        cmd = self._cmd
        first = 32 if self.width == 64 else 0   # 64-wide panels start at column 32
        cmd[2] = c0 + first
        cmd[3] = c1 + first
        if cmd[5] == p0 and cmd[6] == p1:
            # The last window covered the same pages and was filled exactly,
            # so the controller's page pointer is back at p0 (horizontal
            # addressing wraps it to the window's first page): setting the
            # columns is enough (0x21 moves only the column pointer).
            self._i2c.writeto(addr, self._columns_cmd)
        else:
            cmd[5] = p0
            cmd[6] = p1
            self._i2c.writeto(addr, cmd)
        vec = self._vectors[p1 - p0]
        if vec is None:
            vec = self._vectors[p1 - p0] = [b"\x40"] + [None] * (p1 - p0 + 1)
        whole_rows = c0 == 0 and c1 == self.width - 1
        for k in range(p1 - p0 + 1):
            # the window wraps from c1 back to c0 on the next page, so the
            # rows of the rectangle go out back to back in one transaction
            vec[k + 1] = rows[p0 + k] if whole_rows else rows[p0 + k][c0:c1 + 1]
        try:
            self._i2c.writevto(addr, vec)
        finally:
            # the slices are made for this window: not kept until the next
            # window of this height (all eight heights' kept: ~0.7 KB)
            for k in range(p1 - p0 + 1):
                vec[k + 1] = None

    def _command(self, cmd, arg=None):
        self._i2c.writeto(self._board.DISPLAY_ADDR, bytes((_CTRL_CMD, cmd) if arg is None
                                            else (_CTRL_CMD, cmd, arg)))

    def contrast(self, value):
        """The contrast register, 0..255."""
        self._command(_SET_CONTRAST, value)

    def invert(self, on):
        self._command(_SET_NORMAL | (1 if on else 0))

    def power(self, on):
        """Panel on or off (off keeps what it shows)."""
        self._command(_PANEL_ON if on else _PANEL_OFF)
