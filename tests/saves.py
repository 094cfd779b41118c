"""Saved files as the store writes them: the JSON text, a newline and the
text's checksum (firmware/hal/store.py). Tests read them through here."""
import json

from firmware.hal import store


def text_of(path):
    """The JSON text of a saved file, its checksum checked."""
    body, checked = store._split(path.read_text())
    assert checked is not False, "%s: checksum does not match" % path
    return body


def read(path):
    """The value in a saved file, or None when there is none."""
    return json.loads(text_of(path)) if path.exists() else None
