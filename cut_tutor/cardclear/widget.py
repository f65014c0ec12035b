"""The Card Clear board as an anywidget: it draws the game's view and sends back intents, never holding game logic.

The only game data synced to the browser is :func:`board_data`, built from :func:`~cut_tutor.cardclear.view.view`
and the Hint, which both see only the board and the three Next cards (H8): no card of the stock beyond them can
reach the page. :class:`BoardApp` keeps the game and has a Python twin for every control, so the whole board is
tested without a browser.

>>> app = BoardApp("4-2")
>>> app.pick("r1c1"); app.data["selected"]
'r1c1'
>>> app.show_hint(); app.data["hint"]["rows"][0]["best"]
True
"""

from __future__ import annotations

import json
import pathlib
import secrets
from collections.abc import Callable, Mapping
from typing import Any

import anywidget
import traitlets

from ..page import page_module
from .hint import Hint, hint
from .levels import LEVELS
from .progress import Progress
from .state import SIZE, Puzzle, Swap, Turn, cell_name
from .view import view

_STATIC = pathlib.Path(__file__).parent / "static"

#: Intent types the page may send; anything else is refused.
INTENTS = ("pick", "swap", "hint", "retry", "new", "level", "theme")
#: The longest text an intent may carry.
_MAX_TEXT = 32


class PuzzleIntentError(ValueError):
    """A message from the page that is malformed or asks for something not allowed now."""


def parse_intent(content: Any) -> tuple[str, Any]:
    """Check a page message's shape: ``{"type": ..., ...}`` with the field its type needs."""
    if not isinstance(content, dict) or content.get("type") not in INTENTS:
        raise PuzzleIntentError("a message must be an object whose 'type' is one of " + ", ".join(INTENTS))
    kind = content["type"]
    if kind in ("pick", "swap", "theme"):
        value = content.get({"pick": "cell"}.get(kind, kind))
        if not isinstance(value, str) or not value or len(value) > _MAX_TEXT:
            raise PuzzleIntentError(f"'{kind}' needs a short text field")
        return kind, value
    if kind == "hint":
        on = content.get("on")
        if not isinstance(on, bool):
            raise PuzzleIntentError("'hint' needs a true/false field 'on'")
        return kind, on
    if kind == "level":
        number = content.get("level")
        if not isinstance(number, int) or isinstance(number, bool):
            raise PuzzleIntentError("'level' needs a whole number field 'level'")
        return kind, number
    return kind, None


def parse_cell(text: str) -> int:
    """A cell from its name, ``r1c1`` (top left) to ``r6c6``."""
    word = text.strip().lower()
    if len(word) != 4 or word[0] != "r" or word[2] != "c" or not ("1" <= word[1] <= "6" and "1" <= word[3] <= "6"):
        raise PuzzleIntentError(f"bad cell {text!r}: write r1c1 to r6c6")
    return (int(word[1]) - 1) * SIZE + int(word[3]) - 1


def turn_words(turn: Turn) -> str:
    """What a swap did, in a line: its hands, points, combo and moves earned."""
    made = ", ".join(f"{hand.kind} {hand.points}" for hand in turn.hands)
    said = f"{turn.swap}: {made}: {turn.points} points"
    if len(turn.rounds) > 1:
        said += f", combo ×{turn.combo:g}"
    if turn.extra_moves:
        said += f", +{turn.extra_moves} move{'s' * (turn.extra_moves > 1)}"
    if turn.reshuffled:
        said += "; no swap was left, so the board was reshuffled (free)"
    return said + "."


