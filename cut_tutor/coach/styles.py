"""Styles, coaches and Levels as data (C3, C4): one principle each, expressed as weights.

Adding a coach is one dict entry: the three coaches are the three seat styles under a name.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Style:
    """What a seat is trying to do: the weights its move values are built from."""

    name: str
    principle: str
    risk_aversion: float  # multiplies the expected cost of a blind card that busts
    blind_into_pile: float  # flat cost of a blind play onto a non-empty pile (Rock flips only into empty piles)
    high_pile_flip: float  # bonus for a blind play on a high pile (Gambler flips on high piles)
    low_asset: float  # what spending an A, 2 or 3 costs: low cards are the escape from taking
    clear_asset: float  # what spending a clear card costs while nobody is about to go out (insurance)
    high_dump: float  # bonus per J, Q, K shed: unload high cards before being caught with them
    group: float  # weight on the number of cards shed: the solid group play
    spare_clear: float  # bonus for a clear play when holding more clears than one, to seize the board
    dump_clears_at: int  # dump clear cards once a seat is down to this many cards (C6); Rock holds its insurance
    take: float = 0.7  # share of the taken cards' shed value a take costs: what the pile adds to the hand
    #: C3: a blind play onto a non-empty pile only when nothing else is legal or the card would go out (Rock)
    empty_pile_flips: bool = False
    #: C3: the high-pile bonus is the style's principle, said in its advice when it decides (Gambler)
    high_pile_flips: bool = False


@dataclass(frozen=True)
class Level:
    """How well a seat plays: lookahead depth, noise, and how finely it counts the odds (C4); and how much
    coaching a learner at that Level is shown (C7: Average the most hints, Experienced one, Expert none).
    """

    name: str
    depth: int  # future turns weighed by the line (0: this turn only)
    noise: float  # spread of the random error added to each move's value in AI play
    counts_cards: bool  # counts cleared and picked-up cards when judging blind odds
    odds_margin: float  # extra cost a gamble must overcome: higher levels act on thinner odds
    hinder: float  # how sharply it plays low against a seat about to go out (C6)
    hints: int  # how many hints a learner at this Level sees on their own seat (C7)
    line_weight: float = 1.0  # how much the line (C5) counts against this turn's parts
    strand_weight: float = 0.25  # what the line charges for each point of card still held at its end
    # The last three are CUT's, tuned for it; Clear 4's scorer was not part of that tuning and keeps its own.
    clear_weight: float = 1.0  # how much of its style's insurance value it sees in a clear card held
    lead_weight: float = 0.0  # what each rank of a lead onto an empty pile is worth: the pile every card fits (C6)
    hinder_at: int = 2  # the most cards the next seat may hold to count as about to go out (C6)
    #: what each low card (A, 2, 3) past the first costs in a lay onto a pile: the next seat faces the same top
    #: either way, and a low card kept is a later way out
    spare_low_weight: float = 0.0


STYLES: dict[str, Style] = {
    "Rock": Style("Rock", "Protect the position", 1.5, 6.0, 0.0, 2.0, 10.0, 0.6, 1.3, 0.0, 1, empty_pile_flips=True),
    # Balanced and Expert's weights are tuned on duplicate deals against the untuned seat (benchmarks/tune_coach.py).
    "Balanced": Style("Balanced", "None, deliberately", 1.0, 1.0, 1.0, 1.5, 4.5, 2.4, 2.0, 1.0, 2, take=1.05),
    "Gambler": Style("Gambler", "Act to remove risk", 0.6, 0.0, 4.0, 0.5, 1.0, 2.5, 0.9, 4.0, 2, high_pile_flips=True),
}

#: The coach names and the seat style each one plays (the guide's *Coach styles* table).
COACH_STYLE: dict[str, str] = {"Daryl": "Rock", "Madonna": "Balanced", "Marty": "Gambler"}

#: The description shown under the coach picker.
COACHES: dict[str, str] = {
    "Daryl": "Daryl plays it safe. Protect the position: take the solid group play, keep flexible low cards,"
    " hold a clear as insurance, flip only into an empty pile. Fewer chances taken, so fewer rewards collected.",
    "Madonna": "Madonna plays balanced. No defining principle, deliberately: the straightforward value play,"
    " drawing on both the others, with their weaknesses along with their strengths.",
    "Marty": "Marty plays the risk. Act to remove risk: flip on an empty or high pile, unload a high card before"
    " he's caught with it, spend a spare clear to seize the board. The biggest losses when a gamble misses.",
}

LEVELS: dict[str, Level] = {
    "Average": Level("Average", 0, 6.0, False, 4.0, 0.4, 3),
    "Experienced": Level("Experienced", 1, 2.0, False, 1.5, 0.8, 1),
    # Expert's last five weights are tuned on duplicate deals against the Expert before them (tune_coach.py).
    "Expert": Level(
        "Expert", 2, 0.0, True, 0.0, 0.7, 0, clear_weight=3.3, lead_weight=1.5, hinder_at=1, spare_low_weight=3.0
    ),
}


#: The Level a seat is set to until the Setup says otherwise: the learner's own, unless they change it.
DEFAULT_LEVEL = "Experienced"


def style_of(name: str) -> Style:
    """A style by seat name (Rock, Balanced, Gambler) or coach name (Daryl, Madonna, Marty)."""
    key = COACH_STYLE.get(name.strip().title(), name.strip().title())
    if key not in STYLES:
        raise ValueError(f"style: {name!r} is not one of {', '.join([*STYLES, *COACH_STYLE])}")
    return STYLES[key]


def level_of(name: str) -> Level:
    """A Level by name (Average, Experienced, Expert)."""
    key = name.strip().title()
    if key not in LEVELS:
        raise ValueError(f"level: {name!r} is not one of {', '.join(LEVELS)}")
    return LEVELS[key]
