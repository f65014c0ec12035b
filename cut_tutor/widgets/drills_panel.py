"""The drills panel: the learner's due drills one at a time, each position on a table as the seat saw it (the answer
hidden until one of its moves is chosen), and the
progress panel: the plot of accuracy and points lost over the reviewed hands, a small table with the mistakes'
kinds, and the table as a CSV download.

Answers go to the learner's :class:`~cut_tutor.review.Drills` deck, which schedules the drill again (FSRS).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from cut_tutor.analysis import Analysis
from cut_tutor.engine import Move, View
from cut_tutor.engine.words import seat_names
from cut_tutor.review import Drill, Drills, HandReview, progress_frame
from cut_tutor.review.drills import judge
from cut_tutor.review.hand import position_analysis
from cut_tutor.review.progress import kind_totals, progress_svg
from cut_tutor.review.words import (
    NEXT_DRILL,
    NO_DRILLS,
    NO_PROGRESS,
    PROGRESS_DOWNLOAD,
    PROGRESS_HANDS,
    PROGRESS_TITLE,
    drill_heading,
    kinds_line,
    progress_alt,
    retry_verdict,
)

from .move_table import analysis_html
from .position import PositionTable
from .scores import download_link
from .shared import Shown
from .table import move_label

if TYPE_CHECKING:
    import pandas as pd


def progress_alt_of(frame: pd.DataFrame) -> str:
    """The plot's text alternative: how many hands, their mean accuracy and points lost to mistakes."""
    return progress_alt(len(frame), float(frame["accuracy"].mean()), float(frame["lost_to_mistakes"].mean()))


def progress_plot(frame: pd.DataFrame) -> str:
    """The progress plot of ``frame`` (at least one hand) as a captioned figure: inline SVG in the theme's text
    colour, named by its text alternative."""
    svg = progress_svg(frame, progress_alt_of(frame))
    caption = f"<figcaption>{escape(PROGRESS_TITLE)}</figcaption>"
    return f'<figure class="cut-progress-plot" style="margin: 0">{svg}{caption}</figure>'


def _analysis_of(drill: Drill) -> Analysis:
    """A drill's position analysed as the review analyses a decision."""
    return position_analysis(drill.record, drill.seat, drill.ply)


class DrillsPanel(Shown):
    """The due drills of ``drills``, oldest due first, and (with ``frame``, a
    :func:`~cut_tutor.review.progress_frame`) the progress plot. ``analyser`` judges an answer; ``names`` and
    ``colours`` are the seats' on the drill's table."""

    def __init__(
        self,
        drills: Drills,
        *,
        analyser: Callable[[Drill], Analysis] = _analysis_of,
        frame: pd.DataFrame | None = None,
        names: Sequence[str] | None = None,
        colours: Sequence[str] | None = None,
    ) -> None:
        self.drills, self.analyser, self.names = drills, analyser, names
        self.due: list[Drill] = []
        self.index = 0
        self.verdict = ""
        self.analysis: Analysis | None = None
        self._heading = w.HTML()
        self.position = PositionTable(self.choose, colours)
        self._said = w.HTML()
        self._shown = w.HTML()
        self._shown.add_class("cut-answer")  # the answer's analysis table, kept to the page's width
        self._next = w.Button(description=NEXT_DRILL)
        self._next.on_click(lambda _: self.refresh())
        self._plot = w.HTML()  # empty until a plot is drawn
        self.root = w.VBox([self._heading, self.position.box, self._said, self._shown, self._next, self._plot])
        self.refresh()
        if frame is not None:
            self.show_progress(frame)

    @property
    def current(self) -> Drill | None:
        """The drill on show, ``None`` when none is due."""
        return self.due[self.index] if self.index < len(self.due) else None

    def refresh(self) -> None:
        """Read the due drills again (after an answer, the one answered is scheduled later) and show the first."""
        self.due, self.index, self.verdict, self.analysis = self.drills.due(), 0, "", None
        self._said.value = self._shown.value = ""
        drill = self.current
        if drill is None:
            self._heading.value = escape(NO_DRILLS)
            self.position.hide()
            return
        title = self.position.show(drill.view(), self.names, asking=True)
        self._heading.value = escape(drill_heading(0, len(self.due), title))

    def moves(self) -> list[str]:
        """The buttons' labels of the current drill's legal moves (nothing of the answer)."""
        drill = self.current
        if drill is None:
            return []
        seen = drill.view()
        return [move_label(Move.parse(m), seen, self._names(seen)) for m in seen["legal"]]

    def _names(self, seen: View) -> list[str]:
        return seat_names(seen["players"], self.names)

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
        seen = drill.view()
        self.position.show(seen, self.names, asking=False)
        self._said.value = escape(self.verdict)
        labels = {Move.parse(m): move_label(Move.parse(m), seen, self._names(seen)) for m in seen["legal"]}
        self._shown.value = analysis_html(self.analysis, labels, Move.parse(move))
        return self.verdict

    def show_progress(self, frame: pd.DataFrame) -> str:
        """Draw the progress plot of ``frame``; the markup shown."""
        self._plot.value = progress_plot(frame)
        return str(self._plot.value)


