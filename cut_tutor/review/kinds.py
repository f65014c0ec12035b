"""Mistake kinds: what sort of mistake a graded decision is, named from the move made against the best one and
the seat's view at that ply only (C2), so that a learner (and a teacher) can see which mistakes come back.

The kinds hold in both games: a take is CUT's bust (R11) or Clear 4's pass (R22); a clear play spends 10s or
Jokers (R9) or Clear 4's CLEAR; a blind card is a Risk card turned (R12), a gamble (R17) or Clear 4's final card.
The guide's *Hand review* page lists them; their words are in :data:`~cut_tutor.review.words.MISTAKE_KINDS`.

>>> seen = {"hand": ["8", "8", "4"]}
>>> kind("take", "1×4", seen), kind("1×8", "2×8", seen), kind("1×8", "1×4", seen), kind("2×8", "2×8", seen)
('took', 'split', 'higher', None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ..engine import replay, view
from ..engine.cards import KING, parse_card
from ..engine.moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP, Move
from .hand import HandReview

#: Every kind, in the order a count of them is listed (a table's columns, the teacher's summary).
KINDS = ("took", "missed_take", "spent_clear", "held_clear", "blind", "held_blind", "turned_up", "missed_turn_up",
         "push", "held_push", "adding", "split", "too_many", "higher", "lower", "board", "other")  # fmt: skip
#: A card turned face down from the seat's own stacks: a blind play (R12), a gamble (R17), Clear 4's final card.
_BLIND = (FLIP, GAMBLE)


def _move(move: Move | str) -> Move:
    return move if isinstance(move, Move) else Move.parse(move)


def _held(seen: Mapping[str, Any], rank: int) -> int:
    """How many cards of ``rank`` the seat's hand holds."""
    return sum(parse_card(card) == rank for card in seen["hand"])


def kind(move: Move | str, best: Move | str, seen: Mapping[str, Any]) -> str | None:
    """The kind of mistake ``move`` is against ``best`` in the position the seat saw (``seen``: its view), ``None``
    when it is the best move. The first kind that is true, in :data:`KINDS` order, names it."""
    mine, top = _move(move), _move(best)
    if mine == top:
        return None
    pairs = (
        ("took", mine.kind == TAKE and top.kind != TAKE),
        ("missed_take", top.kind == TAKE and mine.kind != TAKE),
        ("spent_clear", mine.kind == CLEAR and top.kind != CLEAR),
        ("held_clear", top.kind == CLEAR and mine.kind != CLEAR),
        ("blind", mine.kind in _BLIND and top.kind not in _BLIND),
        ("held_blind", top.kind in _BLIND and mine.kind not in _BLIND),
        ("turned_up", mine.kind == TURNUP and top.kind != TURNUP),
        ("missed_turn_up", top.kind == TURNUP and mine.kind != TURNUP),
        ("push", mine.kind == PUSH),
        ("held_push", top.kind == PUSH),
        ("adding", mine.kind in (ADD, DONE) and top.kind in (ADD, DONE)),
    )
    found = next((name for name, true in pairs if true), None)
    if found is not None:
        return found
    if mine.kind == PLAY and top.kind == PLAY and mine.rank == top.rank:
        if mine.size < top.size and mine.n < _held(seen, mine.rank):
            return "split"
        if mine.size > top.size:
            return "too_many"
        if mine.stacks != top.stacks:
            return "board"
    if mine.kind == PLAY and top.kind == PLAY and max(mine.rank, top.rank) <= KING:  # ranked cards, not wild ones
        if mine.rank > top.rank:
            return "higher"
        if mine.rank < top.rank:
            return "lower"
    return "other"


def hand_kinds(record: Mapping[str, Any], hand: HandReview) -> dict[int, str]:
    """The kind of every graded decision of a hand review, by ply, each from the reviewed seat's view at its ply."""
    found = {}
    for decision in hand.mistakes():
        seen = view(replay(dict(record), upto=decision.ply), hand.summary.seat)
        found[decision.ply] = kind(decision.move, decision.best, seen) or "other"
    return found


def kind_counts(kinds: Iterable[str]) -> dict[str, int]:
    """How many of each kind, every kind of :data:`KINDS` present (zero or more), in that order.

    >>> {k: n for k, n in kind_counts(["took", "split", "took"]).items() if n}
    {'took': 2, 'split': 1}
    """
    counts = Counter(kinds)
    return {name: counts[name] for name in KINDS}
