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
with and without reading. ``bench_reading.py hidden [HANDS]`` (default 20) sets, at the same decisions, the ranks
each other seat really hides (which the analysis never sees) beside what reading's deals and even deals give it.
``bench_reading.py more [HANDS] [ROLLOUTS] [WORKERS]`` checks the judge itself on the same decisions: the seat with
three times the rollouts against the seat, neither reading. More rollouts estimate the same objective more closely,
so a judge that finds them worse is measuring something other than that objective.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from typing import Any

from bench_bare_take import SEED, compare, played_out

from cut_tutor import Rules, State, view
from cut_tutor.analysis import AnalysisSeat, Deals
from cut_tutor.analysis.run import POLICY
from cut_tutor.analysis.search import players
from cut_tutor.coach import Knowledge
from cut_tutor.engine.cards import ACE, CODES, JOKER, card_name
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


def hidden(hands: int) -> None:
    """Which ranks the other seats really hide, against what reading's deals and even deals give them."""
    seats, counts = 0, [[0.0] * 3 for _ in range(JOKER + 1)]
    for number in range(hands):
        for state in self_play(number):
            if (read := readable(state)) is None:
                continue
            rng, me = random.Random(seats), state.turn
            drawn = [read.sample(rng) for _ in range(10)]
            pool = Counter(CODES[name] for name in read.pool)
            for k in range(state.players):
                unseen = state.hand_count[k] - sum(state.known[k])
                if k == me or unseen <= 0:
                    continue
                seats += 1
                for rank in range(ACE, JOKER + 1):
                    row = counts[rank]
                    row[0] += state.hands[k][rank] - state.known[k][rank]
                    row[1] += sum(deal.hands[k][rank] - deal.known[k][rank] for deal in drawn) / len(drawn)
                    row[2] += unseen * pool[rank] / len(read.pool)
    print(f"{hands} hands: at the decisions with turns of other seats on the pile, each other seat's hand cards nobody"
          f" has seen ({seats} seats), per rank on average: really, in reading's deals, in even deals")  # fmt: skip
    print("\n".join(f"    {card_name(r):>2}  {a / seats:.2f}  {b / seats:.2f}  {c / seats:.2f}"
                    for r, (a, b, c) in enumerate(counts) if r >= ACE))  # fmt: skip


def judged(number: int, first: AnalysisSeat, second: AnalysisSeat) -> list[float | None]:
    """Per decision with turns to read: points ``first``'s choice saves on the real deal against ``second``'s (None:
    the same choice)."""
    found: list[float | None] = []
    for state in self_play(number):
        if readable(state) is None:
            continue
        me, seen = state.turn, view(state, state.turn)
        one, other = first.choose_view(seen), second.choose_view(seen)
        if one == other:
            found.append(None)
        else:
            found.append(float(played_out(state, one, me, number) - played_out(state, other, me, number)))
    return found


def hand(number: int, rollouts: int) -> list[float | None]:
    """Reading's choices against those of the same seat without reading."""
    return judged(
        number, AnalysisSeat(rollouts, seed=number, infer=True), AnalysisSeat(rollouts, seed=number, infer=False)
    )


def more(number: int, rollouts: int) -> list[float | None]:
    """The judge checked: three times the rollouts against the seat's, neither reading."""
    return judged(number, AnalysisSeat(3 * rollouts, seed=number, infer=False),
                  AnalysisSeat(rollouts, seed=number, infer=False))  # fmt: skip


def main() -> None:
    counts = {"deals": deals, "hidden": hidden}
    if sys.argv[1:2] and sys.argv[1] in counts:
        counts[sys.argv[1]](int(sys.argv[2]) if len(sys.argv) > 2 else 20)
        return
    if sys.argv[1:2] == ["more"]:
        compare("bench_reading", more, "with turns of other seats on the pile", "three times the rollouts",
                sys.argv[2:], "more ")  # fmt: skip
        return
    compare("bench_reading", hand, "with turns of other seats on the pile", "reading", sys.argv[1:])


if __name__ == "__main__":
    main()
