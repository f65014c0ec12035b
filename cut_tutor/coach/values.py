"""The move-value engine (C1): every legal move of a seat scored from its view alone, by named parts.

Components, in the guide's order and in points a learner can compare:

``go out``   the move empties your cards (or clears and leaves one play that does)
``shed``     cards shed, by count and by their points; negative for cards taken
``assets``   low cards and clear cards kept, high cards and clear-card points dumped
``control``  what the next seat faces; going again after a clear; hindering a seat about to go out
``risk``     a blind card that may bust: the chance it misses times what the pile costs to take
``line``     lookahead: how well the cards you keep play over your next turns (C5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import mul
from typing import Any

from ..engine.cards import CODES, JOKER, NCODES, RANK_MASK, UP, card_name
from ..engine.clear4 import run as clear4_run
from ..engine.clear4 import top_value
from ..engine.moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, TAKE, TURNUP, Move
from ..engine.rules import Rules
from ..engine.state import State
from .styles import Level, Style

COMPONENTS = ("go out", "shed", "assets", "control", "risk", "line")
#: The rank the line assumes the pile comes back at: neither a cleared table nor an impossible one (C5).
MIDDLING = 8
#: Points of one card shed, before its own card points count.
PER_CARD = 3.0
#: The value of going again after a clear, for a seat that does not look ahead.
GO_AGAIN = 4.0
#: What spending a whole turn without shedding costs (Pile Card Flip, R18).
TURN_COST = 6.0
#: A seat this close to going out changes the play (C6).
NEAR_OUT = 2


@dataclass
class Candidate:
    """One legal move with its value parts and total."""

    move: Move
    components: dict[str, float]
    total: float = 0.0
    steps: list[tuple[int, int]] = field(default_factory=list)  # the line's plays: (rank, count)
    goes_out: bool = False
    clears: bool = False  # completes four of a rank: a natural clear, which costs nothing
    again: float = 0.0  # after a clear: the best play of the extra turn, part of this turn's value

    @property
    def turn_value(self) -> float:
        """The value of this turn alone: everything but the line, the extra turn after a clear included."""
        return self.total - self.components["line"] + (self.again if self.components["line"] else 0.0)


@lru_cache(maxsize=64)
def _rules(key: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.from_dict(dict(key))


@lru_cache(maxsize=4096)
def _move(text: str) -> Move:
    return Move.parse(text)


class Seat:
    """What the seat to advise knows (C2): nothing else reaches the coach.

    Built from the seat's view (:meth:`from_view`, what the coach and the browser receive) or, for AI
    seats in simulations, straight from the state by reading only what that view shows
    (:meth:`from_state`); tests check the two are equal on random positions.
    """

    def __init__(
        self, rules: Rules, me: int, hand: list[int], stacks: list[list[int | None]], pile: list[int],
        left: list[int], phase: str, pool: list[int],
    ) -> None:  # fmt: skip
        self.rules = rules
        self.points = rules.points + (0,) * (NCODES - len(rules.points))
        self.is_clear = rules.is_clear
        self.hand = hand
        self.hand_count = sum(hand)
        self.stacks = stacks
        self.stack_cards = sum(len(s) for s in stacks)
        self.pile = pile
        self.top = pile[-1] if pile else 0
        run = 0
        for card in reversed(pile):
            if card != self.top:
                break
            run += 1
        self.run = run
        self.clear4 = rules.clear4
        if rules.clear4:  # R22: a JOKER counts as the value below it
            self.top, self.run = top_value(pile), clear4_run(pile)
        self.pile_points = sum(self.points[c] for c in pile)
        self.left = left
        self.next_left = left[(me + 1) % len(left)]
        self.min_left = min(n for i, n in enumerate(left) if i != me)
        self.phase = phase
        self.pool = pool
        self.clears_held = sum(hand[r] for r in range(NCODES) if self.is_clear[r])
        self.strand = _strand_weights(rules)
        self.groupable = _groupable(rules)

    @classmethod
    def from_view(cls, view: dict[str, Any], level: Level) -> Seat:
        """The seat's knowledge from its JSON view."""
        rules = _rules(tuple(sorted(view["rules"].items())))
        hand = [0] * NCODES
        for name in view["hand"]:
            hand[CODES[name]] += 1
        mine = view["seats"][view["seat"]]
        stacks = [[None if c is None else CODES[c] for c in stack] for stack in mine["stacks"]]
        pile = [CODES[p["card"]] for p in view["pile"]]
        left = [s["cards_left"] for s in view["seats"]]
        return cls(rules, view["seat"], hand, stacks, pile, left, view["phase"], _pool(view, rules, level.counts_cards))

    @classmethod
    def from_state(cls, state: State, seat: int, level: Level) -> Seat:
        """The same knowledge read from the state: own hand, face-up cards, pile, counts, public pick-ups."""
        hand = state.hands[seat]
        deck = _deck_counts(state.rules)
        size = len(hand)
        if level.counts_cards:
            known = [sum(col) for col in zip(*(state.known[i] for i in range(state.players) if i != seat), strict=True)]
            pool = [d - h - c - k for d, h, c, k in zip(deck, hand, state.cleared, known, strict=False)]
        else:
            pool = [d - h for d, h in zip(deck, hand, strict=False)]
        pool += deck[size:]
        for card in state.pile:
            pool[card] -= 1
        for seat_stacks in state.stacks:
            for stack in seat_stacks:
                for card in stack:
                    if card & UP:
                        pool[card & RANK_MASK] -= 1
        stacks = [[c & RANK_MASK if c & UP else None for c in stack] for stack in state.stacks[seat]]
        left = [n + sum(map(len, st)) for n, st in zip(state.hand_count, state.stacks, strict=True)]
        return cls(state.rules, seat, hand + [0] * (NCODES - size), stacks, list(state.pile), left, state.phase,
                   [max(0, n) for n in pool])  # fmt: skip

    @property
    def cards_left(self) -> int:
        return self.hand_count + self.stack_cards


