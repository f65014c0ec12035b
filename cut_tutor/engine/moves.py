"""Moves as small hashable values with a text form that round-trips.

Stacks are numbered 1–4 in text, as on the table's pile badges, and 0–3 inside a :class:`Move`.

Clear 4 (R22) adds its forms beside CUT's, which stay as they were:

- a number play joined by JOKERs from the hand: ``2×5+J*`` (two 5s and a JOKER), ``3×5+2×J* s1``: the count
  before ``+`` holds the hand's 5s and the stack cards named (a stack's JOKER joins as a 5); after ``+`` the
  hand's JOKERs;
- JOKERs played alone take the top card's value: ``1×J*``, ``2×J* s3``;
- ``clear CL`` (a CLEAR card from the hand) and ``clear s2`` (from a stack);
- ``push → 2`` (or ``push 2``): a PUSH from the hand sends the pile to seat 2; ``push s3 → 2`` plays the PUSH on
  stack 3; ``push blind → 2`` chooses the seat for a PUSH just turned up blind. Seats are numbered from 0.

>>> str(Move.parse("2x9"))
'2×9'
>>> str(Move.parse("clear 10+2×JK s3"))
'clear 10+2×JK s3'
>>> [str(Move.parse(t)) for t in ("take", "take K s2", "flip 3", "gamble 2", "done", "turn up 4", "add 0")]
['take', 'take K s2', 'flip 3', 'gamble 2', 'done', 'turn up 4', 'add 0']
>>> [str(Move.parse(t)) for t in ("2x5+j*", "push 2", "push s3 -> 1", "push blind → 0", "clear CL")]
['2×5+J*', 'push → 2', 'push s3 → 1', 'push blind → 0', 'clear CL']
>>> Move.parse("push → 2")
Move(kind='push', rank=0, n=1, stacks=(), jokers=0, to=2)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from .cards import JOKER, WILD, CardError, card_name, parse_card

PLAY, CLEAR, TAKE, FLIP, ADD, GAMBLE, DONE, TURNUP = "play", "clear", "take", "flip", "add", "gamble", "done", "turnup"
#: Clear 4's PUSH (R22): the pile goes to the seat ``Move.to``.
PUSH = "push"


#: Move texts already written: the same few hundred moves are named again and again in views.
_TEXTS: dict[Move, str] = {}


class MoveSyntaxError(ValueError):
    """Text that is not a move; the message shows the forms that are."""


class Move(NamedTuple):
    """One decision of the seat to move.

    ``kind``   play, clear, take, flip, add, gamble, done or turnup.
    ``rank``   the rank played, added or shown (for clear plays: the clear rank when ``n`` > 0).
    ``n``      cards of ``rank`` from the hand.
    ``stacks`` face-up stack tops joining the play (play, clear, add, take), or the stack acted on.
    ``jokers`` Jokers from the hand (CUT: clear plays only; Clear 4: JOKERs joining a number play or addition).
    ``to``     the seat a PUSH sends the pile to (Clear 4); -1 for every other move.
    """

    kind: str
    rank: int = 0
    n: int = 0
    stacks: tuple[int, ...] = ()
    jokers: int = 0
    to: int = -1

    @property
    def size(self) -> int:
        """Cards this move lays (hand and stack cards together)."""
        return self.n + self.jokers + len(self.stacks)

    def __str__(self) -> str:
        text = _TEXTS.get(self)
        if text is None:
            text = _TEXTS[self] = self._text()
        return text

    def _text(self) -> str:
        refs = "".join(f" s{i + 1}" for i in self.stacks)
        kind = self.kind
        if kind == PLAY:
            if self.jokers:
                return f"{self._with_jokers()}{refs}"
            return f"{self.size}×{card_name(self.rank)}{refs}"
        if kind == ADD:
            if self.jokers:
                return f"add {self._with_jokers()}{refs}"
            return f"add {self.size}×{card_name(self.rank)}{refs}" if self.size else "add 0"
        if kind == PUSH:
            source = " s" + str(self.stacks[0] + 1) if self.stacks else "" if self.n else " blind"
            return f"push{source} → {self.to}"
        if kind == CLEAR:
            parts = [_times(self.n, self.rank), _times(self.jokers, JOKER)]
            return "clear " + "+".join(p for p in parts if p) + refs if self.n or self.jokers else "clear" + refs
        if kind == TAKE:
            return f"take {card_name(self.rank)}{refs}" if self.rank else "take"
        if kind in (FLIP, GAMBLE):
            return f"{kind} {self.stacks[0] + 1}"
        if kind == TURNUP:
            return f"turn up {self.stacks[0] + 1}"
        return kind

    def _with_jokers(self) -> str:
        """Clear 4: ``2×5+J*``, the hand's JOKERs after the cards they join (R22)."""
        joker = card_name(WILD) if self.jokers == 1 else f"{self.jokers}×{card_name(WILD)}"
        return f"{self.n + len(self.stacks)}×{card_name(self.rank)}+{joker}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move a text names (``x`` may stand for ``×``); raises :class:`MoveSyntaxError`."""
        try:
            return _parse(text)
        except (CardError, ValueError, IndexError) as exc:
            raise MoveSyntaxError(
                f"cannot read move {text!r} ({exc}); moves look like 2×9, 3×9 s1 s2, clear 10+JK, take K,"
                " take, flip 3, add 2×A, add 0, gamble 2, done, turn up 4 (Clear 4: 2×5+J*, push → 2, clear CL)"
            ) from None


