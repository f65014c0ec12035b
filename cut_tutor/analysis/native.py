"""The compiled AI seat (``cut_tutor._native.coach``): the coach's own records handed to the core as data.

The Level and Style weights, the scorers' constants and the game's :class:`~cut_tutor.coach.scoring.Numbers` stay
in :mod:`cut_tutor.coach`; :func:`policy` reads them into the core once per policy and rules, so the compiled seat
plays with the very numbers the Python seat does and chooses the same moves for the same seeds, in CUT and in
Clear 4 (R22).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ..coach import advice, cut, scoring
from ..coach.styles import Level, Style, level_of, style_of
from ..coach.values import SCORERS
from ..compiled import NATIVE as _COMPILED
from ..engine.cards import NCODES
from ..engine.packed import pack, pack_rules, unpack
from ..engine.rules import Rules
from ..engine.state import State

if TYPE_CHECKING:
    from .._native import _Coach, _Policy

#: The compiled coach (``cut_tutor._native.coach``), or ``None`` on the Python path.
NATIVE: _Coach | None = None if _COMPILED is None else _COMPILED.coach


def available(rules: Rules) -> bool:
    """Does the compiled seat play these rules? Every game has its scorer there: when the core is built and not
    ruled out."""
    return NATIVE is not None and rules.game in SCORERS


def policy(spec: str, rules: Rules) -> _Policy | None:
    """The compiled policy for a ``Level:Style`` spec (``Expert:Balanced``) under ``rules``; a bad name raises
    ValueError, as :func:`~cut_tutor.analysis.search.players` does; ``None`` where the core does not play."""
    name, _, style = spec.partition(":")
    return _policy(level_of(name), style_of(style or "Balanced"), rules) if available(rules) else None


@lru_cache(maxsize=64)
def _policy(level: Level, style: Style, rules: Rules) -> _Policy:
    assert NATIVE is not None, "the compiled core is not loaded"
    numbers = SCORERS[rules.game].numbers(rules)
    constants = {
        "per_card": scoring.PER_CARD, "go_again": scoring.GO_AGAIN, "barred": scoring.BARRED,
        "near_out": scoring.NEAR_OUT, "turn_cost": cut.TURN_COST, "loop_noise": advice.LOOP_NOISE,
        "long_hand": advice.LONG_HAND, "points": [*rules.points, *[0] * (NCODES - len(rules.points))],
        # sum() of floats is compensated from Python 3.12: the core adds as this interpreter does
        "compensated": sys.version_info >= (3, 12),
    }  # fmt: skip
    tables = {
        "middling": numbers.middling, "groups": list(numbers.groups), "spares": list(numbers.spares),
        "shed": list(numbers.shed), "strand": list(numbers.strand), "board": numbers.board,
        "is_clear": list(numbers.is_clear),
    }  # fmt: skip
    return NATIVE.Policy(pack_rules(rules), dataclasses.asdict(level), dataclasses.asdict(style), constants, tables)


def play(policies: Sequence[_Policy | None], state: State, seeds: Sequence[int]) -> tuple[State, list[int]]:
    """``state`` played to the end of the hand on the core, seat ``s`` seeded ``seeds[s]`` as an
    :class:`~cut_tutor.coach.AIPlayer` of ``policies[s]`` would play it, or where that is None as a
    :class:`~cut_tutor.engine.RandomPlayer` with ``random.Random(seeds[s])`` would: the finished state, without its
    list of moves, and each seat's decisions."""
    assert NATIVE is not None, "the compiled core is not loaded"
    finished, decisions = NATIVE.play(list(policies), pack(state), list(seeds))
    return unpack(state.rules, finished), decisions
