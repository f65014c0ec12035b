"""The Coaching panel: the coach picker, the chosen coach's advice and hints, the analysis table and the compare.

The advice is computed from your view only (C2) and kept until the position, the coach or your Level changes.
The Monte-Carlo analysis of your position runs on demand in the background, with a progress bar and a Cancel
button; it is your position's one evaluation (:func:`~cut_tutor.analysis.evaluation`), which the tutor and the hand
review read too, kept per position, so the table never waits for it. A recommendation shown starts that evaluation
itself, with the coach's move as its focus, and the verdict line under it says what the analysis makes of the move.
"""

from __future__ import annotations

import asyncio
import functools
import json
import threading
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as w

from cut_tutor.analysis import Analysis, Evaluation, evaluation
from cut_tutor.analysis.evaluations import cached
from cut_tutor.analysis.report import WORSE
from cut_tutor.analysis.seat import hands_open
from cut_tutor.analysis.stats import PRECISION
from cut_tutor.coach import COACH_STYLE, COACHES, LEVELS, Advice, advise
from cut_tutor.engine import Move, State, view

from ..coach.words import ANALYSE_LONGER, OPEN_ENDGAME, PLAY_BEST, recommends, style_cost, verdict_line
from ..engine.rules import CUT
from ..engine.words import game_of
from ..review.words import TUTOR_CHECKING
from .jobs import Jobs, between_rounds
from .move_table import compare_html, move_rows, move_table_html
from .shared import YOU, Host
from .table import IntentError, move_label

if TYPE_CHECKING:
    import pandas as pd

#: Seconds each press of *Analyse longer* adds to the analysis of the position.
LONGER = 4.0
#: The analysis button's name before the position is analysed; after, it is *Analyse longer*.
START = "Monte-Carlo analysis"
#: The rollouts a recommendation's verdict line may add to the position's evaluation, with no time limit, so that
#: its figures are the position's alone: its verdicts settle in about a second (``benchmarks/bench_verdict.py``).
VERDICT_ROLLOUTS = 1000
#: Seconds a recommendation stays on screen before its verdict line's evaluation starts, in a kernel: a learner who
#: plays on at once (or Auto pacing) spends no CPU on a line nobody reads, and in a class on one server the clicks of
#: every learner come first (``benchmarks/load_classroom.py``).
VERDICT_PAUSE = 0.4


class _Cancelled(Exception):
    """The learner pressed Cancel: the analysis stops after its current round."""


