"""The simulation lab: seeded hands between AI seats, in parallel through any executor, as a DataFrame.

>>> from cut_tutor.engine import Rules
>>> frame = simulate(["Expert:Rock", "Random"], Rules(players=2), hands=2, seed=1)
>>> list(frame.columns[:6])
['hand', 'rotation', 'seat', 'player', 'level', 'style']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, NamedTuple

from ..analysis import native
from ..analysis.run import Submitter
from ..analysis.seat import SPEC, AnalysisSeat
from ..analysis.stats import mean_interval, paired
from ..coach import AIPlayer, Knowledge
from ..engine import RandomPlayer, Rules, State
from ..engine.moves import Move
from ..engine.view import sight, view

if TYPE_CHECKING:
    import pandas as pd

    from .._native import _Policy

COLUMNS = [
    "hand", "rotation", "seat", "player", "level", "style", "went_out", "points", "busts", "clears",
    "blind_plays", "turns", "stalemate", "decisions",
]  # fmt: skip


def parse_seat(spec: str) -> tuple[str, str]:
    """``Level:Style``, ``Random``, ``Greedy`` or an analysis seat (``Analysis[:ROLLOUTS[:open]]``) → (level,
    style) for the result table; an analysis seat's style column holds its budget."""
    text = spec.strip()
    if text.lower() in ("random", "greedy"):
        return text.title(), "-"
    if _is_analysis(text):
        return SPEC, AnalysisSeat.from_spec(text).label
    level, _, style = text.partition(":")
    AIPlayer(level, style or "Balanced")  # validates both names with a clear error
    return level.strip().title(), (style or "Balanced").strip().title()


def _is_analysis(spec: str) -> bool:
    return spec.partition(":")[0].strip().title() == SPEC


def _chooser(spec: str, seed: int) -> Callable[[State], Move]:
    level, style = parse_seat(spec)
    rng = random.Random(seed)
    if level == "Random":
        player = RandomPlayer()
        return lambda state: player.choose(state, rng)
    if level == "Greedy":
        from ..engine import GreedyPlayer

        greedy = GreedyPlayer()
        return lambda state: greedy.choose(state, rng)
    ai = AIPlayer(level, style, seed)
    # The seat's knowledge through the view's own reading of the state, without building the JSON (C2).
    return lambda state: ai.choose(Knowledge.from_sight(sight(state, state.turn)))


def _compiled(specs: Sequence[str], rules: Rules) -> list[_Policy | None] | None:
    """The compiled seats of one hand, seat by seat, when the core plays every one of them (``Level:Style`` seats,
    and ``Random`` ones as None, at least one of the former); else None, for the Python path."""
    if any(_is_analysis(spec) or spec.strip().lower() == "greedy" for spec in specs):
        return None
    ai = [spec for spec in specs if spec.strip().lower() != "random"]
    if not ai or any(native.policy(spec, rules) is None for spec in ai):
        return None
    return [None if spec.strip().lower() == "random" else native.policy(spec, rules) for spec in specs]


def hand_seed(seed: int, hand: int) -> int:
    """The shuffle of hand ``hand`` in a run seeded ``seed``: the same whatever the number of workers."""
    return random.Random(f"sim:{seed}:{hand}").getrandbits(40)


def seat_seed(seed: int, hand: int, rotation: int, seat: int) -> int:
    """The seed of the AI at ``seat`` in one rotation of hand ``hand``: a chair's seed whoever else sits down."""
    return hash((seed, hand, rotation, seat)) & 0xFFFFFFFF


