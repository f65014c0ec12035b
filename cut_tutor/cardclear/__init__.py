"""Card Clear: the 6×6 poker-hand puzzle, its levels, and a Hint that shows the value of every swap.

>>> from cut_tutor.cardclear import Puzzle
>>> Puzzle.from_code("12-0").row.moves
20
"""

from .cards import PuzzleCardError, card_name, parse_card
from .levels import LEVELS, Goal, LevelError, PuzzleLevel, level, live_hands, top_rank
from .state import Puzzle, Swap, SwapError, Turn, board_text
from .view import view

__all__ = [
    "LEVELS",
    "Goal",
    "LevelError",
    "Puzzle",
    "PuzzleCardError",
    "PuzzleLevel",
    "Swap",
    "SwapError",
    "Turn",
    "board_text",
    "card_name",
    "level",
    "live_hands",
    "parse_card",
    "top_rank",
    "view",
]  # fmt: skip
