"""Hand review: its time, and the loss distribution the grade thresholds are chosen from.

Target: the review of a 100-move 4-seat hand with the default budget ready within 10 s of the hand's end
on 2 cores. Hands are 4-seat USA self-play, the reviewed seat Average:Balanced (a learner's level) and the others
Expert:Balanced; the hand nearest to 100 moves in all is reviewed on one worker (in-process) and on two worker
processes through the analysis' executor protocol, and the two reviews must be identical. Then every reviewed
decision's loss is gathered over HANDS hands (0: skip). Reported: wall and CPU time of each timed review, its
decisions and rollouts, and the quantiles of the losses whose interval excludes 0 (the moves a grade may fall on).
Also the figures that tell whether the losses can be trusted: the median and 90th percentile of the loss intervals'
half-widths (decisions whose move was not the analysis' best), the mean loss of the decisions where the seat played
the rollout policy's own move (its true loss is near 0, so a mean well above 0 is bias), and |luck| per hand.
Run: ``.venv/bin/python benchmarks/bench_review.py [HANDS]`` (default 8).
"""

from __future__ import annotations

import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from cut_tutor import Rules, State
from cut_tutor.analysis.evaluations import forget
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.engine import record_of, replay, view
from cut_tutor.engine.view import sight
from cut_tutor.review import THRESHOLDS, review


def hand(seed: int) -> State:
    state = State.deal(Rules(), seed=seed)
    seats = [AIPlayer("Average" if k == 0 else "Expert", "Balanced", seed=seed + k) for k in range(4)]
    while not state.over:
        state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    return state


def expert_moves(record: dict[str, object], plies: list[int]) -> list[bool]:
    """Per ply: did the seat play what an Expert:Balanced seat (the rollout policy, no noise) would have?"""
    expert = AIPlayer("Expert", "Balanced")
    moves = record["moves"]
    assert isinstance(moves, list)
    return [
        str(expert.choose(Knowledge.from_view(view(replay(record, upto=ply), 0)))) == str(moves[ply]) for ply in plies
    ]


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
        forget()  # evaluated afresh on the workers, not read from the first review's
        start = time.perf_counter()
        twin = review(record, 0, executor=pool)
        wall = time.perf_counter() - start
    print(f"  2 worker processes: {wall:.2f} s wall; same review: {twin.rows() == result.rows()}")
    if count == 0:
        return
    losses, every, halves, policy_losses, lucks = [], 0, [], [], []
    for state in states[:count]:
        record = record_of(state)
        reviewed = review(record, 0)
        lucks.append(reviewed.summary.luck)
        same = expert_moves(record, [d.ply for d in reviewed.decisions])
        for d, expert in zip(reviewed.decisions, same, strict=True):
            every += 1
            if d.loss_low > 0:
                losses.append(d.loss)
            if d.move != d.best:
                halves.append((d.loss_high - d.loss_low) / 2)
            if expert:
                policy_losses.append(d.loss)
    print(f"{count} hands, {every} decisions, {len(losses)} losses beyond noise ({len(losses) / every:.0%})")
    cut = statistics.quantiles(halves, n=10)
    print(f"loss half-widths ({len(halves)} decisions not the best): median {statistics.median(halves):.1f},"
          f" 90th percentile {cut[-1]:.1f} points")  # fmt: skip
    print(f"mean loss where the seat played the policy's move ({len(policy_losses)} decisions):"
          f" {statistics.fmean(policy_losses):.2f} points")  # fmt: skip
    print(f"|luck| per hand: mean {statistics.fmean(map(abs, lucks)):.1f}, max {max(map(abs, lucks)):.1f};"
          f" " + ", ".join(f"{x:.1f}" for x in lucks))  # fmt: skip
    if len(losses) >= 4:
        cuts = statistics.quantiles(losses, n=10)
        print("loss deciles (points): " + ", ".join(f"{q:.1f}" for q in cuts))
    for name, threshold in THRESHOLDS:
        share = sum(loss >= threshold for loss in losses) / max(1, every)
        print(f"  {name} (≥ {threshold:g} points): {share:.0%} of decisions")


if __name__ == "__main__":
    main()
