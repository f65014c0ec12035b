"""One hand of CUT: the deal, legal moves, why a move is illegal, and applying moves (R5–R20).

Under Clear 4 rules (R22) the same state plays Clear 4: its three rule-bound calls go, once per call, to
:mod:`cut_tutor.engine.clear4`.

A :class:`State` never draws random numbers after the deal: every blind card is already in place,
so a hand is fully reproduced by its deal code and its moves.

>>> from cut_tutor.engine import Rules, State
>>> state = State.deal(Rules(), seed=7, dealer=0)
>>> state.turn, len(state.legal_moves()) > 0
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from .cards import JOKER, NRANKS, RANK_MASK, UP, card_name, cards_of, names
from .moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, TAKE, TURNUP, Move
from .rules import STALEMATE_TURNS, Rules

#: Turn phases: the seat either starts a play, chooses cards to add to a landed blind card (R13),
#: or chooses whether to gamble another exposed Risk card (R17); in Clear 4, whom a blind PUSH goes to (R22).
PHASE_PLAY, PHASE_ADD, PHASE_GAMBLE, PHASE_PUSH = "play", "add", "gamble", "push"
#: A count above any real cap, used when 4+ Card Clears lifts the USA cap (R10).
_NO_CAP = 99


class IllegalMoveError(ValueError):
    """A move the rules do not allow here; the message says why and the state is unchanged."""


def _subsets(items: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every subset of some stack indices, smallest first (the empty one included)."""
    for size in range(len(items) + 1):
        yield from combinations(items, size)


#: Interned moves: the common ones are built once, not on every call of :meth:`State.legal_moves`.
#: Enough copies of a rank for the largest deck count (12 decks of four).
_INTERNED = 49
_PLAYS = [[Move(PLAY, rank, n) for n in range(_INTERNED)] for rank in range(NRANKS)]
#: Per rank and cards held: every hand-only play, under the USA cap of four (R10) and without it.
_CAPPED = [[row[1 : min(held, 4) + 1] for held in range(_INTERNED)] for row in _PLAYS]
_UNCAPPED = [[row[1 : held + 1] for held in range(_INTERNED)] for row in _PLAYS]
_FLIP = [Move(FLIP, stacks=(k,)) for k in range(9)]
_TURNUP = [Move(TURNUP, stacks=(k,)) for k in range(9)]
_GAMBLE = [Move(GAMBLE, stacks=(k,)) for k in range(9)]
_TAKE, _DONE = Move(TAKE), Move(DONE)
_SHOW = [Move(TAKE, rank, 1) for rank in range(NRANKS)]


