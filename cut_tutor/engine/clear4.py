"""Clear 4 (R22): its deal layout, legal moves, why a move is illegal, and applying a move.

A :class:`~cut_tutor.engine.state.State` whose rules say ``game="Clear 4"`` sends its rule-bound calls here; this
module writes Clear 4's rules with the shared mechanics of :class:`~cut_tutor.engine.core.Core`:

- stacks hold three cards, bottom first: the blind *final* card, the *middle* card (face-down until the card
  above it is played, then turned up at once) and the face-up *top*;
- the pile holds the cards as laid. A JOKER (``J*``) has no value of its own: it takes the value of the nearest
  number below it, which is the value of the cards it was laid with (they are laid first) or of the top card
  when it was played alone; JOKERs that open the pile have no value: any number of them may lie together, they
  never clear it, and any number may follow them;
- ``phase`` is ``play``, ``add`` (adding cards to a landed blind card, or a middle card just turned up that
  matches the play) or ``push`` (choosing the seat for a PUSH turned up blind); ``turned_up`` lists the stacks
  whose middle card this play turned up and which may be added now.

>>> from cut_tutor.engine import Rules, State
>>> state = State.deal(Rules.from_preset("Clear 4"), seed=1)
>>> [len(stack) for stack in state.stacks[0]], state.hand_count[0]
([3, 3, 3, 3], 8)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .cards import CLEAR_CARD, PUSH, RANK_MASK, STACKS, UP, WILD, card_name
from .core import PHASE_ADD, PHASE_PLAY, PHASE_PUSH, Core, face_up_tops, subsets
from .game_words import ADD_NONE, Vocabulary, count, pile_number
from .moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, TAKE, TURNUP, Move
from .moves import PUSH as PUSH_MOVE
from .outcome import BUST, LANDED, NATURAL, OUT, PASS, PUSHED, Outcome
from .outcome import CLEAR as CLEARED
from .rules import CLEAR4, Rules

NAME = CLEAR4
#: The phases of a Clear 4 turn (R22).
PHASES: tuple[str, ...] = (PHASE_PLAY, PHASE_ADD, PHASE_PUSH)
#: A deal code writes ``C4`` for Clear 4's one deck (see :mod:`~cut_tutor.engine.deals`).
DECK_CODE: str | None = "C4"
#: R22: the deal always passes left, so over one round per seat everyone leads once.
WINNER_DEALS = False
#: Cards that never lie on the pile besides the clear cards, with the reason (R22).
OFF_PILE = {PUSH: "is played on its own and never lies on the pile (R22)"}
#: Clear 4's own words (R22): its 1 written ``1`` and its special cards in words, taking the pile called passing,
#: its one CLEAR card a play of its own, and what your turn asks while adding to a play or sending a blind PUSH.
_FACES = {"A": "1", "P": "PUSH", "J*": "JOKER", "CL": "CLEAR"}
WORDS = Vocabulary(
    faces=_FACES,
    prose={"CL": "CLEAR card"},
    passes="Pass",
    took="Passed",
    clear_play=f"Play {_FACES['CL']}",
    phases={PHASE_ADD: f"add matching cards, or {ADD_NONE}", PHASE_PUSH: "your blind PUSH: choose who gets the pile"},
    blurb="CUT's rules preset",
)
#: The most cards of one value the pile may hold; the fourth clears it (R22).
FOUR = 4
#: JOKERs with no value (opening the pile) have no cap: any number may be laid together (R22).
UNCAPPED = sys.maxsize
_TAKE, _ADD0 = Move(TAKE), Move(ADD)
_NONE: tuple[int, ...] = ()
_FLIP = [Move(FLIP, stacks=(k,)) for k in range(9)]


# -- the deal and the view --------------------------------------------------------------------------------


def layout(rules: Rules, block: Sequence[int]) -> list[list[int]]:
    """A seat's four stacks from its dealt cards: blind final card, blind middle card, face-up top (R22)."""
    return [[block[k], block[STACKS + k], block[2 * STACKS + k] | UP] for k in range(STACKS)]


def rules_for(players: int, decks: int, dealt: int) -> Rules:
    """The rules a ``C4`` deal code implies when none are given: Clear 4's, with the code's seats."""
    return Rules.from_preset(CLEAR4, players=players)


def offered(state: Core) -> list[int]:
    """The stacks a position's and a view's ``exposed`` field lists: middle cards just turned up (R22)."""
    return state.turned_up


