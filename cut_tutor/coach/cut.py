"""CUT's move values (C1): each legal move scored by the components of :mod:`.scoring`, in CUT's card points."""

from __future__ import annotations

from functools import lru_cache

from ..engine.cards import JACK, JOKER, NCODES
from ..engine.moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, TAKE, TURNUP, Move
from ..engine.rules import Rules
from ..engine.words import acts, card_word, count, number, pts, who
from .knowledge import Knowledge, completes_clear
from .reasons import Case, GameWords
from .scoring import (
    BUST,
    CLEARS,
    COMPONENTS,
    DUMPS,
    FINISHES,
    GO_AGAIN,
    HINDERS,
    HOLDS,
    NEAR_OUT,
    OUT,
    PER_CARD,
    SPARE_LOW,
    Candidate,
    Fact,
    Numbers,
    again,
    bar,
    best_group,
    by_principle,
    go_again,
    line,
    only_blind_choice,
)
from .styles import Level, Style

#: The rank the line assumes the pile comes back at: neither a cleared table nor an impossible one (C5).
MIDDLING = 8
#: What spending a whole turn without shedding costs (Pile Card Flip, R18).
TURN_COST = 6.0


@lru_cache(maxsize=64)
def numbers(rules: Rules) -> Numbers:
    """CUT's numbers for the line: groups of ordinary ranks, clear cards played alone, a card's points."""
    points = rules.points + (0,) * (NCODES - len(rules.points))
    return Numbers(
        middling=MIDDLING,
        groups=rules.number_ranks,
        spares=tuple(rank for rank in range(NCODES) if rules.is_clear[rank]),
        # Shed per card, plus half its points, plus a little for rank (shed high first).
        shed=tuple(PER_CARD + 0.5 * points[rank] + 0.1 * rank for rank in range(NCODES)),
        # A card still held costs its points, and more when above the middling rank.
        strand=tuple(points[rank] * 0.4 + (2.0 if rank > MIDDLING else 0.5) for rank in range(NCODES)),
        board=5.0,
        is_clear=rules.is_clear,
    )


def score(known: Knowledge, nums: Numbers, move: Move, style: Style, level: Level) -> Candidate:
    """One legal CUT move, its components filled in."""
    parts = dict.fromkeys(COMPONENTS, 0.0)
    cand = Candidate(move, parts)
    kind = move.kind
    if kind in (PLAY, ADD):
        _score_lay(known, nums, move, style, level, cand)
    elif kind == CLEAR:
        _score_clear(known, nums, move, style, level, cand)
    elif kind == TAKE:
        # R11: the card shown was the seat's already, so only the pile is gained; a Board card shown joins the hand.
        parts["shed"] = -sum(map(nums.shed.__getitem__, known.pile)) * style.take
        parts["assets"] = sum([_asset_change(known, c, -1, style, level) for c in known.pile]) * 0.5
        parts["control"] = -8.0 * level.hinder if _about_to_go_out(known, level) else 0.0
        hand = list(known.hand)
        cand.facts[HOLDS] = Fact(HOLDS, 0.0, known.hand)  # the cards it keeps of its own
        for card in known.pile:
            hand[card] += 1
        for shown in [known.stacks[k][-1] for k in move.stacks]:
            if shown is not None:  # a take shows only face-up cards
                hand[shown] += 1
        parts["line"] = line(known, nums, hand, level, cand)
    elif kind in (FLIP, GAMBLE):
        _score_blind(known, style, level, cand)
        if style.empty_pile_flips and not only_blind_choice(known, move):
            bar(cand)
    elif kind == TURNUP:
        risk = _blind_odds(known, level)
        cand.note(BUST, risk[2])
        parts["risk"] = round(-style.risk_aversion * risk[2] * _take_cost(known) * 0.25, 2)
        parts["shed"] = -TURN_COST  # a turn that sheds nothing
    elif kind == DONE:
        pass
    return cand


def _asset_change(known: Knowledge, rank: int, count: int, style: Style, level: Level) -> float:
    """Spending (count > 0) or gaining (count < 0) cards of a rank, as assets and liabilities."""
    if known.is_clear[rank]:
        if _dumping(known, style):
            return count * known.points[rank] * 0.5
        return -count * style.clear_asset * level.clear_weight
    if rank <= 3:
        return -count * style.low_asset * (4 - rank)
    if rank >= 11:
        return count * style.high_dump
    return 0.0


