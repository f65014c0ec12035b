"""The belief panel: what the learner's seat knows of each other seat, the unseen cards by rank, and what the
analysis assumes about the next seat's hidden cards, all from the seat's view (C2).

Built from a view only: re-dealing the hidden cards cannot change what it shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import ipywidgets as w

from cut_tutor.engine.cards import card_name
from cut_tutor.engine.words import seat_name
from cut_tutor.review import Belief, belief
from cut_tutor.review.belief import SAMPLES
from cut_tutor.review.words import chance_line, opponent_line, unseen_line

from .shared import Shown

#: The pile tops whose chances the panel lists: low, middle and high cards.
TOPS = (3, 7, 11, 13)


class BeliefPanel(Shown):
    """The belief of the seat to move in ``view``; :meth:`update` shows another view of the same seat's game."""

    def __init__(
        self, view: Mapping[str, Any], *, names: Sequence[str] | None = None, samples: int = SAMPLES, seed: int = 0
    ) -> None:
        self.names, self.samples, self.seed = names, samples, seed
        self._html = w.HTML()
        self.root = w.VBox([self._html])
        self.update(view)

    def update(self, view: Mapping[str, Any]) -> None:
        """Show the belief of the seat to move in ``view``."""
        self.belief: Belief = belief(view, self.samples, self.seed)
        self._html.value = "<br>".join(escape(line) for line in self.lines())

    def lines(self) -> list[str]:
        """What the panel says, line by line: each other seat, the unseen pool, the next seat's chances."""
        b = self.belief
        lines = [
            opponent_line(seat_name(o.seat, self.names), o.picked_up, o.shown, o.hand_count, o.above)
            for o in b.opponents
        ]
        lines.append(unseen_line(b.unseen))
        nxt = seat_name(b.next_seat, self.names)
        lines += [chance_line(nxt, card_name(top), b.can_play[top]) for top in TOPS]
        return lines
