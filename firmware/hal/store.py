# Settings, records and saved games as small JSON files.
#
# A file holds the JSON text, a newline and a checksum of the text, so a file
# that was cut short can be told from a complete one. A save writes
# name.json.tmp, closes it, then renames it over name.json. littlefs renames
# atomically, so a power cut leaves the old file or the new one. FAT refuses to
# rename onto an existing name: there the old file is removed first, and a cut
# between the remove and the rename leaves only the complete .tmp; the next
# load finds name.json missing, checks the .tmp's checksum and promotes it.
# A .tmp beside its main file (a cut before the rename) is the unfinished
# newer save: it is dropped and the old file stays. A file that cannot be read
# or parsed, or whose value fails the caller's check, is renamed to name.bad
# (kept for a look later, never overwritten by the next save), its reason is
# kept in .bad and a note for the player in .notes, and the defaults are
# used. A save that fails (full flash: ENOSPC) returns False and leaves a short
# message in .error for the screen; the game goes on. A save folder that cannot
# be used (a file stands where it should be, or it is gone) is told once, as
# one note: every load then gives the defaults and every save returns False,
# and no file is called damaged for it. Saving the same text as
# last time writes nothing (flash wears, and writes take tens of ms): a
# checksum of each file's text is kept for that, not the text (a game's save
# with its undo history is hundreds of bytes).
import errno
import json
import os
from micropython import const

# Error numbers by the running port's errno module where it has them (the
# WebAssembly page's files are made to speak them too: tools/emu/mp_node/
# port_errno.py). MicroPython's errno module has no ENOTDIR, ENOSPC or EROFS:
# theirs are the ESP32's numbers (and the page's, as port_errno gives them).
# const() numbers: README, "Why the code looks like this"
_ENOTDIR = const(20)
_ENOSPC = const(28)
_EROFS = const(30)
_MOD = const(32749)   # the largest prime below 2**15


class OsFs:
    """The filesystem calls Store makes; tests pass a stand-in that fails."""

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)

    def mkdir(self, path):
        os.mkdir(path)


def _errno(e):
    return e.args[0] if e.args else 0


def _sum(text):
    # Fletcher's checksum (two sums mod a prime below 2**15) seeded with the
    # length: 30 bits, a small int on the ESP32. binascii.crc32 would be C on
    # the ESP32 but is a 7 KB Python module on some ports. ~2 ms for a 400 B
    # puzzle save on the ESP32, once per move.
    a = 1
    b = len(text) % _MOD
    for c in text.encode():
        a = (a + c) % _MOD
        b = (b + a) % _MOD
    return (b << 15) | a


def _split(text):
    """(JSON text, checked): a file's text without its checksum line, and
    True if the checksum matches, False if it does not, None if there is
    none (a file from before checksums, or written by hand: its text is
    taken as it is)."""
    cut = text.rfind("\n")
    if cut < 0:
        return text, None
    tail = text[cut + 1:]
    if not tail or not tail.isdigit():
        return text, None
    body = text[:cut]
    return body, int(tail) == _sum(body)


def _copy(value):
    # a fresh copy of the defaults, so changing what load() returned never
    # changes the caller's defaults
    if isinstance(value, dict) or isinstance(value, list):
        return json.loads(json.dumps(value))
    return value


