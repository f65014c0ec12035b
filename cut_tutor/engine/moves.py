"""Moves as small hashable values with a text form that round-trips.

Stacks are numbered 1–4 in text, as on the table's pile badges, and 0–3 inside a :class:`Move`.

>>> str(Move.parse("2x9"))
'2×9'
>>> str(Move.parse("clear 10+2×JK s3"))
'clear 10+2×JK s3'
>>> [str(Move.parse(t)) for t in ("take", "take K s2", "flip 3", "gamble 2", "done", "turn up 4", "add 0")]
['take', 'take K s2', 'flip 3', 'gamble 2', 'done', 'turn up 4', 'add 0']
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .cards import JOKER, CardError, card_name, parse_card

PLAY, CLEAR, TAKE, FLIP, ADD, GAMBLE, DONE, TURNUP = "play", "clear", "take", "flip", "add", "gamble", "done", "turnup"


class MoveSyntaxError(ValueError):
    """Text that is not a move; the message shows the forms that are."""


class Move(NamedTuple):
    """One decision of the seat to move.

    ``kind``   play, clear, take, flip, add, gamble, done or turnup.
    ``rank``   the rank played, added or shown (for clear plays: the clear rank when ``n`` > 0).
    ``n``      cards of ``rank`` from the hand.
    ``stacks`` face-up stack tops joining the play (play, clear, add, take), or the stack acted on.
    ``jokers`` Jokers from the hand (clear plays only).
    """

    kind: str
    rank: int = 0
    n: int = 0
    stacks: tuple[int, ...] = ()
    jokers: int = 0

    @property
    def size(self) -> int:
        """Cards this move lays (hand and stack cards together)."""
        return self.n + self.jokers + len(self.stacks)

    def __str__(self) -> str:
        refs = "".join(f" s{i + 1}" for i in self.stacks)
        kind = self.kind
        if kind == PLAY:
            return f"{self.size}×{card_name(self.rank)}{refs}"
        if kind == ADD:
            return f"add {self.size}×{card_name(self.rank)}{refs}" if self.size else "add 0"
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

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move a text names (``x`` may stand for ``×``); raises :class:`MoveSyntaxError`."""
        try:
            return _parse(text)
        except (CardError, ValueError, IndexError) as exc:
            raise MoveSyntaxError(
                f"cannot read move {text!r} ({exc}); moves look like 2×9, 3×9 s1 s2, clear 10+JK, take K,"
                " take, flip 3, add 2×A, add 0, gamble 2, done, turn up 4"
            ) from None


def _times(n: int, rank: int) -> str:
    return "" if n == 0 else card_name(rank) if n == 1 else f"{n}×{card_name(rank)}"


_COUNT = re.compile(r"^(\d+)\s*[x×*]\s*(\w+)$", re.IGNORECASE)


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


def _parse(text: str) -> Move:
    tokens = text.replace("—", " ").split()
    if not tokens:
        raise ValueError("empty text")
    if tokens[-1].lower() == "clear" and len(tokens) > 1:  # a label's "— clear" suffix is description only
        tokens = tokens[:-1]
    head, rest = tokens[0].lower(), tokens[1:]
    if head == "done" and not rest:
        return Move(DONE)
    if head == "take":
        if not rest:
            return Move(TAKE)
        return Move(TAKE, parse_card(rest[0]), 0 if rest[1:] else 1, _stack_refs(rest[1:]))
    if head in (FLIP, GAMBLE) and len(rest) == 1:
        return Move(head, stacks=_stack_number(rest[0]))
    if head == "turn" and len(rest) == 2 and rest[0].lower() == "up":
        return Move(TURNUP, stacks=_stack_number(rest[1]))
    if head == "add":
        if rest == ["0"]:
            return Move(ADD)
        count, rank = _count_rank(rest[0])
        stacks = _stack_refs(rest[1:])
        return Move(ADD, rank, _hand_part(count, stacks), stacks)
    if head == "clear":
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
    count, rank = _count_rank(tokens[0])
    stacks = _stack_refs(rest)
    return Move(PLAY, rank, _hand_part(count, stacks), stacks)


def _hand_part(count: int, stacks: tuple[int, ...]) -> int:
    if count < len(stacks):
        raise ValueError("the count is smaller than the stacks named")
    return count - len(stacks)
