"""The analysis seat against Expert:Balanced: how many points per hand does playing by the analysis save?

Duplicate deals (4-seat USA, seeded as :func:`cut_tutor.sim.simulate` deals them): on every deal and in every chair,
the analysis seat (:class:`cut_tutor.analysis.seat.AnalysisSeat`, ROLLOUTS rollouts per decision, leaving the
Expert's move for the analysis' best at its CONFIDENCE) plays against three Expert:Balanced seats; the baseline is
``simulate``'s duplicate run of four Expert:Balanced seats, whose rotation ``r`` puts player 0 in chair ``r`` with the
other three seeded exactly as here. The paired difference per (deal, chair) is the analysis seat's points minus
Expert:Balanced's (lower is better), with a 95% interval.

Target (TARGET_POINTS, TARGET_DEALS): at 0.5 s per decision, at least 15 points per hand less, by the paired
difference with its 95% interval, on at least 200 deals × 4 chairs. The report (markdown) goes to stdout, one
progress line per hand to stderr.
Run: ``.venv/bin/python benchmarks/bench_seat.py [DEALS] [ROLLOUTS] [WORKERS] [FIRST]`` (default 200, the seat's
ROLLOUTS, 2, 0: deals FIRST to DEALS − 1). Results do not depend on the number of workers. Each finished hand is a
progress line with its figures as JSON, so a run cut short can be summed up, and finished by another run from the
deal where it stopped: ``.venv/bin/python benchmarks/bench_seat.py --log STDERR_FILE[,STDERR_FILE…] [ROLLOUTS]
[WORKERS]``; two seats' runs are paired hand by hand with ``--versus LOG[,LOG…] OTHER_LOG[,LOG…]``. With
``--open-only`` (anywhere among the arguments) the seat analyses only open endgames, where it knows every other hand
(:func:`cut_tutor.analysis.seat.hands_open`), and plays Expert:Balanced's move elsewhere.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from cut_tutor import Rules, State
from cut_tutor.analysis import AnalysisSeat
from cut_tutor.analysis.run import POLICY
from cut_tutor.analysis.seat import CONFIDENCE, ROLLOUTS
from cut_tutor.analysis.stats import mean_interval, paired
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.engine.view import sight, view
from cut_tutor.engine.words import count
from cut_tutor.sim import hand_seed, seat_seed, simulate

SEED = 10
#: The full seat's target: at least this many points per hand less than Expert:Balanced (the paired difference, with
#: its 95% interval), on at least this many deals × 4 chairs.
TARGET_POINTS, TARGET_DEALS = 15, 200
#: How the report names a seat that analyses only open endgames.
OPEN_ONLY = "; only open endgames analysed (every other hand known), Expert:Balanced's move played elsewhere"


def chair_hand(seed: int, deal: int, chair: int, rollouts: int, open_only: bool = False) -> dict[str, Any]:
    """Deal ``deal`` with the analysis seat in ``chair`` and Expert:Balanced in the other three, seeded as the
    baseline's rotation ``chair`` seeds them."""
    rules = Rules()
    state = State.deal(rules, hand_seed(seed, deal), dealer=deal % rules.players)
    level, _, style = POLICY.partition(":")
    seat = AnalysisSeat(rollouts, seed=seat_seed(seed, deal, chair, chair), open_only=open_only)
    others = {s: AIPlayer(level, style, seat_seed(seed, deal, chair, s)) for s in range(rules.players) if s != chair}
    decisions = 0
    while not state.over:
        if state.turn == chair:
            move = seat.choose(state)
            decisions += 1
        else:
            move = others[state.turn].choose(Knowledge.from_sight(sight(state, state.turn)))
        seat.observe(view(state, chair), move)  # it watches every move from its chair
        state.apply(move)
    return {
        "deal": deal, "chair": chair, "points": state.scores()[chair], "went_out": state.winner == chair,
        "decisions": decisions, "analysed": seat.analysed, "rollouts": seat.rollouts, "seconds": seat.seconds,
        "open_only": open_only,
    }  # fmt: skip