class Store:
    def __init__(self, root="/data", fs=None):
        self.fs = fs if fs is not None else OsFs()
        self.root = root.rstrip("/") if root != "/" else ""
        self.error = None         # short text for the screen after a failed save
        self.bad = []             # (name, reason) of the files kept aside this run
        self.notes = []           # short texts for the player, shown once each
        self._saved = {}          # name -> _sum() of the text the file holds
        self._stuck = set()       # set aside but could not be moved: defaults until saved
        self.no_folder = False    # the save folder cannot be used: nothing is read or saved
        try:
            self.fs.mkdir(root)
        except OSError:
            pass                  # exists already (or cannot be made: saves say so)

    def path(self, name):
        return self.root + "/" + name + ".json"

    def _read(self, path):
        f = self.fs.open(path, "r")
        try:
            return f.read()
        finally:
            f.close()

    def _promote(self, path):
        """name.json is missing: a complete name.json.tmp (its checksum
        matches) is the newest save, cut off by a power cut on FAT between
        removing the old file and renaming the new one. True if promoted."""
        tmp = path + ".tmp"
        try:
            _body, checked = _split(self._read(tmp))
            if checked:             # (a .tmp cut short has no good checksum)
                self.fs.rename(tmp, path)
                return True
        except Exception:
            pass                        # no .tmp (the usual case), or unreadable
        self._discard(tmp)
        return False

    def load(self, name, default, check=None, what=None, none_if_missing=False):
        """The saved value, or a copy of default if there is none or it is broken.
        For a dict default, keys missing from the file come from the default.
        check(value), when given, raises ValueError (firmware.check.Invalid)
        if the parsed value does not fit the file's schema: the file is then
        set aside like a damaged one and the default returned. what names
        the file for the player's note ("2048" gives "2048 reset / file
        damaged"); a what of two lines is the whole note ("Reversi /
        settings reset"). none_if_missing: None when there is no file yet
        (the caller makes the first value), not the default."""
        path = self.path(name)
        if self.no_folder or name in self._stuck:
            return _copy(default)
        text = None
        try:
            try:
                text = self._read(path)
            except OSError as e:
                if _errno(e) != errno.ENOENT or not self._promote(path):
                    raise
                text = self._read(path)
            else:
                self._discard(path + ".tmp")   # a save cut before its rename
        except OSError as e:
            if _errno(e) == errno.ENOENT:
                self._saved.pop(name, None)
                return None if none_if_missing else _copy(default)
            if _errno(e) == _ENOTDIR:       # the folder, not the file, is wrong
                self._folder_unusable()
                return _copy(default)
            self._keep_aside(name, path, "unreadable", what)   # there but unreadable
            return _copy(default)
        except Exception:
            self._keep_aside(name, path, "not text", what)     # e.g. undecodable bytes
            return _copy(default)
        # a checksum that does not match, no text, text that is not JSON, or
        # JSON of another shape than the default: one reason for all of them
        try:
            body, checked = _split(text)
            if checked is False or not body.strip():
                raise ValueError
            value = json.loads(body)
            if isinstance(default, dict) != isinstance(value, dict) or (
                    isinstance(default, list) != isinstance(value, list)):
                raise ValueError
        except Exception:
            self._keep_aside(name, path, "not JSON of the right shape", what)
            return _copy(default)
        if isinstance(default, dict):
            for key in default:
                if key not in value:
                    value[key] = _copy(default[key])
        if check is not None:
            try:
                check(value)
            except ValueError as e:
                try:
                    reason = str(e)
                except Exception:       # an odd exception: even str() fails
                    reason = "invalid"
                self._keep_aside(name, path, reason, what)
                return _copy(default)
        self._saved[name] = _sum(body)
        return value

    def set_aside(self, name, reason, what=None):
        """A file that loaded but could not be used (a game save its rules
        refused): kept as name.bad, the reason noted, never dropped silently."""
        self._keep_aside(name, self.path(name), reason, what)

    def save(self, name, data):
        """Write data atomically. True when the file holds it (or already did)."""
        text = json.dumps(data)
        crc = _sum(text)
        if self._saved.get(name) == crc:
            return True
        if self.no_folder:
            return False                # the player was told once already
        path = self.path(name)
        tmp = path + ".tmp"
        try:
            f = self.fs.open(tmp, "w")
            try:
                f.write(text)
                f.write("\n" + str(crc))
            finally:
                f.close()
            self._replace(tmp, path)
        except OSError as e:
            if _errno(e) == errno.ENOENT or _errno(e) == _ENOTDIR:
                # no folder to open the .tmp in: ENOENT on FAT, ENOTDIR on littlefs
                self._folder_unusable()
            else:
                # what a failed save tells the player, in words that fit the
                # panel (15 characters): an error number means nothing to them
                n = _errno(e)
                self.error = ("Flash full" if n == _ENOSPC
                              else "Flash error" if n == errno.EIO
                              else "Flash read-only" if n == _EROFS or n == errno.EACCES
                              else "No memory: save" if n == errno.ENOMEM
                              else "Save failed")
            self._discard(tmp)
            return False
        self._saved[name] = crc
        self._stuck.discard(name)
        self.error = None
        return True

    def _replace(self, tmp, path):
        try:
            self.fs.rename(tmp, path)
        except OSError as e:
            # FAT refuses to rename over a file (littlefs does it atomically);
            # there the old file must go first
            if _errno(e) != errno.EEXIST:
                raise
            self.fs.remove(path)
            self.fs.rename(tmp, path)

    def _folder_unusable(self):
        """A file stands where the save folder should be, or the folder is
        gone: one note says so, instead of a "damaged" note for every file
        and a "Not saved" for every move."""
        if not self.no_folder:
            self.no_folder = True
            self.notes.append("No save folder\nnothing is kept")

    def _discard(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass

    def _keep_aside(self, name, path, reason, what=None):
        self._saved.pop(name, None)
        self.bad.append((name, reason))
        if what is None:
            what = name[:1].upper() + name[1:]
        # two lines of the panel's note: what was reset, and why
        self.notes.append(what if "\n" in what else what + " reset\nfile damaged")
        bad = self.root + "/" + name + ".bad"
        try:
            self._replace(path, bad)
        except OSError:
            # cannot even rename it: loads give the defaults until the next
            # save overwrites it, which is still better than a game that
            # will not start
            self._stuck.add(name)
