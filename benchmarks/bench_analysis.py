"""Analysis speed and precision: mid-game 4-seat USA positions analysed for 2 s on 2 worker processes.

First target, a judge's: within 2 s wall on 2 cores, the verdicts settled (the guide's *Analysis*): every move
but the best *worse* or *too close* on 16 shared deals, and the price of a focus move known to ±2 points; the
focus stands for the learner's move: the move the Expert:Balanced seat would play there. ``AIM`` (default
``verdicts``) chooses the rounds' rule, so the rule that measures every gap (``gaps``) is measured on the same
positions and the same figure.
Second target: within 2 s wall on 2 cores, every move's gap to the best known to ±2 points
(95% half-width) or marked too close. Reported per position, then as medians: wall time, rollouts, rollouts per
second per core, the gaps' 95% half-widths, and whether the position reached the target: every move but the best
*known* (within ±2 points) or *close* on at least ``MIN_CLOSE`` rollouts (a wide interval that reaches 0 after a few
rollouts is not known); a move marked *worse* with a wider interval does not count. Baseline in the same run: Expert
4-seat self-play on one core, as ``bench_coach`` times it. ``WORKERS`` 0 analyses in this process (one core);
``ROLLOUTS`` gives each analysis that many rollouts and no time limit (``SECONDS`` is then ignored), so that two
versions of the search can be compared on a busy machine: the figures depend only on the seed.
Last, the memory one analysis adds to the process that runs it, as the coach panel runs it in the kernel (target:
≤ 100 MB): in a fresh process, the peak resident size during a 2 s in-process analysis of the first position, less
the resident size just before it.
With ``LONGER`` seconds (default 0: not measured), each analysis is then continued as the coach panel's *Analyse
longer* button continues it, 4 s at a time, until every gap meets the target or ``LONGER`` seconds have been spent
in all; reported: the share of positions that meet it after each step, and how the time those presses took
compares with the first analysis' own estimate of it (its status line's "about … more").
The positions are read from ``positions/analysis.jsonl``: drawn once from Expert self-play and kept, so that a change
to the Expert (or to the engine's speed) is measured on the same positions rather than on the ones it now plays into.
Run: ``.venv/bin/python benchmarks/bench_analysis.py [POSITIONS] [SECONDS] [WORKERS] [ROLLOUTS] [LONGER] [AIM]``
(default 30, 2.0, 2, none, 0, verdicts); ``bench_analysis.py write-positions [COUNT]`` draws the file anew (default 60).
"""

from __future__ import annotations

import json
import multiprocessing
import random
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from cut_tutor import Rules, State, view
from cut_tutor.analysis import analyse
from cut_tutor.analysis.search import Aim
from cut_tutor.analysis.stats import MIN_ROLLOUTS, PRECISION
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.engine.view import sight
from cut_tutor.widgets.coach_panel import LONGER

TARGET = 2.0
#: The kept positions, one ``cut_tutor.position`` object a line.
FIXED = Path(__file__).parent / "positions" / "analysis.jsonl"
#: The fewest rollouts of a move (and so of its pairs with the best) for its *close* mark to count: the analysis' own.
MIN_CLOSE = MIN_ROLLOUTS


def positions(count: int) -> list[State]:
    """The first ``count`` kept positions (:data:`FIXED`)."""
    lines = FIXED.read_text(encoding="utf-8").splitlines()
    if count > len(lines):
        raise SystemExit(f"{FIXED.name} keeps {len(lines)} positions, not {count}: draw more with write-positions")
    return [State.from_position(json.loads(line)) for line in lines[:count]]