#: The reviewed hands the progress panel's table lists (the newest); the plot and the CSV hold them all.
TABLE_ROWS = 10
#: The progress table's look, in the page's own colours (light or dark), and the panel kept to the page's width.
TABLE_STYLE = (".cut-progress-table { border-collapse: collapse; } .cut-progress-table caption { text-align: left; }"
               " .cut-progress-table td, .cut-progress-table th { padding: 2px 6px; text-align: right;"
               " border-bottom: 1px solid var(--jp-border-color2, #ccc); }"
               " .cut-progress-fit, .cut-progress-fit > .widget-html-content { min-width: 0; max-width: 100%; }"
               )  # fmt: skip


class ProgressPanel(Shown):
    """The learner's progress across games, from their kept reviews (:meth:`Drills.reviewed`): the plot with its
    text alternative, a table of the newest hands, the most frequent kinds of mistake, and a CSV download named
    after ``learner``. :meth:`show` is its twin, called after each review."""

    def __init__(self, learner: str = "you") -> None:
        self.learner = learner
        self._reviewed: Sequence[tuple[dict[str, Any], HandReview]] = []
        self._frame: pd.DataFrame | None = None
        self.csv = ""
        self.alt = NO_PROGRESS
        self.plot = w.HTML()
        self.table = w.HTML()
        self.link = w.HTML()
        self.root = w.VBox([self.plot, self.table, self.link])
        self.root.add_class("cut-progress")
        for part in (self.plot, self.table):
            part.add_class("cut-progress-fit")  # narrower than its content on a phone: the table scrolls instead
        self.draw([])

    @property
    def frame(self) -> pd.DataFrame:
        """The reviewed hands as a table, made when first asked for: a learner with none starts without pandas."""
        if self._frame is None:
            self._frame = progress_frame(self._reviewed)
        return self._frame

    @property
    def filename(self) -> str:
        """The CSV's name: the learner's, so a teacher gathering a class's files knows whose each is."""
        return f"cut-progress-{self.learner}.csv"

    def show(self, reviewed: Sequence[tuple[dict[str, Any], HandReview]]) -> pd.DataFrame:
        """Show the progress of ``reviewed`` (``(key, review)`` pairs, oldest first); the table shown and offered."""
        self.draw(reviewed)
        return self.frame

    def draw(self, reviewed: Sequence[tuple[dict[str, Any], HandReview]]) -> None:
        """Show ``reviewed`` without returning its table, which is made only when there is a hand to show."""
        self._reviewed, self._frame = reviewed, None
        if not reviewed:  # one row per reviewed hand: none to show
            self.csv, self.alt = "", NO_PROGRESS
            self.plot.value, self.table.value, self.link.value = escape(NO_PROGRESS), "", ""
            return
        frame = self.frame
        self.alt = progress_alt_of(frame)
        self.plot.value = progress_plot(frame)
        self.table.value = self.table_html()
        self.csv = frame.to_csv(index=False)
        link = download_link(self.filename, "text/csv", self.csv, PROGRESS_DOWNLOAD)
        self.link.value = f"<span style='text-decoration: underline'>{link}</span>"  # it reads as a link

    def table_html(self) -> str:
        """The newest reviewed hands (game, hand, accuracy, points lost to mistakes, graded moves) and the most
        frequent kinds."""
        frame = self.frame.tail(TABLE_ROWS)
        head = "".join(f'<th scope="col">{h}</th>' for h in ("Game", "Hand", "Accuracy", "Lost to mistakes", "Graded"))
        body = "".join(
            f"<tr><td>{escape(str(r['game'])[:8])}</td><td>{r['hand']}</td><td>{r['accuracy']:.1f}%</td>"
            f"<td>{r['lost_to_mistakes']:.1f}</td><td>{r['inaccuracy'] + r['mistake'] + r['blunder']}</td></tr>"
            for r in frame.to_dict("records")
        )
        kinds = kinds_line(kind_totals(self.frame))
        scroller = f"<div style='overflow-x: auto' tabindex='0' role='region' aria-label='{escape(PROGRESS_HANDS)}'>"
        return (f"<style>{TABLE_STYLE}</style><p>{escape(self.alt)}</p>{scroller}<table class='cut-progress-table'>"
                f"<caption>{escape(PROGRESS_HANDS)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
                f"<p>Most frequent mistakes: {escape(kinds)}</p>")  # fmt: skip
