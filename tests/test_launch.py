"""A launch is a soft reset (firmware/launch.py): each game runs in a program
of its own on a fresh heap, and the player sees one arcade. What carries over
the reset, what must not happen at it, and the heap that cannot wear out."""
import builtins
import sys

from tests.panel import shows
from tests.test_app import boot, choose, frames, nudge, tap, to_menu, wait
from tests.test_games import install


def _launch_with_a(board, arcade):
    """Press A on the menu and step until the reset: returns the frames it took."""
    board.press("A")
    resets = arcade.resets
    n = 0
    while arcade.resets == resets:
        arcade.step()
        n += 1
        assert n < 10, "no launch"
    return n


def test_a_launch_and_a_return_keep_the_picture_the_stick_and_the_notes(board, store_dir):
    board.joystick_raw(1900, 1800)              # this stick rests off the nominal 1850
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert arcade.hal.controls.center_x == 1900
    while arcade.screen.labels[arcade.screen.cursor] != "2048":
        nudge(board, arcade, "down")
    menu_picture = board.panel.pixels()
    rest = (arcade.hal.controls.center_x, arcade.hal.controls.center_y)
    contrast = board.panel.contrast
    dac, pwm = len(board.dac_log), len(board.pwm_log)
    board.push("left")                          # a thumb on the stick as A goes down
    resets = arcade.resets
    _launch_with_a(board, arcade)
    # the game's program has started, its first frame not yet sent: the panel
    # still shows the menu (not cleared, not brought up again), no sound
    assert type(arcade.screen).__name__ == "Game" and arcade.resets == resets + 1
    assert board.panel.pixels() == menu_picture and board.panel.contrast == contrast
    assert not [v for _, v in board.dac_log[dac:] if v] and not [
        f for _, f, d in board.pwm_log[pwm + 1:] if f and d]   # (the select sound is cut)
    controls = arcade.hal.controls
    assert (controls.center_x, controls.center_y) == rest   # not measured again (held: 1850)
    frames(arcade, 3)
    assert not controls.pressed(0)               # A, still held, is no press in the game
    board.release("A")
    board.joystick_raw(1900, 1800)
    frames(arcade, 2)
    assert board.panel.pixels() != menu_picture   # the game's first frame
    arcade.hal.store.notes.append("A note\nto carry")
    board.press("B")                             # held to leave: no safe boot
    wait(arcade, 1000)
    assert type(arcade.screen).__name__ == "Menu" and arcade.resets == resets + 2
    assert arcade.screen.labels[arcade.screen.cursor] == "2048"   # where it was
    assert shows(board.panel, "A note")                          # the note, after the reset
    assert not shows(board.panel, "Safe boot")
    board.release("B")
    frames(arcade, 2)
    assert type(arcade.screen).__name__ == "Menu"


