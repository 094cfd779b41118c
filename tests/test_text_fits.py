"""Every fixed text and label of every screen fits the 128x64 panel: each screen
is put in each of its states (every help line, message, overlay, banner, mode,
level) and drawn in full, and tests/textfit.py's recorder checks that no text
runs off the panel or gets cut.

STATES maps a screen to a function that opens it and yields after setting up
each state (a short name for the failure message); add a screen's states here.
"""
import random

import pytest

from firmware.games import reversi_tools
from firmware.games.reversi import BLACK, WHITE
from firmware.screens import g2048
from tests import test_g2048_screen as g2048_tests
from tests import test_puzzle_screen as puzzle_tests
from tests import test_reversi_screen as reversi_tests
from tests.test_app import boot, choose, frames, tap, to_menu
from tests.textfit import TextLog


def _every_help_line(game, name):
    for i in range(6):                 # more than any screen's help list
        game.help_i = i
        yield "%s, help line %d" % (name, i)


# ---- the puzzles -------------------------------------------------------------------
def puzzle_states(board, store_dir, title, **settings):
    random.seed(3)
    arcade = puzzle_tests.open_game(board, store_dir, title, **settings)
    game = arcade.screen
    now = arcade.hal.clock.now()
    game.preview = 0
    yield arcade, "start"
    game.preview = 1
    yield arcade, "picture preview" if game.picture_mode else "start again"
    game.preview = 0
    yield from ((arcade, s) for s in _every_help_line(game, "play"))
    game.puzzle.moves = 99999
    game.play_ms = 9 * 3600000 + 3599000    # 9:59:59
    for level in range(4):
        game.level = level
        yield arcade, "shuffle level %d" % level
    from firmware.screens.puzzle_picture_files import skipped_text
    for message in ("FROM NEXT GAME", skipped_text("a_very_long_picture_name.pbm")):
        game.say(message, game.hal.clock.now())
        yield arcade, "message " + message
    game.message = ""
    game.thinking = True
    yield arcade, "thinking"
    game.thinking = False
    game.cursor_on = True
    yield from ((arcade, s) for s in _every_help_line(game, "cursor mode"))
    game.cursor_on = False
    game.state = 3
    yield arcade, "new game?"
    game.state = 0
    game.puzzle.moves = 999
    game.play_ms = 3599000
    game.optimal = 31
    game.helped = True
    game.win(now)
    yield arcade, "won, with help"
    game.helped = False
    game.win(now)
    yield arcade, "won"
    game.state = 0
    game.give_up(now)
    yield arcade, "lost"


# ---- 2048 ---------------------------------------------------------------------------
def g2048_states(board, store_dir):
    arcade = g2048_tests.open_game(board, store_dir)
    # loaded here, so the end's borrowed helpers draw with the copy the
    # recorder wraps (the game's own program does not hold it)
    import firmware.ui.draw  # noqa: F401
    game = arcade.screen
    now = arcade.hal.clock.now()
    yield arcade, "start"
    yield from ((arcade, s) for s in _every_help_line(game, "play"))
    g2048_tests.set_board(arcade, list(range(1, 17)), score=3932100)
    game.game.moves = 99999
    game.best = 3932156
    yield arcade, "big tiles, score and moves"
    for message in ("NO MOVE", "UNDONE", "NO UNDO"):
        game.say(message, now)
        yield arcade, "message " + message
    game.message = ""
    game.thinking = True
    yield arcade, "thinking"
    game.thinking = False
    for d in range(4):
        game.hint = d
        game.demo = d % 2 == 0
        yield arcade, "hint %d" % d
    game.hint = -1
    yield arcade, "demo"
    game.demo = False
    game.state = 3
    yield arcade, "new game?"
    game.state = 0
    game._end_game(g2048._WON, now)
    yield arcade, "won"
    game.new_record = True
    game._end_game(g2048._OVER, now)
    yield arcade, "over, a record"
    game.new_record = False
    game._end_game(g2048._OVER, now)
    yield arcade, "over"


