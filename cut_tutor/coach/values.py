"""The move-value engine (C1): every legal move of a seat scored from its view alone, by named parts.

Components, in the guide's order and in points a learner can compare:

``go out``   the move empties your cards (or clears and leaves one play that does)
``shed``     cards shed, by count and by their points; negative for cards taken or a turn spent turning a card up
``assets``   low cards and clear cards kept, high cards and clear-card points dumped
``control``  what the next seat faces; going again after a clear; hindering a seat about to go out
``risk``     a blind card that may bust: the chance it misses times what the pile costs to take
``line``     lookahead: how well the cards you keep play over your next turns (C5)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..engine.moves import Move
from ..engine.rules import CLEAR4, CUT, Rules
from . import clear4, cut
from .knowledge import Knowledge
from .reasons import GameWords
from .scoring import Candidate, Numbers
from .styles import Level, Style


class Scorers(NamedTuple):
    """One game in the move-value engine: its numbers for the lookahead, the scorer of one move, and the words for
    the moves only it has."""

    numbers: Callable[[Rules], Numbers]
    score: Callable[[Knowledge, Numbers, Move, Style, Level], Candidate]
    words: GameWords  # what the coach says of the moves only this game has (:mod:`.reasons`)


#: Each game's scorers, by ``Rules.game``: adding a game is a module and an entry here.
GAMES: dict[str, Scorers] = {
    CUT: Scorers(cut.numbers, cut.score, cut.WORDS),
    CLEAR4: Scorers(clear4.numbers, clear4.score, clear4.WORDS),
}


def evaluate(view: Mapping[str, Any], style: Style, level: Level) -> list[Candidate]:
    """Score every legal move of the seat to move in ``view``; best first, ties kept in move order."""
    return evaluate_knowledge(Knowledge.from_view(view), style, level)


def evaluate_knowledge(known: Knowledge, style: Style, level: Level) -> list[Candidate]:
    """Score every legal move of a seat whose knowledge is ``known``; best first, ties kept in move order."""
    game = GAMES[known.rules.game]
    numbers = game.numbers(known.rules)
    candidates = [game.score(known, numbers, move, style, level) for move in known.legal]
    for cand in candidates:
        cand.total = round(sum(cand.components.values()), 2)
    return sorted(candidates, key=lambda c: -c.total)
