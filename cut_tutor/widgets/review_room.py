"""The review room: the learner's hand reviewed in the background once it ends (the guide's *Hand review* page).

The review runs in a thread, as the coach's analysis does, with a progress bar and a Cancel button, so the table
never waits for it; its graded mistakes and the review itself go to the drills room (:mod:`.drills_room`), which keeps
them in the learner's home. Tutor mode's question before a play is :mod:`.tutor_room`'s; the belief section beside
the coach is :class:`~.belief_panel.BeliefRoom`.
"""

from __future__ import annotations

import functools
import json
import threading
from html import escape
from typing import Any

import ipywidgets as w

from cut_tutor.analysis import Analysis
from cut_tutor.engine import record_of
from cut_tutor.engine.deals import PositionError
from cut_tutor.review import Drill, HandReview, review
from cut_tutor.review.hand import DEAL_ROLLOUTS, ROLLOUTS, position_analysis
from cut_tutor.review.words import REVIEW_STOPPED, REVIEW_TITLE, drills_added, review_status

from .drills_room import DrillsRoom
from .jobs import Jobs, between_rounds
from .review_panel import ReviewPanel
from .shared import YOU, Host


class _Cancelled(Exception):
    """Cancel was pressed, or a newer hand's review replaced this one."""


class ReviewRoom:
    """The Hand review section of the app; ``drills`` is the room each review's mistakes join."""

    #: Start a hand's review the moment it ends (the test suite turns it off for the other rooms' tests, whose
    #: many finished hands would each start one; :meth:`review_hand` still reviews on demand).
    automatic = True

    def __init__(self, host: Host, drills: DrillsRoom) -> None:
        self.host, self.drills = host, drills
        #: The review's budgets: rollouts per decision, fresh deals for the deal's luck, and its seed.
        self.rollouts, self.deal_rollouts, self.seed = ROLLOUTS, DEAL_ROLLOUTS, 0
        self.reviews: dict[str, HandReview] = {}
        self.panel: ReviewPanel | None = None
        #: The review runs in the background; a newer hand's review replaces an older one's.
        self.reviewing = Jobs("cut-review")
        self._stopped: str | None = None
        self.review_progress = w.FloatProgress(value=0.0, min=0.0, max=1.0, description="Review")
        self.review_cancel = host.controls.button("Cancel", self.cancel_review)
        self.review_status = w.HTML()
        self.review_box = w.VBox()
        body = w.VBox([w.HBox([self.review_status, self.review_progress, self.review_cancel]), self.review_box])
        self.review_section = w.Accordion(children=[body], titles=(REVIEW_TITLE,), selected_index=0)
        self.review_section.add_class("cut-review")

    # -- the hand review ------------------------------------------------------------------------------------------

    def _finished(self) -> tuple[str, dict[str, Any], int] | None:
        """The finished hand on the table: its key, its record and its number; ``None`` while one is in play, or
        for a hand set up from a position (it has no deal to replay)."""
        game = self.host.sitting.game
        if game is None or not game.state.over:
            return None
        try:
            record = record_of(game.state)
        except PositionError:
            return None
        return json.dumps(record, sort_keys=True), record, game.hand_number

    def review_hand(self, wait: bool = False) -> HandReview | None:
        """Review the learner's seat in the hand just ended, in the background (``wait`` blocks until it is done, the
        twin); the review once it is ready. A review already made or running is not started again."""
        found = self._finished()
        if found is None:
            self.draw_review()  # mid-hand: the section shows only a review kept from an earlier hand
            return None
        key, record, number = found
        job = self.reviewing.running()
        if key not in self.reviews and key != self._stopped and (job is None or job.key != key):
            self.review_progress.value = 0.0
            hand_of = (self.host.sitting.need_game().uid, number)  # an older hand's review gives way
            job = self.reviewing.start(key, functools.partial(self._run, key, record, hand_of), replace=True)
        self.draw_review()
        if wait and job is not None and job.key == key:
            self.reviewing.wait(job=job)
            self.draw_review()
        return self.reviews.get(key)

    def cancel_review(self) -> None:
        """Stop the running review within a round of its rollouts; nothing is kept for the hand."""
        self.reviewing.cancel()

    def _run(self, key: str, record: dict[str, Any], hand_of: tuple[str, int], stop: threading.Event) -> None:
        """Review the hand (``hand_of``: its game's id and its number) and keep what it found."""

        def progress(share: float) -> None:
            between_rounds(stop)
            if stop.is_set():
                raise _Cancelled
            self.review_progress.value = round(share, 2)  # heard each round: the bar moves by whole percents

        try:
            progress(0.0)  # the first round waits for its turn too
            hand = review(record, YOU, rollouts=self.rollouts, deal_rollouts=self.deal_rollouts, seed=self.seed,
                          progress=progress, level=self.host.sitting.setup.seats[YOU].level)  # fmt: skip
            if stop.is_set():
                raise _Cancelled
        except _Cancelled:
            self._stopped = key
        else:
            self.reviews[key] = hand
            names, colours = self.host.sitting.seats_shown()
            self.panel = ReviewPanel(record, hand, names=names, colours=colours, rollouts=self.rollouts)
            added = self.drills.take(record, hand, hand_of)
            self.review_box.children = [w.HTML(escape(drills_added(added))), self.panel.widget]
        finally:
            self.draw_review()

    def draw_review(self) -> None:
        """The review section: its progress while it runs, the panel of the last hand reviewed."""
        running = self.reviewing.running() is not None
        self.review_progress.layout.display = self.review_cancel.layout.display = "" if running else "none"
        found = self._finished()
        game = self.host.sitting.game
        if running and game is not None:
            self.review_status.value = escape(review_status(game.hand_number, False))
        elif found is not None and found[0] in self.reviews:
            self.review_status.value = escape(review_status(found[2], True))
        elif found is not None and found[0] == self._stopped:
            self.review_status.value = escape(REVIEW_STOPPED)
        else:
            self.review_status.value = ""
        self.review_section.layout.display = "" if self.panel is not None or running or found else "none"

    def analysis_of(self, drill: Drill) -> Analysis:
        """A drill's position evaluated with the review's budget: the review's own evaluation, so its verdict agrees
        with the review's."""
        return position_analysis(drill.record, drill.seat, drill.ply, rollouts=self.rollouts)

    # -- drawing --------------------------------------------------------------------------------------------------

    def draw(self) -> None:
        """After every change: start the review of a hand just ended, and redraw the section."""
        if self.automatic:
            self.review_hand()
        else:
            self.draw_review()
