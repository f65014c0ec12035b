"""Clear 4 (R22) in the move-value engine: the same components (C1), read for Clear 4's cards.

Every card left counts one point, so ``shed`` counts cards; JOKER, PUSH and CLEAR are the assets a seat keeps
as insurance until a seat nears going out (C6); playing a stack's top card is worth a little more than a hand
card, because it turns up the card beneath. A PUSH is scored by whom it sends the pile to: the more cards, and
the closer that seat is to going out, the more the push is worth.

>>> from cut_tutor.engine import Rules, State, view
>>> from cut_tutor.coach import advise
>>> state = State.from_position({"rules": Rules.from_preset("Clear 4", players=3).to_dict(), "turn": 0,
...     "pile": "9@1 9@1 8@2 7@1", "seats": [{"hand": "P 10 10"}, {"hand": "5 5 5 5 5 5"}, {"hand": "4"}]})
>>> advise(view(state, 0), coach="Madonna").text
'Push the pile to seat 2 — sends 4 cards to seat 2, the closest to going out (1 card left).'
"""

from __future__ import annotations

from ..engine.cards import CLEAR_CARD, PUSH, WILD
from ..engine.moves import ADD, CLEAR, FLIP, PLAY, TAKE, Move
from ..engine.moves import PUSH as PUSH_MOVE
from .styles import Level, Style
from .values import COMPONENTS, GO_AGAIN, NEAR_OUT, PER_CARD, Candidate, Seat

#: The value the line assumes the pile comes back at (C5), on Clear 4's 1–10.
MIDDLING = 6
NUMBERS = range(1, 11)
SPECIALS = (WILD, PUSH, CLEAR_CARD)


def score(seat: Seat, move: Move, style: Style, level: Level) -> Candidate:
    """One legal Clear 4 move, scored by the components of :mod:`cut_tutor.coach.values`."""
    parts = dict.fromkeys(COMPONENTS, 0.0)
    cand = Candidate(move, parts)
    kind = move.kind
    if kind in (PLAY, ADD):
        _score_lay(seat, move, style, level, cand)
    elif kind in (CLEAR, PUSH_MOVE):
        _score_special(seat, move, style, level, cand)
    elif kind == TAKE:
        parts["shed"] = -sum(_shed(c, 1) for c in seat.pile) * 0.7
        parts["assets"] = sum(_asset(seat, c, -1, style) for c in seat.pile) * 0.5
        parts["control"] = -8.0 * level.hinder if seat.next_left <= NEAR_OUT else 0.0
        hand = seat.hand[:]
        for card in seat.pile:
            hand[card] += 1
        parts["line"] = _line(seat, hand, level, cand)
    elif kind == FLIP:
        _score_blind(seat, style, level, parts)
    return cand


def _shed(card: int, count: int) -> float:
    """Cards out of your hands: one point each, high numbers a little first."""
    value = card if card in NUMBERS else 5
    return count * (PER_CARD + 0.5 + 0.1 * value)


def _asset(seat: Seat, card: int, count: int, style: Style) -> float:
    """Spending (count > 0) or gaining (count < 0) a card, as an asset or a liability."""
    if card in SPECIALS:
        if seat.min_left <= style.dump_clears_at:  # C6: play them out before someone goes out
            return count * 1.0
        return -count * style.clear_asset * (0.6 if card == WILD else 1.0)
    if card <= 3:
        return -count * style.low_asset * (4 - card) * 0.75
    if card >= 9:
        return count * style.high_dump
    return 0.0


def _score_lay(seat: Seat, move: Move, style: Style, level: Level, cand: Candidate) -> None:
    parts = cand.components
    value = seat.top if move.rank == WILD else move.rank
    count = move.size
    left = seat.cards_left - count
    run = (seat.run if value and value == seat.top else 0) + count
    if move.kind == ADD and count == 0:
        run = seat.run
    cards = [move.rank] * move.n + [WILD] * move.jokers
    cards += [seat.stacks[k][-1] or WILD for k in move.stacks]
    parts["shed"] = sum(_shed(c, 1) for c in cards) + (style.group - 1.0) * count * PER_CARD
    parts["assets"] = sum(_asset(seat, c, 1, style) for c in cards) + 1.0 * len(move.stacks)
    hand = seat.hand[:]
    hand[move.rank] -= move.n
    hand[WILD] -= move.jokers
    if left == 0:
        cand.goes_out = True
        parts["go out"] = 100.0
        return
    if run >= 4 and count:
        cand.clears = True
        cand.again = _again(hand)
        parts["control"] = cand.again if level.depth == 0 else 0.0
        parts["line"] = _line(seat, hand, level, cand, empty_first=True)
        return
    if seat.next_left <= NEAR_OUT:  # C6: a low value makes a seat about to go out match or take
        parts["control"] = level.hinder * 2.8 * (10 - value) if value else -4.0 * level.hinder
    parts["line"] = _line(seat, hand, level, cand)


