"""Hand review: its time, and the loss distribution the grade thresholds are chosen from.

Target (issue 14): a review of a hand of about 100 decisions with the default budget ready within 10 s on one
worker. Hands are 4-seat USA self-play, the reviewed seat Average:Balanced (a learner's level) and the others
Expert:Balanced; the hand nearest to 100 moves in all is timed, then every reviewed decision's loss is gathered
over HANDS hands. Reported: wall time and decisions of the timed review, and the quantiles of the losses whose
interval excludes 0 (the moves a grade may fall on).
Run: ``.venv/bin/python benchmarks/bench_review.py [HANDS]`` (default 8).
"""

from __future__ import annotations

import statistics
import sys
import time

from cut_tutor import Rules, State
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.engine import record_of
from cut_tutor.engine.view import sight
from cut_tutor.review import THRESHOLDS, review


def hand(seed: int) -> State:
    state = State.deal(Rules(), seed=seed)
    seats = [AIPlayer("Average" if k == 0 else "Expert", "Balanced", seed=seed + k) for k in range(4)]
    while not state.over:
        state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    return state


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    states = [hand(seed) for seed in range(40)]
    timed = min(states, key=lambda s: abs(len(s.moves) - 100))
    start = time.perf_counter()
    result = review(record_of(timed), 0)
    wall = time.perf_counter() - start
    seat_moves = sum(1 for d in result.decisions)
    print(f"timed hand: {len(timed.moves)} moves, {seat_moves} analysed decisions of seat 0,"
          f" {sum(d.rollouts for d in result.decisions)} rollouts: {wall:.2f} s on one worker")  # fmt: skip
    losses, every = [], 0
    for state in states[:count]:
        for d in review(record_of(state), 0).decisions:
            every += 1
            if d.loss_low > 0:
                losses.append(d.loss)
    print(f"{count} hands, {every} decisions, {len(losses)} losses beyond noise ({len(losses) / every:.0%})")
    if len(losses) >= 4:
        cuts = statistics.quantiles(losses, n=10)
        print("loss deciles (points): " + ", ".join(f"{q:.1f}" for q in cuts))
    for name, threshold in THRESHOLDS:
        share = sum(loss >= threshold for loss in losses) / max(1, every)
        print(f"  {name} (≥ {threshold:g} points): {share:.0%} of decisions")


if __name__ == "__main__":
    main()
