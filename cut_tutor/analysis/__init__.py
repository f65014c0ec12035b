"""Analysis you can check: the Monte-Carlo value of every legal move of a seat, from what the seat knows (C2).

Hidden cards are re-dealt from the seat's view only (:class:`Deals`); every move is played out to the end of the
hand by the project's own AI seats on the same deals (:func:`~cut_tutor.analysis.search.play_out`); rounds eliminate
the clearly worse moves and spend the rest where a verdict or a gap is not yet known, until the verdict is in or every
gap is known, as asked (:func:`~cut_tutor.analysis.search.rounds`). Every judge reads one :func:`evaluation` per
position, seeded by the position itself and extended, never redrawn.
"""

from .deals import Deals
from .evaluations import Evaluation, evaluation
from .report import Analysis, MoveValue
from .run import POLICY, analyse
from .seat import AnalysisSeat

__all__ = ["POLICY", "Analysis", "AnalysisSeat", "Deals", "Evaluation", "MoveValue", "analyse", "evaluation"]
