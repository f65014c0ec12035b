"""CUT (R5–R20): its deal layout, legal moves and applying a move; its limits on a play
(:mod:`~cut_tutor.engine.cut_limits`) and its reasons for a refusal (:mod:`~cut_tutor.engine.cut_reasons`).

A :class:`~cut_tutor.engine.state.State` whose rules say ``game="CUT"`` sends its rule-bound calls here; this
module writes CUT's rules with the shared mechanics of :class:`~cut_tutor.engine.core.Core`.
Stacks hold two cards, bottom first: the Risk card (face-down) under the Board card (face-up, or face-down
with Piles Face Down, R16).

>>> from cut_tutor.engine import Rules, State
>>> state = State.deal(Rules(), seed=1)
>>> [len(stack) for stack in state.stacks[0]], state.hand_count[0]
([2, 2, 2, 2], 12)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from . import cut_reasons
from .cards import JOKER, NRANKS, RANK_MASK, STACKS, UP
from .core import PHASE_ADD, PHASE_GAMBLE, PHASE_PLAY, Core, face_up_tops, subsets
from .cut_limits import NO_CAP, blind_allowed, play_cap, stacks_free
from .cut_limits import completes_four as completes_four
from .cut_limits import run as run
from .cut_limits import top_value as top_value
from .game_words import Vocabulary
from .moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, TAKE, TURNUP, Move
from .outcome import BUST, LANDED, NATURAL, OUT, PASS, Outcome
from .outcome import CLEAR as CLEARED
from .rules import CUT, Rules, auto_decks

NAME = CUT
#: The phases of a CUT turn (R13, R17).
PHASES: tuple[str, ...] = (PHASE_PLAY, PHASE_ADD, PHASE_GAMBLE)
#: A deal code writes the number of decks (see :mod:`~cut_tutor.engine.deals`).
DECK_CODE: str | None = None
#: R6: the seat that went out deals the next hand.
WINNER_DEALS = True
#: Cards that never lie on the pile besides the clear cards, with the reason: none in CUT.
OFF_PILE: dict[int, str] = {}
#: CUT's own words: a Joker in prose, a take named by the card it shows (R11), a clear play by its count (R9), and
#: a landed blind card as card 1 of what is added to it (R13).
WORDS = Vocabulary(prose={"JK": "Joker"}, landed_first=True, blurb="the card game")
#: An Outcome from the full tuple of its fields, without NamedTuple's argument handling: for the bust, a third of moves.
_outcome = tuple.__new__

#: Interned moves: the common ones are built once, not on every call of :func:`generate`.
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
_LAYS = (PLAY, ADD)
#: The cards a hand-only play lays, per rank and count: built once, as the moves are.
_LAID = [[(rank,) * n for n in range(_INTERNED)] for rank in range(NRANKS)]
#: Per rank and count, the landed outcomes of hand-only plays met so far, by seat and next seat: most moves are
#: one, and building a new outcome for each would cost the engine benchmark several per cent. Index: seat × 9 +
#: next seat (8: none), for up to 8 seats.
_LANDED: list[list[list[Outcome | None]]] = [[[None] * (8 * 9) for _ in range(_INTERNED)] for _ in range(NRANKS)]
_SHOW = [Move(TAKE, rank, 1) for rank in range(NRANKS)]


# -- the deal and the pile ------------------------------------------------------------------------------------


def layout(rules: Rules, block: Sequence[int]) -> list[list[int]]:
    """A seat's four stacks from its dealt cards: Risk cards first, then Board cards on top (R5, R16)."""
    face = 0 if rules.piles_face_down else UP
    return [[block[k], block[STACKS + k] | face] for k in range(STACKS)]


def rules_for(players: int, decks: int, dealt: int) -> Rules:
    """The rules a deal code implies when none are given: USA's, with the code's seats, decks and cards."""
    auto = decks == auto_decks(players) if 2 <= players <= 8 else False
    return Rules(players=players, decks=None if auto else decks, cards_dealt=dealt)


def offered(state: Core) -> list[int]:
    """The stacks a position's and a view's ``exposed`` field lists: Risk cards exposed this turn (R17)."""
    return state.exposed


