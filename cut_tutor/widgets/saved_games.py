"""The saved games: the offer of the games waiting for *Continue*, the save after every change, and the claims.

A save that cannot be resumed is moved aside and named on the setup screen before anything can overwrite it. Each
game has its own save, played by one tab at a time (:mod:`cut_tutor.storage.saves`): a tab whose game was taken
over by another goes back to the offer of saved games. The play loop asks here to load, save and finish a game; a
save that cannot be written raises :class:`SaveFailed`, and the loop takes the change back.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import escape
from pathlib import Path

import ipywidgets as w

from cut_tutor.engine import Game
from cut_tutor.storage import SaveError, load_game
from cut_tutor.storage.files import disk_reason, write_atomic
from cut_tutor.storage.saves import LEGACY, ClaimLost, Waiting, set_aside

from .saving import cannot_save, notice_html, probe_home, same_page
from .shared import Host, Setup
from .table import IntentError


class SaveFailed(Exception):
    """The save after a change could not be written; the play loop takes the change back."""


class TakenOver(SaveFailed):
    """Another tab plays this game now: the change is taken back and this tab leaves the game."""


class SavedGames:
    """The saved-game offer (:attr:`resume_box`, :attr:`resume_note`), the notice of trouble with the home or the
    history (:attr:`notice`), and every read and write of a game's save; ``resume`` continues a waiting game."""

    def __init__(self, host: Host, resume: Callable[[str | None], None]) -> None:
        self.host = host
        self.resume = resume
        self.resume_label: str | None = None
        #: The unfinished games offered for *Continue*, newest first.
        self.waiting: list[Waiting] = []
        #: What the offer's rows show, per waiting game: (uid, label, about, open in another tab).
        self._offered: list[tuple[str, str, str, bool]] = []
        self.resume_note = w.HTML()
        #: Trouble with the tutor home or the history, shown above the table and the setup screen.
        self.notice = w.HTML()
        self.save_problem = probe_home(host.home)
        self.start_new_button = host.controls.button("Start new", self.start_new)
        self.resume_box = w.VBox()

    def rehome(self) -> None:
        """The app moved to another learner's folder: check it can be written, and offer that learner's save."""
        self.save_problem = probe_home(self.host.home)
        self.draw_notice()
        self.check_resume()

    @property
    def save_path(self) -> Path:
        """The save of the game in play, else of the newest game waiting, else where earlier versions saved."""
        host = self.host
        if host.sitting.game is not None:
            return host.saves.path(host.sitting.game.uid)
        return self.waiting[0].path if self.waiting else host.home / LEGACY

    # -- the offer ------------------------------------------------------------------------------------------------

    def check_resume(self) -> None:
        """Offer *Continue* for each unfinished game that resumes, newest first, while no game is in play here;
        a save that does not resume is moved aside at once, and the setup screen names where it was kept."""
        host = self.host
        self.resume_label = None
        if host.sitting.game is not None:
            return
        try:
            self.waiting, problems = host.saves.waiting()
        except OSError as exc:
            self.waiting, problems = [], [f"the saved games cannot be read ({disk_reason(exc)})"]
        self.resume_note.value = "".join(_could_not_read(problem) for problem in problems)
        if self.waiting:
            self.resume_label = self.waiting[0].label
        self._offer()

    def _offer(self) -> None:
        """The offer: one row per waiting game (its button, who plays it, the hand, when), then *Start new*. An
        offer that says what is already shown is kept as it is: a learner may be clicking its button just then (as
        the page's first message arrives, say), and a click on a button replaced meanwhile would be lost."""
        shown = [(waiting.uid, waiting.label, waiting.about, self._in_another_tab(waiting)) for waiting in self.waiting]
        if self.resume_box.children and shown == self._offered:
            return
        self._offered = shown
        for row in self.resume_box.children[1:-1]:  # the previous offer's rows: their buttons are gone for good
            for widget in (*row.children, row):
                widget.close()
        count = len(self.waiting)
        head = "A saved game is waiting." if count == 1 else f"{count} saved games are waiting (newest first)."
        rows: list[w.Widget] = [w.HTML(f"<b>{head}</b>")]
        for index, (waiting, (*_, elsewhere)) in enumerate(zip(self.waiting, shown, strict=True)):
            button = self.host.controls.button(
                waiting.label, functools.partial(self.resume, waiting.uid),
                button_style="success" if index == 0 else "",
            )  # fmt: skip
            about = escape(waiting.about)
            if elsewhere:
                about += (
                    "<br><b>Open in another tab</b>: continuing it here takes it over, and that tab stops playing it."
                )
            rows.append(w.HBox([button, w.HTML(f"<small>{about}</small>")]))
        rows.append(self.start_new_button)
        self.resume_box.children = rows

    def _in_another_tab(self, waiting: Waiting) -> bool:
        """Whether another browser tab plays a waiting game now: this tab reloaded (whose old kernel may hold the
        game a while yet) is not another."""
        claim = self.host.saves.holder_of(waiting.uid) if waiting.elsewhere else None
        return claim is not None and not same_page(str(claim["holder"]), self.host.tab)

    def start_new(self) -> None:
        """Go to setup; the saved games stay on disk for Continue."""
        self.resume_label = None
        self.host.refresh()

    # -- loading --------------------------------------------------------------------------------------------------

    def load(self, uid: str | None) -> Game:
        """The waiting game to continue (the newest unless ``uid`` names one), claimed for this tab; refused when
        none waits, or it cannot be read (kept aside, named on the setup screen) or claimed."""
        chosen = [w for w in self.waiting if uid in (None, w.uid)][:1]
        if self.resume_label is None or not chosen:
            raise IntentError("there is no saved game to continue")
        game = self._load_saved(chosen[0])
        if game is None:
            self.resume_label = None
            self.waiting.remove(chosen[0])
            self.host.refresh()
            raise IntentError("the saved game could not be read: see the note on the setup screen")
        if not self.save_problem:
            try:
                self.host.saves.claim(game.uid)
            except OSError as exc:
                raise IntentError(cannot_save(exc, "the game was not continued")) from None
        return game

    def _load_saved(self, waiting: Waiting) -> Game | None:
        """The saved game, or ``None`` with the save kept aside and the reason on the setup screen."""
        try:
            return load_game(waiting.path)
        except SaveError as exc:
            self.resume_note.value = _could_not_read(set_aside(exc))
        except OSError as exc:
            self.resume_note.value = _could_not_read(f"it cannot be opened ({disk_reason(exc)}).")
        return None

    def setup_of(self, game: Game) -> Setup:
        """The setup a continued game plays with: the one kept beside the saves when its rules are the game's (it
        keeps the seats' colours), else the default for the game's rules; the seats' names are the game's."""
        host, setup = self.host, self.host.sitting.setup
        if host.setup_path.exists():
            try:
                kept = Setup.from_dict(json.loads(host.setup_path.read_text(encoding="utf-8")))
                if kept.rules == game.rules:
                    setup = kept
            except (ValueError, KeyError, TypeError, OSError):
                pass  # a stale setup file only loses names and colours, never the game
        if setup.rules != game.rules:
            setup = Setup.default(game.rules.players)
            setup.rules = game.rules
        for seat, name in enumerate(game.names):
            setup.seats[seat].name = name
        return setup

    def resumed(self) -> None:
        """A game continued: the offer is gone."""
        self.resume_label = None
        self.waiting = []

    # -- saving ---------------------------------------------------------------------------------------------------

    def dealt(self) -> None:
        """A new game dealt: the offer is gone, and the setup is kept beside the saves (its names and colours, for
        Continue). A kept file named before stays on disk; the deal never touches it."""
        self.resume_label = None
        self.resume_note.value = ""
        if not self.save_problem:
            try:
                write_atomic(self.host.setup_path, json.dumps(self.host.sitting.setup.to_dict()))
            except OSError as exc:
                raise SaveFailed(cannot_save(exc, "the game was not dealt")) from None

    def save(self, game: Game) -> None:
        """Save the game in progress; a save that cannot be written raises :class:`SaveFailed`."""
        if game.over or self.save_problem:
            return
        with self._this_tab():
            self.host.saves.save(game, sync=False)  # after every move: not synced (the guide's *Saving*)

    def finish(self, game: Game) -> None:
        """A game just over: recorded in the history, and its own save removed once the history holds it (other
        games' saves stay)."""
        self.hold(game)
        host = self.host
        host.history.add(game)  # a history that cannot be written keeps it for later (its problem says)
        try:
            if not self.save_problem and host.history.on_disk(game):  # else its save is all that is left
                host.saves.finish(game)
        except OSError as exc:
            self.save_problem = cannot_save(exc, "the finished game's save is still on disk")

    def hold(self, game: Game) -> None:
        """This tab still plays ``game``: refused (and the tab leaves it) when another tab has taken it over."""
        if self.save_problem:
            return
        with self._this_tab():
            self.host.saves.check(game.uid)

    @contextmanager
    def _this_tab(self) -> Iterator[None]:
        """A game another tab has taken over is :class:`TakenOver`; a file that cannot be written, :class:`SaveFailed`
        (the move was not played)."""
        try:
            yield
        except ClaimLost as exc:
            raise TakenOver(str(exc)) from None
        except OSError as exc:
            raise SaveFailed(cannot_save(exc, "that was not played")) from None

    # -- drawing --------------------------------------------------------------------------------------------------

    def draw_notice(self) -> None:
        """What is wrong with the save or the history, in plain words, with what to do."""
        self.notice.value = notice_html(self.save_problem, [self.host.history.problem])

    def draw_resume(self) -> None:
        """The saved-game offer, shown while no game is in play, and any trouble with the home or the history."""
        self.draw_notice()
        self.resume_box.layout.display = "" if self.resume_label and self.host.sitting.game is None else "none"


def _could_not_read(problem: str) -> str:
    """The setup screen's line for a save that does not resume: why, where it is kept, what to do."""
    return (
        f"<p><b>A saved game could not be read:</b> {escape(problem)}"
        " Deal a new game to play on; the kept file is never overwritten.</p>"
    )
