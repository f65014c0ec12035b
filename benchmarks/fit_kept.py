"""Fit and check :data:`cut_tutor.analysis.deals.KEPT`: which cards a seat still hides, by how much of its hand
it has played.

Every decision (two or more legal moves) of seeded 4-seat USA Expert:Balanced self-play is looked at from the seat to
move: each other seat with hand cards nobody has seen is put in a bin by the share of its dealt hand it has played
(quarters), and the real count of each rank among those cards (which the analysis never sees) is set beside the count
the analysis seat's deals give it (:class:`cut_tutor.analysis.Deals` with its reader, as ``AnalysisSeat`` deals) and
the count an even deal of the unaccounted cards gives it.

``fit HANDS`` starts from even weights and, ROUNDS times, multiplies each bin's rank weights by the ratio of the real
counts to the dealt ones, then prints the table to paste into ``KEPT``: the deals, reading included, then give each
rank its real share on average. ``check HANDS`` reports the three counts per rank on other hands (seed
``bench_bare_take.SEED``), in all and in the last bin, where they differ most.

Run: ``.venv/bin/python benchmarks/fit_kept.py fit [HANDS]`` (default 30, seed 2031) or
``.venv/bin/python benchmarks/fit_kept.py check [HANDS]`` (default 20).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from bench_bare_take import SEED as CHECK_SEED
from bench_reading import READER

import cut_tutor.analysis.deals as deals_module
from cut_tutor import Rules, State, view
from cut_tutor.analysis import Deals
from cut_tutor.analysis.run import POLICY
from cut_tutor.analysis.search import players
from cut_tutor.coach import Knowledge
from cut_tutor.engine.view import sight
from cut_tutor.sim import hand_seed

FIT_SEED, BINS, ROUNDS, DEALS = 2031, 4, 3, 4
RANKS = list(deals_module.KEPT[0])
#: Per bin and rank: the real count, the dealt count, the even count; and per bin the number of (decision, seat).
Tally = tuple[list[dict[str, list[float]]], list[int]]


def decisions(seed: int, hands: int) -> Iterator[State]:
    """Every state of Expert:Balanced self-play where the seat to move has a choice."""
    rules = Rules()
    for number in range(hands):
        state = State.deal(rules, hand_seed(seed, number), dealer=number % rules.players)
        seats = players(POLICY, [number] * rules.players)
        while not state.over:
            if state.phase == "play" and len(state.legal_moves()) > 1:
                yield state
            state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))


def tally(seed: int, hands: int) -> Tally:
    """Count the real, dealt and even hidden cards per bin and rank (see the module's docstring)."""
    counts = [{name: [0.0, 0.0, 0.0] for name in RANKS} for _ in range(BINS)]
    seen = [0] * BINS
    rng = random.Random(seed)
    for state in decisions(seed, hands):
        me, size = state.turn, state.rules.hand_size
        deals = Deals(view(state, me), READER)
        dealt = [deals.sample(rng) for _ in range(DEALS)]
        pool = {name: deals.pool.count(name) for name in RANKS}
        for k in range(state.players):
            hidden = state.hand_count[k] - sum(state.known[k])
            if k == me or hidden <= 0:
                continue
            b = min(BINS - 1, max(0, int((1 - hidden / size) * BINS)))
            seen[b] += 1
            for rank, name in enumerate(RANKS, start=1):
                row = counts[b][name]
                row[0] += state.hands[k][rank] - state.known[k][rank]
                row[1] += sum(d.hands[k][rank] - d.known[k][rank] for d in dealt) / DEALS
                row[2] += hidden * pool[name] / len(deals.pool)
    return counts, seen


def fit(hands: int) -> None:
    table = [dict.fromkeys(RANKS, 1.0) for _ in range(BINS)]
    for round_ in range(ROUNDS):
        deals_module.KEPT = tuple(table)
        counts, seen = tally(FIT_SEED, hands)
        error = sum(abs(row[0] - row[1]) for b in counts for row in b.values()) / max(1, sum(seen))
        print(f"round {round_}: mean absolute miscount per seat {error:.3f} cards", file=sys.stderr)
        for b in range(BINS):
            for name, (real, dealt, _) in counts[b].items():
                if real > 0 and dealt > 0:
                    table[b][name] *= real / dealt
    print(f"{len(table)} rows for KEPT, each the weights of {' '.join(RANKS)}:")
    for row in table:
        print("        (" + ", ".join(f"{row[name]:.2f}" for name in RANKS) + "),")


def check(hands: int) -> None:
    counts, seen = tally(CHECK_SEED, hands)
    print(f"# fit_kept check: {hands} hands of Expert:Balanced self-play (seed {CHECK_SEED})\n")
    for title, bins in (("every bin", range(BINS)), ("the last bin: three quarters of the hand played", [BINS - 1])):
        n = sum(seen[b] for b in bins)
        print(f"Hidden cards per seat, {title} ({n} seat-decisions): real, as dealt, as dealt evenly\n")
        for name in RANKS:
            real, dealt, even = (sum(counts[b][name][j] for b in bins) / max(1, n) for j in range(3))
            print(f"    {name:>2}  {real:5.2f}  {dealt:5.2f}  {even:5.2f}")
        print()
    print(f"Run: `.venv/bin/python benchmarks/fit_kept.py check {hands}`")


def main() -> None:
    mode, hands = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if mode == "fit":
        fit(hands or 30)
    else:
        check(hands or 20)


if __name__ == "__main__":
    main()
