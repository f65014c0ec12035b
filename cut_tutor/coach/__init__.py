"""The move-value coach: one engine for advice and every AI seat (C1), reading only a seat's view (C2)."""

from .advice import Advice, AIPlayer, advise, compare
from .knowledge import Knowledge
from .scoring import COMPONENTS, Candidate
from .styles import COACH_STYLE, COACHES, LEVELS, STYLES, Level, Style, level_of, style_of
from .values import evaluate

__all__ = [
    "COACHES", "COACH_STYLE", "COMPONENTS", "LEVELS", "STYLES", "AIPlayer", "Advice", "Candidate", "Knowledge",
    "Level", "Style", "advise", "compare", "evaluate", "level_of", "style_of",
]  # fmt: skip
