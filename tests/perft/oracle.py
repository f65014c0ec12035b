"""A slow reference move generator written from the guide's rules, for checking ``State.legal_moves()``.

It reads a position only through its documented JSON form (``State.to_position()``), lists every combination
of the mover's hand cards and stacks as a candidate :class:`Move`, and keeps each candidate a direct rule
predicate accepts: CUT from R7–R18 (How to play, Optional rules), Clear 4 from its rulebook (R22). Nothing here
comes from the engine's generator, so the two can only agree by both following the rules.

``perft`` counts move sequences from a position (a finished hand is a leaf), with either generator; run this file
to print the counts of ``positions.json`` by both and to write them into it when they agree::

    python tests/perft/oracle.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

if not __package__:  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cut_tutor.engine import IllegalMoveError, Move, Rules, State, parse_card, state_from_deal

JK = parse_card("JK")
#: Clear 4's PUSH, JOKER and CLEAR cards (R22).
PUSH_CARD, WILD, CLEAR_CARD = parse_card("P"), parse_card("J*"), parse_card("CL")
#: More cards of a number than a play may ever lay in Clear 4 (four), so candidates test its cap; JOKERs that
#: open the pile have no cap, so every JOKER in the hand is a candidate (R22).
CLEAR4_MOST = 5
NO_CAP = 10**6
POSITIONS = Path(__file__).resolve().parent / "positions.json"


@dataclass(frozen=True)
class Table:
    """What the rules look at: the seat to move's hand and stacks, the pile and the turn's phase."""

    rules: Rules
    seat: int
    players: int
    hand: Counter[int]
    #: Bottom first, each card with whether it lies face up.
    stacks: tuple[tuple[tuple[int, bool], ...], ...]
    pile: tuple[int, ...]
    phase: str
    #: Stacks (0-based) the position lists as exposed this turn: Risk cards (R17) or Clear 4 middle cards (R22).
    exposed: frozenset[int]
    over: bool

    @property
    def held(self) -> int:
        return sum(self.hand.values())

    def face_up(self, k: int) -> int | None:
        """Stack ``k``'s top card if it lies face up."""
        stack = self.stacks[k]
        return stack[-1][0] if stack and stack[-1][1] else None

    def face_down(self, k: int) -> bool:
        stack = self.stacks[k]
        return bool(stack) and not stack[-1][1]


def table_of(state: State) -> Table:
    """Read the seat to move's side of a position from its JSON form."""
    position = state.to_position()
    seat = position["turn"]
    info = position["seats"][seat]
    stacks = tuple(
        tuple((parse_card(token.strip("[]")), not token.startswith("[")) for token in text.split())
        for text in info["stacks"]
    )
    return Table(
        rules=Rules.from_dict(position["rules"]),
        seat=seat,
        players=len(position["seats"]),
        hand=Counter(parse_card(token) for token in info["hand"].split()),
        stacks=stacks,
        pile=tuple(parse_card(token.partition("@")[0]) for token in position["pile"].split()),
        phase=position["phase"],
        exposed=frozenset(k - 1 for k in position["exposed"]),
        over="winner" in position or bool(position.get("stalemate")),
    )


def subsets(items: Iterable[int]) -> Iterator[tuple[int, ...]]:
    items = tuple(items)
    for size in range(len(items) + 1):
        yield from combinations(items, size)


def reference_moves(state: State) -> set[Move]:
    """Every legal move of the seat to move, by candidate and predicate (R7–R18, or R22 for Clear 4)."""
    table = table_of(state)
    if table.over:
        return set()
    if table.rules.game == "Clear 4":
        return {m for m in clear4_candidates(table) if clear4_allows(table, m)}
    candidates = set(cut_candidates(table))
    plays = {m for m in candidates if m.kind != "take" and cut_allows(table, m)}
    return plays | {m for m in candidates if m.kind == "take" and cut_take_allowed(table, m, bool(plays))}


# -- CUT (R7–R18) -----------------------------------------------------------------------------------------


def cut_candidates(t: Table) -> Iterator[Move]:
    """Every move shape over the mover's cards: each rank and count from the hand with each set of stacks."""
    clear_rank = t.rules.clear_rank
    for chosen in subsets(range(len(t.stacks))):
        for rank in range(1, JK + 1):
            for n in range(t.hand[rank] + 1):
                if n or chosen:
                    yield Move("play", rank, n, chosen)
                    yield Move("add", rank, n, chosen)
        for a in range(t.hand[clear_rank] + 1 if clear_rank else 1):
            for b in range(t.hand[JK] + 1):
                if a or b or chosen:
                    yield Move("clear", clear_rank if a and clear_rank else 0, a, chosen, b)
    yield from (Move("add"), Move("take"), Move("done"))
    yield from (Move("take", rank, 1) for rank in t.hand)
    for k, stack in enumerate(t.stacks):
        if stack:
            yield Move("take", stack[-1][0], 0, (k,))
        yield from (Move(kind, stacks=(k,)) for kind in ("flip", "turnup", "gamble"))


