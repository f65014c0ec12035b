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

from ..engine.cards import CLEAR_CARD, WILD, card_name
from ..engine.moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP, Move
from .knowledge import Knowledge
from .scoring import COMPONENTS, Candidate
from .styles import COACH_STYLE, Level, Style, level_of, style_of
from .values import evaluate, evaluate_knowledge, plan_text

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

    @property
    def label(self) -> str:
        """The play as the table's buttons name it (``Play 2× Q``)."""
        best = next(c for c in self.candidates if c.move == self.move)
        return move_label(self.move, clears=best.clears)

    def to_frame(self) -> pd.DataFrame:
        """One row per legal move: its components, total, and which one is recommended."""
        import pandas as pd

        rows = [
            {"move": str(c.move), **c.components, "total": c.total, "recommended": c.move == self.move}
            for c in self.candidates
        ]
        return pd.DataFrame(rows, columns=["move", *COMPONENTS, "total", "recommended"])


def move_label(move: Move, clears: bool = False) -> str:
    """The button text the guide uses: ``Play 2× 9``, ``Play 3× A — clear``, ``Take (show K)``, ``Flip 2``.

    ``clears`` marks a play that completes four of its rank (R10), the option easiest to miss.

    >>> move_label(Move.parse("3×A"), clears=True), move_label(Move.parse("take K s2"))
    ('Play 3× A — clear', 'Take (show K from stack 2)')
    """
    kind = move.kind
    stacks = " (stack " + ", ".join(str(k + 1) for k in move.stacks) + ")" if move.stacks else ""
    if kind in (PLAY, ADD):
        if kind == ADD and not move.size:
            return "Add none"
        verb = "Play" if kind == PLAY else "Add"
        jokers = f" + {move.jokers}× J*" if move.jokers else ""  # Clear 4: JOKERs joining a number (R22)
        cards = f"{move.size - move.jokers}× {card_name(move.rank)}{jokers}"
        return f"{verb} {cards}{stacks}" + (" — clear" if clears else "")
    if kind == PUSH:
        return f"Push to seat {move.to}{stacks}"
    if kind == CLEAR:
        return f"Play {move.size}× clear{stacks}"
    if kind == TAKE:
        if not move.rank:
            return "Take the pile"
        where = f" from stack {move.stacks[0] + 1}" if move.stacks else ""
        return f"Take (show {card_name(move.rank)}{where})"
    if kind == FLIP:
        return f"Flip {move.stacks[0] + 1}"
    if kind == GAMBLE:
        return f"Gamble pile {move.stacks[0] + 1}"
    if kind == TURNUP:
        return f"Turn up {move.stacks[0] + 1}"
    if kind == DONE:
        return "Done"
    return str(move)


def _cards_phrase(move: Move) -> str:
    if move.rank == CLEAR_CARD or (move.kind == CLEAR and move.size == 1 and move.stacks and not move.rank):
        return "your CLEAR card"
    if move.jokers or move.rank == WILD:  # Clear 4's JOKERs (R22)
        jokers = move.size if move.rank == WILD else move.jokers
        words = "a JOKER" if jokers == 1 else f"{jokers} JOKERs"
        numbers = move.size - jokers
        return f"your {_plural(numbers, card_name(move.rank))} and {words}" if numbers else f"your {words}"
    if move.kind == CLEAR:
        parts = []
        if move.n:
            parts.append(_plural(move.n, card_name(move.rank)))
        if move.jokers:
            parts.append("Joker" if move.jokers == 1 else f"{move.jokers} Jokers")
        if move.stacks:
            parts.append("your face-up clear card" + ("s" if len(move.stacks) > 1 else ""))
        return "your " + " and ".join(parts) if parts else "your clear cards"
    return "your " + _plural(move.size, card_name(move.rank))


