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

from functools import lru_cache

from ..engine.cards import CLEAR_CARD, NCODES, PUSH, WILD
from ..engine.moves import ADD, CLEAR, FLIP, PLAY, TAKE, Move
from ..engine.moves import PUSH as PUSH_MOVE
from ..engine.rules import CLEAR4, Rules
from ..engine.words import card_word, count, who
from .knowledge import Knowledge, completes_clear
from .reasons import Case, GameWords
from .scoring import (
    BUST,
    CLEARS,
    COMPONENTS,
    GO_AGAIN,
    HINDERS,
    HOLDS,
    NEAR_OUT,
    OUT,
    PER_CARD,
    Candidate,
    Fact,
    Numbers,
    again,
    bar,
    by_principle,
    go_again,
    line,
    only_blind_choice,
)
from .styles import Level, Style

#: The value the line assumes the pile comes back at (C5), on Clear 4's 1–10.
MIDDLING = 6
NUMBERS = range(1, 11)
SPECIALS = (WILD, PUSH, CLEAR_CARD)


def hinder_at(level: Level) -> int:
    """The most cards the next seat may hold to count as about to go out (C6): two at every Level, as the CUT
    Levels' own counts were tuned for CUT alone."""
    return NEAR_OUT


@lru_cache(maxsize=8)
def numbers(rules: Rules) -> Numbers:
    """Clear 4's numbers for the line: groups of 1–10, then CLEAR, JOKER or PUSH alone; every card one point."""
    return Numbers(
        middling=MIDDLING,
        groups=rules.number_ranks,
        spares=(CLEAR_CARD, WILD, PUSH),
        # One point a card, high numbers shed a little first; a special card as a middling number.
        shed=tuple(PER_CARD + 0.5 + 0.1 * (card if card in NUMBERS else 5) for card in range(NCODES)),
        # A number still held costs more above the middling value; a special card is insurance, not a cost.
        strand=tuple(0.4 + (2.0 if card > MIDDLING else 0.5) if card in NUMBERS else 0.0 for card in range(NCODES)),
        board=15.0,
        is_clear=rules.is_clear,
    )


def score(known: Knowledge, nums: Numbers, move: Move, style: Style, level: Level) -> Candidate:
    """One legal Clear 4 move, its components filled in."""
    parts = dict.fromkeys(COMPONENTS, 0.0)
    cand = Candidate(move, parts)
    kind = move.kind
    if kind in (PLAY, ADD):
        _score_lay(known, nums, move, style, level, cand)
    elif kind in (CLEAR, PUSH_MOVE):
        _score_special(known, nums, move, style, level, cand)
    elif kind == TAKE:
        parts["shed"] = -sum(map(nums.shed.__getitem__, known.pile)) * style.take
        parts["assets"] = sum([_asset(known, c, -1, style) for c in known.pile]) * 0.5
        parts["control"] = -8.0 * level.hinder if known.next_left <= hinder_at(level) else 0.0
        hand = list(known.hand)
        cand.facts[HOLDS] = Fact(HOLDS, 0.0, known.hand)  # the cards it keeps of its own
        for card in known.pile:
            hand[card] += 1
        parts["line"] = line(known, nums, hand, level, cand)
    elif kind == FLIP:
        _score_blind(known, style, level, cand)
        if style.empty_pile_flips and not only_blind_choice(known, move):
            bar(cand)
    return cand


def _asset(known: Knowledge, card: int, count: int, style: Style) -> float:
    """Spending (count > 0) or gaining (count < 0) a card, as an asset or a liability."""
    if card in SPECIALS:
        if known.min_left <= style.dump_clears_at:  # C6: play them out before someone goes out
            return count * 1.0
        return -count * style.clear_asset * (0.6 if card == WILD else 1.0)
    if card <= 3:
        return -count * style.low_asset * (4 - card) * 0.75
    if card >= 9:
        return count * style.high_dump
    return 0.0


def _score_lay(known: Knowledge, nums: Numbers, move: Move, style: Style, level: Level, cand: Candidate) -> None:
    parts = cand.components
    value = known.top if move.rank == WILD else move.rank
    count = move.size
    left = known.cards_left - count
    cards = [move.rank] * move.n + [WILD] * move.jokers
    cards += [known.stacks[k][-1] or WILD for k in move.stacks]
    parts["shed"] = sum(map(nums.shed.__getitem__, cards)) + (style.group - 1.0) * count * PER_CARD
    parts["assets"] = sum([_asset(known, c, 1, style) for c in cards]) + 1.0 * len(move.stacks)
    hand = list(known.hand)
    hand[move.rank] -= move.n
    hand[WILD] -= move.jokers
    cand.facts[HOLDS] = Fact(HOLDS, 0.0, tuple(hand))
    if left == 0:
        cand.note(OUT)
        parts["go out"] = 100.0
        return
    if completes_clear(move, known):  # R22: JOKERs with no number below them never clear
        cand.note(CLEARS, cards=(value,))
        again(nums, hand, cand)
        parts["control"] = go_again(level, cand)
        parts["line"] = line(known, nums, hand, level, cand, empty_first=True)
        return
    if known.next_left <= hinder_at(level):  # C6: a low value makes a seat about to go out match or take
        parts["control"] = level.hinder * 2.8 * (10 - value) if value else -4.0 * level.hinder
        cand.note(HINDERS, parts["control"])
    parts["line"] = line(known, nums, hand, level, cand)


