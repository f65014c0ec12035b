"""The review, drills and tutor rooms in the tutor app, driven through GameApp's twins: a hand with deliberate blunders
is reviewed in the background and graded, a retry hides the answer until chosen, the mistakes become the learner's
drills (kept per learner, due by a fixed clock), tutor mode asks only above its threshold, and the belief panel follows
your turns."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from cut_tutor.analysis import Analysis, MoveValue, evaluations
from cut_tutor.analysis.search import Search
from cut_tutor.analysis.stats import MIN_ROLLOUTS
from cut_tutor.coach import advise
from cut_tutor.engine import Move, view
from cut_tutor.engine.view import unseen
from cut_tutor.review import grade
from cut_tutor.review.drills import DRILLS_FILE
from cut_tutor.review.drills import judge as drills_judge
from cut_tutor.review.tutor import HEURISTIC_NOISE, judge
from cut_tutor.review.words import RETRY_ASK, TUTOR_CHECKING, tutor_cleared, tutor_measured
from cut_tutor.widgets.app import GameApp
from cut_tutor.widgets.review_room import ReviewRoom
from cut_tutor.widgets.shared import YOU
from cut_tutor.widgets.table import move_label

#: A fixed clock for the drills' schedule.
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
#: A two-player deal on which playing the coach's worst move every turn is a short hand with graded blunders.
SEED = 3


def small_app(home: Path, pacing: str = "Auto") -> GameApp:
    """Two players, the review's budgets small, the drills on the fixed clock."""
    app = GameApp(home)
    app.set_players(2)
    app.set_pacing(pacing)
    app.review.rollouts, app.review.deal_rollouts = 24, 8
    app.drills_room.clock = lambda: NOW
    return app


def worst(app: GameApp) -> str:
    """The move the chosen coach ranks last in your position."""
    advice = app.advice()
    assert advice is not None
    return str(advice.candidates[-1].move)


@pytest.fixture(autouse=True)
def _automatic_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    """This room's tests review a hand the moment it ends, as the app does."""
    monkeypatch.setattr(ReviewRoom, "automatic", True)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A hand in which you play the coach's worst move every turn, then its review."""
    home = tmp_path_factory.mktemp("home")
    app = small_app(home)
    app.deal(seed=SEED)
    assert app.review_panel is None and app.review_hand() is None  # no review while the hand is in play
    made = []
    while not app.state.over:  # type: ignore[union-attr]
        made.append(worst(app))
        app.play(made[-1])
    hand = app.review_hand(wait=True)
    return {"app": app, "home": home, "made": made, "hand": hand}


def test_the_hand_is_reviewed_after_it_ends_and_its_blunders_are_graded(played: dict[str, Any]) -> None:
    app, hand, made = played["app"], played["hand"], played["made"]
    assert hand is not None and hand.summary.seat == YOU
    assert [d.move for d in hand.decisions] == [m for m in made if m in {d.move for d in hand.decisions}]
    assert hand.summary.graded["blunder"] >= 1
    panel = app.review_panel
    assert panel is not None and panel.hand is hand
    marks = [row["Grade"] for row in panel.rows()]
    assert any(mark.startswith("??") for mark in marks)
    assert "Hand 1 reviewed." in app.review.review_status.value
    assert app.review.review_progress.layout.display == "none"  # the bar and Cancel go once it is done
    # the same hand is not reviewed twice: the review made is kept
    assert app.review_hand() is hand


def test_next_and_previous_mistake_step_the_graded_moves(played: dict[str, Any]) -> None:
    panel, hand = played["app"].review_panel, played["hand"]
    graded = [d.ply for d in hand.mistakes()]
    assert panel.next_mistake() == graded[0]
    assert panel.previous_mistake() == graded[-1]  # wraps round


def test_a_retry_hides_the_answer_until_a_move_is_chosen(played: dict[str, Any]) -> None:
    panel = played["app"].review_panel
    ply = panel.next_mistake()
    decision = next(d for d in panel.hand.decisions if d.ply == ply)
    labels = panel.retry()
    assert len(labels) == decision.options
    assert panel._said.value == RETRY_ASK and panel.analysis is None and panel._shown.value == ""
    assert decision.best not in panel._said.value
    assert panel.choose(decision.best) == "The best move."
    assert panel.analysis is not None and panel._shown.value


