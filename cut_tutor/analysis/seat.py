"""An analysis seat: a player that, at every real choice, analyses its own view and plays the best move.

It sees only its view (C2): :meth:`AnalysisSeat.choose` builds ``view(state, seat)`` and nothing else is read.
The budget is a number of rollouts, not seconds, so the same deal and seed give the same hand on any machine;
:data:`ROLLOUTS` is about half a second of wall time on 2 cores (the guide's *Analysis* section).

>>> from cut_tutor.engine import Rules, State
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> seat = AnalysisSeat(max_rollouts=40)
>>> seat.choose(state) in state.legal_moves(), seat.analysed
(True, 1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine import State, view
from ..engine.moves import Move
from .run import POLICY, analyse

#: Rollouts per decision: half a second of wall on 2 cores at the 225–246 rollouts a second a core that
#: ``benchmarks/bench_seat.py`` and ``bench_analysis.py`` measure. A count, not a time, so that the seat's play
#: and the benchmark's figure do not depend on the machine.
ROLLOUTS = 225


class AnalysisSeat:
    """Plays the analysis's best move at each decision with two or more legal moves; a forced move directly.

    ``seed`` and the view's turn count give each decision's analysis seed, so the seat is reproducible and two
    tables that look the same from its chair get the same move. ``analysed``, ``rollouts`` and ``seconds`` count
    the decisions it analysed, the rollouts they played and the time they took.
    """

    def __init__(self, max_rollouts: int = ROLLOUTS, seed: int = 0, policy: str = POLICY) -> None:
        self.max_rollouts = max_rollouts
        self.seed = seed
        self.policy = policy
        self.analysed = 0
        self.rollouts = 0
        self.seconds = 0.0

    def __repr__(self) -> str:
        return f"AnalysisSeat({self.max_rollouts} rollouts, {self.policy})"

    def choose(self, state: State) -> Move:
        """The move for the seat to move in ``state``, from that seat's view only."""
        return self.choose_view(view(state, state.turn))

    def choose_view(self, seen: Mapping[str, Any]) -> Move:
        """The move for the seat whose view this is."""
        legal = seen["legal"]
        if len(legal) == 1:
            return Move.parse(legal[0])
        seed = random.Random(f"seat:{self.seed}:{seen['turns']}").getrandbits(32)
        budget = max(self.max_rollouts, 2 * len(legal))  # the analysis's first round needs 2 rollouts a move
        result = analyse(seen, seconds=None, seed=seed, policy=self.policy, max_rollouts=budget)
        self.analysed += 1
        self.rollouts += result.rollouts
        self.seconds += result.seconds
        return result.best.move
