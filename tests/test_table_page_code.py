"""The table's page code is small files, one area each, joined into the one page module anywidget takes: every
file joined once in a fixed order, none grown past a size a reader takes in, no name declared in two of them.
"""

from __future__ import annotations

import re

from cut_tutor.page import HOST
from cut_tutor.widgets import TableWidget
from cut_tutor.widgets.table import TABLE_PARTS

#: The most lines one part may hold: past it, the part is doing more than one thing.
MOST_LINES = 300

#: A name declared at a part's top level (the parts share one module scope once joined).
TOP_LEVEL = re.compile(r"^(?:function|const|let|var|class) (\w+)", re.MULTILINE)


def test_every_file_of_the_folder_is_joined_once_in_order() -> None:
    folder = TABLE_PARTS[0].parent
    assert sorted(TABLE_PARTS) == sorted(folder.glob("*.js")), "a file of the folder not joined, or joined twice"
    esm = TableWidget._esm
    at = esm.index(HOST.read_text(encoding="utf-8"))
    for part in TABLE_PARTS:
        text = part.read_text(encoding="utf-8")
        assert esm.count(text) == 1, part.name
        assert esm.index(text) > at, f"{part.name} out of order"
        at = esm.index(text)


def test_no_part_is_long() -> None:
    lines = {part.name: len(part.read_text(encoding="utf-8").splitlines()) for part in TABLE_PARTS}
    assert {name: n for name, n in lines.items() if n > MOST_LINES} == {}


def test_each_name_is_declared_in_one_place() -> None:
    declared: dict[str, list[str]] = {}
    for part in (HOST, *TABLE_PARTS):
        for name in TOP_LEVEL.findall(part.read_text(encoding="utf-8")):
            declared.setdefault(name, []).append(part.name)
    assert {name: where for name, where in declared.items() if len(where) > 1} == {}
    assert "render" in declared and "cardNode" in declared  # the pattern sees the declarations


def test_the_module_exports_render_once_at_its_end() -> None:
    esm = TableWidget._esm
    assert esm.count("export default") == 1 and esm.rstrip().endswith("export default { render };")
