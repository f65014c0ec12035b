"""Progress over time: accuracy and points lost per hand across games, as a table, a figure and CSV, with how many
mistakes of each kind (:mod:`~cut_tutor.review.kinds`) every hand had."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..storage.files import write_atomic
from .hand import HandReview
from .kinds import KINDS, kind_counts

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

COLUMNS = ["game", "hand", "seat", "points", "accuracy", "lost", "lost_to_mistakes", "inaccuracy", "mistake",
           "blunder", "luck"]  # fmt: skip
#: The kind columns that follow: one count per kind of mistake, named ``kind_<kind>``.
KIND_COLUMNS = [f"kind_{name}" for name in KINDS]


def progress_frame(reviews: Iterable[tuple[Mapping[str, Any], HandReview]]) -> pd.DataFrame:
    """One row per reviewed hand, in the order given: ``(key, review)`` pairs, the key naming ``game`` and ``hand``
    and, optionally, ``kinds``: the kind of each graded decision (as :meth:`Drills.reviewed` gives them)."""
    import pandas as pd

    rows = []
    for key, hand in reviews:
        s = hand.summary
        rows.append({"game": key.get("game"), "hand": key.get("hand"), "seat": s.seat, "points": s.points,
                     "accuracy": s.accuracy, "lost": s.lost, "lost_to_mistakes": s.lost_to_mistakes,
                     **{name: s.graded.get(name, 0) for name in ("inaccuracy", "mistake", "blunder")},
                     "luck": s.luck,
                     **{f"kind_{name}": n for name, n in kind_counts(key.get("kinds", ())).items()}})  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS + KIND_COLUMNS)


#: The colour the figure's text and axes are drawn in, swapped for ``currentColor`` in :func:`progress_svg`.
_INK = "#010203"


def progress_figure(frame: pd.DataFrame, ink: str = "black") -> Figure:
    """Accuracy (left axis) and points lost to graded mistakes (right axis) hand after hand: the losses clear of
    noise, as the accuracy counts them, so a short analysis' noise moves neither. ``ink``: text and axes."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    # the colours artists take when they are made
    with rc_context({"text.color": ink, "axes.labelcolor": ink, "axes.edgecolor": ink, "xtick.color": ink,
                     "ytick.color": ink}):  # fmt: skip
        figure = Figure(figsize=(7, 3.2))
        ax = figure.subplots()
        x = range(1, len(frame) + 1)
        lost = ax.twinx()
        lost.bar(x, frame["lost_to_mistakes"], width=0.6, color="#d88", alpha=0.5, label="points lost to mistakes")
        lost.set_ylabel("points lost to mistakes")
        lost.set_ylim(bottom=0)
        ax.plot(x, frame["accuracy"], marker="o", color="#2a7", label="accuracy")
        ax.set(xlabel="hand", ylabel="accuracy (%)", ylim=(0, 105))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
        ax.set_xlim(0.4, len(frame) + 0.6)
        ax.set_zorder(lost.get_zorder() + 1)  # the accuracy line over the bars
        ax.patch.set_visible(False)
        lost.patch.set_visible(False)  # the figure's own background shows through (none, in the SVG)
        figure.legend(loc="upper center", ncol=2, frameon=False)
        figure.tight_layout(rect=(0, 0, 1, 0.9))
    return figure


def progress_svg(frame: pd.DataFrame, alt: str) -> str:
    """The progress figure as inline SVG: transparent, its text and axes in the page's own text colour
    (``currentColor``), so it reads in the light and the dark theme alike; ``alt`` is its accessible name."""
    from io import StringIO

    from matplotlib import rc_context

    figure = progress_figure(frame, ink=_INK)
    figure.patch.set_alpha(0.0)
    out = StringIO()
    with rc_context({"svg.hashsalt": "cut-progress"}):  # the same figure, the same markup
        figure.savefig(out, format="svg", metadata={"Date": None})
    svg = out.getvalue()
    svg = svg[svg.index("<svg") :].replace(_INK, "currentColor")
    # Inline, its ids and its stylesheet are the page's: name the ids after this plot and keep the style to it.
    prefix = "cut-" + hashlib.sha1(svg.encode()).hexdigest()[:8] + "-"
    svg = re.sub(r'(\bid="|url\(#|href="#)', rf"\g<1>{prefix}", svg)
    svg = svg.replace('<style type="text/css">*{', f'<style type="text/css">#{prefix}plot *{{', 1)
    label = escape(alt, quote=True)
    head = f'<svg id="{prefix}plot" role="img" aria-label="{label}" style="max-width: 100%; height: auto" '
    return svg.replace("<svg ", head, 1)


def progress_csv(frame: pd.DataFrame, path: str | Path) -> Path:
    """The table as CSV, written atomically."""
    return write_atomic(path, frame.to_csv(index=False))


def kind_totals(frame: pd.DataFrame) -> dict[str, int]:
    """How many mistakes of each kind the hands of ``frame`` had, every kind present, in the kinds' order."""
    return {name: int(frame[f"kind_{name}"].sum()) for name in KINDS}
