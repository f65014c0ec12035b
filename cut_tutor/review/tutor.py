"""Tutor mode: before the learner's play lands, should the tutor ask *Play anyway / Rethink / Hint*?

The heuristic coach answers at once; the analysis of this very view, once it has finished, refines the answer
(:func:`judge` gives either's word, question or not).
A move too close to call is never questioned, by either (C2: both read the learner's view only).

>>> from cut_tutor.engine import Rules, State, view
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> warn(view(state, 0), "2×5", threshold=2.0).best, warn(view(state, 0), "1×J", threshold=2.0)
('1×J', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..analysis import Analysis
from ..coach import advise
from ..engine.moves import Move

#: Coach totals this close to the coach's best are too close to question (the heuristic has no interval).
HEURISTIC_NOISE = 1.0


@dataclass(frozen=True)
class Caution:
    """Why the tutor asks before a play: how many points it should cost, against which move, and by whose word."""

    move: str
    best: str
    best_label: str
    loss: float
    source: str  # "coach": the heuristic coach; "analysis": the Monte-Carlo analysis of this view
    #: The analysis' 95% interval of the loss (``None`` on the coach's word: the heuristic has none).
    low: float | None = None
    high: float | None = None

    def asks(self, threshold: float) -> bool:
        """Whether this word is worth a question at ``threshold``: never for the best move or one too close to call
        (the analysis' interval reaches 0, or within :data:`HEURISTIC_NOISE` of the coach's best)."""
        if self.source == "analysis":
            return self.move != self.best and self.low is not None and self.low > 0 and self.loss >= threshold
        return self.loss >= max(threshold, HEURISTIC_NOISE)


def judge(
    view: Mapping[str, Any],
    move: Move | str,
    *,
    coach: str = "Madonna",
    level: str = "Expert",
    analysis: Analysis | None = None,
) -> Caution:
    """What ``move`` costs in ``view``, question or not: by ``analysis`` (of this view) when given, with its
    interval, else by the coach's totals against the move that coach, at that ``level``, recommends: the advice
    the learner is shown (a move totalling more than it, which the coach passed over for a sure clear, costs 0)."""
    chosen = Move.parse(move) if isinstance(move, str) else move
    if str(chosen) not in view["legal"]:
        raise ValueError(f"tutor: {chosen} is not a legal move for seat {view['seat']}")
    if analysis is not None:
        if analysis.seat != view["seat"] or {str(m.move) for m in analysis.moves} != set(view["legal"]):
            raise ValueError("tutor: the analysis is of another position")
        mine = next(m for m in analysis.moves if m.move == chosen)
        best = analysis.best
        if mine.move == best.move:
            return Caution(str(chosen), str(best.move), best.label, 0.0, "analysis", 0.0, 0.0)
        return Caution(str(chosen), str(best.move), best.label, mine.gap, "analysis", mine.gap_low, mine.gap_high)
    advice = advise(dict(view), coach, level)
    totals = {c.move: c.total for c in advice.candidates}
    loss = max(0.0, round(totals[advice.move] - totals[chosen], 3))
    return Caution(str(chosen), str(advice.move), advice.label, loss, "coach")


def warn(
    view: Mapping[str, Any],
    move: Move | str,
    threshold: float,
    *,
    coach: str = "Madonna",
    level: str = "Expert",
    analysis: Analysis | None = None,
) -> Caution | None:
    """A :class:`Caution` if ``move`` loses at least ``threshold`` points in ``view``, else ``None``.

    With ``analysis`` (of this view) its loss decides, and a move whose interval reaches 0 (too close) is never
    questioned; without, the coach's totals decide, a move within :data:`HEURISTIC_NOISE` of its best never is.
    """
    caution = judge(view, move, coach=coach, level=level, analysis=analysis)
    return caution if caution.asks(threshold) else None
