"""Deals consistent with one seat's view (C2): the hidden cards re-dealt from what the view holds, nothing else.

A view hides three kinds of card: the other seats' hand cards that nobody saw them pick up, every face-down stack
card (the seat's own included), and the undealt cards. All of them come from one pool, the cards the seat cannot
account for (:attr:`~cut_tutor.coach.Knowledge.counted`: the decks minus its hand, the pile, every face-up card,
the cleared cards and the cards others were seen to pick up). A :class:`Deals` shuffles that pool into those
places, so a sampled state (a *determinization*) agrees with the view in every card the seat can see, every count
and every stack layout. A seat that took the pile bare with cards in hand had no legal play (R11): its hidden hand
cards are dealt only from the ordinary ranks above the top it took on (the view's ``above``). The real hidden cards
are never read: they are not in the view.

Given a ``reader``, an AI seat that plays without noise, a :class:`Deals` also reads the turns on the pile: those
laid since it was last emptied, each a seat's cards of one rank (the guide's *Reading the pile*). A hand with which
the reader, holding it plus the cards the seat's turns laid, would not have made those turns is unlikely if the
seats play like the reader, so that seat's hand is dealt again (up to :data:`TRIES` times; past that, the hand that
agrees with the most recent turns is kept). The hands read are dealt one seat at a time from the cards left, so
every deal that agrees is nearly equally likely. Only turns played from the hand are read, so taking the pile's
cards back rebuilds the hand that made them; the seat's own turns are taken back but not read. A seat that watched
the whole hand remembers more than the pile shows: a view with its ``memory`` (:mod:`.memory`) is read by the turns
remembered instead, back past the pile's last clear, each from a table dealt once from the view as it began.

>>> import random
>>> from cut_tutor.engine import Rules, State, view
>>> state = State.deal(Rules(), seed=3)
>>> deals = Deals(view(state, state.turn))
>>> sampled = deals.sample(random.Random(0))
>>> view(sampled, state.turn) == view(state, state.turn)
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..coach import AIPlayer, Knowledge
from ..coach.advice import LONG_HAND
from ..engine import Rules, State
from ..engine.cards import CODES, NCODES, card_name, cards_of, counts_of
from ..engine.moves import Move
from ..engine.packed import code_of, hand_at, pack, stack_at, undealt_at
from ..engine.rules import CUT
from ..engine.view import sight
from . import native

if TYPE_CHECKING:
    from .._native import _Deals

#: The most times one seat's hand is dealt while looking for one that agrees with its turns on the pile.
TRIES = 64
#: One turn read from the pile: the table before it, the cards the seat's turns laid down to it, and the move.
Read = tuple[State, list[int], Move]


class Deals:
    """Every full state the seat to move in ``view`` cannot tell apart from the real one, to sample uniformly."""

    def __init__(self, view: Mapping[str, Any], reader: AIPlayer | None = None, *, to_move: bool = True) -> None:
        if to_move:  # else a view from before another seat's turn, to deal its table once (:func:`_table`)
            _check_to_move(view)
        self.view = view
        self.seat: int = view["seat"]
        knowledge = Knowledge.from_view(view)
        #: The pool in a fixed order (by code), so one seed gives one deal wherever it runs.
        self.pool = [card_name(c) for c in cards_of(knowledge.counted, high_first=False)]
        self.hidden_hands = hidden_hands = _hidden_hands(view, len(self.pool))
        rules = knowledge.rules
        #: (seat, top, hidden cards) of the seats that took bare, the highest top first: each one's cards can fit
        #: every seat after it, so dealing them in this order keeps every consistent deal equally likely.
        self.bare = _bare(view, rules, hidden_hands)
        self.fits = {top: [rules.above_bare(CODES[name], top) for name in self.pool] for _, top, _ in self.bare}
        self.known = [[CODES[name] for name in info["known"]] for info in view["seats"]]
        self.reader = reader
        self.rules = rules
        #: Per seat, where a packed sample holds its face-down stack cards, in the order they are dealt.
        self._down = _face_down(view)
        self._template: list[int] | None = None
        #: The seats whose turns on the pile are read, each with (the table before that turn, the cards its turns
        #: laid down to that one, the move), latest first; none without a reader that plays without noise.
        self.reads: dict[int, list[Read]] = {}
        #: The hands dealt before the rest, in this order, each with the pool cards it may hold (None: any).
        self.first: list[tuple[int, list[bool] | None]] = [(k, self.fits[top]) for k, top, _ in self.bare]
        if reader is not None and not reader.level.noise and rules.game == CUT and view["turns"] <= LONG_HAND:
            self.reads = self._remembered(view["memory"]) if "memory" in view else self._reads(_turns(view))
            bare = {k for k, _, _ in self.bare}
            self.first += [(k, None) for k in self.reads if k not in bare]
        #: Where the rest of a draw goes, card by card after the shuffle, as :meth:`_compose` deals it: each seat's
        #: hidden hand cards (unless dealt first), then its face-down stack cards, then the undealt cards; a place
        #: either counts a card (``(where code 0 is counted, True)``) or holds it (``(where, False)``).
        self.slots = _slots(hidden_hands, {k for k, _ in self.first}, self._down, view["undealt_count"])
        self._plan: _Deals | None = None
        _check_bare_fits(self.seat, self.bare, self.fits)

    def sample(self, rng: random.Random) -> State:
        """One state consistent with the view, every consistent deal equally likely; with a reader, every one that
        agrees with the turns read nearly so."""
        return State.from_position(self._position(rng))

    def agrees(self, state: State) -> bool:
        """Would the reader have made every turn read from the pile, holding ``state``'s hands? (Always, without
        a reader or turns to read.)"""
        return all(
            self._agreed(k, cards_of([n - known for n, known in zip(state.hands[k], state.known[k], strict=True)]))
            == len(turns)
            for k, turns in self.reads.items()
        )

    def _agreed(self, seat: int, hidden: Sequence[int]) -> int:
        """How many of ``seat``'s turns on the pile, latest first, the reader would have made with ``hidden`` as the
        hand cards it hides."""
        assert self.reader is not None
        held = [*self.known[seat], *hidden]
        for agreed, (before, back, move) in enumerate(self.reads[seat]):
            state = before.with_hand(seat, [*held, *back])
            if self.reader.choose(Knowledge.from_sight(sight(state, seat))) != move:
                return agreed
        return len(self.reads[seat])

    def _reads(self, turns: Sequence[tuple[int, str, int]]) -> dict[int, list[Read]]:
        """The table before each of ``turns`` (latest first), for the seats whose hidden hands they tell about. Any
        deal will do for it: what a seat plays depends on its own hand and the open cards alone."""
        state = State.from_position(self._position(random.Random(0)))
        reads: dict[int, list[Read]] = {}
        back: dict[int, list[int]] = {}
        for k, rank, n in turns:
            state = state.taken_back(k, CODES[rank], n)
            back.setdefault(k, []).extend([CODES[rank]] * n)
            if k != self.seat and self.hidden_hands[k]:
                reads.setdefault(k, []).append((state, list(back[k]), Move.parse(f"{n}×{rank}")))
        return reads

    def _remembered(self, entries: Sequence[Mapping[str, Any]]) -> dict[int, list[Read]]:
        """The turns the seat remembers (:mod:`.memory`), for the seats whose hidden hands they tell about, each with
        a table that its view as the turn began cannot tell from the real one."""
        reads: dict[int, list[Read]] = {}
        try:
            for entry in entries:
                k = entry["seat"]
                if k != self.seat and self.hidden_hands[k]:
                    laid = [CODES[name] for name in entry["laid"]]
                    reads.setdefault(k, []).append((_table(entry["view"]), laid, Move.parse(entry["move"])))
        except (KeyError, TypeError, IndexError, ValueError) as e:
            raise ValueError(f"view of seat {self.seat}: its memory of the turns it saw is malformed ({e!r})") from e
        return reads

    def packed(self, rng: random.Random) -> list[int]:
        """The state :meth:`sample` draws with the same ``rng``, packed (:mod:`~cut_tutor.engine.packed`) without
        building it: the first sample is built and packed, and later ones only place their hidden cards in its ints."""
        dealt, cards = self._draw(rng)
        if self._template is None:
            state = State.from_position(self._compose(dealt, cards))
            self._template = self._place(pack(state), dealt, cards, -1)
        return self._place(list(self._template), dealt, cards, 1)

    def plan(self) -> _Deals:
        """The compiled core's copy of how a draw is dealt (:mod:`.native`): the packed position without the hidden
        cards, the pool, the hands dealt first, :attr:`slots`, and the turns read with each table before them, so
        that the core deals each sample as :meth:`packed` does (the turns judged by the reader's compiled policy,
        which the core is handed with the plan)."""
        if native.NATIVE is None:
            raise ValueError("the compiled core is not built here")
        if self._plan is None:
            if self._template is None:
                self.packed(random.Random(0))
            assert self._template is not None
            first = [(hand_at(k, 0), self.hidden_hands[k], fits or [True] * len(self.pool)) for k, fits in self.first]
            codes = [CODES[name] for name in self.pool]
            reads = [(j, k, counts_of(self.known[k], NCODES), [(pack(before), counts_of(back, NCODES), code_of(move))
                                                      for before, back, move in self.reads[k]])
                     for j, (k, _) in enumerate(self.first) if k in self.reads]  # fmt: skip
            self._plan = native.NATIVE.Deals(self._template, codes, first, self.slots, reads, TRIES)
        return self._plan

    def _place(self, packed: list[int], dealt: dict[int, list[str]], cards: list[str], sign: int) -> list[int]:
        """Add (``sign`` 1) or take out (-1) the hidden cards of one draw in a packed position: the hands dealt
        first, then the rest into :attr:`slots`."""
        for k, names in dealt.items():
            for name in names:
                packed[hand_at(k, CODES[name])] += sign
        for (at, counted), name in zip(self.slots, cards, strict=True):
            if counted:
                packed[at + CODES[name]] += sign
            else:
                packed[at] = CODES[name] if sign > 0 else 0
        return packed

    def _position(self, rng: random.Random) -> dict[str, Any]:
        """A position consistent with the view, drawn as :meth:`sample` says."""
        return self._compose(*self._draw(rng))

    def _draw(self, rng: random.Random) -> tuple[dict[int, list[str]], list[str]]:
        """One draw of the hidden cards: the hands dealt first (by seat), and the rest of the pool in the order
        :meth:`_compose` places it."""
        cards = self.pool[:]
        dealt: dict[int, list[str]] = {}
        if self.first:  # these hands first, each a uniform choice of the cards that fit, agreeing with its turns
            free = list(range(len(cards)))
            for k, fits in self.first:
                among, tries = [i for i in free if fits is None or fits[i]], TRIES if k in self.reads else 1
                chosen, agreed = [], -1
                for _ in range(tries):
                    draw = rng.sample(among, self.hidden_hands[k])
                    more = self._agreed(k, [CODES[cards[i]] for i in draw]) if k in self.reads else 0
                    if more > agreed:
                        chosen, agreed = draw, more
                    if agreed == len(self.reads.get(k, ())):
                        break
                dealt[k] = [cards[i] for i in sorted(chosen)]
                taken = set(chosen)
                free = [i for i in free if i not in taken]
            cards = [cards[i] for i in free]
        rng.shuffle(cards)
        return dealt, cards

    def _compose(self, dealt: dict[int, list[str]], cards: list[str]) -> dict[str, Any]:
        """The position of one draw: each seat's hidden hand cards, then its face-down stack cards, then the
        undealt cards."""
        it = iter(cards)
        v = self.view
        seats = []
        for k, (info, hidden) in enumerate(zip(v["seats"], self.hidden_hands, strict=True)):
            drawn = dealt[k] if k in dealt else [next(it) for _ in range(hidden)]
            hand = v["hand"] if info["seat"] == self.seat else [*info["known"], *drawn]
            stacks = [" ".join(c if c is not None else f"[{next(it)}]" for c in stack) for stack in info["stacks"]]
            counts = {key: info[key] for key in ("busts", "clears", "blind_plays")}
            if info.get("above"):
                counts["above"] = info["above"]
            seats.append({"hand": " ".join(hand), "known": " ".join(info["known"]), "stacks": stacks, **counts})
        position = {
            "rules": v["rules"], "dealer": v["dealer"], "turn": v["turn"], "phase": v["phase"], "turns": v["turns"],
            "pile": " ".join(f"{entry['card']}@{entry['by']}" for entry in v["pile"]), "exposed": v["exposed"],
            "seats": seats, "cleared": " ".join(v["cleared"]), "undealt": " ".join(it),
        }  # fmt: skip
        return position


def _table(view: Mapping[str, Any]) -> State:
    """A full state the seat whose view this is cannot tell from the real one, its hidden cards dealt once as
    :class:`Deals` deals them: enough for a reader to ask what the seat to move would play, which depends on its own
    hand and the open cards alone."""
    return Deals(view, to_move=False).sample(random.Random(0))


def _check_to_move(view: Mapping[str, Any]) -> None:
    """Refuse a view whose seat has no move to analyse."""
    if view.get("winner") is not None or view.get("stalemate") or not view.get("legal"):
        raise ValueError(f"seat {view.get('seat')} has no move to analyse: the hand is over or it is not to move")
    if view["turn"] != view["seat"]:
        raise ValueError(f"seat {view['seat']} is not to move (seat {view['turn']} is)")


def _hidden_hands(view: Mapping[str, Any], pool: int) -> list[int]:
    """Per seat, its hand cards the seat to move cannot see (none of its own), checked against the ``pool`` cards
    unaccounted for: the hidden places and the pool must hold as many cards."""
    seat = view["seat"]
    hidden_hands = [0 if info["seat"] == seat else info["hand_count"] - len(info["known"])
                    for info in view["seats"]]  # fmt: skip
    face_down = sum(card is None for info in view["seats"] for stack in info["stacks"] for card in stack)
    places = sum(hidden_hands) + face_down + view["undealt_count"]
    if places != pool:
        raise ValueError(f"view of seat {seat}: {places} hidden places but {pool} cards unaccounted for")
    return hidden_hands


def _bare(view: Mapping[str, Any], rules: Rules, hidden_hands: list[int]) -> list[tuple[int, int, int]]:
    """(seat, top, hidden cards) of the seats that took the pile bare with hidden cards, the highest top first."""
    marks = {k: info["above"] for k, info in enumerate(view["seats"]) if info.get("above")}
    for k, mark in marks.items():
        if rules.game != CUT or CODES.get(mark, 0) not in rules.number_ranks:
            raise ValueError(f"view of seat {view['seat']}: seat {k} took the pile bare on {mark!r}, not a CUT rank")
    return sorted([(k, CODES[mark], hidden_hands[k]) for k, mark in marks.items() if hidden_hands[k]],
                  key=lambda entry: -entry[1])  # fmt: skip


def _face_down(view: Mapping[str, Any]) -> list[list[int]]:
    """Per seat, where a packed sample holds its face-down stack cards, in the order they are dealt."""
    return [[stack_at(k, s, i) for s, stack in enumerate(info["stacks"]) for i, card in enumerate(stack)
             if card is None] for k, info in enumerate(view["seats"])]  # fmt: skip


def _slots(
    hidden_hands: list[int], dealt_first: set[int], down: list[list[int]], undealt: int
) -> list[tuple[int, bool]]:
    """Where the rest of a draw goes (:attr:`Deals.slots`)."""
    slots: list[tuple[int, bool]] = []
    for k, hidden in enumerate(hidden_hands):
        slots += [(hand_at(k, 0), True)] * (0 if k in dealt_first else hidden)
        slots += [(at, False) for at in down[k]]
    slots += [(undealt_at(len(hidden_hands), 0), True)] * undealt
    return slots


def _check_bare_fits(seat: int, bare: list[tuple[int, int, int]], fits: dict[int, list[bool]]) -> None:
    """Refuse a view in which the seats that took bare hide more hand cards than the pool's cards above their tops."""
    for j, (_, top, _) in enumerate(bare):  # the seats dealt by then need cards above this top, and no more
        needed, seats = sum(h for _, _, h in bare[: j + 1]), [str(k) for k, _, _ in bare[: j + 1]]
        if sum(fits[top]) < needed:
            raise ValueError(
                f"view of seat {seat}: seat {' and '.join(seats)} took the pile bare on {card_name(top)} or"
                f" higher, so {needed} hidden hand cards must be ordinary ranks above {card_name(top)}, but only"
                f" {sum(fits[top])} unaccounted cards are"
            )


def canonical(view: Mapping[str, Any]) -> str:
    """The view as one JSON text, keys sorted and no spaces: equal views, equal texts, on any machine."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _turns(view: Mapping[str, Any]) -> list[tuple[int, str, int]]:
    """The turns on the view's pile, latest first, as (seat, rank, cards), down to the first that may not have been
    played from the hand alone: a seat whose hand is empty now may have played face-up or blind cards, and nothing
    below that turn can be taken back with certainty."""
    pile, hand_count = view["pile"], {info["seat"]: info["hand_count"] for info in view["seats"]}
    turns, end = [], len(pile)
    while end:
        seat, start = pile[end - 1]["by"], end
        while start and pile[start - 1]["by"] == seat:
            start -= 1
        ranks = {entry["card"] for entry in pile[start:end]}
        if len(ranks) > 1 or not hand_count[seat]:
            break
        turns.append((seat, ranks.pop(), end - start))
        end = start
    return turns
