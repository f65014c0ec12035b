"""What every game's scorers share: the components, a scored candidate, and the one lookahead (C1, C5).

Each game's scorers (:mod:`.cut`, :mod:`.clear4`) fill the same components and feed :func:`line` their own
:class:`Numbers`, so the lookahead is written once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import mul

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


@dataclass
class Candidate:
    """One legal move with its value parts and total."""

    move: Move
    components: dict[str, float]
    total: float = 0.0
    steps: list[tuple[int, int]] = field(default_factory=list)  # the line's plays: (rank, count)
    goes_out: bool = False
    clears: bool = False  # completes four of a value: a natural clear, which costs nothing
    again: float = 0.0  # after a clear: the best play of the extra turn, part of this turn's value

    @property
    def turn_value(self) -> float:
        """The value of this turn alone: everything but the line, the extra turn after a clear included."""
        return self.total - self.components["line"] + (self.again if self.components["line"] else 0.0)


@dataclass(frozen=True)
class Numbers:
    """One game's numbers for the lookahead, under one set of rules (C5)."""

    middling: int  # the value the line assumes the pile comes back at: neither cleared nor impossible
    groups: tuple[int, ...]  # the values shed in groups, low to high
    spares: tuple[int, ...]  # cards the line plays alone when no group fits, in the order it tries them
    shed: tuple[float, ...]  # per code: what one card shed is worth, its points and its rank counted
    strand: tuple[float, ...]  # per code: what a card still held after the line costs
    board: float  # the line empties the hand while Board cards remain


def best_group(numbers: Numbers, hand: list[int], top: int) -> tuple[int, float]:
    """The value a simple player sheds next on a pile topped by ``top`` (0 = empty), and what it sheds."""
    best, best_value = 0, 0.0
    shed = numbers.shed
    for rank in numbers.groups:
        if top and rank > top:
            break
        held = hand[rank]
        if held:
            value = min(held, 4) * shed[rank]
            if value > best_value:
                best, best_value = rank, value
    return best, best_value


def again(numbers: Numbers, hand: list[int]) -> float:
    """What the extra turn after a clear is worth: the best group the kept hand leads on an empty pile."""
    return best_group(numbers, hand, 0)[1]


def go_again(level: Level, cand: Candidate) -> float:
    """The extra turn after a clear; with lookahead the line already plays that turn."""
    return cand.again if level.depth == 0 else 0.0


def line(
    seat: Knowledge, numbers: Numbers, hand: list[int], level: Level, cand: Candidate, *, empty_first: bool = False
) -> float:
    """C5: play the kept hand forward ``level.depth`` turns, the pile coming back at a middling value.

    ``hand`` is the caller's scratch copy: the line plays its cards out of it.
    """
    if level.depth == 0:
        return 0.0
    value = 0.0
    weight = 0.8
    for turn in range(level.depth):
        rank, shed = best_group(numbers, hand, 0 if (empty_first and turn == 0) else numbers.middling)
        if rank:
            count = min(hand[rank], 4)
            value += weight * shed
            hand[rank] -= count
            cand.steps.append((rank, count))
        else:
            spare = next((card for card in numbers.spares if hand[card]), 0)
            if not spare:
                value -= weight * 6.0  # nothing plays at a middling pile: a take is likely
                break
            hand[spare] -= 1
            value += weight * PER_CARD
            cand.steps.append((spare, 0 if seat.is_clear[spare] else 1))  # a count of 0: spent to clear
        if not any(hand):
            # an empty hand goes out, or at least brings the Board into play
            value += weight * (15.0 if seat.stack_cards == 0 else numbers.board)
            break
        weight *= 0.8
    stranded: float = sum(map(mul, hand, numbers.strand))
    # The line only pays if the hand goes on: less likely with a seat about to go out.
    continues = 0.25 if seat.min_left <= NEAR_OUT else 1.0
    return round(level.line_weight * continues * (value - level.strand_weight * stranded), 2)
