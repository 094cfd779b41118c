"""Recorded sessions: JSON lines of timed inputs, enough to replay a session exactly.

    {"ml4m_replay": 1, "seed": 0, "main": "main.py", "store": {"puzzle.json": "..."}}
    {"t_ms": 1250, "event": "press A"}
    {"t_ms": 1400, "event": "release A"}
    ...
    {"t_ms": 5230, "event": "end"}
A hand-written replay may also say {"t_ms": 2000, "event": "choose Settings"}: the
stick goes down until the list on the panel highlights that label, then A; the
events after it move later by the time that took (a menu with one more entry
still replays to the same picture).

The header is optional (hand-written replays may start with events). `t_ms` is the
board's virtual time (Board.now_ms()) at which the input was applied; `store` is the
content of the emulated flash when the session started, so saved games load the same.
Hand-written files may also use "tap X [ms]" (press/push, then let go after ms,
default 80), and blank lines or lines starting with # as comments.
"""
import base64
import json
import os

FORMAT = 1
MAX_STORE_FILE = 256 * 1024
TAP_MS = 80


class ReplayError(ValueError):
    pass


def read_store(root):
    """The files under `root` as {relative path: text or {"base64": ...}}."""
    files = {}
    if not root or not os.path.isdir(root):
        return files
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            if not os.path.isfile(path) or os.path.getsize(path) > MAX_STORE_FILE:
                continue
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, "rb") as f:
                data = f.read()
            try:
                files[rel] = data.decode("utf-8")
            except UnicodeDecodeError:
                files[rel] = {"base64": base64.b64encode(data).decode("ascii")}
    return files


def write_store(root, files):
    """Recreate the files read by read_store() under `root`."""
    for rel, content in sorted(files.items()):
        parts = rel.split("/")
        if rel.startswith("/") or ".." in parts:
            raise ReplayError("unsafe store path %r" % rel)
        path = os.path.join(root, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, dict):
            data = base64.b64decode(content["base64"])
        else:
            data = content.encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)


class Recorder:
    """Writes a session as it happens (line by line, so a crash keeps what came before)."""

    def __init__(self, path, header):
        self._file = open(path, "w", encoding="utf-8")
        self._write(dict({"ml4m_replay": FORMAT}, **header))

    def _write(self, obj):
        self._file.write(json.dumps(obj, sort_keys=True) + "\n")
        self._file.flush()

    def event(self, t_ms, event):
        self._write({"t_ms": t_ms, "event": event})

    def close(self):
        if not self._file.closed:
            self._file.close()


class Replay:
    def __init__(self, header, events):
        self.header = header
        self.events = events            # [(t_ms, event)], sorted by time, stable
        self.end_ms = None
        for t, event in events:
            if event == "end":
                self.end_ms = t
                break

    @property
    def seed(self):
        return self.header.get("seed", 0)

    @property
    def last_ms(self):
        return self.events[-1][0] if self.events else 0


def load(path):
    header = {}
    events = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise ReplayError("%s:%d: not JSON: %s" % (path, number, exc)) from None
            if not isinstance(obj, dict):
                raise ReplayError("%s:%d: expected an object" % (path, number))
            if "ml4m_replay" in obj:
                if obj["ml4m_replay"] != FORMAT:
                    raise ReplayError("%s: replay format %r, this simulator reads %d"
                                      % (path, obj["ml4m_replay"], FORMAT))
                header = obj
                continue
            try:
                t_ms = obj["t_ms"]
                event = obj["event"]
            except KeyError as exc:
                raise ReplayError("%s:%d: missing %s" % (path, number, exc)) from None
            if not isinstance(t_ms, (int, float)) or not isinstance(event, str):
                raise ReplayError("%s:%d: bad t_ms or event" % (path, number))
            events.extend(_expand(t_ms, event, "%s:%d" % (path, number)))
    events.sort(key=lambda item: item[0])      # stable: same-time events keep file order
    return Replay(header, events)


def _expand(t_ms, event, where):
    parts = event.split()
    if not parts:
        raise ReplayError("%s: empty event" % where)
    verb = parts[0]
    if verb == "tap":
        if len(parts) not in (2, 3):
            raise ReplayError("%s: use 'tap X' or 'tap X ms'" % where)
        what = parts[1]
        ms = float(parts[2]) if len(parts) == 3 else TAP_MS
        if len(what) == 1 and what.upper() in "ABCDEF":
            return [(t_ms, "press " + what.upper()), (t_ms + ms, "release " + what.upper())]
        return [(t_ms, "push " + what), (t_ms + ms, "center")]
    if verb in ("press", "release", "push") and len(parts) == 2:
        return [(t_ms, event)]
    if verb in ("center", "end") and len(parts) == 1:
        return [(t_ms, event)]
    if verb == "choose" and len(parts) >= 2:
        # "choose 8-Puzzle": down until that entry is highlighted, then A (the
        # simulator's ReplayFeeder); later events wait for it
        return [(t_ms, event)]
    raise ReplayError("%s: unknown event %r" % (where, event))