def test_the_mistakes_are_the_learners_drills_kept_in_their_home_and_due_by_the_clock(
    played: dict[str, Any],
) -> None:
    app, hand, home = played["app"], played["hand"], played["home"]
    assert (home / DRILLS_FILE).is_file()
    due = app.drills.due()
    assert sorted(d.ply for d in due) == [d.ply for d in hand.mistakes()]
    panel = app.drills_panel
    assert panel.current is not None and len(panel.due) == len(due)
    # answered with the move that was graded: not solved, so FSRS shows it again soon, not at once
    drill = panel.current
    made = str(drill.record["moves"][drill.ply])
    assert panel.choose(made).startswith("Worse than the best move")
    assert app.drills.attempts()[-1] == {"drill": drill.id, "answered": NOW.isoformat(), "move": made, "solved": 0}
    assert drill.id not in {d.id for d in app.drills.due()}
    later = small_app(home)  # the same learner's home, a day later: the deck persists and the drill is due again
    later.drills_room.clock = lambda: NOW + timedelta(days=1)
    assert drill.id in {d.id for d in later.drills.due()}
    # another learner on the same server has a deck of their own
    other = small_app(home)
    other.set_learner("someone-else")
    assert other.drills.drills() == [] and other.drills.path.parent.name == "someone-else"


def test_no_empty_review_bar_shows_while_the_first_hand_is_in_play(tmp_path: Path) -> None:
    app = small_app(tmp_path)
    app.deal(seed=SEED)
    app.play(worst(app))
    room = app.review
    assert room.review_section.layout.display == "none" and room.review_progress.layout.display == "none"


def test_cancel_stops_a_review_and_keeps_nothing(tmp_path: Path) -> None:
    app = small_app(tmp_path)
    app.review.rollouts = 400  # 2.5 times the default: the first decision is still running when Cancel is pressed
    app.deal(seed=SEED)
    while not app.state.over:  # type: ignore[union-attr]
        app.play(worst(app))
    app.cancel_review()
    assert app.review_hand(wait=True) is None
    assert app.review.review_status.value == "Review stopped." and app.review_panel is None


def test_tutor_mode_asks_only_above_its_threshold(tmp_path: Path) -> None:
    app = small_app(tmp_path, pacing="Step")
    app.deal(seed=SEED)
    state = app.state
    assert state is not None and state.turn == YOU
    advice = app.advice()
    assert advice is not None
    totals = [c.total for c in advice.candidates]
    loss = advice.candidates[0].total - advice.candidates[-1].total
    assert loss > HEURISTIC_NOISE + 1
    bad = worst(app)
    # off by default: the play lands
    assert app.tutor.tutor_on is False
    # above the threshold it asks, and the play waits
    app.set_tutor(True, threshold=loss - 0.5)
    app.play(bad)
    assert len(state.moves) == 0 and app.tutor.caution is not None and app.tutor.caution.move == bad
    assert app.tutor.tutor_box.layout.display == ""
    hint = app.tutor_hint()
    assert hint.startswith("Madonna recommends: ") and app.tutor.caution.best == str(advice.move)
    app.rethink()
    assert app.tutor.caution is None and app.tutor.tutor_box.layout.display == "none" and not state.moves
    # the coach's own move is never questioned, nor one too close to call even at the smallest threshold
    app.set_tutor(True, threshold=0.5)
    close = [c for c in advice.candidates[1:] if totals[0] - c.total < HEURISTIC_NOISE]
    for candidate in close[:1]:
        assert app.tutor.asks([candidate.move]) is False
    assert app.tutor.asks([advice.move]) is False
    # Play anyway lands the play asked about
    app.play(bad)
    assert app.tutor.caution is not None
    app.play_anyway()
    assert [str(m) for m in app.state.moves] == [bad] and app.tutor.caution is None  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="not asking"):
        app.play_anyway()