def add_to_view(state: Core, view: dict[str, Any]) -> None:
    """R22: what each JOKER on the pile counts as, and the value to play equal or lower to (None: any)."""
    counted = values(state.pile)
    for entry, value in zip(view["pile"], counted, strict=True):
        entry["as"] = card_name(value) if value else None
    view["pile_value"] = card_name(counted[-1]) if counted and counted[-1] else None


# -- the pile's value -----------------------------------------------------------------------------------


def values(pile: Sequence[int]) -> list[int]:
    """The value each pile card counts as: its number, or for a JOKER the value below it (0: none)."""
    out, last = [], 0
    for card in pile:
        if card != WILD:
            last = card
        out.append(last)
    return out


def top_value(pile: Sequence[int]) -> int:
    """The value to play equal or lower to; 0 for an empty pile or one opened by JOKERs (anything goes)."""
    for card in reversed(pile):
        if card != WILD:
            return card
    return 0


def run(pile: Sequence[int]) -> int:
    """How many cards of the top value lie on the pile, JOKERs counted as that value (R22)."""
    counted = values(pile)
    value = counted[-1] if counted else 0
    if not value:
        return 0
    count = 0
    for card_value in reversed(counted):  # a JOKER counts as the value it took, not the one on top now
        if card_value != value:
            break
        count += 1
    return count


def completes_four(top: int, run: int, move: Move) -> bool:
    """Does this play leave four or more of one value on top of the pile (R22), where ``run`` cards of value ``top``
    lie (the view's ``top_run`` of its pile)? Its cards take the play's number, or the pile's value when they are
    JOKERs alone; JOKERs with no number below them have no value and never clear, however many lie together.
    Sending a landed card alone (no cards) clears when it is itself the fourth.
    """
    if not move.size:
        return run >= FOUR
    value = top if move.rank == WILD else move.rank
    return bool(value) and (run if value == top else 0) + move.size >= FOUR


def cap(pile: Sequence[int], value: int) -> int:
    """The most cards of ``value`` one play may lay: never more than four of a value on the pile; JOKERs with no
    value to take (``value`` 0) have no cap, since the cap counts cards of one value (R22)."""
    if not value:
        return UNCAPPED
    return FOUR - run(pile) if value == top_value(pile) else FOUR


# -- legal moves ------------------------------------------------------------------------------------------


def _number_plays(kind: str, value: int, held: int, mine: list[int], jokers: int, joker_tops: list[int],
                  limit: int) -> Iterator[Move]:  # fmt: skip
    """Every way to lay cards of ``value``: hand cards, stack cards (a stack's JOKER joins as the value) and
    the hand's JOKERs, at least one real card of the value, at most ``limit`` cards."""
    real = set(mine)
    for subset in subsets(sorted(mine + joker_tops)):
        if len(subset) > limit:
            return
        from_stacks = sum(k in real for k in subset)
        for n in range(min(held, limit - len(subset)) + 1):
            if n + from_stacks == 0:
                continue
            for j in range(min(jokers, limit - len(subset) - n) + 1):
                yield Move(kind, value, n, subset, j)


def _joker_plays(kind: str, jokers: int, joker_tops: list[int], limit: int) -> Iterator[Move]:
    """JOKERs alone: they take the top card's value (R22)."""
    for subset in subsets(joker_tops):
        if len(subset) > limit:
            return
        for n in range(min(jokers, limit - len(subset)) + 1):
            if n or subset:
                yield Move(kind, WILD, n, subset)


def generate(state: Core) -> list[Move]:
    """Every legal move of the seat to move (R22)."""
    seat = state.turn
    if state.phase == PHASE_ADD:
        return [_ADD0, *additions(state)]
    if state.phase == PHASE_PUSH:
        return [Move(PUSH_MOVE, to=t) for t in range(state.players) if t != seat]
    tops = face_up_tops(state.stacks[seat])
    moves = _number_moves(state, tops)
    moves.extend(_special_moves(state, tops))
    for k, stack in enumerate(state.stacks[seat]):
        if stack and not stack[-1] & UP:
            moves.append(_FLIP[k])
    if state.pile:
        moves.append(_TAKE)
    return moves


def _number_moves(state: Core, tops: dict[int, list[int]]) -> list[Move]:
    """Plays of one value up to the pile's, JOKERs joining, and of JOKERs alone (R22)."""
    hand, pile = state.hands[state.turn], state.pile
    value = top_value(pile)
    jokers, joker_tops = hand[WILD], tops.get(WILD, [])
    moves: list[Move] = []
    for rank in range(1, 11):
        if value and rank > value:
            break
        held, mine = hand[rank], tops.get(rank, [])
        if held or mine:
            moves.extend(_number_plays(PLAY, rank, held, mine, jokers, joker_tops, cap(pile, rank)))
    if jokers or joker_tops:
        moves.extend(_joker_plays(PLAY, jokers, joker_tops, cap(pile, value)))
    return moves


