"""Card Clear: the 6×6 poker-hand puzzle, its levels, and a Hint that shows the value of every swap.

>>> from cut_tutor.cardclear import State
>>> State.from_code("12-0").row.moves
20
"""

from .cards import CardError, card_name, parse_card
from .levels import LEVELS, Goal, Level, LevelError, level, live_hands, top_rank
from .state import State, Swap, SwapError, Turn, board_text
from .view import view

__all__ = [
    "LEVELS", "CardError", "Goal", "Level", "LevelError", "State", "Swap", "SwapError", "Turn", "board_text",
    "card_name", "level", "live_hands", "parse_card", "top_rank", "view",
]  # fmt: skip