def test_tutor_mode_lets_a_play_below_its_threshold_land(tmp_path: Path) -> None:
    app = small_app(tmp_path, pacing="Step")
    app.deal(seed=SEED)
    bad = worst(app)
    loss = judge(view(app.state, YOU), bad, level=app.setup.seats[YOU].level).loss  # the tutor's own measure
    app.set_tutor(True, threshold=loss + 0.5)
    app.play(bad)
    assert len(app.state.moves) == 1 and app.tutor.caution is None  # type: ignore[union-attr]


def test_the_tutor_judges_by_the_advice_you_are_shown(tmp_path: Path) -> None:
    """At your Level, not the Expert's: once the tutor said "Madonna recommends" a move her panel did not."""
    app = small_app(tmp_path, pacing="Step")
    app.set_level(YOU, "Average")
    for seed in range(60):
        app.deal(seed=seed)
        shown = app.advice()  # None when your turn has not come
        if shown is not None and shown.move != (expert := advise(view(app.state, YOU), level="Expert")).move:
            caution = judge(view(app.state, YOU), expert.move, level="Average")
            if caution.loss >= HEURISTIC_NOISE + 1:
                break
    else:
        pytest.fail("no deal where the Average and the Expert coach differ")
    assert shown.level == "Average" and caution.best == str(shown.move)
    app.set_tutor(True, threshold=caution.loss - 0.5)
    assert app.tutor.asks([shown.move]) is False
    app.play(str(expert.move))
    assert app.tutor.caution is not None and app.tutor.caution.best == str(shown.move)
    assert app.tutor_hint() == f"Madonna recommends: {shown.label}"


class Analyser:
    """Stands in for the analysis under your position's evaluation: a constructed verdict on your move, counting its
    runs; a run lasts until :attr:`go` is set (or the run is cancelled), and while :attr:`free` is clear it holds
    before its next round (:attr:`holding` set). Its rollouts give every move the same points on every deal, so
    each gap is known exactly and the verdicts are settled — unless not ``settled``: then every move has fewer
    deals than a verdict needs, as when the budget is spent first."""

    def __init__(self, move: str, gap: float, low: float, high: float, settled: bool = True) -> None:
        self.move, self.gap, self.low, self.high = move, gap, low, high
        self.deals = MIN_ROLLOUTS if settled else MIN_ROLLOUTS // 2
        self.runs, self.finished, self.go, self.started = 0, 0, threading.Event(), threading.Event()
        self.free, self.holding = threading.Event(), threading.Event()
        self.free.set()

    def __call__(self, seen: dict[str, Any], progress: Callable[[float], None], **_: Any) -> Analysis:
        self.runs += 1
        self.started.set()
        while True:  # a round, then the cancel's check, as the analysis' own rounds end: a run cancelled before
            if not self.free.is_set():  # ``go`` is set never finishes (``progress`` raises once Cancel stops it)
                self.holding.set()
                assert self.free.wait(10)
            progress(0.5)
            if self.go.is_set():
                break
            time.sleep(0.01)
        self.finished += 1
        best = next(m for m in seen["legal"] if m != self.move)
        rows = [MoveValue(Move.parse(best), best, 5.0, 4.0, 6.0, 0.0, 0.0, 0.0, 0.0, 50, "best")]
        for text in seen["legal"]:
            if text != best:
                gap, low, high = (self.gap, self.low, self.high) if text == self.move else (1.0, -1.0, 3.0)
                rows.append(MoveValue(Move.parse(text), text, 5 + gap, 4 + gap, 6 + gap, gap, low, high, 0.0, 50,
                                      "close" if low <= 0 else "worse"))  # fmt: skip
        points = {str(m.move): round(m.expected) for m in rows}
        search = Search([list(range(self.deals)) for _ in seen["legal"]],
                        [[(points[t], False)] * self.deals for t in seen["legal"]],
                        list(range(len(seen["legal"]))), "apart", 0.1)  # fmt: skip
        return Analysis(seen["seat"], rows, 50 * len(rows), 0.1, "budget", 0, "Expert:Balanced", search=search)


def said_label(app: GameApp, move: str) -> str:
    """A move in the words of its button."""
    return move_label(Move.parse(move), view(app.state, YOU), app.need_game().names)  # type: ignore[arg-type]


def asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *verdict: float, settled: bool = True
) -> tuple[GameApp, Analyser]:
    """Your worst move asked about on the coach's word (threshold 12) while the analysis, standing in with
    ``verdict`` (``settled`` or not), runs (set its ``go`` to let it finish)."""
    app = small_app(tmp_path, pacing="Step")
    app.coach.verdicts = False  # the verdict line's own run would be a second, timed by its pause: counted apart
    app.deal(seed=SEED)
    bad = worst(app)
    analyser = Analyser(bad, *verdict, settled=settled)
    monkeypatch.setattr(evaluations, "analyse", analyser)
    app.set_tutor(True, threshold=12.0)
    assert app.tutor.asks([bad]) and app.tutor.caution is not None and app.tutor.caution.source == "coach"
    assert TUTOR_CHECKING in app.tutor.tutor_said.value
    assert analyser.started.wait(10)  # the check's run has begun, in its own thread
    return app, analyser


def test_the_tutor_checks_with_the_analysis_and_shows_its_loss_with_its_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, analyser = asked(tmp_path, monkeypatch, 20.0, 10.0, 30.0)
    analyser.go.set()
    caution = app.tutor.wait_tutor()
    assert caution is not None and caution.source == "analysis"
    assert (caution.loss, caution.low, caution.high) == (20.0, 10.0, 30.0)
    said = app.tutor.tutor_said.value
    assert tutor_measured(said_label(app, caution.move), 20.0, 10.0, 30.0) in said and TUTOR_CHECKING not in said
    assert app.state is not None and not app.state.moves  # the play still waits
    assert app.tutor_hint().startswith("The analysis prefers: ")
    # the analysis is the coach panel's, kept for this position: opening the analysis does not run it again
    found = app.coach.rollouts()
    assert found is not None and str(found.best.move) == caution.best
    runs = analyser.runs
    app.coach.start_rollouts(wait=True)
    assert analyser.runs == runs
    app.play_anyway()
    assert [str(m) for m in app.state.moves] == [caution.move]


def test_a_play_the_analysis_finds_too_close_to_call_waits_for_the_learners_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, analyser = asked(tmp_path, monkeypatch, 15.0, -2.0, 32.0)
    analyser.go.set()
    caution = app.tutor.wait_tutor()
    assert caution is not None and not caution.asks(app.tutor.threshold)
    said = app.tutor.tutor_said.value
    assert tutor_cleared(said_label(app, caution.move), 15.0, -2.0, 32.0, 12.0) in said
    assert said.count("Too close to call") == 1 and TUTOR_CHECKING not in said
    assert app.tutor.tutor_box.layout.display == "" and app.state is not None and not app.state.moves
    app.play_anyway()
    assert len(app.state.moves) == 1


def test_a_play_the_analysis_puts_under_the_threshold_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, analyser = asked(tmp_path, monkeypatch, 3.0, 1.0, 5.0)
    analyser.go.set()
    caution = app.tutor.wait_tutor()
    assert caution is not None and caution.source == "analysis"
    assert "under your 12.0" in app.tutor.tutor_said.value and app.state is not None and not app.state.moves
    app.rethink()
    assert app.tutor.caution is None and not app.state.moves


def test_rethink_cancels_the_tutors_analysis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, analyser = asked(tmp_path, monkeypatch, 20.0, 10.0, 30.0)
    check = app.tutor._check.thread if app.tutor._check is not None else None
    assert check is not None and check.is_alive()
    app.rethink()
    check.join(timeout=10)
    assert not check.is_alive() and analyser.runs == 1 and analyser.finished == 0  # cancelled, never finished
    assert app.coach.rollouts() is None and app.tutor.caution is None  # nothing kept, nothing asked


def test_a_new_move_cancels_the_tutors_analysis_and_checks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, analyser = asked(tmp_path, monkeypatch, 20.0, 10.0, 30.0, settled=False)
    first = app.tutor._check.thread if app.tutor._check is not None else None
    assert first is not None
    assert app.tutor.asks([analyser.move])  # asked again: the first run gives way
    first.join(timeout=10)
    assert not first.is_alive() and app.coach.rollouts() is None
    analyser.go.set()
    caution = app.tutor.wait_tutor()
    assert caution is not None and caution.source == "analysis"
    assert analyser.runs == 2  # one run a question, whichever ended first: the first run's end or the second check
    # (above: nothing kept from the first run; its budget spent, the second's word is said as it stands)


