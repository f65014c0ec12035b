"""The compiled core's targets, each against the Python path where a ratio makes sense (results: ``core.md``).

``review``: a hand's review, ready within 10 s of the hand's end on 2 cores, every graded decision's loss known to
±2 points. Several seeded 4-seat USA hands (the reviewed seat Average:Balanced, the others Expert:Balanced, as
``bench_review.py`` plays them) are reviewed with the default budgets on two worker processes already up, as the
app's are; per hand its wall time, decisions, rollouts and the graded decisions' loss half-widths. One hand is also
reviewed in this process on both paths, with the default budgets (CPU seconds, the same review required).

``ladder``: ``report_ladder.py``'s Level ladder (5000 shuffles × 4 rotations = 20,000 hands, one Random seat) on 2
worker processes, wall seconds; and the same table's first SHUFFLES in this process on both paths (CPU seconds, the
same table required).

``memory``: what the core adds to a kernel: fresh interpreters import cut_tutor, run a few analyses, a review and a
simulation, and read their resident set (``VmRSS``, and its peak ``VmHWM``) from ``/proc/self/status``, with the
core and with ``CUT_TUTOR_PURE=1``.

Figures are medians of RUNS runs. Run: ``python benchmarks/bench_core.py review|ladder|memory [RUNS]`` (default 3);
``review RUNS ROLLOUTS`` reviews with another budget a decision (default the review's, ``hand.ROLLOUTS``), and
``ladder RUNS SHUFFLES`` times both paths on another number of shuffles (default 250).

``seat``: what a budget of the analysis seat (``bench_seat.py``'s, at most ROLLOUTS rollouts a decision) costs a
decision on 2 idle cores: the rollouts per second of its analyses over RUNS hands. Run:
``bench_core.py seat RUNS ROLLOUTS``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_review import hand  # this folder is on the path when run as a script

from cut_tutor import Rules
from cut_tutor.analysis import native
from cut_tutor.analysis.evaluations import forget
from cut_tutor.compiled import PURE_VARIABLE
from cut_tutor.engine import record_of
from cut_tutor.review import review
from cut_tutor.review.hand import ROLLOUTS
from cut_tutor.sim import simulate

#: The seeded hands ``review`` times (``bench_review.hand``): 4-seat USA, 60 to 140 moves.
HANDS = (3, 5, 7, 11, 13, 17, 19, 23)
#: The half-width, in points, a graded decision's loss must be known to.
PRECISION = 2.0
LADDER = ["Expert:Balanced", "Experienced:Balanced", "Average:Balanced", "Random"]


#: The compiled coach, None on the Python path; a timing on the Python path sets ``native.NATIVE`` to None a while.
CORE = native.NATIVE


def cpu(compiled: bool, work: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of ``work()`` on one path in this process (the core when ``compiled``), and its result."""
    native.NATIVE = CORE if compiled else None
    try:
        forget()
        start = time.process_time()
        result = work()
        return time.process_time() - start, result
    finally:
        native.NATIVE = CORE


