"""CUT (R5–R20): its deal layout, legal moves, why a move is illegal, and applying a move.

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

from .cards import JOKER, NRANKS, RANK_MASK, STACKS, UP, card_name
from .core import PHASE_ADD, PHASE_GAMBLE, PHASE_PLAY, Core, face_up_tops, subsets
from .moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, TAKE, TURNUP, Move
from .outcome import BUST, LANDED, NATURAL, OUT, PASS, Outcome
from .outcome import CLEAR as CLEARED
from .rules import CUT, Rules, auto_decks
from .words import card_word, count, pile_number

NAME = CUT
#: The phases of a CUT turn (R13, R17).
PHASES: tuple[str, ...] = (PHASE_PLAY, PHASE_ADD, PHASE_GAMBLE)
#: A deal code writes the number of decks (see :mod:`~cut_tutor.engine.deals`).
DECK_CODE: str | None = None
#: R6: the seat that went out deals the next hand.
WINNER_DEALS = True
#: Cards that never lie on the pile besides the clear cards, with the reason: none in CUT.
OFF_PILE: dict[int, str] = {}
#: An Outcome from the full tuple of its fields, without NamedTuple's argument handling: for the bust, a third of moves.
_outcome = tuple.__new__
#: A count above any real cap, used when 4+ Card Clears lifts the USA cap (R10).
_NO_CAP = 99

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


def top_value(pile: Sequence[int]) -> int:
    """The rank to play equal or lower to: the top card; 0 for an empty pile (anything goes)."""
    return pile[-1] if pile else 0


def run(pile: Sequence[int]) -> int:
    """How many cards of the top rank lie together on top of the pile (R10)."""
    if not pile:
        return 0
    top, k = pile[-1], len(pile) - 1
    while k > 0 and pile[k - 1] == top:
        k -= 1
    return len(pile) - k


def offered(state: Core) -> list[int]:
    """The stacks a position's and a view's ``exposed`` field lists: Risk cards exposed this turn (R17)."""
    return state.exposed


def add_to_view(state: Core, view: dict[str, Any]) -> None:
    """CUT's pile cards count as their own rank: a view needs nothing more."""


def _blind_allowed(state: Core, seat: int) -> list[int]:
    """Stacks whose face-down top may be played blind now, given the hand is empty or R16 is on (R7, R16)."""
    face_down = state.rules.piles_face_down
    stacks = state.stacks[seat]
    down = [k for k, stack in enumerate(stacks) if stack and not stack[-1] & UP]
    if not down or face_down:
        return down
    if any(stack and stack[-1] & UP for stack in stacks):
        return []
    return down


def _stacks_free(state: Core, seat: int) -> bool:
    """May face-up stack tops join any play, not only one that empties the hand (R7, R16)?"""
    return state.rules.piles_face_down or state.hand_count[seat] == 0


def _cap(state: Core, rank: int) -> int:
    """The most cards of ``rank`` one play may lay here: USA stops at four on the pile (R10)."""
    if state.rules.four_plus_clears:
        return _NO_CAP
    pile = state.pile
    return 4 - run(pile) if pile and pile[-1] == rank else 4


# -- legal moves ------------------------------------------------------------------------------------------


def generate(state: Core) -> list[Move]:
    """Every legal move of the seat to move, each way of playing a rank its own move (R7–R18)."""
    seat = state.turn
    if state.phase != PHASE_PLAY:
        if state.phase == PHASE_ADD:
            return [Move(ADD), *_additions(state, seat)]
        return [*(_GAMBLE[k] for k in _gamble_offer(state)), _DONE]
    free = _stacks_free(state, seat)
    moves = _plays(state, seat, free)
    blind = _blind_allowed(state, seat) if free else None  # hand first (R7): no blind play while cards are in hand
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
    moves: list[Move] = []
    hand = state.hands[seat]
    pile = state.pile
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
    no_cap = rules.four_plus_clears
    table = _UNCAPPED if no_cap else _CAPPED
    top = pile[-1] if pile else 0
    if not join:  # the common case: hand cards only, every rank below the top at its usual cap
        moves = [m for rank in rules.ranks_below[top] if hand[rank] for m in table[rank][hand[rank]]]
        if top and hand[top]:
            top_cap = _NO_CAP if no_cap else 4 - run(pile)
            moves.extend(_PLAYS[top][1 : min(hand[top], top_cap) + 1])
    else:
        top_cap = _NO_CAP if no_cap else (4 - run(pile) if pile else 4)
        for rank in rules.number_ranks:
            if top and rank > top:
                break
            held = hand[rank]
            cap = top_cap if rank == top else (_NO_CAP if no_cap else 4)
            moves.extend(_PLAYS[rank][1 : min(held, cap) + 1])
            mine = join.get(rank)
            if mine:
                for n in range(held + 1) if free else (held,):
                    for subset in subsets(mine):
                        if subset and n + len(subset) <= cap:
                            moves.append(Move(PLAY, rank, n, subset))
    clear_tops = [k for rank, ks in tops.items() if is_clear[rank] for k in ks] if tops else []
    if clear_held or clear_tops:
        moves.extend(_clear_plays(state, seat, sorted(clear_tops), free))
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
    cap = _cap(state, rank)
    held = state.hands[seat][rank]
    for n in range(1, min(held, cap) + 1):
        yield Move(ADD, rank, n)
    mine = face_up_tops(state.stacks[seat]).get(rank)
    if not mine:
        return
    if _stacks_free(state, seat):
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