@pytest.mark.parametrize("ended", [True, False], ids=["cancelled-run-ended", "cancelled-run-ending"])
def test_a_question_asked_again_after_rethink_runs_the_analysis_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ended: bool
) -> None:
    """Asked, *Rethink*, asked again on the same position: the second check runs the analysis once, whether the run
    *Rethink* cancelled has ended by then or is still ending (its end comes first: the check's first wait is for
    it), also when that one run spends its budget before the verdict settles — a second would spend it twice."""
    app, analyser = asked(tmp_path, monkeypatch, 20.0, 10.0, 30.0, settled=False)
    cancelled = app.coach.analyses.job
    assert cancelled is not None
    waiting: list[threading.Thread] = []  # the threads that waited for the coach panel's run, in order
    waited = threading.Condition()
    wait_rollouts = app.coach.wait_rollouts

    def spy(until: Callable[[], bool] | None = None) -> None:
        with waited:
            waiting.append(threading.current_thread())
            waited.notify_all()
        wait_rollouts(until)

    monkeypatch.setattr(app.coach, "wait_rollouts", spy)
    if not ended:
        analyser.free.clear()
        assert analyser.holding.wait(10)  # the first run holds before its next round: it is still going
    app.rethink()
    if ended:
        cancelled.thread.join(timeout=10)
        assert not cancelled.thread.is_alive()
    app.play(analyser.move)
    second = app.tutor._check
    assert second is not None and second is not cancelled
    if not ended:
        with waited:  # the second check found the cancelled run going, and waits for its end
            assert waited.wait_for(lambda: second.thread in waiting, timeout=10)
        analyser.free.set()
    analyser.go.set()
    caution = app.tutor.wait_tutor()
    assert caution is not None and caution.source == "analysis"
    assert (caution.loss, caution.low, caution.high) == (20.0, 10.0, 30.0)
    assert analyser.runs == 2 and analyser.finished == 1  # one run a question; the cancelled one never finished