def report(rows: list[dict[str, Any]], base: dict[tuple[int, int], dict[str, Any]], rollouts: int,
           workers: int, wall: float) -> str:  # fmt: skip
    """The markdown report: both seats' means, the paired difference, going out, and the cost per decision."""
    a = [float(r["points"]) for r in rows]
    b = [float(base[r["deal"], r["chair"]]["points"]) for r in rows]
    diff, low, high = mean_interval(paired(a, b))
    ma, la, ha = mean_interval(a)
    mb, lb, hb = mean_interval(b)
    analysed = sum(r["analysed"] for r in rows)
    spent = sum(r["seconds"] for r in rows)
    played = sum(r["rollouts"] for r in rows)
    rate = played / spent
    deals = len({r["deal"] for r in rows})
    first, last = min(r["deal"] for r in rows), max(r["deal"] for r in rows)
    offset = f" {first}" if first else ""
    goal = f"; target ≤ −{TARGET_POINTS} on at least {TARGET_DEALS} deals × 4 chairs"
    target = "" if rows[0].get("open_only") else goal  # the target is the full seat's
    lines = [
        f"# Analysis seat vs Expert:Balanced, {deals} duplicate deals × 4 chairs (4-seat USA, seed {SEED})",
        "",
        f"Analysis seat: at most {rollouts} rollouts per decision ({POLICY} play-outs; at least 2 a legal move), in"
        " rounds that play on only the moves not eliminated and stop when one is left, on deals that agree with the"
        f" turns on the pile as {POLICY} would have played them; the"
        f" analysis' best played when it beats {POLICY}'s own move by {count(CONFIDENCE, 'standard error')}, forced"
        f" moves played directly{OPEN_ONLY if rows[0].get('open_only') else ''};"
        f" {played / analysed:.0f} rollouts per analysed decision on average. Measured here:"
        f" {rate:.0f} rollouts/s of the seat's thinking on one core, so an analysed decision took"
        f" {spent / analysed / 2:.2f} s of wall on 2 cores on average and {rollouts} rollouts"
        f" {rollouts / rate / 2:.2f} s.",
        "",
        "| seat | points per hand (95%) | went out |",
        "| --- | --- | --- |",
        f"| analysis seat | {ma:.2f} ({la:.2f} to {ha:.2f}) | {statistics.mean(r['went_out'] for r in rows):.1%} |",
        f"| Expert:Balanced | {mb:.2f} ({lb:.2f} to {hb:.2f}) |"
        f" {statistics.mean(base[r['deal'], r['chair']]['went_out'] for r in rows):.1%} |",
        "",
        f"**Paired difference (analysis seat − Expert:Balanced, same deal and chair): {diff:+.2f} points per hand,"
        f" 95% interval {low:+.2f} to {high:+.2f}** (n = {len(rows)}{target}).",
        "",
        "| chair | difference (95%) |",
        "| --- | --- |",
    ]
    for chair in range(4):
        mine = [(float(r["points"]), float(base[r["deal"], chair]["points"])) for r in rows if r["chair"] == chair]
        d, lo, hi = mean_interval(paired([x for x, _ in mine], [y for _, y in mine]))
        lines.append(f"| {chair} | {d:+.2f} ({lo:+.2f} to {hi:+.2f}) |")
    lines += [
        "",
        f"Decisions analysed: {analysed} of {sum(r['decisions'] for r in rows)} the seat made"
        f" ({analysed / len(rows):.1f} per hand); {spent / analysed:.3f} s per analysed decision on one core"
        f" ({workers} workers, {wall / 60:.1f} min of wall in all).",
        "",
        f"Run: `.venv/bin/python benchmarks/bench_seat.py {last + 1} {rollouts} {workers}{offset}"
        f"{' --open-only' if rows[0].get('open_only') else ''}`",
    ]
    return "\n".join(lines)