def _pool(view: dict[str, Any], rules: Rules, counts_cards: bool) -> list[int]:
    """The cards a blind card may be: the deck minus what the seat sees (all public knowledge when counting)."""
    pool = list(_deck_counts(rules))
    seen = list(view["hand"]) + [p["card"] for p in view["pile"]]
    for info in view["seats"]:
        seen += [c for stack in info["stacks"] for c in stack if c is not None]
        if counts_cards and info["seat"] != view["seat"]:
            seen += info["known"]
    if counts_cards:
        seen += view["cleared"]
    for name in seen:
        pool[CODES[name]] -= 1
    return [max(0, n) for n in pool]


@lru_cache(maxsize=64)
def _deck_counts(rules: Rules) -> tuple[int, ...]:
    pool = [0] * NCODES
    for card in rules.deck():
        pool[card] += 1
    return tuple(pool)


def evaluate(view: dict[str, Any], style: Style, level: Level) -> list[Candidate]:
    """Score every legal move of the seat to move in ``view``; best first, ties kept in move order."""
    return evaluate_seat(Seat.from_view(view, level), [_move(text) for text in view["legal"]], style, level)


def evaluate_seat(seat: Seat, legal: Sequence[Move], style: Style, level: Level) -> list[Candidate]:
    """Score the legal moves of a seat whose knowledge is ``seat``; best first, ties kept in move order."""
    score = _score
    if seat.clear4:
        from .clear4 import score
    candidates = [score(seat, move, style, level) for move in legal]
    for cand in candidates:
        cand.total = round(sum(cand.components.values()), 2)
    return sorted(candidates, key=lambda c: -c.total)


def _shed_value(seat: Seat, rank: int, count: int) -> float:
    """Cards out of your hands: per card, plus half its points, plus a little for rank (shed high first)."""
    return count * (PER_CARD + 0.5 * seat.points[rank] + 0.1 * rank)


def _asset_change(seat: Seat, rank: int, count: int, style: Style) -> float:
    """Spending (count > 0) or gaining (count < 0) cards of a rank, as assets and liabilities."""
    if seat.is_clear[rank]:
        if seat.min_left <= style.dump_clears_at:  # C6: dump clears before someone goes out
            return count * seat.points[rank] * 0.5
        return -count * style.clear_asset
    if rank <= 3:
        return -count * style.low_asset * (4 - rank)
    if rank >= 11:
        return count * style.high_dump
    return 0.0


def _control(seat: Seat, top_after: int, level: Level) -> float:
    """What the next seat faces: when it is about to go out, a low top makes it match or take (C6)."""
    if top_after == 0 or seat.next_left > NEAR_OUT:
        return 0.0
    return level.hinder * 2.8 * (13 - top_after)