def is_clear_card(t: Table, card: int) -> bool:
    """R2: Jokers always clear, and so does the clear rank."""
    return card == JK or card == t.rules.clear_rank


def stacks_free(t: Table) -> bool:
    """R7, R16: face-up stack tops play like hand cards once the hand is empty, or always with Piles Face Down."""
    return t.rules.piles_face_down or t.held == 0


def sources_allowed(t: Table, move: Move) -> bool:
    """R7: stack tops join a play only when it empties the hand (unless they are free)."""
    return not move.stacks or stacks_free(t) or move.n + move.jokers == t.held


def room_for(t: Table, rank: int) -> int:
    """R10: with 4+ Card Clears off a play stops at the fourth card of its rank on the pile."""
    if t.rules.four_plus_clears:
        return NO_CAP
    run = 0
    for card in reversed(t.pile):
        if card != rank:
            break
        run += 1
    return 4 - run


def holds(t: Table, move: Move, stack_card: Callable[[int], bool]) -> bool:
    """The mover holds the hand cards named, and every stack named shows a fitting face-up top."""
    if move.kind == "clear":
        if move.n > (t.hand[t.rules.clear_rank] if t.rules.clear_rank else 0) or move.jokers > t.hand[JK]:
            return False
    elif move.n > t.hand[move.rank] or move.jokers:
        return False
    return all((card := t.face_up(k)) is not None and stack_card(card) for k in move.stacks)


def cut_allows(t: Table, move: Move) -> bool:
    """Every move but a take, by the turn's phase (R8, R9, R12, R13, R17, R18)."""
    kind = move.kind
    if t.phase == "add":  # R13: the landed blind card's rank, from the sources R7 allows, within R10's cap
        if move == Move("add"):
            return True
        top = t.pile[-1]
        return (
            kind == "add"
            and move.rank == top
            and holds(t, move, lambda card: card == top)
            and sources_allowed(t, move)
            and move.size <= room_for(t, top)
        )
    if t.phase == "gamble":  # R17: an exposed Risk card still face down on its stack, or Done
        return move == Move("done") or (
            kind == "gamble" and move.stacks[0] in t.exposed and t.face_down(move.stacks[0])
        )
    if kind == "play":  # R8, R10
        rank = move.rank
        return (
            not is_clear_card(t, rank)
            and holds(t, move, lambda card: card == rank)
            and sources_allowed(t, move)
            and (not t.pile or rank <= t.pile[-1])
            and move.size <= room_for(t, rank)
        )
    if kind == "clear":  # R9: any mix of clear cards, on any pile
        return holds(t, move, lambda card: is_clear_card(t, card)) and sources_allowed(t, move)
    if kind in ("flip", "turnup"):  # R7, R12, R16, R18
        return (kind == "flip" or t.rules.pile_card_flip) and blind_allowed(t, move.stacks[0])
    return False


def blind_allowed(t: Table, k: int) -> bool:
    """R7, R16: a face-down top is played blind once the hand and the face-up tops are gone, or any time (R16)."""
    if not t.face_down(k):
        return False
    if t.rules.piles_face_down:
        return True
    return t.held == 0 and all(t.face_up(j) is None for j in range(len(t.stacks)))


def cut_take_allowed(t: Table, move: Move, can_play: bool) -> bool:
    """R11: take bare when nothing else is legal; show a higher ordinary card from a playable source any time."""
    if t.phase != "play" or not t.pile:
        return False
    if move == Move("take"):
        return not can_play
    rank, top = move.rank, t.pile[-1]
    if is_clear_card(t, rank) or rank <= top:
        return False
    if move.n == 1 and not move.stacks:
        return t.hand[rank] >= 1
    return move.n == 0 and len(move.stacks) == 1 and stacks_free(t) and t.face_up(move.stacks[0]) == rank


# -- Clear 4 (R22) ----------------------------------------------------------------------------------------


def clear4_candidates(t: Table) -> Iterator[Move]:
    """Every move shape: each value, count and JOKER count from the hand with each set of stacks, each seat."""
    for chosen in subsets(range(len(t.stacks))):
        for value in (*range(1, 11), WILD):
            for n in range((t.hand[value] if value == WILD else min(t.hand[value], CLEAR4_MOST)) + 1):
                for jokers in range(min(t.hand[WILD], CLEAR4_MOST) + 1 if value != WILD else 1):
                    if n or jokers or chosen:
                        yield Move("play", value, n, chosen, jokers)
                        yield Move("add", value, n, chosen, jokers)
    for seat in range(t.players):
        yield from (Move("push", n=1, to=seat), Move("push", to=seat))
        yield from (Move("push", stacks=(k,), to=seat) for k in range(len(t.stacks)))
    yield from (Move("clear", CLEAR_CARD, 1), Move("add"), Move("take"), Move("done"))
    yield from (Move("take", card, 1) for card in t.hand)
    for k in range(len(t.stacks)):
        yield Move("clear", stacks=(k,))
        yield from (Move(kind, stacks=(k,)) for kind in ("flip", "turnup", "gamble"))


