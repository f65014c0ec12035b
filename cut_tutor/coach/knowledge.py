"""What the seat to advise knows (C2): nothing else reaches the coach.

:class:`Knowledge` is built from the seat's JSON view (:meth:`Knowledge.from_view`, what the coach and the browser
receive) or, for AI seats in simulations, from the :class:`~cut_tutor.engine.view.Sight` that the view itself is
built from (:meth:`Knowledge.from_sight`). The coach never receives a state; tests keep the two paths equal.

>>> from cut_tutor.engine import Rules, State, view
>>> from cut_tutor.engine.view import sight
>>> state = State.deal(Rules(), seed=3)
>>> Knowledge.from_view(view(state, 1)) == Knowledge.from_sight(sight(state, 1))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import chain
from operator import add, mul, sub
from typing import Any, NamedTuple

from ..engine.cards import CODES, NCODES
from ..engine.games import module_of
from ..engine.moves import ADD, PLAY, Move
from ..engine.rules import Rules
from ..engine.view import Sight
from ..engine.words import move_labels


class Knowledge(NamedTuple):
    """One seat's knowledge, in card codes: its cards, the table as it sees it, and the cards it cannot see."""

    rules: Rules
    seat: int
    phase: str
    turns: int
    legal: tuple[Move, ...]  # empty unless the seat is to move
    hand: tuple[int, ...]  # counts by code, every code
    stacks: tuple[tuple[int | None, ...], ...]  # the seat's own stacks, bottom first: None face down
    pile: tuple[int, ...]
    top: int  # the value to play equal or lower to (0: any)
    run: int  # cards of that value together on top of the pile: the view's top_run, as the game module counts it
    left: tuple[int, ...]  # cards left, per seat
    out_of_sight: tuple[int, ...]  # per code, what a blind card may be to a seat counting none: deck less all in sight
    counted: tuple[int, ...]  # the same, also minus the cleared cards and the cards others were seen to pick up
    # Read off the fields above once, for the scorers:
    points: tuple[int, ...]  # per code, Clear 4's included
    is_clear: tuple[bool, ...]
    stack_cards: int
    cards_left: int
    pile_points: int
    next_left: int  # cards left to the next seat
    min_left: int  # fewest cards left to any other seat
    clears_held: int  # clear cards in hand
    tops: tuple[tuple[int, int], ...]  # the seat's own face-up stack tops: (stack, card)

    def pool(self, counts_cards: bool) -> tuple[int, ...]:
        """The cards a blind card may be, for a seat that counts cards (C4) or one that does not."""
        return self.counted if counts_cards else self.out_of_sight

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Knowledge:
        """The seat's knowledge from its JSON view. A view recorded before views sent ``top_run`` (the regret
        records the benchmarks tune on) has its run counted by its game module, as :func:`~cut_tutor.engine.view`
        counts it."""
        me, seats, pile = view["seat"], view["seats"], view["pile"]
        rules = _rules(tuple(sorted(view["rules"].items())))
        cards = [CODES[entry["card"]] for entry in pile]
        return _knowledge(
            rules=rules,
            seat=me,
            phase=view["phase"],
            turns=view["turns"],
            legal=tuple([_move(text) for text in view["legal"]]),
            hand=_counts(view["hand"]),
            stacks=[[None if c is None else CODES[c] for c in stack] for stack in seats[me]["stacks"]],
            face_up=[CODES[c] for info in seats for stack in info["stacks"] for c in stack if c is not None],
            public=_counts(chain(view["cleared"], *[info["known"] for info in seats if info["seat"] != me])),
            left=tuple([info["cards_left"] for info in seats]),
            pile=cards,
            top=_counts_as(pile[-1]) if pile else 0,
            run=view["top_run"] if "top_run" in view else module_of(rules).run(cards),
        )

    @classmethod
    def from_sight(cls, seen: Sight) -> Knowledge:
        """The same knowledge from the sight the view is built from, without building the JSON."""
        me, known = seen.seat, seen.known
        return _knowledge(
            rules=seen.rules,
            seat=me,
            phase=seen.phase,
            turns=seen.turns,
            legal=seen.legal,
            hand=seen.hand,
            stacks=seen.stacks[me],
            face_up=[c for stacks in seen.stacks for stack in stacks for c in stack if c is not None],
            public=_total(seen.cleared, *known[:me], *known[me + 1 :]),
            left=seen.cards_left,
            pile=seen.pile,
            top=seen.value,
            run=seen.run,
        )