def _score(seat: Seat, move: Move, style: Style, level: Level) -> Candidate:
    parts = dict.fromkeys(COMPONENTS, 0.0)
    cand = Candidate(move, parts)
    kind = move.kind
    if kind in (PLAY, ADD):
        _score_lay(seat, move, style, level, cand)
    elif kind == CLEAR:
        count = move.size
        left = seat.cards_left - count
        parts["shed"] = count * PER_CARD
        parts["assets"] = _clear_assets(seat, move, style)
        cand.again = _again(seat, hand_after_clear(seat, move))
        # Spending a clear while another stays in hand seizes the board without giving up the way out.
        spare = seat.clears_held - move.n - move.jokers >= 1
        seize = style.spare_clear * (1.0 + 0.1 * seat.pile_points) if spare else 0.0
        parts["control"] = _go_again(level, cand) + seize
        if left == 0:
            cand.goes_out = True
            parts["go out"] = 100.0
        else:
            hand = hand_after_clear(seat, move)
            if _one_play_empties(seat, hand, left):
                parts["go out"] = 80.0
            parts["line"] = _line(seat, hand, level, cand, empty_first=True)
    elif kind == TAKE:
        gained = list(seat.pile) + ([move.rank] if move.rank else [])
        parts["shed"] = -sum(_shed_value(seat, c, 1) for c in gained) * 0.7
        parts["assets"] = sum(_asset_change(seat, c, -1, style) for c in gained) * 0.5
        parts["control"] = -8.0 * level.hinder if seat.next_left <= NEAR_OUT else 0.0
        hand = seat.hand[:]
        for card in seat.pile:
            hand[card] += 1
        parts["line"] = _line(seat, hand, level, cand)
    elif kind in (FLIP, GAMBLE):
        _score_blind(seat, move, style, level, parts)
    elif kind == TURNUP:
        risk = _blind_odds(seat)
        parts["risk"] = round(-style.risk_aversion * risk[2] * _take_cost(seat) * 0.25, 2)
        parts["control"] = -TURN_COST
    elif kind == DONE:
        pass
    return cand


def _clear_assets(seat: Seat, move: Move, style: Style) -> float:
    value = 0.0
    if move.n:
        value += _asset_change(seat, move.rank, move.n, style)
    if move.jokers:
        value += _asset_change(seat, JOKER, move.jokers, style)
    for k in move.stacks:
        card = seat.stacks[k][-1]
        if card is not None:
            value += _asset_change(seat, card, 1, style)
    if seat.pile and seat.min_left > NEAR_OUT:
        value += min(8.0, 0.5 * len(seat.pile) + 0.1 * seat.pile_points)  # the pile it saves you from taking
    return value


def _score_lay(seat: Seat, move: Move, style: Style, level: Level, cand: Candidate) -> None:
    parts = cand.components
    rank, count = move.rank, move.size
    left = seat.cards_left - count
    run = (seat.run if seat.top == rank else 0) + count
    if move.kind == ADD and count == 0:
        run = seat.run
    parts["shed"] = _shed_value(seat, rank, count) + (style.group - 1.0) * count * PER_CARD
    parts["assets"] = _asset_change(seat, rank, count, style) - 1.5 * len(move.stacks)
    hand = seat.hand[:]
    hand[rank] -= move.n
    if left == 0:
        cand.goes_out = True
        parts["go out"] = 100.0
        return
    if run >= 4 and count:
        cand.clears = True
        cand.again = _again(seat, hand)
        parts["control"] = _go_again(level, cand)
        if _one_play_empties(seat, hand, left):
            parts["go out"] = 80.0
        parts["line"] = _line(seat, hand, level, cand, empty_first=True)
        return
    parts["control"] = _control(seat, rank, level)
    parts["line"] = _line(seat, hand, level, cand)


def hand_after_clear(seat: Seat, move: Move) -> list[int]:
    """The hand left after a clear play."""
    hand = seat.hand[:]
    hand[move.rank] -= move.n
    hand[JOKER] -= move.jokers
    return hand


def _again(seat: Seat, hand: list[int]) -> float:
    """What the extra turn after a clear is worth: the best group the kept hand leads on an empty pile."""
    return _best_group(seat, hand, 0)[1]


def _go_again(level: Level, cand: Candidate) -> float:
    """The extra turn after a clear; with lookahead the line already plays that turn."""
    return cand.again if level.depth == 0 else 0.0


def _blind_odds(seat: Seat) -> tuple[float, float, float]:
    """Chances that a blind card clears, fits, or busts, from the unseen cards."""
    total = sum(seat.pool) or 1
    clear = sum(seat.pool[r] for r in range(NCODES) if seat.is_clear[r]) / total
    if not seat.pile:
        return clear, 1.0 - clear, 0.0
    fit = sum(seat.pool[r] for r in range(1, seat.top + 1) if not seat.is_clear[r]) / total
    return clear, fit, max(0.0, 1.0 - clear - fit)