def add_to_view(state: Core, view: dict[str, Any]) -> None:
    """CUT's pile cards count as their own rank: a view needs nothing more."""


def why_illegal(state: Core, move: Move) -> str:
    """A plain-English reason, citing the rule, for a move :func:`generate` does not list, in CUT's words."""
    return cut_reasons.why_illegal(state, move, WORDS)


# -- legal moves ------------------------------------------------------------------------------------------


def generate(state: Core) -> list[Move]:
    """Every legal move of the seat to move, each way of playing a rank its own move (R7–R18)."""
    seat = state.turn
    if state.phase != PHASE_PLAY:
        if state.phase == PHASE_ADD:
            return [Move(ADD), *_additions(state, seat)]
        return [*(_GAMBLE[k] for k in _gamble_offer(state)), _DONE]
    free = stacks_free(state, seat)
    moves = _plays(state, seat, free)
    blind = blind_allowed(state, seat) if free else None  # hand first (R7): no blind play while cards are in hand
    if blind:
        moves.extend([_FLIP[k] for k in blind])
        if state.rules.pile_card_flip:
            moves.extend([_TURNUP[k] for k in blind])
    if not state.pile:
        return moves
    if not moves:  # a bust: take bare, or show a higher card, say to uncover the stack card beneath it (R11)
        moves.append(_TAKE)
    moves.extend(_deliberate_takes(state, seat, free))
    return moves


def _plays(state: Core, seat: int, free: bool) -> list[Move]:
    """Number plays (R8) and clear plays (R9) from the seat's sources (R7, R16)."""
    hand = state.hands[seat]
    rules = state.rules
    is_clear = rules.is_clear
    hand_count = state.hand_count[seat]
    clear_held = hand[JOKER] + (hand[rules.clear_rank] if rules.clear_rank else 0)
    tops: dict[int, list[int]] = {}
    # Stack tops join a play freely, or only the play that empties a hand of one rank (or of clears) (R7):
    # with a mixed hand, as most of the time, no stack card can join anything. (``hand_count in hand``: the hand
    # is one rank; it reads the counts faster than max() would.)
    if free or hand_count in hand or clear_held == hand_count:
        tops = face_up_tops(state.stacks[seat])
    join = tops if free or not tops else {r: ks for r, ks in tops.items() if hand[r] == hand_count}
    moves = _joined_plays(state, seat, join, free) if join else _hand_plays(state, seat)
    clear_tops = [k for rank, ks in tops.items() if is_clear[rank] for k in ks] if tops else []
    if clear_held or clear_tops:
        moves.extend(_clear_plays(state, seat, sorted(clear_tops), free))
    return moves


def _hand_plays(state: Core, seat: int) -> list[Move]:
    """The common case: number plays of hand cards only, every rank below the top at its usual cap (R8)."""
    hand, pile, rules = state.hands[seat], state.pile, state.rules
    no_cap = rules.four_plus_clears
    table = _UNCAPPED if no_cap else _CAPPED
    top = pile[-1] if pile else 0
    moves = [m for rank in rules.ranks_below[top] if hand[rank] for m in table[rank][hand[rank]]]
    if top and hand[top]:
        top_cap = NO_CAP if no_cap else 4 - run(pile)
        moves.extend(_PLAYS[top][1 : min(hand[top], top_cap) + 1])
    return moves


def _joined_plays(state: Core, seat: int, join: dict[int, list[int]], free: bool) -> list[Move]:
    """Number plays when face-up stack tops may join them: ``join`` holds them by rank (R7, R8, R16)."""
    hand, pile, rules = state.hands[seat], state.pile, state.rules
    no_cap = rules.four_plus_clears
    top = pile[-1] if pile else 0
    top_cap = NO_CAP if no_cap else (4 - run(pile) if pile else 4)
    moves: list[Move] = []
    for rank in rules.number_ranks:
        if top and rank > top:
            break
        held = hand[rank]
        cap = top_cap if rank == top else (NO_CAP if no_cap else 4)
        moves.extend(_PLAYS[rank][1 : min(held, cap) + 1])
        mine = join.get(rank)
        if mine:
            for n in range(held + 1) if free else (held,):
                for subset in subsets(mine):
                    if subset and n + len(subset) <= cap:
                        moves.append(Move(PLAY, rank, n, subset))
    return moves


