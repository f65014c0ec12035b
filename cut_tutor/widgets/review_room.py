"""The review room: the learner's hand reviewed in the background once it ends, the learner's drills, and tutor
mode's question before a doubtful play (the guide's *Hand review* page).

The review runs in a thread, as the coach's analysis does, with a progress bar and a Cancel button, so the table
never waits for it; its graded mistakes join the learner's drills (``drills.sqlite`` in the learner's home), and the
review itself, with its mistakes' kinds, joins the learner's progress across games in the same file.
Tutor mode reads the learner's view only (C2); its check with the analysis is the position's one evaluation, the
move about to be made its focus, run by the coach panel, so its result is kept where *Open the analysis*, and the
hand review of that decision, find it. The belief section beside the coach is :class:`~.belief_panel.BeliefRoom`.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from html import escape
from typing import Any

import ipywidgets as w

from cut_tutor.analysis import Analysis
from cut_tutor.engine import Move, record_of, view
from cut_tutor.engine.deals import PositionError
from cut_tutor.review import THRESHOLDS, Caution, Drill, Drills, HandReview, review, warn
from cut_tutor.review.drills import DRILLS_FILE
from cut_tutor.review.hand import DEAL_ROLLOUTS, ROLLOUTS, position_analysis
from cut_tutor.review.kinds import hand_kinds
from cut_tutor.review.tutor import judge
from cut_tutor.review.words import (
    DRILLS_TITLE,
    HINT,
    PLAY_ANYWAY,
    PROGRESS_SECTION,
    RETHINK,
    REVIEW_STOPPED,
    REVIEW_TITLE,
    TUTOR_CHECKING,
    TUTOR_MODE,
    TUTOR_THRESHOLD,
    drills_added,
    review_status,
    tutor_cleared,
    tutor_hint,
    tutor_measured,
    tutor_question,
)

from .coach_panel import CoachPanel
from .drills_panel import DrillsPanel, ProgressPanel
from .jobs import Job, Jobs, between_rounds
from .review_panel import ReviewPanel
from .shared import YOU, Host
from .table import COLOURS, IntentError, move_label

#: Tutor mode asks from a *mistake*'s loss by default (the review's own threshold).
TUTOR_THRESHOLD_DEFAULT = dict(THRESHOLDS)["mistake"]
#: Tutor mode's check with the analysis when it asks on the coach's word: the coach panel's own short budget, so the
#: refined question comes while the learner still reads the first (the guide's *Tutor mode*).
TUTOR_SECONDS = 2.0


class _Cancelled(Exception):
    """Cancel was pressed, or a newer hand's review replaced this one."""


