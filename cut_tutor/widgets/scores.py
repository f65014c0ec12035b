"""Score tables as HTML: this game hand by hand, and the games kept in :class:`~cut_tutor.engine.History`.

>>> from cut_tutor.engine import HandResult
>>> r = HandResult(1, 0, 1, (12, 0), (1, 0), (False, True), "2-2-20-0-1")
>>> "🤖" in game_table(["You", "Daryl"], [r])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from cut_tutor.engine import HandResult


def game_table(names: Sequence[str], results: Sequence[HandResult]) -> str:
    """This game's hands with running totals; ★ marks who went out, 💥 busts, 🤖 an automated seat."""
    if not results:
        return "<p><i>No hands finished yet.</i></p>"
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    rows = []
    totals = [0] * len(names)
    for r in results:
        cells = []
        for seat in range(len(names)):
            totals[seat] += r.scores[seat]
            marks = ("★" if r.winner == seat else "") + "💥" * r.busts[seat] + ("🤖" if r.automated[seat] else "")
            cells.append(f"<td>{r.scores[seat]} {marks} <small>({totals[seat]})</small></td>")
        rows.append(f"<tr><td>{r.number}</td>{''.join(cells)}</tr>")
    total_row = "".join(f"<td><b>{t}</b></td>" for t in totals)
    return (
        f'<table class="cut-scores"><tr><th>Hand</th>{head}</tr>{"".join(rows)}'
        f"<tr><td><b>Total</b></td>{total_row}</tr></table>"
    )


def history_summary(game: dict[str, Any]) -> str:
    """One line per finished game: every player and final score, the winner marked."""
    parts = []
    for seat, (name, total) in enumerate(zip(game["names"], game["totals"], strict=True)):
        parts.append(f"{'★' if seat in game['winners'] else ''}{name} {total}")
    return f"#{game['id']} {game['finished']}: " + ", ".join(parts)


def history_hands(names: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """A stored game's hand-by-hand table (rows from :meth:`History.hands`)."""
    by_hand: dict[int, dict[int, dict[str, Any]]] = {}
    for row in rows:
        by_hand.setdefault(row["hand"], {})[row["seat"]] = row
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    body = []
    for hand in sorted(by_hand):
        cells = []
        for seat in range(len(names)):
            cell = by_hand[hand].get(seat)
            if cell is None:
                cells.append("<td></td>")
                continue
            marks = ("★" if cell["went_out"] else "") + "💥" * cell["busts"] + ("🤖" if cell["automated"] else "")
            cells.append(f"<td>{cell['points']} {marks}</td>")
        body.append(f"<tr><td>{hand}</td>{''.join(cells)}</tr>")
    return f'<table class="cut-scores"><tr><th>Hand</th>{head}</tr>{"".join(body)}</table>'