# -- why a move is illegal ------------------------------------------------------------------------------------


def why_illegal(state: Core, move: Move) -> str:
    """A plain-English reason, citing the rule, for a move :func:`generate` does not list."""
    seat = state.turn
    kind = move.kind
    top = state.top
    if state.phase == PHASE_ADD:
        if kind != ADD:
            return (
                f"your blind {card_name(top)} has landed: first choose which matching cards to add"
                " ('add 0' adds none) (R13)"
            )
        if move.size and move.rank != top:
            return f"only cards of your landed blind card's rank ({card_name(top)}) can be added (R13)"
        return _why_cards(state, seat, move) or _why_cap(state, move) or "that addition is not allowed here (R13)"
    if state.phase == PHASE_GAMBLE:
        if kind == GAMBLE:
            return f"{pile_number(move.stacks[0])} has no exposed Risk card to gamble this turn (R17)"
        return "choose a Risk card to gamble or 'done' (R17)"
    if kind in (ADD, GAMBLE, DONE):
        return {
            ADD: "cards are added only after a blind card lands (R13)",
            GAMBLE: "a gamble follows only a play that spent a Board card, with Risk Play on (R17)",
            DONE: "'done' only ends a run of Risk gambles (R17)",
        }[kind]
    if kind == TAKE:
        return _why_take(state, seat, move)
    if kind in (FLIP, TURNUP):
        return _why_blind(state, seat, move)
    return _why_cards(state, seat, move) or _why_play(state, move)


def _why_take(state: Core, seat: int, move: Move) -> str:
    if not state.pile:
        return "there is nothing to take from an empty pile (R11)"
    if not move.rank:
        return "you have a legal play, so to take the pile you must show a card above the top (R11)"
    if state.rules.is_clear[move.rank]:
        return "a clear card is never higher: it cannot be shown to take the pile (R11)"
    if move.rank <= state.top:
        return f"the card shown to take must be above the top ({card_name(state.top)}) (R11)"
    return _why_cards(state, seat, move) or "you can only show a card you may play from (R7, R11)"


def _why_blind(state: Core, seat: int, move: Move) -> str:
    k = move.stacks[0]
    if k >= STACKS or not state.stacks[seat][k]:
        return f"{pile_number(k)} is empty"
    if state.stacks[seat][k][-1] & UP:
        return f"{pile_number(k)}'s top card is face-up: play it as a card (R7)"
    if move.kind == TURNUP and not state.rules.pile_card_flip:
        return "turning a card up needs the Pile Card Flip rule (R18)"
    if state.hand_count[seat]:
        return "a face-down card is played blind only once your hand is empty (R7)"
    return "a face-down card is played blind only when no face-up stack card remains (R7)"


def _why_cards(state: Core, seat: int, move: Move) -> str | None:
    """Reasons about the cards themselves: held, on which stacks, and how many."""
    hand = state.hands[seat]
    rules = state.rules
    if any(k >= STACKS for k in move.stacks):
        return f"there are only {STACKS} stacks"
    for k in move.stacks:
        stack = state.stacks[seat][k]
        if not stack:
            return f"{pile_number(k)} is empty"
        if not stack[-1] & UP:
            return f"{pile_number(k)}'s top card is face-down: it is played blind with 'flip {k + 1}' (R7, R12)"
        want = move.rank if move.kind != CLEAR else -1
        got = stack[-1] & RANK_MASK
        if want >= 0 and got != want:
            return f"{pile_number(k)}'s top card is {card_name(got)}, not {card_name(want)}"
        if want < 0 and not rules.is_clear[got]:
            return f"{pile_number(k)}'s top card {card_name(got)} is not a clear card"
    if move.kind == CLEAR:
        if move.n and move.rank != rules.clear_rank:
            what = card_name(rules.clear_rank) + "s and Jokers" if rules.clear_rank else "Jokers"
            return f"{card_name(move.rank)} is not a clear card: only {what} clear (R2)"
        if hand[move.rank] < move.n or hand[JOKER] < move.jokers:
            return "you do not hold those clear cards"
    elif move.n and hand[move.rank] < move.n:
        return f"you hold {count(hand[move.rank], card_word(move.rank))} in your hand, not {move.n}"
    if move.stacks and not _stacks_free(state, seat):
        used = move.n + move.jokers
        if used != state.hand_count[seat]:
            return "face-up stack cards join a play only when that play empties your hand (R7)"
    if move.kind != TAKE and move.n + move.jokers == 0 and not move.stacks:
        return "a play needs at least one card"
    if move.n and not move.stacks and state.hand_count[seat] == 0:
        return "your hand is empty"
    return None


def _why_play(state: Core, move: Move) -> str:
    if move.kind == CLEAR:
        return "that clear play is not allowed here (R9)"
    if state.rules.is_clear[move.rank]:
        return f"{card_name(move.rank)} is a clear card: play it as 'clear {card_name(move.rank)}' (R9)"
    if state.pile and move.rank > state.top:
        return f"{card_name(move.rank)} is above the pile top {card_name(state.top)}: play equal or lower (R8)"
    return _why_cap(state, move) or "that play is not allowed here (R7, R8)"


def _why_cap(state: Core, move: Move) -> str | None:
    """The USA cap (R10), which also limits additions to a landed blind card (R13)."""
    cap = _cap(state, move.rank)
    if move.size > cap:
        return f"USA rules: at most {count(cap, card_word(move.rank))} may be laid to reach four on the pile (R10)"
    return None


# -- applying moves -------------------------------------------------------------------------------------------


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