class ReviewRoom:
    """The review, drills and tutor sections of the app.

    ``coach`` is the coach panel, whose Monte-Carlo analysis of the learner's position refines tutor mode's question
    (started by the tutor when it asks, kept per position by the panel); ``land`` plays the learner's moves past
    the tutor.
    """

    #: Start a hand's review the moment it ends (the test suite turns it off for the other rooms' tests, whose
    #: many finished hands would each start one; :meth:`review_hand` still reviews on demand).
    automatic = True

    def __init__(self, host: Host, coach: CoachPanel, land: Callable[[Sequence[Move]], None]) -> None:
        self.host, self.coach, self.land = host, coach, land
        #: The review's budgets: rollouts per decision, fresh deals for the deal's luck, and its seed.
        self.rollouts, self.deal_rollouts, self.seed = ROLLOUTS, DEAL_ROLLOUTS, 0
        #: The drills' clock (a test fixes it, so the schedule is the same on every run).
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        controls = host.controls
        # the hand review
        self.reviews: dict[str, HandReview] = {}
        self.panel: ReviewPanel | None = None
        #: The review runs in the background; a newer hand's review replaces an older one's.
        self.reviewing = Jobs("cut-review")
        self._stopped: str | None = None
        self.review_progress = w.FloatProgress(value=0.0, min=0.0, max=1.0, description="Review")
        self.review_cancel = controls.button("Cancel", self.cancel_review)
        self.review_status = w.HTML()
        self.review_box = w.VBox()
        body = w.VBox([w.HBox([self.review_status, self.review_progress, self.review_cancel]), self.review_box])
        self.review_section = w.Accordion(children=[body], titles=(REVIEW_TITLE,), selected_index=0)
        self.review_section.add_class("cut-review")
        # the drills, per learner
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
        self.sections = w.VBox([self.review_section, self.drills_section, self.progress_section])
        # tutor mode: the setup's switch and threshold, and the question before a play
        self.tutor_on, self.threshold = False, TUTOR_THRESHOLD_DEFAULT
        self.tutor_check = w.Checkbox(value=False, description=TUTOR_MODE)
        controls.watch(self.tutor_check, lambda on: self.set_tutor(bool(on)))
        # the label its own width, whole, and the box no wider than a phone's row beside the switch
        self.tutor_points = w.BoundedFloatText(value=self.threshold, min=0.5, max=200.0, step=0.5,
                                               description=TUTOR_THRESHOLD, style={"description_width": "initial"},
                                               layout=w.Layout(width="230px"))  # fmt: skip
        controls.watch(self.tutor_points, lambda points: self.set_tutor(self.tutor_on, float(points)))
        self.tutor_setup = w.HBox([self.tutor_check, self.tutor_points], layout=w.Layout(flex_flow="row wrap"))
        self.tutor_setup.add_class("cut-wrap")
        self.caution: Caution | None = None
        self._pending: tuple[tuple[Move, ...], int] | None = None  # the moves asked about, at that move count
        self.hint = ""
        #: The check with the analysis: its budget (``None`` rollouts: the time decides), and its waiting thread.
        self.tutor_seconds: float | None = TUTOR_SECONDS
        self.tutor_rollouts: int | None = None
        self.checks = Jobs("cut-tutor")
        self._check: Job | None = None  # the check of the question standing, while it runs
        self._tutor_lock = threading.Lock()
        self.tutor_said = w.HTML()
        anyway = controls.button(PLAY_ANYWAY, self.play_anyway, button_style="warning")
        self.tutor_buttons = w.HBox(
            [anyway, controls.button(RETHINK, self.rethink), controls.button(HINT, self.tutor_hint)]
        )
        self.tutor_box = w.VBox([self.tutor_said, self.tutor_buttons])
        self.tutor_box.add_class("cut-tutor")

    # -- the hand review ------------------------------------------------------------------------------------------

    def _finished(self) -> tuple[str, dict[str, Any], int] | None:
        """The finished hand on the table: its key, its record and its number; ``None`` while one is in play, or
        for a hand set up from a position (it has no deal to replay)."""
        game = self.host.game
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
            hand_of = (self.host.need_game().uid, number)  # an older hand's review gives way
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
            between_rounds()
            if stop.is_set():
                raise _Cancelled
            self.review_progress.value = round(share, 2)  # heard each round: the bar moves by whole percents

        try:
            hand = review(record, YOU, rollouts=self.rollouts, deal_rollouts=self.deal_rollouts, seed=self.seed,
                          progress=progress, level=self.host.setup.seats[YOU].level)  # fmt: skip
            if stop.is_set():
                raise _Cancelled
        except _Cancelled:
            self._stopped = key
        else:
            self.reviews[key] = hand
            names, colours = self._seats()
            self.panel = ReviewPanel(record, hand, names=names, colours=colours, rollouts=self.rollouts)
            deck = self.deck()
            self.review_box.children = [w.HTML(escape(drills_added(len(deck.add_mistakes(record, hand))))),
                                        self.panel.widget]  # fmt: skip
            self.drills_panel().refresh()
            deck.keep_review(record, hand, hand_kinds(record, hand), *hand_of)
            self.progress(refresh=True)
        finally:
            self.draw_review()

    def draw_review(self) -> None:
        """The review section: its progress while it runs, the panel of the last hand reviewed."""
        running = self.reviewing.running() is not None
        self.review_progress.layout.display = self.review_cancel.layout.display = "" if running else "none"
        found = self._finished()
        game = self.host.game
        if running and game is not None:
            self.review_status.value = escape(review_status(game.hand_number, False))
        elif found is not None and found[0] in self.reviews:
            self.review_status.value = escape(review_status(found[2], True))
        elif found is not None and found[0] == self._stopped:
            self.review_status.value = escape(REVIEW_STOPPED)
        else:
            self.review_status.value = ""
        self.review_section.layout.display = "" if self.panel is not None or running or found else "none"

    # -- drills ---------------------------------------------------------------------------------------------------

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

    def _seats(self) -> tuple[list[str], list[str]]:
        """The seats' names and colours as the table shows them: the game's, else the setup's (a drill from an
        earlier day, before a deal)."""
        seats = self.host.setup.seats
        names = self.host.game.names if self.host.game is not None else [s.name for s in seats]
        return list(names), [COLOURS[s.colour] for s in seats]

    def _analysis_of(self, drill: Drill) -> Analysis:
        """A drill's position evaluated with the review's budget: the review's own evaluation, so its verdict agrees
        with the review's."""
        return position_analysis(drill.record, drill.seat, drill.ply, rollouts=self.rollouts)

    def drills_panel(self) -> DrillsPanel:
        """The drills panel of the learner's deck: the due drills, answered one at a time."""
        deck = self.deck()
        if self._drills_panel is None:
            names, colours = self._seats()
            self._drills_panel = DrillsPanel(deck, analyser=self._analysis_of, names=names, colours=colours)
            self.drills_box.children = [self._drills_panel.widget]
        return self._drills_panel

    # -- tutor mode -----------------------------------------------------------------------------------------------

    def set_tutor(self, on: bool, threshold: float | None = None) -> None:
        """Tutor mode on or off; ``threshold``: the loss in points from which it asks before a play."""
        if threshold is not None:
            if not threshold > 0:
                raise ValueError("tutor mode: the threshold is a number of points above 0")
            self.threshold = float(threshold)
        self.tutor_on = bool(on)
        if not on:
            self._forget()
        self.host.refresh()

    def asks(self, moves: Sequence[Move | str]) -> bool:
        """Tutor mode, before the learner's play lands: ``True`` when it asks *Play anyway / Rethink / Hint* (the
        play then waits), ``False`` when the play may go ahead."""
        game = self.host.game
        self._forget()
        if not self.tutor_on or game is None or game.state.over or game.state.turn != YOU or game.automated[YOU]:
            return False
        chosen = tuple(m if isinstance(m, Move) else Move.parse(m) for m in moves)
        seen = view(game.state, YOU)
        if str(chosen[0]) not in seen["legal"]:
            return False  # the play loop refuses it with its reason
        setup = self.host.setup  # the tutor's word is the advice the coach panel shows: your coach, at your Level
        held = self.coach.evaluated()  # the evaluation's word once it has priced this very move
        priced = held.analysis if held is not None and held.decided(chosen[0]) else None
        caution = warn(seen, chosen[0], self.threshold, coach=setup.coach, level=setup.seats[YOU].level,
                       analysis=priced)  # fmt: skip
        if caution is None:
            return False
        asked = (chosen, len(game.state.moves))
        self.caution, self._pending = caution, asked
        if caution.source == "coach":  # the evaluation has not priced this move yet: check with it, in the background
            work = functools.partial(self._checked, asked, seen)
            self._check = self.checks.start(str(asked[1]), work, replace=True)  # an older question's gives way
        self.host.refresh()
        return True

    def _checked(self, asked: tuple[tuple[Move, ...], int], seen: dict[str, Any], _stop: threading.Event) -> None:
        """Run the evaluation of the learner's view with the move in focus (the coach panel runs it) and, if the
        question still stands when it is done, put its word in the coach's place. It stops when the question no
        longer stands (its own flag is not needed: the analysis it waits for is cancelled then)."""
        found = None

        def void() -> bool:
            """Rethink, Play anyway or another move came first: the question no longer stands."""
            return self._pending is not asked

        for _ in range(2):  # the first wait may only see an older position's analysis end (or give way)
            with self._tutor_lock:  # started under the lock _forget cancels under: a voided question starts nothing
                if void():
                    return
                try:
                    self.coach.start_rollouts(self.tutor_seconds, self.tutor_rollouts, focus=asked[0][0])
                except IntentError:
                    return  # no longer the learner's turn: nothing to refine
            self.coach.wait_rollouts(until=void)
            held = self.coach.evaluated()
            found = None if held is None else held.analysis
            if (held is not None and held.decided(asked[0][0])) or void():
                break
        with self._tutor_lock:
            if self._pending is not asked:
                return  # Rethink, Play anyway or another move came first (and cancelled the analysis)
            self._check = None
            if found is not None:
                self.caution = judge(seen, asked[0][0], analysis=found)
                if self.hint:
                    self.hint = self._hint()
        self.draw_tutor()

    def wait_tutor(self) -> Caution | None:
        """Wait for the tutor's check with the analysis (the twin of letting it finish); the question then."""
        check = self._check
        if check is not None:
            self.checks.wait(job=check)
        self.draw_tutor()
        return self.caution

    def _forget(self) -> None:
        """The question ends; its check with the analysis, if running, is cancelled — after the question is gone, so
        that the check, woken by the cancelled analysis, finds nothing to wait for again."""
        with self._tutor_lock:
            checking = self._check is not None
            self.caution, self._pending, self.hint, self._check = None, None, "", None
            if checking:
                self.coach.cancel_rollouts()

    def _asked(self) -> tuple[Move, ...]:
        game = self.host.game
        if self._pending is None or game is None or len(game.state.moves) != self._pending[1]:
            raise ValueError("the tutor is not asking about a play now")
        return self._pending[0]

    def play_anyway(self) -> None:
        """*Play anyway*: the play the tutor asked about lands."""
        moves = self._asked()
        self._forget()
        self.land(moves)

    def rethink(self) -> None:
        """*Rethink*: the play is dropped; choose again."""
        self._asked()
        self._forget()
        self.host.refresh()

    def tutor_hint(self) -> str:
        """*Hint*: the move the tutor prefers here, by the coach's heuristic (or the analysis when it has measured
        this position), named by its button."""
        self._asked()
        self.hint = self._hint()
        self.draw_tutor()
        return self.hint

    def _hint(self) -> str:
        caution = self.caution
        assert caution is not None  # asked: a caution stands
        game = self.host.need_game()
        label = move_label(Move.parse(caution.best), view(game.state, YOU), game.names)
        return tutor_hint(caution.source, self.host.setup.coach, label)

    def draw_tutor(self) -> None:
        """The tutor's question while it stands (a later move ends it)."""
        game = self.host.game
        if self._pending is not None and (game is None or len(game.state.moves) != self._pending[1]):
            self._forget()
        caution = self.caution
        if caution is None or game is None:
            self.tutor_box.layout.display = "none"
            return
        label = move_label(Move.parse(caution.move), view(game.state, YOU), game.names)
        low, high = caution.low, caution.high
        if low is None or high is None:  # the coach's word
            said = tutor_question(label, caution.loss)
        elif caution.asks(self.threshold):
            said = tutor_measured(label, caution.loss, low, high)
        else:
            said = tutor_cleared(label, caution.loss, low, high, self.threshold)
        check = self._check  # a check that ended but was known only after its end no longer counts
        checking = f"<br><i>{escape(TUTOR_CHECKING)}</i>" if check is not None and check.thread.is_alive() else ""
        hint = f"<br><i>{escape(self.hint)}</i>" if self.hint else ""
        self.tutor_said.value = f"<b>{escape(said)}</b>{checking}{hint}"
        self.tutor_box.layout.display = ""

    # -- drawing --------------------------------------------------------------------------------------------------

    def draw(self) -> None:
        """After every change: start the review of a hand just ended, and redraw the room's sections."""
        with self.host.controls.quiet():
            self.tutor_check.value, self.tutor_points.value = self.tutor_on, self.threshold
        if self.automatic:
            self.review_hand()
        else:
            self.draw_review()
        self.drills_panel()
        self.progress()
        self.draw_tutor()
