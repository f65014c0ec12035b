"""What every game's scorers share: the components, a scored candidate, and the one lookahead (C1, C5).

Each game's scorers (:mod:`.cut`, :mod:`.clear4`) fill the same components and feed :func:`line` their own
:class:`Numbers`, so the lookahead is written once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from operator import mul
from typing import NamedTuple

from ..engine.moves import Move
from .knowledge import Knowledge
from .styles import Level

COMPONENTS = ("go out", "shed", "assets", "control", "risk", "line")
#: Points of one card shed, before its own card points count.
PER_CARD = 3.0
#: The value of going again after a clear, for a seat that does not look ahead.
GO_AGAIN = 4.0
#: A seat this close to going out changes the play (C6).
NEAR_OUT = 2
#: The cost of a move a style's principle rules out (C3): more than any numbers could make up.
BARRED = 100.0


def only_blind_choice(known: Knowledge, move: Move) -> bool:
    """C3: a blind play that a style which flips only into an empty pile still makes, or it does not apply.

    True on an empty pile, for a last card (it goes out unless it busts), and when every legal move is blind.
    """
    if not known.pile or known.cards_left == 1:
        return True
    return all(m.kind == move.kind for m in known.legal)


def by_principle(cand: Candidate, component: str, value: float, named: bool = True) -> None:
    """Add a style's weight to a component; when it is the style's principle (C3, ``named``), keep it apart so
    the advice can say when it decided."""
    if named:
        cand.note(PRINCIPLE, cand.fact(PRINCIPLE) + value)
    cand.components[component] = round(cand.components[component] + value, 2)


def bar(cand: Candidate) -> None:
    """Rule a move out by the style's principle (C3), as a risk the style refuses."""
    by_principle(cand, "risk", -BARRED)


class Fact(NamedTuple):
    """Something a scorer found true of a move, named, with the numbers its words need: recorded where the scorer
    sets the numbers, so the advice says what the numbers saw and never works it out again."""

    name: str
    value: float = 0.0
    cards: tuple[int, ...] = ()


#: The move empties the seat's cards.
OUT = "out"
#: The move completes four of a value (``cards``: that value, 0 for four of a kind): a natural clear.
CLEARS = "clears"
#: After a clear: the best play of the extra turn (``value``), part of this turn's value.
AGAIN = "again"
#: After a clear, one play on the empty pile sheds every card left.
FINISHES = "finishes"
#: A blind card, or the card a turn-up shows: the chance it busts (``value``).
BUST = "bust"
#: The cards above the middling value the line leaves held (``cards``).
STRANDED = "stranded"
#: The part of the total the style's principle added or took away (``value``, C3).
PRINCIPLE = "principle"
#: A lay onto a pile charged for its low cards past the first (``value``): the next seat faces the same top.
SPARE_LOW = "spare low"
#: A lay that leaves a seat about to go out a low top to match (``value``: the control it earns, C6).
HINDERS = "hinders"
#: A clear played while a seat is near going out: its points dumped before they count against you (C6).
DUMPS = "dumps"
#: The hand the move leaves, counts by code (a take's: the hand before the pile joins it); stack cards apart.
HOLDS = "holds"


@dataclass
class Candidate:
    """One legal move with its value parts and total, and the facts its scorer recorded on the way."""

    move: Move
    components: dict[str, float]
    total: float = 0.0
    steps: list[tuple[int, int]] = field(default_factory=list)  # the line's plays: (rank, count)
    facts: dict[str, Fact] = field(default_factory=dict)

    def note(self, name: str, value: float = 0.0, cards: tuple[int, ...] = ()) -> None:
        """Record a fact of this move."""
        self.facts[name] = Fact(name, value, cards)

    def fact(self, name: str) -> float:
        """A fact's number, 0 when the move lacks it."""
        found = self.facts.get(name)
        return found.value if found else 0.0

    @property
    def goes_out(self) -> bool:
        """The move empties the seat's cards."""
        return OUT in self.facts

    @property
    def clears(self) -> bool:
        """The move completes four of a value: a natural clear, which costs nothing."""
        return CLEARS in self.facts

    @property
    def turn_value(self) -> float:
        """The value of this turn alone: everything but the line, the extra turn after a clear included."""
        line = self.components["line"]
        if not line:
            return self.total
        again = self.facts.get(AGAIN)
        return self.total - line + (again.value if again else 0.0)


