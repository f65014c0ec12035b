"""A game: the cut for dealer, a series of hands, running totals, and the end (R4, R6, R19, R20).

>>> from cut_tutor.engine import Rules
>>> game = Game(Rules(players=3), seed=1)
>>> game.hand_number, game.state.turn == (game.dealer + 1) % 3
(1, True)
"""

from __future__ import annotations

import copy
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from .cards import RANK_MASK
from .codes import state_from_deal
from .games import module_of
from .moves import Move
from .outcome import Outcome
from .rules import Rules
from .state import State

DEFAULT_NAMES = ("You", "Daryl", "Madonna", "Marty", "Ann", "Ben", "Cleo", "Dev")
#: Whole numbers the history keeps are SQLite's: from ``-INT_LIMIT`` to ``INT_LIMIT - 1``. A game's seed is one.
INT_LIMIT = 2**63


def seed_too_large() -> ValueError:
    """The refusal of a seed the history could not keep (see :data:`INT_LIMIT`)."""
    return ValueError(f"seed: too large; a seed is a whole number from {-INT_LIMIT} to {INT_LIMIT - 1}")


@dataclass(frozen=True)
class HandResult:
    """How one hand ended: who went out (``None`` for a stalemate) and what each seat scored."""

    number: int
    dealer: int
    winner: int | None
    scores: tuple[int, ...]
    busts: tuple[int, ...]
    automated: tuple[bool, ...]
    deal: str
    moves: tuple[str, ...] = field(repr=False, default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "dealer": self.dealer, "winner": self.winner, "scores": list(self.scores),
            "busts": list(self.busts), "automated": list(self.automated), "deal": self.deal,
            "moves": list(self.moves),
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandResult:
        return cls(
            number=int(data["number"]), dealer=int(data["dealer"]), winner=data["winner"],
            scores=tuple(data["scores"]), busts=tuple(data["busts"]), automated=tuple(data["automated"]),
            deal=str(data["deal"]), moves=tuple(data.get("moves", ())),
        )  # fmt: skip


def cut_for_dealer(rules: Rules, seed: int) -> tuple[int, list[tuple[int, int]]]:
    """R4: every seat cuts, high card deals (A low, K high); clear cards and ties re-cut.

    Returns the dealer and every card cut, in order, as ``(seat, rank)``.
    """
    rng = random.Random(f"cut:{seed}")
    deck = rules.deck()
    rng.shuffle(deck)
    cuts: list[tuple[int, int]] = []
    contenders = list(range(rules.players))
    while True:
        drawn = {}
        for seat in contenders:
            while True:
                if not deck:
                    deck = rules.deck()
                    rng.shuffle(deck)
                card = deck.pop() & RANK_MASK
                cuts.append((seat, card))
                if card in rules.number_ranks:  # clear cards (and Clear 4's PUSH and JOKER) are re-cut
                    break
            drawn[seat] = card
        best = max(drawn.values())
        contenders = [seat for seat, card in drawn.items() if card == best]
        if len(contenders) == 1:
            return contenders[0], cuts


class Game:
    """A series of hands under one set of rules, reproducible from its seed."""

    def __init__(self, rules: Rules, seed: int, names: list[str] | None = None, first: str | None = None) -> None:
        if not -INT_LIMIT <= seed < INT_LIMIT:  # the history could not keep it when the game ends
            raise seed_too_large()
        self.rules = rules
        self.seed = seed
        #: A deal code the first hand is dealt from instead of the seed (a learner pasted it); its dealer deals.
        self.first = first
        #: Which game this is, whatever tab or kernel plays it: the history records a game once, and only this
        #: game's own save is dropped when it ends. Not part of the deal: the seed alone reproduces the cards.
        self.uid = uuid.uuid4().hex
        self.names = list(names) if names else list(DEFAULT_NAMES[: rules.players])
        if len(self.names) != rules.players:
            raise ValueError(f"names: {len(self.names)} names for {rules.players} players")
        self.automated = [False] * rules.players
        self.dealer, self.cut = cut_for_dealer(rules, seed)
        if first is not None:
            self.dealer = state_from_deal(first, rules).dealer  # a code that does not fit the rules raises here
        self.results: list[HandResult] = []
        self._hand_automated = [False] * rules.players
        self.hand_number = 1
        self.state = self.deal_hand()

    def copy(self) -> Game:
        """An independent copy, the hand in play copied too: a change that cannot be saved is taken back with it."""
        new = copy.copy(self)
        new.names, new.automated, new.results = list(self.names), list(self.automated), list(self.results)
        new._hand_automated = list(self._hand_automated)
        new.state = self.state.copy()
        return new

    def hand_seed(self, number: int) -> int:
        """The shuffle seed of hand ``number``, derived from the game seed."""
        return random.Random(f"{self.seed}:{number}").getrandbits(40)

    def deal_hand(self, number: int | None = None) -> State:
        """Deal hand ``number`` (default: the one after the finished hands) with the current dealer.

        It does not replace :attr:`state`: callers assign it (resuming a save deals the saved hand again).
        """
        self.hand_number = len(self.results) + 1 if number is None else number
        self._hand_automated = list(self.automated)
        if self.hand_number == 1 and self.first is not None:
            return state_from_deal(self.first, self.rules)
        return State.deal(self.rules, self.hand_seed(self.hand_number), self.dealer)

    def play(self, move: Move | str) -> Outcome:
        """Play a move in the current hand and say what it did; the hand's result is recorded the moment it ends."""
        if self.automated[self.state.turn]:
            self._hand_automated[self.state.turn] = True
        outcome = self.state.play(move)
        if self.state.over and len(self.results) < self.hand_number:
            self._record()
        return outcome

    def _record(self) -> None:
        state = self.state
        self.results.append(
            HandResult(
                number=self.hand_number,
                dealer=state.dealer,
                winner=state.winner,
                scores=tuple(state.scores()),
                busts=tuple(state.busts),
                automated=tuple(self._hand_automated),
                deal=state.deal_code or "",
                moves=tuple(str(m) for m in state.moves),
            )
        )

    @property
    def totals(self) -> list[int]:
        """Running totals after the hands finished so far."""
        return [sum(r.scores[seat] for r in self.results) for seat in range(self.rules.players)]

    @property
    def over(self) -> bool:
        """R20: a total reached the Game End Total, or N rounds were played."""
        if not self.results or not self.state.over:
            return False
        if self.rules.end_condition == "rounds":
            return len(self.results) >= self.rules.rounds
        return max(self.totals) >= self.rules.game_end_total

    @property
    def winners(self) -> list[int]:
        """Seats with the lowest total; equal totals share the win (R20)."""
        totals = self.totals
        return [seat for seat, total in enumerate(totals) if total == min(totals)]

    def next_hand(self) -> State:
        """Deal the next hand: the winner deals, after a stalemate the deal passes left (R6).

        In Clear 4 the deal always passes left, so over one round per seat everyone leads once (R22).
        """
        if not self.state.over:
            raise ValueError("the current hand is still being played")
        if self.over:
            raise ValueError("the game is over")
        last = self.results[-1]
        if not module_of(self.rules).WINNER_DEALS or last.winner is None:
            self.dealer = (last.dealer + 1) % self.rules.players
        else:
            self.dealer = last.winner
        self.state = self.deal_hand()
        return self.state
