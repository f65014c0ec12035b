"""Rollout speed on one core: every legal move of fixed mid-game 4-seat positions played out to the end of the hand
by Expert:Balanced seats, as the analysis does (:func:`cut_tutor.analysis.search.play_out`).

Every analysis, review and regret report is bound by this figure. Each run plays the same rollouts; times are CPU
seconds of this process (a busy machine's waits do not count), the figures medians of the runs, and the ratio
compares a rollout with a fixed pure-Python workload (sorting, dict and list work, no project code) timed in the
same process between the runs, so what load remains largely cancels and the ratio can be compared between commits
and machines.

    python benchmarks/bench_rollouts.py [POSITIONS] [SAMPLES] [RUNS]   # default 8 4 5
    python benchmarks/bench_rollouts.py --profile                     # plus one run under cProfile
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_analysis import positions  # this folder is on the path when run as a script

from cut_tutor import view
from cut_tutor.analysis.search import play_out

POLICY = "Expert:Balanced"
Job = tuple[dict[str, Any], list[str]]


def jobs(count: int) -> list[Job]:
    """The seat-to-move's view and legal moves of ``count`` fixed positions (the analysis benchmark's)."""
    return [(view(state, state.turn), [str(m) for m in state.legal_moves()]) for state in positions(count)]


def rollouts(work: list[Job], samples: int) -> int:
    """Play every move of every position out on ``samples`` deals; returns the number of rollouts played."""
    played = 0
    for seed, (seen, moves) in enumerate(work):
        played += sum(map(len, play_out(seen, POLICY, seed, range(samples), moves)))
    return played


def baseline() -> float:
    """Seconds of a fixed pure-Python workload: the unit the rollout is measured in."""
    start = time.process_time()
    rng = random.Random(0)
    counts: dict[int, int] = {}
    for _ in range(20):
        values = [rng.randrange(1000) for _ in range(5000)]
        values.sort()
        for v in values:
            counts[v] = counts.get(v, 0) + 1
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="?", type=int, default=8)
    parser.add_argument("samples", nargs="?", type=int, default=4)
    parser.add_argument("runs", nargs="?", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="also profile one run under cProfile")
    args = parser.parse_args()

    work = jobs(args.positions)
    rollouts(work[:1], 1)  # warm up
    per_rollout, units = [], []
    for _ in range(args.runs):
        units.append(baseline())
        start = time.process_time()
        played = rollouts(work, args.samples)
        per_rollout.append((time.process_time() - start) / played)
    units.append(baseline())
    rollout, unit = statistics.median(per_rollout), statistics.median(units)
    print(f"{POLICY} rollouts of {played} per run ({args.positions} positions × {args.samples} deals × every move),")
    print(f"median of {args.runs} runs on one core:")
    print(f"  rollout              {rollout * 1e3:8.2f} ms   ({1 / rollout:,.0f} rollouts/s)")
    print(f"  baseline workload    {unit * 1e3:8.2f} ms")
    print(f"  rollout / baseline   {rollout / unit:8.3f}")

    if args.profile:
        print("\none run under cProfile (top 25 by own time):")
        profiler = cProfile.Profile()
        profiler.runcall(rollouts, work, args.samples)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
