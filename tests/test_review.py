"""Hand review, tutor mode, the belief data, drills and progress (the guide's *Hand review* page)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cut_tutor import cli
from cut_tutor.analysis import Analysis, Deals, Evaluation, MoveValue, evaluation
from cut_tutor.analysis.evaluations import cached, forget
from cut_tutor.analysis.search import Result, rounds
from cut_tutor.analysis.stats import mean_interval
from cut_tutor.coach import COACH_STYLE, AIPlayer, Knowledge, advise
from cut_tutor.engine import Move, Rules, State, record_of, replay, view
from cut_tutor.engine.view import sight
from cut_tutor.review import Drills, belief, grade, progress_csv, progress_figure, progress_frame, review, warn
from cut_tutor.review import hand as hand_module
from cut_tutor.review.drills import review_of
from cut_tutor.review.hand import summarise
from cut_tutor.review.words import REVIEW_COLUMNS, followed_text, luck_parts, turn_number


def value(move: str, expected: float, gap: float, low: float, high: float, verdict: str) -> MoveValue:
    return MoveValue(Move.parse(move), move, expected, expected - 1, expected + 1, gap, low, high, 0.0, 50, verdict)


#: Small budgets keep each review to a few seconds: the tests check what a review does, not how well it measures.
FAST = {"rollouts": 8, "deal_rollouts": 2}


def analysis(*moves: MoveValue, seat: int = 0) -> Analysis:
    return Analysis(seat, list(moves), 100, 0.1, "budget", 0, "Expert:Balanced")


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    """A short 2-seat hand played by Average seats: 35 moves, 14 decisions of seat 0 and 13 of seat 1."""
    state = State.deal(Rules(players=2), seed=47)
    seats = [AIPlayer("Average", "Balanced", seed=k) for k in range(2)]
    while not state.over:
        state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    return record_of(state)


class TestGrades:
    @pytest.mark.parametrize(
        ("loss", "low", "expected"),
        [(4.9, 0.5, None), (5.0, 0.5, "inaccuracy"), (12.0, 0.1, "mistake"), (30.0, 3.0, "blunder"),
         (30.0, 0.0, None), (30.0, -2.0, None)],
    )  # fmt: skip
    def test_thresholds_and_too_close(self, loss: float, low: float, expected: str | None) -> None:
        assert grade(loss, low) == expected

    def test_constructed_hand_known_losses(self) -> None:
        """Three decisions with losses 0, 6 (clear) and 20 (too close): one inaccuracy, the close one never graded."""
        found = [
            (0, analysis(value("1×5", 10.0, 0, 0, 0, "best"), value("1×7", 14.0, 4.0, 1.0, 7.0, "worse"))),
            (2, analysis(value("1×9", 8.0, 0, 0, 0, "best"), value("1×J", 14.0, 6.0, 2.0, 10.0, "worse"))),
            (4, analysis(value("1×2", 5.0, 0, 0, 0, "best"), value("1×K", 25.0, 20.0, -1.0, 41.0, "close"))),
        ]
        moves = [Move.parse(t) for t in ("1×5", "take", "1×J", "take", "1×K", "take")]
        result = summarise(found, moves, [0, 1, 0, 1, 0, 1], 0, points=3, average=12.0)
        assert [d.grade for d in result.decisions] == [None, "inaccuracy", None]
        assert [d.loss for d in result.decisions] == [0.0, 6.0, 20.0]
        s = result.summary
        assert (s.lost, s.lost_to_mistakes, s.graded["inaccuracy"]) == (26.0, 6.0, 1)
        assert s.accuracy == pytest.approx((100 + 100 * 0.5 ** (6 / 5) + 100) / 3, abs=0.1)
        # luck: the deal 12 → 10, then 10 → 8, 14 → 5, 25 → 3 points
        assert (s.luck_deal, s.luck_play, s.luck_blind) == (2.0, 2.0 + 9.0 + 22.0, 0.0)
        assert s.points == pytest.approx(s.average + s.lost - s.luck)

    def test_a_blind_flip_of_the_seat_is_blind_luck(self) -> None:
        found = [(0, analysis(value("flip 1", 10.0, 0, 0, 0, "best"), value("flip 2", 11.0, 1.0, -1, 3, "close")))]
        result = summarise(found, [Move.parse("flip 1")], [0], 0, points=20, average=10.0)
        assert (result.decisions[0].luck_kind, result.summary.luck_blind) == ("blind", -10.0)


def equal_moves(trial: int) -> Any:
    """A measure in which every candidate is equally good: each sample's points drawn alike for all of them."""

    def measure(samples: Sequence[int], candidates: Sequence[int]) -> list[list[Result]]:
        return [[(round(random.Random(f"{trial}:{i}:{k}").gauss(20, 10)), False) for i in samples]
                for k in candidates]  # fmt: skip

    return measure


