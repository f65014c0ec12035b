"""The class's page (``class.ipynb`` beside the dashboard): a teacher's live view of every learner, read through
:func:`~cut_tutor.classroom.class_view` as ``cut-tutor class`` reads it, refreshed on a timer or by a button.

It only reads: no learner's file is written, locked or moved. It names learners and nothing that grants access, and
it shows the class only to a teacher (:func:`~cut_tutor.classroom.is_teacher`); to anyone else it says so.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from html import escape
from pathlib import Path

import ipywidgets as w
import pandas as pd

from ..classroom import ClassView, class_view, is_teacher, table_csv
from ..review.progress import progress_svg
from ..review.words import MISTAKE_KINDS, progress_alt
from .shared import default_home

#: Seconds between two readings of the class while the page is open.
REFRESH_SECONDS = 30.0
#: What the page says to anyone the server does not name a teacher.
NOT_A_TEACHER = ("This page shows a class to its teacher only, and this server does not say that you teach the class."
                 " Sign in as the class's teacher to see it.")  # fmt: skip
#: How many kinds of mistake the page lists, most frequent first.
MOST_KINDS = 5
#: The table's headings, in :data:`~cut_tutor.classroom.TABLE_COLUMNS` order.
HEADINGS = {"learner": "Learner", "playing": "Playing now", "games": "Games", "hands": "Hands",
            "points_per_hand": "Points per hand", "busts": "Busts", "last_played": "Last finished (UTC)",
            "unfinished": "Unfinished", "reviewed": "Reviewed hands", "accuracy": "Accuracy (%)",
            "lost_per_hand": "Lost per hand", "kinds": "Most frequent mistakes", "drills": "Drills",
            "tried": "Drills tried", "solved": "Drills solved"}  # fmt: skip

_STYLE = """<style>
.cut-class { width: 100%; max-width: 1200px; padding: 16px; box-sizing: border-box; font-size: 15px; }
.cut-class .widget-html, .cut-class .widget-html-content { max-width: 100%; min-width: 0; }
.cut-class.cut-app-light { background: #ffffff; color: #1b1b1b; }
.cut-class.cut-app-dark { background: #1e1e1e; color: #f1f1f1; }
.cut-class.cut-app-light :is(h1, h2, h3, p, li, th, td, caption, span, svg) { color: #1b1b1b; }
.cut-class.cut-app-dark :is(h1, h2, h3, p, li, th, td, caption, span, svg) { color: #f1f1f1; }
html:has(.cut-class.cut-app-dark),
html:has(.cut-class.cut-app-dark) :is(body, main, .jp-Notebook, .jp-Cell, .jp-OutputArea) { background: #1e1e1e; }
.cut-class h1 { font-size: 1.6em; margin: 0 0 8px; }
.cut-class h2 { font-size: 1.25em; margin: 20px 0 8px; }
.cut-class h3 { font-size: 1.05em; margin: 12px 0 4px; }
.cut-class a { color: #0b57d0; }
.cut-class.cut-app-dark a { color: #8ab4f8; }
.cut-class .cut-class-scroll { overflow-x: auto; max-width: 100%; }
.cut-class table { border-collapse: collapse; font-size: 0.95em; }
.cut-class th, .cut-class td { border: 1px solid #888; padding: 4px 8px; text-align: left; vertical-align: top;
  white-space: nowrap; line-height: 1.4; }
.cut-class td.cut-class-kinds { white-space: normal; min-width: 18em; }
.cut-class caption { text-align: left; }
.cut-class .cut-class-bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.cut-class .cut-class-bar button { min-height: 36px; }
.cut-class.cut-app-dark .cut-class-bar button { background: #3a3a3a; color: #f1f1f1; }
</style>"""


class ClassPage:
    """The class under ``home`` (the tutor home; ``CUT_TUTOR_HOME`` unless given) for a teacher: who plays now, each
    learner's games, points per hand, reviewed hands and drills, accuracy over time, the class's most frequent
    mistakes and the table as CSV. ``environ`` is where the server names who is at the page (the process's own)."""

    def __init__(
        self,
        home: str | os.PathLike[str] | None = None,
        environ: Mapping[str, str] | None = None,
        every: float | None = REFRESH_SECONDS,
    ) -> None:
        self.home = Path(home) if home is not None else default_home()
        self.root = w.VBox()
        self.root.add_class("cut-app")
        self.root.add_class("cut-app-light")
        self.root.add_class("cut-class")
        self.theme = "light"
        self.teacher = is_teacher(environ, self.home)
        self.body = w.HTML()
        self._timer: asyncio.Task[None] | None = None
        if not self.teacher:
            self.body.value = f'{_STYLE}<h1>The class</h1><p role="alert">{escape(NOT_A_TEACHER)}</p>'
            self.root.children = [self.body]
            return
        self.refresh_button = w.Button(description="Refresh", tooltip="Read the class again now")
        self.refresh_button.on_click(lambda _: self.refresh())
        self.theme_button = w.Button(description="Dark", tooltip="Switch between the light and the dark theme")
        self.theme_button.add_class("cut-theme")
        self.theme_button.on_click(lambda _: self.set_theme("dark" if self.theme == "light" else "light"))
        self.status = w.HTML()
        bar = w.HBox([self.refresh_button, self.theme_button, self.status])
        bar.add_class("cut-class-bar")
        self.root.children = [w.HTML(f"{_STYLE}<h1>The class</h1>"), bar, self.body]
        self.view: ClassView | None = None
        self.refresh()
        if every:
            self._start_timer(every)

    def refresh(self) -> None:
        """Read the class again and show it."""
        self.view = class_view(self.home)
        when = datetime.now(UTC).strftime("%H:%M:%S")
        self.status.value = f'<span role="status">Read at {when} UTC; read again every {REFRESH_SECONDS:g} s.</span>'
        self.body.value = render(self.view)

    def set_theme(self, theme: str) -> None:
        """Show the page light or dark."""
        if theme not in ("light", "dark"):
            raise ValueError("theme: use 'light' or 'dark'")
        self.root.remove_class(f"cut-app-{self.theme}")
        self.theme = theme
        self.root.add_class(f"cut-app-{theme}")
        self.theme_button.description = "Light" if theme == "dark" else "Dark"

    def _start_timer(self, every: float) -> None:
        """Read the class every ``every`` seconds on the kernel's own loop, while the page's kernel lives."""

        async def again() -> None:
            while True:
                await asyncio.sleep(every)
                self.refresh()

        try:
            self._timer = asyncio.get_running_loop().create_task(again())
        except RuntimeError:  # no loop runs here (a script): the button still reads the class
            self._timer = None

    def _repr_mimebundle_(self, **kwargs: object) -> object:
        return self.root._repr_mimebundle_(**kwargs)


def _cell(column: str, value: object) -> str:
    if column == "playing":
        return "playing" if value else ""
    if value is None or (not isinstance(value, str) and pd.isna(value)):  # type: ignore[call-overload]
        return "–"
    if column == "last_played":
        return escape(str(value).replace("T", " ")[:16])
    return escape(str(value))


def render(view: ClassView) -> str:
    """The class as the page's HTML: names and figures only."""
    table = view.table
    live = [str(name) for name in table.loc[table["playing"], "learner"]]
    now = f"Playing now: {escape(', '.join(live))}." if live else "Nobody is playing now."
    head = "".join(f'<th scope="col">{HEADINGS[c]}</th>' for c in table.columns)
    rows = "".join(
        "<tr>"
        + "".join(
            f'<th scope="row">{_cell(c, row[c])}</th>'
            if c == "learner"
            else f'<td class="cut-class-kinds">{_cell(c, row[c])}</td>'
            if c == "kinds"
            else f"<td>{_cell(c, row[c])}</td>"
            for c in table.columns
        )
        + "</tr>"
        for _, row in table.iterrows()
    )
    data = base64.b64encode(table_csv(table).encode()).decode()
    csv_link = f'<a download="class.csv" href="data:text/csv;charset=utf-8;base64,{data}">Download the table (CSV)</a>'
    ranked = sorted((k for k, n in view.kinds.items() if n), key=lambda k: -view.kinds[k])[:MOST_KINDS]
    kinds = (
        "<ol>" + "".join(f"<li>{escape(MISTAKE_KINDS[k])}: {view.kinds[k]}</li>" for k in ranked) + "</ol>"
        if ranked
        else "<p>No graded mistakes in the reviewed hands yet.</p>"
    )
    plots = "".join(
        f"<h3>{escape(name)}</h3>"
        + progress_svg(frame, progress_alt(len(frame), frame["accuracy"].mean(), frame["lost_to_mistakes"].mean()))
        for name, frame in view.frames.items()
        if len(frame)
    )
    problems = (
        "<h2>Not read this time</h2><ul>" + "".join(f"<li>{escape(p)}</li>" for p in view.problems) + "</ul>"
        if view.problems
        else ""
    )
    return (
        f"<p>{now}</p><h2>Learners</h2>"
        + (
            f'<div class="cut-class-scroll" role="region" aria-label="The class\'s table" tabindex="0"><table>'
            f"<caption>{len(table)} learners</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
            f"</div><p>{csv_link}</p>"
            if len(table)
            else "<p>No learners yet.</p>"
        )
        + f"<h2>Most frequent mistakes</h2>{kinds}"
        + f"<h2>Accuracy over time</h2>{plots or '<p>No reviewed hands yet.</p>'}"
        + problems
    )
