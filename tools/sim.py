#!/usr/bin/env python3
"""The ML4M simulator: `make sim`, or `tools/sim.py --help` as it stands.

Runs the repo's boot.py and main.py -- the real firmware -- on the emulated board
(tools/emu) and shows the panel in this terminal. See tools/simulator/.
Started by another Python than the repo's .venv (`tools/sim.py` through the
shebang), it runs again under .venv's when there is one, so the pinned tools
installed there (pygame for --window) are found.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
if (os.path.exists(VENV_PYTHON) and os.path.realpath(sys.prefix) != os.path.realpath(
        os.path.join(ROOT, ".venv")) and not os.environ.get("ML4M_SIM_NO_VENV")):
    os.environ["ML4M_SIM_NO_VENV"] = "1"          # once: no loop if .venv is odd
    os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
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
