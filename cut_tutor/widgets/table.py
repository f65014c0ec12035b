"""The card table as an anywidget: it draws one seat's view and sends back intents, never holding game logic.

The only game data synced to the browser is :func:`table_data`, built from a seat's view and nothing else
(the functions here take a view, never a state), so a hidden card can never reach the page (C2). Every
message from the page is checked here and by the handler the app installs; a bad one sets
:attr:`TableWidget.error` and changes nothing.

>>> from cut_tutor.engine import Rules, State, view
>>> state = State.deal(Rules(players=3), seed=4, dealer=2)
>>> data = table_data(view(state, 0), names=["You", "Daryl", "Marty"], colours=["#1f6fd1", "#d9480f", "#2b8a3e"])
>>> data["actions"][0]["label"].startswith("Play")
True
"""

from __future__ import annotations

import json
import logging
import pathlib
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import anywidget
import traitlets

from cut_tutor.coach import Knowledge
from cut_tutor.coach.knowledge import completes_clear, move_words
from cut_tutor.engine import Move, card_name
from cut_tutor.engine.cards import PUSH as PUSH_CARD
from cut_tutor.engine.cards import WILD
from cut_tutor.engine.moves import ADD, CLEAR, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP
from cut_tutor.engine.words import combo_label
from cut_tutor.page import page_module
from cut_tutor.widgets.jobs import answering
from cut_tutor.widgets.words import adding_list, table_words

_STATIC = pathlib.Path(__file__).parent / "static"

#: The table's page code, one file per area, in the order it is joined: the types first, ``render`` (the module's
#: export) last.
TABLE_PARTS = tuple(
    _STATIC / "table" / name
    for name in (
        "types.js",
        "identity.js",
        "settings.js",
        "page_watch.js",
        "cards.js",
        "focus.js",
        "title.js",
        "opponents.js",
        "pile.js",
        "handover.js",
        "you.js",
        "moves.js",
        "legend.js",
        "keys.js",
        "render.js",
    )
)

#: The seat colours offered in setup: name -> CSS colour. Each seat takes a different one.
COLOURS: dict[str, str] = {
    "Blue": "#1f6fd1",
    "Orange": "#d9480f",
    "Green": "#2b8a3e",
    "Purple": "#7048e8",
    "Red": "#c92a2a",
    "Teal": "#0c8599",
    "Gold": "#e67700",
    "Pink": "#c2255c",
}

#: Intent types the page may send; anything else is refused.
INTENTS = (
    "move", "select", "combo", "coach_play", "undo", "next", "automate", "new_game", "theme", "layout", "ready", "key",
    "board",
)  # fmt: skip
#: How opponents are drawn: Auto picks the arc when it fits the width, else the stacked list.
LAYOUTS = ("auto", "table", "stacked")

#: The longest text an intent may carry; a longer one is refused before it is parsed.
_MAX_TEXT = 64


class IntentError(ValueError):
    """A message from the page that is malformed or asks for something not allowed now."""


LOG = logging.getLogger("cut_tutor")


def unexpected(exc: Exception) -> str:
    """What a learner is told when the tutor itself fails: plain words and a reference; the trace goes to the log."""
    reference = uuid.uuid4().hex[:8]
    LOG.error("unexpected error, reference %s", reference, exc_info=exc)
    return f"Something went wrong in the tutor ({type(exc).__name__}). Reference {reference}: please report it."


