"""Deal codes, the JSON position format, and hand records: the ways positions travel.

**Deal code** — ``PLAYERS-DECKS-DEALT-DEALER-SEED`` (see :mod:`~cut_tutor.engine.deals`), e.g. ``4-3-20-0-7K``;
a Clear 4 deal (R22) writes ``C4`` for its deck: ``4-C4-20-0-7K``.

**Position format, version 1** — a JSON object of every card and the turn (see :mod:`~cut_tutor.engine.position`).

**Record** — ``{"format": "cut_tutor.record", "version": 1, "rules": {...}, "deal": CODE, "moves": [...]}``
replays a hand exactly.

>>> from cut_tutor.engine import Rules
>>> parse_deal_code(deal_code(Rules(), 12345, 2))
(4, 3, 20, 2, 12345)
>>> deal_code(Rules.from_preset("Clear 4", players=3), 12345, 2)
'3-C4-20-2-C1S'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .deals import PositionError, deal_code, parse, parse_deal_code
from .games import GAME_MODULES
from .moves import Move, MoveSyntaxError
from .position import POSITION_FORMAT, VERSION, position_of
from .reading import JSONLimitError, load_json
from .rules import Rules, RulesError
from .state import IllegalMoveError, State

RECORD_FORMAT = "cut_tutor.record"
__all__ = [
    "POSITION_FORMAT", "RECORD_FORMAT", "VERSION", "PositionError", "deal_code", "parse_deal_code", "position_of",
    "record", "record_of", "replay", "state_from_deal", "state_from_position",
]  # fmt: skip


def state_from_deal(code: str, rules: Rules | None = None) -> State:
    """Deal the hand a code names; ``rules`` (default: USA, or Clear 4 for a C4 code, with the code's seats)
    must agree with it."""
    game, players, decks, dealt, dealer, seed = parse(code)
    try:
        if rules is None:
            rules = GAME_MODULES[game].rules_for(players, decks, dealt)
    except RulesError as exc:
        raise PositionError(f"deal: {exc}") from None
    if rules.game != game:
        raise PositionError(f"deal: code {code} deals a {game} hand, but the rules are for {rules.game}")
    if (rules.players, rules.deck_count, rules.cards_dealt) != (players, decks, dealt):
        raise PositionError(
            f"deal: code {code} deals {players} seats from {decks} decks, {dealt} cards each, but the rules"
            f" say {rules.players} seats, {rules.deck_count} decks, {rules.cards_dealt} cards"
        )
    return State.deal(rules, seed, dealer)


def state_from_position(data: Any) -> State:
    """Build a :class:`State` from a JSON position (a dict or JSON text), checking every field."""
    return State.from_position(data)


# -- records ------------------------------------------------------------------------------------------


def record(rules: Rules | dict[str, Any], deal: str, moves: Iterable[Move | str]) -> dict[str, Any]:
    """The record of a hand from its rules (a :class:`Rules` or its dict), deal code and moves: the one place it is
    built."""
    return {
        "format": RECORD_FORMAT,
        "version": VERSION,
        "rules": rules.to_dict() if isinstance(rules, Rules) else rules,
        "deal": deal,
        "moves": [str(move) for move in moves],
    }


def record_of(state: State) -> dict[str, Any]:
    """The record of a dealt hand: rules, deal code and every move so far."""
    if state.deal_code is None:
        raise PositionError("record: this state was set up from a position, not dealt, so it has no deal code")
    return record(state.rules, state.deal_code, state.moves)


def replay(record: Any, upto: int | None = None) -> State:
    """Replay a record (dict or JSON text) move by move; errors name the move that fails."""
    try:
        record = load_json(record, "record")
    except JSONLimitError as exc:
        raise PositionError(str(exc)) from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise PositionError(f"record.format: expected {RECORD_FORMAT!r}")
    if record.get("version") != VERSION:
        raise PositionError(f"record.version: {record.get('version')!r} is not supported (reads {VERSION})")
    try:
        rules = Rules.from_dict(record.get("rules"), where="record.rules")
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    state = state_from_deal(str(record.get("deal", "")), rules)
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise PositionError("record.moves: expected a list of moves")
    for index, text in enumerate(moves[:upto]):
        try:
            state.play(Move.parse(str(text)))
        except (MoveSyntaxError, IllegalMoveError) as exc:
            raise PositionError(f"record.moves[{index}]: {exc}") from None
    return state
