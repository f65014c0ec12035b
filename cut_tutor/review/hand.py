"""Hand review: every decision of one seat graded by its loss in expected points, and luck told from skill.

Each decision is analysed from the seat's view at that ply only (C2): the record is replayed to the ply and
:func:`~cut_tutor.engine.view` hides the rest, so a review cannot use a card the seat did not see then. The
guide's *Hand review* page gives the grade thresholds, the accuracy formula and the luck definition.

A decision is judged by the position's one evaluation (:func:`~cut_tutor.analysis.evaluation`), the move played its
focus: the same figures the tutor, a retry, a drill and the coach panel read for that view, so they name the same
best move and the same price. Its rounds stop once every other move is *worse* or *too close* to call and the loss
of the move played is known to ±2 points (or the budget is spent); a move too close to call is never graded.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

from ..analysis import POLICY, Analysis, Evaluation, evaluation, native
from ..analysis.run import Submitter, spread
from ..analysis.search import play, players
from ..analysis.stats import mean_interval
from ..coach import COACH_STYLE, advise
from ..coach.styles import DEFAULT_LEVEL
from ..engine import State, replay, view
from ..engine.moves import FLIP, GAMBLE, TURNUP, Move
from ..engine.rules import Rules
from .words import turn_number

#: Grades by the loss in expected points at least: (name, threshold), mildest first (see the guide).
THRESHOLDS: tuple[tuple[str, float], ...] = (("inaccuracy", 5.0), ("mistake", 12.0), ("blunder", 30.0))
#: The loss, in points, that halves a decision's accuracy (the guide's accuracy formula).
HALF_ACCURACY = 5.0
#: Rollouts per reviewed decision at most by default (at least 2 per legal move): enough for every graded loss to be
#: known to ±2 points, and a long hand reviewed within 10 s on 2 cores with the compiled core
#: (``benchmarks/bench_core.py review``). The evaluation stops sooner, mostly far sooner, once its verdicts are settled.
ROLLOUTS = 4000
#: The moves that turn a hidden card of the seat's own: their outcome is luck (R12, R17).
BLIND = (FLIP, TURNUP, GAMBLE)
#: Rollouts of fresh deals that measure what an average deal is worth to the seat (the deal's luck).
DEAL_ROLLOUTS = 64


def grade(loss: float, loss_low: float, thresholds: tuple[tuple[str, float], ...] = THRESHOLDS) -> str | None:
    """The grade of a loss: ``None`` for a move too close to call (its interval reaches 0) or below every threshold.

    >>> grade(13.0, 1.0), grade(13.0, -0.5), grade(4.0, 0.5), grade(31.0, 9.0)
    ('mistake', None, None, 'blunder')
    """
    if loss_low <= 0:
        return None
    found = None
    for name, threshold in thresholds:
        if loss >= threshold:
            found = name
    return found


def accuracy_of(loss: float) -> float:
    """One decision's accuracy in percent: 100 for the best move, halved for every ``HALF_ACCURACY`` points lost.

    >>> accuracy_of(0.0), accuracy_of(5.0), round(accuracy_of(10.0), 1)
    (100.0, 50.0, 25.0)
    """
    return 100.0 * math.pow(0.5, max(0.0, loss) / HALF_ACCURACY)


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: the move made, the best move, the loss with its 95% interval, the grade.

    ``expected`` is the seat's expected points if it plays the best move, ``played`` if it plays its move: the
    best's plus the loss, the gap measured on the deals both were played out on (lower is better); ``rollouts``
    counts the evaluation's; ``luck`` is what happened
    from this decision to the seat's next analysed one, against expectation (positive: it helped), and
    ``luck_kind`` says whether a blind card of the seat's own was turned in between. ``best_label`` is the best
    move in the analysis' words; ``turn`` the turn as the rules count it (R15), from the seat's view; ``coaches``
    the coaches whose advice, at the learner's Level, was the move played (the learner followed them: with
    *Coach: Play*, or of their own accord).
    """

    ply: int
    move: str
    best: str
    label: str
    loss: float
    loss_low: float
    loss_high: float
    grade: str | None
    expected: float
    played: float
    options: int
    rollouts: int
    luck: float = 0.0
    luck_kind: str = "play"
    best_label: str = ""
    turn: int = 0
    coaches: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (one line of ``cut-tutor review --json``)."""
        return asdict(self) | {"coaches": list(self.coaches)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        """A decision back from :meth:`to_dict` (a review kept before ``coaches`` was has none)."""
        return cls(**{**data, "coaches": tuple(data.get("coaches", ()))})


@dataclass(frozen=True)
class Summary:
    """A hand's figures for the reviewed seat; ``points == average + lost - luck`` up to rounding (see the guide).

    ``lost`` sums every measured loss, ``lost_to_mistakes`` the graded ones; ``accuracy`` counts a loss too close
    to call as none, so the noise of a short analysis does not lower it.
    """

    seat: int
    points: int
    average: float
    lost: float
    lost_to_mistakes: float
    accuracy: float
    luck: float
    luck_deal: float
    luck_blind: float
    luck_play: float
    decisions: int
    graded: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"summary": True, **asdict(self)}


@dataclass(frozen=True)
class HandReview:
    """The review of one seat's hand: its analysed decisions in order and the summary."""

    decisions: list[Decision]
    summary: Summary

    def mistakes(self) -> list[Decision]:
        """The graded decisions, in order (the replayer's *next mistake* steps through them)."""
        return [d for d in self.decisions if d.grade is not None]

    def rows(self) -> list[dict[str, Any]]:
        """What ``--json`` prints: one object per decision, then the summary."""
        return [d.to_dict() for d in self.decisions] + [self.summary.to_dict()]


