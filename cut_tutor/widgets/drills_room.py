"""The drills room: the learner's drills, made from the mistakes of their reviewed hands, and their progress across
games (the guide's *Hand review* page).

Both live in one file in the learner's home (``drills.sqlite``): the deck of drills, scheduled by a clock, and every
reviewed hand with its mistakes' kinds. The hand review (:mod:`.review_room`) hands each review here; a drill's
position is evaluated with the review's own budget, so its verdict agrees with the review's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import ipywidgets as w

from cut_tutor.analysis import Analysis
from cut_tutor.review import Drill, Drills, HandReview
from cut_tutor.review.drills import DRILLS_FILE
from cut_tutor.review.kinds import hand_kinds
from cut_tutor.review.words import DRILLS_TITLE, PROGRESS_SECTION

from .drills_panel import DrillsPanel, ProgressPanel
from .shared import Host


class DrillsRoom:
    """The Drills and Progress sections of the app. ``analyser`` evaluates a drill's position as the review would."""

    def __init__(self, host: Host, analyser: Callable[[Drill], Analysis]) -> None:
        self.host, self.analyser = host, analyser
        #: The drills' clock (a test fixes it, so the schedule is the same on every run).
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        self._deck: Drills | None = None
        self._drills_panel: DrillsPanel | None = None
        self.drills_box = w.VBox()
        self.drills_section = w.Accordion(children=[self.drills_box], titles=(DRILLS_TITLE,), selected_index=None)
        self.drills_section.add_class("cut-drills")
        # the learner's progress across games, from the reviews kept in the deck's file
        self.progress_panel = ProgressPanel()
        self._progress_of: Drills | None = None  # the deck the panel shows
        self.progress_section = w.Accordion(children=[self.progress_panel.widget], titles=(PROGRESS_SECTION,),
                                            selected_index=None)  # fmt: skip
        self.progress_section.add_class("cut-progress-section")

    def deck(self) -> Drills:
        """The learner's drills, in their home (a new learner named by the browser has a deck of their own)."""
        path = self.host.home / DRILLS_FILE
        if self._deck is None or self._deck.path != path or self._deck.clock is not self.clock:
            self._deck, self._drills_panel = Drills(path, self.clock), None
        return self._deck

    def progress(self, refresh: bool = False) -> ProgressPanel:
        """The learner's progress panel, read again from their deck when the learner changes or ``refresh`` asks
        (after each review): every reviewed hand across games, its plot, table and CSV."""
        deck = self.deck()
        if refresh or self._progress_of is not deck:
            home = self.host.home
            self.progress_panel.learner = home.name if home.parent.name == "learners" else "you"
            self.progress_panel.draw(deck.reviewed())
            self._progress_of = deck
        return self.progress_panel

    def drills_panel(self) -> DrillsPanel:
        """The drills panel of the learner's deck: the due drills, answered one at a time."""
        deck = self.deck()
        if self._drills_panel is None:
            names, colours = self.host.sitting.seats_shown()
            self._drills_panel = DrillsPanel(deck, analyser=self.analyser, names=names, colours=colours)
            self.drills_box.children = [self._drills_panel.widget]
        return self._drills_panel

    def take(self, record: dict[str, Any], hand: HandReview, hand_of: tuple[str, int]) -> int:
        """A hand just reviewed (``hand_of``: its game's id and its number): its mistakes join the drills, the review
        joins the learner's progress; how many drills were added."""
        deck = self.deck()
        added = len(deck.add_mistakes(record, hand))
        self.drills_panel().refresh()
        deck.keep_review(record, hand, hand_kinds(record, hand), *hand_of)
        self.progress(refresh=True)
        return added

    def draw(self) -> None:
        """After every change: the learner's drills and progress (another learner named by the page has their own)."""
        self.drills_panel()
        self.progress()
