"""The Hint as a coach: every legal swap valued by named parts, the best by goal-aware value, and why (H1–H8).

The Hint knows only what the player sees (H8): the board, the counts and the three Next cards. It plays each swap
out on that seen game, where the cards beyond the Next ones are unknown and make no hand: its points, combo and
extra moves are what the swap is sure to score, exact when no unknown card falls in and "at least" when one does
(H2). Goals, the lookahead and the finish turn points into a value that knows what the level asks for (H4–H6).

>>> from .state import Puzzle
>>> advice = hint(Puzzle.from_code("4-2"))
>>> advice.best.total >= max(option.total for option in advice.options)
True
>>> {"swap", "points", "total", "best"} <= set(advice.rows()[0])
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .hands import BASE, SHORT
from .state import MOVE_BONUS, SWAPS, Puzzle, Swap, Turn, hands_on, makes_hand

#: A goal's worth when one swap meets it whole; a part of it is worth its share of what is needed (H4).
GOAL_WORTH = 300
#: A move earned is worth what a move left pays at the end (H3, K14).
MOVE_WORTH = 50
#: Clearing the level now is worth this on top of the move bonus it locks in (H6).
FINISH_WORTH = 1000
#: The share of the best follow-up clear counted for the board a swap leaves behind (H5).
LOOKAHEAD_SHARE = 0.5
#: How many of the best swaps by value so far get the lookahead (the rest cannot catch up by it alone).
LOOKAHEAD_WIDTH = 4


@dataclass(frozen=True)
class Option:
    """One legal swap and its value by parts (H1)."""

    swap: Swap
    hands: tuple[str, ...]
    base: int
    combo: float
    points: int
    extra_moves: int
    goal: float
    lookahead: float
    finish: float
    turn: Turn
    #: How far each goal stands after the swap.
    amounts: tuple[int, ...]
    #: Exact (no unknown card fell in), or only what the seen cards guarantee (H8).
    sure: bool

    @property
    def total(self) -> float:
        return self.points + MOVE_WORTH * self.extra_moves + self.goal + self.lookahead + self.finish


@dataclass(frozen=True)
class Hint:
    """Every legal swap, best first, and the sentence that says why the best is best (H7)."""

    options: tuple[Option, ...]
    text: str

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def top(self) -> Option | None:
        """The swap sure to score most right now (on a tie, the first in the Hint's order), when the Hint's pick
        scores less: the Hint then shows both, and why it prefers its own (H7)."""
        top = max(self.options, key=lambda o: o.points)
        return None if top.points == self.best.points else top

    @property
    def preference(self) -> str:
        """Why the Hint prefers its pick to the swap that scores most now, or ``""`` when its pick scores most."""
        top = self.top
        return "" if top is None else prefer(self.best, top)

    def rows(self) -> list[dict[str, Any]]:
        """One JSON-ready object per swap: its parts, its total, whether it is the Hint's pick and whether it is the
        swap that scores most now while the Hint prefers another."""
        top = self.top
        return [{"swap": str(o.swap), "hands": list(o.hands), "base": o.base, "combo": o.combo, "points": o.points,
                 "extra_moves": o.extra_moves, "goal": round(o.goal, 1), "lookahead": round(o.lookahead, 1),
                 "finish": o.finish, "total": round(o.total, 1), "sure": o.sure, "best": o is self.best,
                 "top": o is top}
                for o in self.options]  # fmt: skip


def goal_value(before: Puzzle, after: Puzzle) -> float:
    """Each unmet goal's worth times the share of its target the swap makes, up to what was missing (H4)."""
    value = 0.0
    for goal, was, now in zip(before.row.goals, before.amounts(), after.amounts(), strict=True):
        if was < goal.target:
            value += GOAL_WORTH * (min(now, goal.target) - was) / goal.target
    return value


def best_first_clear(state: Puzzle) -> int:
    """The most points any swap on this board makes in its first round (H5): what the board offers next."""
    live, best = state.live, 0
    for swap in SWAPS:
        if makes_hand(state.board, swap, live):
            board = state.board[:]
            board[swap.a], board[swap.b] = board[swap.b], board[swap.a]
            best = max(best, sum(BASE[kind] for kind, _ in hands_on(board, live)))
    return best


def _option(state: Puzzle, swap: Swap) -> tuple[Option, Puzzle]:
    after = state.copy()
    turn = after.play(swap)
    finish = FINISH_WORTH + MOVE_BONUS * after.moves_left if after.passed else 0.0
    option = Option(swap, tuple(h.kind for h in turn.hands), sum(BASE[h.kind] for h in turn.hands), turn.combo,
                    turn.points, turn.extra_moves, goal_value(state, after), 0.0, finish, turn,
                    tuple(after.amounts()), turn.sure)  # fmt: skip
    return option, after


def hint(state: Puzzle) -> Hint:
    """Value every legal swap by its parts and pick the best (H1–H8), from what the player sees of ``state``."""
    state = state.seen()
    tried = [_option(state, swap) for swap in state.legal_swaps()]
    tried.sort(key=lambda pair: -pair[0].total)
    options = []
    for index, (option, after) in enumerate(tried):
        if index < LOOKAHEAD_WIDTH and not after.over:
            option = replace(option, lookahead=LOOKAHEAD_SHARE * best_first_clear(after))
        options.append(option)
    options.sort(key=lambda o: (-o.total, -o.points, SWAPS.index(o.swap)))  # a tie in value: more points first
    return Hint(tuple(options), explain(state, options[0]))


def explain(state: Puzzle, option: Option) -> str:
    """The Hint's sentence: what the swap makes, what the refill chains, and what it does for the goals (H7)."""
    rounds = option.turn.rounds
    first = " and ".join(f"{SHORT[h.kind]} {h.points}" for h in rounds[0].hands)
    parts = [f"{option.swap} makes {first}"]
    if len(rounds) > 1:
        parts.append(f"the refill chains {len(rounds) - 1} more round{'s' * (len(rounds) > 2)} up to ×{option.combo:g}")
    said = ", ".join(parts) + f": {'' if option.sure else 'at least '}{option.points} points"
    if option.extra_moves:
        said += f", +{option.extra_moves} move{'s' * (option.extra_moves > 1)}"
    if option.finish:
        return said + "; it meets every goal and clears the level."
    moved = [f"{goal!s} ({now}/{goal.target})"
             for goal, was, now in zip(state.row.goals, state.amounts(), option.amounts, strict=True)
             if now > was and was < goal.target]  # fmt: skip
    if moved:
        said += "; toward " + ", ".join(moved)
    if option.lookahead:
        ready = int(option.lookahead / LOOKAHEAD_SHARE)
        said += f"; it leaves a board with {'' if option.sure else 'at least '}{ready} points ready"
    return said + "."


def prefer(best: Option, top: Option) -> str:
    """Why the Hint's pick beats the swap that scores more now: the parts where it gains more than the points it
    gives up (H7)."""
    gains = [(MOVE_WORTH * (best.extra_moves - top.extra_moves), "its extra moves"),
             (best.goal - top.goal, "its goals"), (best.lookahead - top.lookahead, "the board it leaves"),
             (best.finish - top.finish, "clearing the level")]  # fmt: skip
    why = " and ".join(f"{name} (+{value:.0f})" for value, name in gains if value > 0)
    worth = f"worth {best.total:.0f} to {top.total:.0f}"
    return (f"{top.swap} scores the most now: {'' if top.sure else 'at least '}{top.points} points. The Hint prefers "
            f"{best.swap}, {top.points - best.points} points fewer, for {why}: {worth}.")  # fmt: skip


# -- policies and the solver ---------------------------------------------------------------------------------

Policy = Callable[[Puzzle, random.Random], Swap]


def random_policy(state: Puzzle, rng: random.Random) -> Swap:
    """Any legal swap, at random: the floor the Hint is measured against."""
    return rng.choice(state.legal_swaps())


def greedy_policy(state: Puzzle, rng: random.Random) -> Swap:
    """The swap sure to score most right now (combos the seen cards make included), first in reading order on a
    tie."""
    seen = state.seen()
    return max(seen.legal_swaps(), key=lambda swap: _option(seen, swap)[0].points)


def hint_policy(state: Puzzle, rng: random.Random) -> Swap:
    """The Hint's pick."""
    return hint(state).best.swap


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "hint": hint_policy}


def solve(state: Puzzle, policy: Policy = hint_policy, rng: random.Random | None = None) -> list[Turn]:
    """Play the level out with a policy (the Hint by default); the turns.

    A measuring tool with full knowledge: it plays the real game, whole stock and all, so the result is what the
    policy's swaps truly score. The policies themselves see only what the player sees (H8).
    """
    rng = rng or random.Random(state.code)
    turns = []
    while not state.over:
        turns.append(state.play(policy(state, rng)))
    return turns
