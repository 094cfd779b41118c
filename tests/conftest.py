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


# ---- each test starts with the firmware its file imported -----------------------------
# A launch is a soft reset (tools/emu/runner.py): the firmware's modules are
# forgotten and imported afresh, as on the board. A test file's own
# `from firmware... import X`, made when it was collected, would then name
# another copy than the one an app of a later test runs. So each test starts
# with the modules as they were after collection.
_IMPORTED = {}


def _firmware(name):
    return name == "firmware" or name.startswith("firmware.")


def pytest_collection_finish(session):
    _IMPORTED.update((n, m) for n, m in sys.modules.items() if _firmware(n))


@pytest.fixture(autouse=True)
def firmware_as_imported():
    for name in [n for n in sys.modules if _firmware(n)]:
        del sys.modules[name]
    sys.modules.update(_IMPORTED)
    for module in _IMPORTED.values():   # a package's attribute naming a later copy
        for attr, value in list(vars(module).items()):
            if (type(value) is type(sys) and _firmware(value.__name__)
                    and _IMPORTED.get(value.__name__) is not value):
                delattr(module, attr)
    yield
