"""The tutor room: tutor mode's question before a doubtful play, *Play anyway*, *Rethink* or *Hint* (the guide's
*Tutor mode*, on its *Hand review* page).

Tutor mode reads the learner's view only (C2); its check with the analysis is the position's one evaluation, the
move about to be made its focus, run by the coach panel, so its result is kept where *Open the analysis*, and the
hand review of that decision, find it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as w

from cut_tutor.engine import Move, view
from cut_tutor.review import THRESHOLDS, Caution, warn
from cut_tutor.review.tutor import judge
from cut_tutor.review.words import (
    HINT,
    PLAY_ANYWAY,
    RETHINK,
    TUTOR_CHECKING,
    TUTOR_MODE,
    TUTOR_THRESHOLD,
    tutor_cleared,
    tutor_hint,
    tutor_measured,
    tutor_question,
)

from .coach_panel import CoachPanel
from .jobs import Job, Jobs
from .shared import YOU, Host
from .table import IntentError, move_label

#: Tutor mode asks from a *mistake*'s loss by default (the review's own threshold).
TUTOR_THRESHOLD_DEFAULT = dict(THRESHOLDS)["mistake"]
#: Tutor mode's check with the analysis when it asks on the coach's word: the coach panel's own short budget, so the
#: refined question comes while the learner still reads the first (the guide's *Tutor mode*).
TUTOR_SECONDS = 2.0


class TutorRoom:
    """Tutor mode: its switch and threshold in the setup (:attr:`tutor_setup`), its question under the table
    (:attr:`tutor_box`).

    ``coach`` is the coach panel, whose Monte-Carlo analysis of the learner's position refines the question (started
    by the tutor when it asks, kept per position by the panel); ``land`` plays the learner's moves past the tutor.
    """

    def __init__(self, host: Host, coach: CoachPanel, land: Callable[[Sequence[Move]], None]) -> None:
        self.host, self.coach, self.land = host, coach, land
        controls = host.controls
        # the setup's switch and threshold, and the question before a play
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

    # -- the question before a play -------------------------------------------------------------------------------

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
        game = self.host.sitting.game
        self._forget()
        if not self.tutor_on or game is None or game.state.over or game.state.turn != YOU or game.automated[YOU]:
            return False
        chosen = tuple(m if isinstance(m, Move) else Move.parse(m) for m in moves)
        seen = view(game.state, YOU)
        if str(chosen[0]) not in seen["legal"]:
            return False  # the play loop refuses it with its reason
        # the tutor's word is the advice the coach panel shows: your coach, at your Level
        setup = self.host.sitting.setup
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
        """Run the evaluation of the learner's view with the move in focus once (the coach panel runs it) and, if
        the question still stands when it is done, put its word in the coach's place, settled or not (its budget
        spent); after the coach panel's Cancel the coach's word stands. It stops when the question no longer stands
        (its own flag is not needed: the analysis it waits for is cancelled then)."""
        found = None

        def void() -> bool:
            """Rethink, Play anyway or another move came first: the question no longer stands."""
            return self._pending is not asked

        for _ in range(2):  # the first wait may be for another run (an older question's, cancelled, or a verdict's)
            with self._tutor_lock:  # started under the lock _forget cancels under: a voided question starts nothing
                if void():
                    return
                try:
                    ran = self.coach.start_rollouts(self.tutor_seconds, self.tutor_rollouts, focus=asked[0][0])
                except IntentError:
                    return  # no longer the learner's turn: nothing to refine
            self.coach.wait_rollouts(until=void)
            held = self.coach.evaluated()
            found = None if held is None else held.analysis
            if ran or void() or (held is not None and held.decided(asked[0][0])):
                break  # its own run is over: one run a question, whether the other run ended first or not
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
        game = self.host.sitting.game
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
        game = self.host.sitting.need_game()
        label = move_label(Move.parse(caution.best), view(game.state, YOU), game.names)
        return tutor_hint(caution.source, self.host.sitting.setup.coach, label)

    def draw_tutor(self) -> None:
        """The tutor's question while it stands (a later move ends it)."""
        game = self.host.sitting.game
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
        """After every change: the setup's switch and threshold as they are, and the question while it stands."""
        with self.host.controls.quiet():
            self.tutor_check.value, self.tutor_points.value = self.tutor_on, self.threshold
        self.draw_tutor()