@dataclass(frozen=True, eq=False)
class Numbers:
    """One game's numbers for the lookahead, under one set of rules (C5).

    Compared and hashed by identity (each game caches one per rules), so a cache keyed by it costs no hashing of
    its tables.
    """

    middling: int  # the value the line assumes the pile comes back at: neither cleared nor impossible
    groups: tuple[int, ...]  # the values shed in groups, low to high
    spares: tuple[int, ...]  # cards the line plays alone when no group fits, in the order it tries them
    shed: tuple[float, ...]  # per code: what one card shed is worth, its points and its rank counted
    strand: tuple[float, ...]  # per code: what a card still held after the line costs
    board: float  # the line leaves only face-down stack cards
    is_clear: tuple[bool, ...]  # per code: a clear card, which the line's plan records as spent to clear

    @cached_property
    def playable(self) -> tuple[tuple[tuple[int, float], ...], ...]:
        """Per pile top (0 = empty): the group values that play on it, low to high, each with its shed value.

        Read once per rules instead of on every step of every line: :func:`best_group` runs thousands of times a
        hand in a rollout.
        """
        table = []
        for top in range(len(self.shed)):
            fits = []
            for rank in self.groups:
                if top and rank > top:
                    break
                fits.append((rank, self.shed[rank]))
            table.append(tuple(fits))
        return tuple(table)

    @cached_property
    def high(self) -> tuple[int, ...]:
        """The group values above the middling one: those the line counts as stranded when still held."""
        return tuple(card for card in self.groups if card > self.middling)


def best_group(numbers: Numbers, hand: list[int], top: int) -> tuple[int, float]:
    """The value a simple player sheds next on a pile topped by ``top`` (0 = empty), and what it sheds."""
    best, best_value = 0, 0.0
    for rank, unit in numbers.playable[top]:
        held = hand[rank]
        if held:
            value = (held if held < 4 else 4) * unit
            if value > best_value:
                best, best_value = rank, value
    return best, best_value


def again(numbers: Numbers, hand: list[int], cand: Candidate) -> float:
    """What the extra turn after a clear is worth: the best group the kept hand leads on an empty pile (recorded)."""
    value = best_group(numbers, hand, 0)[1]
    cand.note(AGAIN, value)
    return value


def go_again(level: Level, cand: Candidate) -> float:
    """The extra turn after a clear; with lookahead the line already plays that turn."""
    return cand.fact(AGAIN) if level.depth == 0 else 0.0


def line(
    known: Knowledge, numbers: Numbers, hand: list[int], level: Level, cand: Candidate, *, empty_first: bool = False
) -> float:
    """C5: play the kept hand forward ``level.depth`` turns, the pile coming back at a middling value.

    ``hand`` is the kept hand, counts by code; the line leaves it as it was.
    """
    if level.depth == 0:
        return 0.0
    value, stranded, steps, high = _played(
        numbers, level.depth, tuple(hand), known.stacks, cand.move.stacks, empty_first
    )
    cand.steps.extend(steps)
    if high:
        cand.facts[STRANDED] = Fact(STRANDED, 0.0, high)
    # The line only pays if the hand goes on: less likely with a seat about to go out.
    continues = 0.25 if known.min_left <= NEAR_OUT else 1.0
    return round(level.line_weight * continues * (value - level.strand_weight * stranded), 2)


@lru_cache(maxsize=1 << 14)
def _played(
    numbers: Numbers,
    depth: int,
    kept: tuple[int, ...],
    stacks: tuple[tuple[int | None, ...], ...],
    spent: tuple[int, ...],
    empty_first: bool,
) -> tuple[float, float, tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The line's turns for a kept hand, the seat's own stacks and the stacks the move plays from: their value,
    the stranded cards' cost, the plays, and the high cards left.

    Read off these arguments alone, so it is cached: the line is the dearest part of a move's value, and in a
    rollout about half its calls meet a kept hand, stacks and move seen before (the same deal is played out
    after every candidate move).
    """
    hand = list(kept)
    value = 0.0
    weight = 0.8
    steps: list[tuple[int, int]] = []
    board: list[int] | None = None  # read only once the hand runs out, as it seldom does within the line
    face_up = 0
    for turn in range(depth):
        if not any(hand):
            if board is None:
                # Face-up stack tops the move leaves: once the hand is empty they play like hand cards (R7).
                board = [k for i, s in enumerate(stacks) if i not in spent and s and (k := s[-1]) is not None]
                face_up = len(board)
            if not board:  # nothing left face up: the seat goes out, or at least plays its face-down cards next
                bare = sum(map(len, stacks)) == len(spent) + face_up  # no stack card stays face down
                value += weight * (15.0 if bare else numbers.board)
                break
            for card in board:
                hand[card] += 1
            board = []
        rank, shed = best_group(numbers, hand, 0 if (empty_first and turn == 0) else numbers.middling)
        if rank:
            count = min(hand[rank], 4)
            value += weight * shed
            hand[rank] -= count
            steps.append((rank, count))
        else:
            spare = next((card for card in numbers.spares if hand[card]), 0)
            if not spare:
                value -= weight * 6.0  # nothing plays at a middling pile: a take is likely
                break
            hand[spare] -= 1
            value += weight * PER_CARD
            steps.append((spare, 0 if numbers.is_clear[spare] else 1))  # a count of 0: spent to clear
        weight *= 0.8
    stranded: float = sum(map(mul, hand, numbers.strand))
    return value, stranded, tuple(steps), tuple([card for card in numbers.high if hand[card]])
