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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape

from cut_tutor.analysis import Analysis, MoveValue
from cut_tutor.coach import Advice
from cut_tutor.coach.scoring import COMPONENTS
from cut_tutor.coach.words import (
    COLUMN_HELP,
    COMPONENT_HELP,
    PARTS_HIDE,
    PARTS_SHOW,
    differs_from,
    take_choice,
    verdict_word,
)
from cut_tutor.engine import Move
from cut_tutor.engine.moves import TAKE
from cut_tutor.engine.words import face, move_labels, pile_number

_CSS = (pathlib.Path(__file__).parent / "static" / "move_table.css").read_text(encoding="utf-8")
#: The class the page looks for to send a row's click to the app.
TABLE_CLASS = "cut-mt"


@dataclass(frozen=True)
class MoveRow:
    """One choice as the analysis table shows it: a legal move, or every take that differs only by the card shown."""

    move: Move
    label: str
    components: dict[str, float]  # empty in a table of the rollouts alone
    total: float | None
    behind: float  # how far its total is below the coach's best (0 for the best)
    recommended: bool
    selected: bool
    rollout: MoveValue | None  # the Monte-Carlo figures, once the analysis of this position has run
    detail: str = ""  # a grouped take: the card its figures are for, and the others


def move_rows(advice: Advice, analysis: Analysis | None = None, selected: Move | None = None) -> list[MoveRow]:
    """Every candidate of the advice, in the coach's order, with the rollouts of the same move when there are;
    takes that differ only by the card shown are one row."""
    best = max(c.total for c in advice.candidates)
    rollouts = {m.move: m for m in analysis.moves} if analysis is not None else {}
    rows = [
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
    return group_takes(rows)


def analysis_rows(analysis: Analysis, labels: Mapping[Move, str], chosen: Move | None = None) -> list[MoveRow]:
    """The rollouts alone, best first, each move in the table's words (``labels``), the learner's ``chosen`` one
    marked: what a retry and a drill show once the learner has answered."""
    rows = [
        MoveRow(m.move, labels.get(m.move, m.label), {}, None, 0.0, False, m.move == chosen, m) for m in analysis.moves
    ]
    return group_takes(rows)


def group_takes(rows: Sequence[MoveRow]) -> list[MoveRow]:
    """Takes of the pile that differ only by the card shown (R11) as one choice, where the first of them stood:
    its figures are those of the one selected, else of the best of them (the fewest expected points, else the
    coach's highest total), the card shown a detail. A row of them that is selected or recommended keeps its mark."""
    takes = [r for r in rows if r.move.kind == TAKE]
    if len(takes) < 2:
        return list(rows)

    def worth(r: MoveRow) -> float:
        if all(t.rollout is not None for t in takes):
            return r.rollout.expected if r.rollout is not None else 0.0
        return -(r.total or 0.0)

    best = next((t for t in takes if t.selected), None) or min(takes, key=worth)
    cards = [_shown(t.move) for t in takes if t is not best and t.move.rank]
    bare = move_labels([Move(TAKE)])[Move(TAKE)]
    one = replace(
        best,
        label=bare,
        detail=take_choice(_shown(best.move) if best.move.rank else None, cards),
        recommended=any(t.recommended for t in takes),
        selected=any(t.selected for t in takes),
    )
    first = rows.index(takes[0])
    return [one if k == first else r for k, r in enumerate(rows) if r.move.kind != TAKE or k == first]


def _shown(move: Move) -> str:
    """The card a take shows, and the pile it comes from when not the hand."""
    return face(move.rank) + (f" from {pile_number(move.stacks[0])}" if move.stacks else "")


def _bar(value: float, scale: float) -> str:
    """A bar from the middle: right (green) for value, left (red) for cost; its width is the share of ``scale``."""
    width = min(50.0, abs(value) / scale * 50) if scale else 0.0
    side = "cut-mt-plus" if value >= 0 else "cut-mt-minus"
    return f'<span class="cut-mt-bar" aria-hidden="true"><span class="{side}" style="width:{width:.1f}%"></span></span>'


def _head(name: str, text: str) -> str:
    return f'<th scope="col"><abbr title="{escape(name)}: {escape(text)}">{escape(name)}</abbr></th>'


def move_table_html(rows: Sequence[MoveRow], coach: str = "", pickable: bool = True) -> str:
    """The table, narrow enough for a phone: the move (a button that selects the play on the table when
    ``pickable``), then, once the rollouts are in, the expected points and the gap to the best with their intervals
    and the verdict (before them, how far the coach puts it behind its best). Each move's value by part, the total
    and its rollouts sit in a row under it, shown by the *parts* button. Each heading explains itself."""
    mc = any(r.rollout is not None for r in rows)
    parts = any(r.components for r in rows)
    if mc:
        heads = [_head(c, COLUMN_HELP[c]) for c in ("expected", "gap", "verdict")]
    else:
        heads = [_head("behind", COLUMN_HELP["behind"])]
    width = 1 + len(heads)
    scale = max((abs(v) for r in rows for v in [*r.components.values(), r.total or 0.0]), default=0.0)
    body = []
    for r in rows:
        body.append(_row(r, mc, pickable))
        if parts:
            body.append(f'<tr class="cut-mt-parts"><td colspan="{width}">{_parts(r, scale)}</td></tr>')
    if mc:
        caption = "Each move played out on deals like yours: your expected points for the hand (lower is better)"
    else:
        caption = f"{escape(coach)}'s value of every legal move, against its best"
    if pickable:
        caption += "; click a move to select it"
    toggle = (
        f'<button type="button" class="cut-mt-toggle" aria-expanded="false" data-show="{escape(PARTS_SHOW)}" '
        f'data-hide="{escape(PARTS_HIDE)}">{escape(PARTS_SHOW)}</button>'
        if parts else ""
    )  # fmt: skip
    return (
        f'<style>{_CSS}</style><div class="{TABLE_CLASS}"><p class="cut-mt-caption">{caption}</p>{toggle}'
        f'<table aria-label="{caption}"><thead><tr><th scope="col">move</th>{"".join(heads)}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _row(r: MoveRow, mc: bool, pickable: bool) -> str:
    """A move's row: its name and marks, then the verdict's columns."""
    marks = [m for m, on in (("★\u00a0recommended", r.recommended), ("●\u00a0" + ("selected" if pickable else
             "your choice"), r.selected)) if on]  # fmt: skip
    classes = " ".join(c for c, on in (("cut-mt-rec", r.recommended), ("cut-mt-sel", r.selected)) if on)
    name = (
        f'<button class="cut-mt-pick" data-move="{escape(str(r.move))}" aria-pressed="{str(r.selected).lower()}" '
        f'title="Select this play on the table">{escape(r.label)}</button>'
        if pickable else f"<b>{escape(r.label)}</b>"
    )  # fmt: skip
    notes = "".join(f"<small>{escape(n)}</small>" for n in [r.detail, " ".join(marks)] if n)
    cells = [f'<th scope="row">{name}{notes}</th>']
    if mc:
        cells += _rollout_cells(r.rollout)
    else:
        cells.append(f'<td class="cut-mt-n">{"—" if not r.behind else f"−{r.behind:.1f}"}</td>')
    move = f' data-move="{escape(str(r.move))}"' if pickable else ""
    return f'<tr{move} class="{classes}">{"".join(cells)}</tr>'


def _parts(r: MoveRow, scale: float) -> str:
    """A move's value by part with a bar each, its total, and how many deals played it out."""
    items = [
        f'<li title="{escape(p)}: {escape(COMPONENT_HELP[p])}">{escape(p)} {_bar(r.components[p], scale)}'
        f"{r.components[p]:.1f}</li>"
        for p in COMPONENTS
        if p in r.components
    ]
    if r.total is not None:
        items.append(f'<li class="cut-mt-total">total {_bar(r.total, scale)}<b>{r.total:.1f}</b></li>')
    if r.rollout is not None:
        items.append(f'<li title="rollouts: {escape(COLUMN_HELP["rollouts"])}">{r.rollout.rollouts} rollouts</li>')
    return f'<ul class="cut-mt-partlist" aria-label="{escape(r.label)}, by part">{"".join(items)}</ul>'


def _rollout_cells(m: MoveValue | None) -> list[str]:
    """Expected points ± its interval, the gap with its interval, the verdict's word."""
    if m is None:
        return ['<td class="cut-mt-n">—</td>'] * 3
    half = (m.high - m.low) / 2
    expected = f'<td class="cut-mt-n">{m.expected:.1f}<small>± {half:.1f}</small></td>'
    if m.verdict == "best":
        gap = '<td class="cut-mt-n">—</td>'
    else:
        gap = f'<td class="cut-mt-n">+{m.gap:.1f}<small>[{m.gap_low:+.1f}, {m.gap_high:+.1f}]</small></td>'
    word = escape(verdict_word(m.verdict, m.gap))
    kind = {"best": "cut-mt-best", "close": "cut-mt-close"}.get(m.verdict, "cut-mt-worse")
    return [expected, gap, f'<td class="cut-mt-verdict"><span class="{kind}">{word}</span></td>']


def analysis_html(analysis: Analysis, labels: Mapping[Move, str], chosen: Move | None = None) -> str:
    """The rollouts of a position, read-only, in the table's words, the learner's choice marked."""
    return move_table_html(analysis_rows(analysis, labels, chosen), pickable=False)


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
