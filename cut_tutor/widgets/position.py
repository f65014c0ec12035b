"""A past decision on the card table itself, as its seat saw it: what *Find a better move* and the drills show.

It is the table widget in its ``study`` mode: the same hand, Board, pile and opponents as in play, drawn from the
seat's view alone (C2), its moves the table's own buttons and nothing else to press (no Automate, no New game, no
Undo). A press of a move (or of Play, after picking the cards) goes to ``choose``; once answered, the position stays
on show without its moves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as w

from cut_tutor.engine.words import seat_names
from cut_tutor.review.words import position_title

from .table import COLOURS, IntentError, TableWidget, table_data

#: What a study table ignores (the page's own messages) rather than refuses.
_QUIET = ("ready", "theme", "key", "board")


class PositionTable:
    """One position of a recorded hand on a read-only table; ``choose`` hears the move pressed (its text form)."""

    def __init__(self, choose: Callable[[str], object], colours: Sequence[str] | None = None) -> None:
        self.choose = choose
        self.colours = list(colours) if colours else list(COLOURS.values())
        self.widget = TableWidget(self._on_intent)
        self.widget.add_class("cut-study")
        #: What a panel shows: the table while a position is on show, else nothing (not even a hidden table, whose
        #: page would be one more card table on the page).
        self.box = w.VBox()
        self.asking = False

    def show(self, seen: Mapping[str, Any], names: Sequence[str] | None, asking: bool) -> str:
        """Draw ``seen`` (a seat's view: nothing else reaches the page), its moves on offer while ``asking``; the
        title the status line shows."""
        players = int(seen["players"])
        named = seat_names(players, names)
        title = position_title(seen, named)
        shown = seen if asking else {**seen, "legal": []}
        colours = (self.colours * players)[:players]
        self.widget.table = table_data(shown, names=named, colours=colours, mode="study", status=title)
        self.widget.error = ""
        self.asking = asking
        self.box.children = (self.widget,)
        return title

    @property
    def shown(self) -> bool:
        return bool(self.box.children)

    def hide(self) -> None:
        self.asking = False
        self.box.children = ()

    def _on_intent(self, kind: str, value: Any) -> None:
        if kind in _QUIET:
            return
        if kind != "move" or not self.asking:
            raise IntentError("this position is for study: choose one of its moves")
        self.choose(str(value))
