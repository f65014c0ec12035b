"""What one move did, so the table, the Play Bar and a replay can tell it without comparing states.

>>> from cut_tutor.engine import Rules, State
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "9@1",
...                              "seats": [{"hand": "7 7 K"}, {"hand": "Q"}]})
>>> state.play("2×7")
Outcome(kind='landed', seat=0, next_seat=1, laid=(7, 7), turned=(), swept=(), taken=())
"""

from __future__ import annotations

from typing import NamedTuple

#: The kinds of outcome, by what became of the pile (``out`` wins over the others: the hand is over).
LANDED, BUST, CLEAR, NATURAL, PUSHED, PASS, OUT = "landed", "bust", "clear", "natural", "pushed", "pass", "out"
_NONE: tuple[int, ...] = ()


class Outcome(NamedTuple):
    """What a move did; cards are rank codes.

    ``kind``      ``landed`` (the cards lie on the pile), ``bust`` (the pile went into the mover's hand), ``clear``
                  (clear cards swept the pile, R9, R22), ``natural`` (a fourth of a rank or value swept it, R10,
                  R22), ``pushed`` (a PUSH sent the pile to ``Move.to``, R22), ``pass`` (nothing reached the pile:
                  ``done``, ``turn up``, ``add 0``, a blind PUSH awaiting its seat) or ``out`` (the mover went out).
    ``seat``      the seat that moved; ``next_seat`` the seat to move now (``None``: the hand is over).
    ``laid``      cards played from the hand or the stacks, as they were laid (a clear play's clear cards too).
    ``turned``    the face-down cards the move turned face up: a blind card (``flip``, ``gamble``), a card turned up
                  on its stack (``turn up``, R18), or Clear 4's middle card turned up beneath a top card played
                  (R22); empty when the move showed no hidden card, which is what lets Undo take it back (C9).
    ``swept``     cards that left the game: a cleared pile with its clear cards, or a spent PUSH.
    ``taken``     pile cards that joined a hand (the mover's on a bust, the pushed seat's on a push).
    """

    kind: str
    seat: int
    next_seat: int | None
    laid: tuple[int, ...] = _NONE
    turned: tuple[int, ...] = _NONE
    swept: tuple[int, ...] = _NONE
    taken: tuple[int, ...] = _NONE
