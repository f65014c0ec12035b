"""How sure should the analysis seat be before it leaves the Expert's move? A decision-level study, in minutes.

The seat's search (the seat's rollout budget, seeded per decision) is run on every decision that
``report_regret.py`` recorded (``benchmarks/results/regret-<POLICY>.jsonl``: Expert self-play views and each move's
mean points on 64 other deals). For each confidence ``z``, the seat keeps the policy's own move unless the search's
best beats it on their shared deals by at least ``z`` standard errors of the paired difference
(:func:`cut_tutor.analysis.seat.preferred`; ``z = 0``: always the search's best). The held-out means score each
choice, so the search's noise does not flatter it. Reported per ``z``: the mean points per decision the choice
saves against the policy's move (negative is better) with a 95% interval, the same paired against always playing
the search's best, and how often the seat departs from the policy's move. The seat's confidence is chosen on these
decisions, so ``bench_seat.py`` confirms it on whole hands.

Run: ``.venv/bin/python benchmarks/tune_seat.py [ROLLOUTS] [WORKERS] [JSONL[,JSONL…]]`` (default the seat's
ROLLOUTS, 2, the Expert:Balanced file).
"""

from __future__ import annotations

import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from cut_tutor.analysis import analyse
from cut_tutor.analysis.seat import ROLLOUTS, preferred
from cut_tutor.analysis.stats import mean_interval, paired

THRESHOLDS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
RESULTS = Path(__file__).parent / "results"
#: The searches compared, by name: keyword arguments of :func:`cut_tutor.analysis.analyse`. The first is the seat's.
#: ``budget`` scales the rollouts a decision (ROLLOUTS) for that search.
SEARCHES: dict[str, dict[str, Any]] = {
    "the seat's (aim best, reading the pile)": {"aim": "best", "infer": True},
    "the seat's at half the rollouts": {"aim": "best", "infer": True, "budget": 0.5},
    "the seat's at a quarter of the rollouts": {"aim": "best", "infer": True, "budget": 0.25},
}


def decision(row: dict[str, Any], rollouts: int) -> dict[str, Any]:
    """The seat's search on one recorded decision, per search and threshold: the move it would play (an index of
    ``legal``)."""
    seen = row["view"]
    legal = seen["legal"]
    seed = random.Random(f"seat:0:{row['hand']}:{seen['turns']}").getrandbits(32)
    policy = legal.index(row["move"])  # the recorded seat played the policy's own move (Expert has no noise)
    chosen = {}
    for name, given in SEARCHES.items():
        options = dict(given)
        budget = max(round(options.pop("budget", 1.0) * rollouts), 2 * len(legal))
        found = analyse(seen, seconds=None, seed=seed, max_rollouts=budget, **options).search
        assert found is not None
        chosen[name] = [preferred(found, policy, z) for z in THRESHOLDS]
    return {"means": row["means"], "policy": policy, "chosen": chosen}


def table(found: list[dict[str, Any]], name: str) -> None:
    """Per threshold: points per decision against the policy's move, against ``z = 0``, and how often it departs."""
    print(f"\nSearch: {name}\n")
    print("| z | points per decision against the policy's move | against z = 0, paired | departs |")
    print("| --- | --- | --- | --- |")
    always = [d["means"][d["chosen"][name][0]] for d in found]
    for j, z in enumerate(THRESHOLDS):
        saved = [d["means"][d["chosen"][name][j]] - d["means"][d["policy"]] for d in found]
        mean, low, high = mean_interval(saved)
        than, than_low, than_high = mean_interval(paired([d["means"][d["chosen"][name][j]] for d in found], always))
        departs = sum(d["chosen"][name][j] != d["policy"] for d in found) / len(found)
        print(f"| {z:.1f} | {mean:+.2f} ({low:+.2f} to {high:+.2f}) | {than:+.2f} ({than_low:+.2f} to {than_high:+.2f})"
              f" | {departs:.0%} |")  # fmt: skip


def main() -> None:
    rollouts = int(sys.argv[1]) if len(sys.argv) > 1 else ROLLOUTS
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    given = sys.argv[3].split(",") if len(sys.argv) > 3 else [str(RESULTS / "regret-Expert-Balanced.jsonl")]
    paths = [Path(name) for name in given]
    rows = [json.loads(line) for path in paths for line in path.read_text().splitlines() if line]
    began = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        found = list(pool.map(decision, rows, [rollouts] * len(rows)))
    seconds = time.perf_counter() - began
    names = ", ".join(path.name for path in paths)
    print(f"# tune_seat: {len(rows)} decisions of {names}, {rollouts} rollouts each, {seconds:.0f} s")
    for name in SEARCHES:
        table(found, name)
    seat, *others = SEARCHES
    for name in others:
        print(f"\nSearch {name} against {seat}, the same decisions and seeds, paired:\n")
        print("| z | points per decision | choices differ |")
        print("| --- | --- | --- |")
        for j, z in enumerate(THRESHOLDS):
            theirs = [d["means"][d["chosen"][name][j]] for d in found]
            mean, low, high = mean_interval(paired(theirs, [d["means"][d["chosen"][seat][j]] for d in found]))
            differ = sum(d["chosen"][name][j] != d["chosen"][seat][j] for d in found) / len(found)
            print(f"| {z:.1f} | {mean:+.2f} ({low:+.2f} to {high:+.2f}) | {differ:.0%} |")
    print(f"\nRun: `.venv/bin/python benchmarks/tune_seat.py {' '.join(sys.argv[1:])}`")


if __name__ == "__main__":
    main()
