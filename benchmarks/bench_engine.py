"""Engine speed on one core: random-policy 4-seat USA hands, and the cost of each engine call.

A *decision* is one ``legal_moves()``, one random choice and one ``apply``. Figures are medians of
5 runs; the ratios compare with baselines measured in the same process (a ``randrange`` call and a
``State.copy()``), so they travel between machines better than raw times do.

    python benchmarks/bench_engine.py            # the table
    python benchmarks/bench_engine.py --profile  # plus the hot path under cProfile
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cut_tutor.engine import Move, Rules, State, view

RULES = Rules()  # USA, 4 seats
RUNS = 5
HANDS_PER_RUN = 300
SAMPLES = 4000


def play_hands(count: int, first_seed: int = 0) -> int:
    """Play ``count`` random-policy hands; returns the number of decisions."""
    decisions = 0
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        state = State.deal(RULES, seed)
        while not state.over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            decisions += 1
    return decisions


def sample_states(count: int) -> list[tuple[State, Move]]:
    """States met in random play, each with the move chosen there, copied before any move list is cached."""
    samples: list[tuple[State, Move]] = []
    seed = 10_000
    while len(samples) < count:
        rng = random.Random(seed)
        state = State.deal(RULES, seed)
        while not state.over and len(samples) < count:
            fresh = state.copy()
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            samples.append((fresh, move))
            state.apply(move)
        seed += 1
    return samples


def per_call(action: Callable[[], object], calls: int) -> float:
    """Median over runs of the seconds per call of ``action`` (called ``calls`` times per run)."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for _ in range(calls):
            action()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def per_sample(action: Callable[[State, Move], object], samples: list[tuple[State, Move]]) -> float:
    """Median over runs of the seconds per sample of ``action(copy, move)``, copying included."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for state, move in samples:
            action(state.copy(), move)
        times.append((time.perf_counter() - start) / len(samples))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true", help="also profile the random-policy loop")
    args = parser.parse_args()

    play_hands(20)  # warm up
    hand_times, rates = [], []
    for run in range(RUNS):
        start = time.perf_counter()
        decisions = play_hands(HANDS_PER_RUN, first_seed=run * HANDS_PER_RUN)
        elapsed = time.perf_counter() - start
        hand_times.append(elapsed / HANDS_PER_RUN)
        rates.append(decisions / elapsed)
    hands_per_s = 1 / statistics.median(hand_times)
    decisions_per_s = statistics.median(rates)

    rng = random.Random(0)
    randrange = per_call(lambda: rng.randrange(12), 200_000)
    samples = sample_states(SAMPLES)
    copy = per_sample(lambda state, move: None, samples)
    legal = per_sample(lambda state, move: state.legal_moves(), samples) - copy
    apply = per_sample(lambda state, move: state.apply(move), samples) - copy
    cached = per_call(samples[0][0].legal_moves, 200_000)
    position = per_sample(lambda state, move: state.to_position(), samples[:1000]) - copy
    seen = per_sample(lambda state, move: view(state, state.turn), samples[:1000]) - copy - legal
    decision = 1 / decisions_per_s

    print(f"cut_tutor engine, random policy, {RULES.players} seats {RULES.preset}, median of {RUNS} runs\n")
    print(f"{'measure':<34}{'value':>14}{'× randrange':>14}{'× copy':>10}")
    rows = [
        ("hands / s", f"{hands_per_s:,.0f}", "", ""),
        ("decisions / s", f"{decisions_per_s:,.0f}", "", ""),
        ("decision (legal + choice + apply)", decision, decision / randrange, decision / copy),
        ("legal_moves(), fresh state", legal, legal / randrange, legal / copy),
        ("legal_moves(), cached", cached, cached / randrange, cached / copy),
        ("apply(move)", apply, apply / randrange, apply / copy),
        ("view(state, seat), moves listed", seen, seen / randrange, seen / copy),
        ("to_position()", position, position / randrange, position / copy),
        ("baseline: State.copy()", copy, copy / randrange, 1.0),
        ("baseline: Random.randrange(12)", randrange, 1.0, randrange / copy),
    ]
    for name, value, vs_rand, vs_copy in rows:
        if isinstance(value, float):
            print(f"{name:<34}{value * 1e6:>11.2f} µs{vs_rand:>13.1f}×{vs_copy:>9.2f}×")
        else:
            print(f"{name:<34}{value:>14}")

    if args.profile:
        print("\nrandom-policy loop under cProfile (top 15 by own time):")
        profiler = cProfile.Profile()
        profiler.runcall(play_hands, 100)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