def draw(count: int, seed: int = 10) -> list[State]:
    """Mid-hand positions of Expert:Balanced self-play with 4 to 12 legal moves, one per seeded deal."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = State.deal(Rules(), seed=rng.randrange(10**9), dealer=rng.randrange(4))
        seats = [AIPlayer("Expert", "Balanced", seed=rng.randrange(10**6)) for _ in range(4)]
        stop = rng.randrange(12, 60)
        for _ in range(stop):
            if state.over:
                break
            state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
        if not state.over and state.phase == "play" and 4 <= len(state.legal_moves()) <= 12:
            found.append(state)
    return found


def baseline(hands: int = 20) -> float:
    """Expert 4-seat self-play, decisions per second on one core."""
    decisions, start = 0, time.perf_counter()
    for hand in range(hands):
        state = State.deal(Rules(), seed=hand, dealer=hand % 4)
        seats = [AIPlayer("Expert", "Balanced", seed=hand) for _ in range(4)]
        while not state.over:
            state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def estimates(rows: list[dict[str, Any]], cap: float) -> str:
    """How the first analysis' estimate of the time more (``Analysis.more_seconds``, its status line) compares
    with the presses of Analyse longer that settled every gap (a press's seconds each: an upper bound), and what it
    said of the positions not settled within ``cap`` seconds more."""
    timed = [LONGER * r["presses"] / r["estimate"] for r in rows if r["presses"] and r["estimate"]]
    unsettled = [r["estimate"] for r in rows if r["presses"] is None and r["estimate"]]
    said = "  the first analysis' estimate of the time more:"
    if timed:
        within = sum(0.5 <= ratio <= 2.0 for ratio in timed) / len(timed)
        said += (f" for the {len(timed)} positions Analyse longer settled, its presses took"
                 f" {statistics.median(timed):.2f} times the estimate (median), within half to twice it in"
                 f" {within:.0%}")  # fmt: skip
    if unsettled:
        said += (
            f"; the {len(unsettled)} not settled within {cap:g} s more were estimated at"
            f" {statistics.median(unsettled):.0f} s (median), {sum(e > cap for e in unsettled)} above {cap:g}"
        )
    return said


def added_memory(seconds: float) -> float:
    """MB the first position's in-process analysis adds at its peak (run in a fresh process: see the docstring)."""
    state = positions(1)[0]
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    before = pages * resource.getpagesize() / 2**20
    analyse(view(state, state.turn), seconds=seconds, seed=0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    return peak - before


def main() -> None:
    if sys.argv[1:2] == ["write-positions"]:
        drawn = draw(int(sys.argv[2]) if len(sys.argv) > 2 else 60)
        FIXED.parent.mkdir(exist_ok=True)
        FIXED.write_text("".join(json.dumps(state.to_position()) + "\n" for state in drawn), encoding="utf-8")
        print(f"{len(drawn)} positions written to {FIXED}")
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    budget = int(sys.argv[4]) or None if len(sys.argv) > 4 else None
    cap = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
    aim: Aim = "gaps" if sys.argv[6:7] == ["gaps"] else "verdicts"
    states = positions(count)
    before = baseline()
    rows = []
    with ProcessPoolExecutor(max(1, workers)) as pool:
        pool.submit(sum, [0]).result()  # the workers start before the clock does
        for k, state in enumerate(states):
            seen = view(state, state.turn)
            focus = seen["legal"].index(str(AIPlayer("Expert", "Balanced", seed=k).choose_view(seen)))
            start = time.perf_counter()
            result = analyse(seen, seconds=None if budget else seconds, seed=k, executor=pool if workers else None,
                             max_rollouts=budget, aim=aim, focus=[seen["legal"][focus]])  # fmt: skip
            wall = time.perf_counter() - start
            assert result.search is not None
            verdicts = not result.search.undecided([focus], PRECISION, MIN_ROLLOUTS)
            others = [m for m in result.moves if m.verdict != "best"]
            halves = [(m.gap_high - m.gap_low) / 2 for m in others]
            known = [h <= TARGET for h in halves]
            close = [
                not ok and m.verdict == "close" and min(m.rollouts, result.best.rollouts) >= MIN_CLOSE
                for ok, m in zip(known, others, strict=True)
            ]
            presses, longer = 0, result  # the presses of Analyse longer that met the target (None: not in the cap)
            while longer.settled < len(others) and presses is not None:
                presses = presses + 1 if seconds + LONGER * (presses + 1) <= cap else None
                if presses:
                    longer = analyse(view(state, state.turn), seconds=LONGER, executor=pool if workers else None,
                                     resume=longer)  # fmt: skip
            rows.append(
                {
                    "moves": len(result.moves),
                    "wall": wall,
                    "rollouts": result.rollouts,
                    "per_core": result.rollouts / wall / max(1, workers),
                    "half": statistics.median(halves),
                    "max_half": max(halves),
                    "strict": result.settled == len(others),
                    "verdicts": verdicts,
                    "presses": presses,
                    "known": sum(known),
                    "close": sum(close),
                    "others": len(others),
                    "stopped": result.stopped,
                    "estimate": result.more_seconds,
                }
            )
            r = rows[-1]
            print(f"{k:3d} moves {r['moves']:2d}  {r['wall']:.2f} s  {r['rollouts']:4d} rollouts"
                  f"  {r['per_core']:5.0f}/s/core  half-width median {r['half']:5.2f} max {r['max_half']:6.2f}"
                  f"  known {r['known']:2d} close {r['close']:2d} of {r['others']:2d}  {r['stopped']:<6}"
                  f"  verdicts {'yes' if r['verdicts'] else 'no'}  gaps {'yes' if r['strict'] else 'no'}",
                  flush=True)  # fmt: skip
    after = baseline()
    base = statistics.median([before, after])
    median = {key: statistics.median(r[key] for r in rows) for key in ("moves", "wall", "rollouts", "per_core", "half")}
    spent = f"{budget} rollouts" if budget else f"{seconds} s"
    print(f"\n{count} positions, {spent} each on {workers or 'no'} workers, rounds aimed at the {aim}; medians:")
    print(f"  legal moves {median['moves']:.0f}, wall {median['wall']:.2f} s, rollouts {median['rollouts']:.0f},"
          f" {median['per_core']:.0f} rollouts/s/core, gap half-width {median['half']:.2f} points")  # fmt: skip
    others = sum(r["others"] for r in rows)
    known, close = sum(r["known"] for r in rows), sum(r["close"] for r in rows)
    reached = sum(r["strict"] for r in rows) / len(rows)
    print(f"  verdicts settled (the focus priced to ±{TARGET}): {sum(r['verdicts'] for r in rows)} of {len(rows)}"
          f" positions")  # fmt: skip
    print(f"  every gap within ±{TARGET} or close on {MIN_CLOSE}+ rollouts: {reached:.0%} of positions;"
          f" of the {others} other moves, {known / others:.0%} known to ±{TARGET}, {close / others:.0%}"
          f" close, {1 - (known + close) / others:.0%} neither")  # fmt: skip
    print(f"  the best stood apart in {sum(r['stopped'] == 'apart' for r in rows) / len(rows):.0%}")
    if cap:
        met = [r["presses"] for r in rows if r["presses"] is not None]
        shares = [f"{seconds + LONGER * n:g} s {sum(p <= n for p in met) / len(rows):.0%}"
                  for n in range(int((cap - seconds) // LONGER) + 1)]  # fmt: skip
        print(f"  continued by Analyse longer ({LONGER:g} s a press): target met within {', '.join(shares)}")
        print(estimates(rows, cap - seconds))
    print(
        f"baseline: Expert 4-seat self-play {base:,.0f} decisions/s on one core (before {before:,.0f}, after"
        f" {after:,.0f}); one analysis = {median['wall'] * base:,.0f} baseline decisions of wall time,"
        f" a rollout = {base / median['per_core']:.0f} decisions of one core"
    )
    with multiprocessing.get_context("spawn").Pool(1) as fresh:
        added = fresh.apply(added_memory, (seconds,))
    print(f"memory: one {seconds} s analysis in this process adds {added:.1f} MB at its peak (target ≤ 100 MB)")


if __name__ == "__main__":
    main()
