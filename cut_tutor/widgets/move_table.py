"""The analysis table: every legal move in the buttons' words, its value by part, and the rollouts beside them.

The table is drawn in Python as HTML from the coach's :class:`~cut_tutor.coach.Advice` (and, once it has run,
the Monte-Carlo :class:`~cut_tutor.analysis.Analysis`), so it is tested without a browser. Each row carries its
move in ``data-move``; the page sends a click on a row to the app, which selects that play on the table.

>>> from cut_tutor.coach import advise
>>> from cut_tutor.engine import Rules, State, view
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> rows = move_rows(advise(view(state, 0), coach="Madonna", level="Expert"))
>>> [(r.label, r.recommended) for r in rows][:2]
[('Play 1× J', True), ('Play 2× 7', False)]
"""

from __future__ import annotations

import pathlib
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from cut_tutor.analysis import Analysis, MoveValue
from cut_tutor.coach import Advice
from cut_tutor.coach.scoring import COMPONENTS
from cut_tutor.engine import Move
from cut_tutor.engine.words import COLUMN_HELP, COMPONENT_HELP, differs_from, verdict_word

_CSS = (pathlib.Path(__file__).parent / "static" / "move_table.css").read_text(encoding="utf-8")
#: The class the page looks for to send a row's click to the app.
TABLE_CLASS = "cut-mt"


@dataclass(frozen=True)
class MoveRow:
    """One legal move as the analysis table shows it."""

    move: Move
    label: str
    components: dict[str, float]
    total: float
    behind: float  # how far its total is below the coach's best (0 for the best)
    recommended: bool
    selected: bool
    rollout: MoveValue | None  # the Monte-Carlo figures, once the analysis of this position has run


def move_rows(advice: Advice, analysis: Analysis | None = None, selected: Move | None = None) -> list[MoveRow]:
    """Every candidate of the advice, in the coach's order, with the rollouts of the same move when there are."""
    best = max(c.total for c in advice.candidates)
    rollouts = {m.move: m for m in analysis.moves} if analysis is not None else {}
    return [
        MoveRow(
            c.move,
            advice.labels[c.move],
            dict(c.components),
            c.total,
            round(best - c.total, 1),
            c.move == advice.move,
            c.move == selected,
            rollouts.get(c.move),
        )
        for c in advice.candidates
    ]


def _bar(value: float, scale: float) -> str:
    """A bar from the middle: right (green) for value, left (red) for cost; its width is the share of ``scale``."""
    width = min(50.0, abs(value) / scale * 50) if scale else 0.0
    side = "cut-mt-plus" if value >= 0 else "cut-mt-minus"
    return f'<span class="cut-mt-bar" aria-hidden="true"><span class="{side}" style="width:{width:.1f}%"></span></span>'


def _head(name: str, text: str) -> str:
    return f'<th scope="col"><abbr title="{escape(name)}: {escape(text)}">{escape(name)}</abbr></th>'


def move_table_html(rows: Sequence[MoveRow], coach: str) -> str:
    """The table: a button per move (clicking it or its row selects the play), a bar per part and the total,
    the gap to the best, and the Monte-Carlo columns when the analysis has run. Each heading explains itself."""
    scale = max((abs(v) for r in rows for v in [*r.components.values(), r.total]), default=0.0)
    mc = any(r.rollout is not None for r in rows)
    heads = [_head(p, COMPONENT_HELP[p]) for p in COMPONENTS] + [_head("total", COLUMN_HELP["total"]),
                                                                 _head("behind", COLUMN_HELP["behind"])]  # fmt: skip
    if mc:
        heads += [_head(c, COLUMN_HELP[c]) for c in ("expected", "gap", "rollouts")]
    body = []
    for r in rows:
        marks = " ".join(m for m, on in (("★\u00a0recommended", r.recommended), ("●\u00a0selected", r.selected)) if on)
        classes = " ".join(c for c, on in (("cut-mt-rec", r.recommended), ("cut-mt-sel", r.selected)) if on)
        cells = [
            f'<th scope="row"><button class="cut-mt-pick" data-move="{escape(str(r.move))}" '
            f'aria-pressed="{str(r.selected).lower()}" title="Select this play on the table">{escape(r.label)}'
            f"</button>{f'<small>{escape(marks)}</small>' if marks else ''}</th>"
        ]
        for part in COMPONENTS:
            value = r.components[part]
            cells.append(f'<td title="{escape(part)}: {escape(COMPONENT_HELP[part])}">{_bar(value, scale)}'
                         f"{value:.1f}</td>")  # fmt: skip
        cells.append(f'<td class="cut-mt-total">{_bar(r.total, scale)}<b>{r.total:.1f}</b></td>')
        cells.append(f"<td>{'—' if not r.behind else f'−{r.behind:.1f}'}</td>")
        if mc:
            cells += _rollout_cells(r.rollout)
        body.append(f'<tr data-move="{escape(str(r.move))}" class="{classes}">{"".join(cells)}</tr>')
    caption = f"{escape(coach)}'s value of every legal move (higher is better); click a move to select it"
    if mc:
        caption += ". Rollouts: your expected points for the hand (lower is better)"
    return (
        f'<style>{_CSS}</style><p class="cut-mt-caption" id="cut-mt-caption">{caption}</p>'
        f'<div class="{TABLE_CLASS}"><table aria-labelledby="cut-mt-caption">'
        f'<thead><tr><th scope="col">move</th>{"".join(heads)}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
    )


def _rollout_cells(m: MoveValue | None) -> list[str]:
    """Expected points ± its interval, the gap with its interval (or the verdict's word), the rollouts."""
    if m is None:
        return ["<td></td>"] * 3
    half = (m.high - m.low) / 2
    expected = f"{m.expected:.1f} ± {half:.1f}"
    if m.verdict == "best":
        gap = '<span class="cut-mt-best">best</span>'
    else:
        interval = f"[{m.gap_low:+.1f}, {m.gap_high:+.1f}]"
        mark = ' <span class="cut-mt-close">≈ too close</span>' if m.verdict == "close" else ""
        gap = f'<span title="{escape(verdict_word(m.verdict, m.gap))}">+{m.gap:.1f} {interval}</span>{mark}'
    return [f"<td>{expected}</td>", f"<td>{gap}</td>", f"<td>{m.rollouts}</td>"]


def compare_html(advices: Sequence[Advice], chosen: str) -> str:
    """Each coach's move and reason side by side; a coach who would play otherwise than the one you chose is
    marked so (the chosen coach's own column is the reference, never a vote)."""
    mine = next(a for a in advices if a.coach == chosen)
    cols = []
    for a in advices:
        differs = a.move != mine.move
        mark = f'<p class="cut-differs">✗ {escape(differs_from(chosen))}</p>' if differs else ""
        who = f"{escape(a.coach)}{' (your coach)' if a is mine else ''}"
        cols.append(
            f'<div class="cut-mt-coach{" cut-mt-differs" if differs else ""}"><h5>{who}</h5>'
            f"<p><b>{escape(a.label)}</b></p>{mark}<p>{escape(a.text)}</p></div>"
        )
    return f'<div class="cut-mt-compare" role="group" aria-label="all three coaches">{"".join(cols)}</div>'
