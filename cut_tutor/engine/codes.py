"""Deal codes, the JSON position format, and hand records: the ways positions travel.

**Deal code** — ``PLAYERS-DECKS-DEALT-DEALER-SEED``, the seed in Crockford base 32, e.g. ``4-3-20-0-7K``.
It fixes the shuffle and the deal; the other rules travel beside it. A Clear 4 deal (R22) writes ``C4`` for its
deck: ``4-C4-20-0-7K``.

**Position format, version 1** — a JSON object::

    {"format": "cut_tutor.position", "version": 1,
     "rules": {...Rules.to_dict()...},
     "dealer": 0, "turn": 1, "phase": "play" | "add" | "gamble" | "push", "turns": 1,
     "pile": "9@2 9@3",               # bottom first, each card with the seat that laid it
     "exposed": [2],                  # gamble phase: stacks (1-based) whose Risk card may be gambled;
                                      # Clear 4 add phase: stacks whose middle card just turned up
     "seats": [{"hand": "K Q 9 9",    # hand cards, any order
                "known": "9",         # of those, the cards every seat knows from pick-ups
                "stacks": ["[7] K", "[3] 2", "", "[JK]"],  # bottom first, [x] face-down
                "busts": 0, "clears": 0, "blind_plays": 0}, ...],
     "cleared": "10 JK",              # cards that left the game in cleared piles
     "undealt": "..."}                # optional: derived as the deck minus every placed card

Clear 4 positions (``"rules": {"game": "Clear 4", ...}``) use the same fields: stacks of three like
``"[4] [9] 7"``, its cards ``P`` (PUSH), ``J*`` (JOKER) and ``CL`` (CLEAR), phase ``push`` when a blind PUSH
awaits its seat. A JOKER on the pile is written ``J*``: its value is the number below it (R22).

**Record** — ``{"format": "cut_tutor.record", "version": 1, "rules": {...}, "deal": CODE, "moves": [...]}``
replays a hand exactly.

>>> from cut_tutor.engine import Rules
>>> parse_deal_code(deal_code(Rules(), 12345, 2))
(4, 3, 20, 2, 12345)
>>> deal_code(Rules.from_preset("Clear 4", players=3), 12345, 2)
'3-C4-20-2-C1S'
"""

from __future__ import annotations

import json
import re
from typing import Any

from .cards import CLEAR_CARD, PUSH, RANK_MASK, UP, WILD, CardError, card_name, cards_of, counts_of, names, parse_card
from .moves import Move, MoveSyntaxError
from .rules import CLEAR4, Rules, RulesError, auto_decks
from .state import PHASE_ADD, PHASE_GAMBLE, PHASE_PLAY, PHASE_PUSH, IllegalMoveError, State

POSITION_FORMAT, RECORD_FORMAT, VERSION = "cut_tutor.position", "cut_tutor.record", 1
_B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class PositionError(ValueError):
    """A position, record or deal code that cannot be loaded; the message names the field."""


# -- deal codes ---------------------------------------------------------------------------------------


def _b32(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 32)
        digits = _B32[digit] + digits
        if not number:
            return digits


def deal_code(rules: Rules, seed: int, dealer: int) -> str:
    """The short code of a deal: seats, decks, cards dealt, dealer and shuffle seed."""
    if seed < 0:
        raise ValueError("seeds are non-negative integers")
    if rules.game == CLEAR4:
        return f"{rules.players}-C4-{rules.cards_dealt}-{dealer}-{_b32(seed)}"
    return f"{rules.players}-{rules.deck_count}-{rules.cards_dealt}-{dealer}-{_b32(seed)}"


def parse_deal_code(code: str) -> tuple[int, int, int, int, int]:
    """``(players, decks, cards_dealt, dealer, seed)`` from a deal code (a Clear 4 deck counts as 1)."""
    return _parse_code(code)[1:]


def _parse_code(code: str) -> tuple[str, int, int, int, int, int]:
    """The game (CUT or Clear 4) and the five numbers of a deal code."""
    match = re.fullmatch(r"\s*(\d)-(\d{1,2}|[Cc]4)-(\d\d)-(\d)-([0-9A-Za-z]{1,16})\s*", code)
    if not match:
        raise PositionError(f"deal: {code!r} is not a deal code like 4-3-20-0-7K (players-decks-dealt-dealer-seed)")
    game = CLEAR4 if match.group(2).upper() == "C4" else "CUT"
    players, dealt, dealer = (int(match.group(i)) for i in (1, 3, 4))
    decks = 1 if game == CLEAR4 else int(match.group(2))
    seed = 0
    for char in match.group(5).upper().replace("O", "0").replace("I", "1").replace("L", "1"):
        if char not in _B32:
            raise PositionError(f"deal: {code!r} has {char!r} in its seed, which base 32 does not use")
        seed = seed * 32 + _B32.index(char)
    if dealer >= players:
        raise PositionError(f"deal: dealer {dealer} is not one of the {players} seats")
    return game, players, decks, dealt, dealer, seed


