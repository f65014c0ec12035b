"""The table every game shares: where each card lies, whose turn it is, and the mechanics games are built from.

Each game's module (:mod:`~cut_tutor.engine.cut`, :mod:`~cut_tutor.engine.clear4`) writes its rules with these
mechanics (spend hand cards, pop a stack, lay cards, clear the pile, pick it up, go out, pass the turn);
:class:`~cut_tutor.engine.state.State` adds the dispatch to the game, the deal and the position format.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from .cards import RANK_MASK, STACKS, UP, cards_of
from .moves import Move
from .rules import STALEMATE_TURNS, Rules

#: Turn phases: the seat starts a play, or chooses cards to add to what just landed (R13, R22), or whether to
#: gamble another exposed Risk card (R17, CUT), or whom a blind PUSH sends the pile to (R22, Clear 4).
PHASE_PLAY, PHASE_ADD, PHASE_GAMBLE, PHASE_PUSH = "play", "add", "gamble", "push"


def subsets(items: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every subset of some stack indices, smallest first (the empty one included)."""
    for size in range(len(items) + 1):
        yield from combinations(items, size)


def face_up_tops(stacks: Sequence[Sequence[int]]) -> dict[int, list[int]]:
    """The seat's face-up stack tops: rank → the stacks showing it."""
    tops: dict[int, list[int]] = {}
    for k, stack in enumerate(stacks):
        if stack and stack[-1] & UP:
            tops.setdefault(stack[-1] & RANK_MASK, []).append(k)
    return tops


