"""The review room in the tutor app, driven through GameApp's twins: a hand with deliberate blunders is reviewed in
the background and graded, a retry hides the answer until chosen, the mistakes become the learner's drills (kept per
learner, due by a fixed clock), tutor mode asks only above its threshold, and the belief panel follows your turns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from cut_tutor.engine import view
from cut_tutor.engine.view import unseen
from cut_tutor.engine.words import RETRY_ASK
from cut_tutor.review.tutor import HEURISTIC_NOISE
from cut_tutor.widgets.app import GameApp
from cut_tutor.widgets.review_room import DRILLS_FILE, ReviewRoom
from cut_tutor.widgets.shared import YOU

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
    app.review.clock = lambda: NOW
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
    later.review.clock = lambda: NOW + timedelta(days=1)
    assert drill.id in {d.id for d in later.drills.due()}
    # another learner on the same server has a deck of their own
    other = small_app(home)
    other.set_learner("someone-else")
    assert other.drills.drills() == [] and other.drills.path.parent.name == "someone-else"


def test_cancel_stops_a_review_and_keeps_nothing(tmp_path: Path) -> None:
    app = small_app(tmp_path)
    app.review.rollouts = 4000  # long enough to be running when Cancel is pressed
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
    loss = max(totals) - advice.candidates[-1].total
    assert loss > HEURISTIC_NOISE + 1
    bad = worst(app)
    # off by default: the play lands
    assert app.review.tutor_on is False
    # above the threshold it asks, and the play waits
    app.set_tutor(True, threshold=loss - 0.5)
    app.play(bad)
    assert len(state.moves) == 0 and app.review.caution is not None and app.review.caution.move == bad
    assert app.review.tutor_box.layout.display == ""
    hint = app.tutor_hint()
    assert hint.startswith("Madonna recommends: ") and app.review.caution.best == str(advice.move)
    app.rethink()
    assert app.review.caution is None and app.review.tutor_box.layout.display == "none" and not state.moves
    # the coach's own move is never questioned, nor one too close to call even at the smallest threshold
    app.set_tutor(True, threshold=0.5)
    close = [c for c in advice.candidates[1:] if max(totals) - c.total < HEURISTIC_NOISE]
    for candidate in close[:1]:
        assert app.review.asks([candidate.move]) is False
    assert app.review.asks([advice.move]) is False
    # Play anyway lands the play asked about
    app.play(bad)
    assert app.review.caution is not None
    app.play_anyway()
    assert [str(m) for m in app.state.moves] == [bad] and app.review.caution is None  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="not asking"):
        app.play_anyway()


def test_tutor_mode_lets_a_play_below_its_threshold_land(tmp_path: Path) -> None:
    app = small_app(tmp_path, pacing="Step")
    app.deal(seed=SEED)
    advice = app.advice()
    assert advice is not None
    loss = advice.candidates[0].total - advice.candidates[-1].total
    app.set_tutor(True, threshold=loss + 0.5)
    app.play(worst(app))
    assert len(app.state.moves) == 1 and app.review.caution is None  # type: ignore[union-attr]


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
