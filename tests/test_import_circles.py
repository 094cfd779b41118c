"""No import circle in firmware/: each module can be read (and imported)
knowing only the ones below it. A circle is a module that needs a module
that needs it back, at the top or inside a function alike (a circle hidden
in a function is still one to read, and an ImportError waiting for the
day someone moves the import to the top)."""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _modules():
    found = {}
    for folder, _, names in os.walk(os.path.join(ROOT, "firmware")):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                module = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                found[module[:-len(".__init__")] if module.endswith(".__init__") else module] = path
    return found


def imports(path, known):
    """The firmware modules a file imports: import statements, and
    __import__("name") / modules.borrowed("name") with a literal name."""
    named = set()
    tree = ast.parse(open(path).read())
    for node in ast.walk(tree):     # the type checker's imports never run on the board
        if isinstance(node, ast.If) and getattr(node.test, "id", None) in ("_TYPE_CHECKING", "TYPE_CHECKING"):
            node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            named.add(node.module)
            named.update(node.module + "." + alias.name for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "id", getattr(node.func, "attr", None)) in ("__import__", "borrowed")):
            named.add(node.args[0].value)
    return {name for name in named if name in known and name != "firmware"}


def circles(graph):
    """Every group of modules that import one another (Tarjan's components)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph[v]:
                found.append(sorted(group))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# The puzzle screen and its helpers import one another (issue 23 item 5: cut
# with the in-game part of the clean-up, the one GameScreen mechanism); no
# other circle may appear, and this one may only go.
BEING_CUT = ["firmware.screens.puzzle", "firmware.screens.puzzle_draw",
             "firmware.screens.puzzle_end", "firmware.screens.puzzle_keys",
             "firmware.screens.puzzle_pictures"]


def test_no_import_circle_in_the_firmware():
    known = _modules()
    graph = {module: imports(path, known) - {module} for module, path in known.items()}
    found = circles(graph)
    assert [c for c in found if not set(c) <= set(BEING_CUT)] == [], found


def test_the_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
