"""The games the engine plays, by name: each is a module with the same face, so adding one is a module and an entry.

>>> sorted(GAME_MODULES)
['CUT', 'Clear 4']
>>> module_of(Rules.from_preset("Clear 4")).DECK_CODE
'C4'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from . import clear4, cut
from .core import Core
from .game_words import Vocabulary
from .moves import Move
from .outcome import Outcome
from .rules import Rules


class GameModule(Protocol):
    """What a game's module offers: its deal, its rules of play, its pile values, its part of the formats and its own
    words (``WORDS``: its cards' faces, its take, its clear play, its turn's steps)."""

    NAME: str
    WORDS: Vocabulary
    PHASES: tuple[str, ...]
    DECK_CODE: str | None
    WINNER_DEALS: bool
    OFF_PILE: dict[int, str]

    def layout(self, rules: Rules, block: Sequence[int]) -> list[list[int]]: ...
    def rules_for(self, players: int, decks: int, dealt: int) -> Rules: ...
    def generate(self, state: Core) -> list[Move]: ...
    def why_illegal(self, state: Core, move: Move) -> str: ...
    def apply(self, state: Core, move: Move) -> Outcome: ...
    def top_value(self, pile: Sequence[int]) -> int: ...
    def run(self, pile: Sequence[int]) -> int: ...
    def completes_four(self, top: int, run: int, move: Move) -> bool: ...
    def offered(self, state: Core) -> list[int]: ...
    def add_to_view(self, state: Core, view: dict[str, Any]) -> None: ...


#: Every game's rules module (a :class:`GameModule`), by its ``Rules.game`` name.
GAME_MODULES: dict[str, GameModule] = {cut.NAME: cut, clear4.NAME: clear4}


def module_of(rules: Rules) -> GameModule:
    """The module that plays the game these rules name."""
    return GAME_MODULES[rules.game]