# ---- Reversi ----------------------------------------------------------------------
def reversi_states(board, store_dir):
    from firmware.screens import reversi_shared as shared
    arcade = reversi_tests.open_game(board, store_dir, mode=reversi_tests.TWO_PLAYERS)
    game = arcade.screen
    now = arcade.hal.clock.now()
    for mode in range(4):
        game.mode = mode
        for level in range(3):
            game.level = level
            yield arcade, "mode %d level %d" % (mode, level)
        yield from ((arcade, s) for s in _every_help_line(game, "mode %d" % mode))
        game.thinking = True
        yield arcade, "mode %d, thinking" % mode
        game.thinking = False
        for message in ("NOT LEGAL", "CAN'T UNDO", "NOT NOW", "NO MEM: WAIT"):
            game.say(message, now)
            yield arcade, "message " + message
        game.message = ""
        game.overlay = shared.SURRENDER_QUESTION
        yield arcade, "surrender?"
        game.overlay = shared.PASS_NOTICE
        yield arcade, "pass notice"
        game.overlay = 0
    # the ends: who won, by how much, with empty squares, given up (a row of
    # discs on row 1 and one on row 8 flank nothing: neither side can move)
    def rows(top, bottom):
        return top.ljust(8, "-") + "-" * 48 + bottom.ljust(8, "-")

    ends = ((rows("XXX", ""), 0, 0, "two players, empties"),
            ("XO" * 32, 0, 0, "two players, a full board"),
            (rows("X" * 8, "O" * 8), 0, 0, "a draw with empties"),
            (rows("X" * 8, "O" * 4), 1, 0, "you win"),
            (rows("O" * 8, "X" * 4), 1, 0, "you lose"),
            (rows("O" * 8, "X" * 8), 2, 0, "you draw"),
            (rows("XX", "OO"), 1, WHITE, "the CPU gave up"),
            (rows("XX", "OO"), 2, WHITE, "you gave up"))
    for start, mode, resigned, name in ends:
        reversi_tools.set_position(game.game, start, BLACK)
        assert resigned or game.game.is_game_over(), name
        game.mode = mode
        game.resigned = resigned
        game.finish(now)
        yield arcade, "end: " + name
        yield from ((arcade, s) for s in _every_help_line(game, "end: " + name))


# ---- About -------------------------------------------------------------------------
def about_states(board, store_dir):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "About")
    frames(arcade, 2)
    yield arcade, "emulated"
    for name in ("ML4M", "DEVKIT_PROTO"):
        arcade.hal.board.NAME = name
        yield arcade, "board " + name


# ---- the menu, Settings, Records, the splash and the crash screens ------------------
def _open(board, store_dir, label):
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    if label is not None:
        choose(board, arcade, label)
        frames(arcade, 2)
    return arcade


def splash_states(board, store_dir):
    arcade = boot(board, store_dir)
    frames(arcade, 2)
    yield arcade, "splash"


def menu_states(board, store_dir):
    # a game in progress of each kind, so "Continue <game>" shows every title
    from firmware import gamelist
    for title in ("2048", "Reversi", "15-Puzzle", "8-Puzzle"):
        arcade = _open(board, store_dir, title)
        frames(arcade, 30)
        for _ in range(3):
            board.push("left")
            frames(arcade, 4)
            board.center()
            frames(arcade, 4)
        tap(board, arcade, "B")              # back to the menu's program
        frames(arcade, 2)
        menu = arcade.screen
        assert menu.resume is not None, title
        for i in range(len(menu.labels)):
            menu.cursor = i
            yield arcade, "Continue %s, row %d (%s)" % (menu.resume_title, i, menu.labels[i])
    assert gamelist.entries(arcade)


def settings_states(board, store_dir):
    arcade = _open(board, store_dir, "Settings")
    screen = arcade.screen
    for i, (kind, label, _) in enumerate(screen.rows):
        if kind == "heading":
            continue
        screen.cursor = i
        yield arcade, "row %d (%s)" % (i, label)
    for message in ("Stick centred", "Let go of stick", "Not saved!", "Records cleared"):
        screen.message = message
        yield arcade, "message " + message
    screen.message = None
    screen.confirm = True
    yield arcade, "Reset records?"


def records_states(board, store_dir):
    arcade = boot(board, store_dir)
    records = arcade.records
    # the longest values each kind can show: an hour and more, big scores and counts
    records.keep("15-Puzzle numbers", "fewest moves", 99999, "fewest")
    records.keep("15-Puzzle numbers", "fastest time", 359999, "fastest")
    records.keep("24-Puzzle picture", "fewest moves", 12345, "fewest")
    records.keep("24-Puzzle picture", "fastest time", 5999, "fastest")
    records.keep("8-Puzzle numbers", "fewest moves", 31, "fewest")
    records.keep("2048", "best score", 3932100, "highest")
    records.keep("2048", "best tile", 131072, "highest")
    for level in ("easy", "medium", "hard"):
        for field in ("won", "drawn", "lost"):
            records.keep("Reversi " + level, field, 99999, "count")
    to_menu(board, arcade)
    choose(board, arcade, "Records")
    frames(arcade, 2)
    screen = arcade.screen
    for top in range(len(screen.lines)):
        screen.top = top
        yield arcade, "from line %d" % top


def pause_states(board, store_dir):
    """The pause menu over each game: every row under the cursor (with every
    value of a setting row), the Keys page and the New game question."""
    from tests import test_games
    test_games.install(store_dir, "dot.py", test_games.readme_example())
    for title in ("15-Puzzle", "2048", "Reversi", "Dot"):
        arcade = test_games.boot(store_dir)
        to_menu(board, arcade)
        choose(board, arcade, title)
        tap(board, arcade, "E")
        pause = arcade.screen
        for i, (kind, label, what) in enumerate(pause.rows):
            pause.cursor = i
            pause.dirty = True
            yield arcade, "%s, row %s" % (title, label)
            for _ in range(len(what[2]) if kind == 2 else 3 if kind in (3, 4) else 0):
                # Reversi's Mode "link" opens Play a friend (a launch, never drawn
                # here: tests/test_link_play.py): stepped over
                over_link = label == "Mode" and pause.value(kind, what) == "CPU demo"
                pause.change(kind, what, 2 if over_link else 1)
                yield arcade, "%s, row %s = %s" % (title, label, pause.value(kind, what))
        for page in (1, 2):
            pause.page = page
            pause.dirty = True
            yield arcade, "%s, page %d" % (title, page)


