"""A kernel's answer while analyses run in the background, its own and other kernels': at which priority should the
background jobs run?

This process stands for one kernel: its app B answers presses (Coach or Next, Step pacing, seeded games) on the main
thread inside :func:`~cut_tutor.widgets.jobs.answering`, as a message from the page is, while its app A's coach panel
evaluates a position in the background (the verdict line's evaluation, :data:`VERDICT_ROLLOUTS` rollouts, forgotten
and started again whenever it ends). ``--kernels`` other processes stand for the other learners' kernels, each
evaluating the same way in a job of its own. Every job thread runs at the priority being measured: nice 10, nice 19
(:data:`~cut_tutor.widgets.jobs.BACKGROUND_NICE`) or the idle scheduling policy (Linux). The three alternate, round
by round, in one run, so the machine's other load falls on each alike: compare them, not the run with another.

    python benchmarks/bench_answer_under_analysis.py [--kernels 12] [--rounds 2] [--presses 80]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the package of this tree

from cut_tutor.analysis.evaluations import forget
from cut_tutor.widgets import GameApp, jobs
from cut_tutor.widgets.coach_panel import VERDICT_ROLLOUTS, CoachPanel
from cut_tutor.widgets.jobs import answering

PRIORITIES = ("nice 10", "nice 19", "idle")


def at(priority: str) -> None:
    """Every job thread started from now on runs at ``priority``."""
    if priority == "idle":
        real = jobs._in_background

        def idle(work: jobs.Callable[[threading.Event], None], stop: threading.Event) -> None:
            os.sched_setscheduler(threading.get_native_id(), os.SCHED_IDLE, os.sched_param(0))
            real(work, stop)  # its nice value then counts for nothing

        jobs._in_background = idle  # type: ignore[assignment]
    else:
        jobs.BACKGROUND_NICE = int(priority.split()[1])


def analysing(home: str, seed: int) -> tuple[GameApp, threading.Event]:
    """An app on its own turn whose coach panel evaluates its position again and again, until the event is set."""
    CoachPanel.verdicts = False  # the presses start no evaluation of their own
    app = GameApp(home)
    app.deal(seed=seed)
    while app.need_game().state.turn != 0:
        app.next()
    advice = app.advice()
    assert advice is not None
    stop = threading.Event()

    def again() -> None:
        while not stop.is_set():
            forget()
            app.coach.start_rollouts(seconds=None, rollouts=VERDICT_ROLLOUTS, focus=advice.move)
            app.coach.analyses.wait(until=stop.is_set)
        app.coach.cancel_rollouts()

    threading.Thread(target=again, daemon=True).start()
    return app, stop


def other_kernel(priority: str, seed: int) -> None:
    """A child process: evaluate in the background until the parent closes its input."""
    at(priority)
    with tempfile.TemporaryDirectory() as home:
        _, stop = analysing(home, seed)
        print("analysing", flush=True)
        sys.stdin.read()
        stop.set()


def press_times(priority: str, kernels: int, presses: int, seed: int) -> list[float]:
    """Wall milliseconds of each press answered here while this and ``kernels`` other processes analyse."""
    command = [sys.executable, __file__, "--child", priority]
    others = [subprocess.Popen([*command, str(seed + k)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
              for k in range(kernels)]  # fmt: skip
    try:
        for other in others:
            assert other.stdout is not None and other.stdout.readline().strip() == "analysing"
        at(priority)
        with tempfile.TemporaryDirectory() as home:
            _, stop = analysing(str(Path(home) / "a"), seed)
            b = GameApp(str(Path(home) / "b"))
            b.deal(seed=seed)
            times = []
            for _ in range(presses):
                game = b.need_game()
                if game.over:
                    b.deal(seed=seed)
                    game = b.need_game()
                mine = b.loop.pause is None and game.state.turn == 0 and not game.state.over
                time.sleep(0.02)  # a learner's pause: the analyses have the machine between presses
                began = time.perf_counter()
                with answering():
                    (b.coach_play if mine else b.next)()
                times.append((time.perf_counter() - began) * 1000)
            stop.set()
    finally:
        for other in others:
            assert other.stdin is not None
            other.stdin.close()
            other.wait(timeout=60)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", type=int, default=12, help="other processes analysing at the same time")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the three priorities")
    parser.add_argument("--presses", type=int, default=80, help="presses timed per priority and round")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child and args.child[0] == "measure":
        priority, kernels, presses, seed = args.child[1:]
        print(" ".join(f"{t:.2f}" for t in press_times(priority, int(kernels), int(presses), int(seed))))
        return
    if args.child:
        other_kernel(args.child[0], int(args.child[1]))
        return
    timed: dict[str, list[float]] = {p: [] for p in PRIORITIES}
    for _ in range(args.rounds):
        for priority in PRIORITIES:  # each in a process of its own: a policy set is not undone
            child = ["--child", "measure", priority, str(args.kernels), str(args.presses), str(args.seed)]
            done = subprocess.run([sys.executable, __file__, *child], capture_output=True, text=True, check=True)
            timed[priority] += [float(x) for x in done.stdout.split()]
    print(
        f"one press answered while this and {args.kernels} other processes analyse, seed {args.seed}, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}:"
    )
    for priority, times in timed.items():
        times.sort()
        p95 = times[round(0.95 * (len(times) - 1))]
        print(
            f"  job threads at {priority:8} {len(times)} presses: wall p50 {statistics.median(times):.1f} ms,"
            f" p95 {p95:.1f} ms"
        )


if __name__ == "__main__":
    main()