def pile_values(pile: tuple[int, ...]) -> list[int]:
    """The value each pile card counts as: a JOKER takes the number below it (0: it opened the pile)."""
    values, last = [], 0
    for card in pile:
        last = last if card == WILD else card
        values.append(last)
    return values


def clear4_allows(t: Table, move: Move) -> bool:
    """The rulebook's moves: numbers equal or lower, JOKERs, PUSH, CLEAR, the final card, passing (R22)."""
    values = pile_values(t.pile)
    value = values[-1] if values else 0
    run = 0
    for counted in reversed(values):
        if not value or counted != value:
            break
        run += 1

    def room(v: int) -> int:  # never more than four of a value on the pile, nor more than four in one play
        return 4 - run if value and v == value else 4

    def lays(m: Move, v: int) -> bool:
        """Cards of value ``v`` with JOKERs: at least one real number, or JOKERs alone taking the pile's value."""
        if m.rank == WILD:
            return (
                m.n <= t.hand[WILD]
                and not m.jokers
                and all(t.face_up(k) == WILD for k in m.stacks)
                and (not value or m.size <= room(value))  # JOKERs with no value to take: any number
            )
        real = m.n + sum(t.face_up(k) == m.rank for k in m.stacks)
        return (
            1 <= m.rank <= 10
            and m.rank == v
            and m.n <= t.hand[m.rank]
            and m.jokers <= t.hand[WILD]
            and all(t.face_up(k) in (m.rank, WILD) for k in m.stacks)
            and real >= 1
            and m.size <= room(m.rank)
        )

    kind, to_other = move.kind, move.to != t.seat and 0 <= move.to < t.players
    if t.phase == "push":  # a PUSH turned up blind: choose the seat
        return kind == "push" and to_other and not move.n and not move.stacks
    if t.phase == "add":
        if move == Move("add"):
            return True
        if kind != "add":
            return False
        if t.exposed:  # a middle card turned up by this play joins only if it matches
            return not move.n and not move.jokers and set(move.stacks) <= t.exposed and lays(move, value)
        return bool(value) and lays(move, value)  # matching cards join the blind card that landed
    if kind == "play":
        return lays(move, move.rank) and (move.rank == WILD or not value or move.rank <= value)
    if kind == "push":
        if not to_other or move.jokers:
            return False
        if move.n == 1 and not move.stacks:
            return t.hand[PUSH_CARD] >= 1
        return not move.n and len(move.stacks) == 1 and t.face_up(move.stacks[0]) == PUSH_CARD
    if kind == "clear":
        if move == Move("clear", CLEAR_CARD, 1):
            return t.hand[CLEAR_CARD] >= 1
        return move.n == 0 and len(move.stacks) == 1 and t.face_up(move.stacks[0]) == CLEAR_CARD
    if kind == "flip":  # the final card, blind, as the first card of a turn
        return t.face_down(move.stacks[0])
    return move == Move("take") and bool(t.pile)  # passing: the pile, no card shown


# -- perft ------------------------------------------------------------------------------------------------


def perft(state: State, depth: int, moves: Callable[[State], Iterable[Move]]) -> int:
    """Move sequences of ``depth`` decisions from ``state``; a finished hand counts as one leaf."""
    if depth == 0 or state.over:
        return 1
    total = 0
    for move in moves(state):
        child = state.copy()
        child.play(move)
        total += perft(child, depth - 1, moves)
    return total


def engine_moves(state: State) -> list[Move]:
    return state.legal_moves()


def load_position(entry: dict[str, Any]) -> State:
    """A perft entry's start: a deal code with its rules, or a JSON position."""
    if "deal" in entry:
        return state_from_deal(entry["deal"], Rules.from_dict(entry["rules"]))
    return State.from_position(entry["position"])


def main() -> None:
    """Count every entry with both generators and write the counts when they agree."""
    entries = json.loads(POSITIONS.read_text(encoding="utf-8"))
    for entry in entries:
        state = load_position(entry)
        counts = [perft(state, d, engine_moves) for d in (1, 2, 3)]
        try:
            reference: list[int] | str = [perft(state, d, reference_moves) for d in (1, 2, 3)]
        except IllegalMoveError as exc:  # the rules allow a move the engine refuses
            reference = str(exc)
        print(entry["name"], counts, "" if counts == reference else f"reference {reference}: NOT PINNED")
        if counts == reference:
            entry["perft"] = counts
    POSITIONS.write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
