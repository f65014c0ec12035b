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

from typing import Any, NamedTuple, NotRequired, TypedDict

from .cards import NCODES, RANK_MASK, UP, card_name, cards_of, counts_of, parse_card
from .moves import Move
from .render import view_html
from .rules import Rules
from .state import State

#: One pile card as a view shows it: its name, the seat that laid it and, in Clear 4, the value it counts as (R22).
PileCard = TypedDict("PileCard", {"card": str, "by": int, "as": NotRequired[str | None]})


class SeatFields(TypedDict):
    """What a view shows of one seat: counts, the cards it was seen to pick up (R11), its stacks' face-up cards."""

    seat: int
    hand_count: int
    known: list[str]
    above: str | None
    stacks: list[list[str | None]]  # bottom first: None face down
    cards_left: int
    busts: int
    clears: int
    blind_plays: int


class _Clear4Fields(TypedDict, total=False):
    """The fields only a Clear 4 view has, which its game module adds (R22)."""

    pile_value: str | None


class ViewFields(_Clear4Fields):
    """Every field of a seat's view, declared once as a game framework declares its observation: :func:`view`
    builds exactly these, the coach and the table read them, and nothing else reaches either (C2).

    The game module answers the pile's questions once, here: ``top_run`` is how many cards of the value to play
    equal or lower to lie together on top (R10, R22; what a play needs to complete four), ``pile_value`` (Clear 4
    only) that value.
    """

    seat: int
    players: int
    rules: dict[str, Any]
    dealer: int
    turn: int
    phase: str
    turns: int
    hand: list[str]
    seats: list[SeatFields]
    pile: list[PileCard]
    top_run: int
    pile_points: int
    exposed: list[int]
    cleared: list[str]
    undealt_count: int
    legal: list[str]
    winner: int | None
    stalemate: bool
    scores: list[int] | None


class View(dict[str, Any]):
    """A JSON-ready dict of one seat's knowledge that draws itself in a notebook."""

    def _repr_html_(self) -> str:
        return view_html(self)


class Sight(NamedTuple):
    """One seat's visible facts in card codes (C2): the single reading of a state behind both the JSON view
    and the coach's knowledge, so the fast simulation path can never see more than the view shows.
    """

    seat: int
    rules: Rules
    phase: str
    turns: int
    hand: tuple[int, ...]  # the seat's own hand, counts by code
    stacks: tuple[tuple[tuple[int | None, ...], ...], ...]  # every seat's stacks, bottom first: None face down
    known: tuple[tuple[int, ...], ...]  # per seat, counts of the hand cards everyone saw it pick up (R11)
    above: tuple[int, ...]  # per seat, the top it took bare on: its other hand cards are ordinary ranks above (R11)
    cards_left: tuple[int, ...]
    pile: tuple[int, ...]
    value: int  # the value to play equal or lower to (0: any)
    run: int  # cards of that value together on top of the pile: the game module's count, the view's top_run
    cleared: tuple[int, ...]
    exposed: tuple[int, ...]  # stacks exposed this turn; empty unless the seat is to move
    legal: tuple[Move, ...]  # empty unless the seat is to move


#: Per stack card: its rank if face up, None if face down.
_FACE: tuple[int | None, ...] = tuple(card & RANK_MASK if card & UP else None for card in range(2 * UP))
#: Stacks already read, by their cards: a seat's stacks change seldom and every decision reads them all, so a
#: lookup beats mapping each card again. Emptied when it reaches :data:`_STACKS_MAX` stacks, to stay small.
_STACKS: dict[tuple[int, ...], tuple[int | None, ...]] = {}
_STACKS_MAX = 1 << 14
#: A stack card as the view shows it: its name, or None face down.
_SHOWN: dict[int | None, str | None] = {None: None} | {rank: card_name(rank) for rank in range(1, NCODES)}


def sight(state: State, seat: int) -> Sight:
    """What ``seat`` sees of ``state``: its own hand, face-up cards, the pile, counts and public pick-ups."""
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} is not one of the {state.players} seats")
    to_move = state.turn == seat and not state.over
    return Sight(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        turns=state.turns,
        hand=tuple(state.hands[seat]),
        stacks=tuple(map(_faces, state.stacks)),
        known=tuple(map(tuple, state.known)),
        above=tuple(state.above),
        cards_left=tuple([n + sum(map(len, stacks)) for n, stacks in zip(state.hand_count, state.stacks, strict=True)]),
        pile=tuple(state.pile),
        value=state.value(),
        run=state.run(),
        cleared=tuple(state.cleared),
        exposed=tuple(state.game.offered(state)) if to_move else (),
        legal=tuple(state.legal_moves()) if to_move else (),
    )


def _faces(stacks: list[list[int]]) -> tuple[tuple[int | None, ...], ...]:
    """One seat's stacks as it is seen: each card's rank if face up, None if face down."""
    seen = []
    for stack in stacks:
        cards = tuple(stack)
        faces = _STACKS.get(cards)
        if faces is None:
            if len(_STACKS) >= _STACKS_MAX:
                _STACKS.clear()
            faces = _STACKS[cards] = tuple([_FACE[card] for card in cards])
        seen.append(faces)
    return tuple(seen)


def view(state: State, seat: int) -> View:
    """Everything ``seat`` may know about ``state`` and nothing more (C2), read through :func:`sight`: the fields
    :class:`ViewFields` declares. ``top_run`` is the game module's count of the pile's top run.

    A Clear 4 view (R22) adds ``pile_value`` and, on each pile card, ``as``: the value it counts as.
    """
    seen = sight(state, seat)
    seats: list[SeatFields] = []
    for other in range(state.players):
        seats.append(
            {
                "seat": other,
                "hand_count": state.hand_count[other],
                "known": [card_name(c) for c in cards_of(seen.known[other])],
                "above": card_name(seen.above[other]) if seen.above[other] else None,
                "stacks": [[_SHOWN[card] for card in stack] for stack in seen.stacks[other]],
                "cards_left": seen.cards_left[other],
                "busts": state.busts[other],
                "clears": state.clears[other],
                "blind_plays": state.blind_plays[other],
            }
        )
    fields: ViewFields = {
        "seat": seat,
        "players": state.players,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": seen.phase,
        "turns": seen.turns,
        "hand": [card_name(c) for c in cards_of(seen.hand)],
        "seats": seats,
        "pile": [{"card": card_name(c), "by": by} for c, by in zip(seen.pile, state.pile_by, strict=True)],
        "top_run": seen.run,
        "pile_points": state.pile_points(),
        "exposed": [k + 1 for k in seen.exposed],
        "cleared": [card_name(c) for c in cards_of(seen.cleared)],
        "undealt_count": sum(state.undealt),
        "legal": [str(m) for m in seen.legal],
        "winner": state.winner,
        "stalemate": state.stalemate,
        "scores": state.scores() if state.over else None,
    }
    result = View(fields)
    state.game.add_to_view(state, result)
    return result


def unseen(v: dict[str, Any]) -> list[int]:
    """Per-rank counts of the cards this seat cannot see and has not seen: the pool a blind card comes from (C2);
    the coach counts the same cards per code as :attr:`~cut_tutor.coach.knowledge.Knowledge.counted`."""
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
