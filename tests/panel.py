"""Reading the emulated panel in tests: find text drawn with the 8x8 font."""
from tools.simulator.panel_text import find_text, highlighted  # noqa: F401


def shows(panel, text):
    return find_text(panel, text) is not None