def test_continue_starts_the_game_left_in_its_own_program(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    resets = arcade.resets
    choose(board, arcade, "15-Puzzle")
    for direction in ("left", "right"):          # (one of the two moves a tile)
        nudge(board, arcade, direction)
    moves = arcade.screen.puzzle.moves
    assert moves
    tap(board, arcade, "B")
    assert arcade.screen.labels[0] == "Continue"
    choose(board, arcade, "Continue")
    assert type(arcade.screen).__name__ == "Game" and arcade.screen.puzzle.moves == moves
    tap(board, arcade, "B")
    assert arcade.screen.labels[arcade.screen.cursor] == "15-Puzzle"   # the game's own entry
    assert arcade.resets == resets + 4


def test_a_broken_game_chosen_twice_keeps_the_real_menu(board, store_dir):
    # issue 29: the game's failure was counted as the menu's
    install(store_dir, "syntax.py", "GAME = {'title': 'Syntax'\n")
    arcade = boot(board, store_dir, games=store_dir / "games")
    to_menu(board, arcade)
    for _ in range(2):
        choose(board, arcade, "syntax.py")
        assert type(arcade.screen).__name__ == "ErrorScreen"
        assert "".join(arcade.screen.lines).startswith("syntax.py:")
        tap(board, arcade, "A")
    assert type(arcade.screen).__name__ == "Menu"
    assert "Records" in arcade.screen.labels and "About" in arcade.screen.labels


# ---- a heap that cannot wear out --------------------------------------------------------
# What a long session's worn heap does: nothing of the screens, the games, the
# drawing or the crash log can be imported (the start of a program, small,
# still can: on a fresh heap it always does).
WORN = ("firmware.screens", "firmware.games", "firmware.ui", "firmware.gamelist",
        "firmware.gamereader", "firmware.game_settings", "firmware.gamefiles",
        "firmware.crashlog")
START = ("firmware.screens", "firmware.screens.base")    # what a program starts with


def _hold_no_memory(monkeypatch):
    held = [True]
    real = builtins.__import__

    def worn(name, globals=None, locals=None, fromlist=(), level=0):
        wanted = [name] if fromlist else [name] + [name + "." + f for f in fromlist or ()]
        wanted = [w for w in wanted if w.startswith(WORN) and w not in START]
        if held[0] and any(w not in sys.modules for w in wanted):
            raise MemoryError("memory allocation failed, allocating 2560 bytes")
        return real(name, globals, locals, fromlist, level)
    monkeypatch.setattr(builtins, "__import__", worn)
    return held


def test_a_memory_error_that_persists_resets_at_most_once_a_minute(board, store_dir, monkeypatch):
    arcade = boot(board, store_dir)
    assert arcade.settings.set("sleep", False)   # the panel off, the CPU awake: frames run
    to_menu(board, arcade)
    choose(board, arcade, "2048")
    nudge(board, arcade, "left")
    nudge(board, arcade, "right")
    held = _hold_no_memory(monkeypatch)
    resets = arcade.resets
    tap(board, arcade, "B")              # the game saves; the menu cannot load...
    # ...once: the arcade starts the menu's program again on a fresh heap; twice
    # within the minute: the crash screen says so
    assert arcade.resets == resets + 2 and type(arcade.screen).__name__ == "BareError"
    assert shows(board.panel, "MemoryError") and shows(board.panel, "A: restart")
    wait(arcade, 3 * 60000)              # no reset loop while the player waits
    assert arcade.resets == resets + 2 and type(arcade.screen).__name__ == "BareError"
    tap(board, arcade, "A")              # (wakes the panel the saver turned off)
    tap(board, arcade, "A")              # A restarts: still no memory, a minute later:
    assert arcade.resets == resets + 4   # one reset asked for, one to recover
    assert type(arcade.screen).__name__ == "BareError"
    tap(board, arcade, "A")              # within the minute: only the one asked for
    assert arcade.resets == resets + 5
    held[0] = False                      # memory again
    tap(board, arcade, "A")
    assert type(arcade.screen).__name__ == "Menu"    # the real menu, not the safe one
    assert arcade.screen.labels[0] == "Continue"     # 2048 was saved before it all
    choose(board, arcade, "Continue")
    assert type(arcade.screen).__name__ == "Game"


def test_no_memory_inside_a_game_starts_the_game_again_where_it_was(board, store_dir, monkeypatch):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "15-Puzzle")
    nudge(board, arcade, "left")
    moves = arcade.screen.puzzle.moves

    def no_memory(self, now_ms):
        raise MemoryError()
    monkeypatch.setattr(type(arcade.screen), "update", no_memory)   # this program only
    resets = arcade.resets
    frames(arcade, 2)
    assert arcade.resets == resets + 1 and type(arcade.screen).__name__ == "Game"
    assert arcade.screen.puzzle.moves == moves       # saved, then resumed


def test_the_launch_module_is_loaded_only_at_a_programs_ends(board, store_dir, monkeypatch):
    """Heap: no program holds firmware/launch.py while it runs (it writes the
    note when the program ends); with no memory even for it, leaving still
    resets, without a note: the menu's program starts."""
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    assert "firmware.launch" not in sys.modules
    choose(board, arcade, "2048")
    assert type(arcade.screen).__name__ == "Game" and "firmware.launch" not in sys.modules
    real = builtins.__import__
    resets = arcade.resets

    def no_memory_for_launch(name, globals=None, locals=None, fromlist=(), level=0):
        wanted = name == "firmware.launch" or (name == "firmware" and "launch" in (fromlist or ()))
        if wanted and arcade.resets == resets:    # (this program only)
            raise MemoryError("memory allocation failed, allocating 1024 bytes")
        return real(name, globals, locals, fromlist, level)
    monkeypatch.setattr(builtins, "__import__", no_memory_for_launch)
    tap(board, arcade, "B")
    wait(arcade, 3000)           # a reset with no note, the splash, and its reset to the menu
    assert arcade.resets > resets
    for _ in range(3):
        if type(arcade.screen).__name__ == "Menu":
            break
        tap(board, arcade, "A")
    assert type(arcade.screen).__name__ == "Menu"
