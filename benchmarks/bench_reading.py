"""Does reading the turns on the pile make the analysis seat choose better? Decisions, valued on the real deal.

:class:`cut_tutor.analysis.Deals` given a reader (``analyse(..., infer=True)``) deals only hands with which an
Expert:Balanced seat would have played the turns still on the pile. This benchmark plays seeded 4-seat USA hands of
Expert:Balanced self-play and, at every decision of the seat to move with two or more legal moves while there are
turns of other seats to read, runs the analysis seat's search twice on the same seed, reading the pile and not
(:class:`cut_tutor.analysis.AnalysisSeat`, ``infer`` True and False). Where the two choose differently, each choice
is played out on the **real** deal by the same Expert:Balanced seats, as ``bench_bare_take.py`` does: the real
hidden cards judge, which the analysis never sees. Reported: the decisions seen, how often the choices differ, and
the mean points per decision reading saves (negative is better) with a 95% interval.

Run: ``.venv/bin/python benchmarks/bench_reading.py [HANDS] [ROLLOUTS] [WORKERS]`` (default 40, the seat's
ROLLOUTS, 2). ``bench_reading.py deals [HANDS]`` (default 20) says instead how many of the deals drawn without
reading (10 at each such decision) give a seat a hand it would not have played its turn from, and what a deal costs
with and without reading.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from bench_bare_take import SEED, compare, played_out

from cut_tutor import Rules, State, view
from cut_tutor.analysis import AnalysisSeat, Deals
from cut_tutor.analysis.run import POLICY
from cut_tutor.analysis.search import players
from cut_tutor.coach import Knowledge
from cut_tutor.engine.view import sight
from cut_tutor.sim import hand_seed

#: The reader: the policy the other seats play by here.
READER = players(POLICY, [0])[0]


def self_play(number: int) -> Any:
    """Hand ``number`` of Expert:Balanced self-play: each state before a move, with the move about to be played."""
    rules = Rules()
    state = State.deal(rules, hand_seed(SEED, number), dealer=number % rules.players)
    seats = players(POLICY, [number] * rules.players)
    while not state.over:
        move = seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn)))
        yield state
        state.apply(move)


def readable(state: State) -> Deals | None:
    """The reading deals of the seat to move, if it has a choice and there are turns of other seats to read."""
    if state.phase != "play" or len(state.legal_moves()) < 2:
        return None
    deals = Deals(view(state, state.turn), READER)
    return deals if deals.reads else None


def deals(hands: int) -> None:
    """How many uniform deals a reading rules out, and what a deal costs (see the module's docstring)."""
    decisions = disagree = 0
    uniform = reading = 0.0
    for number in range(hands):
        for state in self_play(number):
            if (read := readable(state)) is None:
                continue
            decisions += 1
            plain, rng = Deals(view(state, state.turn)), random.Random(decisions)
            began = time.perf_counter()
            drawn = [plain.sample(rng) for _ in range(10)]
            uniform += time.perf_counter() - began
            disagree += sum(not read.agrees(deal) for deal in drawn)
            began = time.perf_counter()
            for _ in range(10):
                read.sample(rng)
            reading += time.perf_counter() - began
    share, n = disagree / max(1, 10 * decisions), max(1, 10 * decisions)
    cost = f"{1000 * uniform / n:.2f} ms without reading, {1000 * reading / n:.2f} ms with"
    print(f"{hands} hands: {decisions} decisions with turns of other seats on the pile; of {10 * decisions} deals"
          f" drawn without reading, {disagree} ({share:.0%}) give a seat a hand it would not have played its turn"
          f" from; a deal takes {cost}")  # fmt: skip


def hand(number: int, rollouts: int) -> list[float | None]:
    """Per decision with turns to read: points reading's choice saves on the real deal (None: the same choice)."""
    found: list[float | None] = []
    for state in self_play(number):
        if readable(state) is None:
            continue
        me, seen = state.turn, view(state, state.turn)
        read = AnalysisSeat(rollouts, seed=number, infer=True).choose_view(seen)
        plain = AnalysisSeat(rollouts, seed=number, infer=False).choose_view(seen)
        if read == plain:
            found.append(None)
        else:
            found.append(float(played_out(state, read, me, number) - played_out(state, plain, me, number)))
    return found


def main() -> None:
    if sys.argv[1:2] == ["deals"]:
        deals(int(sys.argv[2]) if len(sys.argv) > 2 else 20)
        return
    compare("bench_reading", hand, "with turns of other seats on the pile", "reading", sys.argv[1:])


if __name__ == "__main__":
    main()
