"""CUT's limits on a play (R7, R10, R16): what the move generator, the reasons for a refusal and the view all ask.

>>> run([9, 5, 5, 5]), top_value([]), top_value([9, 5])
(3, 0, 5)
>>> completes_four(5, 3, Move("play", 5, 1)), completes_four(5, 3, Move("play", 4, 3))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import UP
from .core import Core
from .moves import Move

#: A count above any real cap, used when 4+ Card Clears lifts the USA cap (R10).
NO_CAP = 99


def top_value(pile: Sequence[int]) -> int:
    """The rank to play equal or lower to: the top card; 0 for an empty pile (anything goes)."""
    return pile[-1] if pile else 0


def run(pile: Sequence[int]) -> int:
    """How many cards of the top rank lie together on top of the pile (R10)."""
    if not pile:
        return 0
    top, k = pile[-1], len(pile) - 1
    while k > 0 and pile[k - 1] == top:
        k -= 1
    return len(pile) - k


def completes_four(top: int, run: int, move: Move) -> bool:
    """Does this play leave four or more of its rank together on top of the pile (R10), where ``run`` cards of
    ``top`` lie (the view's ``top_run`` of its pile)? The question every seat's coach and the table's labels ask
    before a play; the engine sees the same four on the pile after it lands.
    """
    return (run if top == move.rank else 0) + move.size >= 4


def blind_allowed(state: Core, seat: int) -> list[int]:
    """Stacks whose face-down top may be played blind now, given the hand is empty or R16 is on (R7, R16)."""
    face_down = state.rules.piles_face_down
    stacks = state.stacks[seat]
    down = [k for k, stack in enumerate(stacks) if stack and not stack[-1] & UP]
    if not down or face_down:
        return down
    if any(stack and stack[-1] & UP for stack in stacks):
        return []
    return down


def stacks_free(state: Core, seat: int) -> bool:
    """May face-up stack tops join any play, not only one that empties the hand (R7, R16)?"""
    return state.rules.piles_face_down or state.hand_count[seat] == 0


def play_cap(state: Core, rank: int) -> int:
    """The most cards of ``rank`` one play may lay here: USA stops at four on the pile (R10)."""
    if state.rules.four_plus_clears:
        return NO_CAP
    pile = state.pile
    return 4 - run(pile) if pile and pile[-1] == rank else 4
