"""``benchmarks/mutations.py`` breaks the code on purpose to show the suite notices: each breakage names source text
to replace, and a text the code no longer holds would break nothing. This keeps every one pointing at real code (the
breakages themselves run in ``python benchmarks/mutations.py``, minutes long, not here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_breakage_names_text_the_code_holds_once() -> None:
    spec = importlib.util.spec_from_file_location("mutations", ROOT / "benchmarks" / "mutations.py")
    assert spec and spec.loader
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = {m.name: (ROOT / m.path).read_text(encoding="utf-8").count(m.old) for m in module.MUTATIONS}
    assert {name: n for name, n in found.items() if n != 1} == {}
    assert all(m.old != m.new and all((ROOT / test.partition("::")[0]).exists() for test in m.tests)
               for m in module.MUTATIONS)  # fmt: skip
