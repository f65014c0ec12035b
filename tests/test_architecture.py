"""The package's shape: imports point one way (widgets → coach → engine, sim → coach → engine, storage → engine) and
never in a circle; a learner's files are kept by the rooms that need them, never by the engine or the coach.

Every module of ``cut_tutor/`` is parsed, not imported, so an import inside a function or under ``TYPE_CHECKING``
counts like any other: a cycle dodged that way is still a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

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
