"""What an analysis says about each move, as records, a table and a notebook drawing."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from ..coach.words import analysis_caption, analysis_status, verdict_word
from ..engine.moves import Move
from ..engine.words import aligned
from .stats import MIN_ROLLOUTS, PRECISION

if TYPE_CHECKING:
    import pandas as pd

    from .search import Search

BEST, CLOSE, WORSE = "best", "close", "worse"
COLUMNS = ["move", "label", "expected", "low", "high", "gap", "gap_low", "gap_high", "p_out", "rollouts", "verdict"]
#: The headings over :meth:`MoveValue.cells`, in the notebook drawing and ``cut-tutor analyse``'s table.
HEADINGS = ("move", "expected points", "gap", "out first", "rollouts", "verdict")


@dataclass(frozen=True)
class MoveValue:
    """One legal move: the seat's expected points for the hand if it plays it (lower is better), with a 95%
    interval; the gap to the best move on the same deals, with its own; how often the seat went out first.

    ``verdict`` is ``best``, ``close`` (the gap's interval reaches 0: too close to call) or ``worse``.
    """

    move: Move
    label: str
    expected: float
    low: float
    high: float
    gap: float
    gap_low: float
    gap_high: float
    p_out: float
    rollouts: int
    verdict: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, the move in its text form (the CLI's ``--json`` line)."""
        return asdict(self) | {"move": str(self.move)}

    def cells(self) -> tuple[str, ...]:
        """The move in words under :data:`HEADINGS`: its button label, its figures, its verdict."""
        gap = "" if self.verdict == BEST else f"+{self.gap:.1f} [{self.gap_low:+.1f}, {self.gap_high:+.1f}]"
        expected = f"{self.expected:.1f} [{self.low:.1f}, {self.high:.1f}]"
        verdict = verdict_word(self.verdict, self.gap)
        return (self.label, expected, gap, f"{self.p_out:.0%}", str(self.rollouts), verdict)


@dataclass(frozen=True)
class Analysis:
    """Every legal move of one seat's view, best first, and how the search ended."""

    seat: int
    moves: list[MoveValue]
    rollouts: int
    seconds: float
    stopped: str  # "apart": nothing left to learn for the rounds' aim; "budget": the time or rollouts were spent
    seed: int
    policy: str
    #: Sample indices 0 … deals − 1 were dealt (each move played out on some of them): fresh deals start after.
    deals: int = 0
    #: How closely every gap to the best was to be known (95% half-width, points).
    precision: float = PRECISION
    #: How many moves other than the best have a gap known to ``precision`` points or too close to call, on
    #: enough rollouts (the rounds' own test): when it is all of them, the analysis has said what it set out to.
    settled: int = 0
    #: The rollouts themselves, so that ``analyse(..., resume=this)`` can continue the search.
    search: Search | None = field(default=None, repr=False, compare=False)
    #: Were the deals read from the turns on the pile (``analyse(..., infer=True)``)?
    infer: bool = False
    #: What the rounds were for (:data:`~cut_tutor.analysis.search.Aim`): ``"apart"`` after ``"gaps"`` means every
    #: gap known to ``precision``, after ``"verdicts"`` every verdict settled.
    aim: str = "gaps"
    #: The moves whose price was asked (their texts): the move the learner made or is about to make.
    focus: tuple[str, ...] = ()

    @property
    def best(self) -> MoveValue:
        """The move the search found best among those not eliminated (the guide's *Analysis*)."""
        return next(m for m in self.moves if m.verdict == BEST)

    def to_frame(self) -> pd.DataFrame:
        """One row per legal move, best first."""
        import pandas as pd

        return pd.DataFrame([m.to_dict() for m in self.moves], columns=COLUMNS)

    def _repr_html_(self) -> str:
        scale = max(1.0, *(m.high for m in self.moves if m.high < float("inf")))
        rows = []
        for m in self.moves:
            width, colour = max(0.0, m.expected) / scale * 100, _COLOUR[m.verdict]
            low, high = (max(0.0, m.low) / scale * 100, min(scale, m.high) / scale * 100)
            bar = (
                f'<div style="position:relative;width:180px;height:12px;background:#eee">'
                f'<div style="width:{width:.1f}%;height:100%;background:{colour}"></div>'
                f'<div style="position:absolute;top:5px;left:{low:.1f}%;width:{max(0.5, high - low):.1f}%;'
                f'height:2px;background:#111"></div></div>'
            )
            label, expected, *rest = (escape(cell) for cell in m.cells())
            rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in (label, expected, bar, *rest)) + "</tr>")
        head = "".join(f"<th>{h}</th>" for h in (*HEADINGS[:2], "", *HEADINGS[2:5], ""))
        caption = analysis_caption(self.seat, self.policy, self.status)
        return f'<table class="cut-analysis"><caption>{escape(caption)}</caption><tr>{head}</tr>{"".join(rows)}</table>'

    def lines(self) -> list[str]:
        """The table as plain text, a row per move under :data:`HEADINGS` (``cut-tutor analyse``)."""
        return aligned([HEADINGS, *(m.cells() for m in self.moves)])

    @property
    def more_seconds(self) -> float | None:
        """About how long, at this analysis' pace, continuing it would take to settle every gap not yet known to
        its precision; None when none is left. A gap known to ±h points on n deals narrows as the square root of
        its deals, so it needs about n·(h / precision)² of them, and the best as many as the neediest; one too close
        to call needs only its first :data:`~.stats.MIN_ROLLOUTS`. A guide to *Analyse longer*, not a promise: a gap
        may turn too close to call sooner, or its spread grow."""
        best, needs = self.best, []
        for m in self.moves:
            half = (m.gap_high - m.gap_low) / 2
            if m.verdict == BEST or not math.isfinite(half):
                continue
            if m.verdict == CLOSE:
                needs.append((m.rollouts, max(m.rollouts, MIN_ROLLOUTS)))
            else:
                needs.append((m.rollouts, math.ceil(m.rollouts * max(1.0, half / self.precision) ** 2)))
        extra = sum(need - n for n, need in needs) + max([0, *(need - best.rollouts for _, need in needs)])
        if not extra or not self.rollouts:
            return None
        return extra * self.seconds / self.rollouts

    @property
    def status(self) -> str:
        """How the search ended and how much of it is known, in words (the coach panel's line)."""
        priced = any(text != str(self.best.move) for text in self.focus)
        return analysis_status(self.rollouts, self.seconds, self.stopped, self.settled, len(self.moves) - 1,
                               self.precision, self.more_seconds, self.aim, priced)  # fmt: skip


_COLOUR = {BEST: "#2a7", CLOSE: "#9bd", WORSE: "#d88"}
