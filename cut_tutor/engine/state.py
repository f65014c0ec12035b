"""One hand of any game: the deal, legal moves, why a move is illegal, and applying moves (R5–R22).

A :class:`State` is the shared table of :class:`~cut_tutor.engine.core.Core` with its game's rules: every call
that depends on the rules goes to the game's module (:mod:`~cut_tutor.engine.cut` or
:mod:`~cut_tutor.engine.clear4`), found once by ``rules.game`` in :data:`~cut_tutor.engine.games.GAME_MODULES`.

A :class:`State` never draws random numbers after the deal: every blind card is already in place,
so a hand is fully reproduced by its deal code and its moves.

>>> from cut_tutor.engine import Rules, State
>>> state = State.deal(Rules(), seed=7, dealer=0)
>>> state.turn, len(state.legal_moves()) > 0
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import JOKER, WILD, card_name, names
from .core import PHASE_PLAY, Core
from .deals import deal_code
from .games import GameModule, module_of
from .moves import CLEAR, PUSH, Move
from .outcome import Outcome
from .position import position_of, read_position
from .render import state_html
from .rules import Rules


class IllegalMoveError(ValueError):
    """A move the rules do not allow here; the message names the position and says why, and the state is unchanged."""


class State(Core):
    """A hand in progress under its game's rules: every seat's cards, the pile, and whose turn it is."""

    __slots__ = ("_legal", "_legal_set", "game")

    def __init__(self, rules: Rules, dealer: int = 0) -> None:
        super().__init__(rules, dealer)
        self.game: GameModule = module_of(rules)
        self._legal: list[Move] | None = None
        self._legal_set: frozenset[Move] | None = None

    @classmethod
    def deal(cls, rules: Rules, seed: int, dealer: int = 0) -> State:
        """Shuffle with ``seed`` and deal; the seat left of ``dealer`` leads (R5, R6, R22)."""
        state = cls(rules, dealer)
        deck = rules.deck()
        random.Random(seed).shuffle(deck)
        layout = state.game.layout
        in_stacks = rules.cards_dealt - rules.hand_size
        at = 0
        for i in range(state.players):
            seat = (dealer + 1 + i) % state.players
            block = deck[at : at + rules.cards_dealt]
            at += rules.cards_dealt
            state.stacks[seat] = layout(rules, block)
            for card in block[in_stacks:]:
                state.hands[seat][card] += 1
            state.hand_count[seat] = rules.hand_size
        for card in deck[at:]:
            state.undealt[card] += 1
        state.deal_code = deal_code(rules, seed, dealer)
        return state

    # -- the game's rules -----------------------------------------------------------------------------

    def value(self) -> int:
        """The rank to play equal or lower to: the top card, or in Clear 4 the value a JOKER took (R22); 0: any."""
        return self.game.top_value(self.pile)

    def run(self) -> int:
        """How many cards of the top rank lie together on top of the pile (R10; JOKERs count in Clear 4)."""
        return self.game.run(self.pile)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, each way of playing a rank its own move (R7–R18, R22)."""
        if self._legal is None:
            self._legal = [] if self.winner is not None or self.stalemate else self.game.generate(self)
        return self._legal

    def is_legal(self, move: Move) -> bool:
        """Is ``move`` among :meth:`legal_moves`?"""
        if self._legal_set is None:
            self._legal_set = frozenset(self.legal_moves())
        return move in self._legal_set

    def why_illegal(self, move: Move) -> str | None:
        """``None`` for a legal move, else a plain-English reason citing the rule."""
        if self.is_legal(move):
            return None
        if self.over:
            return "the hand is over"
        return _foreign(self.rules, move) or self.game.why_illegal(self, move)

    def play(self, move: Move | str) -> Outcome:
        """Apply a legal move and say what it did; an illegal one raises :class:`IllegalMoveError`, changing nothing."""
        if isinstance(move, str):
            move = Move.parse(move)
        if not self.is_legal(move):
            where = self.deal_code or "position"
            raise IllegalMoveError(
                f"illegal move {str(move)!r} in {where} at ply {len(self.moves)} for seat {self.turn}:"
                f" {self.why_illegal(move)}"
            )
        return self.apply(move)

    def apply(self, move: Move) -> Outcome:
        """Apply a move known to be legal (from :meth:`legal_moves`), skipping the check for speed; say what it did."""
        self._legal = self._legal_set = None
        self.moves.append(move)
        return self.game.apply(self, move)

    # -- copying and display --------------------------------------------------------------------------

    def copy(self) -> State:
        """An independent copy, cheap enough for lookahead and rollouts."""
        new = State.__new__(State)
        new.rules = self.rules
        new.game = self.game
        new.players = self.players
        new.dealer = self.dealer
        new.deal_code = self.deal_code
        new.hands = [h[:] for h in self.hands]
        new.known = [k[:] for k in self.known]
        new.above = self.above[:]
        new.hand_count = self.hand_count[:]
        new.stacks = [[s[:] for s in seat] for seat in self.stacks]
        new.pile = self.pile[:]
        new.pile_by = self.pile_by[:]
        new.cleared = self.cleared[:]
        new.undealt = self.undealt[:]
        new.turn = self.turn
        new.phase = self.phase
        new.exposed = self.exposed[:]
        new.turned_up = self.turned_up[:]
        new.turns = self.turns
        new.busts = self.busts[:]
        new.clears = self.clears[:]
        new.blind_plays = self.blind_plays[:]
        new.winner = self.winner
        new.stalemate = self.stalemate
        new.moves = self.moves[:]
        new.turn_start = self.turn_start
        new._legal = self._legal
        new._legal_set = self._legal_set
        return new

    def taken_back(self, seat: int, rank: int, n: int) -> State:
        """A copy from before ``seat`` laid the pile's top ``n`` cards, of ``rank``, from its hand: the cards back in
        that hand, its turn from its start (the play phase, no Risk cards exposed), one turn earlier (the first turn
        at the earliest: a position set up with cards on the pile may count none before them). How a reader of the
        pile rebuilds a seat's turn (the analysis' deals);
        the caller knows the cards came from the hand (R7). Whether they were cards the table knew it held is not
        restored: the pile does not say."""
        new = self.copy()
        del new.pile[-n:], new.pile_by[-n:]
        new.hands[seat][rank] += n
        new.hand_count[seat] += n
        new.turn, new.turns, new.phase, new.exposed = seat, max(1, self.turns - 1), PHASE_PLAY, []
        new._legal = new._legal_set = None
        return new

    def with_hand(self, seat: int, cards: Sequence[int]) -> State:
        """A copy in which ``seat`` holds ``cards`` in hand instead (its known cards among them): another deal of
        the cards it hides, to ask what it would play with them."""
        new = self.copy()
        hand = [0] * len(self.hands[seat])
        for card in cards:
            hand[card] += 1
        new.hands[seat], new.hand_count[seat] = hand, len(cards)
        new._legal = new._legal_set = None
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_position() == other.to_position() and self.moves == other.moves

    __hash__ = None  # type: ignore[assignment]

    def to_position(self) -> dict[str, Any]:
        """The documented JSON position of this state (see :mod:`cut_tutor.engine.position`)."""
        return position_of(self)

    @classmethod
    def from_position(cls, data: Any) -> State:
        """A state from a JSON position; errors name the field and what is wrong."""
        return read_position(data, cls)

    def __repr__(self) -> str:
        status = f"winner={self.winner}" if self.winner is not None else f"turn={self.turn} phase={self.phase}"
        return f"<State {self.players} seats, pile [{names(self.pile)}], {status}>"

    def _repr_html_(self) -> str:
        return state_html(self)


def _foreign(rules: Rules, move: Move) -> str:
    """Why a move names what this game does not have (CUT's ``JK`` in Clear 4, Clear 4's ``J*`` or PUSH in CUT), or
    ``""``; each game's own reasons assume its own cards."""
    if move.kind == PUSH and not rules.clear4:
        return "CUT has no PUSH card: 'push' is a Clear 4 move (R22)"
    deck = set(rules.deck())
    joker = JOKER if move.kind == CLEAR else WILD  # the text names CUT's JK in a clear play, else Clear 4's J*
    for card in (move.rank, joker if move.jokers else 0):
        if card and card not in deck:
            return f"{card_name(card)} is not a card of {rules.game}"
    return ""
