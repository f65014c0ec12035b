"""Evidence the coach is good (C4, C8): the Level ladder, the Style profiles and the stalemate rate.

Writes ``benchmarks/results/ladder.md``. Duplicate deals: every rotation of the seats plays each shuffle,
so a paired difference per deal compares two players with the luck of the cards removed.
Run: ``.venv/bin/python benchmarks/report_ladder.py [SHUFFLES] [WORKERS]`` (default 5000 shuffles, 2 workers:
20,000 hands per table).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

from cut_tutor import Rules
from cut_tutor.sim import simulate, summary

LADDER = ["Expert:Balanced", "Experienced:Balanced", "Average:Balanced", "Random"]
STYLES = ["Expert:Rock", "Expert:Balanced", "Expert:Gambler", "Experienced:Balanced"]


def paired(frame: pd.DataFrame, a: int, b: int) -> tuple[float, float]:
    """Mean points of player ``a`` minus player ``b`` on the same hands, with a 95% half-width."""
    wide = frame.pivot_table(index=["hand", "rotation"], columns="player", values="points")
    diff = wide[a] - wide[b]
    return float(diff.mean()), float(1.96 * diff.std() / len(diff) ** 0.5)


def profile(frame: pd.DataFrame) -> pd.DataFrame:
    """Per style: go-out rate, mean points on hands lost, spread of hand scores, busts, blind plays."""
    rows = []
    for (player, level, style), group in frame.groupby(["player", "level", "style"]):
        lost = group[~group["went_out"]]
        rows.append(
            {
                "player": player,
                "seat": f"{level}:{style}",
                "mean points": group["points"].mean(),
                "go-out rate": group["went_out"].mean(),
                "points on hands lost": lost["points"].mean(),
                "sd of hand scores": group["points"].std(),
                "busts": group["busts"].mean(),
                "blind plays": group["blind_plays"].mean(),
                "clears": group["clears"].mean(),
            }
        )
    return pd.DataFrame(rows)


def _table(frame: pd.DataFrame) -> str:
    return "```\n" + frame.to_string(index=False, float_format=lambda x: f"{x:.3f}") + "\n```\n"


def main() -> None:
    shuffles = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    lines = [f"# Coach evidence ({shuffles} shuffles × 4 rotations = {shuffles * 4} hands per table, USA rules)\n"]
    with ProcessPoolExecutor(workers) as pool:
        start = time.perf_counter()
        ladder = simulate(LADDER, Rules(), hands=shuffles, seed=2026, executor=pool, duplicate=True, chunk=50)
        lines.append(f"## The Level ladder ({time.perf_counter() - start:.0f} s)\n")
        lines.append(_table(summary(ladder)))
        lines.append("Paired differences in mean points per hand (lower is better for the first):\n")
        for a, b in [(0, 1), (1, 2), (2, 3), (0, 3)]:
            mean, half = paired(ladder, a, b)
            verdict = "significant" if abs(mean) > half else "not significant"
            lines.append(f"- {LADDER[a]} − {LADDER[b]}: {mean:+.2f} ± {half:.2f} ({verdict})")
        hands = ladder.groupby(["hand", "rotation"])["stalemate"].first()
        lines.append(f"\nStalemates: {int(hands.sum())} of {len(hands)} hands ({hands.mean():.3%}).\n")
        start = time.perf_counter()
        styles = simulate(STYLES, Rules(), hands=shuffles, seed=7, executor=pool, duplicate=True, chunk=50)
        lines.append(f"## Style profiles ({time.perf_counter() - start:.0f} s)\n")
        lines.append(_table(profile(styles)))
        hands = styles.groupby(["hand", "rotation"])["stalemate"].first()
        lines.append(f"Stalemates: {int(hands.sum())} of {len(hands)} hands ({hands.mean():.3%}).\n")
        # Under the default rules a blind card is only ever played when nothing else is left, so the styles'
        # blind-play principles rarely get a choice; Risk Play and Pile Card Flip give them one.
        start = time.perf_counter()
        rules = Rules(risk_play=True, pile_card_flip=True)
        risky = simulate(STYLES, rules, hands=shuffles, seed=7, executor=pool, duplicate=True, chunk=50)
        lines.append(f"## Style profiles with Risk Play and Pile Card Flip ({time.perf_counter() - start:.0f} s)\n")
        lines.append(_table(profile(risky)))
        hands = risky.groupby(["hand", "rotation"])["stalemate"].first()
        lines.append(f"Stalemates: {int(hands.sum())} of {len(hands)} hands ({hands.mean():.3%}).\n")
    text = "\n".join(lines)
    (out / "ladder.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
