"""Levels as data: which ranks are dealt, which hands are live, and each level's goals, moves and star lines.

>>> top_rank(12), sorted(live_hands(4))
(10, ['suited run', 'three of a kind'])
>>> [str(goal) for goal in LEVELS[13].goals]
['2 5-card hands']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .cards import RANK_NAMES, RANK_WORDS, SUIT_WORDS
from .hands import FIVE_CARD, FLUSH, FOUR, FULL_HOUSE, RUN, STRAIGHT, STRAIGHT_FLUSH, TRIPS

#: The first level of each rank range and the top rank it deals (K2).
RANGES: tuple[tuple[int, int], ...] = ((1, 6), (4, 8), (11, 10), (16, 12), (21, 13))
#: The level at which each hand unlocks (K6).
UNLOCKS: dict[str, int] = {TRIPS: 1, RUN: 4, FOUR: 7, STRAIGHT: 11, FLUSH: 11, FULL_HOUSE: 16, STRAIGHT_FLUSH: 21}
#: The goal word that counts every 5-card hand (K13).
FIVE_CARD_HANDS = "5-card hands"


class LevelError(ValueError):
    """A level that the table does not hold, or a board code that names none."""


def top_rank(level: int) -> int:
    """The highest rank dealt at a level: the deck is Ace to this rank (K2)."""
    return max(top for first, top in RANGES if level >= first)


def live_hands(level: int) -> frozenset[str]:
    """The hands unlocked at a level; a hand not yet unlocked does not clear (K6)."""
    return frozenset(kind for kind, first in UNLOCKS.items() if level >= first)


class Goal(NamedTuple):
    """One goal (K13): ``kind`` is ``score``, ``hand``, ``suit`` or ``rank``; ``what`` the hand name (or
    ``5-card hands``), the suit index or the rank; ``target`` how much is needed."""

    kind: str
    what: str | int
    target: int

    def __str__(self) -> str:
        if self.kind == "score":
            return f"Score {self.target}"
        if self.kind == "hand":
            return f"{self.target} {self.what}" + ("" if self.what == FIVE_CARD_HANDS or self.target == 1 else "s")
        words = SUIT_WORDS if self.kind == "suit" else RANK_WORDS
        return f"Clear {self.target} {words[int(self.what)]}"

    def amount(self, score: int, hands: Mapping[str, int], suits: Sequence[int], ranks: Sequence[int]) -> int:
        """How much of this goal the counts of a game so far make (it is met at ``target``)."""
        if self.kind == "score":
            return score
        if self.kind == "hand":
            kinds = FIVE_CARD if self.what == FIVE_CARD_HANDS else {str(self.what)}
            return sum(hands.get(kind, 0) for kind in kinds)
        return (suits if self.kind == "suit" else ranks)[int(self.what)]


class Level(NamedTuple):
    """A level's row of the table: its move limit, up to three goals and the 2- and 3-star lines (K15)."""

    number: int
    moves: int
    goals: tuple[Goal, ...]
    two_stars: int
    three_stars: int


def _score(n: int) -> Goal:
    return Goal("score", "", n)


def _hand(kind: str, n: int) -> Goal:
    return Goal("hand", kind, n)


def _suit(word: str, n: int) -> Goal:
    return Goal("suit", SUIT_WORDS.index(word), n)


def _rank(name: str, n: int) -> Goal:
    return Goal("rank", RANK_NAMES.index(name), n)


_FIVE = FIVE_CARD_HANDS
#: The level table (K15): number → moves, goals, 2-star line, 3-star line.
LEVELS: dict[int, Level] = {
    level.number: level
    for level in (
        Level(1, 15, (_score(300),), 700, 1000),
        Level(2, 15, (_hand(TRIPS, 6),), 750, 1050),
        Level(3, 18, (_score(400), _rank("6", 9)), 850, 1200),
        Level(4, 18, (_hand(RUN, 3),), 850, 1200),
        Level(5, 18, (_suit("hearts", 12),), 850, 1200),
        Level(6, 20, (_score(600), _hand(RUN, 4)), 1000, 1400),
        Level(7, 20, (_hand(FOUR, 1),), 1000, 1400),
        Level(8, 20, (_score(600), _rank("8", 12)), 1000, 1400),
        Level(9, 22, (_suit("spades", 15), _hand(TRIPS, 5)), 1100, 1500),
        Level(10, 22, (_score(800), _hand(FOUR, 1), _suit("diamonds", 12)), 1200, 1600),
        Level(11, 20, (_hand(STRAIGHT, 1),), 1000, 1400),
        Level(12, 20, (_score(700), _hand(FLUSH, 1)), 1100, 1500),
        Level(13, 22, (_hand(_FIVE, 2),), 1200, 1600),
        Level(14, 22, (_score(900), _suit("clubs", 18)), 1300, 1700),
        Level(15, 24, (_score(1000), _hand(_FIVE, 2), _rank("10", 9)), 1400, 1900),
        Level(16, 22, (_hand(FULL_HOUSE, 1),), 1200, 1600),
        Level(17, 22, (_score(1000), _hand(_FIVE, 2)), 1400, 1800),
        Level(18, 24, (_suit("hearts", 18), _hand(RUN, 4)), 1400, 1900),
        Level(19, 24, (_rank("Q", 9), _hand(_FIVE, 2)), 1400, 1900),
        Level(20, 25, (_score(1200), _hand(FULL_HOUSE, 1), _hand(FOUR, 1)), 1600, 2100),
        Level(21, 22, (_score(1000), _hand(_FIVE, 2)), 1400, 1900),
        Level(22, 24, (_suit("spades", 20), _hand(RUN, 5)), 1500, 2000),
        Level(23, 24, (_rank("K", 9), _hand(FLUSH, 1)), 1500, 2000),
        Level(24, 25, (_score(1300), _hand(_FIVE, 3)), 1700, 2200),
        Level(25, 25, (_score(1500), _hand(_FIVE, 3), _suit("hearts", 15)), 1800, 2400),
    )
}
#: Level bands that share a rank range, for reports (K2).
BANDS: tuple[tuple[int, int], ...] = ((1, 3), (4, 10), (11, 15), (16, 20), (21, max(LEVELS)))


def level(number: int) -> Level:
    """The table's row for a level; raises :class:`LevelError` for one it does not hold."""
    if number not in LEVELS:
        raise LevelError(f"there is no level {number}: the levels are 1 to {max(LEVELS)}")
    return LEVELS[number]
