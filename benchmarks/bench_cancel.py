"""How soon the review room's *Cancel* stops a running hand review.

A 2-seat hand per seed is played to its end (your seat playing the coach's worst move each turn, as in the review
room's tests), its review started in the background, and *Cancel* pressed 1.5 s later; the time from the press to
the review's thread ending is the latency. The baseline, timed in the same process on the same hands, is the review
as it was when it heard its progress only between decisions: the progress it hears within a decision is dropped.
Reported: the median and the largest latency of each, and their ratio.
Run: ``.venv/bin/python benchmarks/bench_cancel.py [HANDS]`` (default 6).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from cut_tutor.review import hand as hand_module
from cut_tutor.widgets import GameApp

#: How long the review runs before Cancel is pressed, in seconds.
RUNNING = 1.5


def latency(seed: int) -> float | None:
    """Seconds from Cancel to the review's end on the hand dealt with ``seed`` (``None``: it ended first)."""
    app = GameApp(tempfile.mkdtemp())
    app.set_players(2)
    app.set_pacing("Auto")
    app.deal(seed=seed)
    while app.state is not None and not app.state.over:
        advice = app.advice()
        assert advice is not None
        app.play(str(advice.candidates[-1].move))
    app.review_hand()
    time.sleep(RUNNING)
    job = app.review.reviewing.running()
    if job is None:
        return None
    start = time.perf_counter()
    app.cancel_review()
    job.thread.join()
    return time.perf_counter() - start


def between_decisions(real: Callable[..., Any]) -> Callable[..., Any]:
    """The baseline: a decision that hears no progress of its own."""

    def decision(*args: Any, **options: Any) -> Any:
        options.pop("progress", None)
        return real(*args, **options)

    return decision


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    seeds = range(3, 3 + hands)
    now = [t for t in map(latency, seeds) if t is not None]
    real = hand_module.decision
    hand_module.decision = between_decisions(real)
    try:
        before = [t for t in map(latency, seeds) if t is not None]
    finally:
        hand_module.decision = real
    for name, times in (("within a round", now), ("between decisions (baseline)", before)):
        print(f"{name}: median {statistics.median(times):.3f} s, largest {max(times):.3f} s over {len(times)} hands")
    print(f"ratio of medians: {statistics.median(now) / statistics.median(before):.2f}")


if __name__ == "__main__":
    main()