class CoachPanel:
    """The coach's panel beside the table; :attr:`panel` is its accordion."""

    #: Does a recommendation start its verdict line's evaluation by itself? (Other rooms' tests switch it off.)
    verdicts = True

    def __init__(self, host: Host) -> None:
        self.host = host
        self.analysis_open = False
        self.coach_open = True
        self.comparing = False
        self._advice: tuple[State, tuple[int, str, str], Advice] | None = None
        # the play chosen from the analysis table, and the position (state and move count) it was chosen in
        self._selected: tuple[State, int, Move] | None = None
        controls = host.controls
        self.panel_coach = w.Dropdown(options=list(COACHES), value="Madonna", description="Coach")
        controls.watch(self.panel_coach, self.set_coach)
        self.panel_about = w.HTML()
        self.advice_html = w.HTML()
        self.coach_play_button = controls.button("Coach: Play", host.coach_play, button_style="success")
        self.coach_play_button.add_class("cut-coach-play")
        # the verdict line: the position's evaluation on the coach's move, and its best when that is another move
        self.verdict_html = w.HTML()
        self.verdict_html.add_class("cut-verdict")
        self.best_button = controls.button(PLAY_BEST, self.play_best)
        self.best_button.add_class("cut-play-best")
        self.best_button.layout.display = "none"
        self._verdict_due: tuple[tuple[str, str], asyncio.TimerHandle] | None = None  # the pause before a verdict
        self._verdict_paused: tuple[str, str] | None = None  # the position and move whose pause is over
        self._verdict_asked: tuple[str, str] | None = None  # the position and move whose verdict was last started
        # the table's redraw and an evaluation's end draw the line one at a time: the later draw sees the evaluation
        self._verdict_lock = threading.RLock()
        self.analysis = w.ToggleButton(value=False, description="Open the analysis", layout=w.Layout(width="auto"))
        controls.watch(self.analysis, self.open_analysis)
        self.compare_button = controls.button("Compare all three", self.compare_coaches)
        self.analysis_html = w.HTML()
        self.analysis_html.add_class("cut-movetable")
        # the Monte-Carlo analysis: started on demand, in the background, kept per position; one button starts it
        # and then continues it, so a press always does something and the keyboard's focus stays where it was
        self.rollout_button = controls.button(START, self.press_rollouts)
        self.rollout_cancel = controls.button("Cancel", self.cancel_rollouts)
        self.rollout_progress = w.FloatProgress(value=0.0, min=0.0, max=1.0, description="Rollouts")
        self.rollout_html = w.HTML()
        self.rollout_box = w.VBox(
            [
                w.HBox([self.rollout_button, self.rollout_progress, self.rollout_cancel]),
                self.rollout_html,
            ]
        )
        self.rollout_box.add_class("cut-rollouts")
        #: The analysis runs in the background, one at a time, stopped before the process exits.
        self.analyses = Jobs("cut-analysis")
        self._stopped: str | None = None  # the position whose analysis was cancelled
        self.coach_body = w.VBox(
            [
                w.HBox([self.panel_coach]), self.panel_about, self.advice_html, self.verdict_html,
                w.HBox([self.coach_play_button, self.best_button], layout=w.Layout(flex_flow="row wrap")),
                w.HBox([self.analysis, self.compare_button]), self.analysis_html, self.rollout_box,
            ]
        )  # fmt: skip
        self.panel = w.Accordion(children=[self.coach_body], titles=("Coaching",), selected_index=0)
        self.panel.observe(lambda c: controls.run(self.set_coach_panel, c["new"] == 0), "selected_index")

    # -- twins --------------------------------------------------------------------------------------------

    def set_coach(self, coach: str) -> None:
        """Whose advice you are shown: Daryl, Madonna or Marty."""
        if coach not in COACHES:
            raise ValueError(f"coach: {coach!r} is not one of {', '.join(COACHES)}")
        self.host.sitting.setup.coach = coach
        self.host.refresh()

    def open_analysis(self, on: bool = True) -> None:
        """Show the full analysis whatever the Level: a tutor always allows it on purpose (C7)."""
        self.analysis_open = bool(on)
        self.host.refresh()

    def set_coach_panel(self, open_: bool) -> None:
        """Expand or collapse the Coaching panel; collapsed hides the Coach button and highlight."""
        self.coach_open = bool(open_)
        self.host.refresh()

    def compare_coaches(self) -> pd.DataFrame:
        """All three coaches on your position: each one's move and reason, and whether it differs from the
        coach you chose (your coach is the reference, not a majority)."""
        state = self._your_turn()
        if state is None:
            raise IntentError("the coaches compare only on your turn")
        self.comparing = self.analysis_open = True
        self.host.refresh()
        advices = self._compare(state)
        chosen = next(a for a in advices if a.coach == self.host.sitting.setup.coach)
        rows = [{"coach": a.coach, "move": a.label, "total": a.candidates[0].total, "advice": a.text,
                 "differs": a.move != chosen.move} for a in advices]  # fmt: skip
        import pandas as pd

        return pd.DataFrame(rows)

    def select_play(self, text: str | Move) -> None:
        """Select one of your legal plays on the table (a row of the analysis table): its cards are picked and
        the Play button names it; nothing is played until you press it."""
        state = self._your_turn()
        if state is None:
            raise IntentError("a play is selected only on your turn")
        move = text if isinstance(text, Move) else Move.parse(text)
        if move not in state.legal_moves():
            raise IntentError(f"{text} is not one of your legal plays now")
        self._selected = (state, len(state.moves), move)
        self.host.refresh()

    def selected(self) -> Move | None:
        """The play selected from the analysis table, while the position it was chosen in lasts."""
        state = self._your_turn()
        if self._selected is None or state is None or self._selected[:2] != (state, len(state.moves)):
            return None
        return self._selected[2]

    def advice(self) -> Advice | None:
        """The chosen coach's advice for your seat, from your view only (C2); ``None`` off your turn."""
        state = self._your_turn()
        if state is None:
            return None
        setup = self.host.sitting.setup
        key = (len(state.moves), setup.coach, setup.seats[YOU].level)
        if self._advice is None or self._advice[0] is not state or self._advice[1] != key:
            names = self.host.sitting.need_game().names
            self._advice = (state, key, advise(view(state, YOU), coach=setup.coach, level=key[2], names=names))
        return self._advice[2]

    def play_best(self) -> None:
        """Play the analysis' best move where it is not the coach's (the button beside *Coach: Play*), as the
        table's move buttons play a move: tutor mode may ask first."""
        advice = self.advice()
        found = None if advice is None else self._priced(advice)
        if advice is None or found is None or found.best.move == advice.move:
            raise IntentError("the analysis has no other best move to play here")
        self.host.play(found.best.move)

    def start_rollouts(
        self,
        seconds: float | None = 2.0,
        rollouts: int | None = None,
        wait: bool = False,
        until: Callable[[], bool] | None = None,
        focus: Move | str | None = None,
    ) -> bool:
        """Evaluate your position by Monte-Carlo (every legal move played out on deals re-dealt from your view,
        C2) in the background, until its verdicts are settled with ``focus`` (the move you are about to make)
        priced; the evaluation is kept for this position, and only extended when a focus is not priced yet.
        ``wait`` blocks until it is done (the twin), or until ``until()`` is true (a waiter whose question no
        longer stands stops waiting). Whether a run was started: not when the evaluation held prices ``focus``
        already, nor while another runs (whose end a waiter then sees)."""
        seen, key = self._analysed_position()
        held = cached(seen)
        needed = held is None or (focus is not None and not held.decided(focus))
        return self._start(seen if needed else None, key, seconds, rollouts, None, wait, until, focus)

    def wait_verdict(self) -> None:
        """Wait until the verdict line of your position is drawn, or can be no longer (the twin of watching it)."""
        while self._running():
            self.wait_rollouts()

    def analyse_longer(self, seconds: float | None = LONGER, rollouts: int | None = None, wait: bool = False) -> None:
        """Continue the finished analysis of your position on more deals (by default :data:`LONGER` seconds more),
        narrowing every interval; the earlier result stays until the longer one is done, or if it is cancelled.
        The first analysis stops when its verdict is in; a continuation measures every gap, and once every gap is
        known to its precision or too close to call, the next aims at half that precision."""
        seen, key = self._analysed_position()
        done = self.rollouts()
        if done is None:
            raise IntentError("there is no finished analysis of this position to continue: start one first")
        self._start(seen, key, seconds, rollouts, done, wait, None, None)

    def press_rollouts(self) -> None:
        """The analysis button: the first press analyses your position, every later one analyses it longer; while
        an analysis runs a press does nothing (its progress bar and Cancel show)."""
        if self._running():
            return
        if self.rollouts() is None:
            self.start_rollouts()
        else:
            self.analyse_longer()

    def _analysed_position(self) -> tuple[dict[str, object], str]:
        """Your view and its key, which an analysis is of; only on your turn."""
        state = self._your_turn()
        if state is None:
            raise IntentError("the analysis is of your own position: wait for your turn")
        seen = view(state, YOU)
        return seen, _position_key(seen)

    def _start(self, seen: dict[str, object] | None, key: str, seconds: float | None, rollouts: int | None,
               resume: Analysis | None, wait: bool, until: Callable[[], bool] | None,
               focus: Move | str | None) -> bool:  # fmt: skip
        """Start the analysis of ``seen`` unless one runs (none when ``seen`` is None), then draw; ``wait`` blocks
        until that analysis, the one started or running now, is done (the twins), or ``until()``. Whether one was."""
        started = None
        if seen is not None:
            started = self.analyses.start(key, functools.partial(self._run_rollouts, seen, key, seconds, rollouts,
                                                                  resume, focus))  # fmt: skip
        job = started or self.analyses.running()
        self.draw_rollouts()
        if wait and job is not None:
            self.analyses.wait(until, job)
            self.draw_rollouts()
        return started is not None

    def wait_rollouts(self, until: Callable[[], bool] | None = None) -> None:
        """Wait for the running analysis, if any, to end, or until ``until()`` is true; start none."""
        self._start(None, "", None, None, None, True, until, None)

    def cancel_rollouts(self) -> None:
        """Stop a running analysis after its current round; nothing is kept for the position."""
        self.analyses.cancel()

    def rollouts(self) -> Analysis | None:
        """The analysis of your current position, once it has finished: its evaluation's figures."""
        found = self.evaluated()
        return None if found is None else found.analysis

    def evaluated(self) -> Evaluation | None:
        """The evaluation of your current position, once one has finished (made here, by the tutor or the review)."""
        state = self._your_turn()
        return None if state is None else cached(view(state, YOU))

    def _run_rollouts(self, seen: dict[str, object], key: str, seconds: float | None, rollouts: int | None,
                      resume: Analysis | None, focus: Move | str | None, stop: threading.Event) -> None:  # fmt: skip
        def progress(share: float) -> None:
            between_rounds(stop)
            if stop.is_set():
                raise _Cancelled
            self.rollout_progress.value = share

        try:
            progress(0.0)  # the first round waits for its turn too
            if resume is None:
                evaluation(seen, focus, seconds=seconds, rollouts=rollouts, progress=progress)
            else:  # Analyse longer: every gap measured, on the deals after the evaluation's own
                more = None if rollouts is None else resume.rollouts + rollouts
                evaluation(seen, seconds=seconds, rollouts=more, aim="gaps", precision=_aim(resume), progress=progress)
        except _Cancelled:
            self._stopped = key
        state, advice = self._your_turn(), self.advice()
        if state is not None and advice is not None:  # the rollouts join the table's columns
            self._draw_table(advice, state)
        self.draw_rollouts()
        self._draw_verdict(advice, self.coach_open and self.hint_count() > 0)

    def draw_rollouts(self) -> None:
        """The analysis controls and, for your current position, its result."""
        state = self._your_turn()
        running = self._running()
        self.rollout_box.layout.display = "" if self.analysis_open and state is not None else "none"
        self.rollout_progress.layout.display = self.rollout_cancel.layout.display = "" if running else "none"
        seen = None if state is None else view(state, YOU)
        key = None if seen is None else _position_key(seen)
        held = None if seen is None else cached(seen)
        done = None if held is None else held.analysis
        # The button is never disabled while a run goes, nor hidden by one, so the keyboard's focus stays on it;
        # with a single legal move there is nothing to analyse, and it is not shown at all.
        self.rollout_button.description = START if done is None else ANALYSE_LONGER
        self.rollout_button.layout.display = "none" if seen is not None and len(seen["legal"]) < 2 else ""
        if done is not None:
            self.rollout_html.value = (
                f"<p>{escape(done.status)} Best by the rollouts: <b>{escape(done.best.label)}</b></p>"
            )
        elif running:
            self.rollout_html.value = "<i>Playing every move out on deals that look like yours…</i>"
        else:
            self.rollout_html.value = "<i>Analysis stopped.</i>" if key is not None and key == self._stopped else ""

    def _running(self) -> bool:
        """Is an analysis running? Not once its own thread draws its result, as the last thing it does."""
        return self.analyses.running() is not None

    def hint_count(self) -> int:
        """How many hints show now: by your Level (C7), none with Coaching off, all with the analysis open."""
        if self.analysis_open:
            return 99
        if not self.host.sitting.setup.coaching:
            return 0
        return LEVELS[self.host.sitting.setup.seats[YOU].level].hints

    def _your_turn(self) -> State | None:
        game = self.host.sitting.game
        if game is None or game.state.over or game.state.turn != YOU:
            return None
        return game.state

    def _compare(self, state: State) -> list[Advice]:
        """Each coach's advice on your position, at your Level."""
        host = self.host
        seen, level, names = view(state, YOU), host.sitting.setup.seats[YOU].level, host.sitting.need_game().names
        return [advise(seen, coach=coach, level=level, names=names) for coach in COACHES]

    # -- drawing ------------------------------------------------------------------------------------------

    def draw(self) -> None:
        """The picker and the analysis toggle, from the app's setup."""
        coach = self.host.sitting.setup.coach
        self.panel_coach.value = coach
        self.panel_about.value = f"<i>{escape(COACHES[coach])}</i>"
        self.analysis.value = self.analysis_open

    def draw_advice(self, advice: Advice | None, hints: int) -> None:
        """The advice and hints your Level shows, the Coach button, and the analysis when open."""
        sitting = self.host.sitting
        state = sitting.game.state if sitting.game is not None else None
        if advice is None or state is None:
            who = "" if state is None or state.over else f"Waiting for {sitting.need_game().names[state.turn]}…"
            self.advice_html.value = f"<i>{escape(who)}</i>"
            self.coach_play_button.layout.display = "none"
            self.analysis_html.value = ""
            self.compare_button.disabled = True
            self.draw_rollouts()
            self._draw_verdict(None, False)
            return
        self.compare_button.disabled = False
        names = sitting.need_game().names
        seen = view(state, YOU)
        label = move_label(advice.move, seen, names)
        if hints <= 0:
            self.advice_html.value = (
                "<i>Expert: no hints. Open the analysis to see the coach's view.</i>"
                if sitting.setup.coaching else "<i>Coaching is off. Open the analysis to see the coach's view.</i>"
            )  # fmt: skip
            self.coach_play_button.layout.display = "none"
        else:
            parts = [f"<b>{escape(recommends(advice.coach, label))}</b>", f"<p>{escape(advice.text)}</p>"]
            if advice.plan and hints > 1:
                parts.append(f"<p><i>Plan:</i> {escape(advice.plan)}</p>")
            if hints > 1:
                others = [move_label(c.move, seen, names) for c in advice.candidates[1:hints]]
                if others:
                    parts.append(f"<p>Also worth a look: {escape(', '.join(others))}</p>")
            if game_of(seen) == CUT and hands_open(seen) and len(seen["legal"]) > 1:  # measured on CUT
                parts.append(f"<p class='cut-open-endgame'><i>{escape(OPEN_ENDGAME)}</i></p>")
            self.advice_html.value = "".join(parts)
            self.coach_play_button.description = f"Coach: {label}"
            self.coach_play_button.layout.display = ""
        self._draw_table(advice, state)
        self.draw_rollouts()
        self._draw_verdict(advice, hints > 0 and self.coach_open)

    def _priced(self, advice: Advice) -> Evaluation | None:
        """The evaluation of your position once it has priced the coach's move: its verdict settled, or asked for
        it and spent its budget (a verdict then said on fewer deals, its interval as wide as they warrant)."""
        held = self.evaluated()
        move = str(advice.move)
        return held if held is not None and (move in held.focus or held.decided(move)) else None

    def _draw_verdict(self, advice: Advice | None, shown: bool) -> None:
        """The verdict line under a recommendation ``shown``: what your position's evaluation says of the coach's
        move, and the button that plays its best when that is another move. Until the evaluation has priced the
        move the line says the check runs, and the evaluation is started (extended, if it is held for another
        focus) unless one runs now: that one's end draws the line again. Only ever the current position's."""
        with self._verdict_lock:
            self._draw_verdict_now(advice, shown)

    def _draw_verdict_now(self, advice: Advice | None, shown: bool) -> None:
        state = self._your_turn()
        found = None if advice is None or state is None or not shown else self._priced(advice)
        if advice is None or state is None or found is None:
            self.best_button.layout.display = "none"
            checking = shown and advice is not None and state is not None and self._start_verdict(advice, state)
            self.verdict_html.value = f"<p><i>{escape(TUTOR_CHECKING)}</i></p>" if checking else ""
            return
        seen, names = view(state, YOU), self.host.sitting.need_game().names
        mine, best = found.price(advice.move), found.best
        label, top = move_label(advice.move, seen, names), move_label(best.move, seen, names)
        # the moves in italics, as the guide writes them: placed after the words are escaped
        said = escape(verdict_line(mine.verdict, "\x00", "\x01", mine.gap, mine.gap_low, mine.gap_high))
        said = said.replace("\x00", f"<i>{escape(label)}</i>").replace("\x01", f"<i>{escape(top)}</i>")
        parts = [f"<p role='status'><b>{said}</b></p>"]
        if mine.verdict == WORSE:  # beyond noise: the coach's Style at work, and what it costs here
            parts.append(f"<p>{escape(style_cost(advice.coach, COACH_STYLE[advice.coach], mine.gap))}</p>")
        self.verdict_html.value = "".join(parts)
        self.best_button.tooltip = top
        self.best_button.layout.display = "" if best.move != advice.move else "none"

    def _start_verdict(self, advice: Advice, state: State) -> bool:
        """Start the evaluation the verdict line waits for, once per position and move, with the coach's move as
        its focus and at most :data:`VERDICT_ROLLOUTS` more rollouts than it holds; whether the line is still to come
        (not with a single legal move, an automated seat, or an analysis of this position cancelled)."""
        game, seen = self.host.sitting.need_game(), view(state, YOU)
        key, move = _position_key(seen), str(advice.move)
        if not self.verdicts or len(seen["legal"]) < 2 or game.automated[YOU] or key == self._stopped:
            return False
        if self._verdict_asked == (key, move) or self._running():
            return True  # asked already, or another run's end draws the line again
        if self._verdict_paused != (key, move) and self._pause(key, move):
            return True  # the pause's end draws the line again
        held = cached(seen)  # continued by as many, past the budget it holds, or it would be returned as it is
        rollouts = VERDICT_ROLLOUTS if held is None else max(held.rollouts + VERDICT_ROLLOUTS, held.budget + 1)
        if self._start(seen, key, None, rollouts, None, False, None, advice.move):
            self._verdict_asked = (key, move)
        return True

    def _pause(self, key: str, move: str) -> bool:
        """Wait :data:`VERDICT_PAUSE` on the kernel's event loop, then draw the line again (which starts the
        evaluation if the position and the coach's move are still these); without a running loop (a script, a
        test) there is no pause."""
        try:
            events = asyncio.get_running_loop()
        except RuntimeError:
            return False
        if self._verdict_due is not None:
            if self._verdict_due[0] == (key, move):
                return True  # its pause runs already
            self._verdict_due[1].cancel()

        def due() -> None:
            self._verdict_due, self._verdict_paused = None, (key, move)
            self._draw_verdict(self.advice(), self.coach_open and self.hint_count() > 0)

        self._verdict_due = ((key, move), events.call_later(VERDICT_PAUSE, due))
        return True

    def _draw_table(self, advice: Advice, state: State) -> None:
        """The analysis table (with the rollouts once they are in) and, when asked, all three coaches."""
        if not self.analysis_open:
            self.analysis_html.value = ""
            return
        held = cached(view(state, YOU))
        rows = move_rows(advice, None if held is None else held.analysis, self.selected())
        html = move_table_html(rows, advice.coach)
        if self.comparing:
            html += "<h4>All three coaches</h4>" + compare_html(self._compare(state), advice.coach)
        self.analysis_html.value = html


def _aim(resume: Analysis | None) -> float:
    """The precision an analysis aims at: the library's first, then the one continued, halved once a continuation
    knew every gap to it or found it too close to call (a verdict in settles no gap: it keeps the precision)."""
    if resume is None:
        return PRECISION
    return resume.precision / (2 if resume.stopped == "apart" and resume.aim == "gaps" else 1)


def _position_key(seen: dict[str, object]) -> str:
    """A position as your view has it: a cancelled analysis is remembered per key (C2)."""
    return json.dumps(seen, sort_keys=True)
