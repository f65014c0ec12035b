"""The coach checked against the analysis: how often an AI seat's move is the Monte-Carlo best, and what it loses.

Seeded self-play of four seats of one policy (``Expert:Balanced`` by default), USA rules; in hand ``h`` seat
``h % 4`` is studied. Each of its non-forced decisions is played out by the analysis
(:func:`cut_tutor.analysis.search.play_out`: every legal move on the same ``SAMPLES`` deals consistent with the
seat's view, Expert:Balanced seats to the end of the hand). The even samples choose the best move, the odd samples
measure the seat's loss against it, so the winner's curse neither flatters nor blames it: the loss is the seat's
move minus the chosen best on the odd samples (0 when they are the same move), and a *clear mistake* is a loss whose
95% interval excludes 0. Reported: the share of decisions where the move is the best or too close to call, mean and
90th-percentile loss, the share of clear mistakes, where they happen (early or late, holding a clear card, cards
left) and the worst positions (position JSON, both moves).

With ``--read-out N`` the studied seat reads out open endgames: where it knows every other hand
(:func:`cut_tutor.analysis.seat.hands_open`) it plays as an :class:`~cut_tutor.analysis.AnalysisSeat` of N rollouts
over the policy would, elsewhere the policy's move; the report adds what the reading cost.

Writes ``benchmarks/results/regret-<POLICY>[-<TAG>].md`` and, for tuning, ``regret-<POLICY>[-<TAG>].jsonl``
(per decision: the view, each move's mean points on all samples, and the verdict: the chosen best, the loss and
whether it is a clear mistake).
Run: ``.venv/bin/python benchmarks/report_regret.py [--hands 20] [--samples 64] [--seed 2026]
[--policy Expert:Balanced] [--read-out N] [--workers 1] [--tag TAG]``; ``--pool A.jsonl,B.jsonl`` reports recorded
runs (in ``benchmarks/results``) together, without playing.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from cut_tutor import Rules, State, view
from cut_tutor.analysis import POLICY, AnalysisSeat
from cut_tutor.analysis.search import play_out, players
from cut_tutor.analysis.seat import hands_open
from cut_tutor.analysis.stats import mean_interval, paired
from cut_tutor.coach import Knowledge
from cut_tutor.engine.view import sight
from cut_tutor.sim import hand_seed

#: Decisions before this turn of the hand count as early.
EARLY = 20
#: What the JSON lines keep of each record.
KEPT = ("hand", "turns", "move", "means", "view", "best", "loss", "verdict")
#: Samples per task sent to the executor.
CHUNK = 4


def measure(v: dict[str, Any], samples: int, seed: int, executor: Executor | None) -> list[list[int]]:
    """Every legal move of the view played out on samples 0 … ``samples``-1: points per move, per sample."""
    moves = list(v["legal"])
    chunks = [list(range(i, min(samples, i + CHUNK))) for i in range(0, samples, CHUNK)]
    if executor is None:
        parts = [play_out(v, POLICY, seed, chunk, moves) for chunk in chunks]
    else:
        parts = [f.result() for f in [executor.submit(play_out, v, POLICY, seed, chunk, moves) for chunk in chunks]]
    return [[p for part in parts for p, _ in part[j]] for j in range(len(moves))]


def judge(points: list[list[int]], chosen: int) -> dict[str, Any]:
    """Choose the best on the even samples, measure the chosen move's loss against it on the odd ones."""
    even = [statistics.fmean(row[0::2]) for row in points]
    best = min(range(len(points)), key=even.__getitem__)
    if best == chosen:
        return {"best": best, "loss": 0.0, "low": 0.0, "high": 0.0, "verdict": "best"}
    loss, low, high = mean_interval(paired(points[chosen][1::2], points[best][1::2]))
    return {"best": best, "loss": loss, "low": low, "high": high, "verdict": "worse" if low > 0 else "close"}


