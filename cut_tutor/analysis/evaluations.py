"""One evaluation per position: every judge — the coach panel, the tutor, the hand review, a retry, a drill — reads
the same figures for the same view, so they name the same best move and the same price.

A position as the seat sees it (its view, C2) is analysed once in a process: seeded from the view itself (a stable
hash of its canonical JSON, :func:`seed_of`), kept (:func:`cached`) and, when a judge asks for more precision or
for the price of another move, extended on the same sample stream — the same seed, the next sample indices —
never drawn again. The rounds stop when the verdicts are settled (:meth:`~.search.Search.undecided`).

>>> from cut_tutor.engine import State, view
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> first = evaluation(view(state, 0), focus="2×5", rollouts=400)
>>> evaluation(view(state, 0), focus="2×5", rollouts=400) is first, first.seed == seed_of(view(state, 0))
(True, True)
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..engine.moves import Move
from .deals import canonical
from .report import Analysis, MoveValue
from .run import POLICY, Submitter, analyse, focus_index
from .search import Aim
from .stats import MIN_ROLLOUTS, PRECISION

#: How many positions a process keeps evaluated (the oldest used is forgotten first): a hand's decisions and more.
KEPT = 256


@dataclass(frozen=True)
class Evaluation:
    """The analysis of one view: per move its expected points with their interval, its gap to the best with its
    interval and its verdict (``best``, ``close`` — too close to call — or ``worse``), best first; the moves whose
    price was asked (``focus``); and whether the verdicts are settled for them (:meth:`decided`)."""

    seed: int
    analysis: Analysis
    #: The legal moves' texts in the view's order, as the search numbers them.
    legal: tuple[str, ...]
    focus: tuple[str, ...] = ()
    #: The most rollouts it was asked to have in all: asked again for no more, it is returned as it is, even when
    #: its last round could not spend them all.
    budget: int = 0
    key: str = field(default="", repr=False, compare=False)

    @property
    def moves(self) -> list[MoveValue]:
        return self.analysis.moves

    @property
    def best(self) -> MoveValue:
        return self.analysis.best

    @property
    def rollouts(self) -> int:
        return self.analysis.rollouts

    def price(self, move: Move | str) -> MoveValue:
        """``move``'s figures: its gap to the best (0 for the best) is what it costs, with its interval."""
        text = str(Move.parse(move) if isinstance(move, str) else move)
        found = next((m for m in self.moves if str(m.move) == text), None)
        if found is None:
            raise ValueError(f"evaluation: {move} is not a legal move of this position")
        return found

    def decided(self, focus: Move | str | None = None) -> bool:
        """Are the verdicts settled, with the price of every focus move (``focus`` too) known to ±2 points?"""
        search = self.analysis.search
        if search is None:
            return False
        wanted = [*self.focus, *([] if focus is None else [focus])]
        return not search.undecided([focus_index(self.legal, m) for m in wanted], PRECISION, MIN_ROLLOUTS)


#: View fields its pile already says (the game module's count of the top run), left out of a view's seed: a
#: position's seed, and every figure drawn from it, is what it was before views sent them.
_DERIVED = frozenset({"top_run"})


def seed_of(view: Mapping[str, Any]) -> int:
    """The evaluation seed of a view: 64 bits of the SHA-256 of its canonical JSON (never Python's ``hash()``,
    which changes between processes), less the fields its pile already says."""
    seen = {key: value for key, value in view.items() if key not in _DERIVED}
    return int.from_bytes(hashlib.sha256(canonical(seen).encode("utf-8")).digest()[:8], "big")


_kept: OrderedDict[tuple[str, str], Evaluation] = OrderedDict()
_lock = threading.Lock()
#: How many times :func:`forget` was called: an evaluation begun before the last call is not kept.
_forgotten = [0]


def cached(view: Mapping[str, Any], policy: str = POLICY) -> Evaluation | None:
    """The evaluation of ``view`` this process holds, if any (keyed by the view, its rules within it, and the
    policy that plays the rollouts)."""
    with _lock:
        return _kept.get((canonical(view), policy))


def forget() -> None:
    """Forget every evaluation held, and those being made now in other threads (a test starts afresh)."""
    with _lock:
        _kept.clear()
        _forgotten[0] += 1


def evaluation(
    view: Mapping[str, Any],
    focus: Move | str | None = None,
    *,
    rollouts: int | None = None,
    seconds: float | None = None,
    aim: Aim = "verdicts",
    precision: float = PRECISION,
    policy: str = POLICY,
    executor: Executor | Submitter | None = None,
    progress: Callable[[float], None] | None = None,
) -> Evaluation:
    """The evaluation of ``view``, with ``focus`` (the move the learner made or is about to make) priced.

    Held already with its verdicts settled for ``focus``, or asked before for ``rollouts`` or more, it is returned
    as it is; otherwise it is analysed, or the held one continued, until the verdicts are settled
    (``aim="verdicts"``; with ``"gaps"``, every gap known to ``precision`` points: *Analyse longer*) or the budget
    is spent: ``rollouts`` in all (at least 2 per legal move, the first round's least), ``seconds`` for this call.
    The same view and budget give the same figures, whatever asked first.
    """
    key = (canonical(view), policy)
    with _lock:
        held, began = _kept.get(key), _forgotten[0]
    legal = tuple(str(Move.parse(m)) for m in view["legal"])
    asked = [*(held.focus if held else ()), *([] if focus is None else [focus])]
    wanted = tuple(dict.fromkeys(legal[focus_index(legal, m)] for m in asked))
    if held is not None and aim == "verdicts" and held.decided(focus):
        return held
    if rollouts is not None:
        rollouts = max(rollouts, 2 * len(legal))
        if held is not None and held.budget >= rollouts:
            return held
    more = None if rollouts is None else rollouts - (held.rollouts if held else 0)
    result = analyse(view, seconds=seconds, seed=seed_of(view), policy=policy, executor=executor, max_rollouts=more,
                     precision=precision, progress=progress, resume=None if held is None else held.analysis, aim=aim,
                     focus=wanted)  # fmt: skip
    budget = max(held.budget if held else 0, rollouts or 0, result.rollouts)
    if held is not None and result.rollouts == held.rollouts:
        result = held.analysis  # the budget could not pay for another round: nothing learnt, nothing changed
    return _keep(key, Evaluation(result.seed, result, legal, wanted, budget, key[0]), began)


def _keep(key: tuple[str, str], found: Evaluation, began: int) -> Evaluation:
    """Hold ``found`` unless one of more rollouts is held already (returned instead), or everything was forgotten
    since this evaluation ``began``; the least recently asked go first when more than :data:`KEPT` are held."""
    with _lock:
        if began != _forgotten[0]:
            return found
        now = _kept.get(key)
        if now is None or now.rollouts <= found.rollouts:
            _kept[key] = found
        _kept.move_to_end(key)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
        return _kept[key]