class Core:
    """Every seat's cards, the pile and the turn, with the mechanics shared by the games.

    Seats are numbered from 0; play passes from seat ``i`` to ``i + 1`` (R6).
    ``hands[s][r]`` counts seat ``s``'s hand cards of rank ``r``; ``known[s][r]`` counts those of them
    every seat knows about because they came from the pile (R11); ``above[s]`` is the highest top seat ``s`` took
    bare on with cards in hand (0: none), so every hand card of it not known is an ordinary rank above that. A stack
    is a list of cards, bottom first, face-up cards carrying the ``UP`` bit.
    ``exposed`` (CUT) lists the stacks whose Risk card this turn exposed (R17); ``turned_up`` (Clear 4) the stacks
    whose middle card the last play turned up and which may join it now (R22).
    """

    __slots__ = (
        "above",
        "blind_plays",
        "busts",
        "cleared",
        "clears",
        "deal_code",
        "dealer",
        "exposed",
        "hand_count",
        "hands",
        "known",
        "moves",
        "phase",
        "pile",
        "pile_by",
        "players",
        "rules",
        "stacks",
        "stalemate",
        "turn",
        "turn_start",
        "turned_up",
        "turns",
        "undealt",
        "winner",
    )

    def __init__(self, rules: Rules, dealer: int = 0) -> None:
        n = rules.players
        self.rules = rules
        self.players = n
        self.dealer = dealer
        self.deal_code: str | None = None
        size = rules.ncodes
        self.hands = [[0] * size for _ in range(n)]
        self.known = [[0] * size for _ in range(n)]
        self.above = [0] * n
        self.hand_count = [0] * n
        self.stacks: list[list[list[int]]] = [[[] for _ in range(STACKS)] for _ in range(n)]
        self.pile: list[int] = []
        self.pile_by: list[int] = []
        self.cleared = [0] * size
        self.undealt = [0] * size
        self.turn = (dealer + 1) % n
        self.phase = PHASE_PLAY
        self.exposed: list[int] = []
        self.turned_up: list[int] = []
        self.turns = 1
        self.busts = [0] * n
        self.clears = [0] * n
        self.blind_plays = [0] * n
        self.winner: int | None = None
        self.stalemate = False
        self.moves: list[Move] = []
        self.turn_start = 0

    # -- small queries --------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Has the hand ended (a seat went out, or stalemate)?"""
        return self.winner is not None or self.stalemate

    @property
    def top(self) -> int:
        """The rank on top of the pile, or 0 for an empty pile."""
        return self.pile[-1] if self.pile else 0

    def cards_left(self, seat: int) -> int:
        """Cards a seat still holds: hand and stacks (R14)."""
        return self.hand_count[seat] + sum(len(stack) for stack in self.stacks[seat])

    def held(self, seat: int) -> list[int]:
        """Every card a seat holds, for scoring (hand, then stacks)."""
        cards = cards_of(self.hands[seat])
        for stack in self.stacks[seat]:
            cards.extend(card & RANK_MASK for card in stack)
        return cards

    def hand_points(self, seat: int) -> int:
        """R3 and R19: a seat's card points plus its bust penalty."""
        points = self.rules.points
        return sum(points[card] for card in self.held(seat)) + self.busts[seat] * self.rules.bust_penalty

    def scores(self) -> list[int]:
        """Every seat's score for this hand: the winner scores only bust penalties (R19, R20)."""
        return [self.hand_points(seat) for seat in range(self.players)]

    def pile_points(self) -> int:
        """What the pile would cost to take, in card points."""
        points = self.rules.points
        return sum(points[card] for card in self.pile)

    @property
    def next_seat(self) -> int | None:
        """The seat to move, or ``None`` once the hand is over (an :class:`~.outcome.Outcome`'s ``next_seat``)."""
        return None if self.winner is not None or self.stalemate else self.turn

    # -- shared mechanics -----------------------------------------------------------------------------

    def spend_hand(self, seat: int, rank: int, n: int) -> None:
        """Take ``n`` cards of ``rank`` from a hand; known (picked-up) cards are spent first."""
        self.hands[seat][rank] -= n
        self.hand_count[seat] -= n
        known = self.known[seat]
        if known[rank]:
            left = known[rank] - n
            known[rank] = left if left > 0 else 0

    def pop_stack(self, seat: int, k: int) -> int:
        """Remove a stack's top card and return its rank."""
        return self.stacks[seat][k].pop() & RANK_MASK

    def lay(self, seat: int, cards: Sequence[int]) -> None:
        """Put cards on the pile, each marked with the seat that laid it."""
        self.pile.extend(cards)
        self.pile_by.extend([seat] * len(cards))

    def clear_pile(self, seat: int) -> tuple[int, ...]:
        """The pile leaves the game and the seat takes another turn unless it went out (R9, R10, R22).

        Returns the cards swept.
        """
        swept = tuple(self.pile)
        for card in swept:
            self.cleared[card] += 1
        self.pile.clear()
        self.pile_by.clear()
        self.clears[seat] += 1
        if not self.gone_out(seat):
            self.new_turn(seat)
        return swept

    def pick_up(self, seat: int) -> tuple[int, ...]:
        """The pile joins a seat's hand, every card known to all, and counts as its bust (R11, R22).

        Returns the cards taken; an empty pile is no bust. The turn does not pass: the game says who moves next.
        """
        taken = tuple(self.pile)
        if not taken:
            return taken
        hand, known = self.hands[seat], self.known[seat]
        for card in taken:
            hand[card] += 1
            known[card] += 1
        self.hand_count[seat] += len(taken)
        self.pile.clear()
        self.pile_by.clear()
        self.busts[seat] += 1
        return taken

    def gone_out(self, seat: int) -> bool:
        """Has ``seat`` played its last card? If so it wins the hand (R14), which ends like any other: no step is
        left open, not an addition nor a blind PUSH's seat (R13, R22), so its position loads back."""
        if self.hand_count[seat] or any(self.stacks[seat]):
            return False
        self.winner = seat
        self.phase = PHASE_PLAY
        if self.exposed:
            self.exposed.clear()
        if self.turned_up:
            self.turned_up.clear()
        return True

    def new_turn(self, seat: int) -> None:
        """``seat`` starts a turn; a hand that lasts too long ends as a stalemate (R15)."""
        self.turn = seat
        self.phase = PHASE_PLAY
        if self.exposed:
            self.exposed.clear()
        if self.turned_up:
            self.turned_up.clear()
        self.turn_start = len(self.moves)
        self.turns += 1
        if self.turns > STALEMATE_TURNS:
            self.stalemate = True

    def next_turn(self) -> None:
        """The turn passes to the next seat (R6)."""
        self.new_turn((self.turn + 1) % self.players)
