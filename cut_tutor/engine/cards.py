"""Cards as small integers: the game never uses suits, only ranks (R1, R2).

A card is its rank code: ``1`` (A) to ``13`` (K) and ``14`` for the Joker.
Face-up stack cards carry the :data:`UP` bit so a stack is a plain list of ints.

>>> card_name(1), card_name(10), card_name(JOKER)
('A', '10', 'JK')
>>> parse_card("q")
12
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

ACE, JACK, QUEEN, KING, JOKER = 1, 11, 12, 13, 14
#: Size of the per-rank count arrays (index 0 unused).
NRANKS = 15
#: Bit marking a face-up card inside a stack.
UP = 32
RANK_MASK = 31

_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "JK"}
NAMES: tuple[str, ...] = ("?", *tuple(_NAMES.get(r, str(r)) for r in range(1, NRANKS)))
#: Exact card name → rank, for reading trusted data (views) quickly; :func:`parse_card` reads user text.
CODES: dict[str, int] = {name: rank for rank, name in enumerate(NAMES) if rank}
_PARSE = CODES | {"1": ACE, "JOKER": JOKER, "T": 10}


class CardError(ValueError):
    """A card name that is not one of A 2 … 10 J Q K JK."""


def card_name(rank: int) -> str:
    """The short name used in moves, positions and the table (``A``, ``10``, ``JK``)."""
    return NAMES[rank & RANK_MASK]


def parse_card(text: str) -> int:
    """The rank code of a card name; raises :class:`CardError` naming the bad text."""
    rank = _PARSE.get(text.strip().upper())
    if rank is None:
        raise CardError(f"unknown card {text!r}: expected one of {' '.join(NAMES[1:])}")
    return rank


def counts_of(cards: Iterable[int]) -> list[int]:
    """Per-rank counts of some cards (the engine's hand representation)."""
    counts = [0] * NRANKS
    for card in cards:
        counts[card & RANK_MASK] += 1
    return counts


def cards_of(counts: Sequence[int], *, high_first: bool = True) -> list[int]:
    """The cards a count array holds, sorted as a player sorts a hand (clear cards stay by rank)."""
    ranks = range(NRANKS - 1, 0, -1) if high_first else range(1, NRANKS)
    return [rank for rank in ranks for _ in range(counts[rank])]


def names(cards: Iterable[int]) -> str:
    """Space-separated card names: ``"K 9 9"``."""
    return " ".join(card_name(card) for card in cards)


def standard_deck(decks: int) -> list[int]:
    """``decks`` standard 54-card decks (52 + 2 Jokers) in a fixed order, ready to shuffle (R1)."""
    one = [rank for rank in range(ACE, KING + 1) for _ in range(4)] + [JOKER, JOKER]
    return one * decks
