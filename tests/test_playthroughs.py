"""Golden playthroughs: seeded hands replayed step by step against the files in ``tests/playthroughs``.

A failure means the engine now behaves differently. If the change is intended, regenerate the files
(``python -m tests.playthroughs.generate``) and review their diff with the change.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent / "playthroughs"


def _generator() -> ModuleType:
    """The generator script, loaded by path so the tests need no package layout."""
    spec = importlib.util.spec_from_file_location("playthrough_generate", HERE / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = _generator()
FILES = sorted(HERE.glob("*.json"))


def test_every_case_has_a_file_and_every_file_a_case() -> None:
    assert sorted(path.stem for path in FILES) == sorted(generate.CASES)


def test_files_stay_small() -> None:
    assert sum(path.stat().st_size for path in FILES) < 3_000_000


def _first_difference(old: Any, new: Any, where: str = "") -> str:
    """The path of the first value that differs, for a readable failure."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                return _first_difference(old.get(key), new.get(key), f"{where}.{key}")
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{where}[{index}]")
    return f"{where}: recorded {old!r}, now {new!r}"


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_playthrough_replays_exactly(path: Path) -> None:
    recorded = json.loads(path.read_text(encoding="utf-8"))
    assert recorded["format"] == generate.FORMAT
    live = generate.playthrough(path.stem)
    for key in ("rules", "deal", "seed", "dealer"):
        assert live[key] == recorded[key], f"{path.name}: {key} changed"
    for index, (old, new) in enumerate(zip(recorded["steps"], live["steps"], strict=False)):
        assert old == new, f"{path.name} step {index} (move {old['move']}): {_first_difference(old, new)}"
    assert len(live["steps"]) == len(recorded["steps"]), f"{path.name}: the hand now has a different length"
    assert live["result"] == recorded["result"]
    assert generate.dumps(live) == path.read_text(encoding="utf-8"), f"{path.name}: the file's text differs"