def bench_review(runs: int, rollouts: int = ROLLOUTS) -> None:
    records = [record_of(hand(seed)) for seed in HANDS]
    walls: dict[int, list[float]] = {k: [] for k in range(len(records))}
    reviews = {}
    with ProcessPoolExecutor(2) as pool:
        [f.result() for f in [pool.submit(time.sleep, 0.2) for _ in range(2)]]  # both workers up before the clock
        for _ in range(runs):
            for k, record in enumerate(records):
                forget()  # evaluated afresh on the workers
                start = time.perf_counter()
                reviews[k] = review(record, 0, executor=pool, rollouts=rollouts)
                walls[k].append(time.perf_counter() - start)
    print(f"Reviews of seat 0 (Average:Balanced), at most {rollouts} rollouts a decision, on 2 worker processes,"
          f" median of {runs}:")  # fmt: skip
    print("| hand seed | moves | decisions | rollouts | stopped on budget | graded | graded within ±2 | worst graded"
          " half-width | wall s |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    graded_all = within_all = 0
    for k, record in enumerate(records):
        decisions = reviews[k].decisions
        graded = [d for d in decisions if d.grade is not None]
        halves = [(d.loss_high - d.loss_low) / 2 for d in graded]
        within = sum(h <= PRECISION for h in halves)
        graded_all, within_all = graded_all + len(graded), within_all + within
        capped = sum(d.rollouts >= rollouts for d in decisions)
        print(f"| {HANDS[k]} | {len(record['moves'])} | {len(decisions)} | {sum(d.rollouts for d in decisions)} |"
              f" {capped} | {len(graded)} | {within} | {max(halves, default=0.0):.2f} |"
              f" {statistics.median(walls[k]):.2f} |")  # fmt: skip
    every = [statistics.median(w) for w in walls.values()]
    print(f"\nslowest hand {max(every):.2f} s, median {statistics.median(every):.2f} s (target ≤ 10 s);"
          f" graded decisions within ±{PRECISION:g}: {within_all} of {graded_all}")  # fmt: skip
    if CORE is None or rollouts != ROLLOUTS:  # a larger budget would take minutes on the Python path
        return
    longest = max(range(len(records)), key=lambda k: len(records[k]["moves"]))
    record = records[longest]
    core, one = cpu(True, lambda: review(record, 0, rollouts=rollouts).rows())
    python, other = cpu(False, lambda: review(record, 0, rollouts=rollouts).rows())
    if one != other:
        raise SystemExit("the compiled core and the Python path review the hand differently: no figures")
    print(f"hand {HANDS[longest]} reviewed in this process: core {core:.2f} s CPU, Python path {python:.2f} s CPU"
          f" ({python / core:.1f}×), the same review")  # fmt: skip


def bench_ladder(runs: int, shuffles: int = 250) -> None:
    walls = []
    for _ in range(runs):
        with ProcessPoolExecutor(2) as pool:
            [f.result() for f in [pool.submit(time.sleep, 0.2) for _ in range(2)]]
            start = time.perf_counter()
            simulate(LADDER, Rules(), hands=5000, seed=2026, executor=pool, duplicate=True, chunk=50)
            walls.append(time.perf_counter() - start)
    print(f"Level ladder, 20,000 hands on 2 worker processes: median {statistics.median(walls):.1f} s wall"
          f" (runs: {', '.join(f'{w:.1f}' for w in walls)}; target ≤ 60 s)")  # fmt: skip
    if CORE is None:
        return
    table = {"hands": shuffles, "seed": 2026, "duplicate": True}
    cores, pythons = [], []
    for _ in range(runs):
        core, one = cpu(True, lambda: simulate(LADDER, Rules(), **table))
        python, other = cpu(False, lambda: simulate(LADDER, Rules(), **table))
        if not one.equals(other):
            raise SystemExit("the compiled core and the Python path play the ladder differently: no figures")
        cores.append(core)
        pythons.append(python)
    core, python = statistics.median(cores), statistics.median(pythons)
    print(f"its first {shuffles * 4} hands in one process: core {core:.2f} s CPU, Python path {python:.2f} s CPU"
          f" ({python / core:.1f}×), the same table")  # fmt: skip


def bench_seat(runs: int, rollouts: int = 1800) -> None:
    """What a budget of ``rollouts`` costs the analysis seat a decision in wall seconds on 2 idle cores: the rate of
    its own analyses (deal sampling included, the other seats' moves not: they are not its thinking time), the
    figure ``bench_seat.py``'s budget is set by; and, beside it, the whole hand's rate in this process."""
    from bench_seat import SEED, chair_hand

    rates, whole, per = [], [], []
    for deal in range(runs):
        start = time.process_time()
        hand = chair_hand(SEED, deal, deal % 4, rollouts)
        whole.append(hand["rollouts"] / (time.process_time() - start))
        rates.append(hand["rollouts"] / hand["seconds"])
        per.append(hand["rollouts"] / hand["analysed"])
    rate = statistics.median(rates)
    print(f"Analysis seat at most {rollouts} rollouts a decision, {runs} hands (deal k, chair k % 4): median"
          f" {rate:.0f} rollouts per second of its analyses on one core ({statistics.median(whole):.0f} per"
          f" CPU-second of the whole hand, the three Expert seats' moves included), {statistics.median(per):.0f}"
          f" rollouts per analysed decision: {statistics.median(per) / rate / 2:.2f} s of wall on 2 idle cores, the"
          f" full budget {rollouts / rate / 2:.2f} s")  # fmt: skip


#: What a kernel does in ``memory``: a few analyses, a review and a simulation, then its resident set.
KERNEL = """
import json
from pathlib import Path
from cut_tutor import Rules, State, view
from cut_tutor.analysis import evaluation
from cut_tutor.compiled import ACTIVE
from cut_tutor.engine import record_of
from cut_tutor.review import review
from cut_tutor.sim import simulate
from bench_review import hand

def status():
    rows = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return {key: int(rows[key].split()[0]) / 1024 for key in ("VmRSS", "VmHWM")}

imported = status()
for seed in range(4):
    state = State.deal(Rules(), seed)
    evaluation(view(state, state.turn), str(state.legal_moves()[0]), rollouts=400)
review(record_of(hand(5)), 0)
simulate(["Expert:Balanced", "Expert:Rock", "Average:Gambler", "Random"], Rules(), hands=50, seed=1)
print(json.dumps({"path": ACTIVE, "imported": imported, "worked": status()}))
"""


def bench_memory(runs: int) -> None:
    here = str(Path(__file__).resolve().parent)
    found: dict[str, list[dict[str, Any]]] = {"core": [], "python": []}
    for _ in range(runs):
        for name in found:
            env = {key: value for key, value in os.environ.items() if key != PURE_VARIABLE}
            env["PYTHONPATH"] = os.pathsep.join([str(Path(here).parent), here])
            if name == "python":
                env[PURE_VARIABLE] = "1"
            done = subprocess.run([sys.executable, "-c", KERNEL], env=env, capture_output=True, text=True, check=True)
            found[name].append(json.loads(done.stdout.strip().splitlines()[-1]))

    def median(name: str, when: str, key: str) -> float:
        return statistics.median(row[when][key] for row in found[name])

    print(f"Resident set of a fresh interpreter, MB, median of {runs} (core: {found['core'][0]['path']};"
          f" Python: {found['python'][0]['path']}):")  # fmt: skip
    print("| | core | Python path | core − Python |")
    print("| --- | --- | --- | --- |")
    for when, key, words in [("imported", "VmRSS", "cut_tutor imported"), ("worked", "VmRSS", "after the work"),
                             ("worked", "VmHWM", "peak")]:  # fmt: skip
        core, python = median("core", when, key), median("python", when, key)
        print(f"| {words} | {core:.1f} | {python:.1f} | {core - python:+.1f} |")


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    numbers = [int(word) for word in sys.argv[2:]]
    benches = {"review": bench_review, "ladder": bench_ladder, "memory": bench_memory, "seat": bench_seat}
    if what not in benches:
        raise SystemExit(f"usage: bench_core.py {'|'.join(benches)} [RUNS] [ROLLOUTS|SHUFFLES]")
    benches[what](*(numbers or [3]))


if __name__ == "__main__":
    main()