def decision_points(record: Mapping[str, Any], seat: int) -> tuple[list[int], list[int]]:
    """The plies at which ``seat`` chose among two or more legal moves (forced moves need no review), and the seat
    that moved at every ply."""
    state = replay(dict(record), upto=0)
    plies, movers = [], []
    for ply, text in enumerate(record["moves"]):
        if state.turn == seat and len(state.legal_moves()) > 1:
            plies.append(ply)
        movers.append(state.turn)
        state.play(str(text))
    return plies, movers


def review(
    record: Mapping[str, Any],
    seat: int,
    *,
    seconds: float | None = None,
    rollouts: int | None = ROLLOUTS,
    seed: int = 0,
    policy: str = POLICY,
    executor: Executor | Submitter | None = None,
    thresholds: tuple[tuple[str, float], ...] = THRESHOLDS,
    progress: Callable[[float], None] | None = None,
    deal_rollouts: int = DEAL_ROLLOUTS,
    level: str = DEFAULT_LEVEL,
) -> HandReview:
    """Review ``seat``'s decisions in a finished hand's record; ``level`` is the learner's, whose coaches' advice
    each decision is held to (:func:`followed`).

    ``seconds`` is the time budget of the whole review, shared evenly by the decisions; ``rollouts`` the most each
    decision's evaluation may have (:func:`decision`); ``deal_rollouts`` the number of fresh deals that measure the
    deal's luck (the slowest part of a short hand's review: each is a whole hand), seeded by ``seed``. The deals are
    sent to ``executor`` first, so they are played while the decisions are evaluated. A decision's figures are its
    position's one evaluation: one that the tutor or the coach panel already made is read, not made again. With no
    time budget the review depends only on the record, the seat, the seed and the budgets (and on the evaluations
    already held), whatever the executor and its number of workers.
    """
    final = replay(dict(record))
    if not final.over:
        raise ValueError("review: the record's hand is not finished")
    if not 0 <= seat < final.players:
        raise ValueError(f"review: seat {seat} is not one of the {final.players} seats")
    plies, movers = decision_points(record, seat)
    average = deal_average(record["rules"], final.dealer, seat, policy, seed, deal_rollouts, executor)
    share = None if seconds is None else seconds / max(1, len(plies))
    moves = [Move.parse(str(text)) for text in record["moves"]]
    found: list[tuple[int, Analysis]] = []
    seen: list[tuple[int, tuple[str, ...]]] = []
    for k, ply in enumerate(plies):
        seat_view = view(replay(dict(record), upto=ply), seat)
        seen.append((turn_number(seat_view), followed(seat_view, moves[ply], level)))
        # heard after each round of a decision's rollouts too, so a review that is cancelled stops within a round
        within = None if progress is None else partial(_within, progress, k, len(plies))
        judged = decision(record, seat, ply, seconds=share, rollouts=rollouts, policy=policy, executor=executor,
                          progress=within)  # fmt: skip
        found.append((ply, judged.analysis))
        if progress:
            progress((k + 1) / max(1, len(plies)))
    hand = summarise(found, moves, movers, seat, final.scores()[seat], average(), thresholds)
    decisions = [replace(d, turn=turn, coaches=who) for d, (turn, who) in zip(hand.decisions, seen, strict=True)]
    return HandReview(decisions, hand.summary)


