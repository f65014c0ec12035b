"""Advice for one seat (C1, C5): the recommended move, every candidate ranked, and why in plain English.

>>> from cut_tutor.engine import Rules, State, view
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> advice = advise(view(state, 0), coach="Madonna", level="Expert")
>>> print(advice.text)  # doctest: +NORMALIZE_WHITESPACE
Play your J — it sheds less right now, but it saves your J from being stranded, and it sets up your next
turns: your 2 7s, then your 2 5s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine.moves import ADD, PLAY, TAKE, Move
from ..engine.words import card_word, game_of, percent, plural
from .knowledge import Knowledge, move_words
from .reasons import TIE, Case, Said
from .reasons import reason as explain_reason
from .scoring import BUST, COMPONENTS, PRINCIPLE, STRANDED, Candidate
from .styles import COACH_STYLE, Level, Style, level_of, style_of
from .values import SCORERS, evaluate_knowledge
from .words import move_phrase
from .words import plan as plan_phrase

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Advice:
    """A coach's word on one position: the move, why, the plan, and every candidate behind it."""

    coach: str
    level: str
    move: Move
    text: str
    plan: str | None
    candidates: list[Candidate]
    #: Every candidate's button text, as the table words it (:func:`~cut_tutor.coach.knowledge.move_words`).
    labels: dict[Move, str]
    #: The name of the reason the text gives, and the cards it names as kept (:class:`Explanation`).
    reason: str
    kept: tuple[int, ...]

    @property
    def label(self) -> str:
        """The play as the table's buttons name it (``Play 2× Q``)."""
        return self.labels[self.move]

    def to_frame(self, labels: bool = False) -> pd.DataFrame:
        """One row per legal move: its components, total, and which one is recommended; the move in its text form
        (``2×9``), or with ``labels`` as its button reads (``Play 2× 9``), as a learner is shown it."""
        import pandas as pd

        rows = [
            {"move": self.labels[c.move] if labels else str(c.move), **c.components, "total": c.total,
             "recommended": c.move == self.move}
            for c in self.candidates
        ]  # fmt: skip
        return pd.DataFrame(rows, columns=["move", *COMPONENTS, "total", "recommended"])


def choose(candidates: list[Candidate], level: Level) -> tuple[Candidate, Candidate]:
    """The recommendation and the best move for this turn alone (without the line).

    A move that goes out always wins; a move that completes a clear keeps its own advice when it is
    the best play for this turn: lookahead never overrules a sure thing (C5).
    """
    by_turn = max(candidates, key=lambda c: c.turn_value)
    out = [c for c in candidates if c.goes_out]
    if out:
        return max(out, key=lambda c: c.total), by_turn
    if by_turn.clears or level.depth == 0:
        return by_turn, by_turn
    return candidates[0], by_turn


class Explanation(NamedTuple):
    """The coach's sentence, the plan it names, and the name of the reason it gives (:data:`.reasons.REASONS`, a
    component, or the line's and the principle's own), so that a check can hold the reason to the numbers."""

    text: str
    plan: str | None
    reason: str
    kept: tuple[int, ...] = ()  # the cards the reason names as kept (:func:`.reasons.kept`)


def explain(
    best: Candidate,
    by_turn: Candidate,
    view: dict[str, Any],
    names: Sequence[str] | None = None,
    *,
    candidates: Sequence[Candidate] = (),
    coach: str | None = None,
    known: Knowledge | None = None,
) -> Explanation:
    """A sentence naming the deciding reason and the cards; the plan when the line decided (C5).

    The reason reads the facts the scorers recorded (:mod:`.reasons`); ``candidates`` (every scored move) let it
    name what set the move apart from the others, and ``coach`` the principle (C3) when it, not the numbers, decided;
    ``known`` is the view's knowledge when the caller has it already.
    """
    game = game_of(view)
    head = move_phrase(best.move, game, names)
    known = known or Knowledge.from_view(view)
    others = [c for c in candidates if c is not best]
    # A plan of nothing but the rank just played names no plan: it only splits a group.
    own = best.move.rank if best.move.kind in (PLAY, ADD) else -1
    steps = best.steps if any(rank != own for rank, _ in best.steps) else []
    plan = plan_phrase(steps, game) if steps else None
    principle = _principle(best, others, coach)
    name, reason, kept = principle or explain_reason(Case(best, others, view, known, names, game, SCORERS[game].words))
    # The line overrode this turn's best only if that one is worth more this turn than rounding can tell.
    overridden = best is not by_turn and by_turn.turn_value - best.turn_value > TIE
    if not (overridden and plan and not principle):
        return Explanation(f"{head} — {reason}.", plan, name, kept)
    lead = _lead(best, by_turn)
    if lead is None and name == "line":
        return Explanation(f"{head} — the cards it keeps play best over your next turns: {plan}.", plan, name, kept)
    if lead is None:
        return Explanation(f"{head} — {reason}, and it sets up your next turns: {plan}.", plan, name, kept)
    why = _why_line(best, by_turn, known, game)
    but = f"but {why}, and it" if why else "but it"
    return Explanation(f"{head} — {LEADS[lead]}, {but} sets up your next turns: {plan}.", plan, f"line: {lead}", kept)


#: What a move the line chose gives up this turn, by name: said before what the line gains.
LEADS = {
    "takes now": "it takes the pile now",
    "sheds less": "it sheds less right now",  # fewer cards: the guide's own words
    "worth less": "it is worth less this turn",
}