def _knowledge(
    *, rules: Rules, seat: int, phase: str, turns: int, legal: tuple[Move, ...], hand: Sequence[int],
    stacks: Sequence[Sequence[int | None]], face_up: list[int], public: list[int], left: tuple[int, ...],
    pile: Sequence[int], top: int, run: int,
) -> Knowledge:  # fmt: skip
    """Knowledge from the seat's facts, whichever form they came in; ``face_up`` lists every seat's face-up
    stack cards, ``public`` counts the cleared cards and those the other seats were seen to pick up.
    """
    hand = tuple(hand) + (0,) * (NCODES - len(hand))
    out_of_sight = list(map(sub, rules.deck_counts, hand))
    for card in pile:
        out_of_sight[card] -= 1
    for card in face_up:
        out_of_sight[card] -= 1
    counted = list(map(sub, out_of_sight, public)) + out_of_sight[len(public) :]
    points = rules.points + (0,) * (NCODES - len(rules.points))
    own = tuple(map(tuple, stacks))
    stack_cards = sum(map(len, own))
    return Knowledge(
        rules=rules, seat=seat, phase=phase, turns=turns, legal=legal, hand=hand, stacks=own, pile=tuple(pile),
        top=top, run=run, left=left, out_of_sight=_floor(out_of_sight), counted=_floor(counted), points=points,
        is_clear=rules.is_clear, stack_cards=stack_cards, cards_left=sum(hand) + stack_cards,
        pile_points=sum(map(points.__getitem__, pile)), next_left=left[(seat + 1) % len(left)],
        min_left=min(left[:seat] + left[seat + 1 :]), clears_held=sum(map(mul, hand, rules.is_clear)),
        tops=tuple([(k, stack[-1]) for k, stack in enumerate(own) if stack and stack[-1] is not None]),
    )  # fmt: skip


def completes_clear(move: Move, know: Knowledge) -> bool:
    """Does this play leave four or more of its rank on top of the pile (R10; in Clear 4, of its value, R22)? The
    game module answers, from the pile's top value and top run."""
    return module_of(know.rules).completes_four(know.top, know.run, move)


def move_words(know: Knowledge, moves: Sequence[Move], names: Sequence[str] | None = None) -> dict[Move, str]:
    """These moves of the seat to move as the table's buttons read, each play that completes a clear marked (R10,
    R22): the one naming the coach's advice, the analysis and the table share."""
    # a card landed blind may itself be the fourth (4+ Card Clears): sending it alone clears too
    clears = [m for m in moves if m.kind in (PLAY, ADD) and (m.size or m.kind == ADD) and completes_clear(m, know)]
    return move_labels(moves, game=know.rules.game, clears=clears, names=names, landed=know.top)


def _total(first: Sequence[int], *rest: Sequence[int]) -> list[int]:
    """Per code, the sum of some equally long counts: one pass per seat rather than a ``sum`` per code."""
    total = list(first)
    for counts in rest:
        if len(counts) != len(total):
            raise ValueError(f"counts of {len(counts)} codes do not add to counts of {len(total)}")
        total = list(map(add, total, counts))
    return total


def _floor(counts: list[int]) -> tuple[int, ...]:
    """Counts with none below zero (a pool cannot hold fewer than no cards); most have none to raise."""
    return tuple(counts) if min(counts) >= 0 else tuple([n if n > 0 else 0 for n in counts])


def _counts_as(entry: Mapping[str, Any]) -> int:
    """The value a pile card of the view counts as: a Clear 4 card says (None: none yet); a CUT card is itself."""
    return CODES.get(entry.get("as", entry["card"]), 0)


def _counts(names: Iterable[str]) -> list[int]:
    counts = [0] * NCODES
    for name in names:
        counts[CODES[name]] += 1
    return counts


@lru_cache(maxsize=64)
def _rules(key: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.from_dict(dict(key))


@lru_cache(maxsize=4096)
def _move(text: str) -> Move:
    return Move.parse(text)