def test_cancel_in_the_coach_panel_ends_the_tutors_check_with_no_second_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coach panel's Cancel stops the run the tutor's check waits for: the question stays on the coach's word,
    no longer checking, and the check starts no run in place of the one cancelled."""
    app, analyser = asked(tmp_path, monkeypatch, 20.0, 10.0, 30.0)
    check = app.tutor._check
    assert check is not None
    app.coach.cancel_rollouts()
    check.thread.join(timeout=10)
    assert not check.thread.is_alive() and analyser.runs == 1 and analyser.finished == 0
    caution = app.tutor.wait_tutor()
    assert caution is not None and caution.source == "coach" and app.coach.rollouts() is None
    assert TUTOR_CHECKING not in app.tutor.tutor_said.value and app.state is not None and not app.state.moves


def test_no_analysis_starts_when_tutor_mode_is_off_or_the_play_is_fine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = small_app(tmp_path, pacing="Step")
    app.deal(seed=SEED)
    advice = app.advice()
    assert advice is not None
    analyser = Analyser(worst(app), 20.0, 10.0, 30.0)
    analyser.go.set()
    monkeypatch.setattr(evaluations, "analyse", analyser)
    app.set_tutor(True, threshold=12.0)
    assert app.tutor.asks([advice.move]) is False and app.tutor._check is None  # the coach's own move
    app.set_tutor(False)
    app.play(worst(app))
    assert app.state is not None and len(app.state.moves) == 1 and app.tutor._check is None
    assert analyser.runs == 0


def test_an_analysis_already_made_answers_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = small_app(tmp_path, pacing="Step")
    app.deal(seed=SEED)
    analyser = Analyser(worst(app), 20.0, 10.0, 30.0)
    analyser.go.set()
    monkeypatch.setattr(evaluations, "analyse", analyser)
    app.coach.start_rollouts(wait=True)  # the learner ran the analysis from the coach panel first
    app.set_tutor(True, threshold=12.0)
    app.play(worst(app))
    caution = app.tutor.caution
    assert caution is not None and caution.source == "analysis" and app.tutor._check is None
    assert analyser.runs == 1 and TUTOR_CHECKING not in app.tutor.tutor_said.value


def test_the_tutor_refines_with_a_real_analysis(tmp_path: Path) -> None:
    app = small_app(tmp_path, pacing="Step")
    app.tutor.tutor_seconds, app.tutor.tutor_rollouts = None, 48  # a small budget, the same on every run
    app.deal(seed=SEED)
    app.set_tutor(True, threshold=HEURISTIC_NOISE)
    bad = worst(app)
    app.play(bad)
    assert app.tutor.caution is not None and app.tutor.caution.source == "coach"
    caution = app.tutor.wait_tutor()
    found = app.coach.rollouts()
    assert found is not None and found.seat == YOU
    assert caution is not None and caution.source == "analysis" and caution.move == bad
    mine = next(m for m in found.moves if str(m.move) == bad)
    assert (caution.loss, caution.low, caution.high) == (mine.gap, mine.gap_low, mine.gap_high)
    label, threshold = said_label(app, bad), app.tutor.threshold
    if caution.asks(threshold):
        said = tutor_measured(label, mine.gap, mine.gap_low, mine.gap_high)
    else:
        said = tutor_cleared(label, mine.gap, mine.gap_low, mine.gap_high, threshold)
    assert said in app.tutor.tutor_said.value
    assert app.state is not None and not app.state.moves


def test_every_judge_reads_the_position_s_one_evaluation(tmp_path: Path) -> None:
    """One position, every judge (twins): the tutor's price for your move is the review's loss for that decision,
    with the same interval and the same best, and a retry and a drill of it judge by the same figures."""
    app = small_app(tmp_path)
    app.review.rollouts = 64
    app.tutor.tutor_seconds, app.tutor.tutor_rollouts = None, 64  # the review's budget: neither extends the other
    app.deal(seed=SEED)
    app.set_tutor(True, threshold=HEURISTIC_NOISE)
    assert app.state is not None
    ply, bad = len(app.state.moves), worst(app)
    app.play(bad)
    caution = app.tutor.wait_tutor()
    assert caution is not None and caution.source == "analysis" and caution.move == bad
    app.play_anyway()
    app.set_tutor(False)
    while not app.state.over:
        app.play(worst(app))
    hand = app.review_hand(wait=True)
    assert hand is not None
    k, d = next((k, d) for k, d in enumerate(hand.decisions) if d.ply == ply)
    assert (d.move, d.best, d.loss, d.loss_low, d.loss_high) == (bad, caution.best, caution.loss, caution.low,
                                                                 caution.high)  # fmt: skip
    assert caution.low is not None
    if caution.low <= 0:
        assert d.grade is None and not caution.asks(0.5)  # too close to call: neither asked about nor graded
    else:
        assert d.grade == grade(caution.loss, caution.low)
    panel = app.review_panel
    assert panel is not None
    panel.select(k)
    panel.retry()
    panel.choose(bad)
    assert panel.analysis is not None and str(panel.analysis.best.move) == d.best
    assert drills_judge(panel.analysis, bad)[1] == d.loss


def test_one_position_every_judge_and_the_coach_s_moves_said_followed(tmp_path: Path) -> None:
    """One position, every judge (twins), in a hand with a deliberate blunder and moves made with *Coach: Play*: the
    coach panel's check of your position, *Analyse longer* on it (narrower, the same seed), the tutor's price, the
    review's best, loss and grade, a retry and a drill all read one evaluation, re-opened as it was; a move too close
    to call is neither graded nor warned about; and the review says you followed Madonna where you pressed *Coach:
    Play* (and no coach where you blundered)."""
    app = small_app(tmp_path)
    app.review.rollouts = 64
    app.tutor.tutor_seconds, app.tutor.tutor_rollouts = None, 64  # the review's budget: neither extends the other
    app.deal(seed=SEED)
    assert app.state is not None and app.setup.coach == "Madonna"
    followed: list[int] = []  # the decisions made with Coach: Play before the blunder, and after it
    while len(followed) < 2 and not app.state.over:
        if len(app.state.legal_moves()) > 1:
            followed.append(len(app.state.moves))
        app.coach_play()
    ply, bad, seen = len(app.state.moves), worst(app), view(app.state, YOU)
    app.coach.start_rollouts(seconds=None, rollouts=64, wait=True, focus=bad)  # the panel's check, your move priced
    checked = app.coach.evaluated()
    assert checked is not None and checked is evaluations.cached(seen) and checked.seed == evaluations.seed_of(seen)
    app.analyse_longer(seconds=None, rollouts=400, wait=True)
    longer = app.coach.evaluated()
    assert longer is not None and longer.seed == checked.seed and longer.rollouts > checked.rollouts
    wide, narrow = checked.price(bad), longer.price(bad)
    if longer.best.move == checked.best.move:
        assert narrow.gap_high - narrow.gap_low < wide.gap_high - wide.gap_low
    app.set_tutor(True, threshold=HEURISTIC_NOISE)
    app.play(bad)
    caution = app.tutor.wait_tutor()
    assert caution is not None and caution.source == "analysis"
    assert (caution.best, caution.loss, caution.low, caution.high) == (str(longer.best.move), narrow.gap,
                                                                        narrow.gap_low, narrow.gap_high)  # fmt: skip
    app.play_anyway()
    app.set_tutor(False)
    while not app.state.over:
        if len(app.state.legal_moves()) > 1 and len(followed) < 4:
            followed.append(len(app.state.moves))
        app.coach_play()
    hand = app.review_hand(wait=True)
    assert hand is not None
    assert evaluations.evaluation(seen, bad, rollouts=64) is longer  # re-opened: the same evaluation, nothing redrawn
    k, d = next((k, d) for k, d in enumerate(hand.decisions) if d.ply == ply)
    assert (d.move, d.best, d.loss, d.loss_low, d.loss_high) == (bad, str(longer.best.move), narrow.gap,
                                                                 narrow.gap_low, narrow.gap_high)  # fmt: skip
    if narrow.verdict == "close":
        assert d.grade is None and not caution.asks(0.5)  # too close to call: neither warned about nor graded
    else:
        assert d.grade == grade(narrow.gap, narrow.gap_low)
    panel = app.review_panel
    assert panel is not None
    panel.select(k)
    panel.retry()
    panel.choose(bad)
    assert panel.analysis is longer.analysis
    assert drills_judge(longer.analysis, bad) == (narrow.verdict, narrow.gap)
    rows = {d.ply: row for d, row in zip(hand.decisions, panel.rows(), strict=True)}
    level = app.setup.seats[YOU].level
    assert "Madonna" not in d.coaches and d.coaches == tuple(c for c in ("Daryl", "Madonna", "Marty")
                                                             if str(advise(seen, c, level).move) == bad)  # fmt: skip
    by_ply = {d.ply: d for d in hand.decisions}
    assert followed and all(p in by_ply for p in followed)
    for p in followed:
        assert "Madonna" in by_ply[p].coaches and rows[p]["Turn"] == str(by_ply[p].turn)
        assert rows[p]["Coach"].startswith("You followed") and "Madonna" in rows[p]["Coach"]


def test_the_belief_panel_shows_your_view_on_your_turn_only(tmp_path: Path) -> None:
    app = small_app(tmp_path, pacing="Step")
    app.deal(seed=SEED)
    assert app.belief_panel is None  # closed, it costs nothing
    app.open_belief()
    panel = app.belief_panel
    assert panel is not None and panel.belief.seat == YOU
    seen = view(app.state, YOU)  # type: ignore[arg-type]
    assert sum(panel.belief.unseen.values()) == sum(unseen(dict(seen))[1:])
    before = panel.belief
    app.play(worst(app))  # now the AI seat's turn (Step pacing waits): the panel keeps your last turn's belief
    assert app.state is not None and app.state.turn != YOU and app.belief_panel.belief is before  # type: ignore[union-attr]
    app.next()
    if app.state is not None and app.state.turn == YOU and not app.state.over:
        assert app.belief_panel.belief is not before  # type: ignore[union-attr]
