"""Tune the move-value engine's weights (the Style and Level tables) against play, and measure the result.

The baseline is the Expert:Balanced seat as it was before this tuning, frozen here as :data:`BEFORE_STYLE` and
:data:`BEFORE_LEVEL` and registered for this process only under the name ``Before``, so both can sit at one table.
Two measures:

- ``duplicate``: the seat under test in chair 0 against three ``Before`` seats, every rotation of each shuffle
  (duplicate deals), paired with ``Before`` in the same chair on the same deals: mean points per hand of the
  seat minus ``Before``, with a 95% interval (lower is better).
- ``regret``: on the decisions recorded by ``report_regret.py`` (``benchmarks/results/regret-*.jsonl``), the mean
  points the seat's choice loses against the best move's Monte-Carlo value there.

``fit`` asks whether agreeing with the analysis move by move wins points: it fits a multiplier per component of the
move value (go out, shed, assets, control, risk, line) to the recorded decisions' Monte-Carlo values on the even
hands (the expected loss of a softmax choice, by coordinate search), reports the loss of the seat's choice on the odd
hands before and after, then seats the fitted Expert in chair 0 against three of today's Expert:Balanced seats and
pairs it with today's Expert in the same chair on the same duplicate deals.
``probe`` judges a change as the regret report does, one decision at a time, without its recorded noise: on the
recorded decisions where the changed Expert:Balanced would play otherwise than today's, both moves are played out on
fresh shared deals with today's seats after, and it reports how many changed and what they gain or lose. Besides the
weights it probes three rules the worst positions suggest (``lead_low``, ``lay_low``: a lower lead or lay worth
that much per rank; ``block``: a lay worth that much when the next seat, its cards all known, cannot follow it).
``search`` changes one weight of Balanced or Expert at a time by a few factors and keeps a change when the
duplicate measure improves; ``try`` measures given changes (``hinder=0.25``, a Level or Style weight) against
today's tables on the same duplicate deals, paired (``against=today``: with three of today's seats at the table).
Run: ``.venv/bin/python benchmarks/tune_coach.py compare [DEALS] [SEED]`` (today's tables against Before),
``fit DEALS SEED``, ``search [DEALS] [SEED] [ROUNDS]`` (prints the weights found; copy them into styles.py),
``try DEALS SEED KNOB=VALUE ... [against=today]``, ``retune DEALS SEED`` (today's Expert against the Expert
before the last retune, :data:`PREVIOUS_LEVEL`), ``screen`` (each weight changed alone, on the recorded
decisions only), ``probe SAMPLES KNOB=VALUE ...`` or ``probe SAMPLES all [KNOB=VALUE ...]`` (every weight as
``screen`` changes it, and each rule at a few strengths, from today's tables or these changes to them).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import statistics
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from cut_tutor import Rules
from cut_tutor.analysis import POLICY
from cut_tutor.analysis.search import play_out
from cut_tutor.analysis.stats import mean_interval, paired
from cut_tutor.coach import LEVELS, STYLES, Knowledge, Level, Style
from cut_tutor.coach.advice import choose
from cut_tutor.coach.scoring import COMPONENTS, Candidate, Numbers
from cut_tutor.coach.values import GAMES, evaluate_knowledge
from cut_tutor.engine.cards import CODES
from cut_tutor.engine.moves import ADD, PLAY, Move
from cut_tutor.sim import simulate

#: Expert:Balanced before tuning (the tables as they stood when the regret report was first run).
BEFORE_STYLE = Style("Before", "None, deliberately", 1.0, 1.0, 1.0, 1.0, 3.0, 1.2, 1.0, 1.0, 2)
BEFORE_LEVEL = Level("Before", 2, 0.0, True, 0.0, 1.0, 0)
STYLES["Before"], LEVELS["Before"] = BEFORE_STYLE, BEFORE_LEVEL
#: The Expert Level before the retune against the analysis' findings (clears held, lead high, hinder at one card).
PREVIOUS_LEVEL = Level("Previous", 2, 0.0, True, 0.0, 1.0, 0)
LEVELS["Previous"] = PREVIOUS_LEVEL
#: The regret runs of today's Expert:Balanced whose decisions ``probe`` replays.
PROBED = tuple(f"regret-Expert-Balanced{tag}.jsonl" for tag in ("", "-seed2027", "-seed2028"))
#: The seed of the deals ``probe`` plays out: none of the regret runs used it.
PROBE_SEED = 9100
#: The rules ``probe all`` tries, each at these strengths.
PROBED_RULES = {"lead_low": (0.5, 1.0, 2.0), "lay_low": (0.5, 1.0, 2.0), "block": (5.0, 10.0, 20.0)}

#: The float weights the search may change.
STYLE_KNOBS = [f.name for f in dataclasses.fields(Style) if f.type in ("float", float)]
LEVEL_KNOBS = ["odds_margin", "hinder", *(f.name for f in dataclasses.fields(Level) if f.name.endswith("_weight"))]
#: The whole-number Level fields ``try`` may change as well.
COUNT_KNOBS = ["hinder_at"]
FACTORS = (0.0, 0.5, 1.5, 2.0)


def duplicate(deals: int, seed: int) -> tuple[float, float, float, float]:
    """Expert:Balanced minus ``Before`` in chair 0 on the same duplicate deals: mean, 95% half-width, both means."""
    a = _chair(deals, seed)
    b = _before(deals, seed)
    mean, half = _paired(a, b)
    return mean, half, float(a.mean()), float(b.mean())


@functools.cache
def _before(deals: int, seed: int) -> pd.Series:
    """Chair 0's points with Before in it: the same for every trial of a search."""
    base = simulate(["Before:Before"] * 4, Rules(), hands=deals, seed=seed, duplicate=True)
    return base[base["player"] == 0].set_index(["hand", "rotation"])["points"]


