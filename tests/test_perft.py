"""Perft: the number of move sequences to depth 1, 2 and 3, pinned for positions across every game and rule.

``tests/perft/positions.json`` holds each position (a deal code with its rules, or a JSON position) and its
counts; a finished hand counts as one leaf. The counts were made by the engine and by the reference generator
written from the rules (``tests/perft/oracle.py``) and pinned only where both agree. A changed count means
move generation changed; ``python tests/perft/oracle.py`` recounts with both.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HERE = Path(__file__).parent / "perft"


def _reference() -> ModuleType:
    """The reference generator and perft, loaded by path so the tests need no package layout."""
    spec = importlib.util.spec_from_file_location("perft_oracle", HERE / "oracle.py")
    assert spec and spec.loader
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


oracle = _reference()
ENTRIES: list[dict[str, Any]] = json.loads((HERE / "positions.json").read_text(encoding="utf-8"))
NAMES = [entry["name"] for entry in ENTRIES]


def test_the_positions_span_every_game_and_rule() -> None:
    """At least ten positions: USA, Canada, each optional rule, every phase of a turn, and Clear 4."""
    states = [oracle.load_position(entry) for entry in ENTRIES]
    rules = [state.rules for state in states]
    assert len(ENTRIES) >= 10 and all(len(entry["perft"]) == 3 for entry in ENTRIES)
    assert {r.preset for r in rules} >= {"USA", "Canada", "Clear 4"}
    assert any(r.clear_rank is None for r in rules) and any(r.clear_rank not in (None, 10) for r in rules)
    for flag in ("piles_face_down", "risk_play", "pile_card_flip", "four_plus_clears"):
        assert any(getattr(r, flag) for r in rules), flag
    assert {state.phase for state in states} == {"play", "add", "gamble", "push"}


@pytest.mark.parametrize("entry", ENTRIES, ids=NAMES)
def test_engine_counts(entry: dict[str, Any]) -> None:
    state = oracle.load_position(entry)
    assert [oracle.perft(state, depth, oracle.engine_moves) for depth in (1, 2, 3)] == entry["perft"]


@pytest.mark.parametrize("entry", ENTRIES, ids=NAMES)
def test_reference_counts(entry: dict[str, Any]) -> None:
    """The pinned counts are the rules' counts too, not only the engine's."""
    state = oracle.load_position(entry)
    assert [oracle.perft(state, depth, oracle.reference_moves) for depth in (1, 2, 3)] == entry["perft"]
