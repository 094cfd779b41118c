"""What a game's screen is (GameScreen): its settings, its saved game, its
status and help lines, its banner and the helpers it borrows. What every
screen is (Screen: the app loop calls update() and draw() once a frame, and
BACK) lives in firmware/app.py with that loop, so that a program without a
game (the menu, a system screen) loads none of this module; a game imports
them from here with GameScreen.
"""

import sys
import time

from micropython import const

from firmware import modules
from firmware.app import BACK, Screen   # noqa: F401  (BACK: for the games, with GameScreen)

# The panel beside a game's board is drawn field by field: self.panel holds a
# bit per field to repaint. Every game has a status line (say()) and a help
# line that turns over; a game numbers its own fields from FIRST_FIELD up
# (FIRST_FIELD, FIRST_FIELD << 1, ...).
STATUS_LINE = const(1)
HELP_LINE = const(2)
FIRST_FIELD = const(4)
ALL_FIELDS = const(0xFFFF)


class GameScreen(Screen):
    """What every game's screen shares: its settings, and its game in progress
    saved under the name its declaration gives (firmware/gamelist.py).

    A game says what to keep in progress() (a dict of plain data: dicts, lists,
    numbers, texts; None when nothing is in progress) and takes it back in
    restore(data) (True when it took it; False when it cannot, and a new game
    starts; anything else, such as a forgotten `return True`, is reported and
    the save kept aside). save() after a
    move, resume() when the screen starts: the rest, such as Continue in the
    menu, follows from these two.

    self.settings is a dict of the game's settings (GAME["settings"]);
    remember(name, value) keeps a choice the game makes itself for next time.

    The screen's lines: say(text, now) shows a message on the status line for
    message_ms; the help line shows one of the game's help lines (help_line()), turning over
    every help_ms while the player pauses (keep_help() after a move). A
    banner (firmware/ui/banner.py) covers the whole panel at the end of a game:
    show_banner() puts it up, draw_banner() paints it while it moves.
    """
    title = None    # names the game in a note about its save (None: the save's name)
    help_lines = ()  # the game's keys, as its help line shows them (the pause menu's Keys)
    timers = ()      # names of the screen's own ticks_ms stamps (None: not set), moved on by a pause
    message_ms = 1500
    help_ms = 3000

    def __init__(self, app, save=None, settings=None, settings_file=None, **options):
        Screen.__init__(self, app, **options)
        self.save_name = save
        self.held = {}   # each module a helper brought -> that helper (helper())
        if settings is None:
            # built directly (tests, benchmarks) rather than launched from the menu
            with self.borrow("firmware.gamereader") as gamereader:
                settings, settings_file = gamereader.own_settings(
                    self.hal.store, type(self).__module__)
        self.settings = settings
        self.settings_file = settings_file
        now = self.hal.clock.now()
        self.message = ""
        self.message_until = now
        self.help_i = 0
        self.help_t = time.ticks_add(now, self.help_ms)
        self.panel = ALL_FIELDS
        self.dirty = True
        self.banner = None
        self.banner_done = False

    def remember(self, name, value):
        """Change one of the game's settings and save it; True when saved."""
        self.settings[name] = value
        return self.hal.store.save(self.settings_file, self.settings)

    def progress(self):
        return None

    def restore(self, data):
        return False

    def save(self):
        """Keep the game in progress (or that there is none); True when saved."""
        if self.save_name is None:
            return True
        data = self.progress()
        return self.hal.store.save(self.save_name, data or {})

    def check_progress(self, data):
        """Raise ValueError (firmware.check.Invalid) when saved progress does
        not fit the game's schema: types, ranges, lengths. Called on load,
        before restore(); restore() may still refuse what the rules refuse."""

    def load_progress(self):
        """The saved progress, checked: {} when there is none, or when it did
        not fit (then it is set aside as .bad and the player told)."""
        # ({}: nothing in progress, nothing to check)
        return self.hal.store.load(self.save_name, {},
                                   lambda data: data and self.check_progress(data), self.title)

    def resume(self):
        """The saved game back: True when there was one and restore() took it."""
        if self.save_name is None:
            return False
        saved = self.load_progress()
        if not saved:
            return False
        try:
            taken = self.restore(saved)
        except (KeyError, ValueError, TypeError, IndexError) as e:
            # a save the game cannot use: kept aside as .bad, never dropped silently
            self.hal.store.set_aside(self.save_name, "%s: %s" % (type(e).__name__, e), self.title)
            return False
        if taken is not True and taken is not False:
            # restore() ended without saying (a forgotten `return True`): the save
            # is kept aside, not overwritten by the new game, and the author told
            self.hal.store.set_aside(self.save_name, "restore() returned %r, not True or False"
                                     % (taken,), self.title)
            return False
        return taken

    def suspend(self):
        self.save()

    # ---- the pause menu (firmware/screens/pause.py) ----------------------------
    def resumed(self, paused_ms):
        """Back from the pause menu after paused_ms, the stamps in `timers`
        (and the lines' and banner's) moved on by it already: anything else
        the game must catch up on (a linked game: the friend's clock)."""

    def setting_changed(self, name, value):
        """A setting the game declares in GAME["at_once"] was changed from the
        pause menu (self.settings holds it already): apply it now."""

    # ---- the screen's lines and banner ----------------------------------------
    def say(self, text, now):
        """Show text on the status line for message_ms."""
        self.message = text
        self.message_until = time.ticks_add(now, self.message_ms)
        self.panel |= STATUS_LINE

    def keep_help(self, now):
        """The help line stays as it is for help_ms more: it turns over only
        while the player pauses."""
        self.help_t = time.ticks_add(now, self.help_ms)

    def turn_lines(self, now):
        """Drop the message when its time is up; turn the help line every
        help_ms. Marks the lines that changed in self.panel."""
        if self.message and time.ticks_diff(now, self.message_until) >= 0:
            self.message = ""
            self.panel |= STATUS_LINE
        if time.ticks_diff(now, self.help_t) >= 0:
            self.keep_help(now)
            self.help_i += 1
            self.panel |= HELP_LINE

    def help_line(self, lines):
        """The help line to show now, of the tuple lines."""
        return lines[self.help_i % len(lines)]

    def redraw(self):
        """Paint everything again on the next draw(): board, panel and banner."""
        self.dirty = True
        self.panel = ALL_FIELDS
        self.banner_done = False

    def repaint(self, fb):
        """True once after redraw(): the panel is cleared and every field of
        the side panel marked, for draw() to paint the whole screen again."""
        if not self.dirty:
            return False
        self.dirty = False
        fb.fill(0)
        self.panel = ALL_FIELDS
        return True

    def show_banner(self, banner):
        """Put up an end-of-game banner (None takes it down)."""
        self.banner = banner
        self.banner_done = False

    def draw_banner(self, fb):
        """Paint the banner while it moves (and once more after a redraw());
        a finished banner stays on the panel as it is."""
        banner = self.banner
        if not self.banner_done or not banner.finished():
            banner.draw(fb)
            self.banner_done = banner.finished()

    # ---- helpers: code for a moment --------------------------------------------
    def borrow(self, name):
        """`with self.borrow(name) as helper:` imports the helper module name
        for the block. When the block ends (also when it raises), the helper
        is forgotten with every module imported during the block, so its heap
        is free again; a module loaded before the block stays, and so do the
        helpers held with helper()."""
        return modules.borrowed(name, self.held)

    def helper(self, name):
        """The helper module name, held over many frames (the keys while a
        game is played, an overlay's code) until let_go(name). Imported on
        the first call; then only looked up, with nothing allocated."""
        module = sys.modules.get(name)
        if module is None:
            lent = self.borrow(name)
            module = lent.__enter__()       # (a half import is forgotten there)
            for brought in sys.modules:
                if brought not in lent.before:
                    self.held[brought] = name
        return module

    def let_go(self, name):
        """Forget the helper held with helper(name) and the modules its import
        brought (nothing when it is not held, or was loaded before)."""
        held = self.held
        if name in held:
            for brought in [m for m in held if held[m] == name]:
                del held[brought]
                modules.forget(brought)