class TestOneEvaluation:
    def test_equally_good_moves_are_priced_without_bias_and_seldom_called_worse(self) -> None:
        """Ten equally good moves, the move played fixed before the rounds, which stop once its price is known to ±2
        points: its loss against the best the rounds chose is not biased up to speak of (the best is the lowest of
        noisy means, but it is measured on the many deals the price takes), and it is called *worse* about as
        seldom as a 95% interval allows: otherwise it is too close to call, and never graded."""
        losses, worse = [], 0
        for trial in range(150):
            played = trial % 10
            search = rounds(equal_moves(trial), 10, seconds=None, max_rollouts=2000, aim="verdicts", focus=[played])
            assert search.stopped == "apart"
            if search.best == played:
                losses.append(0.0)
                continue
            loss, low, high = mean_interval(search.gap(played, search.best))
            assert high - low <= 4.0
            losses.append(loss)
            worse += low > 0
        assert abs(sum(losses) / len(losses)) < 0.75  # the same samples' bias was over 3 points at 96 rollouts
        assert worse <= 0.05 * len(losses)

    def test_the_evaluation_s_figures_make_the_decisions_and_luck(self) -> None:
        """The loss, its interval, ``expected`` and ``played`` are the evaluation's: the best's expected points and
        the move played's gap to it."""
        found = [
            (0, analysis(value("1×5", 10.0, 0, 0, 0, "best"), value("1×7", 14.0, 4.0, 1.0, 7.0, "worse"))),
            (2, analysis(value("1×9", 8.0, 0, 0, 0, "best"), value("1×J", 24.0, 16.0, 2.0, 30.0, "worse"))),
        ]
        moves = [Move.parse(t) for t in ("1×5", "take", "1×J", "take")]
        result = summarise(found, moves, [0, 1, 0, 1], 0, points=3, average=12.0)
        d = result.decisions[1]
        assert (d.loss, d.loss_low, d.loss_high, d.grade, d.expected, d.played) == (16.0, 2.0, 30.0, "mistake", 8.0,
                                                                                     24.0)  # fmt: skip
        assert [d.rollouts for d in result.decisions] == [100, 100]
        s = result.summary
        assert (s.luck_deal, s.luck_play, s.lost) == (2.0, 2.0 + 21.0, 16.0)
        assert s.points == pytest.approx(s.average + s.lost - s.luck)


