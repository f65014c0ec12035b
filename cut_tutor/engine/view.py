"""What one seat may know (C2): the only thing the coach, the AI seats and the browser ever see.

The view holds ranks of face-up cards only. A face-down card appears as ``None``; no card carries an id,
so nothing hidden can be decoded from it.

>>> from cut_tutor.engine import Rules, State
>>> state = State.deal(Rules(), seed=3)
>>> v = view(state, 0)
>>> v["seats"][1]["stacks"][0][0] is None  # a Risk card is hidden, even from its owner
True
"""

from __future__ import annotations

from typing import Any

from .cards import RANK_MASK, UP, card_name, cards_of, counts_of, parse_card
from .render import view_html
from .rules import Rules
from .state import State


class View(dict[str, Any]):
    """A JSON-ready dict of one seat's knowledge that draws itself in a notebook."""

    def _repr_html_(self) -> str:
        return view_html(self)


def _stack_view(stack: list[int]) -> list[str | None]:
    return [card_name(card) if card & UP else None for card in stack]


def view(state: State, seat: int) -> View:
    """Everything ``seat`` may know about ``state`` and nothing more (C2).

    A Clear 4 view (R22) adds ``pile_value`` and, on each pile card, ``as``: the value it counts as.
    """
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} is not one of the {state.players} seats")
    seats = []
    for other in range(state.players):
        seats.append(
            {
                "seat": other,
                "hand_count": state.hand_count[other],
                "known": [card_name(c) for c in cards_of(state.known[other])],
                "stacks": [_stack_view(stack) for stack in state.stacks[other]],
                "cards_left": state.cards_left(other),
                "busts": state.busts[other],
                "clears": state.clears[other],
                "blind_plays": state.blind_plays[other],
            }
        )
    to_move = state.turn == seat and not state.over
    result = View(
        seat=seat,
        players=state.players,
        rules=state.rules.to_dict(),
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        turns=state.turns,
        hand=[card_name(c) for c in cards_of(state.hands[seat])],
        seats=seats,
        pile=[{"card": card_name(c), "by": by} for c, by in zip(state.pile, state.pile_by, strict=True)],
        pile_points=state.pile_points(),
        exposed=[k + 1 for k in state.game.offered(state)] if to_move else [],
        cleared=[card_name(c) for c in cards_of(state.cleared)],
        undealt_count=sum(state.undealt),
        legal=[str(m) for m in state.legal_moves()] if to_move else [],
        winner=state.winner,
        stalemate=state.stalemate,
        scores=state.scores() if state.over else None,
    )
    state.game.add_to_view(state, result)
    return result


def unseen(v: dict[str, Any]) -> list[int]:
    """Per-rank counts of the cards this seat cannot see: the pool a blind card comes from (C2)."""
    rules = Rules.from_dict(v["rules"])
    pool = counts_of(rules.deck(), rules.ncodes)
    seen = [parse_card(c) for c in v["hand"]] + [parse_card(c) for c in v["cleared"]]
    seen += [parse_card(p["card"]) for p in v["pile"]]
    for info in v["seats"]:
        if info["seat"] != v["seat"]:
            seen += [parse_card(c) for c in info["known"]]
        seen += [parse_card(c) for stack in info["stacks"] for c in stack if c is not None]
    for rank in seen:
        pool[rank & RANK_MASK] -= 1
    return [max(0, count) for count in pool]
