"""Rollouts and the rounds that spend them: every candidate played out on the same sampled deals, the clearly
worse eliminated from the choice of the best, the rollouts sent where a verdict (or, for a longer analysis, a gap to
the best) is not yet known, until the verdicts are settled or the budget is spent (the guide's *Analysis* section).

:func:`rounds` knows nothing of the game: it asks a ``measure`` function for the results of some sample indices
on some candidates, so the stopping rule is tested on numbers alone. :func:`play_out` is the measure for a view,
run in this process or on any executor's workers (a picklable top-level function).
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..coach import AIPlayer, Knowledge
from ..engine import State
from ..engine.moves import Move
from ..engine.packed import code_of
from ..engine.view import sight
from . import native
from .deals import Deals, canonical
from .stats import MIN_ROLLOUTS, PRECISION, clearly_worse, mean_interval, mean_se

#: A later round deals at least one sample per this many dealt before it: the compiled core plays a small round in
#: less time than the rounds' bookkeeping and the hand-offs to the workers take.
GROWTH = 8
#: One rollout's result for the analysed seat: its points for the hand, and whether it went out first.
Result = tuple[int, bool]
#: ``measure(samples, candidates)`` → per candidate (in that order), per sample index: a :data:`Result`.
Measure = Callable[[Sequence[int], Sequence[int]], list[list[Result]]]
#: What the rounds are for: ``"verdicts"``, every move's verdict and the focus moves' price (a judge: the tutor,
#: the review, the coach panel's first analysis); ``"gaps"``, every move's gap to the best (*Analyse longer*);
#: ``"best"``, only which move is best (a player: :class:`~cut_tutor.analysis.AnalysisSeat`).
Aim = Literal["verdicts", "gaps", "best"]


def players(policy: str, seeds: Sequence[int]) -> list[AIPlayer]:
    """One AI seat per seed from a ``Level:Style`` policy (``Expert:Balanced``); a bad name raises ValueError."""
    level, _, style = policy.partition(":")
    return [AIPlayer(level, style or "Balanced", seed) for seed in seeds]


def play_out(
    view: Mapping[str, Any], policy: str, seed: int, samples: Sequence[int], moves: Sequence[str], infer: bool = False
) -> list[list[Result]]:
    """Each move played out to the end of the hand on the deals ``samples`` name, per move then per sample.

    Sample ``i`` is one deal consistent with the view and one seed per AI seat, both drawn from ``(seed, i)``
    alone: every move meets the same deal and the same seats (common random numbers), and the result does not
    depend on which worker or which batch computed it. With ``infer``, the deals also agree with the turns on the
    pile as a ``policy`` seat would have played them (:class:`~cut_tutor.analysis.deals.Deals`). The compiled core
    plays the rollouts when it is built (:mod:`.native`), with the same results.
    """
    deals = _deals(view, policy if infer else None)
    me = deals.seat
    parsed = [Move.parse(text) for text in moves]
    core = native.policy(policy, deals.rules)
    if core is not None and native.NATIVE is not None:  # the compiled seats: the same rollouts in one call
        codes = [code_of(move) for move in parsed]
        rows = native.NATIVE.sampled_rollouts(core, deals.plan(), _stream(seed), list(samples), codes, me)
        return [list(row) for row in rows]
    results: list[list[Result]] = [[] for _ in parsed]
    for i in samples:
        start, seeds = sample(deals, seed, i)
        for row, move in zip(results, parsed, strict=True):
            state = start.copy()
            state.apply(move)
            play(state, players(policy, seeds))
            row.append((state.scores()[me], state.winner == me))
    return results


def sample(deals: Deals, seed: int, i: int) -> tuple[State, list[int]]:
    """Sample ``i`` of an analysis with ``seed``: one deal consistent with the view and one seed per AI seat, drawn
    from ``(seed, i)`` alone."""
    rng = _draws(seed, i)
    start = deals.sample(rng)
    return start, [rng.getrandbits(32) for _ in range(start.players)]


def _draws(seed: int, i: int) -> random.Random:
    """The generator of sample ``i`` of an analysis with ``seed``, seeded from its text (the core seeds its own the
    same way: :meth:`Deals.plan`)."""
    return random.Random(f"{_stream(seed)}{i}")


def _stream(seed: int) -> str:
    """The text every sample's generator of an analysis with ``seed`` is seeded from, before the sample's index."""
    return f"analysis:{seed}:"


#: The views whose deals this process holds, with the policy reading their turns (None: not read), by canonical text.
_held: OrderedDict[tuple[str, str | None], Deals] = OrderedDict()
_held_lock = threading.Lock()
#: How many views' deals a process keeps: the positions being analysed now, each asked for a chunk at a time.
HELD = 8


def _deals(view: Mapping[str, Any], reader: str | None) -> Deals:
    """The :class:`Deals` of ``view`` (its turns read by a ``reader`` seat, if named), made once per process: a
    worker is sent each position's view chunk after chunk, and building its deals (their packed template) costs
    more than dealing a chunk."""
    key = (canonical(view), reader)
    with _held_lock:
        deals = _held.get(key)
        if deals is not None:
            _held.move_to_end(key)
            return deals
    deals = Deals(json.loads(key[0]), players(reader, [0])[0] if reader else None)  # its own copy of the view
    with _held_lock:
        _held[key] = deals
        while len(_held) > HELD:
            _held.popitem(last=False)
    return deals


def play(state: State, seats: Sequence[AIPlayer], plies: int | None = None) -> int:
    """``seats`` play ``state`` on to the end of the hand, or for ``plies`` decisions if it lasts that long; the
    decisions played."""
    played = 0
    while not state.over and (plies is None or played < plies):
        state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
        played += 1
    return played


@dataclass
class Search:
    """What :func:`rounds` found: per candidate the sample indices it was played out on (ascending) and their
    results, the candidates not eliminated, and why it stopped."""

    samples: list[list[int]]
    results: list[list[Result]]
    active: list[int]  # candidates not eliminated
    stopped: str  # "apart": one candidate left, every gap known; "chosen": one left (aim "best"); "budget": spent
    seconds: float
    #: per candidate, sample index → points: every gap paired without a pass over the best's rows
    by_sample: list[dict[int, int]] = field(init=False)

    def __post_init__(self) -> None:
        self.by_sample = [
            dict(zip(s, (p for p, _ in r), strict=True)) for s, r in zip(self.samples, self.results, strict=True)
        ]

    @property
    def deals(self) -> int:
        """How many sample indices were dealt: 0 … deals − 1 (a round deals the next ones to the moves it plays)."""
        return max((s[-1] + 1 for s in self.samples if s), default=0)

    def record(self, k: int, samples: Sequence[int], rows: Sequence[Result]) -> None:
        """Candidate ``k``'s results on ``samples`` (beyond any it has)."""
        self.samples[k].extend(samples)
        self.results[k].extend(rows)
        self.by_sample[k].update(zip(samples, (p for p, _ in rows), strict=True))

    @property
    def rollouts(self) -> int:
        return sum(map(len, self.results))

    @property
    def best(self) -> int:
        """The active candidate that does best, on the samples they share, against the active candidate with the
        fewest expected points (itself, unless another beats it on the same deals; ties: the first listed).

        Candidates can have different samples (the rounds refine some more than others), and their own means
        then differ by the luck of different deals; paired on the same deals, that luck cancels.
        """
        lowest = min(self.active, key=lambda k: mean_se(self.points(k))[0])
        return min(self.active, key=lambda k: 0.0 if k == lowest else mean_se(self.gap(k, lowest))[0])

    def points(self, k: int) -> list[int]:
        """Candidate ``k``'s points, one per rollout."""
        return [p for p, _ in self.results[k]]

    def gap(self, k: int, best: int | None = None) -> list[int]:
        """Per sample both were played out on, how many points worse candidate ``k`` did than ``best`` (by
        default the current best): the paired differences its gap is measured by (common random numbers)."""
        top = self.by_sample[self.best if best is None else best]
        return [p - top[i] for i, p in zip(self.samples[k], self.points(k), strict=True) if i in top]

    def settled(self, k: int, best: int, precision: float, minimum: int) -> bool:
        """Does candidate ``k``'s gap to ``best`` meet the target: on at least ``minimum`` shared samples, either
        known to ``precision`` points (95% half-width) or too close to call (its interval reaches 0)?"""
        diffs = self.gap(k, best)
        if len(diffs) < minimum:
            return False
        _, low, high = mean_interval(diffs)
        return high - low <= 2 * precision or low <= 0

    def undecided(self, focus: Sequence[int], precision: float, minimum: int) -> list[int]:
        """The candidates whose verdict is not settled yet, ascending: the stopping rule of a judge (the guide's
        *Analysis*). Every candidate other than the best needs ``minimum`` deals shared with it, after which its gap's
        interval says *worse* (above 0) or *too close* (reaching 0); a ``focus`` candidate (the move the learner made
        or is about to make) also needs its gap to the best known to ``precision`` points, so that its price is."""
        best = self.best
        thin = {k for k in range(len(self.results)) if k != best and len(self.gap(k, best)) < minimum}
        return sorted(thin | {k for k in focus if k != best and self.wide(k, best, precision)})

    def wide(self, k: int, best: int, precision: float) -> bool:
        """Is candidate ``k``'s gap interval to ``best`` wider than ``precision`` points either side?"""
        _, low, high = mean_interval(self.gap(k, best))
        return high - low > 2 * precision


