"""The JSON position format, version 1: a position travels as text and comes back the same state.

A JSON object::

    {"format": "cut_tutor.position", "version": 1,
     "rules": {...Rules.to_dict()...},
     "dealer": 0, "turn": 1, "phase": "play" | "add" | "gamble" | "push", "turns": 1,
     "pile": "9@2 9@3",               # bottom first, each card with the seat that laid it
     "exposed": [2],                  # CUT: stacks (1-based) whose Risk card this turn exposed (R17);
                                      # Clear 4 add phase: stacks whose middle card just turned up (R22)
     "seats": [{"hand": "K Q 9 9",    # hand cards, any order
                "known": "9",         # of those, the cards every seat knows from pick-ups
                "above": "5",         # optional (CUT): it took the pile bare on a 5 with cards in hand, so
                                      # every hand card not known is an ordinary rank above 5 (R11)
                "stacks": ["[7] K", "[3] 2", "", "[JK]"],  # bottom first, [x] face-down
                "busts": 0, "clears": 0, "blind_plays": 0}, ...],
     "cleared": "10 JK",              # cards that left the game in cleared piles
     "undealt": "..."}                # optional: derived as the deck minus every placed card

Clear 4 positions (``"rules": {"game": "Clear 4", ...}``) use the same fields: stacks of three like
``"[4] [9] 7"``, its cards ``P`` (PUSH), ``J*`` (JOKER) and ``CL`` (CLEAR), phase ``push`` when a blind PUSH
awaits its seat. A JOKER on the pile is written ``J*``: its value is the number below it (R22).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .cards import RANK_MASK, STACKS, UP, CardError, card_name, cards_of, counts_of, names, parse_card
from .core import PHASE_ADD, PHASE_GAMBLE, PHASE_PLAY, PHASE_PUSH, Core
from .deals import PositionError
from .games import module_of
from .reading import JSONLimitError, load_json
from .rules import CUT, Rules, RulesError

POSITION_FORMAT, VERSION = "cut_tutor.position", 1
C = TypeVar("C", bound=Core)


# -- positions ----------------------------------------------------------------------------------------


def position_of(state: Core) -> dict[str, Any]:
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
        if state.above[seat]:
            seats[-1]["above"] = card_name(state.above[seat])
    data: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "turns": state.turns,
        "pile": " ".join(f"{card_name(c)}@{s}" for c, s in zip(state.pile, state.pile_by, strict=True)),
        "exposed": [k + 1 for k in module_of(state.rules).offered(state)],
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
    deck = set(rules.deck())
    for card in cards:
        if card not in deck:
            raise PositionError(f"{where}: {card_name(card)} is not a card of {rules.game}")
    return counts_of(cards, rules.ncodes)


def _one_card(text: str, where: str) -> int:
    """Exactly one card name (a pile or stack token); an empty token like ``@2`` or ``[]`` is an error."""
    cards = _cards(text, where)
    if len(cards) != 1:
        raise PositionError(f"{where}: {text!r} is not one card name")
    return cards[0]


def _above(text: Any, hand: list[int], known: list[int], rules: Rules, where: str) -> int:
    """A seat's bare-take mark (R11): an ordinary rank that every hand card not known from a pick-up is above."""
    if not isinstance(text, str) or rules.game != CUT:
        raise PositionError(f"{where}.above: expected the rank of the top it took bare on, like '5' (CUT only)")
    top = _one_card(text, f"{where}.above")
    if rules.is_clear[top]:
        raise PositionError(f"{where}.above: {text} is a clear card; a clear card never tops the pile (R9)")
    for rank in range(1, rules.ncodes):
        if hand[rank] > known[rank] and not rules.above_bare(rank, top):
            raise PositionError(
                f"{where}.above: it took the pile bare on {text}, so it holds no {card_name(rank)} beyond those it"
                " picked up (R11)"
            )
    return top