def move_label(move: Move, seen: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """A move's button text for the seat whose view ``seen`` is: :func:`~cut_tutor.engine.words.move_labels` over
    that seat's legal moves. A legal move reads as its button does, kept apart from the others; any other move
    reads on its own.

    >>> from cut_tutor.engine import Rules, State, view
    >>> move_label(Move.parse("take"), view(State(Rules()), 1))
    'Take the pile'
    >>> seen = view(State(Rules.from_preset("Clear 4")), 1)
    >>> [move_label(Move.parse(t), seen, ["You", "Daryl"]) for t in ("take", "2×A+J*", "push s3 → 1", "clear CL")]
    ['Pass', 'Play 2× 1 + 1× JOKER', 'Push to Daryl (pile 3)', 'Play CLEAR']
    """
    know = Knowledge.from_view(seen)
    return move_words(know, know.legal if move in know.legal else [move], names)[move]


def move_cards(move: Move, clear4: bool = False) -> list[str]:
    """The cards a move uses, as the page names them: ``h:9`` a hand 9, ``s:2`` stack 2's face-up top,
    ``d:2`` stack 2's face-down top. The page matches a selection of cards against these.

    A hand Joker is ``h:JK`` in CUT and ``h:J*`` in Clear 4 (``clear4``); a PUSH from the hand is ``h:P`` and
    the seat it names does not change its cards, so a pushed card matches one move per seat.
    """
    kind = move.kind
    if kind in (FLIP, GAMBLE, TURNUP):
        return [f"d:{move.stacks[0]}"]
    if kind == TAKE:
        if not move.rank:
            return []
        return [f"s:{move.stacks[0]}"] if move.stacks else [f"h:{card_name(move.rank)}"]
    if kind == PUSH:
        return [f"s:{move.stacks[0]}"] if move.stacks else [f"h:{card_name(PUSH_CARD)}"] * move.n
    joker = card_name(WILD) if clear4 and kind != CLEAR else "JK"
    cards = [f"h:{card_name(move.rank)}"] * move.n + [f"h:{joker}"] * move.jokers
    return sorted(cards + [f"s:{k}" for k in move.stacks])


def table_data(
    seen: Mapping[str, Any] | None,
    *,
    names: Sequence[str],
    colours: Sequence[str],
    automated: Sequence[bool] = (),
    highlight: Move | None = None,
    selected: Move | None = None,
    can_undo: bool = False,
    pile_counts: bool = True,
    status: str = "",
    last: str = "",
    mode: str = "play",
    step: str = "",
    dim: bool = False,
    legend: dict[str, str] | None = None,
    pause: Mapping[str, Any] | None = None,
    hand_over: Mapping[str, Any] | None = None,
    history: Sequence[str] = (),
    links: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The JSON the page draws: one seat's view plus names, colours, labelled legal moves and marks.

    It is built from the view alone, so nothing here can read a card the seat cannot see (C2). The caller adds
    only public cards: a Step ``pause`` names the cards a clear swept or a bust took (R9–R11), and ``hand_over``
    (the round-over panel) turns the Risk cards up once the hand is over.
    """
    if seen is None:
        return {"mode": "idle", "status": status, "last": last, "links": dict(links or {})}
    know = Knowledge.from_view(seen)
    clear4 = know.rules.clear4
    labels: dict[Move, str] = {}
    if know.legal and mode in ("play", "study"):  # study: a past position's moves, to choose one (nothing else)
        labels = move_words(know, know.legal, names)
    actions = [action for move, label in labels.items() for action in _actions(know, move, label, mode)]
    return {
        "mode": mode,
        "seat": know.seat,
        "view": dict(seen),
        "names": list(names),
        "colours": list(colours),
        "automated": [bool(a) for a in automated] or [False] * seen["players"],
        "actions": actions,
        "highlight": _highlight(highlight, know, seen, labels, names),
        # a play chosen from the analysis table: the page picks its cards, as if you had pressed them
        "selected": {"move": str(selected), "cards": move_cards(selected, clear4)} if selected in labels else None,
        # Dim non-playable Cards: a card only a take would show is not playable, so it is dimmed too
        "playable": sorted({card for a in actions if not a["move"].startswith("take") for card in a["cards"]}),
        "undo": bool(can_undo),
        "pile_counts": bool(pile_counts),
        "status": status,
        "last": last,
        "step": step,
        "dim": bool(dim),
        "legend": dict(legend or {}),
        "adding": _adding(know) if mode in ("play", "study") else None,
        "words": table_words(seen, pile_counts=pile_counts),
        "pause": dict(pause) if pause else None,
        "hand_over": dict(hand_over) if hand_over else None,
        "history": list(history),
        "links": dict(links or {}),
    }


def _actions(know: Knowledge, move: Move, label: str, mode: str) -> list[dict[str, Any]]:
    """The buttons for one legal move: the move itself and, in play, the gambles that may follow it (R17)."""
    used = move_cards(move, know.rules.clear4)
    action: dict[str, Any] = {"move": str(move), "label": label, "cards": used}
    if move.kind == PUSH:
        action["to"] = move.to  # the page offers these as a seat picker
    if move.stacks:  # the stack whose numbered badge the button matches (R13, R17)
        action["stack"] = move.stacks[-1]
    if mode == "play":  # a study asks for one decision: the gamble after it is another
        return [action, *_risk_combos(know, move, label, used)]
    return [action]


def _highlight(
    highlight: Move | None, know: Knowledge, seen: Mapping[str, Any], labels: Mapping[Move, str], names: Sequence[str]
) -> dict[str, Any] | None:
    """The move the coach points at, with its label and the cards it spends; none when the seat has no move."""
    if highlight is None or not know.legal:
        return None
    label = labels[highlight] if highlight in labels else move_label(highlight, seen, names)
    return {"move": str(highlight), "label": label, "cards": move_cards(highlight, know.rules.clear4)}


def _adding(know: Knowledge) -> dict[str, Any] | None:
    """In CUT, after a blind card lands: it as card 1 and the numbered cards its choices could send (R13)."""
    adds = [move for move in know.legal if move.kind == ADD]
    if know.rules.clear4 or not adds:
        return None
    piles = sorted({k for move in adds for k in move.stacks})
    return adding_list(know.top, max(move.n for move in adds), piles)


def _risk_combos(know: Knowledge, move: Move, label: str, used: list[str]) -> list[dict[str, Any]]:
    """``Play 2× 9 + Risk pile 1``: a play that spends Board cards, then the gamble on each Risk card
    it uncovers, as one button (R17). Offered only when the play cannot clear, so the gamble always follows."""
    if not know.rules.risk_play or know.rules.clear4 or move.kind != PLAY or completes_clear(move, know):
        return []
    stacks = know.stacks  # face-down cards are None
    return [
        {"move": str(move), "then": f"gamble {k + 1}", "label": combo_label(move, k, label), "cards": used, "stack": k}
        for k in move.stacks
        if len(stacks[k]) >= 2 and stacks[k][-1] is not None and stacks[k][-2] is None
    ]


class TableWidget(anywidget.AnyWidget):
    """The table: opponents, pile, your Board and hand, action buttons and a legend."""

    _esm = page_module(*TABLE_PARTS)
    _css = _STATIC / "table.css"

    table = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    theme = traitlets.Unicode("light").tag(sync=True)
    #: Auto, Table or Stacked. Not ``layout``: every widget's ``layout`` is its CSS Layout widget, which the page's
    #: widget manager draws as a view of its own (a string there is an error in the browser's console).
    table_layout = traitlets.Enum(LAYOUTS, "auto").tag(sync=True)
    #: The learner the server names (the hub user, or who signed in to a class): the page then names no other.
    learner = traitlets.Unicode("").tag(sync=True)

    def __init__(self, on_intent: Callable[[str, Any], None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._on_intent = on_intent
        self.on_msg(self._on_custom_msg)

    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        with answering():  # the background jobs wait at their next round
            self.receive(content)

    def receive(self, content: Any) -> bool:
        """Check and carry out one message from the page; ``False`` (and :attr:`error` set) if refused."""
        try:
            kind, value = parse_intent(content)
            if kind == "layout":  # how the table is drawn changes nothing in the game
                self.table_layout = value
                return True
            if self._on_intent is None:
                raise IntentError("the table is not connected to a game")
            self._on_intent(kind, value)
        except ValueError as exc:  # IntentError, IllegalMoveError, MoveSyntaxError: all leave the game as it was
            self.error = str(exc)
            return False
        except Exception as exc:  # a fault of the tutor itself: said plainly, the trace kept in the server log
            self.error = unexpected(exc)
            return False
        if kind not in ("ready", "key", "theme", "board"):
            self.error = ""
        return True

    def synced_json(self) -> str:
        """Every synced game trait as the page receives it (tests check it holds no hidden card)."""
        return json.dumps(
            {"table": self.table, "error": self.error, "theme": self.theme, "table_layout": self.table_layout},
            ensure_ascii=False,
        )


def _text(kind: str, content: dict[str, Any]) -> str:
    """The short text a ``move``, ``select``, ``key``, ``theme``, ``layout`` or ``board`` message carries."""
    field = {"select": "move", "board": "code"}.get(kind, kind)
    value = content.get(field)
    if kind == "board" and isinstance(value, str) and len(value) > _MAX_TEXT:
        # A link's code too long to name any deal: Card Clear's board says what is wrong with it, shortened.
        return value[:_MAX_TEXT] + "…"
    if not isinstance(value, str) or not value or len(value) > _MAX_TEXT:
        raise IntentError(f"'{kind}' needs a short text field '{field}'")
    if kind == "theme" and value not in ("light", "dark"):
        raise IntentError("the theme is 'light' or 'dark'")
    if kind == "layout" and value not in LAYOUTS:
        raise IntentError("the layout is 'auto', 'table' or 'stacked'")
    return value


def _combo(kind: str, content: dict[str, Any]) -> tuple[Any, Any]:
    """A play and the gamble that follows it, as one button (R17)."""
    pair = content.get("move"), content.get("then")
    if not all(isinstance(v, str) and v and len(v) <= _MAX_TEXT for v in pair):
        raise IntentError("'combo' needs short text fields 'move' and 'then'")
    return pair


def _automate(kind: str, content: dict[str, Any]) -> bool:
    """Whether the seat's turns are played for it."""
    value = content.get("on")
    if not isinstance(value, bool):
        raise IntentError("'automate' needs a true/false field 'on'")
    return value


def _ready(kind: str, content: dict[str, Any]) -> tuple[Any, Any]:
    """The page is drawn; it names the learner whose browser it is and its tab, when it knows them."""
    names = content.get("learner"), content.get("tab")
    if any(name is not None and (not isinstance(name, str) or not name or len(name) > _MAX_TEXT) for name in names):
        raise IntentError("'ready' takes short text fields 'learner' and 'tab'")
    return names


#: The intents that carry a value, each with the function that checks and reads it; the others carry none.
_READERS: dict[str, Callable[[str, dict[str, Any]], Any]] = {
    **dict.fromkeys(("move", "select", "key", "theme", "layout", "board"), _text),
    "combo": _combo,
    "automate": _automate,
    "ready": _ready,
}


def parse_intent(content: Any) -> tuple[str, Any]:
    """Check a page message's shape: ``{"type": ..., ...}`` with the field its type needs."""
    if not isinstance(content, dict):
        raise IntentError("a message must be an object with a 'type'")
    kind = content.get("type")
    if not isinstance(kind, str) or kind not in INTENTS:
        raise IntentError(f"unknown request type {str(kind)[:_MAX_TEXT]!r}")
    reader = _READERS.get(kind)
    return kind, None if reader is None else reader(kind, content)