def _times(n: int, rank: int) -> str:
    return "" if n == 0 else card_name(rank) if n == 1 else f"{n}×{card_name(rank)}"


_COUNT = re.compile(r"^(\d+)\s*[x×*]\s*(\w+\*?)$", re.IGNORECASE)


def _count_rank(token: str) -> tuple[int, int]:
    match = _COUNT.match(token)
    if match:
        n = int(match.group(1))
        if n < 1:
            raise ValueError("a count must be at least 1")
        return n, parse_card(match.group(2))
    return 1, parse_card(token)


def _stack_refs(tokens: list[str]) -> tuple[int, ...]:
    refs = []
    for token in tokens:
        if not re.fullmatch(r"s[1-9]", token, re.IGNORECASE):
            raise ValueError(f"{token!r} is not a stack reference like s2")
        refs.append(int(token[1:]) - 1)
    if len(set(refs)) != len(refs):
        raise ValueError("a stack is named twice")
    return tuple(sorted(refs))


def _stack_number(token: str) -> tuple[int, ...]:
    number = int(token)
    if not 1 <= number <= 9:
        raise ValueError("stacks are numbered from 1")
    return (number - 1,)


def _with_jokers(kind: str, token: str, refs: list[str]) -> Move:
    """Clear 4's ``2×5+J*``: cards of a number (hand and the stacks named), then the hand's JOKERs (R22)."""
    first, _, second = token.partition("+")
    count, rank = _count_rank(first)
    jokers, joker = _count_rank(second)
    if joker != WILD or rank == WILD:
        raise ValueError("after '+' come the JOKERs (J*) that join a number")
    stacks = _stack_refs(refs)
    return Move(kind, rank, _hand_part(count, stacks), stacks, jokers)


def _push(rest: list[str]) -> Move:
    """``push → 2``, ``push 2``, ``push s3 → 2``, ``push blind → 2`` (R22)."""
    words = [t for t in rest if t not in ("→", "->", "to")]
    if not words or not words[-1].isdecimal():
        raise ValueError("a push names the seat it sends the pile to, like 'push → 2'")
    to, source = int(words[-1]), [t.lower() for t in words[:-1]]
    if source == ["blind"]:
        return Move(PUSH, to=to)
    if not source:
        return Move(PUSH, n=1, to=to)
    return Move(PUSH, stacks=_stack_refs(source), to=to)


def _take(rest: list[str]) -> Move:
    """``take``: the pile, or a take that shows a card from the hand or the stacks named (R11)."""
    if not rest:
        return Move(TAKE)
    return Move(TAKE, parse_card(rest[0]), 0 if rest[1:] else 1, _stack_refs(rest[1:]))


def _add(rest: list[str]) -> Move:
    """``add 0`` or the cards added to a landed blind card (R13), Clear 4's JOKERs among them (R22)."""
    if rest == ["0"]:
        return Move(ADD)
    if "+" in rest[0]:
        return _with_jokers(ADD, rest[0], rest[1:])
    count, rank = _count_rank(rest[0])
    stacks = _stack_refs(rest[1:])
    return Move(ADD, rank, _hand_part(count, stacks), stacks)


def _clear(rest: list[str]) -> Move:
    """A clear play: one clear rank and Jokers from the hand, and the stacks named (R9)."""
    hand = [t for t in rest if not t.lower().startswith("s")]
    stacks = _stack_refs([t for t in rest if t.lower().startswith("s")])
    n = jokers = 0
    rank = 0
    for part in "+".join(hand).split("+") if hand else []:
        count, card = _count_rank(part)
        if card == JOKER:
            jokers += count
        elif rank in (0, card):
            rank, n = card, n + count
        else:
            raise ValueError("a clear play holds one clear rank and Jokers")
    if not (n or jokers or stacks):
        raise ValueError("a clear play needs at least one card")
    return Move(CLEAR, rank, n, stacks, jokers)


#: The moves whose first word names them, each with the function that reads the words after it.
_HEADS: dict[str, Callable[[list[str]], Move]] = {PUSH: _push, "take": _take, "add": _add, "clear": _clear}


def _parse(text: str) -> Move:
    tokens = text.replace("—", " ").replace("→", " → ").replace("->", " → ").split()
    if not tokens:
        raise ValueError("empty text")
    if tokens[-1].lower() == "clear" and len(tokens) > 1:  # a label's "— clear" suffix is description only
        tokens = tokens[:-1]
    head, rest = tokens[0].lower(), tokens[1:]
    if head in _HEADS:
        return _HEADS[head](rest)
    if "+" in head and head[0].isdecimal():
        return _with_jokers(PLAY, head, rest)
    if head == "done" and not rest:
        return Move(DONE)
    if head in (FLIP, GAMBLE) and len(rest) == 1:
        return Move(head, stacks=_stack_number(rest[0]))
    if head == "turn" and len(rest) == 2 and rest[0].lower() == "up":
        return Move(TURNUP, stacks=_stack_number(rest[1]))
    count, rank = _count_rank(tokens[0])
    stacks = _stack_refs(rest)
    return Move(PLAY, rank, _hand_part(count, stacks), stacks)


def _hand_part(count: int, stacks: tuple[int, ...]) -> int:
    if count < len(stacks):
        raise ValueError("the count is smaller than the stacks named")
    return count - len(stacks)