def _score_special(seat: Seat, move: Move, style: Style, level: Level, cand: Candidate) -> None:
    """CLEAR (go again) and PUSH (the pile to a seat you choose)."""
    parts = cand.components
    card = CLEAR_CARD if move.kind == CLEAR else PUSH
    spent = 1 if move.n or move.stacks else 0  # 0: a PUSH just turned up blind, already out of your hands
    left = seat.cards_left - spent
    parts["shed"] = _shed(card, spent)
    parts["assets"] = _asset(seat, card, spent, style) + 1.0 * len(move.stacks)
    if seat.pile:
        parts["assets"] += min(8.0, 0.6 * len(seat.pile))  # the pile it saves you from facing
    hand = seat.hand[:]
    hand[card] -= move.n
    if move.kind == PUSH_MOVE:
        target = seat.left[move.to]
        parts["control"] = len(seat.pile) * (1.0 + 6.0 / max(1, target)) * (0.5 + 0.5 * level.hinder)
    else:
        cand.again = _again(hand)
        parts["control"] = cand.again if level.depth == 0 else 0.0
        parts["control"] += style.spare_clear * 0.5 * min(len(seat.pile), 6) / 6
    if left == 0:
        cand.goes_out = True
        parts["go out"] = 100.0
        return
    parts["line"] = _line(seat, hand, level, cand, empty_first=move.kind == CLEAR)


def _odds(seat: Seat) -> tuple[float, float, float, float]:
    """Chances that a blind final card clears, is a PUSH, lands (number or JOKER), or misses."""
    pool = seat.pool
    total = sum(pool) or 1
    clear, push = pool[CLEAR_CARD] / total, pool[PUSH] / total
    fits = pool[WILD] + sum(pool[r] for r in NUMBERS if not seat.top or r <= seat.top)
    fit = fits / total
    return clear, push, fit, max(0.0, 1.0 - clear - push - fit)


def _score_blind(seat: Seat, style: Style, level: Level, parts: dict[str, float]) -> None:
    p_clear, p_push, p_fit, p_bust = _odds(seat)
    parts["shed"] = round((1.0 - p_bust) * PER_CARD + p_fit * 2.5, 2)
    parts["control"] = round(p_clear * (GO_AGAIN if level.depth == 0 else 0.0) + p_push * 0.6 * len(seat.pile), 2)
    if seat.cards_left == 1:
        parts["go out"] = round((1.0 - p_bust) * 100.0, 2)
    take = (len(seat.pile) + 1) * (PER_CARD + 0.5)
    cost = style.risk_aversion * p_bust * take + level.odds_margin * p_bust
    if seat.pile:
        cost += style.blind_into_pile * 0.5
        if seat.top >= 8:
            cost -= style.high_pile_flip
    parts["risk"] = round(-cost, 2)


def _best_group(hand: list[int], top: int) -> int:
    best, best_value = 0, 0.0
    for rank in NUMBERS:
        if hand[rank] and (top == 0 or rank <= top):
            value = _shed(rank, min(hand[rank], 4))
            if value > best_value:
                best, best_value = rank, value
    return best


def _again(hand: list[int]) -> float:
    """The extra turn after a clear: the best group the kept hand leads on an empty pile."""
    rank = _best_group(hand, 0)
    return _shed(rank, min(hand[rank], 4)) if rank else 0.0


def _line(seat: Seat, hand: list[int], level: Level, cand: Candidate, *, empty_first: bool = False) -> float:
    """C5: play the kept hand forward ``level.depth`` turns, the pile coming back at a middling value."""
    if level.depth == 0:
        return 0.0
    hand = hand[:]
    value, weight = 0.0, 0.8
    for turn in range(level.depth):
        rank = _best_group(hand, 0 if (empty_first and turn == 0) else MIDDLING)
        if rank:
            count = min(hand[rank], 4)
            value += weight * _shed(rank, count)
            hand[rank] -= count
            cand.steps.append((rank, count))
        else:
            special = next((c for c in (CLEAR_CARD, WILD, PUSH) if hand[c]), 0)
            if not special:
                value -= weight * 6.0  # nothing plays at a middling pile: a pass is likely
                break
            hand[special] -= 1
            value += weight * PER_CARD
            cand.steps.append((special, 0 if special == CLEAR_CARD else 1))
        if sum(hand) == 0:
            value += weight * 15.0
            break
        weight *= 0.8
    stranded = sum(hand[r] * (0.4 + (2.0 if r > MIDDLING else 0.5)) for r in NUMBERS)
    continues = 0.25 if seat.min_left <= NEAR_OUT else 1.0
    return round(continues * (value - 0.25 * stranded), 2)