def followed(seat_view: Mapping[str, Any], move: Move, level: str = DEFAULT_LEVEL) -> tuple[str, ...]:
    """The coaches (in the guide's order) whose advice in ``seat_view``, at ``level``, is ``move``: the ones a learner
    who played it followed. The advice depends on the view and the Level alone, so this is what *Coach: Play*
    played, whichever coach was chosen then.

    >>> from cut_tutor.engine import State, view
    >>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
    ...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
    >>> followed(view(state, 0), Move.parse("2×7")), followed(view(state, 0), Move.parse("1×J"))
    (('Daryl', 'Madonna', 'Marty'), ())
    >>> followed(view(state, 0), Move.parse("1×J"), "Expert")
    ('Daryl', 'Madonna', 'Marty')
    """
    return tuple(coach for coach in COACH_STYLE if advise(dict(seat_view), coach, level).move == move)


def _within(progress: Callable[[float], None], k: int, decisions: int, share: float) -> None:
    """The review's progress part-way through its ``k``-th decision, ``share`` of whose analysis is done."""
    progress((k + share) / max(1, decisions))


def decision(
    record: Mapping[str, Any],
    seat: int,
    ply: int,
    *,
    seconds: float | None = None,
    rollouts: int | None = ROLLOUTS,
    policy: str = POLICY,
    executor: Executor | Submitter | None = None,
    progress: Callable[[float], None] | None = None,
) -> Evaluation:
    """The evaluation of ``seat``'s decision before ply ``ply``, from the seat's view then, the move played its
    focus: the one every judge of that view reads (at most ``rollouts`` in all, or ``seconds`` more; ``progress``
    hears its share done after each round)."""
    seat_view = view(replay(dict(record), upto=ply), seat)
    return evaluation(seat_view, str(record["moves"][ply]), rollouts=rollouts, seconds=seconds, policy=policy,
                      executor=executor, progress=progress)  # fmt: skip


def position_analysis(
    record: Mapping[str, Any],
    seat: int,
    ply: int,
    *,
    seconds: float | None = None,
    rollouts: int | None = ROLLOUTS,
    policy: str = POLICY,
    executor: Executor | Submitter | None = None,
) -> Analysis:
    """The analysis a retry or a drill of ``seat``'s decision before ply ``ply`` shows: the review's own evaluation
    of it (:func:`decision`), so that the retry judges the move played as the review graded it."""
    return decision(record, seat, ply, seconds=seconds, rollouts=rollouts, policy=policy, executor=executor).analysis


@dataclass(frozen=True)
class Measured:
    """A decision's figures: the best's and the played move's expected points, the loss (the mean paired
    difference) with its 95% interval, then the two expected points' intervals."""

    expected: float
    played: float
    loss: float
    loss_low: float
    loss_high: float
    expected_low: float
    expected_high: float
    played_low: float
    played_high: float


def measured(result: Analysis, move: Move) -> Measured:
    """A decision's figures from its evaluation: the move played against the evaluation's best, its gap measured
    on the deals both were played out on (0, interval [0, 0], when it is the best)."""
    mine = next(m for m in result.moves if m.move == move)
    best = result.best
    if mine.move == best.move:
        return Measured(best.expected, best.expected, 0.0, 0.0, 0.0, best.low, best.high, best.low, best.high)
    return Measured(best.expected, round(best.expected + mine.gap, 3), mine.gap, mine.gap_low, mine.gap_high,
                    best.low, best.high, mine.low, mine.high)  # fmt: skip


