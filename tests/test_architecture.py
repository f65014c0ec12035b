"""The package's shape: imports point one way (widgets → coach → engine, sim → coach → engine, storage → engine) and
never in a circle; a learner's files are kept by the rooms that need them, never by the engine or the coach; no
function is too branchy to read.

Every module of ``cut_tutor/`` is parsed, not imported, so an import inside a function or under ``TYPE_CHECKING``
counts like any other: a cycle dodged that way is still a cycle.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from radon.complexity import cc_visit

PACKAGE = Path(__file__).resolve().parents[1] / "cut_tutor"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path) -> Iterator[str]:
    """Every module of the package that ``name`` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            # ``from pkg import mod`` imports the module pkg.mod; ``from mod import name`` imports mod
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        yield from (target for target in targets if target in MODULES and target != name)


GRAPH = {name: set(imported(name, path)) for name, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted: every import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_parser_sees_the_imports() -> None:
    """A check on the checker: known imports, a function-level one included, are found."""
    assert "cut_tutor.engine.cards" in GRAPH["cut_tutor.engine.rules"]
    assert "cut_tutor.engine.state" in GRAPH["cut_tutor.engine"]
    assert {"cut_tutor.engine.cut", "cut_tutor.engine.clear4"} <= GRAPH["cut_tutor.engine.games"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles() -> None:
    assert cycles(GRAPH) == []


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [("cut_tutor.engine", ("cut_tutor.coach", "cut_tutor.sim", "cut_tutor.widgets", "cut_tutor.storage")),
     ("cut_tutor.storage", ("cut_tutor.coach", "cut_tutor.sim", "cut_tutor.widgets", "cut_tutor.analysis",
                            "cut_tutor.review", "cut_tutor.cardclear", "cut_tutor.classroom", "cut_tutor.dashboard")),
     ("cut_tutor.coach", ("cut_tutor.widgets", "cut_tutor.storage")),
     ("cut_tutor.analysis", ("cut_tutor.widgets", "cut_tutor.sim"))],
)  # fmt: skip
def test_imports_point_one_way(layer: str, forbidden: tuple[str, ...]) -> None:
    inside = [name for name in GRAPH if name == layer or name.startswith(layer + ".")]
    wrong = sorted(
        f"{name} imports {target}"
        for name in inside
        for target in GRAPH[name]
        if any(target == f or target.startswith(f + ".") for f in forbidden)
    )
    assert inside and wrong == []


#: Who keeps a learner's files: the app and its rooms, the teacher's view, the review's progress and drills, and the
#: puzzle's progress. The engine, the coach, the simulations and the analysis only play; they never touch a disk.
STORAGE_USERS = ("cut_tutor.widgets", "cut_tutor.classroom", "cut_tutor.review", "cut_tutor.cardclear")


def test_only_the_rooms_that_keep_files_import_storage() -> None:
    users = {
        name
        for name, targets in GRAPH.items()
        if not name.startswith("cut_tutor.storage")
        and any(target == "cut_tutor.storage" or target.startswith("cut_tutor.storage.") for target in targets)
    }
    outside = sorted(name for name in users if not any(name == u or name.startswith(u + ".") for u in STORAGE_USERS))
    assert "cut_tutor.widgets.app" in users and outside == []


@pytest.mark.parametrize("name", [n for n in MODULES if n.startswith("cut_tutor.coach")] + ["cut_tutor.widgets.table"])
def test_the_coach_and_the_table_never_hold_a_state(name: str) -> None:
    """They take a seat's view (or what the coach reads from it) by construction: ``State`` is not even imported,
    so advice, AI choices and the page's data cannot read a hidden card (C2)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    names = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             for alias in node.names}  # fmt: skip
    assert "State" not in names and "Core" not in names


def test_no_two_classes_share_a_name() -> None:
    """One name, one meaning: a class is found by its name alone, so no two public classes of the package share one
    (a module's private helper, ``_Name``, is its own business)."""
    where: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(name)
    assert len(where) > 50 and {cls: mods for cls, mods in where.items() if len(mods) > 1} == {}


#: The most branches one function may hold (its cyclomatic complexity): past it, a function is split into small
#: ones with one concern each, or its cases become a table of named functions.
MOST_BRANCHES = 20


def test_no_function_is_too_branchy() -> None:
    """Every function and method of the package reads in one sitting: its cyclomatic complexity is at most
    :data:`MOST_BRANCHES`."""
    blocks = [(name, block) for name, path in MODULES.items()
              for block in cc_visit(path.read_text(encoding="utf-8"))]  # fmt: skip
    too_branchy = {f"{name}.{block.fullname}": block.complexity for name, block in blocks
                   if block.complexity > MOST_BRANCHES}  # fmt: skip
    assert len(blocks) > 500 and too_branchy == {}


#: The longest a module may grow: past it, a newcomer reads a room as two.
MAX_LINES = 500


def test_no_module_is_longer_than_a_newcomer_reads() -> None:
    long = {
        name: lines
        for name, path in MODULES.items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


WIDGETS = {name: path for name, path in MODULES.items() if name.startswith("cut_tutor.widgets.")}


def _targets(tree: ast.AST) -> Iterator[ast.expr]:
    """Every expression assigned to anywhere, each of a tuple's apart, one assigned by item (``x[i] = …``) as ``x``:
    in ``a.b.c = …`` that is ``a.b.c``, the attribute ``c`` of ``a.b``, not ``a.b`` itself."""
    for node in ast.walk(tree):
        targets = (
            list(node.targets)
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AugAssign | ast.AnnAssign)
            else []
        )
        while targets:
            target = targets.pop()
            if isinstance(target, ast.Tuple | ast.List):
                targets.extend(target.elts)
            elif isinstance(target, ast.Starred | ast.Subscript):
                targets.append(target.value)
            else:
                yield target


#: The game's state as one value: the :class:`~cut_tutor.widgets.shared.Sitting` and its fields.
SITTING = "sitting"
SITTING_FIELDS = {"setup", "game", "ai", "log"}


def _writes_sitting(tree: ast.AST) -> Iterator[str]:
    """``….sitting`` replaced, or one of its fields (``….sitting.game``) written, anywhere: as the name written."""
    for part in _targets(tree):
        if not isinstance(part, ast.Attribute):
            continue
        if part.attr == SITTING:
            yield SITTING
        elif part.attr in SITTING_FIELDS and isinstance(part.value, ast.Attribute) and part.value.attr == SITTING:
            yield f"{SITTING}.{part.attr}"


def _host_fields(tree: ast.AST) -> Iterator[str]:
    """``host.<name>`` (or ``self.host.<name>``) read or written anywhere, as ``<name>``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            owner = node.value
            if (isinstance(owner, ast.Name) and owner.id == "host") or (
                isinstance(owner, ast.Attribute) and owner.attr == "host"
            ):
                yield node.attr


def test_the_checker_sees_a_write_of_the_game_s_state() -> None:
    """A check on the checker: a room replacing the state, or one of its fields, is found; a read is not, nor an
    edit of the setup's choices."""
    written = "self.host.sitting = s\nhost.sitting.log = ()\nx, self.sitting.ai[0] = 1, a\nx = host.sitting.game"
    assert sorted(_writes_sitting(ast.parse(written))) == ["sitting", "sitting.ai", "sitting.log"]
    # the setup's choices are edited in place by the rooms that offer them: not a write of the sitting
    assert list(_writes_sitting(ast.parse("host.sitting.setup.coach = c\nhost.sitting.setup.seats[0].name = n"))) == []


def test_only_the_play_loop_writes_the_game() -> None:
    """One owner for a game's state: the setup, the game, its AI seats and its Play Bar are one value, the play
    loop's :attr:`~cut_tutor.widgets.play_loop.PlayLoop.sitting`, which it alone replaces (its fields are frozen);
    the other rooms, the app included, read it through the host and ask the loop for a change."""
    written = {name: sorted(set(_writes_sitting(ast.parse(path.read_text(encoding="utf-8")))))
               for name, path in WIDGETS.items()}  # fmt: skip
    assert written.pop("cut_tutor.widgets.play_loop") == [SITTING]
    assert {name: fields for name, fields in written.items() if fields} == {}


def test_the_rooms_reach_the_game_only_through_its_state() -> None:
    """No room keeps or reads a game, a setup, AI seats or a log of its own on the host: there is one of each, in
    the sitting."""
    found = {name: sorted(SITTING_FIELDS & set(_host_fields(ast.parse(path.read_text(encoding="utf-8")))))
             for name, path in WIDGETS.items()}  # fmt: skip
    assert {name: fields for name, fields in found.items() if fields} == {}


def test_the_host_holds_only_what_its_rooms_ask_for() -> None:
    """The app as its rooms see it (:class:`~cut_tutor.widgets.shared.Host`) is no wider than they need: every member
    of it is asked for by some room, so a member no room reads is removed rather than kept for show."""
    tree = ast.parse(MODULES["cut_tutor.widgets.shared"].read_text(encoding="utf-8"))
    host = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Host")
    members = {node.name for node in host.body if isinstance(node, ast.FunctionDef)} | {
        node.target.id for node in host.body if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    asked = {field for name, path in WIDGETS.items() if name != "cut_tutor.widgets.app"
             for field in _host_fields(ast.parse(path.read_text(encoding="utf-8")))}  # fmt: skip
    assert SITTING in members and sorted(members - asked) == []


def test_background_threads_start_only_in_the_jobs_helper() -> None:
    """One way to run in the background: every room's job is started, cancelled and stopped at exit by
    :mod:`cut_tutor.widgets.jobs`."""
    words = ("threading.Thread(", "run_in_executor", "concurrent.futures", "atexit")
    found = sorted(name for name, path in WIDGETS.items() if name != "cut_tutor.widgets.jobs"
                   and any(word in path.read_text(encoding="utf-8") for word in words))  # fmt: skip
    assert found == []


def test_the_app_hands_off_in_its_table_not_by_hand() -> None:
    """A twin of the app that only calls the same twin of a room is a :class:`~cut_tutor.widgets.shared.HandOff`
    line, not a method written out by hand."""
    tree = ast.parse(MODULES["cut_tutor.widgets.app"].read_text(encoding="utf-8"))
    app = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "GameApp")
    by_hand = []
    for node in app.body:
        if not isinstance(node, ast.FunctionDef) or node.decorator_list:  # a property reads a room's part
            continue
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        value = body[0].value if len(body) == 1 and isinstance(body[0], ast.Expr | ast.Return) else None
        call = value.func if isinstance(value, ast.Call) else None
        if isinstance(call, ast.Attribute) and call.attr == node.name and isinstance(call.value, ast.Attribute):
            by_hand.append(node.name)
    hand_offs = [n for n in app.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                 and isinstance(n.value.func, ast.Name) and n.value.func.id == "HandOff"]  # fmt: skip
    assert len(hand_offs) > 40 and by_hand == []


#: The modules that play a game (:data:`~cut_tutor.engine.games.GAME_MODULES`, their limits and the engine around
#: them), and Card Clear, whose poker hands count four of a kind of their own.
_GAME_PACKAGES = ("cut_tutor.engine", "cut_tutor.cardclear")
_NATIVE = PACKAGE / "native"
_TABLE_JS = PACKAGE / "widgets" / "static" / "table"


def _fours(tree: ast.AST) -> Iterator[int]:
    """Lines that compare with four (``>= 4``, ``>= FOUR``) or import a game's run or its four."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators, strict=True):
                four = (isinstance(right, ast.Constant) and right.value == 4) or (
                    isinstance(right, ast.Name) and right.id == "FOUR"
                )
                if isinstance(op, ast.GtE) and four:
                    yield node.lineno
        elif isinstance(node, ast.ImportFrom) and any(alias.name in ("run", "FOUR") for alias in node.names):
            yield node.lineno


def test_only_the_game_modules_count_the_top_run() -> None:
    """The pile's top run and whether a play completes four (R10, R22) are answered once, by the game's module,
    and sent in the view (``top_run``): no other module counts a run or compares with four; the core's coach asks
    its engine's mirror of the game module; the table's script reads the view's field."""
    found = [f"{name}:{line}" for name, path in MODULES.items() if not name.startswith(_GAME_PACKAGES)
             for line in _fours(ast.parse(path.read_text(encoding="utf-8")))]  # fmt: skip
    assert found == []
    for path in sorted(_NATIVE.glob("coach*.cpp")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r">=\s*(4|FOUR)\b|pile\[[^\]]+\]\s*[!=]=", text), path.name
    scripts = {path.name: path.read_text(encoding="utf-8") for path in sorted(_TABLE_JS.glob("*.js"))}
    assert "v.top_run" in scripts["pile.js"]
    assert [name for name, text in scripts.items() if re.search(r"===\s*top\b|\brun\s*(\+\+|\+=)", text)] == []


def test_a_game_is_told_by_its_constant_not_its_spelling() -> None:
    """The games' names are spelled once, in :mod:`cut_tutor.engine.rules` (``CUT``, ``CLEAR4``): code that asks
    which game it is compares with those constants, so a renamed game cannot leave a test of it behind."""
    names = {"CUT", "Clear 4"}
    spelled = []
    for name, path in MODULES.items():
        if name == "cut_tutor.engine.rules":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(isinstance(side, ast.Constant) and side.value in names for side in sides):
                    spelled.append(f"{name}:{node.lineno}")
    assert spelled == []
