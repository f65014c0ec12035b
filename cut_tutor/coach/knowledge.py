"""What the seat to advise knows (C2): nothing else reaches the coach.

:class:`Knowledge` is built from the seat's JSON view (:meth:`Knowledge.from_view`, what the coach and the browser
receive) or, for AI seats in simulations, from the :class:`~cut_tutor.engine.view.Sight` that the view itself is
built from (:meth:`Knowledge.from_sight`). The coach never receives a state; tests keep the two paths equal.

>>> from cut_tutor.engine import Rules, State, view
>>> from cut_tutor.engine.view import sight
>>> state = State.deal(Rules(), seed=3)
>>> Knowledge.from_view(view(state, 1)) == Knowledge.from_sight(sight(state, 1))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..engine.cards import CODES, NCODES
from ..engine.moves import Move
from ..engine.rules import Rules
from ..engine.view import Sight


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge, in card codes: its cards, the table as it sees it, and the cards it cannot see."""

    rules: Rules
    seat: int
    phase: str
    turns: int
    legal: tuple[Move, ...]  # empty unless the seat is to move
    hand: tuple[int, ...]  # counts by code, every code
    stacks: tuple[tuple[int | None, ...], ...]  # the seat's own stacks, bottom first: None face down
    pile: tuple[int, ...]
    top: int  # the value to play equal or lower to (0: any)
    run: int  # cards of that value together on top of the pile
    left: tuple[int, ...]  # cards left, per seat
    unseen: tuple[int, ...]  # per code, the cards a blind card may be: the deck minus every card the seat sees
    counted: tuple[int, ...]  # the same, also minus the cleared cards and the cards others were seen to pick up
    # Read off the fields above once, for the scorers:
    points: tuple[int, ...] = field(init=False, repr=False, compare=False)  # per code, Clear 4's included
    is_clear: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    stack_cards: int = field(init=False, repr=False, compare=False)
    cards_left: int = field(init=False, repr=False, compare=False)
    pile_points: int = field(init=False, repr=False, compare=False)
    next_left: int = field(init=False, repr=False, compare=False)  # cards left to the next seat
    min_left: int = field(init=False, repr=False, compare=False)  # fewest cards left to any other seat
    clears_held: int = field(init=False, repr=False, compare=False)  # clear cards in hand

    def __post_init__(self) -> None:
        rules, hand, left = self.rules, self.hand, self.left
        points = rules.points + (0,) * (NCODES - len(rules.points))
        stack_cards = sum(map(len, self.stacks))
        facts = {
            "points": points,
            "is_clear": rules.is_clear,
            "stack_cards": stack_cards,
            "cards_left": sum(hand) + stack_cards,
            "pile_points": sum(points[c] for c in self.pile),
            "next_left": left[(self.seat + 1) % len(left)],
            "min_left": min(n for i, n in enumerate(left) if i != self.seat),
            "clears_held": sum(hand[r] for r in range(NCODES) if rules.is_clear[r]),
        }
        for name, value in facts.items():
            object.__setattr__(self, name, value)

    def pool(self, counts_cards: bool) -> tuple[int, ...]:
        """The cards a blind card may be, for a seat that counts cards (C4) or one that does not."""
        return self.counted if counts_cards else self.unseen

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Knowledge:
        """The seat's knowledge from its JSON view."""
        me, seats = view["seat"], view["seats"]
        pile = [CODES[p["card"]] for p in view["pile"]]
        # A Clear 4 pile card names the value it counts as (None: none yet); a CUT card counts as itself.
        values = [CODES.get(p.get("as", p["card"]), 0) for p in view["pile"]]
        top = values[-1] if values else 0
        run = 0
        if top:
            for value in reversed(values):
                if value != top:
                    break
                run += 1
        return _knowledge(
            rules=_rules(tuple(sorted(view["rules"].items()))),
            seat=me,
            phase=view["phase"],
            turns=view["turns"],
            legal=tuple(_move(text) for text in view["legal"]),
            hand=_counts(view["hand"]),
            stacks=[[[None if c is None else CODES[c] for c in stack] for stack in info["stacks"]] for info in seats],
            known=[_counts(info["known"]) for info in seats],
            left=tuple(info["cards_left"] for info in seats),
            pile=pile,
            top=top,
            run=run,
            cleared=_counts(view["cleared"]),
        )

    @classmethod
    def from_sight(cls, seen: Sight) -> Knowledge:
        """The same knowledge from the sight the view is built from, without building the JSON."""
        return _knowledge(
            rules=seen.rules,
            seat=seen.seat,
            phase=seen.phase,
            turns=seen.turns,
            legal=seen.legal,
            hand=seen.hand,
            stacks=seen.stacks,
            known=seen.known,
            left=seen.cards_left,
            pile=seen.pile,
            top=seen.value,
            run=seen.run,
            cleared=seen.cleared,
        )


def _knowledge(
    *, rules: Rules, seat: int, phase: str, turns: int, legal: tuple[Move, ...], hand: Sequence[int],
    stacks: Sequence[Sequence[Sequence[int | None]]], known: Sequence[Sequence[int]], left: tuple[int, ...],
    pile: Sequence[int], top: int, run: int, cleared: Sequence[int],
) -> Knowledge:  # fmt: skip
    """Knowledge from the seat's facts, whichever form they came in: the pools are worked out here, once."""
    hand = tuple(hand) + (0,) * (NCODES - len(hand))
    unseen = [d - h for d, h in zip(_deck_counts(rules), hand, strict=True)]
    for card in pile:
        unseen[card] -= 1
    for seat_stacks in stacks:
        for stack in seat_stacks:
            for face in stack:
                if face is not None:
                    unseen[face] -= 1
    counted = unseen[:]
    for counts in [cleared] + [k for i, k in enumerate(known) if i != seat]:
        for rank, n in enumerate(counts):
            counted[rank] -= n
    return Knowledge(
        rules=rules, seat=seat, phase=phase, turns=turns, legal=legal, hand=hand,
        stacks=tuple(map(tuple, stacks[seat])), pile=tuple(pile), top=top, run=run, left=left,
        unseen=tuple(max(0, n) for n in unseen), counted=tuple(max(0, n) for n in counted),
    )  # fmt: skip


def _counts(names: Iterable[str]) -> list[int]:
    counts = [0] * NCODES
    for name in names:
        counts[CODES[name]] += 1
    return counts


@lru_cache(maxsize=64)
def _rules(key: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.from_dict(dict(key))


@lru_cache(maxsize=4096)
def _move(text: str) -> Move:
    return Move.parse(text)


@lru_cache(maxsize=64)
def _deck_counts(rules: Rules) -> tuple[int, ...]:
    pool = [0] * NCODES
    for card in rules.deck():
        pool[card] += 1
    return tuple(pool)