def hands(log: str) -> list[dict[str, Any]]:
    """The finished hands of a run, from its progress lines (``LOG``: its stderr)."""
    return [json.loads(line.split(" ", 1)[1]) for line in Path(log).read_text(encoding="utf-8").splitlines()
            if line[:1].isdigit()]  # fmt: skip


def runs(logs: str) -> tuple[list[dict[str, Any]], float]:
    """The finished hands of one or more runs of the same seat (``LOGS``: their stderr files, comma-separated), each
    (deal, chair) once, and their wall time in all: a run cut short and the run that finished it sum as one."""
    done: dict[tuple[int, int], dict[str, Any]] = {}
    wall = 0.0
    for log in logs.split(","):
        rows = hands(log)
        done |= {(r["deal"], r["chair"]): r for r in rows}
        wall += max((r["elapsed"] for r in rows), default=0)
    return list(done.values()), wall


def versus(log: str, other: str) -> str:
    """Two seats' runs paired on the hands both finished (the same deal and chair): how many points per hand the
    first scored less, with its 95% interval."""
    first, second = ({(r["deal"], r["chair"]): r["points"] for r in runs(logs)[0]} for logs in (log, other))
    both = sorted(first.keys() & second.keys())
    diff, low, high = mean_interval(paired([first[k] for k in both], [second[k] for k in both]))
    return (f"{log} − {other}, the same {len(both)} deals and chairs: {diff:+.2f} points per hand, 95% interval"
            f" {low:+.2f} to {high:+.2f}")  # fmt: skip


def summed(logs: str, rollouts: int, workers: int) -> str:
    """The report of a run, finished or cut short, from its progress lines: the deals whose four chairs all
    finished, so every deal still counts in every chair."""
    done, wall = runs(logs)
    chairs = Counter(r["deal"] for r in done)
    rows = sorted((r for r in done if chairs[r["deal"]] == 4), key=lambda r: (r["deal"], r["chair"]))
    if not rows:
        raise SystemExit(f"{logs}: no deal has all four chairs finished")
    base = {(r["deal"], r["chair"]): {"points": r["expert"], "went_out": r["expert_out"]} for r in rows}
    return report(rows, base, rollouts, workers, wall) + f", summed from its progress lines in {logs}"


def main() -> None:
    open_only = "--open-only" in sys.argv
    if open_only:
        sys.argv.remove("--open-only")
    if sys.argv[1:2] == ["--versus"]:
        print(versus(sys.argv[2], sys.argv[3]))
        return
    if sys.argv[1:2] == ["--log"]:
        rollouts = int(sys.argv[3]) if len(sys.argv) > 3 else ROLLOUTS
        print(summed(sys.argv[2], rollouts, int(sys.argv[4]) if len(sys.argv) > 4 else 2))
        return
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else TARGET_DEALS
    rollouts = int(sys.argv[2]) if len(sys.argv) > 2 else ROLLOUTS
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        frame = simulate([POLICY] * 4, Rules(), hands=deals, seed=SEED, executor=pool, duplicate=True)
        chair0 = frame[frame["player"] == 0]
        base = {(r["hand"], r["rotation"]): r for r in chair0.to_dict("records")}
        futures = [
            pool.submit(chair_hand, SEED, d, c, rollouts, open_only) for d in range(first, deals) for c in range(4)
        ]
        for done, future in enumerate(as_completed(futures), 1):
            r = future.result()
            b = base[r["deal"], r["chair"]]
            extra = {
                "expert": int(b["points"]),
                "expert_out": bool(b["went_out"]),
                "elapsed": round(time.perf_counter() - start),
            }
            print(f"{done}/{len(futures)}", json.dumps(r | extra), file=sys.stderr, flush=True)
    rows = [f.result() for f in futures]
    print(report(rows, base, rollouts, workers, time.perf_counter() - start))


if __name__ == "__main__":
    main()