def study(args: argparse.Namespace, executor: Executor | None, reader: AnalysisSeat | None) -> list[dict[str, Any]]:
    """Self-play ``args.hands`` hands; one record per non-forced decision of the studied seat, whose moves are
    ``reader``'s when there is one."""
    rules = Rules()
    records: list[dict[str, Any]] = []
    for hand in range(args.hands):
        start = time.perf_counter()
        state = State.deal(rules, hand_seed(args.seed, hand), dealer=hand % rules.players)
        seats = players(args.policy, [hand * 10 + s for s in range(rules.players)])
        me = hand % rules.players
        while not state.over:
            seat = state.turn
            knowledge = Knowledge.from_sight(sight(state, seat))
            move = reader.choose(state) if reader and seat == me else seats[seat].choose(knowledge)
            if seat == me and len(knowledge.legal) > 1:
                v = view(state, seat)
                points = measure(v, args.samples, args.seed * 1000 + len(records), executor)
                chosen = list(v["legal"]).index(str(move))
                records.append(
                    {
                        "hand": hand,
                        "turns": state.turns,
                        "cards_left": knowledge.cards_left,
                        "clear_held": knowledge.clears_held > 0,
                        "move": str(move),
                        "means": [round(statistics.fmean(row), 3) for row in points],
                        "view": v,
                        "position": state.to_position(),
                        **judge(points, chosen),
                    }
                )
            state.apply(move)
        print(f"hand {hand}: {len(records)} decisions so far, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return records


def _share(rows: list[dict[str, Any]], key: str, value: str) -> str:
    return f"{sum(r[key] == value for r in rows) / len(rows):.1%}" if rows else "-"


def headline(records: list[dict[str, Any]]) -> list[str]:
    """The verdicts' shares, the clear mistakes and the loss per decision: what the targets are set on."""
    losses = sorted(r["loss"] for r in records)
    p90 = losses[min(len(losses) - 1, math.ceil(0.9 * len(losses)) - 1)]
    mistakes = sum(r["verdict"] == "worse" for r in records)
    mean, low, high = mean_interval(losses)
    return [
        f"- best: {_share(records, 'verdict', 'best')}; too close to call: {_share(records, 'verdict', 'close')};"
        f" best or too close: {1 - mistakes / len(records):.1%}",
        f"- clear mistakes (loss interval excludes 0): {mistakes} ({mistakes / len(records):.1%})",
        f"- loss per decision: mean {mean:.2f} points (95% interval {low:.2f} to {high:.2f}), 90th percentile"
        f" {p90:.2f}",
    ]


def report(args: argparse.Namespace, records: list[dict[str, Any]], seconds: float, reader: AnalysisSeat | None) -> str:
    """The Markdown summary of the records."""
    mistakes = [r for r in records if r["verdict"] == "worse"]
    reading = ""
    if reader:
        cost = reader.seconds / max(reader.analysed, 1)
        reading = (f" It read out open endgames with {reader.max_rollouts} rollouts: {reader.analysed} decisions,"
                   f" {reader.rollouts} rollouts, {cost:.3f} s a decision.")  # fmt: skip
    lines = [
        f"# {args.policy} against the analysis ({args.hands} hands, seed {args.seed}, USA rules)\n",
        f"{len(records)} non-forced decisions of the studied seat, every legal move played out on {args.samples}"
        f" shared deals by {POLICY} seats (even samples choose the best, odd samples measure the loss);"
        f" {seconds:.0f} s.{reading}\n",
        *headline(records),
        "\nWhere the clear mistakes are (share of the decisions in each group that are clear mistakes):\n",
    ]
    groups = {
        f"early (turn < {EARLY})": lambda r: r["turns"] < EARLY,
        f"late (turn ≥ {EARLY})": lambda r: r["turns"] >= EARLY,
        "holding a clear card": lambda r: r["clear_held"],
        "no clear card": lambda r: not r["clear_held"],
        "13+ cards left": lambda r: r["cards_left"] >= 13,
        "6–12 cards left": lambda r: 6 <= r["cards_left"] <= 12,
        "1–5 cards left": lambda r: r["cards_left"] <= 5,
        "the seat took the pile": lambda r: r["move"].startswith("take"),
        "the best was a take": lambda r: r["view"]["legal"][r["best"]].startswith("take"),
        "every other hand known": lambda r: hands_open(r["view"]),
        "some hand cards unseen": lambda r: not hands_open(r["view"]),
    }
    for name, test in groups.items():
        rows = [r for r in records if test(r)]
        share = _share(rows, "verdict", "worse")
        lines.append(f"- {name}: {len(rows)} decisions, {share} clear mistakes, {sum(map(test, mistakes))} of the"
                     f" {len(mistakes)} mistakes")  # fmt: skip
    lines.append("\n## The worst positions\n")
    for r in sorted(records, key=lambda r: -r["loss"])[: args.worst]:
        best = r["view"]["legal"][r["best"]]
        lines.append(f"- hand {r['hand']}, turn {r['turns']}: played `{r['move']}`, best `{best}`; loss"
                     f" {r['loss']:.1f} [{r['low']:.1f}, {r['high']:.1f}]")  # fmt: skip
        lines.append(f"  ```json\n  {json.dumps(r['position'])}\n  ```")
    lines.append(f"\nRun: `.venv/bin/python benchmarks/report_regret.py --hands {args.hands} --samples {args.samples}"
                 f" --seed {args.seed} --policy {args.policy}{f' --read-out {args.read_out}' if reader else ''}"
                 f"{' --tag ' + args.tag if args.tag else ''}`")  # fmt: skip
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--samples", type=int, default=64, help="rollouts per legal move (half choose, half measure)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--policy", default="Expert:Balanced", help="the studied seats, Level:Style")
    parser.add_argument("--read-out", type=int, default=0, help="rollouts a decision in open endgames (0: none)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--worst", type=int, default=5, help="how many of the worst positions to list")
    parser.add_argument("--tag", default="", help="added to the output files' names, to keep another run's")
    parser.add_argument("--pool", default="", help="report these recorded runs' decisions together, no play")
    args = parser.parse_args()
    out = Path(__file__).parent / "results"
    if args.pool:
        records = [json.loads(line) for name in args.pool.split(",") for line in (out / name).open(encoding="utf-8")]
        print(f"{len(records)} decisions of {args.pool}:", *headline(records), sep="\n")
        return
    out.mkdir(exist_ok=True)
    start = time.perf_counter()
    reader = AnalysisSeat(args.read_out, seed=args.seed, policy=args.policy, open_only=True) if args.read_out else None
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            records = study(args, pool, reader)
    else:
        records = study(args, None, reader)
    text = report(args, records, time.perf_counter() - start, reader)
    name = f"regret-{args.policy.replace(':', '-')}{'-' + args.tag if args.tag else ''}"
    (out / f"{name}.md").write_text(text, encoding="utf-8")
    with (out / f"{name}.jsonl").open("w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps({k: r[k] for k in KEPT}) + "\n")
    print(text)


if __name__ == "__main__":
    main()
