"""How good the Card Clear Hint is (H1–H8): stars and pass rate per level band for three ways to play.

Every policy plays the same seeded deals (``LEVEL-DEAL`` codes): random legal swaps, the highest immediate score,
and the Hint. Writes ``benchmarks/results/cardclear.md``.
Run: ``.venv/bin/python benchmarks/report_cardclear.py [DEALS] [WORKERS]`` (default 1000 deals, 2 workers), the
deals spread evenly over the 25 levels.
"""

from __future__ import annotations

import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cut_tutor.cardclear import LEVELS, Puzzle
from cut_tutor.cardclear.hint import POLICIES, solve
from cut_tutor.cardclear.levels import BANDS


def play(job: tuple[str, int, int]) -> tuple[str, int, bool, int, int]:
    """One deal played out by one policy: (policy, level, passed, stars, final score)."""
    name, level, deal = job
    state = Puzzle.new(level, deal)
    solve(state, POLICIES[name], random.Random(deal))
    return name, level, state.passed, state.stars, state.final_score


def main(deals: int = 1000, workers: int = 2) -> str:
    levels = sorted(LEVELS)
    jobs = [(name, levels[i % len(levels)], i) for name in POLICIES for i in range(deals)]
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play, jobs, chunksize=20))
    lines = ["# Card Clear: the Hint against two baselines\n",
             f"{deals} seeded deals per policy, levels 1–{levels[-1]} in turn (deal *i* is level *i* mod "
             f"{len(levels)} + 1), the same deals for every policy; {time.perf_counter() - start:.0f} s.\n",
             "| levels | deals | policy | pass rate | mean stars | 3 stars | mean final score |",
             "|---|---:|---|---:|---:|---:|---:|"]  # fmt: skip
    for first, last in BANDS:
        for name in POLICIES:
            band = [r for r in results if r[0] == name and first <= r[1] <= last]
            n = len(band)
            lines.append(f"| {first}–{last} | {n} | {name} | {sum(r[2] for r in band) / n:.1%} |"
                         f" {sum(r[3] for r in band) / n:.2f} | {sum(r[3] == 3 for r in band) / n:.1%} |"
                         f" {sum(r[4] for r in band) / n:.0f} |")  # fmt: skip
    text = "\n".join(lines) + "\n"
    (Path(__file__).parent / "results" / "cardclear.md").write_text(text, encoding="utf-8")
    return text


if __name__ == "__main__":
    print(main(*(int(arg) for arg in sys.argv[1:3])))
