"""The belief panel: what the learner's seat knows of each other seat, the unseen cards by rank, and what the
analysis assumes about the next seat's hidden cards, all from the seat's view (C2).

Built from a view only: re-dealing the hidden cards cannot change what it shows. :class:`BeliefRoom` is its section
beside the coach, for the learner's seat on the learner's turn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import ipywidgets as w

from cut_tutor.engine import view
from cut_tutor.engine.cards import card_name
from cut_tutor.engine.words import seat_name
from cut_tutor.review import Belief, belief
from cut_tutor.review.belief import SAMPLES
from cut_tutor.review.words import BELIEF_TITLE, chance_line, opponent_line, unseen_line

from .shared import YOU, Host, Shown

#: Samples behind the belief section's chances: enough for whole percents, quick enough for every turn.
BELIEF_SAMPLES = 200
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


class BeliefRoom:
    """The *What you know* section beside the coach: the learner's belief, worked out only while it is open."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.panel: BeliefPanel | None = None
        self._key: str | None = None
        self.box = w.VBox()
        self.section = w.Accordion(children=[self.box], titles=(BELIEF_TITLE,), selected_index=None)
        self.section.add_class("cut-belief")
        # the belief samples deals: it is worked out only while its section is open (and when it opens)
        self.section.observe(lambda _: self.draw(), names="selected_index")

    def open_belief(self, on: bool = True) -> None:
        """Open (or close) the *What you know* section; opening it works out the belief of your turn."""
        self.section.selected_index = 0 if on else None

    def draw(self) -> None:
        """The belief of the learner's seat, updated on the learner's turn only (kept as it was otherwise) and only
        while its section is open."""
        game = self.host.sitting.game
        if game is None:
            self.section.layout.display = "none"
            return
        self.section.layout.display = ""
        state = game.state
        if state.over or state.turn != YOU or self.section.selected_index is None:
            return
        seen = view(state, YOU)
        key = json.dumps(seen, sort_keys=True)
        if key == self._key:
            return
        self._key = key
        if self.panel is None:
            self.panel = BeliefPanel(seen, names=game.names, samples=BELIEF_SAMPLES)
            self.box.children = [self.panel.widget]
        else:
            self.panel.names = game.names
            self.panel.update(seen)
