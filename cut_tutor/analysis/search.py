"""Rollouts and the rounds that spend them: every candidate played out on the same sampled deals, the clearly
worse dropped, until the best stands apart or the budget is spent (the guide's *Analysis* section).

:func:`rounds` knows nothing of the game: it asks a ``measure`` function for the results of some sample indices
on some candidates, so the stopping rule is tested on numbers alone. :func:`play_out` is the measure for a view,
run in this process or on any executor's workers (a picklable top-level function).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..coach import AIPlayer, Knowledge
from ..engine.moves import Move
from ..engine.view import sight
from .deals import Deals
from .stats import clearly_worse, mean_se, paired

#: One rollout's result for the analysed seat: its points for the hand, and whether it went out first.
Result = tuple[int, bool]
#: ``measure(samples, candidates)`` → per candidate (in that order), per sample index: a :data:`Result`.
Measure = Callable[[Sequence[int], Sequence[int]], list[list[Result]]]


def players(policy: str, seeds: Sequence[int]) -> list[AIPlayer]:
    """One AI seat per seed from a ``Level:Style`` policy (``Expert:Balanced``); a bad name raises ValueError."""
    level, _, style = policy.partition(":")
    return [AIPlayer(level, style or "Balanced", seed) for seed in seeds]


def play_out(
    view: Mapping[str, Any], policy: str, seed: int, samples: Sequence[int], moves: Sequence[str]
) -> list[list[Result]]:
    """Each move played out to the end of the hand on the deals ``samples`` name, per move then per sample.

    Sample ``i`` is one deal consistent with the view and one seed per AI seat, both drawn from ``(seed, i)``
    alone: every move meets the same deal and the same seats (common random numbers), and the result does not
    depend on which worker or which batch computed it.
    """
    deals = Deals(view)
    me = deals.seat
    parsed = [Move.parse(text) for text in moves]
    results: list[list[Result]] = [[] for _ in parsed]
    for i in samples:
        rng = random.Random(f"analysis:{seed}:{i}")
        start = deals.sample(rng)
        seeds = [rng.getrandbits(32) for _ in range(start.players)]
        for row, move in zip(results, parsed, strict=True):
            state = start.copy()
            state.apply(move)
            seats = players(policy, seeds)
            while not state.over:
                state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
            row.append((state.scores()[me], state.winner == me))
    return results


@dataclass
class Search:
    """What :func:`rounds` found: per candidate the results of samples 0, 1, … in order, and why it stopped."""

    results: list[list[Result]]
    active: list[int]  # candidates never eliminated
    stopped: str  # "apart": one candidate left; "budget": time or rollouts spent
    seconds: float

    @property
    def rollouts(self) -> int:
        return sum(map(len, self.results))


def rounds(
    measure: Measure,
    candidates: int,
    *,
    seconds: float | None,
    max_rollouts: int | None,
    min_rollouts: int = 16,
    round_size: int = 8,
    progress: Callable[[float], None] | None = None,
) -> Search:
    """Sample in rounds with elimination (the guide's *Analysis* section).

    The first round plays ``min_rollouts`` samples of every candidate (fewer only if ``max_rollouts`` cannot pay
    for them); each later round ``round_size`` samples of the candidates still in. After every round, a candidate
    whose paired difference with the current best (lowest mean) is at least 3 joint standard errors above zero is
    dropped. The search stops when one candidate is left, or before a round the budget cannot pay for: with
    ``seconds``, a round is shortened to the samples the time left should allow at the rate seen so far.
    ``progress`` hears the share of the budget spent after each round, and 1.0 at the end.
    """
    if seconds is None and max_rollouts is None:
        raise ValueError("analysis needs a budget: seconds, max_rollouts or both")
    start = time.perf_counter()
    results: list[list[Result]] = [[] for _ in range(candidates)]
    active = list(range(candidates))
    done = 0
    stopped = "budget"
    size = min_rollouts
    while True:
        if max_rollouts is not None:
            size = min(size, (max_rollouts - sum(map(len, results))) // len(active))
        elapsed = time.perf_counter() - start
        if seconds is not None and done:
            per_rollout = elapsed / sum(map(len, results))
            size = min(size, int((seconds - elapsed) / (per_rollout * len(active))))
        if size < 1 or (not done and size < 2):
            if not done:
                raise ValueError(f"max_rollouts={max_rollouts} cannot pay for 2 rollouts of each of {candidates} moves")
            break
        batch = range(done, done + size)
        for k, row in zip(active, measure(batch, active), strict=True):
            results[k].extend(row)
        done += size
        if done >= min_rollouts:
            active = _survivors(results, active)
        share = _spent(results, max_rollouts, time.perf_counter() - start, seconds)
        if progress and share < 1.0:
            progress(share)
        if len(active) == 1:
            stopped = "apart"
            break
        size = round_size
    if progress:
        progress(1.0)
    return Search(results, active, stopped, time.perf_counter() - start)


def best_of(results: Sequence[Sequence[Result]], active: Sequence[int]) -> int:
    """The candidate with the fewest expected points among ``active`` (ties: the first listed)."""
    return min(active, key=lambda k: mean_se([p for p, _ in results[k]])[0])


def _survivors(results: Sequence[Sequence[Result]], active: list[int]) -> list[int]:
    best = best_of(results, active)
    top = [p for p, _ in results[best]]
    return [k for k in active if k == best or not clearly_worse(paired([p for p, _ in results[k]], top))]


def _spent(
    results: Sequence[Sequence[Result]], max_rollouts: int | None, elapsed: float, seconds: float | None
) -> float:
    shares = [elapsed / seconds] if seconds else []
    if max_rollouts:
        shares.append(sum(map(len, results)) / max_rollouts)
    return min(1.0, max(shares))
