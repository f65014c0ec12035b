"""Hand review: its time, and the loss distribution the grade thresholds are chosen from.

Target (issue 14): the review of a 100-move 4-seat hand with the default budget ready within 10 s of the hand's end
on 2 cores. Hands are 4-seat USA self-play, the reviewed seat Average:Balanced (a learner's level) and the others
Expert:Balanced; the hand nearest to 100 moves in all is reviewed on one worker (in-process) and on two worker
processes through the analysis' executor protocol, and the two reviews must be identical. Then every reviewed
decision's loss is gathered over HANDS hands (0: skip). Reported: wall and CPU time of each timed review, its
decisions and rollouts, and the quantiles of the losses whose interval excludes 0 (the moves a grade may fall on).
Run: ``.venv/bin/python benchmarks/bench_review.py [HANDS]`` (default 8).
"""

from __future__ import annotations

import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

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
    record = record_of(timed)
    start, cpu = time.perf_counter(), time.process_time()
    result = review(record, 0)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"timed hand: {len(timed.moves)} moves, {len(result.decisions)} analysed decisions of seat 0,"
          f" {sum(d.rollouts for d in result.decisions)} rollouts")  # fmt: skip
    print(f"  1 worker (in-process): {wall:.2f} s wall, {cpu:.2f} s CPU")
    with ProcessPoolExecutor(2) as pool:
        [f.result() for f in [pool.submit(time.sleep, 0.2) for _ in range(2)]]  # both workers up before the clock
        start = time.perf_counter()
        twin = review(record, 0, executor=pool)
        wall = time.perf_counter() - start
    print(f"  2 worker processes: {wall:.2f} s wall; same review: {twin.rows() == result.rows()}")
    if count == 0:
        return
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