def _summary(
    decisions: list[Decision],
    seat: int,
    points: int,
    average: float,
    first: float,
    thresholds: tuple[tuple[str, float], ...],
) -> Summary:
    """A hand's summary from its decisions; ``first`` is the expected points at the first analysed ply, so the
    deal's luck is what the deal gave against the seat's average."""
    luck_deal = round(average - first, 3)
    luck_blind = round(sum(d.luck for d in decisions if d.luck_kind == "blind"), 3)
    luck_play = round(sum(d.luck for d in decisions if d.luck_kind == "play"), 3)
    graded = {name: sum(d.grade == name for d in decisions) for name, _ in thresholds}
    return Summary(
        seat=seat, points=points, average=round(average, 3), lost=round(sum(d.loss for d in decisions), 3),
        lost_to_mistakes=round(sum(d.loss for d in decisions if d.grade is not None), 3),
        accuracy=round(sum(accuracy_of(d.loss if d.loss_low > 0 else 0.0) for d in decisions) / len(decisions), 1)
        if decisions else 100.0,
        luck=round(luck_deal + luck_blind + luck_play, 3), luck_deal=luck_deal, luck_blind=luck_blind,
        luck_play=luck_play, decisions=len(decisions), graded=graded,
    )  # fmt: skip


def summarise(
    found: list[tuple[int, Analysis]],
    moves: list[Move],
    movers: list[int],
    seat: int,
    points: int,
    average: float,
    thresholds: tuple[tuple[str, float], ...] = THRESHOLDS,
) -> HandReview:
    """The decisions and summary from each analysed ply's evaluation (:func:`measured`): the arithmetic of the
    review, on its own so that it is tested on constructed analyses with known losses."""
    figures = [measured(r, moves[p]) for p, r in found]
    decisions = []
    for k, ((ply, result), m) in enumerate(zip(found, figures, strict=True)):
        move = moves[ply]
        mine = next(v for v in result.moves if v.move == move)
        after = points if k + 1 == len(found) else figures[k + 1].expected
        upto = len(moves) if k + 1 == len(found) else found[k + 1][0]
        blind = any(moves[i].kind in BLIND and movers[i] == seat for i in range(ply, upto))
        decisions.append(
            Decision(
                ply=ply,
                move=str(move),
                best=str(result.best.move),
                label=mine.label,
                loss=round(m.loss, 3),
                loss_low=round(m.loss_low, 3),
                loss_high=round(m.loss_high, 3),
                grade=grade(m.loss, m.loss_low, thresholds),
                expected=m.expected,
                played=m.played,
                options=len(result.moves),
                rollouts=result.rollouts,
                luck=round(m.played - after, 3),
                luck_kind="blind" if blind else "play",
                best_label=result.best.label,
            )
        )
    first = figures[0].expected if figures else float(points)
    summary = _summary(decisions, seat, points, average, first, thresholds)
    return HandReview(decisions, summary)


def deal_average(
    rules: Mapping[str, Any],
    dealer: int,
    seat: int,
    policy: str,
    seed: int,
    rollouts: int = DEAL_ROLLOUTS,
    executor: Executor | Submitter | None = None,
) -> Callable[[], float]:
    """What a fresh deal is worth to ``seat`` on average: its points over ``rollouts`` random deals with the same
    rules and dealer, every seat played by ``policy`` (the yardstick of the deal's luck). With an executor the
    deals are submitted at once and the returned function waits for them; without, it plays them when called."""
    if rollouts < 1:
        raise ValueError("review: deal_rollouts must be at least 1")
    parts = spread(executor, deal_points, (dict(rules), dealer, seat, policy, seed), range(rollouts))
    return lambda: mean_interval([p for part in parts() for p in part])[0]


def deal_points(
    rules: Mapping[str, Any], dealer: int, seat: int, policy: str, seed: int, deals: Iterable[int]
) -> list[int]:
    """``seat``'s points on each numbered fresh deal, every seat played by ``policy``: one task of
    :func:`deal_average`, seeded by the deal's number alone so that any split between workers gives the same
    points. The compiled core plays the hands when it is built (:mod:`~cut_tutor.analysis.native`), with the same
    points."""
    dealt = Rules.from_dict(dict(rules))
    core = native.policy(policy, dealt)
    points = []
    for i in deals:
        rng = random.Random(f"review-deal:{seed}:{i}")
        state = State.deal(dealt, rng.getrandbits(48), dealer)
        seeds = [rng.getrandbits(32) for _ in range(state.players)]
        if core is None:
            play(state, players(policy, seeds))
        else:
            state, _ = native.play([core] * state.players, state, seeds)
        points.append(state.scores()[seat])
    return points
