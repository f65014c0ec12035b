"""An analysis seat: a player that, at every real choice, analyses its own view and plays the best move, unless the
rollouts cannot tell it from the move their own policy would play.

It sees only its view (C2): :meth:`AnalysisSeat.choose` builds ``view(state, seat)`` and nothing else is read.
The budget is a number of rollouts, not seconds, so the same deal and seed give the same hand on any machine;
:data:`ROLLOUTS` is well within half a second of wall time on 2 cores on the compiled core (the guide's *Analysis*
section).

>>> from cut_tutor.engine import Rules, State
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> seat = AnalysisSeat(max_rollouts=40)
>>> seat.choose(state) in state.legal_moves(), seat.analysed
(True, 1)
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from ..engine import State, view
from ..engine.moves import Move
from .memory import Memory
from .run import POLICY, analyse
from .search import Search, players
from .stats import mean_se

#: Rollouts per decision, at most: well within half a second of the seat's thinking a decision on 2 idle cores on the
#: compiled core. Its analyses, reading the turns it remembers there too, make about 12,500 rollouts a second on one
#: core and stop early once one move is left, so at this cap they average 4,940 rollouts, 0.20 s of wall on 2 cores,
#: and the longest take 0.33 s (``benchmarks/bench_core.py seat 4 8200``, ``benchmarks/results/core.md``). Twice the
#: cap chooses no better on the recorded decisions of
#: ``benchmarks/tune_seat.py`` (0.02 points a decision, within the noise); a quarter of it chooses worse (by 0.09). On
#: the Python path (``CUT_TUTOR_PURE=1``) the same budget takes far longer. A count, not a time, so that the seat's
#: play and the benchmark's figure do not depend on the machine.
ROLLOUTS = 8200
#: How many standard errors of their paired difference the analysis' best must beat the policy's own move by before
#: the seat plays it. A best picked from noisy rollouts is often a lucky draw: on the 1,206 decisions of
#: ``benchmarks/tune_seat.py`` at 4,100, 8,200 and 16,400 rollouts, half a standard error saves the most points a
#: decision of the thresholds tried (0.01 to 0.03 more than always playing the best, within their noise), and at
#: ROLLOUTS leaves the policy's move in 66% of decisions (``benchmarks/results/tune-seat.md``).
CONFIDENCE = 0.5
#: How a simulation names an analysis seat (:meth:`AnalysisSeat.from_spec`).
SPEC = "Analysis"


class AnalysisSeat:
    """At each decision with two or more legal moves, plays the analysis' best move if it beats the policy's own
    move by ``confidence`` standard errors (:func:`preferred`), else the policy's move; a forced move directly.

    Its rounds aim only at the best (``aim="best"``): a move eliminated as clearly worse is not played on, as its
    gap decides nothing here, and the rollouts go to the moves still in the race. On the decisions of
    ``benchmarks/tune_seat.py`` that saves 0.19 points a decision against rounds that measure every gap (paired 95%
    interval −0.38 to +0.01), at no more rollouts.

    With ``infer`` (the default) it reads the turns on the pile: its deals give the other seats only hands from which a
    ``policy`` seat would have played them (:class:`~cut_tutor.analysis.deals.Deals`). Shown every move of the hand
    (:meth:`observe`), it reads the turns it remembers instead, back past the pile's last clear. Right when they play
    like ``policy``: against three Expert:Balanced seats on ``benchmarks/bench_seat.py``'s 100 deals × 4 chairs, reading
    saves 3.99 points per hand (paired 95% interval 0.89 to 7.09), though ``benchmarks/bench_reading.py``, judging
    single decisions on the real deal, finds its changed choices worse; that judge finds three times the rollouts worse
    still, so it is no evidence against reading. Against seats that play otherwise it reads their turns as that
    policy's, and can be misled.

    With ``open_only`` it analyses only an open endgame (:func:`hands_open`: it has seen every card the other
    seats hold) and plays the policy's move elsewhere: the positions where the Expert's tables make most of their
    clear mistakes, at a fraction of the cost (the guide's *Reading out the endgame*).

    ``seed`` and the view's turn count give each decision's analysis seed, so the seat is reproducible and two
    tables that look the same from its chair get the same move. ``analysed``, ``rollouts`` and ``seconds`` count
    the decisions it analysed, the rollouts they played and the wall time they took (all of each, not only the
    rollouts).
    """

    def __init__(
        self,
        max_rollouts: int = ROLLOUTS,
        seed: int = 0,
        policy: str = POLICY,
        confidence: float = CONFIDENCE,
        infer: bool = True,
        open_only: bool = False,
    ) -> None:
        self.max_rollouts = max_rollouts
        self.seed = seed
        self.policy = policy
        self.confidence = confidence
        self.infer = infer
        self.open_only = open_only
        self.analysed = 0
        self.rollouts = 0
        self.seconds = 0.0
        self._memory: Memory | None = None

    def __repr__(self) -> str:
        return f"AnalysisSeat({self.label}, {self.policy})"

    @classmethod
    def from_spec(cls, spec: str, seed: int = 0) -> AnalysisSeat:
        """The seat a simulation's ``Analysis``, ``Analysis:ROLLOUTS`` or ``Analysis:ROLLOUTS:open`` names (at most
        ROLLOUTS rollouts a decision, :data:`ROLLOUTS` if left out; ``open``: only open endgames analysed)."""
        name, *rest = [part.strip() for part in spec.split(":")]
        if name.title() != SPEC or len(rest) > 2:
            raise ValueError(f"seat {spec!r}: an analysis seat is {SPEC}, {SPEC}:ROLLOUTS or {SPEC}:ROLLOUTS:open")
        budget = rest[0] if rest and rest[0] else str(ROLLOUTS)
        if not budget.isdigit() or int(budget) < 1:
            raise ValueError(f"seat {spec!r}: the rollouts a decision are a whole number of at least 1, not {budget!r}")
        if len(rest) == 2 and rest[1].lower() != "open":
            raise ValueError(f"seat {spec!r}: the only word after the rollouts is 'open' (open endgames only)")
        return cls(int(budget), seed=seed, open_only=len(rest) == 2)

    @property
    def label(self) -> str:
        """Its budget in words, as a simulation's table shows it in the ``style`` column."""
        return f"{self.max_rollouts} rollouts" + (", open endgames only" if self.open_only else "")

    def choose(self, state: State) -> Move:
        """The move for the seat to move in ``state``, from that seat's view only."""
        return self.choose_view(view(state, state.turn))

    def observe(self, seen: Mapping[str, Any], move: Move) -> None:
        """Watch ``move`` being made, ``seen`` being this seat's view just before it: a seat that watched every move
        of the hand reads the turns it remembers (:class:`~cut_tutor.analysis.memory.Memory`), not only the pile's."""
        if self._memory is None or self._memory.seat != seen["seat"]:
            self._memory = Memory(seen["seat"])
        self._memory.observe(seen, move)

    def choose_view(self, seen: Mapping[str, Any]) -> Move:
        """The move for the seat whose view this is."""
        legal = seen["legal"]
        if len(legal) == 1:
            return Move.parse(legal[0])
        began = time.perf_counter()
        own = players(self.policy, [0])[0].choose_view(dict(seen))
        if self.open_only and not hands_open(seen):
            return own
        seed = random.Random(f"seat:{self.seed}:{seen['turns']}").getrandbits(32)
        budget = max(self.max_rollouts, 2 * len(legal))  # the analysis's first round needs 2 rollouts a move
        memory = self._memory
        if self.infer and memory is not None and memory.follows(seen):
            seen = {**seen, "memory": memory.entries()}
        result = analyse(seen, seconds=None, seed=seed, policy=self.policy, max_rollouts=budget, aim="best",
                         infer=self.infer)  # fmt: skip
        self.analysed += 1
        self.rollouts += result.rollouts
        assert result.search is not None  # a fresh analysis keeps its rollouts
        chosen = Move.parse(legal[preferred(result.search, legal.index(str(own)), self.confidence)])
        self.seconds += time.perf_counter() - began  # the whole decision: its policy's move, its deals, its rollouts
        return chosen


def hands_open(seen: Mapping[str, Any]) -> bool:
    """Whether the seat whose view this is knows every card in the other seats' hands (cards it saw them pick
    up, R11): all that is hidden from it then is the face-down cards. An empty hand counts as known."""
    return all(len(s["known"]) == s["hand_count"] for s in seen["seats"] if s["seat"] != seen["seat"])


def preferred(found: Search, own: int, confidence: float) -> int:
    """The candidate to play: the search's best if it beats candidate ``own`` (the policy's move) on their shared
    deals by at least ``confidence`` standard errors of the paired difference, else ``own``."""
    best = found.best
    if best == own:
        return own
    mean, se = mean_se(found.gap(own, best))
    return best if mean > 0 and mean >= confidence * se else own
