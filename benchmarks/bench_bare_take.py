"""Does dealing a bare taker's hand honestly (R11) make the analysis choose better? Decisions, valued on the real deal.

A seat that took the pile bare with cards in hand held nothing at or below the top and no clear card: the view marks
it (``above``) and :class:`cut_tutor.analysis.Deals` deals that seat's hidden hand only from the ranks above. This
benchmark plays seeded 4-seat USA hands of Expert:Balanced self-play and, at every decision of the seat to move with
two or more legal moves while some other seat holds hidden cards under such a mark, runs the analysis seat's search
(:class:`cut_tutor.analysis.AnalysisSeat`: ROLLOUTS rollouts, the Expert's move kept unless the best beats it by
CONFIDENCE standard errors) twice on the same seed: on the view as it is, and on the view with the marks removed (every
hidden card dealt from the whole pool, as before the mark existed). Where the two choose differently, each choice is
played out on the **real** deal by the same Expert:Balanced seats, and its points for the seat are compared: the
real hidden cards judge, which the analysis never sees. Reported: the decisions seen, how often the choices differ,
and the mean points per decision the honest deal saves (negative is better) with a 95% interval, over the decisions
where they differ and over all decisions.

Run: ``.venv/bin/python benchmarks/bench_bare_take.py [HANDS] [ROLLOUTS] [WORKERS]`` (default 40, the seat's
ROLLOUTS, 2). ``bench_bare_take.py impossible [HANDS]`` (default 20) says instead how many of the deals drawn from
the whole pool at those decisions (10 each) give a marked seat a card its bare take ruled out: deals the table could
not be in.
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cut_tutor import Rules, State, view
from cut_tutor.analysis import AnalysisSeat, Deals
from cut_tutor.analysis.seat import ROLLOUTS
from cut_tutor.analysis.stats import mean_interval
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.engine.moves import Move
from cut_tutor.engine.view import sight
from cut_tutor.sim import hand_seed

SEED = 2027


def played_out(state: State, move: Move, me: int, seed: int) -> int:
    """The seat's points when ``move`` is played on the real state and Expert:Balanced seats finish the hand."""
    following = state.copy()
    following.apply(move)
    seats = [AIPlayer("Expert", "Balanced", seed) for _ in range(following.players)]
    while not following.over:
        following.apply(seats[following.turn].choose(Knowledge.from_sight(sight(following, following.turn))))
    return following.scores()[me]


def marked(state: State) -> list[int]:
    """The seats other than the one to move whose hidden hand cards are under a bare-take mark."""
    me = state.turn
    return [s for s in range(state.players) if s != me and state.above[s] and state.hand_count[s] > sum(state.known[s])]


def unmarked(seen: dict[str, Any]) -> dict[str, Any]:
    """The view with its bare-take marks removed: every hidden card dealt from the whole pool."""
    blind = copy.deepcopy(seen)
    for info in blind["seats"]:
        info["above"] = None
    return blind


def impossible(hands: int) -> None:
    """How many whole-pool deals at marked decisions break a mark (see the module's docstring)."""
    decisions = broken = 0
    for number in range(hands):
        state = State.deal(Rules(), hand_seed(SEED, number), dealer=number % 4)
        seats = [AIPlayer("Expert", "Balanced", number) for _ in range(state.players)]
        while not state.over:
            marks = marked(state)
            if marks and state.phase == "play":
                decisions += 1
                deals, rng = Deals(unmarked(view(state, state.turn))), random.Random(decisions)
                for _ in range(10):
                    deal = deals.sample(rng)
                    broken += any(
                        deal.hands[k][r] > deal.known[k][r]
                        for k in marks
                        for r in range(1, deal.rules.ncodes)
                        if not deal.rules.above_bare(r, state.above[k])
                    )
            state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    share = broken / max(1, 10 * decisions)
    print(f"{hands} hands: {decisions} decisions with a mark; of {10 * decisions} deals drawn from the whole pool,"
          f" {broken} ({share:.0%}) give a marked seat a card its bare take ruled out")  # fmt: skip


def hand(number: int, rollouts: int) -> list[float | None]:
    """Per decision under a mark: points the honest deal's choice saves on the real deal (None: the same choice)."""
    rules = Rules()
    state = State.deal(rules, hand_seed(SEED, number), dealer=number % rules.players)
    seats = [AIPlayer("Expert", "Balanced", number) for _ in range(rules.players)]
    found: list[float | None] = []
    while not state.over:
        me = state.turn
        if marked(state) and state.phase == "play" and len(state.legal_moves()) > 1:
            seen = view(state, me)
            honest = AnalysisSeat(rollouts, seed=number).choose_view(seen)
            naive = AnalysisSeat(rollouts, seed=number).choose_view(unmarked(seen))
            if honest == naive:
                found.append(None)
            else:
                found.append(float(played_out(state, honest, me, number) - played_out(state, naive, me, number)))
        state.apply(seats[me].choose(Knowledge.from_sight(sight(state, me))))
    return found


def compare(name: str, hand: Callable[[int, int], list[float | None]], decisions: str, change: str,
            argv: list[str], mode: str = "") -> None:  # fmt: skip
    """Run ``hand`` (per decision of one hand: the points the first choice saves on the real deal, or None when
    both choose alike) over ``HANDS`` hands on ``WORKERS`` processes and print the report: ``decisions`` says which
    decisions were seen, ``change`` what changes the choice, ``mode`` the benchmark's mode, if any. ``argv``:
    ``[HANDS] [ROLLOUTS] [WORKERS]``."""
    hands = int(argv[0]) if argv else 40
    rollouts = int(argv[1]) if len(argv) > 1 else ROLLOUTS
    workers = int(argv[2]) if len(argv) > 2 else 2
    began = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        per_hand: list[Any] = list(pool.map(hand, range(hands), [rollouts] * hands))
    rows = [d for found in per_hand for d in found]
    differ = [d for d in rows if d is not None]
    every = [d if d is not None else 0.0 for d in rows]
    print(f"# {name}: {hands} hands of Expert:Balanced self-play (seed {SEED}), {rollouts} rollouts a search,"
          f" {time.perf_counter() - began:.0f} s\n")  # fmt: skip
    print(f"- decisions {decisions}: {len(rows)}")
    print(f"- {change} changes the choice in {len(differ)} ({len(differ) / max(1, len(rows)):.1%})")
    if len(differ) > 1:
        mean, low, high = mean_interval(differ)
        print(f"- where it does, points for the seat on the real deal: {mean:+.2f} (95% {low:+.2f} to {high:+.2f})")
        mean, low, high = mean_interval(every)
        print(f"- over every such decision: {mean:+.2f} (95% {low:+.2f} to {high:+.2f});"
              f" median where it changes the choice {statistics.median(differ):+.1f}")  # fmt: skip
        # A hand's decisions share its real deal, so their results are not independent: the hand is the unit.
        mean, low, high = mean_interval([sum(d or 0.0 for d in found) for found in per_hand])
        print(f"- per hand, its decisions summed: {mean:+.2f} (95% over the {hands} hands {low:+.2f} to {high:+.2f})")
    print(f"\nRun: `.venv/bin/python benchmarks/{name}.py {mode}{hands} {rollouts} {workers}`")


def main() -> None:
    if sys.argv[1:2] == ["impossible"]:
        impossible(int(sys.argv[2]) if len(sys.argv) > 2 else 20)
        return
    marks = "with a bare-take mark on another seat's hidden cards"
    compare("bench_bare_take", hand, marks, "the honest deal", sys.argv[1:])


if __name__ == "__main__":
    main()