def state_from_deal(code: str, rules: Rules | None = None) -> State:
    """Deal the hand a code names; ``rules`` (default: USA, or Clear 4 for a C4 code, with the code's seats)
    must agree with it."""
    game, players, decks, dealt, dealer, seed = _parse_code(code)
    try:
        if rules is None and game == CLEAR4:
            rules = Rules.from_preset(CLEAR4, players=players)
        elif rules is None:
            auto = decks == auto_decks(players) if 2 <= players <= 8 else False
            rules = Rules(players=players, decks=None if auto else decks, cards_dealt=dealt)
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


# -- positions ----------------------------------------------------------------------------------------


def position_of(state: State) -> dict[str, Any]:
    """The JSON position of a state (every card, hidden ones included: a referee's record)."""
    seats = []
    for seat in range(state.players):
        seats.append(
            {
                "hand": names(cards_of(state.hands[seat])),
                "known": names(cards_of(state.known[seat])),
                "stacks": [" ".join(_stack_card(card) for card in stack) for stack in state.stacks[seat]],
                "busts": state.busts[seat],
                "clears": state.clears[seat],
                "blind_plays": state.blind_plays[seat],
            }
        )
    data: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "turns": state.turns,
        "pile": " ".join(f"{card_name(c)}@{s}" for c, s in zip(state.pile, state.pile_by, strict=True)),
        "exposed": [k + 1 for k in state.exposed],
        "seats": seats,
        "cleared": names(cards_of(state.cleared)),
        "undealt": names(cards_of(state.undealt)),
    }
    if state.winner is not None:
        data["winner"] = state.winner
    if state.stalemate:
        data["stalemate"] = True
    return data


def _stack_card(card: int) -> str:
    return card_name(card) if card & UP else f"[{card_name(card)}]"


def _cards(text: Any, where: str) -> list[int]:
    if isinstance(text, list):
        text = " ".join(str(t) for t in text)
    if not isinstance(text, str):
        raise PositionError(f"{where}: expected card names like 'K 9 9', got {type(text).__name__}")
    try:
        return [parse_card(token) for token in text.split()]
    except CardError as exc:
        raise PositionError(f"{where}: {exc}") from None


def _counts(text: Any, where: str, rules: Rules) -> list[int]:
    """Counts of the cards a text names; a card of the other game (CUT's JK in Clear 4, say) is an error."""
    cards = _cards(text, where)
    for card in cards:
        if card >= rules.ncodes or (rules.clear4 and card > 10 and card not in (PUSH, WILD, CLEAR_CARD)):
            raise PositionError(f"{where}: {card_name(card)} is not a card of {rules.game}")
    return counts_of(cards, rules.ncodes)


def _one_card(text: str, where: str) -> int:
    """Exactly one card name (a pile or stack token); an empty token like ``@2`` or ``[]`` is an error."""
    cards = _cards(text, where)
    if len(cards) != 1:
        raise PositionError(f"{where}: {text!r} is not one card name")
    return cards[0]


