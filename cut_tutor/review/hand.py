"""Hand review: every decision of one seat graded by its loss in expected points, and luck told from skill.

Each decision is analysed from the seat's view at that ply only (C2): the record is replayed to the ply and
:func:`~cut_tutor.engine.view` hides the rest, so a review cannot use a card the seat did not see then. The
guide's *Hand review* page gives the grade thresholds, the accuracy formula and the luck definition.

A decision is measured in two stages. :func:`~cut_tutor.analysis.analyse` chooses the best move on its own sampled
deals; the loss of the move played is then measured against that best on fresh deals (sample indices after the
analysis' last), both moves on the same ones. Measured on the deals that chose it, the best's mean is the lowest
of several noisy means and so too low, which biases every loss up; on held-out deals the loss is unbiased, and
spending them on two moves rather than all gives it a narrow interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

from ..analysis import POLICY, Analysis, analyse
from ..analysis.report import BEST, CLOSE, WORSE
from ..analysis.run import Submitter, joined, spread
from ..analysis.search import Result, play, play_out, players
from ..analysis.stats import mean_interval, paired
from ..engine import State, replay, view
from ..engine.moves import FLIP, GAMBLE, TURNUP, Move
from ..engine.rules import Rules

#: Grades by the loss in expected points at least: (name, threshold), mildest first (see the guide).
THRESHOLDS: tuple[tuple[str, float], ...] = (("inaccuracy", 5.0), ("mistake", 12.0), ("blunder", 30.0))
#: The loss, in points, that halves a decision's accuracy (the guide's accuracy formula).
HALF_ACCURACY = 5.0
#: Rollouts per reviewed decision by default, both stages: a 100-move hand reviewed within 10 s on 2 cores.
ROLLOUTS = 160
#: The share of a decision's rollouts that chooses the best move (at least 2 per legal move); the rest measure the
#: loss of the move played on held-out deals.
CHOOSING = 0.6
#: Held-out samples of each measured move at least, whatever the budget: fewer leave a loss's interval meaningless.
HELD_OUT = 8
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
    best's plus the loss, both measured on the same held-out deals (lower is better; a loss may come out below 0
    when the analysis' choice was too close to call); ``rollouts`` counts both stages; ``luck`` is what happened
    from this decision to the seat's next analysed one, against expectation (positive: it helped), and
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
    each decision, :data:`CHOOSING` of it to choose the best and the rest to measure the loss on held-out deals;
    ``deal_rollouts`` the number of fresh deals that measure the deal's luck (the slowest part of a short hand's
    review: each is a whole hand). The deals are sent to ``executor`` first, so they are played while the
    decisions are analysed. With no time budget the review depends only on the record, the seat, the seed and the
    budgets, whatever the executor and its number of workers.
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
    measured: list[Measured] = []
    pending: list[Callable[[], Measured]] = []
    for k, ply in enumerate(plies):
        # heard after each round of a decision's rollouts too, so a review that is cancelled stops within a round
        within = None if progress is None else partial(_within, progress, k, len(plies))
        result, figures = decision(record, seat, ply, seconds=share, rollouts=rollouts, seed=seed, policy=policy,
                                   executor=executor, progress=within)  # fmt: skip
        found.append((ply, result))
        pending.append(figures)
        # one decision's held-out deals are still on the workers while the next decision is analysed
        measured.extend(wait() for wait in pending[len(measured) : k])
        if progress:
            progress((k + 1) / max(1, len(plies)))
    measured.extend(wait() for wait in pending[len(measured) :])
    return summarise(found, moves, movers, seat, final.scores()[seat], average(), thresholds, measured)


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
    seed: int = 0,
    policy: str = POLICY,
    executor: Executor | Submitter | None = None,
    progress: Callable[[float], None] | None = None,
) -> tuple[Analysis, Callable[[], Measured]]:
    """The two stages of ``seat``'s decision before ply ``ply``, from the seat's view then: the analysis that
    chooses the best (:data:`CHOOSING` of the budgets, at least 2 rollouts per legal move; ``progress`` hears its
    share done after each round), then the move played measured against that best on held-out deals with the rest,
    sent to ``executor`` at once (the returned function waits for their figures)."""
    seat_view = view(replay(dict(record), upto=ply), seat)
    budget = None if rollouts is None else max(round(rollouts * CHOOSING), 2 * len(seat_view["legal"]))
    choosing = None if seconds is None else seconds * CHOOSING
    result = analyse(seat_view, seconds=choosing, seed=seed + ply, policy=policy, executor=executor,
                     max_rollouts=budget, progress=progress)  # fmt: skip
    best, played = result.best.move, Move.parse(str(record["moves"][ply]))
    pair = [str(best)] if played == best else [str(best), str(played)]
    samples = range(result.deals, result.deals + held_samples(result, seconds, rollouts))
    parts = spread(executor, partial(play_out, moves=pair), (dict(seat_view), policy, seed + ply), samples)
    return result, lambda: held_out(joined(parts(), len(pair)))


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
    """The analysis a retry of ``seat``'s decision before ply ``ply`` shows: the review's :func:`decision` made again
    (the same with the same budgets and seed, so it need not be stored), the best's and the played move's figures
    replaced by their held-out ones, so that the retry judges the move played as the review graded it."""
    result, wait = decision(record, seat, ply, seconds=seconds, rollouts=rollouts, seed=seed, policy=policy,
                            executor=executor)  # fmt: skip
    figures = wait()
    played = Move.parse(str(record["moves"][ply]))
    samples = figures.rollouts if played == result.best.move else figures.rollouts // 2
    values = []
    for m in result.moves:
        if m.verdict == BEST:
            m = replace(m, expected=figures.expected, low=figures.expected_low, high=figures.expected_high,
                        rollouts=samples)  # fmt: skip
        elif m.move == played:
            verdict = CLOSE if figures.loss_low <= 0 else WORSE
            m = replace(m, expected=figures.played, low=figures.played_low, high=figures.played_high,
                        gap=figures.loss, gap_low=figures.loss_low, gap_high=figures.loss_high, rollouts=samples,
                        verdict=verdict)  # fmt: skip
        values.append(m)
    values.sort(key=lambda m: (m.verdict != BEST, m.expected))
    return replace(result, moves=values, rollouts=result.rollouts + figures.rollouts)


@dataclass(frozen=True)
class Measured:
    """A decision's figures from held-out deals: the best's and the played move's expected points, the loss (the
    mean paired difference) with its 95% interval, the rollouts spent, then the two expected points' intervals."""

    expected: float
    played: float
    loss: float
    loss_low: float
    loss_high: float
    rollouts: int
    expected_low: float
    expected_high: float
    played_low: float
    played_high: float


