"""Clear 4 (R22) on the CUT engine: its legal moves, why a move is illegal, and applying a move.

A :class:`~cut_tutor.engine.state.State` whose rules say ``game="Clear 4"`` sends these three calls here, once
per call, so CUT's own generator never tests a Clear 4 branch. The state keeps CUT's representation:

- stacks hold three cards, bottom first: the blind *final* card, the *middle* card (face-down until the card
  above it is played, then turned up at once) and the face-up *top*;
- the pile holds the cards as laid. A JOKER (``J*``) has no value of its own: it takes the value of the nearest
  number below it, which is the value of the cards it was laid with (they are laid first) or of the top card
  when it was played alone; a JOKER that opens the pile has no value, and any number may follow it;
- ``phase`` is ``play``, ``add`` (adding cards to a landed blind card, or a middle card just turned up that
  matches the play) or ``push`` (choosing the seat for a PUSH turned up blind); ``exposed`` lists the stacks
  whose middle card this play turned up and which may be added now.

>>> from cut_tutor.engine import Rules, State
>>> state = State.deal(Rules.from_preset("Clear 4"), seed=1)
>>> [len(stack) for stack in state.stacks[0]], state.hand_count[0]
([3, 3, 3, 3], 8)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from .cards import CLEAR_CARD, PUSH, RANK_MASK, UP, WILD, card_name
from .moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, TAKE, TURNUP, Move
from .moves import PUSH as PUSH_MOVE

if TYPE_CHECKING:
    from .state import State

PHASE_PLAY, PHASE_ADD, PHASE_PUSH = "play", "add", "push"
#: The most cards of one value the pile may hold; the fourth clears it (R22).
FOUR = 4
_TAKE, _ADD0 = Move(TAKE), Move(ADD)
_FLIP = [Move(FLIP, stacks=(k,)) for k in range(9)]


def _subsets(items: Sequence[int]) -> Iterator[tuple[int, ...]]:
    for size in range(len(items) + 1):
        yield from combinations(items, size)


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


def cap(pile: Sequence[int], value: int) -> int:
    """The most cards of ``value`` one play may lay: never more than four of a value on the pile (R22)."""
    return FOUR - run(pile) if value and value == top_value(pile) else FOUR


# -- legal moves ------------------------------------------------------------------------------------------


def _tops(state: State, seat: int) -> dict[int, list[int]]:
    tops: dict[int, list[int]] = {}
    for k, stack in enumerate(state.stacks[seat]):
        if stack and stack[-1] & UP:
            tops.setdefault(stack[-1] & RANK_MASK, []).append(k)
    return tops


def _number_plays(kind: str, value: int, held: int, mine: list[int], jokers: int, joker_tops: list[int],
                  limit: int) -> Iterator[Move]:  # fmt: skip
    """Every way to lay cards of ``value``: hand cards, stack cards (a stack's JOKER joins as the value) and
    the hand's JOKERs, at least one real card of the value, at most ``limit`` cards."""
    real = set(mine)
    for subset in _subsets(sorted(mine + joker_tops)):
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
    for subset in _subsets(joker_tops):
        if len(subset) > limit:
            return
        for n in range(min(jokers, limit - len(subset)) + 1):
            if n or subset:
                yield Move(kind, WILD, n, subset)


def generate(state: State) -> list[Move]:
    """Every legal move of the seat to move (R22)."""
    seat = state.turn
    if state.phase == PHASE_ADD:
        return [_ADD0, *additions(state)]
    if state.phase == PHASE_PUSH:
        return [Move(PUSH_MOVE, to=t) for t in range(state.players) if t != seat]
    hand, pile = state.hands[seat], state.pile
    tops = _tops(state, seat)
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
    others = [t for t in range(state.players) if t != seat]
    if hand[PUSH]:
        moves.extend(Move(PUSH_MOVE, n=1, to=t) for t in others)
    for k in tops.get(PUSH, ()):
        moves.extend(Move(PUSH_MOVE, stacks=(k,), to=t) for t in others)
    if hand[CLEAR_CARD]:
        moves.append(Move(CLEAR, CLEAR_CARD, 1))
    for k in tops.get(CLEAR_CARD, ()):
        moves.append(Move(CLEAR, stacks=(k,)))
    for k, stack in enumerate(state.stacks[seat]):
        if stack and not stack[-1] & UP:
            moves.append(_FLIP[k])
    if pile:
        moves.append(_TAKE)
    return moves


def additions(state: State) -> Iterator[Move]:
    """The cards that may join what just landed (``add 0`` aside).

    After a blind card: cards of its value from the hand and the stacks, and JOKERs ("as always").
    After a play that turned up middle cards: those of them that match the play's value, or are JOKERs.
    """
    seat, pile = state.turn, state.pile
    value = top_value(pile)
    limit = cap(pile, value)
    stacks = state.stacks[seat]
    if state.exposed:
        shown = [k for k in state.exposed if stacks[k] and stacks[k][-1] & UP]
        mine = [k for k in shown if value and stacks[k][-1] & RANK_MASK == value]
        joker_tops = [k for k in shown if stacks[k][-1] & RANK_MASK == WILD]
        held = jokers = 0
    else:
        tops = _tops(state, seat)
        hand = state.hands[seat]
        mine, joker_tops = (tops.get(value, []) if value else []), tops.get(WILD, [])
        held, jokers = (hand[value] if value else 0), hand[WILD]
    if value:
        yield from _number_plays(ADD, value, held, mine, jokers, joker_tops, limit)
    yield from _joker_plays(ADD, jokers, joker_tops, limit)


# -- why a move is illegal ----------------------------------------------------------------------------------


def why_illegal(state: State, move: Move) -> str:
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
    if kind in (GAMBLE, DONE, TURNUP):
        return "Clear 4 has no Risk gambles and no Pile Card Flip (R22)"
    if kind == ADD:
        if state.phase != PHASE_ADD:
            return "cards are added only to a blind card that landed or to a play that turned up a match (R22)"
        if state.exposed:
            return "only the middle cards just turned up that match the play may be added now (R22)"
        return _why_cards(state, seat, move) or _why_value(state, move) or "that addition is not allowed (R22)"
    if kind == TAKE:
        if not state.pile:
            return "there is nothing to take from an empty pile (R22)"
        return "in Clear 4 you pass without showing a card: 'take' (R22)"
    if kind == FLIP:
        k = move.stacks[0]
        if k >= len(state.stacks[seat]) or not state.stacks[seat][k]:
            return f"stack {k + 1} is empty"
        return f"stack {k + 1}'s top card is face-up: play it as a card (R22)"
    if kind == PUSH_MOVE:
        if not move.n and not move.stacks:
            return "'push blind' names the seat for a PUSH just turned up blind (R22)"
        return _why_source(state, seat, move, PUSH, "PUSH") or _why_target(state, seat, move.to)
    if kind == CLEAR:
        if move.jokers or move.n > 1 or len(move.stacks) + move.n != 1 or (move.n and move.rank != CLEAR_CARD):
            return "a CLEAR card is played on its own, one at a time: 'clear CL' or 'clear s2' (R22)"
        return _why_source(state, seat, move, CLEAR_CARD, "CLEAR") or "that clear is not allowed here (R22)"
    return _why_cards(state, seat, move) or _why_value(state, move) or "that play is not allowed here (R22)"


def _value_name(state: State) -> str:
    value = top_value(state.pile)
    return card_name(value) if value else "any"


def _why_target(state: State, seat: int, to: int) -> str:
    if to == seat:
        return "push the pile to another seat, not to yourself (R22)"
    if not 0 <= to < state.players:
        return f"seat {to} is not one of the {state.players} seats"
    return "that push is not allowed here (R22)"


def _why_source(state: State, seat: int, move: Move, card: int, name: str) -> str | None:
    if move.n and state.hands[seat][card] < move.n:
        return f"you hold no {name} card in your hand"
    for k in move.stacks:
        stack = state.stacks[seat][k] if k < len(state.stacks[seat]) else []
        if not stack or not stack[-1] & UP or stack[-1] & RANK_MASK != card:
            return f"stack {k + 1} has no face-up {name} card on top"
    return None


def _why_cards(state: State, seat: int, move: Move) -> str | None:
    """Reasons about the cards of a number or JOKER play: held, on which stacks, and of one value."""
    hand, rank = state.hands[seat], move.rank
    if rank in (PUSH, CLEAR_CARD):
        return "PUSH and CLEAR cards are played on their own ('push → 1', 'clear CL') (R22)"
    if rank == WILD and move.jokers:
        return "JOKERs alone are written like 2×J*"
    if move.n and hand[rank] < move.n:
        return f"you hold {hand[rank]} {card_name(rank)} in your hand, not {move.n}"
    if move.jokers and hand[WILD] < move.jokers:
        return f"you hold {hand[WILD]} JOKER (J*) in your hand, not {move.jokers}"
    for k in move.stacks:
        if k >= len(state.stacks[seat]) or not state.stacks[seat][k]:
            return f"stack {k + 1} is empty"
        top = state.stacks[seat][k][-1]
        if not top & UP:
            return f"stack {k + 1}'s final card is played blind, first in a turn, with 'flip {k + 1}' (R22)"
        if top & RANK_MASK not in (rank, WILD):
            return f"stack {k + 1}'s top card is {card_name(top)}, not {card_name(rank)} or a JOKER"
    if move.size == 0:
        return "a play needs at least one card"
    if rank != WILD and not move.n and all(state.stacks[seat][k][-1] & RANK_MASK == WILD for k in move.stacks):
        return "JOKERs alone take the top card's value: write them like 2×J* s1 (R22)"
    return None


def _why_value(state: State, move: Move) -> str | None:
    value = top_value(state.pile)
    rank = move.rank if move.rank != WILD else value
    if move.kind == ADD and move.rank != WILD and move.rank != value:
        return f"only cards of the landed value ({_value_name(state)}) can be added (R22)"
    if value and rank > value:
        return f"{card_name(rank)} is above the pile's value {card_name(value)}: play equal or lower (R22)"
    limit = cap(state.pile, rank)
    if move.size > limit:
        return f"never more than four of a value on the pile: at most {limit} more {card_name(rank)} may be laid (R22)"
    return None


# -- applying moves -----------------------------------------------------------------------------------------


def apply(state: State, move: Move) -> None:
    """Apply a legal Clear 4 move (R22)."""
    seat, kind = state.turn, move.kind
    if kind in (PLAY, ADD):
        shown = _lay(state, seat, move) if move.size else []
        _after_lay(state, seat, shown)
    elif kind == CLEAR:
        if move.n:
            state._spend_hand(seat, CLEAR_CARD, 1)
        else:
            _pop(state, seat, move.stacks[0])
        state.cleared[CLEAR_CARD] += 1
        state._clear_pile(seat)
    elif kind == PUSH_MOVE:
        if move.n:
            state._spend_hand(seat, PUSH, 1)
            state.cleared[PUSH] += 1
        elif move.stacks:
            _pop(state, seat, move.stacks[0])
            state.cleared[PUSH] += 1
        _give_pile(state, move.to)
        if not state._gone_out(seat):
            state._next_turn()
    elif kind == TAKE:
        state._pick_up(seat)
    elif kind == FLIP:
        _blind(state, seat, move.stacks[0])


def _pop(state: State, seat: int, k: int) -> int:
    """Remove a stack's top card; the middle card beneath is turned up at once (R22)."""
    stack = state.stacks[seat][k]
    card = stack.pop() & RANK_MASK
    if len(stack) >= 2 and not stack[-1] & UP:
        stack[-1] |= UP
        state.exposed.append(k)
    return card


def _lay(state: State, seat: int, move: Move) -> list[int]:
    """Lay a play's cards, numbers first so its JOKERs take their value; returns the stacks turned up."""
    state.exposed.clear()
    rank = move.rank
    if move.n:
        state._spend_hand(seat, rank, move.n)
    if move.jokers:
        state._spend_hand(seat, WILD, move.jokers)
    laid = [rank] * move.n + [WILD] * move.jokers + [_pop(state, seat, k) for k in move.stacks]
    laid.sort(key=lambda card: card == WILD)
    state.pile.extend(laid)
    state.pile_by.extend([seat] * len(laid))
    return list(state.exposed)


def _after_lay(state: State, seat: int, shown: list[int]) -> None:
    """After cards land: going out, a fourth card clears (go again), a turned-up match may join, or pass."""
    if state._gone_out(seat):
        return
    if run(state.pile) >= FOUR:
        state._clear_pile(seat)
        return
    value = top_value(state.pile)
    stacks = state.stacks[seat]
    match = [k for k in shown if stacks[k][-1] & RANK_MASK in (value, WILD)]
    state.exposed[:] = match
    if match and next(additions(state), None) is not None:
        state.phase = PHASE_ADD
    else:
        state._next_turn()


def _give_pile(state: State, to: int) -> None:
    """A PUSH: the pile joins seat ``to``'s hand, every card known to all (R22)."""
    hand, known = state.hands[to], state.known[to]
    for card in state.pile:
        hand[card] += 1
        known[card] += 1
    state.hand_count[to] += len(state.pile)
    if state.pile:
        state.busts[to] += 1
    state.pile.clear()
    state.pile_by.clear()


def _blind(state: State, seat: int, k: int) -> None:
    """The final card, played blind as the first card of a turn (R22)."""
    state.exposed.clear()
    card = state.stacks[seat][k].pop() & RANK_MASK
    state.blind_plays[seat] += 1
    if card == CLEAR_CARD:
        state.cleared[card] += 1
        state._clear_pile(seat)
        return
    if card == PUSH:
        state.cleared[card] += 1
        state.phase = PHASE_PUSH
        return
    value = top_value(state.pile)
    state.pile.append(card)
    state.pile_by.append(seat)
    if card != WILD and value and card > value:
        state._pick_up(seat)
        return
    if state._gone_out(seat):
        return
    if run(state.pile) >= FOUR:
        state._clear_pile(seat)
    elif next(additions(state), None) is not None:
        state.phase = PHASE_ADD
    else:
        state._next_turn()