def rounds(
    measure: Measure,
    candidates: int,
    *,
    seconds: float | None,
    max_rollouts: int | None,
    min_rollouts: int = MIN_ROLLOUTS,
    round_size: int = 8,
    precision: float = PRECISION,
    progress: Callable[[float], None] | None = None,
    start: Search | None = None,
    aim: Aim = "gaps",
    focus: Sequence[int] = (),
) -> Search:
    """Sample in rounds: eliminate to choose the best, allocate to measure the gaps (the guide's *Analysis*).

    The first round plays ``min_rollouts`` samples of every candidate (fewer only if ``max_rollouts`` cannot pay for
    them). After every round, a candidate whose paired difference with the current best (:attr:`Search.best`) is at
    least 3 joint standard errors above zero is eliminated: it cannot be the best; as it may still be played out, it
    comes back if that difference shrinks below 3 standard errors. Each later round plays as many rollouts as
    ``round_size`` samples of every candidate would, and at least one sample per :data:`GROWTH` dealt before it
    (fewer rounds: less waiting between them), the next samples of the best and of the candidates that need them
    most, the first of these groups that is not empty: the gaps that do not yet meet the target (known to
    ``precision`` points, or too close to call, on ``min_rollouts`` samples or more); else the gaps still wider than
    ``precision``; else the active candidates, to settle which is best. The search stops when none is left (one
    active candidate, every gap known: the best stands apart), or before a round the budget cannot pay for: with
    ``seconds``, a round is shortened to the samples the time left should allow at the rate seen so far.
    ``progress`` hears the share of the budget spent after each round, and 1.0 at the end.

    ``start`` continues an earlier search of the same candidates (it is not changed): the budget is then what the
    continuation may spend, its rounds deal the samples after the earlier ones, and the figures are of all of them,
    as a longer search would have them (GNU Backgammon's extended rollouts).

    ``aim="best"`` only chooses: each later round plays the candidates not eliminated, and the search stops when one
    is left (``"chosen"``). A player needs no more: a worse move's gap decides nothing once it is eliminated.

    ``aim="verdicts"`` spends the rollouts where they decide: each later round plays the best and the candidates
    :meth:`Search.undecided` names, and the search stops (``"apart"``) when none is left: every other candidate
    *worse* or *too close* on ``min_rollouts`` shared deals, and each ``focus`` candidate's gap known to ``precision``.
    """
    if seconds is None and max_rollouts is None:
        raise ValueError("analysis needs a budget: seconds, max_rollouts or both")
    began = time.perf_counter()
    found, chosen, size = _begin(start, candidates, min_rollouts, round_size, precision, aim, focus)
    done, before, earlier = found.deals, found.rollouts, found.seconds
    while chosen:
        if max_rollouts is not None:
            size = min(size, (max_rollouts - found.rollouts + before) // len(chosen))
        elapsed = time.perf_counter() - began
        if seconds is not None and done:
            per_rollout = (earlier + elapsed) / found.rollouts
            size = min(size, int((seconds - elapsed) / (per_rollout * len(chosen))))
        if size < 1 or (not done and size < 2):
            if not done:
                raise ValueError(f"max_rollouts={max_rollouts} cannot pay for 2 rollouts of each of {candidates} moves")
            break
        batch = range(done, done + size)
        for k, row in zip(chosen, measure(batch, chosen), strict=True):
            found.record(k, batch, row)
        done += size
        if done >= min_rollouts:
            found.active = _survivors(found)
        share = _spent(found.rollouts - before, max_rollouts, time.perf_counter() - began, seconds)
        if progress and share < 1.0:
            progress(share)
        chosen = _allocation(found, precision, min_rollouts, aim, focus)
        size = _round(round_size, candidates, len(chosen), done)
    if not chosen:
        found.stopped = "chosen" if aim == "best" else "apart"
    if progress:
        progress(1.0)
    found.seconds = earlier + time.perf_counter() - began
    return found


def _begin(
    start: Search | None,
    candidates: int,
    min_rollouts: int,
    round_size: int,
    precision: float,
    aim: Aim,
    focus: Sequence[int],
) -> tuple[Search, list[int], int]:
    """The search :func:`rounds` begins from (a copy of ``start``, or an empty one), the candidates its first round
    plays and that round's samples."""
    if start is None:
        found = Search([[] for _ in range(candidates)], [[] for _ in range(candidates)], list(range(candidates)),
                       "budget", 0.0)  # fmt: skip
        return found, list(range(candidates)), min_rollouts
    if len(start.results) != candidates:
        raise ValueError(f"the search to continue has {len(start.results)} candidates, not {candidates}")
    found = Search([list(s) for s in start.samples], [list(r) for r in start.results], list(start.active),
                   "budget", start.seconds)  # fmt: skip
    chosen = _allocation(found, precision, min_rollouts, aim, focus)
    return found, chosen, _round(round_size, candidates, len(chosen), found.deals)


def _round(round_size: int, candidates: int, chosen: int, done: int) -> int:
    """The samples of the next round: as many rollouts as ``round_size`` samples of every candidate would, and at
    least one in :data:`GROWTH` of the samples dealt so far, so that a long analysis waits between fewer rounds;
    none when no candidate is chosen."""
    return max(round_size, round_size * candidates // chosen, done // GROWTH) if chosen else 0


def _allocation(found: Search, precision: float, minimum: int, aim: Aim, focus: Sequence[int] = ()) -> list[int]:
    """The candidates the next round plays (ascending), the best among them; none when nothing is left to
    learn: (aim ``"verdicts"``) every verdict settled, or one candidate active and (aim ``"gaps"``) every gap known
    to ``precision`` points."""
    if aim == "best":
        return list(found.active) if len(found.active) > 1 else []
    best = found.best
    if aim == "verdicts":
        undecided = found.undecided(focus, precision, minimum)
        return sorted([best, *undecided]) if undecided else []
    others = [k for k in range(len(found.results)) if k != best]
    for group in (
        [k for k in others if not found.settled(k, best, precision, minimum)],
        [k for k in others if found.wide(k, best, precision)],
        [k for k in found.active if k != best],
    ):
        if group:
            return sorted([best, *group])
    return []


def _survivors(found: Search) -> list[int]:
    best = found.best
    return [k for k in range(len(found.results)) if k == best or not clearly_worse(found.gap(k, best))]


def _spent(rollouts: int, max_rollouts: int | None, elapsed: float, seconds: float | None) -> float:
    shares = [elapsed / seconds] if seconds else []
    if max_rollouts:
        shares.append(rollouts / max_rollouts)
    return min(1.0, max(shares))