def _take_cost(seat: Seat) -> float:
    """What taking the pile (and a missed blind card) costs, in the same points as shedding."""
    return (len(seat.pile) + 1) * PER_CARD + 0.5 * (seat.pile_points + 6) + seat.rules.bust_penalty


def _score_blind(seat: Seat, move: Move, style: Style, level: Level, parts: dict[str, float]) -> None:
    p_clear, p_fit, p_bust = _blind_odds(seat)
    last = seat.cards_left == 1
    parts["shed"] = round((p_clear + p_fit) * PER_CARD + p_fit * 2.5, 2)
    parts["control"] = round(p_clear * (GO_AGAIN if level.depth == 0 else 0.0), 2)
    if last:
        parts["go out"] = round((p_clear + p_fit) * 100.0, 2)
    cost = style.risk_aversion * p_bust * _take_cost(seat) + level.odds_margin * p_bust
    if seat.pile:
        cost += style.blind_into_pile
        if seat.top >= 10:
            cost -= style.high_pile_flip
    parts["risk"] = round(-cost, 2)


def _one_play_empties(seat: Seat, hand: list[int], left: int) -> bool:
    """After a clear: can one play on the empty pile shed every remaining card (hand only)?"""
    if left != sum(hand):
        return False
    ranks = [r for r in range(1, NCODES) if hand[r]]
    if all(seat.is_clear[r] for r in ranks):
        return True
    return len(ranks) == 1 and (seat.rules.four_plus_clears or hand[ranks[0]] <= 4)


def _best_group(seat: Seat, hand: list[int], top: int) -> tuple[int, float]:
    """The rank a simple player sheds next on a pile topped by ``top`` (0 = empty), and what it sheds."""
    best, best_value = 0, 0.0
    points = seat.points
    for rank in seat.groupable:
        if top and rank > top:
            break
        held = hand[rank]
        if held:
            value = min(held, 4) * (PER_CARD + 0.5 * points[rank] + 0.1 * rank)  # _shed_value, inlined
            if value > best_value:
                best, best_value = rank, value
    return best, best_value


@lru_cache(maxsize=64)
def _groupable(rules: Rules) -> tuple[int, ...]:
    """The ranks that are shed in groups, low to high: everything but clear cards."""
    return tuple(rank for rank in range(1, NCODES) if not rules.is_clear[rank])


@lru_cache(maxsize=64)
def _strand_weights(rules: Rules) -> tuple[float, ...]:
    """What a card still held after the line costs: its points, and more when above the middling rank."""
    return tuple(rules.points[r] * 0.4 + (2.0 if r > MIDDLING else 0.5) for r in range(len(rules.points)))


def _line(seat: Seat, hand: list[int], level: Level, cand: Candidate, *, empty_first: bool = False) -> float:
    """C5: play the kept hand forward ``level.depth`` turns, the pile coming back at a middling rank.

    ``hand`` is the caller's scratch copy: the line plays its cards out of it.
    """
    if level.depth == 0:
        return 0.0
    value = 0.0
    weight = 0.8
    for turn in range(level.depth):
        top = 0 if (empty_first and turn == 0) else MIDDLING
        rank, shed = _best_group(seat, hand, top)
        if rank:
            count = min(hand[rank], 4)
            value += weight * shed
            hand[rank] -= count
            cand.steps.append((rank, count))
        else:
            clear = next((r for r in range(NCODES) if hand[r] and seat.is_clear[r]), 0)
            if not clear:
                value -= weight * 6.0  # nothing plays at a middling pile: a take is likely
                break
            hand[clear] -= 1
            value += weight * PER_CARD
            cand.steps.append((clear, 0))
        if not any(hand):
            # an empty hand goes out, or at least brings the Board into play
            value += weight * (15.0 if seat.stack_cards == 0 else 5.0)
            break
        weight *= 0.8
    stranded: float = sum(map(mul, hand, seat.strand))
    # The line only pays if the hand goes on: less likely with a seat about to go out.
    continues = 0.25 if seat.min_left <= NEAR_OUT else 1.0
    return round(continues * (value - 0.25 * stranded), 2)


def plan_text(steps: list[tuple[int, int]]) -> list[str]:
    """The line's plays in words: ``your 2 7s``; a count of 0 marks a clear card spent to clear."""
    words = []
    for rank, count in steps:
        name = "Joker" if rank == JOKER else card_name(rank)
        if count == 0:
            words.append(f"your {name} to clear")
        else:
            words.append(f"your {name}" if count == 1 else f"your {count} {name}s")
    return words
