"""The MicroPython runner (tools/mprun/run.mjs, MicroPython's WebAssembly port
under Node) for the tests that run firmware or bench scripts on it: where it
is, and the marks that skip such a test, saying why, on a machine without it."""
import os
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE = shutil.which("node")
RUNNER = os.path.join(ROOT, "tools", "mprun", "run.mjs")
MODULES = os.path.join(ROOT, "tools", "node_modules", "@micropython")

NEEDS_RUNNER = [
    pytest.mark.skipif(NODE is None, reason="node is not installed (the MicroPython runner needs Node 20)"),
    pytest.mark.skipif(not os.path.isdir(MODULES),
                       reason="tools/node_modules is missing: run `make deps` for the MicroPython runner"),
]
