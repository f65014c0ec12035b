"""Card Clear's cards: rank and suit packed in one small int, written like ``7H`` or ``10S`` (K1).

>>> card_name(card(12, 1)), parse_card("10s") == card(10, 0)
('QH', True)
>>> len(deck(13)), len(deck(6))
(104, 48)
"""

from __future__ import annotations

SUITS = "SHDC"
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS = ("?", "aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
              "jacks", "queens", "kings")  # fmt: skip


class PuzzleCardError(ValueError):
    """Card text that is not a rank (A 2 … 10 J Q K) followed by a suit (S H D C)."""


def card(rank: int, suit: int) -> int:
    """The code of a card: suit in the high bits, rank 1 (A) to 13 (K) in the low four."""
    return suit << 4 | rank


def rank_of(code: int) -> int:
    return code & 15


def suit_of(code: int) -> int:
    return code >> 4


def card_name(code: int) -> str:
    return RANK_NAMES[rank_of(code)] + SUITS[suit_of(code)]


def parse_card(text: str) -> int:
    """The code of a card name such as ``7H``; raises :class:`PuzzleCardError` naming the bad text."""
    word = text.strip().upper()
    rank, suit = word[:-1], word[-1:]
    if rank not in RANK_NAMES[1:] or not suit or suit not in SUITS:
        raise PuzzleCardError(f"unknown card {text!r}: a rank A 2 … 10 J Q K and a suit S H D C, such as 7H")
    return card(RANK_NAMES.index(rank), SUITS.index(suit))


def parse_rank(text: str) -> int:
    """A rank from its name (``7``, ``Q``) or its plural word (``sevens``)."""
    word = text.strip()
    if word.upper() in RANK_NAMES[1:]:
        return RANK_NAMES.index(word.upper())
    if word.lower() in RANK_WORDS[1:]:
        return RANK_WORDS.index(word.lower())
    raise PuzzleCardError(f"unknown rank {text!r}")


def parse_suit(text: str) -> int:
    """A suit from its letter (``H``) or its word (``hearts``)."""
    word = text.strip()
    if len(word) == 1 and word.upper() in SUITS:
        return SUITS.index(word.upper())
    if word.lower() in SUIT_WORDS:
        return SUIT_WORDS.index(word.lower())
    raise PuzzleCardError(f"unknown suit {text!r}")


def deck(top_rank: int) -> list[int]:
    """Two jokerless decks cut down to the ranks Ace to ``top_rank``, in a fixed order before shuffling (K1)."""
    return [card(rank, suit) for _ in range(2) for suit in range(4) for rank in range(1, top_rank + 1)]