def _clear_plays(state: Core, seat: int, mine: list[int], free: bool) -> Iterator[Move]:
    """Clear plays of any mix of clear-rank cards and Jokers (R9); ``mine``: face-up clear stack tops."""
    hand = state.hands[seat]
    clear_rank = state.rules.clear_rank or 0
    tens = hand[clear_rank] if clear_rank else 0
    jokers = hand[JOKER]
    if not (tens or jokers or mine):
        return
    empties_hand = tens + jokers == state.hand_count[seat]
    for a in range(tens + 1):
        for b in range(jokers + 1):
            with_stacks = free or (empties_hand and a == tens and b == jokers)
            for subset in subsets(mine) if with_stacks else [()]:
                if a or b or subset:
                    yield Move(CLEAR, clear_rank if a else 0, a, subset, b)


def _deliberate_takes(state: Core, seat: int, free: bool) -> list[Move]:
    """Taking the pile on purpose by showing a card above the top (R11)."""
    top = state.pile[-1]
    is_clear = state.rules.is_clear
    hand = state.hands[seat]
    takes = [_SHOW[rank] for rank in range(top + 1, NRANKS) if hand[rank] and not is_clear[rank]]
    if free:  # face-up tops are sources too (R7, R16)
        for k, stack in enumerate(state.stacks[seat]):
            rank = stack[-1] & RANK_MASK if stack and stack[-1] & UP else 0
            if rank > top and not is_clear[rank]:
                takes.append(Move(TAKE, rank, 0, (k,)))
    return takes


def _additions(state: Core, seat: int) -> Iterator[Move]:
    """R13: after a blind card lands, the ways to add 1, 2 … cards of its rank (``add 0`` aside)."""
    rank = state.pile[-1]
    cap = play_cap(state, rank)
    held = state.hands[seat][rank]
    for n in range(1, min(held, cap) + 1):
        yield Move(ADD, rank, n)
    mine = face_up_tops(state.stacks[seat]).get(rank)
    if not mine:
        return
    if stacks_free(state, seat):
        counts = range(held + 1)
    elif held == state.hand_count[seat]:
        counts = range(held, held + 1)
    else:
        return
    for n in counts:
        for subset in subsets(mine):
            if subset and n + len(subset) <= cap:
                yield Move(ADD, rank, n, subset)


def _gamble_offer(state: Core) -> list[int]:
    """R17: exposed Risk cards of this turn still face-down on top of their stacks."""
    stacks = state.stacks[state.turn]
    return [k for k in state.exposed if stacks[k] and not stacks[k][-1] & UP]


def apply(state: Core, move: Move) -> Outcome:
    """Apply a legal CUT move and say what it did."""
    seat = state.turn
    kind, rank, n, stacks, jokers, _ = move
    if kind in _LAYS:
        if stacks or jokers or not n:
            laid = _lay(state, seat, move) if stacks or jokers else ()  # () for 'add 0'
            return _after_play(state, seat, laid) or _landed(state, seat, laid)
        # the common move, n hand cards of one rank: the outcome of one that simply landed is interned (_LANDED)
        laid = _LAID[rank][n]
        state.spend_hand(seat, rank, n)
        state.lay(seat, laid)
        happened = _after_play(state, seat, laid)
        if happened:
            return happened
        seen = _LANDED[rank][n]
        key = seat * 9 + (8 if state.stalemate else state.turn)
        outcome = seen[key]
        if outcome is None:
            outcome = seen[key] = Outcome(LANDED, seat, state.next_seat, laid)
        return outcome
    if kind == CLEAR:
        laid = _lay(state, seat, move)
        swept = state.clear_pile(seat) + laid
        return Outcome(OUT if state.over else CLEARED, seat, state.next_seat, laid, swept=swept)
    if kind == TAKE:
        return _take(state, seat, move)
    if kind in (FLIP, GAMBLE):
        if kind == GAMBLE:
            state.exposed.remove(stacks[0])
        return _blind(state, seat, stacks[0])
    if kind == TURNUP:
        stack = state.stacks[seat][stacks[0]]
        stack[-1] |= UP
        state.next_turn()
        return Outcome(PASS, seat, state.next_seat, turned=(stack[-1] & RANK_MASK,))
    state.next_turn()  # DONE
    return Outcome(PASS, seat, state.next_seat)