def _special_moves(state: Core, tops: dict[int, list[int]]) -> list[Move]:
    """PUSH cards to each other seat, then CLEAR cards, from the hand and then the face-up stack tops (R22)."""
    seat = state.turn
    hand = state.hands[seat]
    others = [t for t in range(state.players) if t != seat]
    moves: list[Move] = []
    if hand[PUSH]:
        moves.extend(Move(PUSH_MOVE, n=1, to=t) for t in others)
    for k in tops.get(PUSH, ()):
        moves.extend(Move(PUSH_MOVE, stacks=(k,), to=t) for t in others)
    if hand[CLEAR_CARD]:
        moves.append(Move(CLEAR, CLEAR_CARD, 1))
    for k in tops.get(CLEAR_CARD, ()):
        moves.append(Move(CLEAR, stacks=(k,)))
    return moves


def additions(state: Core) -> Iterator[Move]:
    """The cards that may join what just landed (``add 0`` aside).

    After a blind card: cards of its value from the hand and the stacks, and JOKERs ("as always").
    After a play that turned up middle cards: those of them that match the play's value, or are JOKERs.
    """
    seat, pile = state.turn, state.pile
    value = top_value(pile)
    limit = cap(pile, value)
    stacks = state.stacks[seat]
    if state.turned_up:
        shown = [k for k in state.turned_up if stacks[k] and stacks[k][-1] & UP]
        mine = [k for k in shown if value and stacks[k][-1] & RANK_MASK == value]
        joker_tops = [k for k in shown if stacks[k][-1] & RANK_MASK == WILD]
        held = jokers = 0
    else:
        tops = face_up_tops(state.stacks[seat])
        hand = state.hands[seat]
        mine, joker_tops = (tops.get(value, []) if value else []), tops.get(WILD, [])
        held, jokers = (hand[value] if value else 0), hand[WILD]
    if value:
        yield from _number_plays(ADD, value, held, mine, jokers, joker_tops, limit)
    yield from _joker_plays(ADD, jokers, joker_tops, limit)


# -- why a move is illegal ----------------------------------------------------------------------------------


def why_illegal(state: Core, move: Move) -> str:
    """A plain-English reason, citing R22, for a move :func:`generate` does not list."""
    seat, kind = state.turn, move.kind
    if state.phase == PHASE_PUSH:
        if kind != PUSH_MOVE or move.n or move.stacks:
            return "your blind PUSH is turned up: choose the seat it sends the pile to, like 'push blind → 1' (R22)"
        return _why_target(state, seat, move.to)
    if state.phase == PHASE_ADD and kind != ADD:
        return (
            f"cards of value {_value_name(state)} may join what just landed: choose them first"
            " ('add 0' adds none) (R22)"
        )
    return _WHY.get(kind, _why_play)(state, seat, move)


def _why_no_risk(state: Core, seat: int, move: Move) -> str:
    return "Clear 4 has no Risk gambles and no Pile Card Flip (R22)"


def _why_add(state: Core, seat: int, move: Move) -> str:
    if state.phase != PHASE_ADD:
        return "cards are added only to a blind card that landed or to a play that turned up a match (R22)"
    if state.turned_up:
        return "only the middle cards just turned up that match the play may be added now (R22)"
    return _why_cards(state, seat, move) or _why_value(state, move) or "that addition is not allowed (R22)"


def _why_take(state: Core, seat: int, move: Move) -> str:
    if not state.pile:
        return "there is nothing to take from an empty pile (R22)"
    return "in Clear 4 you pass without showing a card: 'take' (R22)"


def _why_flip(state: Core, seat: int, move: Move) -> str:
    k = move.stacks[0]
    if k >= len(state.stacks[seat]) or not state.stacks[seat][k]:
        return f"{pile_number(k)} is empty"
    return f"{pile_number(k)}'s top card is face-up: play it as a card (R22)"


def _why_push(state: Core, seat: int, move: Move) -> str:
    if not move.n and not move.stacks:
        return "'push blind' names the seat for a PUSH just turned up blind (R22)"
    return _why_source(state, seat, move, PUSH, "PUSH") or _why_target(state, seat, move.to)


def _why_clear(state: Core, seat: int, move: Move) -> str:
    if move.jokers or move.n > 1 or len(move.stacks) + move.n != 1 or (move.n and move.rank != CLEAR_CARD):
        return "a CLEAR card is played on its own, one at a time: 'clear CL' or 'clear s2' (R22)"
    return _why_source(state, seat, move, CLEAR_CARD, "CLEAR") or "that clear is not allowed here (R22)"


