"""The drills panel: the learner's due drills one at a time (the answer hidden until a move is chosen), and the
progress plot of accuracy and points lost over the reviewed hands.

Answers go to the learner's :class:`~cut_tutor.review.Drills` deck, which schedules the drill again (FSRS).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from html import escape
from io import BytesIO
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from cut_tutor.analysis import Analysis
from cut_tutor.engine import Move
from cut_tutor.engine.words import NEXT_DRILL, NO_DRILLS, PROGRESS_TITLE, drill_heading, retry_verdict
from cut_tutor.review import Drill, Drills, progress_figure
from cut_tutor.review.drills import judge
from cut_tutor.review.hand import position_analysis

from .table import move_label

if TYPE_CHECKING:
    import pandas as pd


def _analysis_of(drill: Drill) -> Analysis:
    """A drill's position analysed as the review analyses a decision."""
    return position_analysis(drill.record, drill.seat, drill.ply)


class DrillsPanel:
    """The due drills of ``drills``, oldest due first, and (with ``frame``, a
    :func:`~cut_tutor.review.progress_frame`) the progress plot. ``analyser`` judges an answer."""

    def __init__(
        self,
        drills: Drills,
        *,
        analyser: Callable[[Drill], Analysis] = _analysis_of,
        frame: pd.DataFrame | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        self.drills, self.analyser, self.names = drills, analyser, names
        self.due: list[Drill] = []
        self.index = 0
        self.verdict = ""
        self.analysis: Analysis | None = None
        self._heading = w.HTML()
        self._choices = w.HBox()
        self._said = w.HTML()
        self._shown = w.HTML()
        self._next = w.Button(description=NEXT_DRILL)
        self._next.on_click(lambda _: self.refresh())
        self._plot = w.Image(format="png", layout=w.Layout(display="none"))  # an empty image until a plot is drawn
        self._plot_title = w.HTML()
        self.root = w.VBox([self._heading, self._choices, self._said, self._shown, self._next, self._plot_title,
                          self._plot])  # fmt: skip
        self.refresh()
        if frame is not None:
            self.show_progress(frame)

    @property
    def widget(self) -> w.VBox:
        """The panel's widget, to place in a page."""
        return self.root

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    @property
    def current(self) -> Drill | None:
        """The drill on show, ``None`` when none is due."""
        return self.due[self.index] if self.index < len(self.due) else None

    def refresh(self) -> None:
        """Read the due drills again (after an answer, the one answered is scheduled later) and show the first."""
        self.due, self.index, self.verdict, self.analysis = self.drills.due(), 0, "", None
        self._said.value = self._shown.value = ""
        drill = self.current
        self._heading.value = escape(drill_heading(0, len(self.due), drill.title) if drill else NO_DRILLS)
        labels = self.moves()
        buttons = []
        for move, label in zip(drill.view()["legal"] if drill else [], labels, strict=True):
            button = w.Button(description=label)
            button.on_click(partial(lambda move, _: self.choose(move), move))
            buttons.append(button)
        self._choices.children = tuple(buttons)

    def moves(self) -> list[str]:
        """The buttons' labels of the current drill's legal moves (nothing of the answer)."""
        drill = self.current
        if drill is None:
            return []
        seen = drill.view()
        return [move_label(Move.parse(m), seen, self.names) for m in seen["legal"]]

    def choose(self, move: str) -> str:
        """Answer the current drill with ``move`` (its text form): recorded in the deck, then the verdict and the
        analysis are shown."""
        drill = self.current
        if drill is None:
            raise ValueError("drills: none is due")
        self.analysis = self.analyser(drill)
        kind, loss = judge(self.analysis, move)
        self.drills.answer(drill, move, self.analysis)
        self.verdict = retry_verdict(kind, loss)
        self._choices.children = ()
        self._said.value = escape(self.verdict)
        self._shown.value = self.analysis._repr_html_()
        return self.verdict

    def show_progress(self, frame: pd.DataFrame) -> bytes:
        """Draw the progress plot of ``frame``; the PNG shown."""
        buffer = BytesIO()
        progress_figure(frame).savefig(buffer, format="png")
        self._plot.value = buffer.getvalue()
        self._plot.layout.display = ""
        self._plot_title.value = escape(PROGRESS_TITLE)
        return bytes(self._plot.value)