def error_states(board, store_dir):
    arcade = _open(board, store_dir, None)
    # out of memory a second time in a minute: the crash screen stays (A: restart)
    arcade.app.memory_reset = arcade.hal.clock.now()
    for error in (ValueError("a long message that goes on past the edge of the panel"),
                  MemoryError(), KeyError("x" * 40)):
        arcade.crash(error)
        yield arcade, "crash " + type(error).__name__


STATES = {
    "8-Puzzle": lambda b, d: puzzle_states(b, d, "8-Puzzle"),
    "15-Puzzle": lambda b, d: puzzle_states(b, d, "15-Puzzle"),
    "24-Puzzle": lambda b, d: puzzle_states(b, d, "24-Puzzle", big=5),
    "8-Puzzle pictures": lambda b, d: puzzle_states(b, d, "8-Puzzle", mode="picture"),
    "24-Puzzle pictures": lambda b, d: puzzle_states(b, d, "24-Puzzle", mode="picture", big=5),
    "2048": g2048_states,
    "Reversi": reversi_states,
    "About": about_states,
    "Splash": splash_states,
    "Menu": menu_states,
    "Settings": settings_states,
    "Records": records_states,
    "Error": error_states,
    "Pause menu": pause_states,
}


@pytest.mark.parametrize("screen", sorted(STATES))
def test_every_text_fits_the_panel(board, store_dir, monkeypatch, screen):
    log = None
    shown = 0
    fonts = set()
    for arcade, state in STATES[screen](board, store_dir):
        if log is None or log.display is not arcade.hal.display:   # a new program's
            log = TextLog(monkeypatch, arcade.hal.display)
        drawn = log.settle(arcade.screen)
        assert drawn, "%s, %s: no text drawn" % (screen, state)
        assert not log.overflows(), "%s, %s: %r" % (screen, state, log.overflows())
        assert not log.crowded(), "%s, %s: %r" % (screen, state, log.crowded())
        fonts |= {d[5] for d in log.drawn}
        shown += 1
    assert shown >= 1
    if screen not in ("Splash", "Error"):            # no key line in the small font
        # the recorder saw every kind (the pause menu centres its question
        # itself: firmware.ui.draw may not be loaded under the game)
        assert {"8x8", "tiny1"} | ({"centred"} if screen != "Pause menu" else set()) <= fonts


def test_settings_boxes_cover_whole_rows(board, store_dir, monkeypatch):
    """A message ("Stick centred", "Records cleared") or the question over
    the Settings list covers whole rows, side to side: no row shows cut in
    two around it."""
    import sys
    arcade = _open(board, store_dir, "Settings")
    screen = arcade.screen
    draw = sys.modules[type(screen).__module__].draw    # (the app may have imported it afresh)
    boxes = []
    box = draw.box
    monkeypatch.setattr(draw, "box", lambda fb, x, y, w, h: (boxes.append((x, y, w, h)), box(fb, x, y, w, h)))
    for message, confirm in (("Stick centred", False), ("Records cleared", False), (None, True)):
        screen.message, screen.confirm = message, confirm
        screen.redraw()
        screen.draw(arcade.hal.display)
    assert len(boxes) == 3
    for x, y, w, h in boxes:
        assert (x, w) == (0, 128), "a row shows left or right of the box"
        rows = [(draw.list_y(r), draw.list_y(r) + 9) for r in range(draw.LIST_ROWS)]
        for top, bottom in rows:
            assert bottom <= y or top >= y + h or (y <= top and bottom <= y + h), \
                "the box %r cuts the row at y %d" % ((x, y, w, h), top)


def test_the_recorder_sees_a_text_that_does_not_fit(board, store_dir, monkeypatch):
    """The check can fail: a line draw.centred would cut, a panel text past the edge."""
    arcade = boot(board, store_dir)
    log = TextLog(monkeypatch, arcade.hal.display)
    from firmware.ui import draw, tinyfont
    fb = arcade.hal.display.fb
    draw.centred(fb, "emulated (cpython)", 20)
    tinyfont.text(fb, "SHUFFLE RANDOM!!", 66, 34)
    fb.text("fits", 0, 0)
    assert [d[0] for d in log.overflows()] == ["emulated (cpython)", "SHUFFLE RANDOM!!"]
    fb.text("CPU level", 1, 47)
    fb.text("medium", 76, 47)
    assert log.crowded() == [("CPU level", "medium", 47)]