def _lead(best: Candidate, by_turn: Candidate) -> str | None:
    """What the line's move gives up this turn beside this turn's best, when it gives up something plain."""
    if best.move.kind == TAKE:
        return "takes now"
    if best.move.size < by_turn.move.size:
        return "sheds less"
    if best.components["shed"] < by_turn.components["shed"]:
        return "worth less"
    return None


def _principle(best: Candidate, others: Sequence[Candidate], coach: str | None) -> Said | None:
    """The coach's principle when it decided (C3), named and in words: a blind play it would not make, or one it
    made for it."""
    if coach is None:
        return None
    if any(c.fact(PRINCIPLE) < 0 and c.total - c.fact(PRINCIPLE) > best.total for c in others):
        return Said(
            "barred", f"{coach} flips only into an empty pile, unless nothing else plays or the card would go out"
        )
    runner = max((c.total for c in others), default=None)
    principle = best.fact(PRINCIPLE)
    if principle > 0 and runner is not None and best.total - principle < runner:
        bust = percent(best.fact(BUST))
        return Said("high pile", f"{coach} flips on a high pile, where most blind cards land (bust chance {bust})")
    return None


def _why_line(best: Candidate, by_turn: Candidate, known: Knowledge, game: str) -> str | None:
    """Why the line beats shedding the most now (C5): a high card the other play strands, or a low floor kept."""
    kept = _stranded(best)
    stranded = [card for card in _stranded(by_turn) if card not in kept]
    if stranded:
        return f"it saves your {card_word(stranded[-1], game)} from being stranded"
    rank = by_turn.move.rank
    if by_turn.move.kind == PLAY and 0 < rank <= 3 and best.move.rank != rank:
        word = card_word(rank, game)
        return f"it keeps your {word if _held(known, rank) == 1 else plural(word)} as a low floor"
    return None


def _stranded(cand: Candidate) -> tuple[int, ...]:
    """The high cards the move's line leaves held."""
    fact = cand.facts.get(STRANDED)
    return fact.cards if fact else ()


def _held(known: Knowledge, rank: int) -> int:
    """The cards of a rank the seat can play from: its hand and its face-up stack tops (R7)."""
    return known.hand[rank] + sum(1 for stack in known.stacks if stack and stack[-1] == rank)


def advise(
    view: dict[str, Any], coach: str = "Madonna", level: str = "Expert", names: Sequence[str] | None = None
) -> Advice:
    """The coach's advice for the seat to move in ``view`` (C1–C6). Needs only the view (C2)."""
    if not view.get("legal"):
        raise ValueError(f"seat {view.get('seat')} has no move to advise: it is not its turn or the hand is over")
    style = style_of(coach)
    lvl = level_of(level)
    known = Knowledge.from_view(view)
    candidates = evaluate_knowledge(known, style, lvl)
    best, by_turn = choose(candidates, lvl)
    name = coach if coach in COACH_STYLE else style.name
    text, plan, reason, kept = explain(best, by_turn, view, names, candidates=candidates, coach=name, known=known)
    labels = move_words(known, [c.move for c in candidates], names)
    return Advice(name, lvl.name, best.move, text, plan, candidates, labels, reason, kept)


def compare(
    view: dict[str, Any], level: str = "Expert", names: Sequence[str] | None = None, labels: bool = False
) -> pd.DataFrame:
    """All three coaches on one position: each one's move, total and reason, and whether they disagree; the move in
    its text form, or with ``labels`` as its button reads, as in :meth:`Advice.to_frame`."""
    import pandas as pd

    rows = []
    for coach in COACH_STYLE:
        advice = advise(view, coach, level, names)
        move = advice.label if labels else str(advice.move)
        rows.append({"coach": coach, "move": move, "total": advice.candidates[0].total,
                     "advice": advice.text})  # fmt: skip
    frame = pd.DataFrame(rows)
    frame["agrees"] = frame["move"] == frame["move"].mode().iloc[0]
    return frame


#: Turns after which a hand is taken to be looping, and the extra noise AI seats then play with (R15).
LONG_HAND, LOOP_NOISE = 300, 6.0


class AIPlayer:
    """An AI seat: a Level and a Style, choosing from its view only; noise comes from its own seeded RNG."""

    def __init__(self, level: str = "Experienced", style: str = "Balanced", seed: int = 0) -> None:
        self.level: Level = level_of(level)
        self.style: Style = style_of(style)
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"AIPlayer({self.level.name}:{self.style.name})"

    def choose_view(self, view: dict[str, Any]) -> Move:
        """The move this seat plays, from its JSON view."""
        return self.choose(Knowledge.from_view(view))

    def choose(self, known: Knowledge) -> Move:
        """The move this seat plays: the engine's values plus the Level's noise (C4).

        Simulations pass knowledge built from the view's own :func:`~cut_tutor.engine.view.sight`, which skips
        the JSON but shows the seat exactly what its view would.
        """
        # A hand that drags on is usually a loop of the same plays and takes: vary the play to end it (R15).
        noise = self.level.noise + (LOOP_NOISE if known.turns > LONG_HAND else 0.0)
        if len(known.legal) == 1:  # forced (often a take): nothing to score, but the noise draw keeps the seed stream
            if noise:
                self.rng.gauss(0.0, noise)
            return known.legal[0]
        candidates = evaluate_knowledge(known, self.style, self.level)
        if noise:
            for cand in candidates:
                cand.total += self.rng.gauss(0.0, noise)
            candidates.sort(key=lambda c: -c.total)
        best, _ = choose(candidates, self.level)
        return best.move