def board_data(
    seen: Mapping[str, Any],
    *,
    selected: int | None = None,
    message: str = "",
    bounce: str = "",
    combo: float = 1.0,
    advice: Hint | None = None,
    levels: list[int] | None = None,
    stars: Mapping[int, int] | None = None,
    link: bool = False,
    deal: int = 0,
    pointer: Swap | None = None,
    board: str = "",
) -> dict[str, Any]:
    """The JSON the page draws: the view, the picked card and its neighbours' tags, the last message, the combo
    badge, (when open) the Hint table, the levels the picker offers (default: every one) with the stars won on
    each, whether the result card copies a board link (the dashboard opens one) or the bare code, the deal's
    number on ``board`` (the board's id: a new deal falls in under its banner, K18, once however often the board
    is drawn), the swap a first game points at, and how many star lines are lit: those the score has crossed, or
    once the level is over, the final score that earns the stars (K15). Built from the view and the Hint alone
    (H8)."""
    tags: dict[str, str] = {}
    if selected is not None:
        name = cell_name(selected)
        for option in seen["legal"]:
            a, b = option["swap"].split("-")
            if name in (a, b):
                tags[b if a == name else a] = option["tag"]
    return {
        "view": dict(seen),
        "selected": None if selected is None else cell_name(selected),
        "tags": tags,
        "message": message,
        "bounce": bounce,
        "combo": combo,
        "levels": sorted(LEVELS) if levels is None else levels,
        "stars": {str(level): count for level, count in (stars or {}).items()},
        "hint": None if advice is None else hint_data(advice),
        "link": link,
        "board": board,
        "deal": deal,
        "lit": sum(line <= (seen["result"]["final"] if seen["over"] else seen["score"]) for line in seen["star_lines"]),
        "pointer": None if pointer is None else {"swap": str(pointer), "text": pointer_words(pointer)},
    }


def hint_data(advice: Hint) -> dict[str, Any]:
    """The Hint as the page draws it: the table's rows, its sentence, and why it prefers its pick to the swap that
    scores most now (empty when its pick scores most)."""
    return {"rows": advice.rows(), "text": advice.text, "preference": advice.preference}


def pointer_words(swap: Swap) -> str:
    """What the first game's pointing finger asks (K18)."""
    a, b = str(swap).split("-")
    return f"Your first game: the finger marks a swap you can make. Tap {a}, then {b}."


