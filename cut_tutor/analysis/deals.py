"""Deals consistent with one seat's view (C2): the hidden cards re-dealt from what the view holds, nothing else.

A view hides three kinds of card: the other seats' hand cards that nobody saw them pick up, every face-down stack
card (the seat's own included), and the undealt cards. All of them come from one pool, the cards the seat cannot
account for (:attr:`~cut_tutor.coach.Knowledge.counted`: the decks minus its hand, the pile, every face-up card,
the cleared cards and the cards others were seen to pick up). A :class:`Deals` shuffles that pool into those
places, so a sampled state (a *determinization*) agrees with the view in every card the seat can see, every count
and every stack layout. A seat that took the pile bare with cards in hand had no legal play (R11): its hidden hand
cards are dealt only from the ordinary ranks above the top it took on (the view's ``above``). The real hidden cards
are never read: they are not in the view.

>>> import random
>>> from cut_tutor.engine import Rules, State, view
>>> state = State.deal(Rules(), seed=3)
>>> deals = Deals(view(state, state.turn))
>>> sampled = deals.sample(random.Random(0))
>>> view(sampled, state.turn) == view(state, state.turn)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..coach import Knowledge
from ..engine import State
from ..engine.cards import CODES, card_name, cards_of


class Deals:
    """Every full state the seat to move in ``view`` cannot tell apart from the real one, to sample uniformly."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        if view.get("winner") is not None or view.get("stalemate") or not view.get("legal"):
            raise ValueError(f"seat {view.get('seat')} has no move to analyse: the hand is over or it is not to move")
        if view["turn"] != view["seat"]:
            raise ValueError(f"seat {view['seat']} is not to move (seat {view['turn']} is)")
        self.view = view
        self.seat: int = view["seat"]
        knowledge = Knowledge.from_view(view)
        #: The pool in a fixed order (by code), so one seed gives one deal wherever it runs.
        self.pool = [card_name(c) for c in cards_of(knowledge.counted, high_first=False)]
        hidden_hands = [0 if info["seat"] == self.seat else info["hand_count"] - len(info["known"])
                        for info in view["seats"]]  # fmt: skip
        face_down = sum(card is None for info in view["seats"] for stack in info["stacks"] for card in stack)
        places = sum(hidden_hands) + face_down + view["undealt_count"]
        if places != len(self.pool):
            raise ValueError(
                f"view of seat {self.seat}: {places} hidden places but {len(self.pool)} cards unaccounted for"
            )
        self.hidden_hands = hidden_hands
        marks = {k: info["above"] for k, info in enumerate(view["seats"]) if info.get("above")}
        rules = knowledge.rules
        for k, mark in marks.items():
            if rules.game != "CUT" or CODES.get(mark, 0) not in rules.number_ranks:
                raise ValueError(f"view of seat {self.seat}: seat {k} took the pile bare on {mark!r}, not a CUT rank")
        #: (seat, top, hidden cards) of the seats that took bare, the highest top first: each one's cards can fit
        #: every seat after it, so dealing them in this order keeps every consistent deal equally likely.
        self.bare = sorted([(k, CODES[mark], hidden_hands[k]) for k, mark in marks.items() if hidden_hands[k]],
                           key=lambda entry: -entry[1])  # fmt: skip
        self.fits = {top: [rules.above_bare(CODES[name], top) for name in self.pool] for _, top, _ in self.bare}
        for j, (_, top, _) in enumerate(self.bare):  # the seats dealt by then need cards above this top, and no more
            needed, seats = sum(h for _, _, h in self.bare[: j + 1]), [str(k) for k, _, _ in self.bare[: j + 1]]
            if sum(self.fits[top]) < needed:
                raise ValueError(
                    f"view of seat {self.seat}: seat {' and '.join(seats)} took the pile bare on {card_name(top)} or"
                    f" higher, so {needed} hidden hand cards must be ordinary ranks above {card_name(top)}, but only"
                    f" {sum(self.fits[top])} unaccounted cards are"
                )

    def sample(self, rng: random.Random) -> State:
        """One state consistent with the view, every consistent deal equally likely."""
        cards = self.pool[:]
        dealt: dict[int, list[str]] = {}
        if self.bare:  # each bare taker's hand first, from the cards above its top: a uniform choice of them
            free = list(range(len(cards)))
            for k, top, hidden in self.bare:
                fits = self.fits[top]
                chosen = set(rng.sample([i for i in free if fits[i]], hidden))
                dealt[k] = [cards[i] for i in sorted(chosen)]
                free = [i for i in free if i not in chosen]
            cards = [cards[i] for i in free]
        rng.shuffle(cards)
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
        return State.from_position(position)
