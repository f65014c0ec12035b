"""Advice for one seat (C1, C5): the recommended move, every candidate ranked, and why in plain English.

>>> from cut_tutor.engine import Rules, State, view
>>> state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1",
...     "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]})
>>> advice = advise(view(state, 0), coach="Madonna", level="Expert")
>>> advice.text
'Play your J — it sheds less right now, but it sets up your next turns: your 2 7s, then your 2 5s.'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.cards import JACK, WILD
from ..engine.moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PUSH, TAKE, TURNUP, Move
from ..engine.rules import CLEAR4
from ..engine.words import acts, card_word, count, game_of, move_labels, move_phrase, number, plural, pts, who
from ..engine.words import plan as plan_phrase
from .knowledge import Knowledge
from .scoring import COMPONENTS, Candidate
from .styles import COACH_STYLE, Level, Style, level_of, style_of
from .values import evaluate, evaluate_knowledge

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
    #: Every candidate's button text, as the table words it (:func:`~cut_tutor.engine.words.move_labels`).
    labels: dict[Move, str]

    @property
    def label(self) -> str:
        """The play as the table's buttons name it (``Play 2× Q``)."""
        return self.labels[self.move]

    def to_frame(self) -> pd.DataFrame:
        """One row per legal move: its components, total, and which one is recommended."""
        import pandas as pd

        rows = [
            {"move": str(c.move), **c.components, "total": c.total, "recommended": c.move == self.move}
            for c in self.candidates
        ]
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


def explain(
    best: Candidate, by_turn: Candidate, view: dict[str, Any], names: Sequence[str] | None = None
) -> tuple[str, str | None]:
    """A sentence naming the deciding components and the cards; the plan when the line decided (C5)."""
    head = move_phrase(best.move, game_of(view), names)
    plan = plan_phrase(best.steps, game_of(view)) if best.steps else None
    if best is not by_turn and plan:
        if best.components["shed"] < by_turn.components["shed"]:
            return f"{head} — it sheds less right now, but it sets up your next turns: {plan}.", plan
        return f"{head} — {_reason(best, view, names)}, and it sets up your next turns: {plan}.", plan
    return f"{head} — {_reason(best, view, names)}.", plan


def _reason(cand: Candidate, view: dict[str, Any], names: Sequence[str] | None) -> str:
    move, parts = cand.move, cand.components
    pile = view["pile"]
    seats = view["seats"]
    me = view["seat"]
    nxt = seats[(me + 1) % view["players"]]
    game = game_of(view)
    if cand.goes_out:
        return "it empties your cards and wins the hand"
    if move.kind == PUSH:
        return _push_reason(move, view, names)
    if move.kind == CLEAR and game == CLEAR4:
        return f"sweeps a pile of {count(len(pile), 'card')} and you go again" if pile else "sheds it and you go again"
    if parts["go out"] >= 50:
        return "it clears, and your go-again finishes your cards"
    if move.kind == CLEAR:
        near = [s for s in seats if s["seat"] != me and s["cards_left"] <= 2]
        if near:
            value = view["rules"]["clear_value"]
            return f"dumps a clear card worth {value} points before {acts(who(near[0]['seat'], names), 'go out')}"
        if not pile:
            return f"sheds {'it' if move.size == 1 else 'them'} and you go again"
        return f"sweeps a pile of {count(len(pile), 'card')} ({pts(view['pile_points'])}) and you go again"
    if cand.clears:
        value = view.get("pile_value") if move.rank == WILD else move.rank  # Clear 4's JOKERs take the value (R22)
        four = f"four {plural(card_word(value, game))}" if value else "four of a kind"
        return f"completes {four}: the pile clears and you go again"
    if move.kind in (FLIP, GAMBLE):
        if not pile:
            return "the pile is empty, so a blind card always lands"
        cost = pts(view["pile_points"])
        return f"the pile costs {cost} to take and the odds favour the {move.kind} (risk {parts['risk']:+.1f})"
    if move.kind == TURNUP:
        return "a blind card would be costly on this pile; seeing it first is cheaper"
    if move.kind == TAKE:
        return "every other move costs more" if move.rank else "nothing you hold plays"
    if move.kind == DONE:
        return "another blind card is not worth the pile it could cost you"
    if move.kind == ADD and not move.size:
        return "keeping those cards is worth more than adding them"
    if nxt["cards_left"] <= 2 and parts["control"] > 2:
        left = count(nxt["cards_left"], "card")
        return f"plays low so {who(nxt['seat'], names)}, down to {left}, must match or take the pile"
    high = game != CLEAR4 and move.rank >= JACK  # J, Q, K: Clear 4's top value is 10, its specials are not high
    if not pile and high:
        return "leads high on an empty pile"
    n = move.size
    if high:
        return f"sheds {number(n)} high {'card' if n == 1 else 'cards'} while the pile allows it"
    if n > 1:
        return f"sheds {number(n)} cards at once"
    if parts["assets"] >= 0:
        return "sheds a card while keeping your low cards and clears"
    return "it is the most valuable play you have"


def _push_reason(move: Move, view: dict[str, Any], names: Sequence[str] | None) -> str:
    """Clear 4: whom the pile goes to, and why that seat (R22, C6)."""
    pile, seats = view["pile"], view["seats"]
    if not pile:
        return "sheds your PUSH while the pile is empty"
    left = seats[move.to]["cards_left"]
    others = [s["cards_left"] for s in seats if s["seat"] != view["seat"]]
    closest = ", the closest to going out" if left == min(others) else ""
    return f"sends {count(len(pile), 'card')} to {who(move.to, names)}{closest} ({count(left, 'card')} left)"


def advise(
    view: dict[str, Any], coach: str = "Madonna", level: str = "Expert", names: Sequence[str] | None = None
) -> Advice:
    """The coach's advice for the seat to move in ``view`` (C1–C6). Needs only the view (C2)."""
    if not view.get("legal"):
        raise ValueError(f"seat {view.get('seat')} has no move to advise: it is not its turn or the hand is over")
    style = style_of(coach)
    lvl = level_of(level)
    candidates = evaluate(view, style, lvl)
    best, by_turn = choose(candidates, lvl)
    text, plan = explain(best, by_turn, view, names)
    name = coach if coach in COACH_STYLE else style.name
    clears = {c.move for c in candidates if c.clears}
    labels = move_labels([c.move for c in candidates], game=game_of(view), clears=clears, names=names)
    return Advice(name, lvl.name, best.move, text, plan, candidates, labels)


def compare(view: dict[str, Any], level: str = "Expert", names: Sequence[str] | None = None) -> pd.DataFrame:
    """All three coaches on one position: each one's move, total and reason, and whether they disagree."""
    import pandas as pd

    rows = []
    for coach in COACH_STYLE:
        advice = advise(view, coach, level, names)
        rows.append({"coach": coach, "move": str(advice.move), "total": advice.candidates[0].total,
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

    def choose(self, seat: Knowledge) -> Move:
        """The move this seat plays: the engine's values plus the Level's noise (C4).

        Simulations pass knowledge built from the view's own :func:`~cut_tutor.engine.view.sight`, which skips
        the JSON but shows the seat exactly what its view would.
        """
        candidates = evaluate_knowledge(seat, self.style, self.level)
        # A hand that drags on is usually a loop of the same plays and takes: vary the play to end it (R15).
        noise = self.level.noise + (LOOP_NOISE if seat.turns > LONG_HAND else 0.0)
        if noise:
            for cand in candidates:
                cand.total += self.rng.gauss(0.0, noise)
            candidates.sort(key=lambda c: -c.total)
        best, _ = choose(candidates, self.level)
        return best.move
