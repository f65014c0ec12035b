"""What the rooms of the tutor app share: the setup they edit, the game's state, the app they sit in, and how controls
run twins.

Each room (the setup form, the play loop, the coach panel, the scores panel) builds its own widgets and Python
twins; it reaches the game and the other rooms only through the :class:`Host`, which :class:`~.app.GameApp` is. The
game's state is one value, the :class:`Sitting`: the play loop alone replaces it, every other room reads it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar, overload

import ipywidgets as w
import platformdirs

from cut_tutor.coach import Advice, AIPlayer
from cut_tutor.coach.styles import DEFAULT_LEVEL
from cut_tutor.engine import Game, Move, Rules
from cut_tutor.engine.words import SEAT_NAMES
from cut_tutor.storage import History
from cut_tutor.storage.saves import Saves

from ..guide_links import RULES_FIELDS, guide_url
from .jobs import answering
from .table import COLOURS, IntentError, TableWidget, unexpected

P = ParamSpec("P")
R = TypeVar("R")

#: The human's seat: you take the first seat, the others are AI opponents.
YOU = 0
PACING = ("Step", "Auto")


class Shown:
    """Something built of widgets under one ``root``: a notebook displays it as that root, and a page places
    :attr:`widget`."""

    root: w.VBox

    @property
    def widget(self) -> w.VBox:
        """The root widget, to place in a page."""
        return self.root

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)


#: Where earlier versions kept saves and history: still used where it exists, so nobody's games are left behind.
LEGACY_HOME = Path("~/.cut_tutor")


def default_home() -> Path:
    """Where saves and history live unless the app is given a directory: ``CUT_TUTOR_HOME``, else the user's
    data folder (``platformdirs``: ``~/.local/share/cut_tutor`` on Linux)."""
    if os.environ.get("CUT_TUTOR_HOME"):
        return Path(os.environ["CUT_TUTOR_HOME"]).expanduser()
    legacy = LEGACY_HOME.expanduser()
    return legacy if legacy.is_dir() else platformdirs.user_data_path("cut_tutor", appauthor=False)


@dataclass
class SeatSetup:
    """One seat in the player table."""

    name: str
    colour: str
    level: str = DEFAULT_LEVEL
    style: str = "Balanced"


@dataclass
class Setup:
    """Everything the setup screen chooses. The theme, the View and the score history live elsewhere."""

    seats: list[SeatSetup]
    rules: Rules = field(default_factory=Rules)
    coach: str = "Madonna"
    coaching: bool = True
    pile_counts: bool = False
    pacing: str = "Step"
    dim: bool = False
    #: Automate Player from the first move: the coach plays your seat with your own Style and Level.
    automate: bool = False

    @classmethod
    def default(cls, players: int = 4) -> Setup:
        colours = list(COLOURS)
        seats = [SeatSetup(SEAT_NAMES[i], colours[i]) for i in range(players)]
        return cls(seats=seats, rules=Rules(players=players))

    def reset(self) -> Setup:
        """The guide's *Reset game setup*: names, colours, Levels, Styles, the coach and every rule back to their
        defaults. The table's display settings (Pile Counts, Dim, pacing), Coaching and Automate Player are the
        learner's own choices, not the game's, and are kept."""
        fresh = Setup.default()
        return dataclasses.replace(self, seats=fresh.seats, rules=fresh.rules, coach=fresh.coach)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["rules"] = self.rules.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        seats = [SeatSetup(**s) for s in data["seats"]]
        rules = Rules.from_dict(data["rules"])
        if len(seats) != rules.players:
            raise ValueError("setup: the seats do not match the rules")
        return cls(seats, rules, str(data["coach"]), bool(data["coaching"]), bool(data["pile_counts"]),
                   str(data["pacing"]), bool(data.get("dim", False)), bool(data.get("automate", False)))  # fmt: skip


def seat_ai(setup: Setup, seat: int, game: Game) -> AIPlayer:
    """The AI for a seat with its chosen Level and Style, seeded from the game: the same deal plays alike."""
    s = setup.seats[seat]
    return AIPlayer(level=s.level, style=s.style, seed=game.seed * 10 + seat)


def seats_ai(setup: Setup, game: Game) -> tuple[AIPlayer, ...]:
    """The AI of every seat of a game, each with its chosen Level and Style."""
    return tuple(seat_ai(setup, seat, game) for seat in range(game.rules.players))


@dataclass(frozen=True)
class Sitting:
    """The game's state in one value: the setup, the game dealt from it (``None`` before a deal or after one is
    left), the AI players in its seats and the Play Bar's lines.

    The play loop owns it: a deal, a move's line in the Play Bar, a continued game or a change taken back replaces
    it whole, so no room sees a game with another game's seats or log. Every other room reads it through
    :attr:`Host.sitting` and asks the loop for a change. The setup's choices (names, Levels, rules, the coach …) are
    edited in place by the controls that offer them; which setup the sitting holds is the loop's.
    """

    setup: Setup
    game: Game | None = None
    ai: tuple[AIPlayer, ...] = ()
    log: tuple[str, ...] = ()

    def need_game(self) -> Game:
        """The game in play; refused with a hint when none has been dealt."""
        if self.game is None:
            raise IntentError("no game has been dealt: press Deal & play")
        return self.game

    def seats_shown(self) -> tuple[list[str], list[str]]:
        """The seats' names and colours as the table shows them: the game's, else the setup's (before a deal)."""
        seats = self.setup.seats
        names = self.game.names if self.game is not None else [s.name for s in seats]
        return list(names), [COLOURS[s.colour] for s in seats]


