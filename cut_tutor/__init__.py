"""An interactive tutor for the card game Clear, Under or Take (CUT).

>>> from cut_tutor import Rules, State
>>> state = State.deal(Rules(), seed=1)
>>> len(state.legal_moves()) > 0
True
"""

from .engine import *  # noqa: F403
from .engine import __all__ as _engine_all

__version__ = "0.2.0"
__all__ = [*_engine_all, "__version__"]