def _plural(n: int, name: str) -> str:
    return name if n == 1 else f"{n} {name}s"


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
    head = _verb(best.move, names)
    plan = ", then ".join(plan_text(best.steps)) if best.steps else None
    if best is not by_turn and plan:
        if best.components["shed"] < by_turn.components["shed"]:
            return f"{head} — it sheds less right now, but it sets up your next turns: {plan}.", plan
        return f"{head} — {_reason(best, view, names)}, and it sets up your next turns: {plan}.", plan
    return f"{head} — {_reason(best, view, names)}.", plan


def _verb(move: Move, names: Sequence[str] | None = None) -> str:
    kind = move.kind
    if kind == PLAY:
        return f"Play {_cards_phrase(move)}"
    if kind == CLEAR:
        return f"Clear with {_cards_phrase(move)}"
    if kind == ADD:
        return f"Add {_cards_phrase(move)}" if move.size else "Add nothing"
    if kind == TAKE:
        return f"Take the pile, showing your {card_name(move.rank)}" if move.rank else "Take the pile"
    if kind == PUSH:
        return f"Push the pile to {_who(move.to, names)}"
    if kind == FLIP:
        return f"Flip pile {move.stacks[0] + 1}"
    if kind == GAMBLE:
        return f"Risk pile {move.stacks[0] + 1}"
    if kind == TURNUP:
        return f"Turn up pile {move.stacks[0] + 1}"
    return "Stop here (Done)"


def _reason(cand: Candidate, view: dict[str, Any], names: Sequence[str] | None) -> str:
    move, parts = cand.move, cand.components
    pile = view["pile"]
    seats = view["seats"]
    me = view["seat"]
    nxt = seats[(me + 1) % view["players"]]
    if cand.goes_out:
        return "it empties your cards and wins the hand"
    if move.kind == PUSH:
        return _push_reason(move, view, names)
    if move.kind == CLEAR and view["rules"].get("game") == "Clear 4":
        return f"sweeps a pile of {len(pile)} cards and you go again" if pile else "sheds it and you go again"
    if parts["go out"] >= 50:
        return "it clears, and your go-again finishes your cards"
    if move.kind == CLEAR:
        near = [s for s in seats if s["seat"] != me and s["cards_left"] <= 2]
        if near:
            value = view["rules"]["clear_value"]
            return f"dumps a clear card worth {value} points before {_who(near[0]['seat'], names)} goes out"
        return f"sweeps a pile of {len(pile)} cards ({view['pile_points']} pts) and you go again"
    if cand.clears:
        return f"completes four {card_name(move.rank)}s: the pile clears and you go again"
    if move.kind in (FLIP, GAMBLE):
        if not pile:
            return "the pile is empty, so a blind card always lands"
        cost = view["pile_points"]
        return f"the pile costs {cost} pts to take and the odds favour the flip (risk {parts['risk']:+.1f})"
    if move.kind == TURNUP:
        return "a blind card would be costly on this pile; seeing it first is cheaper"
    if move.kind == TAKE:
        return "every other move costs more" if move.rank else "nothing you hold plays"
    if move.kind == DONE:
        return "another blind card is not worth the pile it could cost you"
    if move.kind == ADD and not move.size:
        return "keeping those cards is worth more than adding them"
    if nxt["cards_left"] <= 2 and parts["control"] > 2:
        who, left = _who(nxt["seat"], names), nxt["cards_left"]
        return f"plays low so {who}, down to {left} card(s), must match or take the pile"
    if not pile and move.rank >= 11:
        return "leads high on an empty pile"
    n = move.size
    if move.rank >= 11:
        return f"sheds {_count_word(n)} high card{'s' if n > 1 else ''} while the pile allows it"
    if n > 1:
        return f"sheds {_count_word(n)} cards at once"
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
    return f"sends {len(pile)} cards to {_who(move.to, names)}{closest} ({left} card{'s' if left != 1 else ''} left)"


def _who(seat: int, names: Sequence[str] | None) -> str:
    """A seat as the advice names it: the player's name when the table has names."""
    return names[seat] if names and 0 <= seat < len(names) else f"seat {seat}"


def _count_word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n))


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
    return Advice(name, lvl.name, best.move, text, plan, candidates)


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



