"""Checks for values read back from the flash.

A saved file can hold anything: a hand edit, an old firmware's layout, a bit
flipped by a power cut. JSON gives numbers, strings, lists, dicts, true/false
and null, and Python's comparisons are lenient with them (3.0 == 3, True == 1),
so "is it one of the allowed values" is not enough: a float brightness passes
`in (1, 2, 3, 4)` and then breaks the driver. Each check here looks at the
exact type first, then the range, and raises Invalid with a short reason that
goes to the crash log. Store.load(name, default, check) calls a file's check
and sets the file aside when it raises.
"""


class Invalid(ValueError):
    """A stored value that does not fit its schema; str() says what and why,
    quoting the value and the limit it broke ("x: 300 is not in 0..255")."""


def shown(value):
    """The value as a message quotes it: its repr, cut to 24 characters."""
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def integer(value, low, high, what):
    """An int (not a bool, not a float) with low <= value <= high."""
    if type(value) is not int:
        raise Invalid("%s: %s is not a whole number" % (what, shown(value)))
    if not low <= value <= high:
        raise Invalid("%s: %d is not in %d..%d" % (what, value, low, high))
    return value


def flag(value, what):
    """True or False (not 0 or 1)."""
    if type(value) is not bool:
        raise Invalid("%s: %s is not true/false" % (what, shown(value)))
    return value


def choice(value, allowed, what):
    """One of allowed, with the same type as it (3.0 is not 3, 1 is not True)."""
    for option in allowed:
        if type(option) is type(value) and option == value:
            return value
    listed = ", ".join(shown(option) for option in allowed)
    raise Invalid("%s: %s is not one of %s" % (what, shown(value), listed if len(listed) <= 40 else listed[:37] + "..."))


def text(value, longest, what):
    """A string of at most longest characters."""
    if type(value) is not str:
        raise Invalid("%s: %s is not a text" % (what, shown(value)))
    if len(value) > longest:
        raise Invalid("%s %s is %d characters, %d at most" % (what, shown(value), len(value), longest))
    return value


def array(value, length, what):
    """A list with exactly length items (None: any length)."""
    if type(value) is not list:
        raise Invalid("%s: %s is not a list" % (what, shown(value)))
    if length is not None and len(value) != length:
        raise Invalid("%s: %d items, not %d" % (what, len(value), length))
    return value


def table(value, what):
    """A dict (a JSON object)."""
    if type(value) is not dict:
        raise Invalid("%s: %s is not an object" % (what, shown(value)))
    return value


def integers(value, length, low, high, what):
    """A list of length ints (None: any length), each low..high."""
    array(value, length, what)
    for item in value:
        integer(item, low, high, what)
    return value


def optional(value, checker, *args):
    """None, or a value checker(value, *args) accepts."""
    if value is not None:
        checker(value, *args)
    return value
