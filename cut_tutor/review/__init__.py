"""Learning from one's own hands: the hand review, the tutor's warning, the belief panel's data, drills and
progress over time (the guide's *Hand review* page).

Everything here reads a seat's view, or a record replayed to a ply and seen through that seat's view (C2).
"""

from .belief import Belief, belief
from .drills import Drill, Drills
from .hand import THRESHOLDS, Decision, HandReview, Summary, accuracy_of, grade, review
from .kinds import KINDS, hand_kinds, kind, kind_counts
from .progress import progress_csv, progress_figure, progress_frame
from .tutor import Caution, warn

__all__ = [
    "KINDS",
    "THRESHOLDS",
    "Belief",
    "Caution",
    "Decision",
    "Drill",
    "Drills",
    "HandReview",
    "Summary",
    "accuracy_of",
    "belief",
    "grade",
    "hand_kinds",
    "kind",
    "kind_counts",
    "progress_csv",
    "progress_figure",
    "progress_frame",
    "review",
    "warn",
]  # fmt: skip
