"""Hand review: every decision of one seat graded by its loss in expected points, and luck told from skill.

Each decision is analysed from the seat's view at that ply only (C2): the record is replayed to the ply and
:func:`~cut_tutor.engine.view` hides the rest, so a review cannot use a card the seat did not see then. The
guide's *Hand review* page gives the grade thresholds, the accuracy formula and the luck definition.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from typing import Any

from ..analysis import POLICY, Analysis, analyse
from ..analysis.run import CHUNK, Submitter
from ..analysis.search import players
from ..analysis.stats import mean_interval
from ..coach import Knowledge
from ..engine import State, replay, view
from ..engine.moves import FLIP, GAMBLE, TURNUP, Move
from ..engine.rules import Rules
from ..engine.view import sight

#: Grades by the loss in expected points at least: (name, threshold), mildest first (see the guide).
THRESHOLDS: tuple[tuple[str, float], ...] = (("inaccuracy", 5.0), ("mistake", 12.0), ("blunder", 30.0))
#: The loss, in points, that halves a decision's accuracy (the guide's accuracy formula).
HALF_ACCURACY = 5.0
#: Rollouts per analysed decision by default: a 25-decision review in a few seconds on one core.
ROLLOUTS = 96
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
    best's plus the loss, measured on the same deals (lower is better); ``luck`` is what happened from this
    decision to the seat's next analysed one, against expectation (positive: it helped), and
    ``luck_kind`` says whether a blind card of the seat's own was turned in between.
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (one line of ``cut-tutor review --json``)."""
        return asdict(self)


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
) -> HandReview:
    """Review ``seat``'s decisions in a finished hand's record.

    ``seconds`` is the time budget of the whole review, shared evenly by the decisions; ``rollouts`` the budget of
    each decision; ``deal_rollouts`` the number of fresh deals that measure the deal's luck (the slowest part of a
    short hand's review: each is a whole hand). The deals are sent to ``executor`` first, so they are played
    while the decisions are analysed. With no time budget the review depends only on the record, the seat, the
    seed and the budgets, whatever the executor and its number of workers.
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
    for k, ply in enumerate(plies):
        found.append((ply, position_analysis(record, seat, ply, seconds=share, rollouts=rollouts, seed=seed,
                                             policy=policy, executor=executor)))  # fmt: skip
        if progress:
            progress((k + 1) / max(1, len(plies)))
    return summarise(found, moves, movers, seat, final.scores()[seat], average(), thresholds)


def position_analysis(
    record: Mapping[str, Any],
    seat: int,
    ply: int,
    *,
    seconds: float | None = None,
    rollouts: int | None = ROLLOUTS,
    seed: int = 0,
    policy: str = POLICY,
    executor: Executor | Submitter | None = None,
) -> Analysis:
    """The analysis a review makes of ``seat``'s decision before ply ``ply``, from the seat's view then: with the
    same budgets and seed it is the same analysis, so a retry can show it again without storing it."""
    seat_view = view(replay(dict(record), upto=ply), seat)
    budget = None if rollouts is None else max(rollouts, 2 * len(seat_view["legal"]))
    return analyse(seat_view, seconds=seconds, seed=seed + ply, policy=policy, executor=executor, max_rollouts=budget)


def summarise(
    found: list[tuple[int, Analysis]],
    moves: list[Move],
    movers: list[int],
    seat: int,
    points: int,
    average: float,
    thresholds: tuple[tuple[str, float], ...] = THRESHOLDS,
) -> HandReview:
    """The decisions and summary from each analysed ply's analysis: the arithmetic of the review, on its own so that
    it is tested on constructed analyses with known losses."""
    decisions = []
    for k, (ply, result) in enumerate(found):
        move = moves[ply]
        mine = next(m for m in result.moves if m.move == move)
        best = result.best
        loss = 0.0 if mine.move == best.move else mine.gap
        low, high = (0.0, 0.0) if mine.move == best.move else (mine.gap_low, mine.gap_high)
        following = found[k + 1] if k + 1 < len(found) else None
        after = points if following is None else following[1].best.expected
        upto = len(moves) if following is None else following[0]
        blind = any(moves[i].kind in BLIND and movers[i] == seat for i in range(ply, upto))
        decisions.append(
            Decision(
                ply=ply,
                move=str(move),
                best=str(best.move),
                label=mine.label,
                loss=round(loss, 3),
                loss_low=round(low, 3),
                loss_high=round(high, 3),
                grade=grade(loss, low, thresholds),
                expected=best.expected,
                played=round(best.expected + loss, 3),
                options=len(result.moves),
                rollouts=result.rollouts,
                luck=round(best.expected + loss - after, 3),
                luck_kind="blind" if blind else "play",
            )
        )
    first = found[0][1].best.expected if found else float(points)
    luck_deal = round(average - first, 3)
    luck_blind = round(sum(d.luck for d in decisions if d.luck_kind == "blind"), 3)
    luck_play = round(sum(d.luck for d in decisions if d.luck_kind == "play"), 3)
    graded = {name: sum(d.grade == name for d in decisions) for name, _ in thresholds}
    summary = Summary(
        seat=seat, points=points, average=round(average, 3), lost=round(sum(d.loss for d in decisions), 3),
        lost_to_mistakes=round(sum(d.loss for d in decisions if d.grade is not None), 3),
        accuracy=round(sum(accuracy_of(d.loss if d.loss_low > 0 else 0.0) for d in decisions) / len(decisions), 1)
        if decisions else 100.0,
        luck=round(luck_deal + luck_blind + luck_play, 3), luck_deal=luck_deal, luck_blind=luck_blind,
        luck_play=luck_play, decisions=len(decisions), graded=graded,
    )  # fmt: skip
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
    chunks = [range(i, min(i + CHUNK, rollouts)) for i in range(0, rollouts, CHUNK)]
    args = (dict(rules), dealer, seat, policy, seed)
    if executor is None:
        return lambda: mean_interval([p for chunk in chunks for p in deal_points(*args, chunk)])[0]
    futures = [executor.submit(deal_points, *args, chunk) for chunk in chunks]
    return lambda: mean_interval([p for future in futures for p in future.result()])[0]


def deal_points(
    rules: Mapping[str, Any], dealer: int, seat: int, policy: str, seed: int, deals: Iterable[int]
) -> list[int]:
    """``seat``'s points on each numbered fresh deal, every seat played by ``policy``: one task of
    :func:`deal_average`, seeded by the deal's number alone so that any split between workers gives the same
    points."""
    points = []
    for i in deals:
        rng = random.Random(f"review-deal:{seed}:{i}")
        state = State.deal(Rules.from_dict(dict(rules)), rng.getrandbits(48), dealer)
        seats = players(policy, [rng.getrandbits(32) for _ in range(state.players)])
        while not state.over:
            state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
        points.append(state.scores()[seat])
    return points