class TestReview:
    def test_each_decision_sees_only_the_seat_s_view_then(
        self, finished: dict[str, Any], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        seen: list[dict[str, Any]] = []
        real = hand_module.evaluation

        def spy(v: dict[str, Any], focus: str, **options: Any) -> Evaluation:
            seen.append(v)
            return real(v, focus, **options)

        monkeypatch.setattr(hand_module, "evaluation", spy)
        result = review(finished, 1, **FAST)
        plies = [d.ply for d in result.decisions]
        assert plies and seen == [view(replay(finished, upto=p), 1) for p in plies]

    def test_planted_hidden_cards_do_not_change_a_decision(self) -> None:
        """Two hands that differ only in the other seat's hidden cards: seat 0's first decision is reviewed alike."""
        state = State.deal(Rules(players=2), seed=11)
        twin = Deals(view(state, state.turn)).sample(random.Random(5))
        assert twin.hands != state.hands and view(twin, state.turn) == view(state, state.turn)
        first = []
        for s in (state, twin):
            forget()  # each made afresh, not read from the other
            first.append(evaluation(view(s, s.turn), rollouts=40))
        assert [m.to_dict() for m in first[0].moves] == [m.to_dict() for m in first[1].moves]

    def test_each_decision_is_its_position_s_one_evaluation_with_the_move_played_in_focus(
        self, finished: dict[str, Any]
    ) -> None:
        result = review(finished, 0, rollouts=40, deal_rollouts=2)
        verdicts = set()
        for d in result.decisions:
            seen = view(replay(finished, upto=d.ply), 0)
            held = cached(seen)
            assert held is not None and held.focus == (d.move,) and str(held.best.move) == d.best
            assert (d.best_label, d.turn) == (held.best.label, turn_number(seen))  # the analysis' best, in words
            mine = held.price(d.move)
            assert (mine.gap, mine.gap_low, mine.gap_high, held.rollouts) == (d.loss, d.loss_low, d.loss_high,
                                                                              d.rollouts)  # fmt: skip
            assert d.grade is None or mine.verdict == "worse"  # a move too close to call is never graded
            if mine.verdict == "close":  # nor warned about by the tutor reading the same evaluation
                assert warn(seen, d.move, 0.0, analysis=held.analysis) is None
            verdicts.add(mine.verdict)
            assert held.decided() or held.analysis.stopped == "budget"
        assert {"best", "close"} <= verdicts  # the hand has moves too close to call to check
        s = result.summary
        assert s.points == pytest.approx(s.average + s.lost - s.luck, abs=0.002 * (s.decisions + 1))

    def test_each_decision_names_the_coaches_it_followed_at_the_learner_s_level(
        self, finished: dict[str, Any], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A move is said to follow a coach when that coach, at the learner's Level, advised it in the seat's view
        then: as a press of *Coach: Play* would have played it (the record does not say which button played it)."""
        monkeypatch.setattr(hand_module, "evaluation", self.no_analysis)
        by_level = {level: review(finished, 0, level=level, **FAST) for level in ("Average", "Expert")}
        for level, result in by_level.items():
            for d in result.decisions:
                seen = view(replay(finished, upto=d.ply), 0)
                advised = {coach: str(advise(seen, coach, level).move) for coach in COACH_STYLE}
                assert d.coaches == tuple(coach for coach, move in advised.items() if move == d.move)
        assert any(d.coaches for d in by_level["Average"].decisions)  # the Average seats often play as one advises
        assert [d.coaches for d in by_level["Average"].decisions] != [d.coaches for d in by_level["Expert"].decisions]

    def test_a_kept_review_reads_back_with_its_coaches(
        self, finished: dict[str, Any], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(hand_module, "evaluation", self.no_analysis)
        result = review(finished, 0, level="Average", **FAST)
        again = review_of(json.loads(json.dumps({"rows": result.rows()})))
        assert again.decisions == result.decisions and any(d.coaches for d in again.decisions)
        older = [{k: v for k, v in row.items() if k not in ("coaches", "turn", "best_label")} for row in result.rows()]
        assert all(d.coaches == () for d in review_of({"rows": older}).decisions)  # kept before they were said

    def test_the_cli_table_numbers_turns_and_speaks_the_table_s_words(
        self, finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """``cut-tutor review`` prints the review table's columns (Turn, never a ply), each move in its button's
        words and the coaches it followed, then the seat by the table's name and the review's summary line."""
        path = tmp_path / "hand.json"
        path.write_text(json.dumps(finished), encoding="utf-8")
        args = ["review", str(path), "--seat", "0", "--rollouts", "8", "--deal-rollouts", "2", "--level", "Average"]
        assert cli.main(args) == 0
        lines = capsys.readouterr().out.splitlines()
        forget()
        result = review(finished, 0, level="Average", **FAST)
        assert re.split(r"\s{2,}", lines[0]) == list(REVIEW_COLUMNS)
        assert "ply" not in "\n".join(lines).lower() and "seat" not in "\n".join(lines).lower()
        for line, d in zip(lines[1:-2], result.decisions, strict=True):
            assert line.startswith(f"{d.turn} ") and d.label in line and d.best_label in line
            assert (followed_text(d.coaches) in line) and (d.move == d.label or f" {d.move} " not in line)
        assert lines[-2].startswith("You: ") and "Accuracy" in lines[-2]
        s = result.summary
        assert lines[-1] == luck_parts(s.average, s.lost, s.luck_deal, s.luck_blind, s.luck_play)

    def test_a_retry_shows_the_review_s_own_figures(self, finished: dict[str, Any]) -> None:
        """The retry's analysis holds the loss the review measured for the move played, so the two agree."""
        result = review(finished, 0, seed=1, **FAST)
        d = next(d for d in result.decisions if d.move != d.best)
        shown = hand_module.position_analysis(finished, 0, d.ply, rollouts=FAST["rollouts"])
        mine = next(m for m in shown.moves if str(m.move) == d.move)
        assert (mine.gap, mine.gap_low, mine.gap_high, mine.expected) == (d.loss, d.loss_low, d.loss_high, d.played)
        assert (str(shown.best.move), shown.best.expected, shown.rollouts) == (d.best, d.expected, d.rollouts)

    def test_deterministic_with_the_seed_and_any_number_of_workers(self, finished: dict[str, Any]) -> None:
        """One worker in-process and two worker processes give the same review; another seed another one."""
        budget = {**FAST, "deal_rollouts": 5}  # an odd count: the deals split unevenly between the tasks
        one = review(finished, 0, seed=2, **budget).rows()
        forget()  # the evaluations made afresh, on the workers
        with ProcessPoolExecutor(2) as pool:
            two = review(finished, 0, seed=2, executor=pool, **budget).rows()
        assert one == two
        assert review(finished, 0, seed=3, **budget).rows() != one

    def test_the_deal_budget_is_the_number_of_deals(
        self, finished: dict[str, Any], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        played: list[int] = []
        real = hand_module.deal_points

        def spy(*args: Any) -> list[int]:
            played.extend(args[-1])
            return real(*args)

        monkeypatch.setattr(hand_module, "deal_points", spy)
        monkeypatch.setattr(hand_module, "evaluation", self.no_analysis)
        review(finished, 0, rollouts=8, deal_rollouts=3)
        assert sorted(played) == [0, 1, 2]
        with pytest.raises(ValueError, match="deal_rollouts"):
            review(finished, 0, rollouts=8, deal_rollouts=0)

    @staticmethod
    def no_analysis(v: dict[str, Any], focus: str, **options: Any) -> Evaluation:
        """Every legal move worth the same: the review's arithmetic without the Monte-Carlo cost."""
        found = analysis(*(value(m, 1.0, 0.0, 0.0, 0.0, "best") for m in v["legal"]), seat=v["seat"])
        return Evaluation(0, found, tuple(v["legal"]), (focus,))

    def test_progress_is_heard_within_each_decision(self, finished: dict[str, Any]) -> None:
        """A review hears its progress after every round of a decision's rollouts, not only when the decision is
        done, so Cancel (which raises from the progress) stops it within a round."""
        heard: list[float] = []

        class Stop(Exception):
            pass

        def progress(share: float) -> None:
            heard.append(share)
            raise Stop

        decisions = len(hand_module.decision_points(finished, 0)[0])
        with pytest.raises(Stop):
            review(finished, 0, rollouts=400, deal_rollouts=2, progress=progress)
        assert len(heard) == 1 and 0 < heard[0] < 1 / decisions, "stopped part-way through the first decision"
        shares: list[float] = []
        review(finished, 0, seed=1, progress=shares.append, **FAST)
        assert shares == sorted(shares) and shares[-1] == 1.0 and len(shares) > decisions

    def test_unfinished_hands_and_bad_seats_are_refused(self, finished: dict[str, Any]) -> None:
        with pytest.raises(ValueError, match="not finished"):
            review({**finished, "moves": finished["moves"][:3]}, 0)
        with pytest.raises(ValueError, match="seat 5"):
            review(finished, 5)

    def test_cli_json(self, finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "hand.json"
        path.write_text(json.dumps(finished), encoding="utf-8")
        assert cli.main(["review", str(path), "--seat", "0", "--json", "--rollouts", "8", "--deal-rollouts", "2"]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert rows[-1]["summary"] is True and rows[-1]["decisions"] == len(rows) - 1
        for row in rows[:-1]:
            assert {"ply", "move", "best", "loss", "loss_low", "loss_high", "grade"} <= set(row)
            assert row["grade"] in (None, "inaccuracy", "mistake", "blunder")


class TestTutor:
    @pytest.fixture
    def seat_view(self) -> dict[str, Any]:
        state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
                                     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})  # fmt: skip
        return view(state, 0)

    def test_the_coach_warns_only_above_the_threshold(self, seat_view: dict[str, Any]) -> None:
        caution = warn(seat_view, "2×5", threshold=2.0)
        assert caution is not None and caution.best == "1×J" and caution.source == "coach"
        assert warn(seat_view, "2×5", threshold=caution.loss + 0.01) is None
        assert warn(seat_view, "1×J", threshold=0.0) is None

    def test_the_analysis_refines_and_never_questions_a_close_move(self, seat_view: dict[str, Any]) -> None:
        legal = seat_view["legal"]
        rows = [value("1×J", 5.0, 0, 0, 0, "best"), value("2×5", 30.0, 25.0, -0.5, 50.0, "close"),
                *(value(m, 9.0, 4.0, 1.0, 7.0, "worse") for m in legal if m not in ("1×J", "2×5"))]  # fmt: skip
        result = analysis(*rows)
        assert warn(seat_view, "2×5", 2.0, analysis=result) is None  # the coach would warn; too close to call
        caution = warn(seat_view, "1×7", 3.0, analysis=result)
        assert caution is not None and (caution.source, caution.loss) == ("analysis", 4.0)
        assert warn(seat_view, "1×7", 4.5, analysis=result) is None
        with pytest.raises(ValueError, match="another position"):
            warn(seat_view, "1×7", 3.0, analysis=analysis(*rows[:2]))


class TestBelief:
    def test_unchanged_when_hidden_cards_are_re_dealt(self) -> None:
        state = State.deal(Rules(), seed=8)
        seats = [AIPlayer("Expert", "Balanced", seed=k) for k in range(4)]
        for _ in range(17):
            state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
        seat = state.turn
        before = belief(view(state, seat), samples=60, seed=1)
        for k in range(3):
            twin = Deals(view(state, seat)).sample(random.Random(k))
            assert twin.hands != state.hands
            assert belief(view(twin, seat), samples=60, seed=1) == before

    def test_what_is_known_and_the_chances(self) -> None:
        seats = [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9", "known": "K K"}]
        state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1", "seats": seats})
        b = belief(view(state, 0), samples=100)
        assert b.opponents[0].picked_up == ["K", "K"] and b.opponents[0].hand_count == 5
        assert b.can_play[13] == 1.0 and 0.0 <= b.can_play[1] <= b.can_play[7] <= b.can_play[13]
        seen = view(state, 0)
        hidden = seen["seats"][1]["hand_count"] - 2 + seen["undealt_count"]  # no stacks in this position
        assert sum(b.unseen.values()) == hidden and b.unseen["K"] == 6  # 8 Kings in 2 decks, 2 known in seat 1

    def test_a_bare_take_rules_out_every_card_it_could_have_played(self) -> None:
        seats = [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9", "known": "Q", "above": "8"}]
        state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "", "seats": seats})
        b = belief(view(state, 0), samples=100)
        assert b.opponents[0].above == "8"
        assert b.can_play[8] == 0.0  # its other cards are all above 8 and none clears (R11)
        assert b.can_play[9] > 0.0 and b.can_play[13] == 1.0


class TestDrills:
    START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)

    def deck(self, path: Path) -> tuple[Drills, list[datetime]]:
        now = [self.START]
        return Drills(path, clock=lambda: now[0]), now

    def first_decision(self, record: dict[str, Any], seat: int) -> int:
        return hand_module.decision_points(record, seat)[0][0]

    def test_scheduling_is_deterministic_under_a_fixed_clock(self, finished: dict[str, Any], tmp_path: Path) -> None:
        dues = []
        for name in ("a", "b"):
            deck, now = self.deck(tmp_path / name / "drills.sqlite")
            ply = self.first_decision(finished, 0)
            drill_id = deck.add(finished, ply, 0)
            assert deck.add(finished, ply, 0) == drill_id  # once only
            (drill,) = deck.due()
            assert drill.id == drill_id and "×" not in drill.title and drill.view()["legal"]
            legal = drill.view()["legal"]
            best = analysis(value(legal[0], 1.0, 0, 0, 0, "best"),
                            *(value(m, 9.0, 8.0, 2.0, 14.0, "worse") for m in legal[1:]))  # fmt: skip
            assert deck.answer(drill, legal[0], best) is True
            now[0] += timedelta(minutes=1)
            assert deck.due() == []
            dues.append([d.due for d in deck.drills()])
        assert dues[0] == dues[1] and dues[0][0] > self.START

    def test_a_wrong_answer_comes_back_sooner(self, finished: dict[str, Any], tmp_path: Path) -> None:
        deck, _ = self.deck(tmp_path / "drills.sqlite")
        ply = self.first_decision(finished, 0)
        drill = deck.drills()[0] if deck.add(finished, ply, 0) else None
        assert drill is not None
        legal = drill.view()["legal"]
        result = analysis(value(legal[0], 1.0, 0, 0, 0, "best"),
                          *(value(m, 9.0, 8.0, 2.0, 14.0, "worse") for m in legal[1:]))  # fmt: skip
        assert deck.answer(drill, legal[1], result) is False
        wrong = deck.drills()[0].due
        assert deck.answer(deck.drills()[0], legal[0], result) is True
        assert deck.drills()[0].due > wrong
        assert [a["solved"] for a in deck.attempts()] == [0, 1]

    def test_fail_soft(self, tmp_path: Path) -> None:
        (tmp_path / "drills.sqlite").mkdir()
        deck, _ = self.deck(tmp_path / "drills.sqlite")
        assert deck.problem and deck.drills() == []


def test_progress_frame_figure_and_csv(finished: dict[str, Any], tmp_path: Path) -> None:
    hand = review(finished, 0, **FAST)
    frame = progress_frame([({"game": 1, "hand": 1}, hand), ({"game": 1, "hand": 2}, hand)])
    assert list(frame["accuracy"]) == [hand.summary.accuracy] * 2
    assert progress_figure(frame).axes
    path = progress_csv(frame, tmp_path / "progress.csv")
    assert path.read_text(encoding="utf-8").splitlines()[0].startswith("game,hand,seat,points,accuracy")