def _int(data: dict[str, Any], key: str, where: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if value is None:
        raise PositionError(f"{where}.{key}: missing")
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{where}.{key}: {value!r} is not a whole number from {low} to {high}")
    return value


def state_from_position(data: Any) -> State:
    """Build a :class:`State` from a JSON position (a dict or JSON text), checking every field."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise PositionError(f"position: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise PositionError("position: expected a JSON object")
    if data.get("format", POSITION_FORMAT) != POSITION_FORMAT:
        raise PositionError(f"position.format: {data.get('format')!r} is not {POSITION_FORMAT!r}")
    version = data.get("version", VERSION)
    if version != VERSION:
        raise PositionError(f"position.version: {version!r} is not supported (this version reads {VERSION})")
    try:
        rules = Rules.from_dict(data.get("rules", {}), where="position.rules")
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != rules.players:
        raise PositionError(f"position.seats: expected a list of {rules.players} seats (rules.players)")
    n = rules.players
    state = State(rules, _int(data, "dealer", "position", 0, n - 1, 0))
    state.turn = _int(data, "turn", "position", 0, n - 1, (state.dealer + 1) % n)
    state.turns = _int(data, "turns", "position", 1, 10**6, 1)
    for seat, info in enumerate(seats):
        where = f"position.seats[{seat}]"
        if not isinstance(info, dict):
            raise PositionError(f"{where}: expected an object with hand, known and stacks")
        unknown = set(info) - {"hand", "known", "stacks", "busts", "clears", "blind_plays"}
        if unknown:
            raise PositionError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        hand = _counts(info.get("hand", ""), f"{where}.hand", rules)
        known = _counts(info.get("known", ""), f"{where}.known", rules)
        for rank in range(rules.ncodes):
            if known[rank] > hand[rank]:
                raise PositionError(f"{where}.known: {card_name(rank)} is marked known but not in the hand")
        state.hands[seat], state.known[seat], state.hand_count[seat] = hand, known, sum(hand)
        stacks = info.get("stacks", [""] * rules.stacks)
        if not isinstance(stacks, list) or len(stacks) != rules.stacks:
            raise PositionError(f"{where}.stacks: expected a list of {rules.stacks} stacks")
        for k, text in enumerate(stacks):
            state.stacks[seat][k] = _stack(text, f"{where}.stacks[{k}]")
            _counts(" ".join(card_name(c) for c in state.stacks[seat][k]), f"{where}.stacks[{k}]", rules)
        for key in ("busts", "clears", "blind_plays"):
            getattr(state, key)[seat] = _int(info, key, where, 0, 10**6, 0)
    pile_text = data.get("pile", "")
    if not isinstance(pile_text, str):
        raise PositionError("position.pile: expected text like '9@2 9@3'")
    for token in pile_text.split():
        card_text, _, by = token.partition("@")
        card = _one_card(card_text, "position.pile")
        _counts(card_text, "position.pile", rules)
        if rules.is_clear[card]:
            raise PositionError(f"position.pile: {card_text} is a clear card and cannot lie on the pile (R9)")
        if rules.clear4 and card in (PUSH, CLEAR_CARD):
            raise PositionError(f"position.pile: {card_text} is played on its own and never lies on the pile (R22)")
        if not by.isdecimal() or int(by) >= n:
            raise PositionError(f"position.pile: {token!r} needs the seat that laid it, like 9@2")
        state.pile.append(card)
        state.pile_by.append(int(by))
    state.cleared = _counts(data.get("cleared", ""), "position.cleared", rules)
    _place_undealt(state, data.get("undealt"))
    phase = data.get("phase", PHASE_PLAY)
    if rules.clear4 and phase not in (PHASE_PLAY, PHASE_ADD, PHASE_PUSH):
        raise PositionError(f"position.phase: {phase!r} is not play, add or push (Clear 4)")
    if not rules.clear4 and phase not in (PHASE_PLAY, PHASE_ADD, PHASE_GAMBLE):
        raise PositionError(f"position.phase: {phase!r} is not play, add or gamble")
    state.phase = phase
    if phase == PHASE_ADD and not state.pile:
        raise PositionError("position.phase: 'add' needs a landed blind card on the pile")
    exposed = data.get("exposed", [])
    if not isinstance(exposed, list) or not all(isinstance(k, int) and 1 <= k <= rules.stacks for k in exposed):
        raise PositionError(f"position.exposed: expected stack numbers from 1 to {rules.stacks}")
    state.exposed = [k - 1 for k in exposed]
    if "winner" in data:
        state.winner = _int(data, "winner", "position", 0, n - 1)
    state.stalemate = bool(data.get("stalemate", False))
    return state


def _stack(text: Any, where: str) -> list[int]:
    if not isinstance(text, str):
        raise PositionError(f"{where}: expected text like '[7] K'")
    stack = []
    for token in text.split():
        down = token.startswith("[") and token.endswith("]")
        card = _one_card(token.strip("[]"), where)
        stack.append(card if down else card | UP)
    return stack


def _place_undealt(state: State, undealt: Any) -> None:
    """Undealt cards: as given, or the deck minus every placed card; the totals must add up (R1)."""
    size = state.rules.ncodes
    placed = [0] * size
    for seat in range(state.players):
        for rank in range(size):
            placed[rank] += state.hands[seat][rank]
        for stack in state.stacks[seat]:
            for card in stack:
                placed[card & RANK_MASK] += 1
    for card in state.pile:
        placed[card] += 1
    for rank in range(size):
        placed[rank] += state.cleared[rank]
    deck = counts_of(state.rules.deck(), size)
    for rank in range(1, size):
        if placed[rank] > deck[rank]:
            raise PositionError(
                f"position: {placed[rank]} {card_name(rank)}s are placed but {state.rules.deck_count} decks"
                f" hold only {deck[rank]}"
            )
    if undealt is None:
        state.undealt = [deck[rank] - placed[rank] for rank in range(size)]
        return
    state.undealt = _counts(undealt, "position.undealt", state.rules)
    for rank in range(1, size):
        if placed[rank] + state.undealt[rank] != deck[rank]:
            raise PositionError(f"position.undealt: {card_name(rank)} count does not add up to the deck's {deck[rank]}")


# -- records ------------------------------------------------------------------------------------------


def record_of(state: State) -> dict[str, Any]:
    """The record of a dealt hand: rules, deal code and every move so far."""
    if state.deal_code is None:
        raise PositionError("record: this state was set up from a position, not dealt, so it has no deal code")
    return {
        "format": RECORD_FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "deal": state.deal_code,
        "moves": [str(move) for move in state.moves],
    }


def replay(record: Any, upto: int | None = None) -> State:
    """Replay a record (dict or JSON text) move by move; errors name the move that fails."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise PositionError(f"record: not valid JSON ({exc})") from None
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