class Host(Protocol):
    """The app as its rooms see it: the game's state, the learner's files, the table, and the twins one room asks of
    another."""

    guide: str
    home: Path
    saves: Saves
    tab: str
    setup_path: Path
    history: History
    theme: str
    table: TableWidget
    controls: Controls

    @property
    def sitting(self) -> Sitting:
        """The game's state, the play loop's: read, never written, by the other rooms."""

    def refresh(self) -> None: ...
    def refresh_setup(self, rebuild: bool = False) -> None: ...
    def advice(self) -> Advice | None: ...
    def play(self, text: str | Move) -> None: ...
    def coach_play(self) -> None: ...
    def deal(self, seed: int | None = None) -> None: ...
    def deal_code(self, code: str) -> None: ...
    def set_coach(self, coach: str) -> None: ...
    def set_pacing(self, pacing: str) -> None: ...
    def set_layout(self, layout: str) -> None: ...
    def reset_setup(self) -> None: ...
    def ask_reset(self) -> bool: ...
    def set_automate(self, on: bool) -> None: ...
    def reseat(self, seat: int) -> None: ...


class HandOff(Generic[P, R]):
    """A twin of the app that is one room's own: ``undo = HandOff("loop", PlayLoop.undo)`` makes ``app.undo(…)``
    call ``app.loop.undo(…)``, with the room's signature and docstring, so the app lists its twins in one table
    rather than writing each hand-off by hand. The room is looked up at each call, so a twin may be taken (as a
    control's action) before its room is built."""

    def __init__(self, room: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.room, self.name = room, method.__name__
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, app: None, owner: type) -> HandOff[P, R]: ...
    @overload
    def __get__(self, app: object, owner: type | None = None) -> Callable[P, R]: ...
    def __get__(self, app: object, owner: type | None = None) -> HandOff[P, R] | Callable[P, R]:
        if app is None:
            return self

        def twin(*args: P.args, **kwargs: P.kwargs) -> R:
            method: Callable[P, R] = getattr(getattr(app, self.room), self.name)
            return method(*args, **kwargs)

        twin.__name__, twin.__doc__ = self.name, self.__doc__
        return twin


class Controls:
    """Runs a twin from a control: a refusal shows in the table's error line, and a redraw never echoes back.

    Every control it wires is :meth:`guarded <guard>`: an update from the page that the control cannot take (a
    forged index, a value of the wrong type) is refused in the same error line, never lost in a log.
    """

    def __init__(self, table: TableWidget) -> None:
        self.table = table
        self.syncing = False
        self.guard(table)

    def run(self, action: Callable[..., Any], *args: Any) -> None:
        """Run a twin from a control; a refusal shows in the table's error line."""
        if self.syncing:
            return
        try:
            with answering():  # the background jobs wait at their next round
                action(*args)
        except ValueError as exc:
            self.table.error = str(exc)
        except Exception as exc:  # a fault of the tutor itself: said plainly, the trace kept in the server log
            self.table.error = unexpected(exc)
        else:
            self.table.error = ""

    def guard(self, widget: w.Widget) -> None:
        """Route the page's updates to ``widget`` through a check that turns a refused one into a visible error."""

        def handle(msg: dict[str, Any]) -> None:
            data = msg.get("content", {}).get("data", {})
            if not isinstance(data, dict) or data.get("method") != "update":
                widget._handle_msg(msg)
                return
            try:
                state = data.get("state")
                if not isinstance(state, dict):
                    raise ValueError("an update must carry a state object")
                widget.set_state(state)
            except Exception as exc:  # traitlets refuses with TraitError, a forged key with KeyError …
                label = getattr(widget, "description", "") or type(widget).__name__
                self.table.error = f"{label}: that change was refused ({str(exc)[:200]})"

        if widget.comm is not None:
            widget.comm.on_msg(handle)

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """While the app redraws its controls from Python, their change events run no twin."""
        self.syncing = True
        try:
            yield
        finally:
            self.syncing = False

    def button(self, description: str, action: Callable[[], Any], **kwargs: Any) -> w.Button:
        button = w.Button(description=description, layout=w.Layout(width="max-content"), **kwargs)
        button.on_click(lambda _b: self.run(action))
        self.guard(button)
        return button

    def watch(self, widget: w.Widget, action: Callable[[Any], Any]) -> None:
        """A control whose new value goes to a twin."""
        widget.observe(lambda c: self.run(action, c["new"]), "value")
        self.guard(widget)


def help_links(topics: list[str], guide: str) -> list[tuple[str, str]]:
    """``(label, url)`` of the guide section explaining each topic (a setting, a Rules field or a page)."""
    return [(RULES_FIELDS.get(t, t), guide_url(t, base=guide)) for t in topics]


def help_html(topics: list[str], guide: str, title: str = "Help", **looks: Any) -> w.HTML:
    """A row of links into the player's guide; each opens its section in a new tab. ``looks``: a layout and style
    it shares with other controls."""
    links = " · ".join(
        f'<a href="{escape(url)}" data-base-relative="{escape(url)}" target="_blank" rel="noopener">{escape(label)}</a>'
        for label, url in help_links(topics, guide)
    )
    return w.HTML(f'<small class="cut-help">{escape(title)}: {links}</small>', **looks)