def held_samples(result: Analysis, seconds: float | None, rollouts: int | None) -> int:
    """Held-out samples per move for one decision (at least :data:`HELD_OUT`): the rollouts the analysis left of
    ``rollouts``, or the time left of ``seconds`` at the analysis' own pace, shared by the two moves."""
    counts = []
    if rollouts is not None:
        counts.append((rollouts - result.rollouts) // 2)
    if seconds is not None:
        pace = result.seconds / max(1, result.rollouts)
        counts.append(int(seconds * (1 - CHOOSING) / max(pace, 1e-6) / 2))
    return max(HELD_OUT, min(counts))


def held_out(rows: Sequence[Sequence[Result]]) -> Measured:
    """A decision's figures from the held-out results of the best (``rows[0]``) and of the move played
    (``rows[1]``) on the same samples; with the best alone the move played was the best: its expected points are
    measured and its loss is 0 with interval [0, 0]."""
    best = [float(p) for p, _ in rows[0]]
    expected, e_low, e_high = mean_interval(best)
    if len(rows) == 1:
        return Measured(expected, expected, 0.0, 0.0, 0.0, len(best), e_low, e_high, e_low, e_high)
    mine = [float(p) for p, _ in rows[1]]
    loss, low, high = mean_interval(paired(mine, best))
    _, p_low, p_high = mean_interval(mine)
    return Measured(expected, round(expected + loss, 3), loss, low, high, 2 * len(best), e_low, e_high, p_low,
                    p_high)  # fmt: skip


def same_samples(result: Analysis, move: Move) -> Measured:
    """A decision's figures from its choosing analysis alone, the gap measured on the deals that chose the best:
    what a retry's analysis shows, and the review's figures for an analysis given without held-out ones."""
    mine = next(m for m in result.moves if m.move == move)
    best = result.best
    if mine.move == best.move:
        return Measured(best.expected, best.expected, 0.0, 0.0, 0.0, 0, best.low, best.high, best.low, best.high)
    return Measured(best.expected, round(best.expected + mine.gap, 3), mine.gap, mine.gap_low, mine.gap_high, 0,
                    best.low, best.high, mine.low, mine.high)  # fmt: skip


def summarise(
    found: list[tuple[int, Analysis]],
    moves: list[Move],
    movers: list[int],
    seat: int,
    points: int,
    average: float,
    thresholds: tuple[tuple[str, float], ...] = THRESHOLDS,
    measured: Sequence[Measured] | None = None,
) -> HandReview:
    """The decisions and summary from each analysed ply's analysis and its held-out figures (``measured``, in the
    same order; without, :func:`same_samples`): the arithmetic of the review, on its own so that it is tested on
    constructed analyses with known losses."""
    figures = list(measured) if measured is not None else [same_samples(r, moves[p]) for p, r in found]
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
                rollouts=result.rollouts + m.rollouts,
                luck=round(m.played - after, 3),
                luck_kind="blind" if blind else "play",
            )
        )
    first = figures[0].expected if figures else float(points)
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
    parts = spread(executor, deal_points, (dict(rules), dealer, seat, policy, seed), range(rollouts))
    return lambda: mean_interval([p for part in parts() for p in part])[0]


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
        play(state, players(policy, [rng.getrandbits(32) for _ in range(state.players)]))
        points.append(state.scores()[seat])
    return points
