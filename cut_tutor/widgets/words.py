"""The table's and the Play Bar's words: what the page shows around the cards, the buttons that move play on, and
each game's legend.

Built from the shared words of :mod:`cut_tutor.engine.words`, so a card or a move reads as everywhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cut_tutor.engine.cards import card_name
from cut_tutor.engine.rules import CUT
from cut_tutor.engine.words import (
    acts,
    busts_mark,
    cards_text,
    count,
    face,
    game_of,
    pile_number,
    pts,
    seat_name,
    words_of,
)

#: The table's legend after its first entry, the 💥 of a seat that took the pile (named in the game's own words):
#: icon and what it means.
LEGEND = (
    ("🃏", "Known card: came from the pile"),
    ("🤖", "Automated: the coach plays this seat"),
    ("D", "Dealer"),
    ("S", "Clear: the pile was swept away"),
)
#: The buttons that move play on: before an AI seat's move (Step pacing), after a pause, after a hand.
NEXT, CONTINUE, NEXT_HAND = "Next", "Continue", "Next hand"


def play_bar(
    name: str,
    label: str,
    *,
    game: str = CUT,
    turned: str = "",
    took: Iterable[int] | None = None,
    swept: Iterable[int] | None = None,
    went_out: bool = False,
) -> str:
    """One line of the Play Bar: who played what, the card a blind play turned, the cards taken or swept away
    (they are public, R9–R11) and going out.

    >>> play_bar("You", "Pass", game="Clear 4", took=[1, 4])
    'You: Pass — 💥 took the pile: 1 4'
    """
    text = f"{name}: {label}"
    if turned:
        text += f" (turned {turned})"
    if took is not None:
        text += f" — 💥 took the pile: {cards_text(took, game)}"
    elif swept is not None:
        text += f" — cleared {cards_text(swept, game)}, plays again"
    if went_out:
        text += " — and went out!"
    return text


def cut_line(cuts: Iterable[tuple[int, int]], names: Sequence[str], dealer: int, game: str = CUT) -> str:
    """The first hand's cut for dealer (R4) in the Play Bar: every card cut, in order, and who deals.

    >>> cut_line([(0, 7), (1, 13)], ["You", "Ann"], 1)
    'Cut for dealer: You 7, Ann K — Ann deals'
    """
    cut = ", ".join(f"{seat_name(seat, names)} {face(card, game)}" for seat, card in cuts)
    return f"Cut for dealer: {cut} — {acts(seat_name(dealer, names), 'deal')}"


def code_note(code: str) -> str:
    """The Play Bar's word on a game dealt from a deal code: its first hand is the code's."""
    return f"Dealt from code {code}: the first hand is the code's deal"


def pause_line(kind: str, name: str, cards: Iterable[int], game: str = CUT) -> str:
    """What a Step pause shows (``kind`` ``clear`` or ``bust``): the swept cards before the pile clears, or the
    pile a seat took; both are public (R9–R11).

    >>> pause_line("clear", "Ann", [9, 9, 9, 9]), pause_line("bust", "Ben", [12, 4])
    ('Ann cleared the pile: 9 9 9 9', '💥 Ben took the pile: Q 4')
    """
    if kind == "clear":  # the table marks it with the S badge
        return f"{name} cleared the pile: {cards_text(cards, game)}"
    return f"💥 {name} took the pile: {cards_text(cards, game)}"


def bust_addon(busts: int, penalty: int) -> str:
    """The bust add-on on a hand's score, on its own line (R19): ``💥×2 +50``; empty without busts or a penalty."""
    return f"{busts_mark(busts)} +{busts * penalty}" if busts and penalty else ""


def turn_status(
    seen: Mapping[str, Any],
    names: Sequence[str],
    hand_number: int,
    winners: Sequence[str] | None = None,
    automated: bool = False,
) -> str:
    """The Turn Status for the seat whose view ``seen`` is: whose turn, what your turn asks, or how the hand ended
    (``winners``: the game is over and they won it)."""
    game = game_of(seen)
    if seen["winner"] is not None or seen["stalemate"]:
        status = (
            f"{names[seen['winner']]} went out — hand {hand_number} over"
            if seen["winner"] is not None
            else "Stalemate — hand over"
        )
        return status + (" · Game over: " + acts(list(winners), "win") if winners else "")
    if seen["turn"] != seen["seat"]:
        return f"{names[seen['turn']]} to play"
    status = "Your turn" + (" (automated)" if automated else "")
    asks = words_of(game).phases.get(seen["phase"])  # what a step of the game's turn asks (Clear 4, R22)
    return f"{status} — {asks}" if asks else status


def _stack_badges(stacks: Sequence[Sequence[Any]]) -> list[str]:
    """Each stack's badge, read out: ``pile 2, 2 cards``."""
    return [f"{pile_number(k)}, {count(len(stack), 'card')}" for k, stack in enumerate(stacks)]


def adding_list(card: int, hand: int, piles: Sequence[int]) -> dict[str, Any]:
    """R13's list after a blind ``card`` lands: it is card 1, and each card that could go with it has the next
    number, the hand's first (a hand card costs nothing but itself), then the piles' (each uncovers a Risk card).

    >>> [g["title"] for g in adding_list(5, 2, [1])["groups"]], adding_list(5, 2, [1])["groups"][1]["cards"]
    (['From your hand', 'From your piles'], [{'number': 4, 'card': '5', 'stack': 1, 'where': 'pile 2'}])
    """
    name = card_name(card)
    groups = [
        {"title": "From your hand", "note": "costs nothing but the card",
         "cards": [{"number": 2 + i, "card": name} for i in range(hand)]},
        {"title": "From your piles", "note": "each one played uncovers that pile's Risk card",
         "cards": [{"number": 2 + hand + j, "card": name, "stack": k, "where": pile_number(k)}
                   for j, k in enumerate(piles)]},
    ]  # fmt: skip
    return {
        "first": {"number": 1, "card": name, "note": "the card you turned over"},
        "groups": [group for group in groups if group["cards"]],
    }


def table_words(view: Mapping[str, Any], *, pile_counts: bool = True) -> dict[str, Any]:
    """The words the page prints for a view: the faces of the cards it shows, each seat's card count, bust mark and
    stack badges, the pile readout and the legend, so the page holds no second copy of them.
    """
    game = game_of(view)
    pile = view["pile"]
    readout = [count(len(pile), "card")] if pile_counts else []
    if "pile_value" in view:  # the value to play equal or lower to is a rule, not a counting aid: always shown (R22)
        readout.append("value " + (face(view["pile_value"], game) if view.get("pile_value") else "any"))
    elif pile_counts:
        readout.append(pts(view["pile_points"]))
    shown = {*view["hand"], *view["cleared"], view.get("pile_value")}
    shown |= {card for entry in view["pile"] for card in (entry["card"], entry.get("as"))}
    for seat in view["seats"]:
        shown |= {*seat["known"], *seat.get("hand", ()), *(c for stack in seat["stacks"] for c in stack)}
    words = words_of(game)
    return {
        "faces": {card: word for card, word in words.faces.items() if card in shown},  # only cards on view (C2)
        "left": [count(seat["cards_left"], "card") for seat in view["seats"]],
        "busts": [busts_mark(seat["busts"]) for seat in view["seats"]],
        "stacks": [_stack_badges(seat["stacks"]) for seat in view["seats"]],
        "pile": " · ".join(readout),
        "legend": [["💥", f"{words.took}: took the pile"], *(list(entry) for entry in LEGEND)],
    }