def losses(records: list[dict[str, Any]], style: Style, level: Level) -> list[float]:
    """Per recorded decision, the points the seat's choice loses against the best Monte-Carlo value there."""
    return [r["means"][r["view"]["legal"].index(_choice(r["view"], style, level))] - min(r["means"]) for r in records]


def regret(records: list[dict[str, Any]], style: Style, level: Level) -> float:
    """Mean points the seat's choice loses against the best Monte-Carlo value on the recorded decisions."""
    return statistics.fmean(losses(records, style, level))


def records(names: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Every decision recorded by ``report_regret.py`` in the named runs, or in all of them (the Before and
    Expert:Balanced seats)."""
    results = Path(__file__).parent / "results"
    paths = [results / name for name in names] or sorted(results.glob("regret-*.jsonl"))
    return [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines()]


def search(deals: int, seed: int, passes: int) -> None:
    """Coordinate search over the Balanced style and Expert level weights on the duplicate measure."""
    style, level = STYLES["Balanced"], LEVELS["Expert"]
    best, half, _, _ = duplicate(deals, seed)
    print(f"start: {best:+.2f} ± {half:.2f}", flush=True)
    for _ in range(passes):
        for knob, value, trial_style, trial_level in variants(style, level):
            STYLES["Balanced"], LEVELS["Expert"] = trial_style, trial_level
            mean, half, _, _ = duplicate(deals, seed)
            if mean < best - 0.2:
                best = mean
                style, level = STYLES["Balanced"], LEVELS["Expert"]
                print(f"{knob} = {value}: {mean:+.2f} ± {half:.2f}", flush=True)
            STYLES["Balanced"], LEVELS["Expert"] = style, level
    print(f"found: {best:+.2f}\n{style}\n{level}")


def variants(style: Style, level: Level) -> Iterator[tuple[str, float, Style, Level]]:
    """Each weight of ``style`` and ``level`` times each factor (a weight of 0: the factor times 2), alone:
    the knob, its value, and the style and level with it."""
    for table, knobs in (("style", STYLE_KNOBS), ("level", LEVEL_KNOBS)):
        for knob in knobs:
            current = getattr(style if table == "style" else level, knob)
            for factor in FACTORS:
                value = round(current * factor, 3) if current else round(factor * 2.0, 3)
                change: dict[str, Any] = {knob: value}
                if table == "style":
                    yield knob, value, dataclasses.replace(style, **change), level
                else:
                    yield knob, value, style, dataclasses.replace(level, **change)


def screen() -> None:
    """Each Balanced and Expert weight changed alone by each factor: how much more (or, negative, less) its choices
    lose than today's on the recorded decisions, paired, with a 95% interval. Minutes, not hours: a first look before
    ``try`` plays a change out."""
    found = records()
    style, level = STYLES["Balanced"], LEVELS["Expert"]
    today = losses(found, style, level)
    print(f"today: {statistics.fmean(today):.3f} points a decision lost on {len(found)} recorded decisions")
    for knob, value, changed_style, changed_level in variants(style, level):
        mean, low, high = mean_interval(paired(losses(found, changed_style, changed_level), today))
        print(f"{knob} = {value}: {mean:+.3f} ({low:+.3f} to {high:+.3f})", flush=True)


def trial(deals: int, seed: int, changes: list[str]) -> None:
    """Expert:Balanced with ``changes`` (``knob=value``, a Style or Level field) minus today's Expert:Balanced, in
    chair 0 against three Before seats on the same duplicate deals: mean points per hand with a 95% interval.

    With ``against=today`` among the changes the other three seats are today's Expert:Balanced instead, kept apart
    from the changes (as ``Today``).
    """
    others = "Before:Before"
    if "against=today" in changes:
        changes = [c for c in changes if c != "against=today"]
        STYLES["Today"], LEVELS["Today"] = STYLES["Balanced"], LEVELS["Expert"]
        others = "Today:Today"
    today = _chair(deals, seed, others)
    STYLES["Balanced"], LEVELS["Expert"] = _changed(changes)
    mean, half = _paired(_chair(deals, seed, others), today)
    print(f"{' '.join(changes)}: {mean:+.2f} ± {half:.2f} points per hand against today's Expert:Balanced, with"
          f" three {others} seats ({deals} deals × 4, seed {seed})")  # fmt: skip


def _changed(changes: list[str]) -> tuple[Style, Level]:
    """Today's Balanced style and Expert Level with ``changes`` (``knob=value``, a Style or Level field)."""
    style, level = STYLES["Balanced"], LEVELS["Expert"]
    for change in changes:
        knob, _, value = change.partition("=")
        if knob in STYLE_KNOBS:
            style = dataclasses.replace(style, **{knob: float(value)})
        elif knob in LEVEL_KNOBS or knob in COUNT_KNOBS:
            level = dataclasses.replace(level, **{knob: int(value) if knob in COUNT_KNOBS else float(value)})
        else:
            raise SystemExit(f"{knob!r} is not one of {', '.join(STYLE_KNOBS + LEVEL_KNOBS + COUNT_KNOBS)}")
    return style, level


def probe(samples: int, specs: list[str]) -> None:
    """Each change judged one decision at a time (see the module's docstring): the decisions it changes, how many of
    those it plays clearly better or worse (95%), and its gain over all the recorded decisions (negative: fewer
    points), with a 95% interval."""
    found = records(PROBED)
    rules = [(rule, float(w)) for rule, _, w in (spec.partition("=") for spec in specs) if rule in PROBED_RULES]
    knobs = [spec for spec in specs if spec.partition("=")[0] not in PROBED_RULES and spec != "all"]
    style, level = _changed(knobs) if "all" in specs else (STYLES["Balanced"], LEVELS["Expert"])
    today = [_choice(r["view"], style, level) for r in found]
    if "all" in specs:
        changes = [(f"{knob} = {value}", s, lv, None) for knob, value, s, lv in variants(style, level)]
        changes += [(f"{rule} = {w}", style, level, (rule, w)) for rule, ws in PROBED_RULES.items() for w in ws]
    else:
        changes = [(" ".join(specs), *_changed(knobs), rules[0] if rules else None)]
    played: dict[tuple[int, str], list[int]] = {}
    print(f"{len(found)} recorded decisions, {samples} fresh deals a move (seed {PROBE_SEED})", flush=True)
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        for label, changed_style, changed_level, rule in changes:
            moved = [(i, today[i], move) for i, r in enumerate(found)
                     if (move := _choice(r["view"], changed_style, changed_level, rule)) != today[i]]  # fmt: skip
            _play_out(pool, found, {(i, m) for i, t, move in moved for m in (t, move)} - played.keys(), samples, played)
            rows = [mean_interval(paired(played[i, move], played[i, t])) for i, t, move in moved]
            gain = sum(mean for mean, _, _ in rows) / len(found)
            half = sum(((high - low) / 2) ** 2 for _, low, high in rows) ** 0.5 / len(found)
            print(f"{label}: {len(moved)} decisions change, {sum(high < 0 for _, _, high in rows)} clearly better,"
                  f" {sum(low > 0 for _, low, _ in rows)} clearly worse; {gain:+.3f} ± {half:.3f} points a decision",
                  flush=True)  # fmt: skip


def _choice(view: dict[str, Any], style: Style, level: Level, rule: tuple[str, float] | None = None) -> str:
    """The move Expert:Balanced with these tables, and a probed rule's value added, plays in this view."""
    known = Knowledge.from_view(view)
    cands = evaluate_knowledge(known, style, level)
    if rule is not None:
        name, weight = rule
        follow = _next_cards(view)
        for cand in cands:
            move = cand.move
            if move.kind not in (PLAY, ADD) or not move.size or cand.goes_out or cand.clears:
                continue
            if name == "block":
                blocked = follow is not None and not any(c <= move.rank or known.is_clear[c] for c in follow)
                cand.total += weight if blocked and known.next_left > level.hinder_at else 0.0
            elif (name == "lay_low") == bool(known.pile):
                cand.total -= weight * move.rank
        cands.sort(key=lambda c: -c.total)
    return str(choose(cands, level)[0].move)


def _next_cards(view: dict[str, Any]) -> list[int] | None:
    """The cards the next seat plays from, when the seat knows them all: its hand (every card seen picked up), or
    with its hand empty its Board cards (R7); None when some are unseen or it plays blind."""
    after = view["seats"][(view["seat"] + 1) % view["players"]]
    if after["hand_count"]:
        return [CODES[c] for c in after["known"]] if len(after["known"]) == after["hand_count"] else None
    return [CODES[stack[-1]] for stack in after["stacks"] if stack and stack[-1] is not None] or None


def _play_out(
    pool: ProcessPoolExecutor, found: list[dict[str, Any]], wanted: set[tuple[int, str]], samples: int,
    played: dict[tuple[int, str], list[int]],
) -> None:  # fmt: skip
    """Play out each wanted (decision, move) on the probe's deals into ``played``: the points, per sample."""
    jobs = {
        (i, move, start): pool.submit(
            play_out, found[i]["view"], POLICY, PROBE_SEED, range(start, min(samples, start + 8)), [move]
        )
        for i, move in sorted(wanted)
        for start in range(0, samples, 8)
    }
    for (i, move, _), job in jobs.items():
        played.setdefault((i, move), []).extend(points for points, _ in job.result()[0])


def retune(deals: int, seed: int) -> None:
    """Today's Expert:Balanced minus the Expert:Balanced before the retune (``Previous``) in chair 0 on the same
    duplicate deals, against three Previous seats and against three Before seats: mean points per hand, 95%."""
    for others in ("Previous:Balanced", "Before:Before"):
        mean, half = _paired(_chair(deals, seed, others), _chair(deals, seed, others, "Previous:Balanced"))
        print(f"against three {others} seats: {mean:+.2f} ± {half:.2f} points per hand, today's Expert:Balanced"
              f" minus Previous ({deals} deals × 4, seed {seed})", flush=True)  # fmt: skip


def fit(deals: int, seed: int) -> None:
    """Component multipliers fitted to the analysis' values on the even hands, checked on the odd ones and at the
    table against today's Expert:Balanced (see the module's docstring)."""
    path = Path(__file__).parent / "results" / "regret-Expert-Balanced.jsonl"
    decisions = []  # per recorded decision: its hand, the components of every move, each move's loss in points
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        cands = evaluate_knowledge(Knowledge.from_view(row["view"]), STYLES["Balanced"], LEVELS["Expert"])
        means = np.array([row["means"][row["view"]["legal"].index(str(c.move))] for c in cands])
        decisions.append((row["hand"], np.array([[c.components[k] for k in COMPONENTS] for c in cands]),
                          means - means.min()))  # fmt: skip
    train = [(x, y) for hand, x, y in decisions if hand % 2 == 0]
    test = [(x, y) for hand, x, y in decisions if hand % 2 == 1]

    def soft(w: np.ndarray) -> float:
        total = 0.0
        for x, y in train:
            v = x @ w
            p = np.exp(v - v.max())
            total += float(p @ y / p.sum())
        return total / len(train)

    def hard(w: np.ndarray, rows: list[tuple[np.ndarray, np.ndarray]]) -> float:
        return float(np.mean([y[int(np.argmax(x @ w))] for x, y in rows]))

    w, best = np.ones(len(COMPONENTS)), soft(np.ones(len(COMPONENTS)))
    for _ in range(3):
        for k in range(len(COMPONENTS)):
            for factor in (0.25, 0.5, 0.75, 1.5, 2.0, 4.0):
                trial = w.copy()
                trial[k] *= factor
                loss = soft(trial)
                if loss < best - 1e-4:
                    w, best = trial, loss
    ones = np.ones(len(COMPONENTS))
    print("fitted multipliers: " + ", ".join(f"{k} {v:.2f}" for k, v in zip(COMPONENTS, w, strict=True)))
    print(f"loss per decision against the best of the 64-deal means: even hands {hard(ones, train):.2f} ->"
          f" {hard(w, train):.2f}, odd hands (held out) {hard(ones, test):.2f} -> {hard(w, test):.2f}")  # fmt: skip
    weights = dict(zip(COMPONENTS, map(float, w), strict=True))
    LEVELS["Fitted"] = dataclasses.replace(LEVELS["Expert"], name="Fitted")
    plain = GAMES["CUT"].score

    def scaled(known: Knowledge, nums: Numbers, move: Move, style: Style, level: Level) -> Candidate:
        cand = plain(known, nums, move, style, level)
        if level.name == "Fitted":
            cand.components = {k: v * weights[k] for k, v in cand.components.items()}
        return cand

    GAMES["CUT"] = GAMES["CUT"]._replace(score=scaled)
    today = "Expert:Balanced"
    mean, half = _paired(_chair(deals, seed, today, "Fitted:Balanced"), _chair(deals, seed, today, today))
    print(f"at the table: {mean:+.2f} ± {half:.2f} points per hand, fitted minus today's Expert:Balanced in chair 0"
          f" against three of today's ({deals} deals × 4, seed {seed})")  # fmt: skip


def _paired(a: pd.Series, b: pd.Series) -> tuple[float, float]:
    """The mean of ``a − b`` on the same (hand, rotation) and its 95% half-width."""
    diff = (a - b).to_numpy()
    return float(diff.mean()), 1.96 * float(diff.std(ddof=1)) / len(diff) ** 0.5


def _chair(deals: int, seed: int, others: str = "Before:Before", policy: str = "Expert:Balanced") -> pd.Series:
    """Chair 0's points, ``policy`` (as the tables now stand) against three ``others`` seats.

    The worker processes are forked here, after any change to the tables, so they play with the changed ones.
    """
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        table = simulate([policy, *[others] * 3], Rules(), hands=deals, seed=seed, duplicate=True, executor=pool)
    return table[table["player"] == 0].set_index(["hand", "rotation"])["points"]


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else "compare"
    if command == "probe":
        probe(int(sys.argv[2]), sys.argv[3:])
        return
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 77
    if command == "search":
        search(deals, seed, int(sys.argv[4]) if len(sys.argv) > 4 else 1)
        return
    if command == "retune":
        retune(deals, seed)
        return
    if command == "fit":
        fit(deals, seed)
        return
    if command == "screen":
        screen()
        return
    if command == "try":
        trial(deals, seed, sys.argv[4:])
        return
    mean, half, tested, base = duplicate(deals, seed)
    print(f"Expert:Balanced {tested:.2f} vs Before {base:.2f} points per hand in the same chair, {deals} deals × 4:"
          f" {mean:+.2f} ± {half:.2f} (95%)")  # fmt: skip
    found = records()
    if found:
        before = regret(found, BEFORE_STYLE, BEFORE_LEVEL)
        after = regret(found, STYLES["Balanced"], LEVELS["Expert"])
        print(f"regret on {len(found)} recorded decisions (all-sample means): Before {before:.2f}, now {after:.2f}")


if __name__ == "__main__":
    main()
