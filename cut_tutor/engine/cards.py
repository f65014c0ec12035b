"""Cards as small integers: the game never uses suits, only ranks (R1, R2, R22).

A card is its rank code: ``1`` (A) to ``13`` (K) and ``14`` for CUT's Joker. Clear 4 (R22) adds three codes:
``15`` PUSH (written ``P``), ``16`` its JOKER, which takes the value of the cards it joins (written ``J*`` so it
is never mistaken for CUT's ``JK``), and ``17`` its CLEAR card (written ``CL``). Clear 4's numbers 1–10 use the
codes 1–10, so its 1 is written ``A`` (``1`` reads as the same card).
Face-up stack cards carry the :data:`UP` bit so a stack is a plain list of ints.

>>> card_name(1), card_name(10), card_name(JOKER)
('A', '10', 'JK')
>>> parse_card("q")
12
>>> [card_name(parse_card(t)) for t in ("push", "J*", "mj", "clear")]
['P', 'J*', 'J*', 'CL']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

ACE, JACK, QUEEN, KING, JOKER = 1, 11, 12, 13, 14
#: Clear 4's special cards (R22): PUSH, the JOKER that takes a value (``J*``) and CLEAR (``CL``).
PUSH, WILD, CLEAR_CARD = 15, 16, 17
#: Size of CUT's per-rank count arrays (index 0 unused): A … K and JK.
NRANKS = 15
#: Size of the count arrays that hold every code, Clear 4's included (R22); a Clear 4 state counts with these.
NCODES = 18
#: Stacks before each seat, in both games (R5, R22).
STACKS = 4
#: Bit marking a face-up card inside a stack.
UP = 32
RANK_MASK = 31

_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "JK", 15: "P", 16: "J*", 17: "CL"}
NAMES: tuple[str, ...] = ("?", *tuple(_NAMES.get(r, str(r)) for r in range(1, NCODES)))
#: Exact card name → rank, for reading trusted data (views) quickly; :func:`parse_card` reads user text.
CODES: dict[str, int] = {name: rank for rank, name in enumerate(NAMES) if rank}
_PARSE = CODES | {"1": ACE, "JOKER": JOKER, "T": 10, "PUSH": PUSH, "MJ": WILD, "CLEAR": CLEAR_CARD}


class CardError(ValueError):
    """A card name that is not one of A 2 … 10 J Q K JK (or Clear 4's P J* CL)."""


def card_name(rank: int) -> str:
    """The short name used in moves, positions and the table (``A``, ``10``, ``JK``)."""
    return NAMES[rank & RANK_MASK]


def parse_card(text: str) -> int:
    """The rank code of a card name; raises :class:`CardError` naming the bad text."""
    rank = _PARSE.get(text.strip().upper())
    if rank is None:
        raise CardError(f"unknown card {text!r}: expected one of {' '.join(NAMES[1:])}")
    return rank


def counts_of(cards: Iterable[int], size: int | None = None) -> list[int]:
    """Per-rank counts of some cards (the engine's hand representation).

    ``size`` is the array's length: by default :data:`NRANKS`, or :data:`NCODES` when a Clear 4 card is among them.
    """
    ranks = [card & RANK_MASK for card in cards]
    counts = [0] * (size or (NCODES if ranks and max(ranks) >= NRANKS else NRANKS))
    for rank in ranks:
        counts[rank] += 1
    return counts


def cards_of(counts: Sequence[int], *, high_first: bool = True) -> list[int]:
    """The cards a count array holds, sorted as a player sorts a hand (clear cards stay by rank)."""
    ranks = range(len(counts) - 1, 0, -1) if high_first else range(1, len(counts))
    return [rank for rank in ranks for _ in range(counts[rank])]


def names(cards: Iterable[int]) -> str:
    """Space-separated card names: ``"K 9 9"``."""
    return " ".join(card_name(card) for card in cards)


def clear4_deck() -> list[int]:
    """Clear 4's 120 cards in a fixed order: 1–10 ten times each, 7 PUSH, 7 JOKER, 6 CLEAR (R22)."""
    return [rank for rank in range(ACE, 11) for _ in range(10)] + [PUSH] * 7 + [WILD] * 7 + [CLEAR_CARD] * 6


def standard_deck(decks: int) -> list[int]:
    """``decks`` standard 54-card decks (52 + 2 Jokers) in a fixed order, ready to shuffle (R1)."""
    one = [rank for rank in range(ACE, KING + 1) for _ in range(4)] + [JOKER, JOKER]
    return one * decks
