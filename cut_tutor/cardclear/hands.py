"""The seven hands, their base points, and how a line of six cards is read into hands (K3–K5).

>>> from .cards import parse_card
>>> best_in_line([parse_card(t) for t in "7H 7S 7D 7C 2H 9S".split()], ALL)
[Found(kind='four of a kind', start=0, length=4)]
>>> window_kind([parse_card(t) for t in "QH KH AH".split()], ALL)
'suited run'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import rank_of, suit_of

TRIPS, RUN, STRAIGHT, FLUSH, FULL_HOUSE, FOUR, STRAIGHT_FLUSH = (
    "three of a kind", "suited run", "straight", "flush", "full house", "four of a kind", "straight flush",
)  # fmt: skip
#: Base points of every hand (K4), in the order the seed lists them.
BASE: dict[str, int] = {TRIPS: 30, RUN: 40, STRAIGHT: 100, FLUSH: 120, FULL_HOUSE: 150, FOUR: 200,
                        STRAIGHT_FLUSH: 300}  # fmt: skip
ALL = frozenset(BASE)
#: The hands of five cards: each one adds a move (K8), and the goal "5-card hands" counts them (K13).
FIVE_CARD = frozenset({STRAIGHT, FLUSH, FULL_HOUSE, STRAIGHT_FLUSH})
#: Short names for the tags on a card's neighbours ("Trips 30").
SHORT: dict[str, str] = {TRIPS: "Trips", RUN: "Run", STRAIGHT: "Straight", FLUSH: "Flush", FULL_HOUSE: "Full house",
                         FOUR: "Quads", STRAIGHT_FLUSH: "Straight flush"}  # fmt: skip
#: One of each hand, as the Hands chart shows it (card names; a test keeps each the hand it names).
EXAMPLES: dict[str, tuple[str, ...]] = {TRIPS: ("5S", "5H", "5D"), RUN: ("2H", "3H", "4H"),
                                        STRAIGHT: ("2C", "3D", "4S", "5H", "6C"), FLUSH: ("AS", "3S", "4S", "6S", "8S"),
                                        FULL_HOUSE: ("4C", "4D", "4S", "2H", "2C"), FOUR: ("6S", "6H", "6D", "6C"),
                                        STRAIGHT_FLUSH: ("9D", "10D", "JD", "QD", "KD")}  # fmt: skip


class Found(NamedTuple):
    """A hand in a line: its kind and the window it fills (index of its first card, 3 to 5 cards)."""

    kind: str
    start: int
    length: int


def in_sequence(ranks: Sequence[int]) -> bool:
    """Distinct ranks that follow on, the Ace low (A-2-3) or high (Q-K-A) but never both (no K-A-2) (K5)."""
    if len(set(ranks)) != len(ranks):
        return False
    if max(ranks) - min(ranks) == len(ranks) - 1:
        return True
    high = [14 if r == 1 else r for r in ranks]
    return max(high) - min(high) == len(ranks) - 1


def window_kind(cards: Sequence[int], live: frozenset[str]) -> str | None:
    """The hand these 3–5 cards make, in any order, if it is one of the ``live`` (unlocked) hands (K3, K6)."""
    ranks = [rank_of(c) for c in cards]
    suited = len({suit_of(c) for c in cards}) == 1
    kind: str | None = None
    if len(cards) == 3:
        if ranks[0] == ranks[1] == ranks[2]:
            kind = TRIPS
        elif suited and in_sequence(ranks):
            kind = RUN
    elif len(cards) == 4:
        kind = FOUR if len(set(ranks)) == 1 else None
    elif len(cards) == 5:
        run = in_sequence(ranks)
        counts = sorted(ranks.count(r) for r in set(ranks))
        if suited and run:
            kind = STRAIGHT_FLUSH
        elif counts == [2, 3]:
            kind = FULL_HOUSE
        elif suited:
            kind = FLUSH
        elif run:
            kind = STRAIGHT
    return kind if kind in live else None


def best_in_line(line: Sequence[int], live: frozenset[str]) -> list[Found]:
    """The hands a row or column makes: of windows that overlap only the best stays (K7).

    Best means most base points, then more cards, then nearer the start (top or left): a deterministic choice
    where the seed names none. A hole (0) or an unknown card (below 0) is in no hand.
    """
    found = [
        Found(kind, start, length)
        for length in (5, 4, 3)
        for start in range(len(line) - length + 1)
        if min(line[start : start + length]) > 0
        and (kind := window_kind(line[start : start + length], live)) is not None
    ]
    found.sort(key=lambda f: (-BASE[f.kind], -f.length, f.start))
    kept: list[Found] = []
    for hand in found:
        if all(hand.start + hand.length <= k.start or k.start + k.length <= hand.start for k in kept):
            kept.append(hand)
    return sorted(kept, key=lambda f: f.start)
