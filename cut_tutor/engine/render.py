"""HTML drawings of a state or a view, so a position shows itself in a notebook without any widget, in the table's
words: the seats by the names a new setup gives them, the turn as the rules count it, the moves as the buttons
read."""

from __future__ import annotations

from html import escape
from typing import Any

from .cards import CODES, RANK_MASK, UP, card_name, cards_of, parse_card
from .core import Core
from .moves import Move
from .rules import Rules
from .words import SEAT_NAMES, busts_mark, count, drawn_status, game_of, move_labels, seat_name

_STYLE = (
    "<style>.cut-pos{font-family:system-ui,sans-serif;font-size:13px}"
    ".cut-pos .card{display:inline-block;min-width:1.9em;padding:.2em .25em;margin:1px;border:1px solid #555;"
    "border-radius:4px;background:#fff;color:#111;text-align:center;font-weight:600}"
    ".cut-pos .card.red{color:#b00}.cut-pos .card.down{background:repeating-linear-gradient(45deg,#346,#346 3px,"
    "#457 3px,#457 6px);color:#cde}.cut-pos .card.clear{background:#ffe9a8}"
    ".cut-pos .stack{display:inline-flex;flex-direction:column;margin-right:6px;vertical-align:top}"
    ".cut-pos td{padding:2px 6px;vertical-align:top}</style>"
)


def _card(text: str | None, *, clear: bool = False) -> str:
    if text is None:
        return '<span class="card down" title="face-down">?</span>'
    cls = "card clear" if clear else "card"
    return f'<span class="{cls}">{escape(text)}</span>'


def _stacks(stacks: list[list[str | None]], is_clear: Any) -> str:
    out = []
    for stack in stacks:
        cards = "".join(_card(c, clear=c is not None and is_clear(c)) for c in reversed(stack)) or "&nbsp;"
        out.append(f'<span class="stack">{cards}</span>')
    return "".join(out)


def _table(rows: list[tuple[str, str, str, str]], pile: str, footer: str) -> str:
    body = "".join(
        f"<tr><td><b>{escape(name)}</b></td><td>{hand}</td><td>{stacks}</td><td>{extra}</td></tr>"
        for name, hand, stacks, extra in rows
    )
    return (
        f'{_STYLE}<div class="cut-pos"><table><tr><th>seat</th><th>hand</th><th>Board / Risk</th><th></th></tr>'
        f"{body}</table><div>Pile: {pile or '<i>empty</i>'}</div><div>{footer}</div></div>"
    )


def state_html(state: Core) -> str:
    """Every card of a state, face-down ones shown by rank in brackets (a referee's view)."""
    is_clear = state.rules.is_clear
    rows = []
    for seat in range(state.players):
        hand = "".join(_card(card_name(c), clear=is_clear[c]) for c in cards_of(state.hands[seat]))
        stacks = _stacks(
            [[card_name(c) if c & UP else f"[{card_name(c)}]" for c in stack] for stack in state.stacks[seat]],
            lambda text: not text.startswith("[") and is_clear[_rank(text)],
        )
        marks = ("▶ " if seat == state.turn and not state.over else "") + busts_mark(state.busts[seat])
        rows.append((seat_name(seat, SEAT_NAMES) + (" D" if seat == state.dealer else ""), hand, stacks, marks))
    pile = "".join(_card(card_name(c)) for c in state.pile)
    return _table(rows, pile, escape(drawn_status(state.turns, state.turn, SEAT_NAMES, state.winner, state.stalemate)))


def view_html(view: dict[str, Any]) -> str:
    """One seat's view: its own hand, everyone's face-up cards, counts for the rest."""
    numbers = Rules.from_dict(view["rules"]).number_ranks

    def is_clear(text: str) -> bool:  # every card that is not a number stands out: clear cards, Clear 4's specials
        return CODES[text] not in numbers

    rows = []
    for info in view["seats"]:
        seat = info["seat"]
        if seat == view["seat"]:
            hand = "".join(_card(c, clear=is_clear(c)) for c in view["hand"])
        else:
            known = "".join(_card(c, clear=is_clear(c)) for c in info["known"])
            hand = f"{count(info['hand_count'], 'card')} " + (f"(known: {known})" if known else "")
        stacks = _stacks(info["stacks"], is_clear)
        playing = view["winner"] is None and not view["stalemate"]
        marks = ("▶ " if seat == view["turn"] and playing else "") + busts_mark(info["busts"])
        rows.append((seat_name(seat, SEAT_NAMES) + (" D" if seat == view["dealer"] else ""), hand, stacks, marks))
    pile = "".join(_card(p["card"]) for p in view["pile"])
    footer = escape(drawn_status(view["turns"], view["turn"], SEAT_NAMES, view["winner"], view["stalemate"]))
    if view["legal"]:
        landed = CODES[view["pile"][-1]["card"]] if view["pile"] else 0  # R13: a blind card landed is card 1
        labels = move_labels(map(Move.parse, view["legal"]), game=game_of(view), names=SEAT_NAMES, landed=landed)
        footer += "<br>Legal: " + escape(", ".join(labels.values()))
    return _table(rows, pile, footer)


def _rank(text: str) -> int:
    return parse_card(text) & RANK_MASK
