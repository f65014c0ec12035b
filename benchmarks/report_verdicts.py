"""How often each coach's advice is the move the shared evaluation calls best, too close to call, or worse.

The coach panel, the tutor, the review and the drills all judge a position by its one evaluation
(:func:`cut_tutor.analysis.evaluation`): seeded by the view, its rounds stopped by the verdict rule (every other move
*worse* or *too close* to call, the learner's move priced to ±2 points) or the review's budget. This report asks
that evaluation about each coach's recommendation (Daryl, Madonna and Marty at the learner's default Level), as if
the learner had pressed *Coach: Play*: each coach's move is the focus of a fresh evaluation of the position, exactly
what the review of that decision would show, with its cost (the gap to the best, 0 for the best itself).

Positions: every non-forced turn, at a seeded share, of hands between AI seats (random Levels and Styles, seeded),
CUT's default rules with 4 seats, and every fifth hand Clear 4 with 4 seats. The positions are evaluated on every
core, one position per task; each evaluation is serial and seeded, so the figures do not depend on the cores.

Run: ``.venv/bin/python benchmarks/report_verdicts.py [POSITIONS] [--rollouts N ...] [--workers W] [--out NAME]``
(default 300 positions, the review's 160 rollouts, 2 workers; each budget given is one report; writes
``benchmarks/results/NAME.md``, ``verdicts`` by default).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cut_tutor import Rules, State, view
from cut_tutor.analysis import evaluation
from cut_tutor.analysis.evaluations import forget
from cut_tutor.coach import COACH_STYLE, LEVELS, STYLES, AIPlayer, advise
from cut_tutor.coach.styles import DEFAULT_LEVEL
from cut_tutor.review.hand import ROLLOUTS

#: The share of non-forced turns kept as positions, so that they spread over many hands.
SHARE = 0.2
VERDICTS = ("best", "close", "worse")


def positions(count: int, seed: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    """``count`` non-forced positions as the seat to move sees them, with their game: seeded hands between AI seats,
    CUT with 4 seats, every fifth hand Clear 4 with 4 seats."""
    found, hand = 0, 0
    levels, styles = list(LEVELS), list(STYLES)
    while found < count:
        game = "Clear 4" if hand % 5 == 4 else "CUT"
        rules = Rules.from_preset("Clear 4", players=4) if game == "Clear 4" else Rules(players=4)
        rng = random.Random(f"verdicts:{seed}:{hand}")
        seats = [AIPlayer(rng.choice(levels), rng.choice(styles), seed=hand * 10 + k) for k in range(4)]
        state = State.deal(rules, seed=seed * 100_000 + hand)
        while not state.over and state.turns < 350 and found < count:
            seen = view(state, state.turn)
            if len(seen["legal"]) > 1 and rng.random() < SHARE:
                found += 1
                yield game, dict(seen)
            state.play(seats[state.turn].choose_view(seen))
        hand += 1


def judged(task: tuple[str, dict[str, Any], int, str]) -> list[tuple[str, str, str, float, int]]:
    """Each coach's verdict and cost on one position: per coach (game, coach, verdict, cost, rollouts), each distinct
    move the focus of a fresh evaluation, as the review of a learner who played it makes it."""
    game, seen, rollouts, level = task
    picks = {coach: str(advise(seen, coach, level).move) for coach in COACH_STYLE}
    figures = {}
    for move in dict.fromkeys(picks.values()):
        forget()  # as a learner's own process: no other move's price in this evaluation
        found = evaluation(seen, move, rollouts=rollouts)
        price = found.price(move)
        figures[move] = (price.verdict, 0.0 if price.verdict == "best" else price.gap, found.rollouts)
    return [(game, coach, *figures[move]) for coach, move in picks.items()]


def table(rows: list[tuple[str, str, str, float, int]], keep: str | None) -> list[str]:
    """Each coach's share of verdicts and mean cost over the rows of game ``keep`` (every game: ``None``)."""
    lines = ["| coach | positions | best | too close | worse | mean cost | mean cost when worse |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    verdicts: dict[str, Counter[str]] = defaultdict(Counter)
    costs: dict[str, list[float]] = defaultdict(list)
    worse: dict[str, list[float]] = defaultdict(list)
    for game, coach, verdict, cost, _ in rows:
        if keep is None or game == keep:
            verdicts[coach][verdict] += 1
            costs[coach].append(cost)
            if verdict == "worse":
                worse[coach].append(cost)
    for coach in COACH_STYLE:
        n = sum(verdicts[coach].values())
        shares = " | ".join(f"{100 * verdicts[coach][v] / n:.1f}%" for v in VERDICTS)
        when = f"{statistics.fmean(worse[coach]):.1f}" if worse[coach] else "—"
        lines.append(
            f"| {coach} ({COACH_STYLE[coach]}) | {n} | {shares} | {statistics.fmean(costs[coach]):.2f} | {when} |"
        )
    return [*lines, ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="?", type=int, default=300)
    parser.add_argument("--rollouts", type=int, nargs="+", default=[ROLLOUTS],
                        help="each evaluation's budget, one report each (default: the review's)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="verdicts")
    args = parser.parse_args()
    found = list(positions(args.positions, args.seed))
    games = Counter(game for game, _ in found)
    agree = sum(len({str(advise(seen, c, DEFAULT_LEVEL).move) for c in COACH_STYLE}) == 1 for _, seen in found)
    lines = [
        f"# Each coach's advice, judged by the shared evaluation: {len(found)} positions",
        "",
        f"Coaches at {DEFAULT_LEVEL} (the learner's default Level), each move the focus of a fresh evaluation of the",
        "position stopped by the verdict rule (every other move worse or too close to call, the coach's move priced to",
        "±2 points) or its budget: at the review's budget, what the hand review shows a learner who followed that",
        "coach. Positions: "
        + ", ".join(f"{game} {n}" for game, n in games.most_common())
        + " (4 seats, seeded hands between AI seats, non-forced turns); the three coaches recommend the same move in"
        f" {100 * agree / len(found):.0f}% of them. The cost, in points (lower is better), is the gap to the best on"
        " the deals both were played out on: 0 for the best; a move too close to call counts its measured gap, which"
        " the review shows but never grades.",
        "",
    ]
    for budget in args.rollouts:
        start = time.perf_counter()
        tasks = [(game, seen, budget, DEFAULT_LEVEL) for game, seen in found]
        with ProcessPoolExecutor(args.workers) as pool:
            rows = [row for each in pool.map(judged, tasks, chunksize=4) for row in each]
        took = time.perf_counter() - start
        spent = [r for *_, r in rows]
        lines += [f"## At most {budget} rollouts per evaluation ({took:.0f} s on {args.workers} workers)", "",
                  f"Median rollouts per evaluation {statistics.median(spent):.0f}; at the budget in "
                  f"{100 * sum(r >= budget for r in spent) / len(spent):.0f}% of them.", ""]  # fmt: skip
        for title, keep in (("All positions", None), *((f"{game} only", game) for game in games)):
            lines += [f"### {title}", "", *table(rows, keep)]
    lines += [
        f"Run: `.venv/bin/python benchmarks/report_verdicts.py {args.positions} --rollouts"
        f" {' '.join(map(str, args.rollouts))} --workers {args.workers} --seed {args.seed}`",
        "",
    ]
    out = Path(__file__).parent / "results" / f"{args.out}.md"
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