def _pop(state: Core, seat: int, k: int) -> int:
    """Play a stack's top card; a Board card that leaves a Risk card on top exposes it (R17)."""
    stack = state.stacks[seat][k]
    face_up = stack[-1] & UP
    card = state.pop_stack(seat, k)
    if face_up and stack and not stack[-1] & UP and k not in state.exposed:
        state.exposed.append(k)
    return card


def _lay(state: Core, seat: int, move: Move) -> tuple[int, ...]:
    """Lay a play's cards (hand cards, Jokers, then stack cards); a clear play's go out of the game (R9)."""
    if move.n:
        state.spend_hand(seat, move.rank, move.n)
    if move.jokers:
        state.spend_hand(seat, JOKER, move.jokers)
    laid = (move.rank,) * move.n + (JOKER,) * move.jokers + tuple(_pop(state, seat, k) for k in move.stacks)
    if move.kind == CLEAR:
        for card in laid:
            state.cleared[card] += 1
    else:
        state.lay(seat, laid)
    return laid


def _after_play(state: Core, seat: int, laid: tuple[int, ...], turned: tuple[int, ...] = ()) -> Outcome | None:
    """After cards land: a natural clear (R10), going out (R14), a gamble offer (R17), or pass.

    ``None`` when the cards simply landed: the caller says so (:func:`_landed`, or an interned outcome).
    """
    pile = state.pile
    # four of a rank on top (R10), judged before going out: a going-out clear still counts as one (R14)
    if len(pile) >= 4 and pile[-1] == pile[-2] == pile[-3] == pile[-4]:
        swept = state.clear_pile(seat)
        return Outcome(OUT if state.over else NATURAL, seat, state.next_seat, laid, turned, swept)
    if not state.hand_count[seat] and state.gone_out(seat):  # the count first: it spares a call on most moves
        return Outcome(OUT, seat, None, laid, turned)
    if state.rules.risk_play and _gamble_offer(state):
        state.phase = PHASE_GAMBLE
    else:
        state.next_turn()
    return None


def _landed(state: Core, seat: int, laid: tuple[int, ...], turned: tuple[int, ...] = ()) -> Outcome:
    """The outcome of cards that simply landed (``pass`` for ``add 0``)."""
    return Outcome(LANDED if laid or turned else PASS, seat, state.next_seat, laid, turned)


def _blind(state: Core, seat: int, k: int) -> Outcome:
    """R12: turn a face-down stack top onto the pile."""
    card = _pop(state, seat, k)
    turned = (card,)
    state.blind_plays[seat] += 1
    if state.rules.is_clear[card]:
        state.cleared[card] += 1
        swept = state.clear_pile(seat) + turned
        return Outcome(OUT if state.over else CLEARED, seat, state.next_seat, turned=turned, swept=swept)
    state.lay(seat, turned)
    if len(state.pile) == 1 or card <= state.pile[-2]:
        if next(_additions(state, seat), None) is not None:
            state.phase = PHASE_ADD
            return Outcome(LANDED, seat, seat, turned=turned)
        return _after_play(state, seat, (), turned) or _landed(state, seat, (), turned)
    taken = state.pick_up(seat)
    state.next_turn()
    return Outcome(BUST, seat, state.next_seat, turned=turned, taken=taken)


def _take(state: Core, seat: int, move: Move) -> Outcome:
    """R11: show a card (or not) and take the pile into the hand."""
    laid: tuple[int, ...] = ()
    if move.n:
        state.spend_hand(seat, move.rank, 1)
        laid = (move.rank,)
    elif move.stacks:
        laid = (_pop(state, seat, move.stacks[0]),)
    if laid:
        state.lay(seat, laid)
    elif state.hand_count[seat]:  # a bare take is legal only without a legal play: the hand has none (R11)
        state.above[seat] = max(state.above[seat], state.top)
    taken = state.pick_up(seat)
    state.next_turn()
    # a third of moves: built as a plain tuple, without NamedTuple's argument handling (a guarded speed)
    return _outcome(Outcome, (BUST, seat, state.next_seat, laid, (), (), taken))
