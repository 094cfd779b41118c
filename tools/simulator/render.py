"""The panel's pixels as terminal text, and where everything goes on the screen.

A terminal cell is about twice as tall as it is wide, so two renderings keep the
panel's pixels square:
  half blocks -- one cell = 1 pixel wide x 2 pixels tall (upper/lower half block);
                 at scale k the panel takes 128k columns x 32k rows;
  braille     -- one cell = 2 x 4 pixels (U+2800 dots): 64 columns x 16 rows, which
                 fits a plain 80x24 terminal with room for the legend.
The biggest rendering that fits is used unless --scale picks one: half blocks
whenever the panel fits with a status line under it (the legend, then the
frame, make way), braille only below 128 columns or 33 rows. A terminal too
small for even that gets a note where the panel would be.
"""

HALF_BLOCKS = (" ", "\u2584", "\u2580", "\u2588")   # index = upper*2 + lower
# Braille dot bit for the pixel at (dx, dy) inside a 2x4 cell.
_BRAILLE_BIT = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))

BRAILLE = 0.5          # the --scale value that selects braille
FOOTER_ROWS = 3        # status line + two legend lines
BORDER = 1             # one cell of frame around the panel


def half_block_rows(pixels, scale=1):
    """Rows of text for `pixels` (rows of 0/1) in half blocks at an integer scale."""
    height = len(pixels)
    lines = []
    for r in range(height * scale // 2):
        upper = pixels[(2 * r) // scale]
        lower = pixels[(2 * r + 1) // scale]
        line = "".join([HALF_BLOCKS[u * 2 + l] for u, l in zip(upper, lower)])
        if scale > 1:
            line = "".join([ch * scale for ch in line])
        lines.append(line)
    return lines


def braille_rows(pixels):
    """Rows of text for `pixels` in braille cells (2x4 pixels each); blank cells are spaces."""
    height = len(pixels)
    width = len(pixels[0]) if height else 0
    lines = []
    for top in range(0, height, 4):
        cells = []
        for left in range(0, width, 2):
            bits = 0
            for dy in range(4):
                y = top + dy
                if y >= height:
                    break
                row = pixels[y]
                if row[left]:
                    bits |= _BRAILLE_BIT[dy][0]
                if left + 1 < width and row[left + 1]:
                    bits |= _BRAILLE_BIT[dy][1]
            cells.append(chr(0x2800 + bits) if bits else " ")
        lines.append("".join(cells))
    return lines


def panel_size(scale, width=128, height=64):
    """(columns, rows) the panel takes at `scale`, without the frame."""
    if scale == BRAILLE:
        return (width + 1) // 2, (height + 3) // 4
    return width * scale, height * scale // 2


def choose_scale(columns, rows, wanted=None, width=128, height=64):
    """The scale to draw at: `wanted` if given, else the largest half-block scale whose
    panel, frame and footer fit, else half blocks at scale 1 if the panel and a
    status line fit (no legend, maybe no frame), else braille (even if that is
    clipped)."""
    if wanted:
        return wanted
    for scale in (4, 3, 2, 1):
        w, h = panel_size(scale, width, height)
        if w + 2 * BORDER <= columns and h + 2 * BORDER + FOOTER_ROWS <= rows:
            return scale
    w, h = panel_size(1, width, height)
    if w <= columns and h + 1 <= rows:
        return 1
    return BRAILLE


def render_panel(pixels, scale):
    return braille_rows(pixels) if scale == BRAILLE else half_block_rows(pixels, scale)


class Layout:
    """Where the frame, panel, status line and legend go on a columns x rows screen."""

    def __init__(self, columns, rows, scale, width=128, height=64):
        self.columns = columns
        self.rows = rows
        self.scale = scale
        self.panel_columns, self.panel_rows = panel_size(scale, width, height)
        # the frame only where it fits beside the panel and a status line
        self.border = BORDER if (self.panel_columns + 2 * BORDER <= columns and
                                 self.panel_rows + 2 * BORDER + 1 <= rows) else 0
        framed_w = self.panel_columns + 2 * self.border
        framed_h = self.panel_rows + 2 * self.border
        self.left = max(0, (columns - framed_w) // 2)        # 0-based column of the frame
        spare = rows - framed_h - FOOTER_ROWS
        self.top = max(0, spare // 2)                          # 0-based row of the frame
        self.status_row = self.top + framed_h                   # 0-based
        self.legend_rows = max(0, min(FOOTER_ROWS - 1, rows - self.status_row - 1))
        self.fits = framed_w <= columns and framed_h + 1 <= rows
        # what a terminal too small for the panel needs (with the frame)
        self.needed = (self.panel_columns + 2 * BORDER, self.panel_rows + 2 * BORDER + 1)

    def too_small(self):
        """The note shown where the panel would be when it does not fit."""
        return ["terminal too small", "%dx%d here," % (self.columns, self.rows),
                "needs %dx%d:" % self.needed, "enlarge it", "(q quits)"]


def clip(text, width):
    """`text` cut to `width` terminal columns (all our characters are one column wide)."""
    return text if len(text) <= width else text[:max(0, width)]
