"""The compiled engine against the Python engine on random-policy playouts: do they agree, and how much faster is it?

Agreement: playouts from fresh deals under USA, Canada, Clear 4 and random rules (every option toggled, 2–8 seats)
until at least ``--decisions`` (default 1,000,000) decisions were played on both paths; every playout's scores,
winner and decision count must be equal, and the generator must end in the same state.

Speed: random-policy decisions per CPU-second on each path (one 4-seat USA deal played out again and again, and
the same for Clear 4), median of ``--runs`` runs; the ratio compares the two measured in this process.

    python benchmarks/bench_native_engine.py
    python benchmarks/bench_native_engine.py --decisions 200000 --runs 3   # quicker
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cut_tutor.engine import Rules, State
from cut_tutor.engine import packed as P

Playouts = Callable[[State, int, random.Random], list[P.Playout]]


def random_rules(rng: random.Random) -> Rules:
    """CUT with every setting that changes play drawn at random, or Clear 4 one time in four (R1–R22)."""
    if rng.random() < 0.25:
        return Rules.from_preset("Clear 4", players=rng.randint(2, 6))
    players, dealt = rng.randint(2, 8), rng.choice((19, 20))
    need = -(-players * dealt // 54)
    return Rules(
        players=players, cards_dealt=dealt, decks=rng.choice((None, rng.randint(need, 12))),
        clear_rank=rng.choice((None, *range(1, 14))), clear_value=rng.choice((25, 50)),
        card_scoring=rng.choice(("rank", "flat5")), bust_penalty=rng.choice((0, 25, 50)),
        four_plus_clears=rng.random() < 0.5, piles_face_down=rng.random() < 0.5,
        pile_card_flip=rng.random() < 0.5, risk_play=rng.random() < 0.5,
    )  # fmt: skip


def agreement(decisions: int) -> tuple[int, int, int]:
    """Playouts on both paths until ``decisions`` were played; returns (decisions, playouts, disagreements)."""
    rng = random.Random(2026)
    presets = [Rules(), Rules.from_preset("Canada"), Rules.from_preset("Clear 4")]
    played = playouts = wrong = 0
    deal = 0
    while played < decisions:
        rules = presets[deal % 4] if deal % 4 < 3 else random_rules(rng)
        state = State.deal(rules, rng.getrandbits(32), rng.randrange(rules.players))
        seed = rng.getrandbits(32)
        native_rng, python_rng = random.Random(seed), random.Random(seed)
        native = P.random_playouts(state, 5, native_rng)
        python = P.reference_playouts(state, 5, python_rng)
        wrong += sum(a != b for a, b in zip(native, python, strict=True))
        wrong += native_rng.getstate() != python_rng.getstate()
        played += sum(p.decisions for p in python)
        playouts += len(python)
        deal += 1
    return played, playouts, wrong


def rate(playouts: Playouts, state: State, count: int) -> float:
    """Random-policy decisions per CPU-second over ``count`` playouts of ``state``."""
    rng = random.Random(7)
    start = time.process_time()
    results = playouts(state, count, rng)
    spent = time.process_time() - start
    return sum(p.decisions for p in results) / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=1_000_000, help="decisions compared on both paths")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per path; medians are reported")
    args = parser.parse_args()
    if P.NATIVE is None:
        print("skipped: the compiled engine (cut_tutor._native) is not built here, or CUT_TUTOR_PURE=1")
        return

    start = time.perf_counter()
    played, playouts, wrong = agreement(args.decisions)
    verdict = "all agree" if wrong == 0 else f"{wrong} DISAGREE"
    print(f"agreement: {played:,} decisions in {playouts:,} playouts on both paths: {verdict}"
          f" ({time.perf_counter() - start:.0f} s)")  # fmt: skip

    print(f"\n{'random-policy playouts':<24}{'Python dec/CPU-s':>18}{'core dec/CPU-s':>18}{'ratio':>9}")
    for name, rules in (("USA, 4 seats", Rules()), ("Clear 4, 4 seats", Rules.from_preset("Clear 4"))):
        state = State.deal(rules, seed=11)
        python = statistics.median(rate(P.reference_playouts, state, 20) for _ in range(args.runs))
        core = statistics.median(rate(P.random_playouts, state, 2000) for _ in range(args.runs))
        print(f"{name:<24}{python:>18,.0f}{core:>18,.0f}{core / python:>8.0f}×")
    if wrong:
        sys.exit(1)


if __name__ == "__main__":
    main()
