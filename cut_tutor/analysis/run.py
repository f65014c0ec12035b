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
from typing import Any, Protocol

from ..coach import advise
from ..engine.moves import Move
from .deals import Deals
from .report import BEST, CLOSE, WORSE, Analysis, MoveValue
from .search import Result, Search, play_out, players, rounds
from .stats import mean_interval

#: The rollout policy by default: the project's strongest AI seat.
POLICY = "Expert:Balanced"
#: Samples per task sent to an executor: small enough to share a round between workers.
CHUNK = 2


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
    min_rollouts: int = 16,
    round_size: int = 8,
    precision: float = 2.0,
    progress: Callable[[float], None] | None = None,
) -> Analysis:
    """Every legal move of the seat to move in ``view``, played out by ``policy`` seats on deals consistent with
    the view (C2), in rounds until the best stands apart with every gap known to ``precision`` points, or the
    budget (``seconds``, ``max_rollouts`` rollouts in all, or both) is spent. With a rollout budget and no time
    limit the result depends only on the view and the seed, whatever the executor and its number of workers.
    """
    Deals(view)  # checks the view before any work is sent out
    players(policy, [0])
    moves = [Move.parse(text) for text in view["legal"]]
    texts = [str(m) for m in moves]
    payload = dict(view)

    def measure(samples: Sequence[int], active: Sequence[int]) -> list[list[Result]]:
        chosen = [texts[k] for k in active]
        chunks = [list(samples[i : i + CHUNK]) for i in range(0, len(samples), CHUNK)]
        if executor is None:
            parts = [play_out(payload, policy, seed, chunk, chosen) for chunk in chunks]
        else:
            futures = [executor.submit(play_out, payload, policy, seed, chunk, chosen) for chunk in chunks]
            parts = [future.result() for future in futures]
        return [[r for part in parts for r in part[j]] for j in range(len(active))]

    found = rounds(measure, len(moves), seconds=seconds, max_rollouts=max_rollouts, min_rollouts=min_rollouts,
                   round_size=round_size, precision=precision, progress=progress)  # fmt: skip
    values = values_of(found, moves, advise(dict(view)).labels)
    return Analysis(view["seat"], values, found.rollouts, round(found.seconds, 3), found.stopped, seed, policy)


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
