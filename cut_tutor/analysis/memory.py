"""What a seat remembers of a hand: the turns it watched the other seats play from their hands, back past the
pile's last clear (the guide's *Reading the pile*).

The pile shows only the turns laid since it was last emptied; a seat that watched every move saw more. For each
other seat, a :class:`Memory` keeps the turns it played from its hand alone since it last picked cards up, each with
the watching seat's view as that turn began and the cards that seat has laid from its hand since. No hidden card
is read: every entry is a view of the watching seat's own (C2) and a move the whole table saw. Taking cards back
is exact, as the hands of CUT only ever lose the cards nobody saw: the hand a seat played a turn from is its hand
now plus what it laid since, until it picks cards up again.

>>> from cut_tutor.engine import State, view
>>> state = State.from_position({"rules": {"players": 2}, "turn": 1,
...     "seats": [{"hand": "K Q 7"}, {"hand": "9 9 5"}]})
>>> memory = Memory(0)
>>> for text in ("1×9", "1×7", "1×5"):
...     memory.observe(view(state, 0), Move.parse(text))
...     _ = state.apply(Move.parse(text))
>>> [(entry["seat"], entry["move"], entry["laid"]) for entry in memory.entries()]
[(1, '1×5', ['5']), (1, '1×9', ['9', '5'])]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.cards import JOKER, card_name
from ..engine.moves import CLEAR, PLAY, Move

#: The most turns a seat's memory reads per other seat, the latest first: each one more read makes a dealt hand
#: less likely to agree with all of them, and the oldest tell least about a hand that has changed since.
MEMORY = 6


class Memory:
    """The turns ``seat`` watched the other seats play from their hands in the hand under way, since each last
    picked cards up. :meth:`observe` every move of the hand, the seat's own too, with the seat's view as it began."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        #: Per other seat, its turns read, latest first: the view as it began, its move, and the cards laid since.
        self._turns: dict[int, list[tuple[Mapping[str, Any], str, list[int]]]] = {}
        self._last = -1
        #: Whether every move of the hand was watched: only then is a seat's memory complete.
        self.whole = False

    def observe(self, seen: Mapping[str, Any], move: Move) -> None:
        """Note ``move``, about to be made, and the seat's ``seen`` view just before it."""
        if seen["seat"] != self.seat:
            raise ValueError(f"memory of seat {self.seat}: that is seat {seen['seat']}'s view")
        if seen["turns"] < self._last or self._last < 0:  # a new hand
            self._turns, self.whole = {}, seen["turns"] <= 1 and not seen["pile"] and not seen["cleared"]
        self._last = seen["turns"]
        k = seen["turn"]
        if k == self.seat:
            return
        if move.kind not in (PLAY, CLEAR) or move.stacks:  # a take, a blind or stack play: its hand changed unseen
            self._turns.pop(k, None)
            return
        laid = [move.rank] * move.n + [JOKER] * move.jokers
        turns = self._turns.setdefault(k, [])
        for _, _, since in turns:
            since.extend(laid)
        turns.insert(0, (seen, str(move), list(laid)))
        del turns[MEMORY:]

    def follows(self, seen: Mapping[str, Any]) -> bool:
        """Whether this memory is of the whole hand and its last move was the one just before ``seen``: only then
        does it hold every turn the pile shows."""
        return self.whole and seen["seat"] == self.seat and self._last <= seen["turns"] <= self._last + 1

    def entries(self) -> list[dict[str, Any]]:
        """The turns remembered, latest first per seat, as a view's ``memory`` field holds them: the seat, its view
        as the turn began, the move, and the cards that seat laid from its hand since, that turn's included."""
        return [{"seat": k, "view": dict(seen), "move": text, "laid": [card_name(c) for c in since]}
                for k, turns in sorted(self._turns.items()) for seen, text, since in turns]  # fmt: skip