def _dumping(known: Knowledge, style: Style) -> bool:
    """C6: dump clear cards, their points, before a seat this near going out catches you with them."""
    return known.min_left <= style.dump_clears_at


def hinder_at(level: Level) -> int:
    """The most cards the next seat may hold to count as about to go out, as this Level counts it (C6)."""
    return level.hinder_at


def _about_to_go_out(known: Knowledge, level: Level) -> bool:
    """Is the next seat about to go out, as this Level counts it (C6)?"""
    return known.next_left <= hinder_at(level)


def _control(known: Knowledge, top_after: int, level: Level) -> float:
    """What the next seat faces: when it is about to go out, a low top makes it match or take (C6)."""
    if top_after == 0 or not _about_to_go_out(known, level):
        return 0.0
    return level.hinder * 2.8 * (13 - top_after)


def _clear_assets(known: Knowledge, move: Move, style: Style, level: Level) -> float:
    value = 0.0
    if move.n:
        value += _asset_change(known, move.rank, move.n, style, level)
    if move.jokers:
        value += _asset_change(known, JOKER, move.jokers, style, level)
    for k in move.stacks:
        card = known.stacks[k][-1]
        if card is not None:
            value += _asset_change(known, card, 1, style, level)
    if known.pile and known.min_left > NEAR_OUT:
        value += min(8.0, 0.5 * len(known.pile) + 0.1 * known.pile_points)  # the pile it saves you from taking
    return value


def _score_lay(known: Knowledge, nums: Numbers, move: Move, style: Style, level: Level, cand: Candidate) -> None:
    parts = cand.components
    rank, count = move.rank, move.size
    left = known.cards_left - count
    parts["shed"] = count * nums.shed[rank] + (style.group - 1.0) * count * PER_CARD
    parts["assets"] = _asset_change(known, rank, count, style, level) - 1.5 * len(move.stacks)
    hand = list(known.hand)
    hand[rank] -= move.n
    cand.facts[HOLDS] = Fact(HOLDS, 0.0, tuple(hand))
    if left == 0:
        cand.note(OUT)
        parts["go out"] = 100.0
        return
    if count and completes_clear(move, known):
        cand.note(CLEARS, cards=(rank,))
        again(nums, hand, cand)
        parts["control"] = go_again(level, cand)
        if _one_play_empties(known, hand, left):
            cand.note(FINISHES)
            parts["go out"] = 80.0
        parts["line"] = line(known, nums, hand, level, cand, empty_first=True)
        return
    parts["control"] = _control(known, rank, level)
    if parts["control"]:
        cand.note(HINDERS, parts["control"])
    if known.pile and rank <= 3 and count > 1:  # the next seat faces the same top with one low card as with all
        spare = level.spare_low_weight * (count - 1) * (4 - rank)
        cand.note(SPARE_LOW, spare)
        parts["assets"] -= spare
    if not known.pile and not _about_to_go_out(known, level):  # C6: lead high, the pile every card fits
        parts["shed"] += level.lead_weight * rank
    parts["line"] = line(known, nums, hand, level, cand)


def _score_clear(known: Knowledge, nums: Numbers, move: Move, style: Style, level: Level, cand: Candidate) -> None:
    """A clear play: the cards spent, the pile swept, and the extra turn it earns (R9)."""
    parts = cand.components
    count = move.size
    left = known.cards_left - count
    parts["shed"] = count * PER_CARD
    parts["assets"] = _clear_assets(known, move, style, level)
    hand = _hand_after_clear(known, move)
    again(nums, hand, cand)
    # Spending a clear while another stays in hand seizes the board without giving up the way out.
    spare = known.clears_held - move.n - move.jokers >= 1
    seize = style.spare_clear * (1.0 + 0.1 * known.pile_points) if spare else 0.0
    # The extra turn is worth what it sheds beyond the number play open now: on an empty pile, nothing.
    extra = go_again(level, cand)
    if extra:
        extra = max(0.0, extra - best_group(nums, list(known.hand), known.top)[1])
    parts["control"] = extra + seize
    if _dumping(known, style):
        cand.note(DUMPS)
    cand.facts[HOLDS] = Fact(HOLDS, 0.0, tuple(hand))
    if left == 0:
        cand.note(OUT)
        parts["go out"] = 100.0
        return
    if _one_play_empties(known, hand, left):
        cand.note(FINISHES)
        parts["go out"] = 80.0
    parts["line"] = line(known, nums, hand, level, cand, empty_first=True)


