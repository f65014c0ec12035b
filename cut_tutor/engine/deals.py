"""Deal codes: ``PLAYERS-DECKS-DEALT-DEALER-SEED``, the seed in Crockford base 32, e.g. ``4-3-20-0-7K``.

A code fixes the shuffle and the deal; the other rules travel beside it. A game with its own deck writes its deck
code instead of a number of decks: Clear 4 (R22) writes ``C4``, as in ``4-C4-20-0-7K``.

>>> from cut_tutor.engine import Rules
>>> parse_deal_code(deal_code(Rules(), 12345, 2))
(4, 3, 20, 2, 12345)
>>> deal_code(Rules.from_preset("Clear 4", players=3), 12345, 2)
'3-C4-20-2-C1S'
"""

from __future__ import annotations

import re

from .games import GAMES, module_of
from .rules import SETTINGS, Rules

_B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Deck codes of the games with their own deck, and the game each names; a number of decks means the other one.
_BY_DECK = {game.DECK_CODE: name for name, game in GAMES.items() if game.DECK_CODE}
_COUNTED = next(name for name, game in GAMES.items() if game.DECK_CODE is None)
_CODE = re.compile(
    r"\s*(\d)-(\d{1,2}|" + "|".join(map(re.escape, _BY_DECK)) + r")-(\d\d)-(\d)-([0-9A-Za-z]{1,16})\s*", re.IGNORECASE
)


class PositionError(ValueError):
    """A position, record or deal code that cannot be loaded; the message names the field."""


def _b32(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 32)
        digits = _B32[digit] + digits
        if not number:
            return digits


def deal_code(rules: Rules, seed: int, dealer: int) -> str:
    """The short code of a deal: seats, decks, cards dealt, dealer and shuffle seed."""
    if seed < 0:
        raise ValueError("seeds are non-negative integers")
    deck = module_of(rules).DECK_CODE or rules.deck_count
    return f"{rules.players}-{deck}-{rules.cards_dealt}-{dealer}-{_b32(seed)}"


def parse_deal_code(code: str) -> tuple[int, int, int, int, int]:
    """``(players, decks, cards_dealt, dealer, seed)`` from a deal code (a game's own deck counts as 1)."""
    return parse(code)[1:]


def parse(code: str) -> tuple[str, int, int, int, int, int]:
    """The game and the five numbers of a deal code."""
    if not isinstance(code, str):
        raise PositionError(f"deal: expected a deal code like 4-3-20-0-7K, got {type(code).__name__}")
    match = _CODE.fullmatch(code)
    if not match:
        raise PositionError(f"deal: {code!r} is not a deal code like 4-3-20-0-7K (players-decks-dealt-dealer-seed)")
    deck = match.group(2).upper()
    game = _BY_DECK.get(deck, _COUNTED)
    players, dealt, dealer = (int(match.group(i)) for i in (1, 3, 4))
    decks = int(deck) if deck.isdecimal() else 1
    seed = 0
    for char in match.group(5).upper().replace("O", "0").replace("I", "1").replace("L", "1"):
        if char not in _B32:
            raise PositionError(f"deal: {code!r} has {char!r} in its seed, which base 32 does not use")
        seed = seed * 32 + _B32.index(char)
    seats = SETTINGS["players"]
    if not seats.allows(players):
        raise PositionError(f"deal: {code!r} names {players} as its number of seats; {seats.allowed}")
    if dealer >= players:
        raise PositionError(f"deal: dealer {dealer} is not one of the {players} seats")
    return game, players, decks, dealt, dealer, seed
