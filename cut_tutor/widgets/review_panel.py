"""The hand review of a finished hand: every decision of the seat graded, the summary, a step to the next or
previous mistake, and *Find a better move* (the guide's *Hand review* page).

A retry puts the position back on a table as the seat saw it (:class:`~.position.PositionTable`), its legal moves
the table's own buttons, the answer hidden; only after a choice does it say how the move compares and show the
analysis. Every control has a Python twin, so the tests drive it as a click does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from html import escape
from typing import Any

import ipywidgets as w

from cut_tutor.analysis import Analysis
from cut_tutor.engine import Move, replay, view
from cut_tutor.engine.words import seat_names
from cut_tutor.review import Decision, HandReview
from cut_tutor.review.drills import judge
from cut_tutor.review.hand import ROLLOUTS, position_analysis
from cut_tutor.review.words import (
    FIND_BETTER,
    NEXT_MISTAKE,
    NO_MISTAKES,
    PREVIOUS_MISTAKE,
    RETRY_ASK,
    REVIEW_COLUMNS,
    retry_verdict,
    review_cells,
    review_summary,
    turn_number,
)

from .move_table import analysis_html
from .position import PositionTable
from .shared import Shown
from .table import move_label

#: Analyses a decision's position again: ``(record, seat, ply) -> Analysis``.
Analyser = Callable[[Mapping[str, Any], int, int], Analysis]


class ReviewPanel(Shown):
    """The review table of ``hand`` (a :func:`~cut_tutor.review.review` of ``record``), with its controls.

    ``analyser`` gives the analysis a retry reveals; by default the review's own evaluation of the position (read
    again, or made again with the review's ``rollouts``: pass those the review was made with), so the retry agrees
    with the table.
    ``names`` name the seats as the table does; ``colours`` are theirs on the retry's table.
    """

    def __init__(
        self,
        record: Mapping[str, Any],
        hand: HandReview,
        *,
        names: Sequence[str] | None = None,
        colours: Sequence[str] | None = None,
        rollouts: int = ROLLOUTS,
        analyser: Analyser | None = None,
    ) -> None:
        self.record, self.hand, self.names = dict(record), hand, names
        self.seat = hand.summary.seat
        self.analyser: Analyser = analyser or partial(position_analysis, rollouts=rollouts)
        self.selected: int | None = None  # index into hand.decisions
        self.retrying = False
        self.verdict = ""
        self.analysis: Analysis | None = None  # shown only once a retry is answered
        self._rows = [self._row(d) for d in hand.decisions]
        self._summary = w.HTML(escape(self.summary()))
        self._table = w.HTML()
        self._previous = w.Button(description=PREVIOUS_MISTAKE)
        self._next = w.Button(description=NEXT_MISTAKE)
        self._find = w.Button(description=FIND_BETTER, disabled=True)
        self._previous.on_click(lambda _: self.previous_mistake())
        self._next.on_click(lambda _: self.next_mistake())
        self._find.on_click(lambda _: self.retry())
        self.position = PositionTable(self.choose, colours)
        self._said = w.HTML()  # the question, above the position
        self._verdict = w.HTML()  # the answer's verdict, under it, above the analysis
        self._shown = w.HTML()
        self._shown.add_class("cut-answer")  # the answer's analysis table, kept to the page's width
        self.root = w.VBox([self._summary, self._table, w.HBox([self._previous, self._next, self._find]),
                          self._said, self.position.box, self._verdict, self._shown])  # fmt: skip
        self._draw()

    # -- what is shown -------------------------------------------------------------------------------------------

    def _view(self, ply: int) -> dict[str, Any]:
        return dict(view(replay(self.record, upto=ply), self.seat))

    def _label(self, move: str, ply: int) -> str:
        seen = self._view(ply)
        return move_label(Move.parse(move), seen, seat_names(seen["players"], self.names))

    def summary(self) -> str:
        """The summary line: accuracy, points lost to mistakes, luck and the grades' counts."""
        s = self.hand.summary
        return review_summary(s.accuracy, s.lost_to_mistakes, s.luck, s.graded)

    def _row(self, d: Decision) -> dict[str, str]:
        cells = review_cells(turn_number(self._view(d.ply)), self._label(d.move, d.ply), d.coaches,
                             self._label(d.best, d.ply), d.loss, d.loss_low, d.loss_high, d.grade)  # fmt: skip
        return dict(zip(REVIEW_COLUMNS, cells, strict=True))

    def rows(self) -> list[dict[str, str]]:
        """The table's rows as shown: the turn (as the rules count turns, as the drills do), the move made, the
        coaches it followed, the best in the buttons' words, the loss ± its interval and the grade's mark."""
        return [dict(row) for row in self._rows]

    def _draw(self) -> None:
        head = "".join(f"<th>{escape(c)}</th>" for c in REVIEW_COLUMNS)
        body = []
        for k, row in enumerate(self.rows()):
            style = ' style="background:#fde8b0"' if k == self.selected else ""
            body.append(f"<tr{style}>" + "".join(f"<td>{escape(v)}</td>" for v in row.values()) + "</tr>")
        empty = "" if self.hand.mistakes() else f"<p>{escape(NO_MISTAKES)}</p>"
        self._table.value = f"<table><tr>{head}</tr>{''.join(body)}</table>{empty}"
        has = bool(self.hand.mistakes())
        self._previous.disabled = self._next.disabled = not has
        self._find.disabled = self.selected is None

    # -- the twins of the controls -------------------------------------------------------------------------------

    def select(self, index: int) -> None:
        """Select a decision of the table (ending any retry)."""
        if not 0 <= index < len(self.hand.decisions):
            raise IndexError(f"review: no decision {index}")
        self.selected, self.retrying, self.verdict, self.analysis = index, False, "", None
        self._said.value = self._verdict.value = self._shown.value = ""
        self.position.hide()
        self._draw()

    def _step(self, forward: bool) -> int | None:
        graded = [k for k, d in enumerate(self.hand.decisions) if d.grade is not None]
        if not graded:
            return None
        here = self.selected if self.selected is not None else -1 if forward else len(self.hand.decisions)
        after = [k for k in graded if k > here] if forward else [k for k in reversed(graded) if k < here]
        target = after[0] if after else (graded[0] if forward else graded[-1])  # wraps round
        self.select(target)
        return self.hand.decisions[target].ply

    def next_mistake(self) -> int | None:
        """Select the next graded decision (wrapping round); its ply, or ``None`` if none is graded."""
        return self._step(True)

    def previous_mistake(self) -> int | None:
        """Select the previous graded decision (wrapping round); its ply, or ``None`` if none is graded."""
        return self._step(False)

    def retry(self) -> list[str]:
        """*Find a better move* at the selected decision: the position on the table as the seat saw it, its legal
        moves the table's buttons, the answer hidden; the buttons' labels."""
        if self.selected is None:
            raise ValueError("review: select a decision to retry")
        ply = self.hand.decisions[self.selected].ply
        self.retrying, self.verdict, self.analysis = True, "", None
        self.position.show(self._view(ply), self.names, asking=True)
        self._said.value, self._verdict.value, self._shown.value = escape(RETRY_ASK), "", ""
        return [a["label"] for a in self.position.widget.table["actions"]]

    def choose(self, move: str) -> str:
        """Answer the retry with ``move`` (its text form): the verdict, then the analysis is shown."""
        if not self.retrying or self.selected is None:
            raise ValueError("review: choose a move after Find a better move")
        ply = self.hand.decisions[self.selected].ply
        seen = self._view(ply)
        self.analysis = self.analyser(self.record, self.seat, ply)
        kind, loss = judge(self.analysis, move)
        self.verdict, self.retrying = retry_verdict(kind, loss), False
        self.position.show(seen, self.names, asking=False)
        self._said.value, self._verdict.value = "", escape(self.verdict)
        labels = {Move.parse(m): self._label(m, ply) for m in seen["legal"]}
        self._shown.value = analysis_html(self.analysis, labels, Move.parse(move))
        return self.verdict