def play_one(seats: Sequence[str], rules: Rules, seed: int, hand: int, rotation: int) -> list[dict[str, Any]]:
    """One hand: ``seats[i]`` sits at seat ``(i + rotation) % n``; rows per player."""
    n = rules.players
    state = State.deal(rules, hand_seed(seed, hand), dealer=hand % n)
    at = {(i + rotation) % n: i for i in range(n)}
    policies = _compiled([seats[at[s]] for s in range(n)], rules)
    if policies is not None:  # every seat an AI seat the core plays: one call
        state, decisions = native.play(policies, state, [seat_seed(seed, hand, rotation, s) for s in range(n)])
    else:
        specs, seeds = [seats[at[s]] for s in range(n)], [seat_seed(seed, hand, rotation, s) for s in range(n)]
        # an analysis seat reads its own view of the state (C2), and watches every move from its chair
        analysts = {s: AnalysisSeat.from_spec(specs[s], seeds[s]) for s in range(n) if _is_analysis(specs[s])}
        choosers = [analysts[s].choose if s in analysts else _chooser(specs[s], seeds[s]) for s in range(n)]
        decisions = [0] * n
        while not state.over:
            seat = state.turn
            move = choosers[seat](state)
            for s, analyst in analysts.items():
                analyst.observe(view(state, s), move)
            state.apply(move)
            decisions[seat] += 1
    scores = state.scores()
    rows = []
    for s in range(n):
        level, style = parse_seat(seats[at[s]])
        rows.append(
            {
                "hand": hand,
                "rotation": rotation,
                "seat": s,
                "player": at[s],
                "level": level,
                "style": style,
                "went_out": state.winner == s,
                "points": scores[s],
                "busts": state.busts[s],
                "clears": state.clears[s],
                "blind_plays": state.blind_plays[s],
                "turns": state.turns,
                "stalemate": state.stalemate,
                "decisions": decisions[s],
            }
        )
    return rows


def _chunk(seats: Sequence[str], rules: Rules, seed: int, jobs: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for hand, rotation in jobs:
        rows.extend(play_one(seats, rules, seed, hand, rotation))
    return rows


def simulate(
    seats: Sequence[str],
    rules: Rules | None = None,
    hands: int = 100,
    seed: int = 0,
    executor: Executor | Submitter | None = None,
    *,
    duplicate: bool = False,
    chunk: int = 25,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Play ``hands`` hands; one row per hand and seat. With ``duplicate``, every rotation of the seats
    plays each shuffle, so luck of the deal cancels out. Results do not depend on the executor.
    """
    import pandas as pd

    rules = rules or Rules(players=len(seats))
    if len(seats) != rules.players:
        raise ValueError(f"seats: {len(seats)} seat specs for {rules.players} players")
    for spec in seats:
        parse_seat(spec)
    rotations = range(rules.players) if duplicate else range(1)
    jobs = [(h, r) for h in range(hands) for r in rotations]
    batches = [jobs[i : i + chunk] for i in range(0, len(jobs), chunk)]
    rows: list[dict[str, Any]] = []
    if executor is None:
        for done, batch in enumerate(batches, 1):
            rows.extend(_chunk(seats, rules, seed, batch))
            if progress:
                progress(done, len(batches))
    else:
        futures = [executor.submit(_chunk, list(seats), rules, seed, batch) for batch in batches]
        for done, future in enumerate(futures, 1):
            rows.extend(future.result())
            if progress:
                progress(done, len(batches))
    return pd.DataFrame(rows, columns=COLUMNS)


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per player: mean points per hand with a 95% confidence interval, go-out rate, busts, stalemates."""
    grouped = frame.groupby(["player", "level", "style"])
    table = grouped.agg(
        hands=("points", "size"), mean_points=("points", "mean"), sd=("points", "std"),
        go_out=("went_out", "mean"), busts=("busts", "mean"), blind_plays=("blind_plays", "mean"),
    )  # fmt: skip
    table["ci95"] = 1.96 * table["sd"] / table["hands"] ** 0.5
    return table.drop(columns="sd").reset_index()


class SameChair(NamedTuple):
    """One player's points per hand minus another's in the same chair on the same deals, with its 95% interval."""

    points: float  # negative: fewer points, better
    low: float
    high: float
    hands: int


def same_chair(frame: pd.DataFrame, baseline: pd.DataFrame, player: int = 0) -> SameChair:
    """How many points per hand ``player`` scored more in ``frame`` than in ``baseline`` (lower is better), hand
    by hand: two runs of one seed (duplicate, for every chair) that differ only in that player's seat, so the
    deals and the other seats' play are the same and the luck of the deal cancels."""
    key = ["hand", "rotation"]
    mine = frame[frame["player"] == player].set_index(key)
    theirs = baseline[baseline["player"] == player].set_index(key)
    if not mine.index.equals(theirs.index) or not (mine["seat"] == theirs["seat"]).all() or mine.empty:
        raise ValueError(f"same_chair: the runs did not play the same hands with player {player} in the same chairs")
    others = ["player", "level", "style"]
    if not frame.loc[frame["player"] != player, others].equals(baseline.loc[baseline["player"] != player, others]):
        raise ValueError(f"same_chair: the runs differ in a seat other than player {player}'s")
    diff, low, high = mean_interval(paired(list(mine["points"]), list(theirs["points"])))
    return SameChair(diff, low, high, len(mine))
