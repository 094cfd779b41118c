"""The pause menu: E in any game, built-in or in /games, with no code in the game.

The game freezes under it (its update() is not called, and when the menu
closes its timers move on by the pause: resume() below), dimmed and boxed.
The rows: Resume; the game's own actions (GAME["actions"]: up to three
(label, method name) pairs, the method called on the game's screen); the
game's settings (GAME["settings"], changed and saved in place: those named in
GAME["at_once"] take effect now through the game's setting_changed(), the
others from its next game, as the key line says on their row); Sound (off and
three volumes) and Brightness, the system's own; Keys (the game's help lines);
New game (asked first); Save and leave. B or E again: back to the game as it was.

Heap (README, "Why the code looks like this"): the app borrows this module
from the game when E opens it (GameScreen.borrow), and it goes again when the
menu closes with everything it imported meanwhile, so a game pays nothing for
it while it plays. While it shows, the game's held helpers go (the frozen
game draws nothing; helper() brings them back when it plays again), and it
reads what it needs from the game's own GAME, already in the heap, rather
than from the game list."""
import time

from micropython import const

from firmware.hal.controls import A, B, E, LEFT, RIGHT, UP, DOWN
from firmware.screens.base import Screen, BACK
from firmware.ui import listing, tinyfont

_TYPE_CHECKING = const(False)   # "GameScreen" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.base import GameScreen

_RESUME = const(0)
_ACTION = const(1)
_SETTING = const(2)
_SOUND = const(3)
_BRIGHTNESS = const(4)
_KEYS = const(5)
_NEW = const(6)
_LEAVE = const(7)

_LIST = const(0)          # what the box shows: the rows,
_HELP = const(1)          # the game's keys,
_ASK = const(2)           # or "New game?"
_ROWS = const(4)          # rows shown at a time
_X = const(8)             # the box: the dimmed game shows around it
_W = const(112)
_Y = const(7)

_SOUND_NAMES = const(("off", "soft", "medium", "loud"))   # off, then settings' volumes 1..3