def _hand_after_clear(known: Knowledge, move: Move) -> list[int]:
    """The hand left after a clear play."""
    hand = list(known.hand)
    hand[move.rank] -= move.n
    hand[JOKER] -= move.jokers
    return hand


def _blind_odds(known: Knowledge, level: Level) -> tuple[float, float, float]:
    """Chances that a blind card clears, fits, or busts, from the unseen cards."""
    pool = known.pool(level.counts_cards)
    total = sum(pool) or 1
    clear = sum(pool[r] for r in range(NCODES) if known.is_clear[r]) / total
    if not known.pile:
        return clear, 1.0 - clear, 0.0
    fit = sum(pool[r] for r in range(1, known.top + 1) if not known.is_clear[r]) / total
    return clear, fit, max(0.0, 1.0 - clear - fit)


def _take_cost(known: Knowledge) -> float:
    """What taking the pile (and a missed blind card) costs, in the same points as shedding."""
    return (len(known.pile) + 1) * PER_CARD + 0.5 * (known.pile_points + 6) + known.rules.bust_penalty


def _score_blind(known: Knowledge, style: Style, level: Level, cand: Candidate) -> None:
    parts = cand.components
    p_clear, p_fit, p_bust = _blind_odds(known, level)
    cand.note(BUST, p_bust)
    last = known.cards_left == 1
    parts["shed"] = round((p_clear + p_fit) * PER_CARD + p_fit * 2.5, 2)
    parts["control"] = round(p_clear * (GO_AGAIN if level.depth == 0 else 0.0), 2)
    if last:
        parts["go out"] = round((p_clear + p_fit) * 100.0, 2)
    cost = style.risk_aversion * p_bust * _take_cost(known) + level.odds_margin * p_bust
    if known.pile:
        cost += style.blind_into_pile
    parts["risk"] = round(-cost, 2)
    if known.pile and known.top >= 10 and style.high_pile_flip:  # C3: Gambler flips on a high pile
        by_principle(cand, "risk", style.high_pile_flip, style.high_pile_flips)


def _one_play_empties(known: Knowledge, hand: list[int], left: int) -> bool:
    """After a clear: can one play on the empty pile shed every remaining card (hand only)?"""
    if left != sum(hand):
        return False
    ranks = [r for r in range(1, NCODES) if hand[r]]
    if all(known.is_clear[r] for r in ranks):
        return True
    return len(ranks) == 1 and (known.rules.four_plus_clears or hand[ranks[0]] <= 4)


def _clear_words(case: Case) -> str:
    """A clear play: the points it dumps before a seat goes out (C6), else the pile it sweeps and the turn again."""
    move, view = case.move, case.view
    if DUMPS in case.cand.facts:
        value = view["rules"]["clear_value"] * move.size
        closest = min((s for s in view["seats"] if s["seat"] != view["seat"]), key=lambda s: s["cards_left"])["seat"]
        dumped = "a clear card" if move.size == 1 else f"{number(move.size)} clear cards"
        return f"dumps {dumped} worth {value} points before {acts(who(closest, case.names), 'go out')}"
    if not view["pile"]:
        return f"sheds {'it' if move.size == 1 else 'them'} and you go again"
    return f"sweeps a pile of {count(len(view['pile']), 'card')} ({pts(view['pile_points'])}) and you go again"


def _cards(move: Move) -> list[tuple[int, str]]:
    """The cards a CUT move lays: a clear play's clear-rank cards, Jokers and face-up clear cards (R9), whose rank
    the move does not say; otherwise its cards of one rank."""
    if move.kind == CLEAR:
        stacks = (len(move.stacks), "face-up clear card")
        return [(move.n, card_word(move.rank)), (move.jokers, card_word(JOKER)), stacks]
    return [(move.size, card_word(move.rank))]


#: CUT's own words: its clear plays (R9); J, Q and K are its high cards; Jokers join clear plays.
WORDS = GameWords({CLEAR: _clear_words}, high=JACK, wild=JOKER, cards=_cards)
