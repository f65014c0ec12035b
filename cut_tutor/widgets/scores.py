"""The scores panel and its tables: this game hand by hand, and the games kept in :class:`~cut_tutor.engine.History`.

>>> from cut_tutor.engine import HandResult, codes
>>> r = HandResult(1, 0, 1, (12, 0), (1, 0), (False, True), "2-2-20-0-1")
>>> "🤖" in game_table(["You", "Daryl"], [r])
True
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as w

from cut_tutor.engine import HandResult, codes
from cut_tutor.engine.words import busts_mark

from .replayer import Replayer
from .shared import YOU, Host
from .table import COLOURS, IntentError


def marks(went_out: bool, busts: int, automated: bool) -> str:
    """A score cell's marks: ★ went out, 💥×n busts (a count, which fits a phone), 🤖 automated.

    >>> marks(True, 8, False)
    '★💥×8'
    """
    return ("★" if went_out else "") + busts_mark(busts) + ("🤖" if automated else "")


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
            mark = marks(r.winner == seat, r.busts[seat], r.automated[seat])
            cells.append(f"<td>{r.scores[seat]} {mark} <small>({totals[seat]})</small></td>")
        rows.append(f"<tr><td>{r.number}</td>{''.join(cells)}</tr>")
    total_row = "".join(f"<td><b>{t}</b></td>" for t in totals)
    return (
        f'<table class="cut-scores"><tr><th>Hand</th>{head}</tr>{"".join(rows)}'
        f"<tr><td><b>Total</b></td>{total_row}</tr></table>"
    )


def download_link(filename: str, mime: str, text: str, label: str) -> str:
    """A link that downloads ``text`` as ``filename`` from the page itself (a ``data:`` URL): it works alike in
    Voilà, JupyterLab and Binder, and nothing is written on the server.

    >>> download_link("a.csv", "text/csv", "x,y", "Download")
    '<a class="cut-download" download="a.csv" href="data:text/csv;charset=utf-8;base64,eCx5">Download</a>'
    """
    data = base64.b64encode(text.encode()).decode()
    return (
        f'<a class="cut-download" download="{escape(filename)}" href="data:{mime};charset=utf-8;base64,{data}">'
        f"{escape(label)}</a>"
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
            mark = marks(bool(cell["went_out"]), int(cell["busts"]), bool(cell["automated"]))
            cells.append(f"<td>{cell['points']} {mark}</td>")
        body.append(f"<tr><td>{hand}</td>{''.join(cells)}</tr>")
    return f'<table class="cut-scores"><tr><th>Hand</th>{head}</tr>{"".join(body)}</table>'


class ScorePanel:
    """The Scores accordion: this game hand by hand, the games played, their print view, CSV and stored replays."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.replayer: Replayer | None = None
        button = host.controls.button
        self.this_game = w.HTML()
        self.replay_pick = w.Dropdown(options=[], description="Hand")
        self.replay_button = button("Replay hand", self._replay_from_form)
        self.replay_box = w.VBox()
        self.games = w.SelectMultiple(options=[], description="Games", layout=w.Layout(width="95%"))
        self.games.observe(lambda _c: self.refresh_scores(), "value")
        self.games_detail = w.HTML()
        self.delete_button = button("Delete selected", self._delete_from_form, button_style="danger")
        self.export_button = button("Export CSV", self._export_from_form)
        self.record_button = button("Download hand record", self._record_from_form)
        self.stored_record_button = button("Download stored hand record", self._stored_record_from_form)
        self.export_note = w.HTML()
        self.print_button = button("Print selected", self._print_from_form)
        self.select_all_button = button("Select all", self.select_all)
        self.stored_pick = w.Dropdown(options=[], description="Stored hand")
        self.stored_button = button("Replay stored hand", self._stored_from_form)
        self.panel = w.Accordion(
            children=[
                w.VBox([
                    w.HTML("<h4>This game</h4>"), self.this_game,
                    w.HBox([self.replay_pick, self.replay_button, self.record_button]),
                    self.replay_box, w.HTML("<h4>Games played</h4>"), self.games, self.games_detail,
                    w.HBox([self.stored_pick, self.stored_button, self.stored_record_button]),
                    w.HBox([self.select_all_button, self.print_button, self.delete_button, self.export_button]),
                    self.export_note,
                ])
            ],
            titles=("Scores",),
        )  # fmt: skip

    # -- twins --------------------------------------------------------------------------------------------

    def delete_games(self, game_ids: list[int]) -> None:
        """Delete finished games from the score history."""
        self.host.history.delete(list(game_ids))
        self.refresh_scores()

    def export_csv(self, path: str | os.PathLike[str] | None = None, game_ids: list[int] | None = None) -> Path:
        """Write the chosen games (default: all) as CSV; returns the file written."""
        out = self.host.history.export_csv(path or self.host.home / "scores.csv", game_ids)
        self.export_note.value = f"Saved <code>{escape(str(out))}</code>"
        return out

    def download_csv(self, game_ids: list[int] | None = None) -> str:
        """The chosen games (default: all) as CSV, offered as a download from the page; returns the CSV."""
        text = self.host.history.csv_text(game_ids)
        self.export_note.value = download_link("cut-scores.csv", "text/csv", text, "Download cut-scores.csv")
        return text

    def hand_record(self, hand: int) -> dict[str, Any]:
        """A finished hand of this game as a record (rules, deal and moves, with your name as the learner),
        offered as a download. Only a finished hand: its record holds every card, which a hand in play never shows.
        """
        game = self.host.sitting.need_game()
        results = {r.number: r for r in game.results}
        if hand not in results:
            raise IntentError(f"hand {hand} has not finished yet")
        record = codes.record(game.rules, results[hand].deal, results[hand].moves) | {"learner": game.names[YOU]}
        return self._offer(record, f"cut-hand-{hand}.json")

    def stored_hand_record(self, game_id: int, hand: int) -> dict[str, Any]:
        """A hand of a finished game from the score history as a record, offered as a download."""
        history = self.host.history
        try:
            record = history.record(game_id, hand)
        except ValueError as exc:
            raise IntentError(str(exc)) from None
        names = next((g["names"] for g in history.games() if g["id"] == game_id), None)
        if names:
            record |= {"learner": names[YOU]}
        return self._offer(record, f"cut-game-{game_id}-hand-{hand}.json")

    def _offer(self, record: dict[str, Any], filename: str) -> dict[str, Any]:
        text = json.dumps(record, indent=1)
        self.export_note.value = download_link(filename, "application/json", text, f"Download {filename}")
        return record

    def select_all(self) -> None:
        """Tick every game played, for Print, Delete or Export to act on all of them."""
        self.games.value = tuple(game_id for _, game_id in self.games.options)

    def print_view(self, game_ids: list[int] | None = None) -> str:
        """A print-friendly page of the chosen games (default: all): summaries and hand-by-hand tables. Opened, it
        asks the browser to print at once: the page exists to be printed or saved as a PDF."""
        history = self.host.history
        games = [g for g in history.games() if game_ids is None or g["id"] in game_ids]
        body = "".join(
            f"<h2>{escape(history_summary(g))}</h2>{history_hands(g['names'], history.hands(g['id']))}" for g in games
        )
        page = (
            "<!doctype html><meta charset='utf-8'><title>CUT scores</title><style>body{font-family:sans-serif;"
            "color:#000;background:#fff}table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}"
            "h2{font-size:14px;break-after:avoid}@page{margin:1in}</style>"
            f"<h1>Clear, Under or Take — games played</h1>{body or '<p>No games selected.</p>'}"
            "<script>addEventListener('load', () => print())</script>"
        )
        self.export_note.value = download_link(
            "cut-scores.html", "text/html", page, f"Print view of {len(games)} game(s): open it to print or save a PDF"
        )
        return page

    def open_stored_replay(self, game_id: int, hand: int) -> Replayer:
        """Open the replayer on a hand of a finished game from the score history."""
        history = self.host.history
        try:
            record = history.record(game_id, hand)
        except ValueError as exc:
            raise IntentError(str(exc)) from None
        names = next((g["names"] for g in history.games() if g["id"] == game_id), None)
        return self._show(Replayer(record, names=names, coach=self.host.sitting.setup.coach))

    def open_replay(self, hand: int) -> Replayer:
        """Open the replayer on a finished hand of this game."""
        host = self.host
        game = host.sitting.need_game()
        results = {r.number: r for r in game.results}
        if hand not in results:
            raise IntentError(f"hand {hand} has not finished yet")
        return self._show(Replayer.from_result(
            results[hand], game.rules, names=game.names,
            colours=[COLOURS[s.colour] for s in host.sitting.setup.seats], coach=host.sitting.setup.coach,
        ))  # fmt: skip

    def _show(self, replayer: Replayer) -> Replayer:
        self.replayer = replayer
        replayer.table.theme = self.host.theme
        self.replay_box.children = [replayer.widget]
        return replayer

    def _replay_from_form(self) -> None:
        if self.replay_pick.value is None:
            raise ValueError("no finished hand to replay yet")
        self.open_replay(int(self.replay_pick.value))

    def _print_from_form(self) -> None:
        self.print_view(list(self.games.value) or None)

    def _stored_from_form(self) -> None:
        if self.stored_pick.value is None:
            raise ValueError("select a game played to replay one of its hands")
        self.open_stored_replay(*self.stored_pick.value)

    def _delete_from_form(self) -> None:
        self.delete_games(list(self.games.value))

    def _export_from_form(self) -> None:
        self.download_csv(list(self.games.value) or None)

    def _record_from_form(self) -> None:
        if self.replay_pick.value is None:
            raise ValueError("no finished hand to download yet")
        self.hand_record(int(self.replay_pick.value))

    def _stored_record_from_form(self) -> None:
        if self.stored_pick.value is None:
            raise ValueError("select a game played to download one of its hands")
        self.stored_hand_record(*self.stored_pick.value)

    # -- drawing ------------------------------------------------------------------------------------------

    def refresh_scores(self) -> None:
        """Redraw this game's score table and the list of games played."""
        game, history = self.host.sitting.game, self.host.history
        if game is not None:
            self.this_game.value = game_table(game.names, game.results)
            options = [(f"Hand {r.number}", r.number) for r in game.results]
            if list(self.replay_pick.options) != options:
                self.replay_pick.options = options
                self.replay_pick.value = options[-1][1] if options else None
        else:
            self.this_game.value = "<p><i>No game in play.</i></p>"
        games = history.games()
        options = [(history_summary(g), g["id"]) for g in games]
        if list(self.games.options) != options:
            self.games.options = options
        chosen = {g["id"]: g for g in games if g["id"] in set(self.games.value)}
        stored = [
            (f"Game #{i}, hand {h}", (i, h)) for i in chosen for h in sorted({r["hand"] for r in history.hands(i)})
        ]
        if list(self.stored_pick.options) != stored:
            self.stored_pick.options = stored
        self.games_detail.value = "".join(
            f"<p>{escape(history_summary(g))}</p>{history_hands(g['names'], history.hands(i))}"
            for i, g in chosen.items()
        )
