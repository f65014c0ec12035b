"""``analyse``: the Monte-Carlo value of every legal move of a seat's view, with its confidence.

>>> from cut_tutor.engine import Rules, State, view
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> result = analyse(view(state, 0), seconds=None, max_rollouts=60)
>>> [m.verdict for m in result.moves].count("best"), result.rollouts <= 60
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Any, Protocol

from ..coach import advise
from ..engine.moves import Move
from ..engine.words import SEAT_NAMES
from .deals import Deals
from .report import BEST, CLOSE, WORSE, Analysis, MoveValue
from .search import Aim, Result, Search, play_out, players, rounds
from .stats import MIN_ROLLOUTS, PRECISION, mean_interval

#: The rollout policy by default: the project's strongest AI seat.
POLICY = "Expert:Balanced"
#: Samples per task sent to an executor, at least: small enough to share a round between workers.
CHUNK = 2
#: The most tasks a round is sent as: a long round's tasks are larger, so fewer hand-offs for the same samples.
PARTS = 8


class Submitter(Protocol):
    """Anything with ``submit(fn, *args)`` returning a future: a concurrent.futures executor or a Dask Client."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any: ...


def analyse(
    view: Mapping[str, Any],
    seconds: float | None = 2.0,
    seed: int = 0,
    policy: str = POLICY,
    executor: Executor | Submitter | None = None,
    max_rollouts: int | None = None,
    *,
    min_rollouts: int = MIN_ROLLOUTS,
    round_size: int = 8,
    precision: float = PRECISION,
    progress: Callable[[float], None] | None = None,
    resume: Analysis | None = None,
    aim: Aim = "verdicts",
    infer: bool = False,
    focus: Sequence[Move | str] = (),
) -> Analysis:
    """Every legal move of the seat to move in ``view``, played out by ``policy`` seats on deals consistent with
    the view (C2), in rounds until the verdicts are settled (every other move *worse* or *too close* than the best,
    the ``focus`` moves' gaps known to ``precision`` points), or the budget (``seconds``, ``max_rollouts`` rollouts
    in all, or both) is spent; ``aim="gaps"`` measures every gap to ``precision`` points. With a rollout budget and
    no time limit the result depends only on the view and the seed, whatever the executor and its number of workers.

    ``resume``, an earlier analysis of the same view, is continued with its seed, policy and ``infer`` on the deals
    after its own: the budget is what the continuation may spend, the figures are of every rollout. ``aim="best"``
    spends the rollouts only on choosing the best (:func:`~cut_tutor.analysis.search.rounds`), as a player would.
    ``infer`` deals only hands with which ``policy`` seats would have made the turns on the pile
    (:class:`~cut_tutor.analysis.deals.Deals`): right when the other seats play like ``policy``.
    """
    Deals(view)  # checks the view before any work is sent out
    moves = [Move.parse(text) for text in view["legal"]]
    start = None
    if resume is not None:
        if resume.search is None or resume.seat != view["seat"] or {m.move for m in resume.moves} != set(moves):
            raise ValueError("resume: that analysis is not of this position, or kept no rollouts to continue")
        start, seed, policy, infer = resume.search, resume.seed, resume.policy, resume.infer
    players(policy, [0])
    texts = [str(m) for m in moves]
    focused = [focus_index(texts, m) for m in focus]
    payload = dict(view)

    def measure(samples: Sequence[int], active: Sequence[int]) -> list[list[Result]]:
        parts = spread(
            executor, partial(play_out, moves=[texts[k] for k in active], infer=infer), (payload, policy, seed), samples
        )
        return joined(parts(), len(active))

    found = rounds(measure, len(moves), seconds=seconds, max_rollouts=max_rollouts, min_rollouts=min_rollouts,
                   round_size=round_size, precision=precision, progress=progress, start=start, aim=aim,
                   focus=focused)  # fmt: skip
    values = values_of(found, moves, advise(dict(view), names=SEAT_NAMES).labels)  # the seats as the table names them
    best = found.best
    settled = sum(found.settled(k, best, precision, min_rollouts) for k in range(len(moves)) if k != best)
    return Analysis(view["seat"], values, found.rollouts, round(found.seconds, 3), found.stopped, seed, policy,
                    found.deals, precision, settled, found, infer, aim, tuple(texts[k] for k in focused))  # fmt: skip


def focus_index(texts: Sequence[str], move: Move | str) -> int:
    """Where a focus move stands among the legal moves' texts; one that is not legal is an error that names it."""
    text = str(Move.parse(move) if isinstance(move, str) else move)
    if text not in texts:
        raise ValueError(f"focus: {move} is not one of the legal moves ({', '.join(texts)})")
    return texts.index(text)


def values_of(found: Search, moves: Sequence[Move], labels: Mapping[Move, str]) -> list[MoveValue]:
    """Each move's figures from the search, best first: the best is :attr:`Search.best` among the moves not
    eliminated, and every gap is measured against it on the deals both were played out on."""
    best = found.best
    values = []
    for k, move in enumerate(moves):
        rows = found.results[k]
        expected, low, high = mean_interval(found.points(k))
        if k == best:
            gap = gap_low = gap_high = 0.0
            verdict = BEST
        else:
            gap, gap_low, gap_high = mean_interval(found.gap(k, best))
            verdict = CLOSE if gap_low <= 0 else WORSE
        p_out = round(sum(out for _, out in rows) / len(rows), 3)
        values.append(MoveValue(move, labels[move], expected, low, high, gap, gap_low, gap_high, p_out, len(rows),
                                verdict))  # fmt: skip
    values.sort(key=lambda m: (m.verdict != BEST, m.expected))
    return values


def joined(parts: Sequence[Sequence[Sequence[Result]]], moves: int) -> list[list[Result]]:
    """Per move, its results from every part (a task's :func:`play_out` answer) in order."""
    return [[r for part in parts for r in part[j]] for j in range(moves)]


def spread(
    executor: Executor | Submitter | None, fn: Callable[..., Any], args: tuple[Any, ...], items: Sequence[int]
) -> Callable[[], list[Any]]:
    """``fn(*args, chunk)`` for every chunk of ``items`` (of :data:`CHUNK` or more, in :data:`PARTS` at most):
    submitted to ``executor`` at once (or played when called, without one); the returned function waits for the
    parts, in order."""
    size = max(CHUNK, -(-len(items) // PARTS))
    chunks = [list(items[i : i + size]) for i in range(0, len(items), size)]
    if executor is None:
        return lambda: [fn(*args, chunk) for chunk in chunks]
    futures = [executor.submit(fn, *args, chunk) for chunk in chunks]
    return lambda: [future.result() for future in futures]
