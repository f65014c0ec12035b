"""Levels as data: which ranks are dealt, which hands are live, and each level's goals, moves and star lines.

>>> top_rank(12), sorted(live_hands(4))
(10, ['suited run', 'three of a kind'])
>>> [str(goal) for goal in LEVELS[13].goals]
['5-card hands ×16']
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
            return f"{str(self.what).capitalize()} ×{self.target}"
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


class PuzzleLevel(NamedTuple):
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
#: The level table (K15): number → moves, goals, 2-star line, 3-star line. Targets sit near what random legal
#: swaps reach in the move limit; the star lines at the Hint's median and upper final scores (see the guide).
LEVELS: dict[int, PuzzleLevel] = {
    level.number: level
    for level in (
        PuzzleLevel(1, 15, (_score(700),), 1010, 1160),
        PuzzleLevel(2, 15, (_hand(TRIPS, 18),), 1130, 1260),
        PuzzleLevel(3, 18, (_score(850), _rank("6", 12)), 1370, 1490),
        PuzzleLevel(4, 18, (_hand(RUN, 6),), 1060, 1240),
        PuzzleLevel(5, 18, (_suit("hearts", 18),), 1100, 1260),
        PuzzleLevel(6, 20, (_score(950), _hand(RUN, 8)), 1330, 1490),
        PuzzleLevel(7, 20, (_hand(FOUR, 1),), 1230, 1400),
        PuzzleLevel(8, 20, (_score(1000), _rank("8", 9)), 1520, 1800),
        PuzzleLevel(9, 22, (_suit("spades", 21), _hand(TRIPS, 18)), 1730, 2220),
        PuzzleLevel(10, 22, (_score(1100), _hand(FOUR, 1), _suit("diamonds", 18)), 1640, 1880),
        PuzzleLevel(11, 20, (_hand(STRAIGHT, 12),), 3700, 4560),
        PuzzleLevel(12, 20, (_score(3000), _hand(FLUSH, 5)), 4060, 5400),
        PuzzleLevel(13, 22, (_hand(_FIVE, 16),), 3740, 4080),
        PuzzleLevel(14, 22, (_score(3500), _suit("clubs", 45)), 4740, 5920),
        PuzzleLevel(15, 24, (_score(3800), _hand(_FIVE, 18), _rank("10", 18)), 5240, 5820),
        PuzzleLevel(16, 22, (_hand(FULL_HOUSE, 8),), 3840, 4760),
        PuzzleLevel(17, 22, (_score(5500), _hand(_FIVE, 32)), 6680, 6960),
        PuzzleLevel(18, 24, (_suit("hearts", 70), _hand(RUN, 10)), 9530, 13360),
        PuzzleLevel(19, 24, (_rank("Q", 22), _hand(_FIVE, 32)), 8460, 9340),
        PuzzleLevel(20, 25, (_score(6000), _hand(FULL_HOUSE, 12), _hand(FOUR, 1)), 7300, 12400),
        PuzzleLevel(21, 22, (_score(5500), _hand(_FIVE, 30)), 6440, 6820),
        PuzzleLevel(22, 24, (_suit("spades", 70), _hand(RUN, 12)), 10080, 13760),
        PuzzleLevel(23, 24, (_rank("K", 20), _hand(FLUSH, 9)), 7880, 8360),
        PuzzleLevel(24, 25, (_score(6000), _hand(_FIVE, 32)), 7270, 7390),
        PuzzleLevel(25, 25, (_score(6400), _hand(_FIVE, 36), _suit("hearts", 75)), 8620, 9130),
    )
}
#: PuzzleLevel bands that share a rank range, for reports (K2).
BANDS: tuple[tuple[int, int], ...] = ((1, 3), (4, 10), (11, 15), (16, 20), (21, max(LEVELS)))


def level(number: int) -> PuzzleLevel:
    """The table's row for a level; raises :class:`LevelError` for one it does not hold."""
    if number not in LEVELS:
        raise LevelError(f"there is no level {number}: the levels are 1 to {max(LEVELS)}")
    return LEVELS[number]
