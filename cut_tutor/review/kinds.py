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
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from ..engine import replay, view
from ..engine.cards import KING, parse_card
from ..engine.moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP, Move
from .hand import HandReview

#: A card turned face down from the seat's own stacks: a blind play (R12), a gamble (R17), Clear 4's final card.
_BLIND = (FLIP, GAMBLE)


def _move(move: Move | str) -> Move:
    return move if isinstance(move, Move) else Move.parse(move)


def _held(seen: Mapping[str, Any], rank: int) -> int:
    """How many cards of ``rank`` the seat's hand holds."""
    return sum(parse_card(card) == rank for card in seen["hand"])


#: A test of a move against the best one, in the position the seat saw.
_Test = Callable[[Move, Move, Mapping[str, Any]], bool]


def _chose(kinds: Collection[str]) -> _Test:
    """The move is of one of ``kinds`` and the best is not."""

    def chose(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
        return mine.kind in kinds and top.kind not in kinds

    return chose


def _missed(kinds: Collection[str]) -> _Test:
    """The best is of one of ``kinds`` and the move is not."""

    def missed(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
        return top.kind in kinds and mine.kind not in kinds

    return missed


def _pushed(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
    return mine.kind == PUSH


def _held_push(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
    return top.kind == PUSH


def _adding(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
    """Both add to a landed blind card (R13), or both end a run of gambles: the count differs."""
    return mine.kind in (ADD, DONE) and top.kind in (ADD, DONE)


def _same_rank(mine: Move, top: Move) -> bool:
    return mine.kind == PLAY and top.kind == PLAY and mine.rank == top.rank


def _split(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
    """Fewer cards of the best rank than the best play, keeping some of them back in the hand."""
    return _same_rank(mine, top) and mine.size < top.size and mine.n < _held(seen, mine.rank)


def _too_many(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
    return _same_rank(mine, top) and mine.size > top.size


def _ranked(mine: Move, top: Move) -> bool:
    """Both play ranked cards, not wild ones."""
    return mine.kind == PLAY and top.kind == PLAY and max(mine.rank, top.rank) <= KING


def _higher(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
    return _ranked(mine, top) and mine.rank > top.rank


def _lower(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
    return _ranked(mine, top) and mine.rank < top.rank


def _board(mine: Move, top: Move, seen: Mapping[str, Any]) -> bool:
    """The best rank and count, drawn from other Board piles."""
    return _same_rank(mine, top) and mine.stacks != top.stacks


#: Each kind with its test, in the order they are tried; a mistake none of them names is "other".
_TESTS: tuple[tuple[str, _Test], ...] = (
    ("took", _chose((TAKE,))),
    ("missed_take", _missed((TAKE,))),
    ("spent_clear", _chose((CLEAR,))),
    ("held_clear", _missed((CLEAR,))),
    ("blind", _chose(_BLIND)),
    ("held_blind", _missed(_BLIND)),
    ("turned_up", _chose((TURNUP,))),
    ("missed_turn_up", _missed((TURNUP,))),
    ("push", _pushed),
    ("held_push", _held_push),
    ("adding", _adding),
    ("split", _split),
    ("too_many", _too_many),
    ("higher", _higher),
    ("lower", _lower),
    ("board", _board),
)
#: Every kind, in the order a count of them is listed (a table's columns, the teacher's summary).
KINDS = (*(name for name, _ in _TESTS), "other")


def kind(move: Move | str, best: Move | str, seen: Mapping[str, Any]) -> str | None:
    """The kind of mistake ``move`` is against ``best`` in the position the seat saw (``seen``: its view), ``None``
    when it is the best move. The first kind that is true, in :data:`KINDS` order, names it."""
    mine, top = _move(move), _move(best)
    if mine == top:
        return None
    return next((name for name, test in _TESTS if test(mine, top, seen)), "other")


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
