"""Rollout speed on one core: every legal move of fixed mid-game 4-seat positions played out to the end of the hand
by Expert:Balanced seats, as the analysis does (:func:`cut_tutor.analysis.search.play_out`), on the compiled core
and on the Python path in the same run.

Every analysis, review and regret report is bound by this figure. Each run plays the same rollouts on both paths
(they must agree, or the benchmark stops); times are CPU seconds of this process (a busy machine's waits do not
count), the figures medians of the runs, and the ratio compares a rollout with a fixed pure-Python workload
(sorting, dict and list work, no project code) timed in the same process between the runs, so what load remains
largely cancels and the ratio can be compared between commits and machines. Without the compiled core (or with
``CUT_TUTOR_PURE=1``) only the Python path is timed.

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
from cut_tutor.analysis import native
from cut_tutor.analysis.search import Result, play_out

POLICY = "Expert:Balanced"
Job = tuple[dict[str, Any], list[str]]


def jobs(count: int) -> list[Job]:
    """The seat-to-move's view and legal moves of ``count`` fixed positions (the analysis benchmark's)."""
    return [(view(state, state.turn), [str(m) for m in state.legal_moves()]) for state in positions(count)]


def rollouts(work: list[Job], samples: int) -> list[list[list[Result]]]:
    """Play every move of every position out on ``samples`` deals; per position, the outcome matrix."""
    return [play_out(seen, POLICY, seed, range(samples), moves) for seed, (seen, moves) in enumerate(work)]


class Timed:
    """The compiled coach with its ``rollouts`` calls timed: the core's own share, without the deal sampling."""

    def __init__(self, core: Any) -> None:
        self.core, self.seconds = core, 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)

    def rollouts(self, *args: Any) -> Any:
        start = time.process_time()
        try:
            return self.core.rollouts(*args)
        finally:
            self.seconds += time.process_time() - start


def timed(work: list[Job], samples: int, compiled: bool) -> tuple[float, float, list[list[list[Result]]]]:
    """CPU seconds per rollout on one path (``compiled``: the core, else the Python path), the core's own share of
    them (0 on the Python path), and the results."""
    core = native.NATIVE
    counted = Timed(core)
    native.NATIVE = counted if compiled else None
    try:
        start = time.process_time()
        results = rollouts(work, samples)
        seconds = time.process_time() - start
    finally:
        native.NATIVE = core
    played = sum(len(rows) for matrix in results for rows in matrix)
    return seconds / played, counted.seconds / played, results


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
    paths = ["core", "python"] if native.NATIVE is not None else ["python"]
    for path in paths:
        timed(work[:1], 1, path == "core")  # warm up
    per_rollout: dict[str, list[float]] = {path: [] for path in paths}
    in_core, units = [], []
    for _ in range(args.runs):
        units.append(baseline())
        found = []
        for path in paths:
            seconds, own, results = timed(work, args.samples, path == "core")
            per_rollout[path].append(seconds)
            if path == "core":
                in_core.append(own)
            found.append(results)
        if any(results != found[0] for results in found):
            raise SystemExit("the compiled core and the Python path disagree: no figures")
    units.append(baseline())
    played = sum(len(rows) for matrix in found[0] for rows in matrix)
    unit = statistics.median(units)
    print(f"{POLICY} rollouts of {played} per run ({args.positions} positions × {args.samples} deals × every move),")
    print(f"median of {args.runs} runs on one core (CPU seconds):")
    for path in paths:
        rollout = statistics.median(per_rollout[path])
        print(f"  {path:6} rollout       {rollout * 1e3:8.3f} ms   ({1 / rollout:8,.0f} rollouts per CPU-second)"
              f"   rollout / baseline {rollout / unit:8.4f}")  # fmt: skip
    print(f"  baseline workload    {unit * 1e3:8.2f} ms")
    if len(paths) == 2:
        python, core = statistics.median(per_rollout["python"]), statistics.median(per_rollout["core"])
        own = statistics.median(in_core)
        print(f"  core / python speed  {python / core:8.1f}×   (play_out, deals sampled in Python included)")
        print(f"  in the core alone    {own * 1e3:8.3f} ms   ({1 / own:8,.0f} rollouts per CPU-second, "
              f"{python / own:.1f}× the Python path)")  # fmt: skip

    if args.profile:
        print("\none run under cProfile (top 25 by own time):")
        profiler = cProfile.Profile()
        profiler.runcall(rollouts, work, args.samples)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
