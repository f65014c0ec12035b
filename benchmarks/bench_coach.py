"""Coach speed: one piece of advice at Expert, all three coaches together, and Expert self-play.

Targets: advice p95 ≤ 25 ms; three coaches ≤ 60 ms; Expert 4-seat simulation
≥ 16,000 decisions/s on one core, AI seats reading their knowledge through the view's sight as ``simulate`` does.
Baseline in the same process: building the seat's JSON view. Run: ``.venv/bin/python benchmarks/bench_coach.py``.
"""

from __future__ import annotations

import random
import statistics
import time

from cut_tutor import RandomPlayer, Rules, State, view
from cut_tutor.coach import AIPlayer, Knowledge, advise
from cut_tutor.engine.view import sight


def positions(count: int, seed: int = 1) -> list[State]:
    """Mid-hand positions reached by random play from seeded deals."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = State.deal(Rules(), seed=rng.randrange(10**9))
        for _ in range(rng.randrange(0, 80)):
            if state.over:
                break
            state.apply(RandomPlayer().choose(state, rng))
        if not state.over:
            found.append(state)
    return found


def timed(fn: object, items: list[object]) -> list[float]:
    out = []
    for item in items:
        start = time.perf_counter()
        fn(item)  # type: ignore[operator]
        out.append((time.perf_counter() - start) * 1000)
    return out


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def self_play(hands: int, seed: int) -> tuple[int, float]:
    decisions = 0
    start = time.perf_counter()
    for hand in range(hands):
        state = State.deal(Rules(), seed=seed * 1000 + hand, dealer=hand % 4)
        players = [AIPlayer("Expert", style, seed=hand) for style in ("Rock", "Balanced", "Gambler", "Balanced")]
        while not state.over:
            state.apply(players[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
            decisions += 1
    return decisions, time.perf_counter() - start


def main() -> None:
    states = positions(300)
    views = [view(s, s.turn) for s in states]
    runs: dict[str, list[float]] = {"view": [], "advice p50": [], "advice p95": [], "three p50": [], "three p95": []}
    rates = []
    for run in range(5):
        base = timed(lambda s: view(s, s.turn), states)  # type: ignore[attr-defined]
        one = timed(lambda v: advise(v, "Madonna", "Expert"), views)  # type: ignore[arg-type]
        three = timed(lambda v: [advise(v, c, "Expert") for c in ("Daryl", "Madonna", "Marty")], views)  # type: ignore[arg-type]
        runs["view"].append(statistics.median(base))
        runs["advice p50"].append(statistics.median(one))
        runs["advice p95"].append(pct(one, 0.95))
        runs["three p50"].append(statistics.median(three))
        runs["three p95"].append(pct(three, 0.95))
        decisions, seconds = self_play(20, run)
        rates.append(decisions / seconds)
    print("median of 5 runs over 300 positions (ms)")
    for name, values in runs.items():
        print(f"  {name:<11} {statistics.median(values):8.3f}")
    base = statistics.median(runs["view"])
    print(f"  advice / view ratio: {statistics.median(runs['advice p50']) / base:.1f}x")
    print(f"Expert 4-seat self-play: {statistics.median(rates):,.0f} decisions/s (median of 5 runs of 20 hands)")


if __name__ == "__main__":
    main()
