"""pytest setup: the emulated ML4M stands in for the real board (tools/emu)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tools.emu  # noqa: E402

tools.emu.install()

import pytest  # noqa: E402


@pytest.fixture
def board():
    """A fresh ML4M, made current: machine.* objects created afterwards bind to it."""
    return tools.emu.Board()


@pytest.fixture
def store_dir(tmp_path):
    """An empty folder standing in for the board's flash filesystem."""
    return tmp_path