def _int(data: dict[str, Any], key: str, where: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if value is None:
        raise PositionError(f"{where}.{key}: missing")
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{where}.{key}: {value!r} is not a whole number from {low} to {high}")
    return value


def read_position(data: Any, make: Callable[[Rules, int], C]) -> C:
    """A state from a JSON position (a dict or JSON text), checking every field; ``make(rules, dealer)`` builds it
    (:meth:`State.from_position <cut_tutor.engine.state.State.from_position>` passes its class)."""
    try:
        data = load_json(data, "position")
    except JSONLimitError as exc:
        raise PositionError(str(exc)) from None
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
    state = make(rules, _int(data, "dealer", "position", 0, n - 1, 0))
    game = module_of(rules)
    state.turn = _int(data, "turn", "position", 0, n - 1, (state.dealer + 1) % n)
    state.turns = _int(data, "turns", "position", 1, 10**6, 1)
    for seat, info in enumerate(seats):
        where = f"position.seats[{seat}]"
        if not isinstance(info, dict):
            raise PositionError(f"{where}: expected an object with hand, known and stacks")
        unknown = set(info) - {"hand", "known", "stacks", "busts", "clears", "blind_plays", "above"}
        if unknown:
            raise PositionError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        hand = _counts(info.get("hand", ""), f"{where}.hand", rules)
        known = _counts(info.get("known", ""), f"{where}.known", rules)
        for rank in range(rules.ncodes):
            if known[rank] > hand[rank]:
                raise PositionError(f"{where}.known: {card_name(rank)} is marked known but not in the hand")
        state.hands[seat], state.known[seat], state.hand_count[seat] = hand, known, sum(hand)
        if "above" in info:
            state.above[seat] = _above(info["above"], hand, known, rules, where)
        stacks = info.get("stacks", [""] * STACKS)
        if not isinstance(stacks, list) or len(stacks) != STACKS:
            raise PositionError(f"{where}.stacks: expected a list of {STACKS} stacks")
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
        if card in game.OFF_PILE:
            raise PositionError(f"position.pile: {card_text} {game.OFF_PILE[card]}")
        if not by.isdecimal() or int(by) >= n:
            raise PositionError(f"position.pile: {token!r} needs the seat that laid it, like 9@2")
        state.pile.append(card)
        state.pile_by.append(int(by))
    state.cleared = _counts(data.get("cleared", ""), "position.cleared", rules)
    _place_undealt(state, data.get("undealt"))
    phase = data.get("phase", PHASE_PLAY)
    if phase not in game.PHASES:
        *others, last = game.PHASES
        raise PositionError(f"position.phase: {phase!r} is not {', '.join(others)} or {last} ({game.NAME})")
    state.phase = phase
    if phase == PHASE_ADD and not state.pile:
        raise PositionError("position.phase: 'add' needs a landed blind card on the pile")
    exposed = data.get("exposed", [])
    numbers = isinstance(exposed, list) and all(type(k) is int and 1 <= k <= STACKS for k in exposed)
    if not numbers or len(set(exposed)) != len(exposed):
        raise PositionError(f"position.exposed: expected stack numbers from 1 to {STACKS}, each at most once")
    if exposed and phase not in (PHASE_ADD, PHASE_GAMBLE):
        raise PositionError(
            f"position.exposed: stacks wait on a turn only while it adds cards or offers a gamble, not in phase"
            f" {phase!r} (R17, R22)"
        )
    game.offered(state)[:] = [k - 1 for k in exposed]
    if "winner" in data:
        state.winner = _int(data, "winner", "position", 0, n - 1)
    stalemate = data.get("stalemate", False)
    if not isinstance(stalemate, bool):
        raise PositionError(f"position.stalemate: expected true or false, got {stalemate!r}")
    state.stalemate = stalemate
    _check_play(state)
    return state


def _check_play(state: Core) -> None:
    """What no game reaches: a run of four on the pile, stacks deeper than dealt or turned face-down again, a seat
    out of cards that did not win, a winner still holding cards, a gamble without Risk Play (R5, R10, R14, R17)."""
    game, rules = module_of(state.rules), state.rules
    # a last play that goes out ends the hand before its run clears (R14), and a landed blind card waits for its
    # additions before a natural clear is judged (R13): only then may the top run reach four
    pile = state.pile
    top_may_run = state.over or state.phase == PHASE_ADD
    for end in range(1, len(pile) + 1):
        run = game.run(pile[:end])
        last = end == len(pile)
        # a run is judged where it ends: at the top, or where the next card does not carry it on
        ends_here = last or game.run(pile[: end + 1]) <= run
        if ends_here and run >= 4 and not (last and top_may_run):
            raise PositionError("position.pile: four or more of a rank lie together; they would have cleared (R10)")
    depth = len(game.layout(rules, [1] * (3 * STACKS))[0])  # the deal's stack depth (two in CUT, three in Clear 4)
    for seat in range(state.players):
        where = f"position.seats[{seat}]"
        for k, stack in enumerate(state.stacks[seat]):
            if len(stack) > depth:
                raise PositionError(f"{where}.stacks[{k}]: {len(stack)} cards; a {game.NAME} stack holds {depth}")
            faces = [bool(card & UP) for card in stack]
            if faces != sorted(faces):
                raise PositionError(f"{where}.stacks[{k}]: a face-down card lies on a face-up one")
        empty = not state.hand_count[seat] and not any(state.stacks[seat])
        # a PUSH turned up blind as the last card still names its seat before the hand ends (R14, R22)
        pushing = state.phase == PHASE_PUSH and seat == state.turn
        if empty and state.winner is None and not state.stalemate and not pushing:
            raise PositionError(f"{where}: holds no cards, but the hand has no winner (R14)")
        if state.winner == seat and not empty:
            raise PositionError(f"position.winner: seat {seat} still holds cards (R14)")
    if state.over and state.phase != PHASE_PLAY:
        raise PositionError(
            f"position.phase: a finished hand leaves no step open: not {state.phase!r} but 'play' (R14, R22)"
        )
    if state.phase == "gamble" and not rules.risk_play:
        raise PositionError("position.phase: 'gamble' needs Risk Play on (R17)")


def _stack(text: Any, where: str) -> list[int]:
    if not isinstance(text, str):
        raise PositionError(f"{where}: expected text like '[7] K'")
    stack = []
    for token in text.split():
        down = token.startswith("[") and token.endswith("]")
        name = token[1:-1] if down else token
        if "[" in name or "]" in name:
            raise PositionError(f"{where}: {token!r} is neither a card like 'K' nor a face-down one like '[K]'")
        card = _one_card(name, where)
        stack.append(card if down else card | UP)
    return stack


def _place_undealt(state: Core, undealt: Any) -> None:
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