def _why_play(state: Core, seat: int, move: Move) -> str:
    return _why_cards(state, seat, move) or _why_value(state, move) or "that play is not allowed here (R22)"


#: Why a move of each kind is not legal, once the phase allows its kind; any other kind is a number play.
_WHY: dict[str, Callable[[Core, int, Move], str]] = {
    **dict.fromkeys((GAMBLE, DONE, TURNUP), _why_no_risk),
    ADD: _why_add,
    TAKE: _why_take,
    FLIP: _why_flip,
    PUSH_MOVE: _why_push,
    CLEAR: _why_clear,
}


def _value_name(state: Core) -> str:
    value = top_value(state.pile)
    return card_name(value) if value else "any"


def _why_target(state: Core, seat: int, to: int) -> str:
    if to == seat:
        return "push the pile to another seat, not to yourself (R22)"
    if not 0 <= to < state.players:
        return f"seat {to} is not one of the {state.players} seats"
    return "that push is not allowed here (R22)"


def _why_source(state: Core, seat: int, move: Move, card: int, name: str) -> str | None:
    if move.n and state.hands[seat][card] < move.n:
        return f"you hold no {name} card in your hand"
    for k in move.stacks:
        stack = state.stacks[seat][k] if k < len(state.stacks[seat]) else []
        if not stack or not stack[-1] & UP or stack[-1] & RANK_MASK != card:
            return f"{pile_number(k)} has no face-up {name} card on top"
    return None


def _why_cards(state: Core, seat: int, move: Move) -> str | None:
    """Reasons about the cards of a number or JOKER play: held, on which stacks, and of one value."""
    hand, rank = state.hands[seat], move.rank
    if rank in (PUSH, CLEAR_CARD):
        return "PUSH and CLEAR cards are played on their own ('push → 1', 'clear CL') (R22)"
    if rank == WILD and move.jokers:
        return "JOKERs alone are written like 2×J*"
    if move.n and hand[rank] < move.n:
        return f"you hold {count(hand[rank], WORDS.face(rank))} in your hand, not {move.n}"
    if move.jokers and hand[WILD] < move.jokers:
        return f"you hold {count(hand[WILD], WORDS.face(WILD))} in your hand, not {move.jokers}"
    for k in move.stacks:
        if k >= len(state.stacks[seat]) or not state.stacks[seat][k]:
            return f"{pile_number(k)} is empty"
        top = state.stacks[seat][k][-1]
        if not top & UP:
            return f"{pile_number(k)}'s final card is played blind, first in a turn, with 'flip {k + 1}' (R22)"
        if top & RANK_MASK not in (rank, WILD):
            return f"{pile_number(k)}'s top card is {WORDS.face(top)}, not {WORDS.face(rank)} or a JOKER"
    if move.size == 0:
        return "a play needs at least one card"
    if rank != WILD and not move.n and all(state.stacks[seat][k][-1] & RANK_MASK == WILD for k in move.stacks):
        return "JOKERs alone take the top card's value: write them like 2×J* s1 (R22)"
    return None


def _why_value(state: Core, move: Move) -> str | None:
    value = top_value(state.pile)
    rank = move.rank if move.rank != WILD else value
    if move.kind == ADD and move.rank != WILD and move.rank != value:
        return f"only cards of the landed value ({_value_name(state)}) can be added (R22)"
    if value and rank > value:
        return f"{WORDS.face(rank)} is above the pile's value {WORDS.face(value)}: play equal or lower (R22)"
    limit = cap(state.pile, rank)
    if move.size > limit:
        more = count(limit, "more " + WORDS.face(rank))
        return f"never more than four of a value on the pile: at most {more} may be laid (R22)"
    return None


# -- applying moves -----------------------------------------------------------------------------------------