class BoardWidget(anywidget.AnyWidget):
    """The board: goal bar with the Next cards, the 6×6 cards, the star bar, the Hint table and the result card."""

    _esm = page_module(_STATIC / "board.js")
    _css = _STATIC / "board.css"

    board = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    theme = traitlets.Unicode("light").tag(sync=True)

    def __init__(self, app: BoardApp, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._app = app
        self.on_msg(lambda _widget, content, _buffers: self.receive(content))

    def receive(self, content: Any) -> bool:
        """Check and carry out one message from the page; ``False`` (and :attr:`error` set) if refused."""
        try:
            kind, value = parse_intent(content)
            self._app.intent(kind, value)
        except ValueError as exc:  # PuzzleIntentError, SwapError, LevelError: the game is as it was
            self.error = str(exc)
            return False
        if kind != "theme":  # the theme changes nothing on the board: a refusal still stands
            self.error = ""
        return True

    def synced_json(self) -> str:
        """Every synced trait as the page receives it (tests check it holds no card beyond the Next three)."""
        return json.dumps({"board": self.board, "error": self.error, "theme": self.theme}, ensure_ascii=False)


class BoardApp:
    """A game of Card Clear on the board widget; every control has a twin method here.

    Tap (``pick``) one card, then a neighbour, to swap them; a drag sends the ``swap`` itself.
    """

    def __init__(self, code: str | None = None, progress: Progress | None = None, links: bool = False) -> None:
        self.progress = progress
        #: The result card copies a board link (``?board=12-0``) that the dashboard opens, not the bare code.
        self.links = links
        self.state = Puzzle.from_code(code or f"{progress.unlocked() if progress else 1}-0")
        self.selected: int | None = None
        self.message = progress.problem if progress else ""
        self.bounce = ""
        self.combo = 1.0
        self.hint_open = False
        #: Deals dealt on this board: each new one falls in row by row under its banner (K18).
        self.deals = 1
        self.id = secrets.token_hex(6)
        self.widget = BoardWidget(self)
        self.refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    @property
    def data(self) -> dict[str, Any]:
        """What the page draws now."""
        return self.widget.board

    def refresh(self) -> None:
        """Send the page the view of the game now, as one message."""
        advice = hint(self.state) if self.hint_open and not self.state.over else None
        levels, stars, pointer = None, None, None
        if self.progress is not None:  # the levels open, and the one a shared code opened out of turn
            stars = self.progress.stars()  # one read of the file per redraw
            levels = sorted({*range(min(LEVELS), self.progress.unlocked(stars) + 1), self.state.level})
            # until the first swap of the first game (a level cleared is a game played: no second read then)
            if not self.state.swaps and not stars and self.progress.first_game():
                pointer = (advice or hint(self.state)).best.swap
        with self.widget.hold_sync():
            self.widget.board = board_data(view(self.state), selected=self.selected, message=self.message,
                                           bounce=self.bounce, combo=self.combo, advice=advice, levels=levels,
                                           stars=stars, link=self.links, deal=self.deals, pointer=pointer,
                                           board=self.id)  # fmt: skip

    def intent(self, kind: str, value: Any) -> None:
        """Carry out a checked intent from the page."""
        if kind == "retry":
            self.try_again()
        elif kind == "new":
            self.new_deal()
        else:
            twins: dict[str, Callable[[Any], None]] = {"pick": self.pick, "swap": self.swap, "hint": self.show_hint,
                                                       "level": self.set_level, "theme": self.set_theme}  # fmt: skip
            twins[kind](value)

    # -- the twins ----------------------------------------------------------------------------------------

    def pick(self, cell: str) -> None:
        """Tap a card: the first is picked up (its neighbours show the hands a swap makes); a neighbour of the
        picked card swaps with it; the picked card again, or one that does not touch it, picks anew."""
        at = parse_cell(cell)
        if self.selected is None or self.selected == at:
            self.selected = None if self.selected == at else at
            self.bounce = ""
            self.refresh()
            return
        a, b = sorted((self.selected, at))
        if b - a == SIZE or (b - a == 1 and b % SIZE):
            self.swap(str(Swap(a, b)))
        else:
            self.selected = at
            self.refresh()

    def swap(self, text: str) -> None:
        """Swap two touching cards (``r3c2-r3c3``). One that makes no hand bounces back with the reason and costs
        no move (K3); bad text raises :class:`~cut_tutor.cardclear.state.SwapError`."""
        swap = Swap.parse(text)
        self.selected = None
        reason = self.state.why_illegal(swap)
        if reason:
            self.bounce = reason
        else:
            turn = self.state.play(swap)
            self.bounce, self.message, self.combo = "", turn_words(turn), turn.combo
            if self.state.over and self.progress is not None:
                self.progress.record(self.state)  # a cleared level opens the next (K17)
                self.message = self.progress.problem or self.message
        self.refresh()

    def show_hint(self, on: bool = True) -> None:
        """Open (or close) the Hint table: every legal swap with its parts and total, the best marked (H1–H8)."""
        self.hint_open = on
        self.refresh()

    def best_swap(self) -> str:
        """The Hint's pick, as the Hint table marks it."""
        return str(hint(self.state).best.swap)

    def try_again(self) -> None:
        """The same deal from the start: the same board and the same refill order (K16)."""
        self._start(self.state.code)

    def new_deal(self) -> None:
        """The next deal of the same level."""
        self._start(f"{self.state.level}-{self.state.deal + 1}")

    def set_level(self, number: int) -> None:
        """Deal 0 of another level; raises :class:`~cut_tutor.cardclear.levels.LevelError` for one not in the table,
        and :class:`PuzzleIntentError` for one the learner has not opened yet (K17: a board code plays any level)."""
        if self.progress is not None and number > self.progress.unlocked() and number in LEVELS:
            raise PuzzleIntentError(f"level {number} opens once level {number - 1} is cleared")
        self._start(f"{number}-0")

    def play_code(self, code: str) -> None:
        """Start the game a board code names (``12-0``)."""
        self._start(code)

    def board_code(self) -> str:
        """The code the result card copies (alone, or in the board link): it replays this deal exactly (K16)."""
        return self.state.code

    def set_theme(self, theme: str) -> None:
        """Light or dark."""
        if theme not in ("light", "dark"):
            raise PuzzleIntentError("the theme is 'light' or 'dark'")
        self.widget.theme = theme

    def _start(self, code: str) -> None:
        self.state = Puzzle.from_code(code)
        self.deals += 1
        self.selected, self.message, self.bounce, self.combo = None, "", "", 1.0
        self.refresh()
