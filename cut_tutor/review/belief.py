"""The belief panel's data: what the learner's seat knows of the other seats, and what the analysis assumes about
the rest, built from its view alone (C2), so re-dealing the hidden cards cannot change it.

>>> from cut_tutor.engine import Rules, State, view
>>> state = State.deal(Rules(), seed=3)
>>> b = belief(view(state, state.turn), samples=50)
>>> len(b.opponents) == state.players - 1, 0.0 <= b.can_play[7] <= 1.0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..analysis import Deals
from ..engine.cards import KING, RANK_MASK, UP, card_name
from ..engine.rules import Rules
from ..engine.state import State
from ..engine.view import unseen

#: Samples of consistent deals behind each chance, by default.
SAMPLES = 400


@dataclass(frozen=True)
class Opponent:
    """One other seat as the learner sees it: the cards seen going into its hand, its face-up cards and counts."""

    seat: int
    picked_up: list[str]
    shown: list[str]
    hand_count: int
    cards_left: int
    above: str | None = None  # the top it took bare on: its other hand cards are ordinary ranks above (R11)


@dataclass(frozen=True)
class Belief:
    """The learner's seat's knowledge and the analysis' assumption about the next seat.

    ``unseen`` counts the cards it cannot see, by rank name; ``can_play[top]`` is the chance, over deals consistent
    with the view, that the next seat holds a card it may play on a pile topped by ``top`` (a rank code; 0: any).
    """

    seat: int
    next_seat: int
    opponents: list[Opponent]
    unseen: dict[str, int]
    can_play: dict[int, float]
    samples: int


def _opponent(info: Mapping[str, Any]) -> Opponent:
    """What the seat to move sees of one opponent in ``info`` (its entry in the view's seats)."""
    shown = [c for stack in info["stacks"] for c in stack if c is not None]
    return Opponent(info["seat"], list(info["known"]), shown, info["hand_count"], info["cards_left"], info.get("above"))


def _next_cards(state: State, seat: int) -> list[int]:
    """The ranks ``seat`` could play from in a sampled ``state``: its hand, or when that is empty its face-up
    stack tops (R7)."""
    cards = [rank for rank, count in enumerate(state.hands[seat]) if count]
    if not cards:
        cards = [top & RANK_MASK for top in (s[-1] for s in state.stacks[seat] if s) if top & UP]
    return cards


def belief(view: Mapping[str, Any], samples: int = SAMPLES, seed: int = 0) -> Belief:
    """The belief data of the seat to move in ``view`` (the chances need the deals :class:`Deals` samples)."""
    me, players = view["seat"], view["players"]
    opponents = [_opponent(info) for info in view["seats"] if info["seat"] != me]
    pool = unseen(dict(view))
    names = {card_name(rank): count for rank, count in enumerate(pool) if rank and count}
    rules = Rules.from_dict(view["rules"])
    playable_any = rules.is_clear
    nxt = (me + 1) % players
    deals, rng = Deals(view), random.Random(f"belief:{seed}")
    tops = range(1, KING + 1)
    hits = dict.fromkeys(tops, 0)
    for _ in range(samples):
        state = deals.sample(rng)
        cards = _next_cards(state, nxt)
        for top in tops:  # clear and special cards (codes above the King) play on anything
            hits[top] += any(playable_any[c] or c > KING or c <= top for c in cards)
    return Belief(me, nxt, opponents, names, {top: round(hits[top] / samples, 3) for top in tops}, samples)