class State:
    """A hand in progress: every seat's cards, the pile, and whose turn it is.

    Seats are numbered from 0; play passes from seat ``i`` to ``i + 1`` (R6).
    ``hands[s][r]`` counts seat ``s``'s hand cards of rank ``r``; ``known[s][r]`` counts those of them
    every seat knows about because they came from the pile (R11). A stack is a list of cards, bottom
    first, face-up cards carrying the ``UP`` bit.
    """

    __slots__ = (
        "_legal",
        "_legal_set",
        "blind_plays",
        "busts",
        "clear4",
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
        "turns",
        "undealt",
        "winner",
    )

    def __init__(self, rules: Rules, dealer: int = 0) -> None:
        n = rules.players
        self.rules = rules
        self.clear4 = rules.game == "Clear 4"
        self.players = n
        self.dealer = dealer
        self.deal_code: str | None = None
        size = rules.ncodes
        self.hands = [[0] * size for _ in range(n)]
        self.known = [[0] * size for _ in range(n)]
        self.hand_count = [0] * n
        self.stacks: list[list[list[int]]] = [[[] for _ in range(rules.stacks)] for _ in range(n)]
        self.pile: list[int] = []
        self.pile_by: list[int] = []
        self.cleared = [0] * size
        self.undealt = [0] * size
        self.turn = (dealer + 1) % n
        self.phase = PHASE_PLAY
        self.exposed: list[int] = []
        self.turns = 1
        self.busts = [0] * n
        self.clears = [0] * n
        self.blind_plays = [0] * n
        self.winner: int | None = None
        self.stalemate = False
        self.moves: list[Move] = []
        self.turn_start = 0
        self._legal: list[Move] | None = None
        self._legal_set: frozenset[Move] | None = None

    # -- the deal (R5, R6) ----------------------------------------------------------------------------

    @classmethod
    def deal(cls, rules: Rules, seed: int, dealer: int = 0) -> State:
        """Shuffle with ``seed`` and deal; the seat left of ``dealer`` leads (R5, R6)."""
        from .codes import deal_code

        state = cls(rules, dealer)
        deck = rules.deck()
        random.Random(seed).shuffle(deck)
        face = 0 if rules.piles_face_down else UP
        at = 0
        for i in range(state.players):
            seat = (dealer + 1 + i) % state.players
            block = deck[at : at + rules.cards_dealt]
            at += rules.cards_dealt
            if state.clear4:  # R22: blind final card, blind middle card, face-up top
                for k in range(rules.stacks):
                    state.stacks[seat][k] = [block[k], block[rules.stacks + k], block[2 * rules.stacks + k] | UP]
            else:
                for k in range(rules.stacks):
                    state.stacks[seat][k] = [block[k], block[rules.stacks + k] | face]
            for card in block[rules.stack_depth * rules.stacks :]:
                state.hands[seat][card] += 1
            state.hand_count[seat] = rules.hand_size
        for card in deck[at:]:
            state.undealt[card] += 1
        state.deal_code = deal_code(rules, seed, dealer)
        return state

    # -- small queries --------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Has the hand ended (a seat went out, or stalemate)?"""
        return self.winner is not None or self.stalemate

    @property
    def top(self) -> int:
        """The rank on top of the pile, or 0 for an empty pile."""
        return self.pile[-1] if self.pile else 0

    def value(self) -> int:
        """The rank to play equal or lower to: the top card, or in Clear 4 the value a JOKER took (R22); 0: any."""
        if self.clear4:
            return _c4.top_value(self.pile)
        return self.pile[-1] if self.pile else 0

    def run(self) -> int:
        """How many cards of the top rank lie together on top of the pile (R10; JOKERs count in Clear 4)."""
        if self.clear4:
            return _c4.run(self.pile)
        pile = self.pile
        if not pile:
            return 0
        top, k = pile[-1], len(pile) - 1
        while k > 0 and pile[k - 1] == top:
            k -= 1
        return len(pile) - k

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

    def _face_up_tops(self, seat: int) -> list[int]:
        return [k for k, stack in enumerate(self.stacks[seat]) if stack and stack[-1] & UP]

    def _blind_allowed(self, seat: int) -> list[int]:
        """Stacks whose face-down top may be played blind now, given the hand is empty or R16 is on (R7, R16)."""
        face_down = self.rules.piles_face_down
        stacks = self.stacks[seat]
        down = [k for k, stack in enumerate(stacks) if stack and not stack[-1] & UP]
        if not down or face_down:
            return down
        if any(stack and stack[-1] & UP for stack in stacks):
            return []
        return down

    def _stacks_free(self, seat: int) -> bool:
        """May face-up stack tops join any play, not only one that empties the hand (R7, R16)?"""
        return self.rules.piles_face_down or self.hand_count[seat] == 0

    def _cap(self, rank: int) -> int:
        """The most cards of ``rank`` one play may lay here: USA stops at four on the pile (R10)."""
        if self.rules.four_plus_clears:
            return _NO_CAP
        return 4 - self.run() if self.pile and self.pile[-1] == rank else 4

    # -- legal moves ----------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, each way of playing a rank its own move (R7–R18)."""
        if self._legal is None:
            if self.winner is not None or self.stalemate:  # over
                self._legal = []
            else:
                self._legal = _c4.generate(self) if self.clear4 else self._generate()
        return self._legal

    def is_legal(self, move: Move) -> bool:
        """Is ``move`` among :meth:`legal_moves`?"""
        if self._legal_set is None:
            self._legal_set = frozenset(self.legal_moves())
        return move in self._legal_set

    def _generate(self) -> list[Move]:
        seat = self.turn
        if self.phase != PHASE_PLAY:
            if self.phase == PHASE_ADD:
                return [Move(ADD), *self._addition_moves(seat)]
            return [*(_GAMBLE[k] for k in self._gamble_offer()), _DONE]
        free = self._stacks_free(seat)
        moves = self._plays(seat, free)
        blind = self._blind_allowed(seat) if free else None  # hand first (R7): no blind play while cards are in hand
        if blind:
            moves.extend([_FLIP[k] for k in blind])
            if self.rules.pile_card_flip:
                moves.extend([_TURNUP[k] for k in blind])
        if not self.pile:
            return moves
        if not moves:
            return [_TAKE]
        moves.extend(self._deliberate_takes(seat, free))
        return moves

    def _plays(self, seat: int, free: bool) -> list[Move]:
        """Number plays (R8) and clear plays (R9) from the seat's sources (R7, R16)."""
        moves: list[Move] = []
        hand = self.hands[seat]
        pile = self.pile
        rules = self.rules
        is_clear = rules.is_clear
        hand_count = self.hand_count[seat]
        clear_held = hand[JOKER] + (hand[rules.clear_rank] if rules.clear_rank else 0)
        tops: dict[int, list[int]] = {}
        # Stack tops join a play freely, or only the play that empties a hand of one rank (or of clears) (R7):
        # with a mixed hand, as most of the time, no stack card can join anything.
        if free or max(hand) == hand_count or clear_held == hand_count:
            for k, stack in enumerate(self.stacks[seat]):
                if stack and stack[-1] & UP:
                    tops.setdefault(stack[-1] & RANK_MASK, []).append(k)
        join = tops if free or not tops else {r: ks for r, ks in tops.items() if hand[r] == hand_count}
        no_cap = rules.four_plus_clears
        table = _UNCAPPED if no_cap else _CAPPED
        top = pile[-1] if pile else 0
        if not join:  # the common case: hand cards only, every rank below the top at its usual cap
            moves = [m for rank in rules.ranks_below[top] if hand[rank] for m in table[rank][hand[rank]]]
            if top and hand[top]:
                top_cap = _NO_CAP if no_cap else 4 - self.run()
                moves.extend(_PLAYS[top][1 : min(hand[top], top_cap) + 1])
        else:
            top_cap = _NO_CAP if no_cap else (4 - self.run() if pile else 4)
            for rank in rules.number_ranks:
                if top and rank > top:
                    break
                held = hand[rank]
                cap = top_cap if rank == top else (_NO_CAP if no_cap else 4)
                moves.extend(_PLAYS[rank][1 : min(held, cap) + 1])
                mine = join.get(rank)
                if mine:
                    for n in range(held + 1) if free else (held,):
                        for subset in _subsets(mine):
                            if subset and n + len(subset) <= cap:
                                moves.append(Move(PLAY, rank, n, subset))
        clear_tops = [k for rank, ks in tops.items() if is_clear[rank] for k in ks] if tops else []
        if clear_held or clear_tops:
            moves.extend(self._clear_plays(seat, sorted(clear_tops), free))
        return moves

    def _clear_plays(self, seat: int, mine: list[int], free: bool) -> Iterator[Move]:
        """Clear plays of any mix of clear-rank cards and Jokers (R9); ``mine``: face-up clear stack tops."""
        hand = self.hands[seat]
        clear_rank = self.rules.clear_rank or 0
        tens = hand[clear_rank] if clear_rank else 0
        jokers = hand[JOKER]
        if not (tens or jokers or mine):
            return
        empties_hand = tens + jokers == self.hand_count[seat]
        for a in range(tens + 1):
            for b in range(jokers + 1):
                with_stacks = free or (empties_hand and a == tens and b == jokers)
                for subset in _subsets(mine) if with_stacks else [()]:
                    if a or b or subset:
                        yield Move(CLEAR, clear_rank if a else 0, a, subset, b)

    def _deliberate_takes(self, seat: int, free: bool) -> list[Move]:
        """Taking the pile on purpose by showing a card above the top (R11)."""
        top = self.pile[-1]
        is_clear = self.rules.is_clear
        hand = self.hands[seat]
        takes = [_SHOW[rank] for rank in range(top + 1, NRANKS) if hand[rank] and not is_clear[rank]]
        if free:  # face-up tops are sources too (R7, R16)
            for k in self._face_up_tops(seat):
                rank = self.stacks[seat][k][-1] & RANK_MASK
                if rank > top and not is_clear[rank]:
                    takes.append(Move(TAKE, rank, 0, (k,)))
        return takes

    def _addition_moves(self, seat: int) -> Iterator[Move]:
        """R13: after a blind card lands, the ways to add 1, 2 … cards of its rank (``add 0`` aside)."""
        rank = self.pile[-1]
        cap = self._cap(rank)
        held = self.hands[seat][rank]
        for n in range(1, min(held, cap) + 1):
            yield Move(ADD, rank, n)
        mine = [k for k in self._face_up_tops(seat) if self.stacks[seat][k][-1] & RANK_MASK == rank]
        if not mine:
            return
        if self._stacks_free(seat):
            counts = range(held + 1)
        elif held == self.hand_count[seat]:
            counts = range(held, held + 1)
        else:
            return
        for n in counts:
            for subset in _subsets(mine):
                if subset and n + len(subset) <= cap:
                    yield Move(ADD, rank, n, subset)

    def _gamble_offer(self) -> list[int]:
        """R17: exposed Risk cards of this turn still face-down on top of their stacks."""
        stacks = self.stacks[self.turn]
        return [k for k in self.exposed if stacks[k] and not stacks[k][-1] & UP]

    # -- why a move is illegal ------------------------------------------------------------------------

    def why_illegal(self, move: Move) -> str | None:
        """``None`` for a legal move, else a plain-English reason citing the rule."""
        if self.is_legal(move):
            return None
        if self.over:
            return "the hand is over"
        if self.clear4:
            return _c4.why_illegal(self, move)
        seat = self.turn
        kind = move.kind
        if self.phase == PHASE_ADD:
            if kind != ADD:
                return (
                    f"your blind {card_name(self.top)} has landed: first choose which matching cards to add"
                    " ('add 0' adds none) (R13)"
                )
            if move.size and move.rank != self.top:
                return f"only cards of your landed blind card's rank ({card_name(self.top)}) can be added (R13)"
            return self._why_cards(seat, move) or self._why_cap(move) or "that addition is not allowed here (R13)"
        if self.phase == PHASE_GAMBLE:
            if kind == GAMBLE:
                return f"stack {move.stacks[0] + 1} has no exposed Risk card to gamble this turn (R17)"
            return "choose a Risk card to gamble or 'done' (R17)"
        if kind in (ADD, GAMBLE, DONE):
            return {
                ADD: "cards are added only after a blind card lands (R13)",
                GAMBLE: "a gamble follows only a play that spent a Board card, with Risk Play on (R17)",
                DONE: "'done' only ends a run of Risk gambles (R17)",
            }[kind]
        if kind == TAKE:
            return self._why_take(seat, move)
        if kind in (FLIP, TURNUP):
            return self._why_blind(seat, move)
        return self._why_cards(seat, move) or self._why_play(move)

    def _why_take(self, seat: int, move: Move) -> str:
        if not self.pile:
            return "there is nothing to take from an empty pile (R11)"
        if not move.rank:
            return "you have a legal play, so to take the pile you must show a card above the top (R11)"
        if self.rules.is_clear[move.rank]:
            return "a clear card is never higher: it cannot be shown to take the pile (R11)"
        if move.rank <= self.top:
            return f"the card shown to take must be above the top ({card_name(self.top)}) (R11)"
        if not any(m.kind != TAKE for m in self.legal_moves()):
            return "you have no legal play: take the pile with 'take' (R11)"
        return self._why_cards(seat, move) or "you can only show a card you may play from (R7, R11)"

    def _why_blind(self, seat: int, move: Move) -> str:
        k = move.stacks[0]
        if k >= self.rules.stacks or not self.stacks[seat][k]:
            return f"stack {k + 1} is empty"
        if self.stacks[seat][k][-1] & UP:
            return f"stack {k + 1}'s top card is face-up: play it as a card (R7)"
        if move.kind == TURNUP and not self.rules.pile_card_flip:
            return "turning a card up needs the Pile Card Flip rule (R18)"
        if self.hand_count[seat]:
            return "a face-down card is played blind only once your hand is empty (R7)"
        return "a face-down card is played blind only when no face-up stack card remains (R7)"

    def _why_cards(self, seat: int, move: Move) -> str | None:
        """Reasons about the cards themselves: held, on which stacks, and how many."""
        hand = self.hands[seat]
        if any(k >= self.rules.stacks for k in move.stacks):
            return f"there are only {self.rules.stacks} stacks"
        for k in move.stacks:
            stack = self.stacks[seat][k]
            if not stack:
                return f"stack {k + 1} is empty"
            if not stack[-1] & UP:
                return f"stack {k + 1}'s top card is face-down: it is played blind with 'flip {k + 1}' (R7, R12)"
            want = move.rank if move.kind != CLEAR else -1
            got = stack[-1] & RANK_MASK
            if want >= 0 and got != want:
                return f"stack {k + 1}'s top card is {card_name(got)}, not {card_name(want)}"
            if want < 0 and not self.rules.is_clear[got]:
                return f"stack {k + 1}'s top card {card_name(got)} is not a clear card"
        if move.kind == CLEAR:
            if move.n and move.rank != self.rules.clear_rank:
                what = card_name(self.rules.clear_rank) + "s and Jokers" if self.rules.clear_rank else "Jokers"
                return f"{card_name(move.rank)} is not a clear card: only {what} clear (R2)"
            if hand[move.rank] < move.n or hand[JOKER] < move.jokers:
                return "you do not hold those clear cards"
        elif move.n and hand[move.rank] < move.n:
            return f"you hold {hand[move.rank]} {card_name(move.rank)} in your hand, not {move.n}"
        if move.stacks and not self._stacks_free(seat):
            used = move.n + move.jokers
            if used != self.hand_count[seat]:
                return "face-up stack cards join a play only when that play empties your hand (R7)"
        if move.kind != TAKE and move.n + move.jokers == 0 and not move.stacks:
            return "a play needs at least one card"
        if move.n and not move.stacks and self.hand_count[seat] == 0:
            return "your hand is empty"
        return None

    def _why_play(self, move: Move) -> str:
        if move.kind == CLEAR:
            return "that clear play is not allowed here (R9)"
        if self.rules.is_clear[move.rank]:
            return f"{card_name(move.rank)} is a clear card: play it as 'clear {card_name(move.rank)}' (R9)"
        if self.pile and move.rank > self.top:
            return f"{card_name(move.rank)} is above the pile top {card_name(self.top)}: play equal or lower (R8)"
        return self._why_cap(move) or "that play is not allowed here (R7, R8)"

    def _why_cap(self, move: Move) -> str | None:
        """The USA cap (R10), which also limits additions to a landed blind card (R13)."""
        cap = self._cap(move.rank)
        if move.size > cap:
            return f"USA rules: at most {cap} {card_name(move.rank)} may be laid to reach four on the pile (R10)"
        return None

    # -- applying moves -------------------------------------------------------------------------------

    def play(self, move: Move | str) -> None:
        """Apply a legal move; an illegal one raises :class:`IllegalMoveError` and changes nothing."""
        if isinstance(move, str):
            move = Move.parse(move)
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {str(move)!r} for seat {self.turn}: {self.why_illegal(move)}")
        self.apply(move)

    def apply(self, move: Move) -> None:
        """Apply a move known to be legal (from :meth:`legal_moves`); skips the check for speed."""
        self._legal = self._legal_set = None
        self.moves.append(move)
        if self.clear4:
            _c4.apply(self, move)
            return
        seat = self.turn
        kind, _, n, stacks, jokers, _ = move
        if kind in (PLAY, ADD):
            if n or stacks or jokers:
                self._lay(seat, move)
            self._after_play(seat)
        elif kind == CLEAR:
            self._lay(seat, move)
            self._clear_pile(seat)
        elif kind == TAKE:
            self._take(seat, move)
        elif kind in (FLIP, GAMBLE):
            if kind == GAMBLE:
                self.exposed.remove(move.stacks[0])
            self._blind(seat, move.stacks[0])
        elif kind == TURNUP:
            stack = self.stacks[seat][move.stacks[0]]
            stack[-1] |= UP
            self._next_turn()
        else:  # DONE
            self._next_turn()

    def _spend_hand(self, seat: int, rank: int, n: int) -> None:
        """Take ``n`` cards of ``rank`` from a hand; known (picked-up) cards are spent first."""
        self.hands[seat][rank] -= n
        self.hand_count[seat] -= n
        known = self.known[seat]
        if known[rank]:
            known[rank] = max(0, known[rank] - n)

    def _pop_stack(self, seat: int, k: int) -> int:
        """Remove a stack's top card; note a Board card whose Risk card it uncovers (R17)."""
        stack = self.stacks[seat][k]
        card = stack.pop()
        if card & UP and stack and not stack[-1] & UP and k not in self.exposed:
            self.exposed.append(k)
        return card & RANK_MASK

    def _lay(self, seat: int, move: Move) -> None:
        kind, rank, n, stacks, jokers, _ = move
        if not stacks and not jokers and kind != CLEAR:  # the common case: hand cards of one rank
            self._spend_hand(seat, rank, n)
            self.pile.extend([rank] * n)
            self.pile_by.extend([seat] * n)
            return
        if move.n:
            self._spend_hand(seat, move.rank, move.n)
        if move.jokers:
            self._spend_hand(seat, JOKER, move.jokers)
        laid = [move.rank] * move.n + [JOKER] * move.jokers
        laid += [self._pop_stack(seat, k) for k in move.stacks]
        if move.kind == CLEAR:
            for card in laid:
                self.cleared[card] += 1
        else:
            self.pile.extend(laid)
            self.pile_by.extend([seat] * len(laid))

    def _gone_out(self, seat: int) -> bool:
        if self.hand_count[seat] or any(self.stacks[seat]):
            return False
        self.winner = seat
        return True

    def _after_play(self, seat: int) -> None:
        """After cards land: going out (R14), a natural clear (R10), a gamble offer (R17), or pass."""
        if self._gone_out(seat):
            return
        pile = self.pile
        if len(pile) >= 4 and pile[-1] == pile[-2] == pile[-3] == pile[-4]:  # four of a rank on top (R10)
            self._clear_pile(seat)
        elif self.rules.risk_play and self._gamble_offer():
            self.phase = PHASE_GAMBLE
        else:
            self._next_turn()

    def _clear_pile(self, seat: int) -> None:
        """The pile leaves the game and the seat takes another turn (R9, R10)."""
        for card in self.pile:
            self.cleared[card] += 1
        self.pile.clear()
        self.pile_by.clear()
        self.clears[seat] += 1
        if not self._gone_out(seat):
            self._new_turn(seat)

    def _blind(self, seat: int, k: int) -> None:
        """R12: turn a face-down stack top onto the pile."""
        card = self._pop_stack(seat, k)
        self.blind_plays[seat] += 1
        if self.rules.is_clear[card]:
            self.cleared[card] += 1
            self._clear_pile(seat)
        elif not self.pile or card <= self.pile[-1]:
            self.pile.append(card)
            self.pile_by.append(seat)
            if self._gone_out(seat):
                return
            if next(self._addition_moves(seat), None) is not None:
                self.phase = PHASE_ADD
            else:
                self._after_play(seat)
        else:
            self.pile.append(card)
            self.pile_by.append(seat)
            self._pick_up(seat)

    def _take(self, seat: int, move: Move) -> None:
        """R11: show a card (or not) and take the pile into the hand."""
        if move.n:
            self._spend_hand(seat, move.rank, 1)
            self.pile.append(move.rank)
            self.pile_by.append(seat)
        elif move.stacks:
            self.pile.append(self._pop_stack(seat, move.stacks[0]))
            self.pile_by.append(seat)
        self._pick_up(seat)

    def _pick_up(self, seat: int) -> None:
        """The pile joins the hand, every card known to all; a bust, and the turn ends (R11)."""
        hand, known = self.hands[seat], self.known[seat]
        for card in self.pile:
            hand[card] += 1
            known[card] += 1
        self.hand_count[seat] += len(self.pile)
        self.pile.clear()
        self.pile_by.clear()
        self.busts[seat] += 1
        self._next_turn()

    def _new_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = PHASE_PLAY
        if self.exposed:
            self.exposed.clear()
        self.turn_start = len(self.moves)
        self.turns += 1
        if self.turns > STALEMATE_TURNS:
            self.stalemate = True

    def _next_turn(self) -> None:
        self._new_turn((self.turn + 1) % self.players)

    # -- copying and display --------------------------------------------------------------------------

    def copy(self) -> State:
        """An independent copy, cheap enough for lookahead and rollouts."""
        new = State.__new__(State)
        new.rules = self.rules
        new.clear4 = self.clear4
        new.players = self.players
        new.dealer = self.dealer
        new.deal_code = self.deal_code
        new.hands = [h[:] for h in self.hands]
        new.known = [k[:] for k in self.known]
        new.hand_count = self.hand_count[:]
        new.stacks = [[s[:] for s in seat] for seat in self.stacks]
        new.pile = self.pile[:]
        new.pile_by = self.pile_by[:]
        new.cleared = self.cleared[:]
        new.undealt = self.undealt[:]
        new.turn = self.turn
        new.phase = self.phase
        new.exposed = self.exposed[:]
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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_position() == other.to_position() and self.moves == other.moves

    __hash__ = None  # type: ignore[assignment]

    def to_position(self) -> dict[str, Any]:
        """The documented JSON position of this state (see :mod:`cut_tutor.engine.codes`)."""
        from .codes import position_of

        return position_of(self)

    @classmethod
    def from_position(cls, data: Any) -> State:
        """A state from a JSON position; errors name the field and what is wrong."""
        from .codes import state_from_position

        return state_from_position(data)

    def __repr__(self) -> str:
        status = f"winner={self.winner}" if self.winner is not None else f"turn={self.turn} phase={self.phase}"
        return f"<State {self.players} seats, pile [{names(self.pile)}], {status}>"

    def _repr_html_(self) -> str:
        from .render import state_html

        return state_html(self)


from . import clear4 as _c4  # noqa: E402  (Clear 4 uses this module's State: imported once it exists)