def apply(state: Core, move: Move) -> Outcome:
    """Apply a legal Clear 4 move (R22) and say what it did."""
    seat, kind = state.turn, move.kind
    if kind in (PLAY, ADD):
        return _after_lay(state, seat, *(_lay(state, seat, move) if move.size else (_NONE, _NONE)))
    if kind == CLEAR:
        turned = _NONE
        if move.n:
            state.spend_hand(seat, CLEAR_CARD, 1)
        else:
            turned = _pop(state, seat, move.stacks[0])[1]
        state.cleared[CLEAR_CARD] += 1
        swept = (*state.clear_pile(seat), CLEAR_CARD)
        return Outcome(OUT if state.over else CLEARED, seat, state.next_seat, (CLEAR_CARD,), turned, swept)
    if kind == PUSH_MOVE:
        laid, turned = _NONE, _NONE
        if move.n:
            state.spend_hand(seat, PUSH, 1)
            laid = (PUSH,)
        elif move.stacks:
            turned = _pop(state, seat, move.stacks[0])[1]
            laid = (PUSH,)
        state.cleared[PUSH] += len(laid)
        taken = state.pick_up(move.to)
        if state.gone_out(seat):
            return Outcome(OUT, seat, None, laid, turned, laid, taken)
        state.next_turn()
        return Outcome(PUSHED, seat, state.next_seat, laid, turned, laid, taken)
    if kind == TAKE:
        taken = state.pick_up(seat)
        state.next_turn()
        return Outcome(BUST, seat, state.next_seat, taken=taken)
    return _blind(state, seat, move.stacks[0])  # FLIP


def _pop(state: Core, seat: int, k: int) -> tuple[int, tuple[int, ...]]:
    """Play a stack's top card; the middle card beneath is turned up at once (R22). Returns the card played and the
    card turned up (none when the final card or nothing lies beneath)."""
    card = state.pop_stack(seat, k)
    stack = state.stacks[seat][k]
    if len(stack) >= 2 and not stack[-1] & UP:
        stack[-1] |= UP
        state.turned_up.append(k)
        return card, (stack[-1] & RANK_MASK,)
    return card, _NONE


def _lay(state: Core, seat: int, move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Lay a play's cards, numbers first so its JOKERs take their value; returns the cards laid and those turned
    up beneath the stack cards played."""
    state.turned_up.clear()
    rank = move.rank
    if move.n:
        state.spend_hand(seat, rank, move.n)
    if move.jokers:
        state.spend_hand(seat, WILD, move.jokers)
    popped = [_pop(state, seat, k) for k in move.stacks]
    laid = [rank] * move.n + [WILD] * move.jokers + [card for card, _ in popped]
    laid.sort(key=lambda card: card == WILD)
    state.lay(seat, laid)
    return tuple(laid), tuple(card for _, turned in popped for card in turned)


def _after_lay(state: Core, seat: int, laid: tuple[int, ...], turned: tuple[int, ...]) -> Outcome:
    """After cards land: going out, a fourth card clears (go again), a turned-up match may join, or pass."""
    if run(state.pile) >= FOUR:  # before going out: a going-out fourth card still counts as a clear (R14)
        swept = state.clear_pile(seat)
        return Outcome(OUT if state.over else NATURAL, seat, state.next_seat, laid, turned, swept)
    if state.gone_out(seat):
        return Outcome(OUT, seat, None, laid, turned)
    value = top_value(state.pile)
    stacks = state.stacks[seat]
    match = [k for k in state.turned_up if stacks[k][-1] & RANK_MASK in (value, WILD)] if laid else []
    state.turned_up[:] = match
    if match and next(additions(state), None) is not None:
        state.phase = PHASE_ADD
    else:
        state.next_turn()
    return Outcome(LANDED if laid else PASS, seat, state.next_seat, laid, turned)


def _blind(state: Core, seat: int, k: int) -> Outcome:
    """The final card, played blind as the first card of a turn (R22)."""
    state.turned_up.clear()
    card = state.pop_stack(seat, k)
    turned = (card,)
    state.blind_plays[seat] += 1
    if card == CLEAR_CARD:
        state.cleared[card] += 1
        swept = state.clear_pile(seat) + turned
        return Outcome(OUT if state.over else CLEARED, seat, state.next_seat, turned=turned, swept=swept)
    if card == PUSH:
        state.cleared[card] += 1
        state.phase = PHASE_PUSH
        return Outcome(PASS, seat, seat, turned=turned, swept=turned)
    value = top_value(state.pile)
    state.lay(seat, turned)
    if card != WILD and value and card > value:
        taken = state.pick_up(seat)
        state.next_turn()
        return Outcome(BUST, seat, state.next_seat, turned=turned, taken=taken)
    if run(state.pile) >= FOUR:  # before going out, as after a play (R14)
        swept = state.clear_pile(seat)
        return Outcome(OUT if state.over else NATURAL, seat, state.next_seat, turned=turned, swept=swept)
    if state.gone_out(seat):
        return Outcome(OUT, seat, None, turned=turned)
    if next(additions(state), None) is not None:
        state.phase = PHASE_ADD
    else:
        state.next_turn()
    return Outcome(LANDED, seat, state.next_seat, turned=turned)
