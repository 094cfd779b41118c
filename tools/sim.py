"""The ML4M simulator: `make sim` (or `.venv/bin/python tools/sim.py --help`).

Runs the repo's boot.py and main.py -- the real firmware -- on the emulated board
(tools/emu) and shows the panel in this terminal. See tools/simulator/.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
# Our own folder (tools/) must not shadow anything: the firmware imports by
# package names from the repo root.
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE in sys.path:
    sys.path.remove(HERE)

from tools.simulator.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