class Pause(Screen):
    def __init__(self, app, game: "GameScreen", lent):
        Screen.__init__(self, app)
        self.lent = lent         # this module, borrowed from the game (App._system_keys)
        self.game: "GameScreen | None" = game
        self.paused_at = self.hal.clock.now()
        for name in [n for n in game.held.values()]:   # (README, "Why the code looks like this")
            game.let_go(name)
        # the game's declaration, checked by the menu before it launched the game
        declared = __import__(type(game).__module__, None, None, ["GAME"]).GAME
        self.at_once = declared.get("at_once", ())
        rows: list = [(_RESUME, "Resume", None)]    # (kind, label, what the row acts on)
        for label, method in declared.get("actions", ()):
            rows.append((_ACTION, label, method))
        for setting in declared.get("settings", ()):
            if setting[1] is not None:          # a choice the game keeps itself: no row
                rows.append((_SETTING, setting[1], setting))
        rows += [(_SOUND, "Sound", None), (_BRIGHTNESS, "Brightness", None), (_KEYS, "Keys", None),
                 (_NEW, "New game", None), (_LEAVE, "Save and leave", None)]
        self.rows = rows
        self.cursor = 0
        self.top = 0
        self.page = _LIST
        self.dim = True          # the frozen game's picture is dimmed once, on the first draw
        self.dirty = True

    # ---- the values -------------------------------------------------------------
    def value(self, kind, what):
        settings = self.app.settings
        if kind == _SOUND:
            return _SOUND_NAMES[settings["volume"] if settings["sound"] else 0]
        if kind == _BRIGHTNESS:
            return str(settings["brightness"])
        if kind == _SETTING:
            value = self.game.settings.get(what[0])
            for pair in what[2]:
                if pair[0] == value:
                    return pair[1]
        return ""

    def change(self, kind, what, step):
        settings = self.app.settings
        hal = self.hal
        if kind == _SOUND:           # 0: off, then the volumes 1..3
            level = ((settings["volume"] if settings["sound"] else 0) + step) % 4
            ok = settings.set("sound", level > 0) and (level == 0 or settings.set("volume", level))
        elif kind == _BRIGHTNESS:
            ok = settings.cycle("brightness", step)
        else:
            game = self.game
            allowed = [pair[0] for pair in what[2]]
            name = what[0]
            old = game.settings.get(name)
            value = allowed[((allowed.index(old) if old in allowed else 0) + step) % len(allowed)]
            ok = game.remember(name, value)      # (kept in game.settings: on False too)
            if not ok:
                game.settings[name] = old
            elif name in self.at_once:
                game.setting_changed(name, value)
        settings.apply(hal)
        if not ok:
            self.app.toast = ("Not saved!", hal.clock.now())
        if kind == _SOUND:
            hal.sound.tone(880, 150)     # a short tone at the new level (a click would cut it off)
        else:
            hal.sound.click()
        self.dirty = True

    # ---- the frame ----------------------------------------------------------------
    def update(self, now_ms):
        target = self.keys(now_ms)
        if target is not None:
            # this module goes, with all it imported while open (it comes back with E)
            self.lent.__exit__()
        return target

    def keys(self, now_ms):
        """What this frame's keys do: None, or the screen to go to."""
        c = self.hal.controls
        if self.page == _HELP:
            if c.just_pressed(A) or c.just_pressed(B) or c.just_pressed(E):
                self.show(_LIST)
            return None
        if self.page == _ASK:
            if c.just_pressed(A):
                return self.new_game()
            if c.just_pressed(B) or c.just_pressed(E):
                self.show(_LIST)
            return None
        if c.just_pressed(B) or c.just_pressed(E):
            return self.resume(now_ms)
        if c.repeat(DOWN) or c.repeat(UP):
            self.cursor = (self.cursor + (1 if c.repeat(DOWN) else -1)) % len(self.rows)
            self.hal.sound.click()
            self.dirty = True
            return None
        kind, _, what = self.rows[self.cursor]
        step = 1 if c.repeat(RIGHT) else -1 if c.repeat(LEFT) else 0
        if kind in (_SETTING, _SOUND, _BRIGHTNESS):
            if step or c.just_pressed(A):
                self.change(kind, what, step or 1)
            return None
        if not c.just_pressed(A):
            return None
        if kind == _RESUME:
            return self.resume(now_ms)
        if kind == _ACTION:
            target = self.resume(now_ms)
            # the game's own action, on the game (BACK from it: to the arcade's menu)
            return BACK if getattr(self.game, what)(now_ms) == BACK else target
        if kind == _KEYS:
            self.show(_HELP)
        elif kind == _NEW:
            self.show(_ASK)
        else:                           # Save and leave: the app saves the game (suspend)
            return BACK
        return None

    def show(self, page):
        self.page = page
        self.dirty = True
        self.hal.sound.click()

    def resume(self, now):
        """Back to the game as it was: every ticks_ms stamp it keeps (its
        lines', its banner's, and those its class names in `timers`) moves on
        by the pause, so nothing ran while it was paused; then its own
        resumed() hook."""
        game = self.game
        paused_ms = max(0, time.ticks_diff(now, self.paused_at))
        for name in ("message_until", "help_t") + game.timers:
            when = getattr(game, name)
            if when is not None:
                setattr(game, name, time.ticks_add(when, paused_ms))
        if game.banner is not None:
            game.banner.start = time.ticks_add(game.banner.start, paused_ms)
        game.resumed(paused_ms)
        game.redraw()
        return game

    def new_game(self):
        """The game started afresh: its save cleared, its screen made again
        with what the launch gave it (its settings as they are now)."""
        game = self.game
        if game is None:
            return None
        make, save, settings, settings_file, options = (
            type(game), game.save_name, game.settings, game.settings_file, game.options)
        self.game = game = None
        self.app.screen = None     # nothing holds the old game while the new one is made
        if save is not None:
            self.hal.store.save(save, {})
        return make(self.app, save=save, settings=settings, settings_file=settings_file, **options)

    def suspend(self):
        if self.game is not None:
            self.game.suspend()    # the screen saver, or Save and leave

    # ---- drawing ------------------------------------------------------------------
    def draw(self, display):
        if not self.dirty:
            return
        self.dirty = False
        fb = display.fb
        if self.dim:      # the frozen game's picture dimmed, once: half its pixels dark
            self.dim = False
            import framebuf
            # a checkerboard of lit pixels, blitted with key colour 1: only its
            # dark pixels are drawn, and the picture stays readable under the box
            tile = framebuf.FrameBuffer(bytearray(b"\x55\xaa\x55\xaa\x55\xaa\x55\xaa"),
                                        8, 8, framebuf.MONO_HLSB)
            for y in range(0, 64, 8):
                for x in range(0, 128, 8):
                    fb.blit(tile, x, y, 1)
        fb.fill_rect(_X - 1, _Y - 1, _W + 2, _ROWS * 9 + 9, 0)    # the box
        fb.rect(_X - 1, _Y - 1, _W + 2, _ROWS * 9 + 9, 1)
        if self.page == _LIST:
            # the cursor's row among those shown, scrolled as little as can be
            self.top = min(self.cursor, max(self.top, self.cursor - _ROWS + 1))
            items = [(label, self.value(kind, what)) for kind, label, what in self.rows]
            listing.rows(fb, items, self.top, self.cursor, _X, _Y, _W, _ROWS)
            kind, _, what = self.rows[self.cursor]
            later = kind == _SETTING and what[0] not in self.at_once
            keys = "< > CHANGE, NEXT GAME" if later else "< > CHANGE  B BACK" if kind in (
                _SETTING, _SOUND, _BRIGHTNESS) else "A CHOOSE  B BACK"
        elif self.page == _HELP:  # the game's help lines, then the system's keys (small font)
            lines = tuple(self.game.help_lines) + ("E: PAUSE MENU", "HOLD E+F: MUTE")
            for i, line in enumerate(lines[:6]):
                tinyfont.centred(fb, line, _X, _Y + 1 + i * 7, _W, 6)
            return
        else:
            fb.text("New game?", 28, _Y + 10, 1)        # (centred: 9 and 13 characters)
            fb.text("A: yes  B: no", 12, _Y + 28, 1)
            keys = ""
        tinyfont.text(fb, keys, _X + 1, _Y + _ROWS * 9 + 1)