def _score_special(known: Knowledge, nums: Numbers, move: Move, style: Style, level: Level, cand: Candidate) -> None:
    """CLEAR (go again) and PUSH (the pile to a seat you choose)."""
    parts = cand.components
    card = CLEAR_CARD if move.kind == CLEAR else PUSH
    spent = 1 if move.n or move.stacks else 0  # 0: a PUSH just turned up blind, already out of your hands
    left = known.cards_left - spent
    parts["shed"] = spent * nums.shed[card]
    parts["assets"] = _asset(known, card, spent, style) + 1.0 * len(move.stacks)
    if known.pile:
        parts["assets"] += min(8.0, 0.6 * len(known.pile))  # the pile it saves you from facing
    hand = list(known.hand)
    hand[card] -= move.n
    if move.kind == PUSH_MOVE:
        target = known.left[move.to]
        parts["control"] = len(known.pile) * (1.0 + 6.0 / max(1, target)) * (0.5 + 0.5 * level.hinder)
    else:
        again(nums, hand, cand)
        parts["control"] = go_again(level, cand)
        parts["control"] += style.spare_clear * 0.5 * min(len(known.pile), 6) / 6
    if left == 0:
        cand.note(OUT)
        parts["go out"] = 100.0
        return
    parts["line"] = line(known, nums, hand, level, cand, empty_first=move.kind == CLEAR)


def _odds(known: Knowledge, level: Level) -> tuple[float, float, float, float]:
    """Chances that a blind final card clears, is a PUSH, lands (number or JOKER), or misses."""
    pool = known.pool(level.counts_cards)
    total = sum(pool) or 1
    clear, push = pool[CLEAR_CARD] / total, pool[PUSH] / total
    fits = pool[WILD] + sum(pool[r] for r in NUMBERS if not known.top or r <= known.top)
    fit = fits / total
    return clear, push, fit, max(0.0, 1.0 - clear - push - fit)


def _score_blind(known: Knowledge, style: Style, level: Level, cand: Candidate) -> None:
    parts = cand.components
    p_clear, p_push, p_fit, p_bust = _odds(known, level)
    cand.note(BUST, p_bust)
    parts["shed"] = round((1.0 - p_bust) * PER_CARD + p_fit * 2.5, 2)
    parts["control"] = round(p_clear * (GO_AGAIN if level.depth == 0 else 0.0) + p_push * 0.6 * len(known.pile), 2)
    if known.cards_left == 1:
        parts["go out"] = round((1.0 - p_bust) * 100.0, 2)
    take = (len(known.pile) + 1) * (PER_CARD + 0.5)
    cost = style.risk_aversion * p_bust * take + level.odds_margin * p_bust
    if known.pile:
        cost += style.blind_into_pile * 0.5
    parts["risk"] = round(-cost, 2)
    if known.pile and known.top >= 8 and style.high_pile_flip:  # C3: Gambler flips on a high pile
        by_principle(cand, "risk", style.high_pile_flip, style.high_pile_flips)


def _clear_words(case: Case) -> str:
    """CLEAR: the pile it sweeps, and the turn again (R22)."""
    pile = case.view["pile"]
    return f"sweeps a pile of {count(len(pile), 'card')} and you go again" if pile else "sheds it and you go again"


def _push_words(case: Case) -> str:
    """PUSH: whom the pile goes to, and why that seat (R22, C6)."""
    view, move = case.view, case.move
    if not view["pile"]:
        return "sheds your PUSH while the pile is empty"
    seats = view["seats"]
    left = seats[move.to]["cards_left"]
    others = [s["cards_left"] for s in seats if s["seat"] != view["seat"]]
    closest = ", the closest to going out" if left == min(others) else ""
    sent = count(len(view["pile"]), "card")
    return f"sends {sent} to {who(move.to, case.names)}{closest} ({count(left, 'card')} left)"


def _cards(move: Move) -> list[tuple[int, str]]:
    """The cards a Clear 4 move lays: its one CLEAR card, or a value's cards with the JOKERs that join them, or
    JOKERs laid on their own (R22)."""
    if move.kind == CLEAR:
        return [(1, card_word(CLEAR_CARD, CLEAR4))]
    jokers = move.size if move.rank == WILD else move.jokers
    return [(move.size - jokers, card_word(move.rank, CLEAR4)), (jokers, card_word(WILD, CLEAR4))]


#: Clear 4's own words: CLEAR and PUSH; its top value is 10 and its specials are not high, so no card is high;
#: its JOKERs join number plays.
WORDS = GameWords({CLEAR: _clear_words, PUSH_MOVE: _push_words}, high=NCODES, wild=WILD, cards=_cards)
