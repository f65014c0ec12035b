"""The dashboard's game picker: CUT, Clear 4 or Card Clear, one choice at the top of the page.

CUT and Clear 4 are two presets of the same table game, so they pick the preset on the one :class:`GameApp`
(its setup form shows the change); Card Clear is a game of its own, drawn by its board app, made when first picked.

>>> import tempfile
>>> picker = GamePicker(GameApp(tempfile.mkdtemp()))
>>> picker.pick("Card Clear"); picker.board is not None, picker.shown is picker.board.widget
(True, True)
>>> picker.pick("Clear 4"); picker.game_app.setup.rules.clear4
True
>>> picker.pick("CUT"); picker.game_app.set_preset("Clear 4"); picker.choice.value  # the setup screen's preset
'Clear 4'
>>> picker.open_board("12-3"); picker.choice.value, picker.board.board_code()  # a board link, any level
('Card Clear', '12-3')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w

from cut_tutor.engine.games import GAME_MODULES
from cut_tutor.engine.rules import CLEAR4, CUT

from .app import GameApp

if TYPE_CHECKING:  # imported when Card Clear is first picked: a kernel starts without it
    from cut_tutor.cardclear.widget import BoardApp

CARD_CLEAR = "Card Clear"
#: The games, in the order the picker offers them: CUT and Clear 4 are presets of the GameApp.
PICKER_CHOICES: tuple[str, ...] = (CUT, CLEAR4, CARD_CLEAR)
#: What each choice's tooltip says the game is: the table games' in their own words, then the puzzle's.
BLURBS = {**{name: game.WORDS.blurb for name, game in GAME_MODULES.items()}, CARD_CLEAR: "the 6×6 poker-hand puzzle"}
#: Card Clear's progress file in the learner's home, beside the table game's history.
PROGRESS_FILE = "cardclear.sqlite"
#: The GameApp preset each table game picks when the setup is of the other game.
PRESET_OF: dict[str, str] = {CUT: "USA", CLEAR4: CLEAR4}


class GamePicker:
    """One game at a time under a row of three buttons; :meth:`pick` is the twin of a click."""

    def __init__(self, game_app: GameApp, board: BoardApp | None = None) -> None:
        self.game_app = game_app
        self.board = board
        # one slim row, no label (the game names say what it is), so the table below still fits a laptop screen
        self.choice = w.ToggleButtons(options=list(PICKER_CHOICES), value=CUT, style={"button_width": "auto"},
                                      layout=w.Layout(margin="0 0 2px 0"),
                                      tooltips=[f"{name}, {BLURBS[name]}" for name in PICKER_CHOICES])  # fmt: skip
        self.choice.add_class("cut-game-picker")
        self.choice.observe(lambda change: self.pick(change["new"]), names="value")
        # the table game's own preset (chosen on its setup screen, or a saved game continued) moves the choice too
        game_app.form.preset.observe(lambda change: self._follow(change["new"]), names="value")
        self.area = w.Box([game_app.widget])
        self.widget = w.VBox([self.choice, self.area])
        game_app.board_opener = self.open_board

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    @property
    def shown(self) -> w.Widget:
        """The game shown under the picker now."""
        return self.area.children[0]

    def _follow(self, preset: str) -> None:
        """The table game now plays ``preset``: the choice names its game, unless Card Clear is shown."""
        if self.choice.value != CARD_CLEAR:
            self.choice.value = CLEAR4 if preset == CLEAR4 else CUT

    def open_board(self, code: str) -> None:
        """Open the deal a board link names (``?board=12-0``, K16): Card Clear shows that board, at any level. A
        code that names no deal leaves the learner's own board, and says what was wrong on it."""
        self.pick(CARD_CLEAR)
        assert self.board is not None  # picking Card Clear made it
        try:
            self.board.play_code(code)
        except ValueError as exc:
            self.board.widget.error = f"The board link does not open a deal: {exc}."

    def pick(self, name: str) -> None:
        """Show a game: CUT or Clear 4 picks that preset on the table game, Card Clear shows its board."""
        if name not in PICKER_CHOICES:
            raise ValueError(f"unknown game {name!r}: the games are " + ", ".join(PICKER_CHOICES))
        if self.choice.value != name:
            self.choice.value = name  # its observer picks the game, as a click does
            return
        if name == CARD_CLEAR:
            if self.board is None:  # the learner's own way up the levels, kept in their home (K17)
                from cut_tutor.cardclear.progress import Progress
                from cut_tutor.cardclear.widget import BoardApp

                self.board = BoardApp(progress=Progress(self.game_app.home / PROGRESS_FILE), links=True)
                self.board.set_theme(self.game_app.theme)
            self.area.children = [self.board.widget]
            return
        self._show_table_game(name)
        self.area.children = [self.game_app.widget]

    def _show_table_game(self, name: str) -> None:
        """The table shows the game chosen: a game of the other kind in play is left for its setup screen (its save
        waits for Continue), which takes the chosen game's preset; an offer of saved games stays, its *Start new*
        leading to that setup. CUT keeps a USA or Canada setup as it is."""
        app, clear4 = self.game_app, name == CLEAR4
        if app.game is not None and app.game.rules.clear4 != clear4:
            app.reset_play()
        if app.game is None and app.setup.rules.clear4 != clear4:
            app.set_preset(PRESET_OF[name])
