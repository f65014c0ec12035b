"""The verdict line's delay: how long after the coach's recommendation appears its verdict line follows.

Target: about a second (the median). Seeded 4-player hands are played in the tutor app with Step pacing, the learner's
seat by *Coach: Play*; at each of the learner's decisions with more than one legal move the clock starts when the
recommendation is drawn (the AI seat's move before it has returned) and stops when the verdict line is drawn from the
position's evaluation (at most ``VERDICT_ROLLOUTS`` rollouts, no time limit, in the background thread). Each run
starts with no position evaluated; reported per run and as the median of the runs: the median and 90th percentile
delay, and the median rollouts spent.
Run: ``.venv/bin/python benchmarks/bench_verdict.py [HANDS] [RUNS]`` (default 4 hands, 3 runs).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time

from cut_tutor.analysis.evaluations import forget
from cut_tutor.widgets import GameApp
from cut_tutor.widgets.coach_panel import VERDICT_ROLLOUTS


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def one_run(hands: int) -> tuple[list[float], list[int]]:
    """Every learner decision's delay (seconds) and rollouts, over ``hands`` seeded hands."""
    forget()
    delays: list[float] = []
    spent: list[int] = []
    for hand in range(hands):
        app = GameApp(tempfile.mkdtemp())
        app.set_players(4)
        app.set_pacing("Step")
        app.deal(seed=100 + hand)
        started = time.perf_counter()
        while app.state is not None and not app.state.over:
            if app.state.turn != 0:
                app.next()
                started = time.perf_counter()
                continue
            app.coach.wait_verdict()
            found = app.coach.evaluated()
            if len(app.state.legal_moves()) > 1 and found is not None:
                delays.append(time.perf_counter() - started)
                spent.append(found.rollouts)
            app.coach_play()
            started = time.perf_counter()
    return delays, spent


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    medians, p90s, rollouts = [], [], []
    print(f"verdict line delay after the recommendation, {hands} seeded 4-player hands, "
          f"at most {VERDICT_ROLLOUTS} rollouts")  # fmt: skip
    for run in range(runs):
        delays, spent = one_run(hands)
        medians.append(statistics.median(delays))
        p90s.append(pct(delays, 0.9))
        rollouts.append(statistics.median(spent))
        print(f"  run {run + 1}: {len(delays)} decisions, median {medians[-1]:.2f} s, p90 {p90s[-1]:.2f} s, "
              f"median {rollouts[-1]:.0f} rollouts")  # fmt: skip
    print(f"median of {runs} runs: delay median {statistics.median(medians):.2f} s, "
          f"p90 {statistics.median(p90s):.2f} s, rollouts median {statistics.median(rollouts):.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
