"""Truncated rollouts: would stopping each rollout after T decisions, and valuing the table there, know the gaps
to the best sooner, and at what bias? (The analysis plays every rollout to the end of the hand; the 2-second
target is out of reach on full rollouts, ``bench_analysis.py``.)

On the first ``POSITIONS`` kept positions (``positions/analysis.jsonl``), every legal move is played out on the
analysis' own samples 0 … ``SAMPLES`` − 1 (seed 0, the same deals and seats as ``analyse`` with seed 0), and the table
is looked at after each horizon of T decisions. The value of the table there is a least-squares line through the
hand's final points on a few plain features of the analysed seat (its card points, its cards left, the fewest
cards any other seat has left, the pile's points); a hand already over is worth its final points. The line is fitted
on the even positions and tested on the odd ones, and the other way round, so no position is valued by a line fitted
on itself.

Reported per horizon, as medians over the moves that are not the best (by the full rollouts' mean) and not
identical to it: the standard deviation across samples of the paired gap by full rollouts, by the truncated value,
and of their difference (the residual that an unbiased two-level estimate, cheap truncated rollouts plus full ones
for the correction, would still have to average away); the mean decisions a truncated rollout plays against a full
one (its cost); the rollouts a move would need for ±2 points (95%) each way; and the bias, the truncated gap minus
the full gap: its root mean square after its own sampling noise is taken out, and the share of moves whose bias is
more than two standard errors from zero.

Run: ``.venv/bin/python benchmarks/bench_truncation.py [POSITIONS] [SAMPLES] [WORKERS]`` (default 24, 300, 2).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from cut_tutor import State, view
from cut_tutor.analysis.deals import Deals
from cut_tutor.analysis.run import POLICY
from cut_tutor.analysis.search import play, players, sample
from cut_tutor.analysis.stats import Z95
from cut_tutor.engine.moves import Move

HORIZONS = (8, 16, 24, 32, 48)
FIXED = Path(__file__).parent / "positions" / "analysis.jsonl"
#: The features of the table a horizon's value is a line through: seat's card points, its cards left, the fewest
#: cards another seat has left, the pile's points, and a constant.
FEATURES = 5


def features(state: State, me: int) -> list[float]:
    others = min(state.cards_left(s) for s in range(state.players) if s != me)
    return [state.hand_points(me), state.cards_left(me), others, state.pile_points(), 1.0]


def position(line: str, samples: int) -> dict[str, np.ndarray]:
    """One position's rollouts: final points ``final[move, sample]``; per horizon, the table's features
    ``x[move, sample, horizon, feature]`` (NaN once the hand is over) and the decisions played by then
    ``plies[move, sample, horizon]`` (the last: to the end of the hand)."""
    state = State.from_position(json.loads(line))
    seen = view(state, state.turn)
    deals, moves = Deals(seen), [Move.parse(text) for text in seen["legal"]]
    shape = (len(moves), samples)
    final, plies = np.zeros(shape), np.zeros((*shape, len(HORIZONS) + 1))
    x = np.full((*shape, len(HORIZONS), FEATURES), np.nan)
    for i in range(samples):
        start, seeds = sample(deals, 0, i)
        for k, move in enumerate(moves):
            table = start.copy()
            table.apply(move)
            seats, done = players(POLICY, seeds), 0
            for h, horizon in enumerate(HORIZONS):
                done += play(table, seats, horizon - done)
                plies[k, i, h] = done
                if not table.over:
                    x[k, i, h] = features(table, deals.seat)
            plies[k, i, -1] = done + play(table, seats)
            final[k, i] = table.scores()[deals.seat]
    return {"final": final, "x": x, "plies": plies, "legal": np.array(seen["legal"])}


def values(fit: list[dict[str, np.ndarray]], test: dict[str, np.ndarray], h: int) -> np.ndarray:
    """``test``'s truncated values at horizon ``h``, by the least-squares line through ``fit``'s rollouts."""
    xs = np.concatenate([p["x"][:, :, h].reshape(-1, FEATURES) for p in fit])
    ys = np.concatenate([p["final"].reshape(-1) for p in fit])
    live = ~np.isnan(xs[:, 0])
    coef, *_ = np.linalg.lstsq(xs[live], ys[live], rcond=None)
    x = test["x"][:, :, h]
    return np.where(np.isnan(x[..., 0]), test["final"], np.nan_to_num(x) @ coef)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    lines = FIXED.read_text(encoding="utf-8").splitlines()[:count]
    began = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        found = list(pool.map(position, lines, [samples] * len(lines)))
    rollouts = sum(p["final"].size for p in found)
    print(f"# bench_truncation: {len(found)} positions, {samples} samples of every move, {rollouts} full rollouts"
          f" in {time.perf_counter() - began:.0f} s on {workers} workers\n")  # fmt: skip
    print(
        "| horizon | gap sd, full | gap sd, truncated | residual sd | decisions, truncated / full |"
        " rollouts for ±2, full | truncated | bias, RMS | moves biased (> 2 se) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for h, horizon in enumerate(HORIZONS):
        full_sd, cut_sd, residual, biases, noise = [], [], [], [], []
        for j, test in enumerate(found):
            fit = [p for i, p in enumerate(found) if i % 2 != j % 2]
            cut, final = values(fit, test, h), test["final"]
            best = int(final.mean(axis=1).argmin())
            for k in range(len(final)):
                gap, cut_gap = final[k] - final[best], cut[k] - cut[best]
                if k == best or not gap.any():
                    continue
                full_sd.append(gap.std(ddof=1))
                cut_sd.append(cut_gap.std(ddof=1))
                residual.append((gap - cut_gap).std(ddof=1))
                biases.append(cut_gap.mean() - gap.mean())
                noise.append((gap - cut_gap).std(ddof=1) / np.sqrt(samples))
        b, se = np.array(biases), np.array(noise)
        rms = float(np.sqrt(max(0.0, float(np.mean(b**2 - se**2)))))
        cost = statistics.fmean(float(p["plies"][..., h].mean() / p["plies"][..., -1].mean()) for p in found)
        need = [round((Z95 * statistics.median(sd) / 2.0) ** 2) for sd in (full_sd, cut_sd)]
        print(f"| {horizon} | {statistics.median(full_sd):.1f} | {statistics.median(cut_sd):.1f} |"
              f" {statistics.median(residual):.1f} | {cost:.2f} | {need[0]} | {need[1]} | {rms:.1f} |"
              f" {np.mean(np.abs(b) > 2 * se):.0%} of {len(b)} |")  # fmt: skip


if __name__ == "__main__":
    main()
