"""Store: JSON files saved atomically; broken files give defaults and are kept
aside; a full flash or a power cut never stops the game or loses the old save."""
import errno
import json
import os

import pytest

from firmware.hal.store import OsFs, Store
from tests import saves


class PowerCut(BaseException):
    """The board loses power: nothing after this point runs."""


class TestFs(OsFs):
    """The real filesystem in a tmp dir, with faults on demand and a log."""
    __test__ = False

    def __init__(self):
        super().__init__()
        self.log = []
        self.fail = {}          # op -> exception to raise (once)

    def _check(self, op, path):
        self.log.append((op, os.path.basename(path)))
        exc = self.fail.pop(op, None)
        if exc is not None:
            raise exc

    def open(self, path, mode):
        self._check("open_" + mode, path)
        f = super().open(path, mode)
        if "w" in mode and "write" in self.fail:
            exc = self.fail.pop("write")
            fs = self

            class Failing:
                def write(self, text):
                    f.write(text[: len(text) // 2])   # half of it made it to flash
                    raise exc

                def close(self):
                    fs.log.append(("close", os.path.basename(path)))
                    f.close()
            return Failing()
        return f

    def rename(self, old, new):
        self._check("rename", old)
        super().rename(old, new)

    def remove(self, path):
        self._check("remove", path)
        super().remove(path)


@pytest.fixture
def fs():
    return TestFs()


@pytest.fixture
def store(store_dir, fs):
    return Store(str(store_dir), fs)


def writes(fs):
    return [entry for entry in fs.log if entry[0] == "open_w"]


def test_missing_file_gives_a_copy_of_the_defaults(store):
    default = {"best": 0, "grid": [1, 2]}
    value = store.load("g2048", default)
    assert value == default
    value["grid"].append(3)
    assert default == {"best": 0, "grid": [1, 2]}


def test_save_then_load(store, store_dir):
    assert store.save("settings", {"muted": True, "brightness": 3})
    assert saves.read(store_dir / "settings.json") == {"muted": True, "brightness": 3}
    fresh = Store(str(store_dir))
    assert fresh.load("settings", {}) == {"muted": True, "brightness": 3}
    assert fresh.load("records", []) == []


def test_new_keys_in_the_defaults_are_filled_in(store):
    store.save("settings", {"muted": True})
    assert store.load("settings", {"muted": False, "fps": 30}) == {"muted": True, "fps": 30}


def test_the_write_is_atomic(store, fs):
    store.save("puzzle", {"tiles": list(range(16))})
    assert fs.log[-2:] == [("open_w", "puzzle.json.tmp"), ("rename", "puzzle.json.tmp")]


def test_nothing_is_written_when_nothing_changed(store, fs, store_dir):
    assert store.save("records", {"best": 10})
    n = len(writes(fs))
    assert store.save("records", {"best": 10})
    assert len(writes(fs)) == n
    assert store.save("records", {"best": 11})
    assert len(writes(fs)) == n + 1
    # after a reboot, what was loaded counts as written
    again = Store(str(store_dir), fs)
    data = again.load("records", {})
    n = len(writes(fs))
    assert again.save("records", data)
    assert len(writes(fs)) == n


@pytest.mark.parametrize("content", [
    "{\"best\": 12, \"gri",            # truncated
    "",                                # empty
    "   \n",                           # blank
    "\x00\x00\x00\x00",                # erased / garbage
    "not json at all",
    "[1, 2, 3]",                       # valid JSON of the wrong shape
])
def test_a_broken_file_gives_defaults_and_is_kept_aside(store, store_dir, content):
    (store_dir / "g2048.json").write_text(content)
    assert store.load("g2048", {"best": 0}) == {"best": 0}
    assert not (store_dir / "g2048.json").exists()
    assert (store_dir / "g2048.bad").read_text() == content
    assert [name for name, _ in store.bad] == ["g2048"]
    # the game goes on and saves a good file; the bad one is left alone
    assert store.save("g2048", {"best": 4})
    assert store.load("g2048", {}) == {"best": 4}
    assert (store_dir / "g2048.bad").read_text() == content


def test_undecodable_bytes_are_a_broken_file(store, store_dir):
    (store_dir / "reversi.json").write_bytes(b"\xff\xfe\x80{")
    assert store.load("reversi", {"moves": []}) == {"moves": []}
    assert (store_dir / "reversi.bad").exists()


def test_an_unreadable_file_gives_defaults(store, fs, store_dir):
    (store_dir / "puzzle.json").write_text('{"n": 1}')
    fs.fail["open_r"] = OSError(errno.EIO, "EIO")
    assert store.load("puzzle", {"n": 0}) == {"n": 0}
    assert (store_dir / "puzzle.bad").read_text() == '{"n": 1}'


def test_power_cut_between_write_and_rename_keeps_the_old_save(store_dir, fs):
    store = Store(str(store_dir), fs)
    assert store.save("puzzle", {"moves": 10})
    fs.fail["rename"] = PowerCut()
    with pytest.raises(PowerCut):
        store.save("puzzle", {"moves": 11})
    assert (store_dir / "puzzle.json.tmp").exists()       # the new text, never renamed
    # reboot: the old save is intact, the leftover temp file is cleaned up
    rebooted = Store(str(store_dir), TestFs())
    assert rebooted.load("puzzle", {}) == {"moves": 10}
    assert not (store_dir / "puzzle.json.tmp").exists()
    assert rebooted.bad == []


def test_power_cut_during_the_write_keeps_the_old_save(store_dir, fs):
    store = Store(str(store_dir), fs)
    store.save("records", {"best": 5})
    fs.fail["write"] = PowerCut()
    with pytest.raises(PowerCut):
        store.save("records", {"best": 6})
    assert Store(str(store_dir)).load("records", {}) == {"best": 5}


def test_full_flash_keeps_the_game_running(store, fs, store_dir):
    assert store.save("g2048", {"best": 100})
    fs.fail["write"] = OSError(errno.ENOSPC, "ENOSPC")
    assert store.save("g2048", {"best": 200}) is False
    assert store.error == "Flash full"
    assert saves.read(store_dir / "g2048.json") == {"best": 100}
    assert not (store_dir / "g2048.json.tmp").exists()    # the half-written temp is gone
    # space freed: the same data is saved (it was not marked as written)
    assert store.save("g2048", {"best": 200})
    assert store.error is None
    assert store.load("g2048", {}) == {"best": 200}


def test_full_flash_at_open(store, fs):
    fs.fail["open_w"] = OSError(errno.ENOSPC, "ENOSPC")
    assert store.save("settings", {"a": 1}) is False and store.error == "Flash full"


def test_other_errors_are_reported_too(store, fs):
    fs.fail["rename"] = OSError(errno.EIO, "EIO")
    assert store.save("settings", {"a": 1}) is False
    assert store.error == "Flash error"
    fs.fail["open_w"] = OSError(errno.EROFS, "EROFS")
    assert store.save("settings", {"a": 1}) is False
    assert store.error and len(store.error) <= 20


@pytest.mark.parametrize("number,words", [
    (errno.ENOSPC, "Flash full"), (errno.EIO, "Flash error"), (errno.EROFS, "Flash read-only"),
    (errno.EACCES, "Flash read-only"), (errno.ENOTDIR, "No save folder"),
    (errno.ENOENT, "No save folder"), (errno.ENOMEM, "No memory: save"), (errno.EBUSY, "Save failed")])
def test_a_failed_save_is_said_in_words_that_fit_the_panel(store, fs, number, words):
    fs.fail["open_w"] = OSError(number, "")
    assert store.save("settings", {"a": 1}) is False
    assert store.error == words and len(words) <= 15     # no "Save failed (20)"


def test_a_filesystem_that_will_not_rename_over_a_file(store, fs, store_dir):
    # FAT (not littlefs) refuses to rename onto an existing name
    store.save("s", {"v": 1})
    fs.fail["rename"] = OSError(errno.EEXIST, "EEXIST")
    assert store.save("s", {"v": 2})
    assert store.load("s", {}) == {"v": 2}


def test_the_root_folder_is_made(tmp_path):
    root = tmp_path / "data"
    store = Store(str(root))
    assert root.is_dir()
    assert store.save("x", [1])
    assert Store(str(root)).load("x", []) == [1]


def test_a_value_that_fails_its_check_is_set_aside(store, store_dir):
    from firmware import check
    (store_dir / "settings.json").write_text('{"brightness": 3.0}')

    def fits(value):
        check.integer(value["brightness"], 1, 4, "brightness")

    assert store.load("settings", {"brightness": 3}, fits) == {"brightness": 3}
    assert (store_dir / "settings.bad").read_text() == '{"brightness": 3.0}'
    assert store.bad == [("settings", "brightness: 3.0 is not a whole number")]
    assert store.notes == ["Settings reset\nfile damaged"]
    # a good value passes the same check
    store.save("settings", {"brightness": 2})
    assert store.load("settings", {"brightness": 3}, fits) == {"brightness": 2}


def test_set_aside_keeps_a_save_the_rules_refused(store, store_dir):
    store.save("g2048", {"game": [1, 2]})
    store.set_aside("g2048", "board: wrong length")
    assert not (store_dir / "g2048.json").exists()
    assert saves.read(store_dir / "g2048.bad") == {"game": [1, 2]}
    assert store.load("g2048", {}) == {}


@pytest.mark.parametrize("value,ok", [
    (3, True), (3.0, False), (True, False), ("3", False), (None, False), (9, False)])
def test_integer_checks_the_exact_type_and_range(value, ok):
    from firmware import check
    if ok:
        assert check.integer(value, 1, 4, "x") == value
    else:
        with pytest.raises(check.Invalid):
            check.integer(value, 1, 4, "x")


def test_choice_does_not_confuse_1_with_true():
    from firmware import check
    assert check.choice(True, (True, False), "sound") is True
    with pytest.raises(check.Invalid):
        check.choice(1, (True, False), "sound")
    with pytest.raises(check.Invalid):
        check.choice(2.0, (1, 2, 3), "volume")
