"""How the coach words its reasons (C1, C5): which reasons it gives, and how often, over many seeded positions.

A reason that fits every position tells a learner nothing; one that fits few may be missing where it belongs.
Seeded hands under the USA rules, the optional rules, Canada and Clear 4 are played by AI seats of every Level
and Style; at a share of the turns with a choice, all three coaches advise the seat to move (at Average,
Experienced or Expert in turn). Each advice's reason is reduced to its wording (cards, counts, points, odds and
seats replaced by ``<CARD>``, ``<N>``, ``<PTS>``, ``<P>``, ``<SEAT>``) and counted.
``tests/test_coach.py::test_no_reason_contradicts_its_numbers`` checks that the words agree with the numbers; this
report shows what the learner reads.

Run: ``.venv/bin/python benchmarks/report_reasons.py [HANDS] [SHARE] [--out NAME]`` (default 200 hands, 0.4 of the
turns; writes ``benchmarks/results/NAME.md``, ``reasons`` by default).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cut_tutor import Rules, State, view
from cut_tutor.coach import COACH_STYLE, LEVELS, STYLES, AIPlayer, advise

#: Each wording's variable parts, replaced in this order so that a card is not read as a count.
SLOTS = [
    (r"sets up your next turns: .*", "sets up your next turns: <PLAN>"),
    (r"\d+%", "<P>"),
    (r"\b\d+ pts?\b", "<PTS>"),
    (r"\bseat \d\b|\b(?:Ann|Ben|Cleo|Dev|Eve|Fay|Gus)\b", "<SEAT>"),
    (r"\b(?:one|two|three|four|five|six|seven|eight|\d+) (high )?(cards?)\b", r"<N> \1\2"),
    (r"\b(?:pile|piles) \d\b", "pile <N>"),
    (r"\b(?:A|J|Q|K|Joker|JOKER|[2-9]|10|1)s?\b", "<CARD>"),
]


def rules_of(hand: int) -> tuple[str, Rules]:
    """The rule set a hand is dealt under: half USA, then the optional rules, Canada and Clear 4."""
    rng = random.Random(1000 + hand)
    kind = hand % 10
    if kind <= 4:
        return "USA", Rules(players=rng.choice([4, 4, 3, 2, 5]))
    if kind <= 7:
        options = {
            "piles_face_down": rng.random() < 0.5,
            "pile_card_flip": rng.random() < 0.6,
            "risk_play": rng.random() < 0.6,
            "bust_penalty": rng.choice([0, 0, 25, 50]),
        }
        return "optional rules", Rules(players=rng.choice([4, 3, 4, 6]), **options)
    if kind == 8:
        return "Canada", Rules.from_preset("Canada", players=rng.choice([4, 3]))
    return "Clear 4", Rules.from_preset("Clear 4", players=rng.choice([3, 4, 2, 5]))


def wording(text: str) -> str:
    """An advice's reason with its cards, counts, points, odds and seats replaced by slots."""
    reason = text.split(" — ", 1)[1] if " — " in text else text
    for pattern, slot in SLOTS:
        reason = re.sub(pattern, slot, reason)
    return reason


def reasons(hands: int, share: float) -> tuple[Counter[str], Counter[str]]:
    """Every advice's wording over ``hands`` seeded hands, counted; and by rule set."""
    counts: Counter[str] = Counter()
    games: Counter[str] = Counter()
    levels = list(LEVELS)
    for hand in range(hands):
        game, rules = rules_of(hand)
        rng = random.Random(hand)
        seats = [
            AIPlayer(rng.choice(levels), rng.choice(list(STYLES)), seed=hand * 10 + k) for k in range(rules.players)
        ]
        state = State.deal(rules, seed=hand)
        while not state.over and state.turns < 350:
            seen = view(state, state.turn)
            if len(seen["legal"]) > 1 and rng.random() < share:
                level = levels[state.turns % len(levels)]
                for coach in COACH_STYLE:
                    counts[wording(advise(seen, coach, level).text)] += 1
                    games[game] += 1
            state.play(seats[state.turn].choose_view(seen))
    return counts, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=200)
    parser.add_argument("share", nargs="?", type=float, default=0.4)
    parser.add_argument("--out", default="reasons")
    args = parser.parse_args()
    start = time.perf_counter()
    counts, games = reasons(args.hands, args.share)
    total = sum(counts.values())
    took = time.perf_counter() - start
    lines = [
        f"# The coach's reasons: {total:,} advices over {args.hands} seeded hands ({took:.0f} s)",
        "",
        "By rule set: " + ", ".join(f"{game} {n:,}" for game, n in games.most_common()) + ".",
        f"{len(counts)} wordings; the 30 most used:",
        "",
        "| advices | share | reason |",
        "| ---: | ---: | --- |",
        *[f"| {n:,} | {100 * n / total:.1f}% | {reason} |" for reason, n in counts.most_common(30)],
        "",
        f"Run: `.venv/bin/python benchmarks/report_reasons.py {args.hands} {args.share}`",
        "",
    ]
    out = Path(__file__).parent / "results" / f"{args.out}.md"
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
