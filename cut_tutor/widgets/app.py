"""The tutor app: setup, the table, the coaching panel, pacing, undo, scores and saved games.

Every control calls a Python method of :class:`GameApp` (``deal``, ``play``, ``coach_play``, ``next``,
``undo``, ``set_coach`` …), so the whole app runs and is tested without a browser. The app is a composition of
rooms, each in its own module: the setup form, the play loop, the saved games, the coach panel, the hand review,
the drills, tutor mode, the belief section and the scores panel. The game's state is the play loop's
(:attr:`GameApp.sitting`); the other rooms read it. A twin that is one room's own is listed here as a
:class:`~.shared.HandOff` to that room.

>>> import tempfile
>>> app = GameApp(tempfile.mkdtemp())
>>> app.set_players(3)
>>> app.deal(seed=11)
>>> app.state is not None and app.game is not None
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w

from cut_tutor.dashboard import GUIDE_ROUTE
from cut_tutor.engine import Game, Move, State
from cut_tutor.identity import learner_home, server_learner
from cut_tutor.review import Drills
from cut_tutor.roster import LEARNER
from cut_tutor.storage import History
from cut_tutor.storage.saves import Saves

from .belief_panel import BeliefPanel, BeliefRoom
from .coach_panel import CoachPanel
from .drills_panel import DrillsPanel
from .drills_room import DrillsRoom
from .play_loop import PlayLoop
from .replayer import Replayer
from .review_panel import ReviewPanel
from .review_room import ReviewRoom
from .saved_games import SavedGames
from .saving import holder_name, kernel_id
from .scores import ScorePanel
from .setup_form import SetupForm
from .shared import Controls, HandOff, Setup, Shown, Sitting, default_home, help_html, help_links
from .table import LAYOUTS, IntentError, TableWidget
from .tutor_room import TutorRoom

#: Where the guide is served, below the Jupyter base URL; the page resolves it (links marked ``data-base-relative``).
GUIDE_BASE = GUIDE_ROUTE


class GameApp(Shown):
    """The whole tutor in one object; :attr:`widget` is what a notebook or Voilà displays."""

    def __init__(
        self, home: str | os.PathLike[str] | None = None, guide: str = GUIDE_BASE, auto_delay: float = 0.0
    ) -> None:
        self.guide = guide
        #: The tutor home; each learner keeps their games in ``learners/<id>`` below it.
        self.base_home = Path(home) if home is not None else default_home()
        #: The learner the server names (the hub user, or who signed in to a class); else the browser names one.
        self.learner = server_learner(self.base_home)
        #: This tab, as the claim on the game it plays names it: see :meth:`set_page`.
        self.tab = holder_name()
        self.page: str | None = None
        self._use_home(self.base_home if self.learner is None else learner_home(self.base_home, self.learner))
        self.theme = "light"
        #: Opens a Card Clear board code from the page's address (``?board=12-0``); the dashboard's game picker
        #: sets it, since Card Clear is its game, not this app's (K16).
        self.board_opener: Callable[[str], None] | None = None
        self.table = TableWidget(self._on_intent, learner=self.learner or "")
        self.controls = Controls(self.table)
        self.saved = SavedGames(self, self.continue_game)
        self.loop = PlayLoop(self, self.saved, auto_delay)
        self.form = SetupForm(self)
        self.coach = CoachPanel(self)
        self.score_panel = ScorePanel(self)
        # a drill is evaluated with the review's budget, and a review's mistakes join the drills
        self.drills_room = DrillsRoom(self, lambda drill: self.review.analysis_of(drill))
        self.review = ReviewRoom(self, self.drills_room)
        self.tutor = TutorRoom(self, self.coach, self._land)
        self.belief = BeliefRoom(self)
        # tutor mode is a setup option: its row joins the form's Coaching settings
        rows = self.form.box.children
        at = rows.index(self.form.coach_about) + 1
        self.form.box.children = (*rows[:at], self.tutor.tutor_setup, *rows[at:])
        # the coach sits beside the table on a wide window and wraps under your cards on a narrow one (table.css);
        # the pacing follows the desk, so on a narrow window nothing comes between your cards and the coach
        self.play_box = w.VBox([self.loop.controls])
        self.side = w.VBox([self.coach.panel, self.belief.section])
        self.side.add_class("cut-side")
        main = w.VBox(
            [
                self.saved.notice,
                self.table,
                self.tutor.tutor_box,
                self.saved.resume_note,
                self.saved.resume_box,
                self.form.box,
            ]
        )
        main.add_class("cut-main")
        desk = w.HBox([main, self.side])
        desk.add_class("cut-desk")
        drills = self.drills_room
        sections = w.VBox([self.review.review_section, drills.drills_section, drills.progress_section])
        self.root = w.VBox([desk, self.play_box, sections, self.score_panel.panel])
        self.root.add_class("cut-app")
        self.root.add_class("cut-app-light")
        # the controls a notebook reaches from the app itself, whichever room draws them
        form, saved, coach, scores = self.form, self.saved, self.coach, self.score_panel
        self.setup_box, self.seat_rows, self.players, self.preset = form.box, form.seat_rows, form.players, form.preset
        self.rule_widgets, self.clear4_note, self.dim = form.rule_widgets, form.clear4_note, form.dim
        self.seed, self.deal_button, self.view_pick = form.seed, form.deal_button, form.view_pick
        self.resume_box, self.resume_note = saved.resume_box, saved.resume_note
        self.panel_about, self.coach_play_button = coach.panel_about, coach.coach_play_button
        self.analysis_html, self.this_game, self.games = coach.analysis_html, scores.this_game, scores.games
        self.export_note, self.stored_pick = scores.export_note, scores.stored_pick
        self.stored_button = scores.stored_button
        self.check_resume()
        self.refresh_setup(rebuild=True)

    def _use_home(self, home: Path) -> None:
        self.home = home
        self.saves = Saves(home, self.tab, kernel_id())
        self.setup_path = home / "setup.json"
        self.history = History(home / "history.sqlite")

    def set_learner(self, learner: str) -> None:
        """Whose games these are: each browser names its learner (an id it keeps), and that learner's save,
        setup and history live in a folder of their own, so learners on one server never meet each other's games.
        Where the server names the learner, the page can name no one else."""
        if not LEARNER.fullmatch(learner):
            raise IntentError("a learner is named by 1 to 64 letters, digits, '-' or '_'")
        if learner == self.learner:
            return
        if self.table.learner:
            raise IntentError(f"this page is {self.table.learner}'s: it cannot open another learner's games")
        if self.game is not None:
            raise IntentError("a game is in play here: the learner is named before a game deals")
        self.learner = learner
        self._use_home(learner_home(self.base_home, learner))
        self.saved.rehome()
        self.refresh_setup(rebuild=True)
        self.refresh()

    def set_page(self, page: str) -> None:
        """The browser tab this app draws, as its page names it (an id kept for the tab's life, reloads included):
        the claims this app makes name it, so a reload of the tab offers its game back as this tab's own."""
        if not LEARNER.fullmatch(page):
            raise IntentError("a browser tab is named by 1 to 64 letters, digits, '-' or '_'")
        if page == self.page or self.game is not None:  # a game's claim keeps the holder it was made with
            return
        self.page, self.tab = page, holder_name(page)
        self._use_home(self.home)

    # -- state --------------------------------------------------------------------------------------------

    @property
    def sitting(self) -> Sitting:
        """The game's state: the setup, the game, its AI seats and the Play Bar's lines, all the play loop's."""
        return self.loop.sitting

    @property
    def setup(self) -> Setup:
        """The setup the form shows and the next deal plays."""
        return self.sitting.setup

    @property
    def game(self) -> Game | None:
        """The game in play, if one has been dealt."""
        return self.sitting.game

    @property
    def state(self) -> State | None:
        """The hand in play, if a game has been dealt."""
        return self.game.state if self.game is not None else None

    @property
    def save_path(self) -> Path:
        """The save of the game in play, else of the newest saved game waiting for *Continue*."""
        return self.saved.save_path

    @property
    def last(self) -> str:
        """What happened since your last move: the Play Bar's latest action."""
        return self.loop.last

    @property
    def resume_label(self) -> str | None:
        """The *Continue* button's text while a saved game is waiting, else ``None``."""
        return self.saved.resume_label

    @property
    def replayer(self) -> Replayer | None:
        """The replayer last opened from the scores."""
        return self.score_panel.replayer

    need_game = HandOff("sitting", Sitting.need_game)

    # -- setup (the setup form) ---------------------------------------------------------------------------

    set_players = HandOff("form", SetupForm.set_players)
    set_name = HandOff("form", SetupForm.set_name)
    set_colour = HandOff("form", SetupForm.set_colour)
    set_level = HandOff("form", SetupForm.set_level)
    set_style = HandOff("form", SetupForm.set_style)
    set_rule = HandOff("form", SetupForm.set_rule)
    set_preset = HandOff("form", SetupForm.set_preset)
    set_coaching = HandOff("form", SetupForm.set_coaching)
    set_dim = HandOff("form", SetupForm.set_dim)
    set_pile_counts = HandOff("form", SetupForm.set_pile_counts)
    ask_reset = HandOff("form", SetupForm.ask_reset)
    cancel_reset = HandOff("form", SetupForm.cancel_reset)
    refresh_setup = HandOff("form", SetupForm.refresh_setup)

    def reset_setup(self) -> None:
        """Back to the default setup; ends a game in progress (its board no longer matches the screen) and closes
        any open replay. The button asks first when a game is in progress (:meth:`ask_reset`).

        What is kept is :meth:`Setup.reset`'s; the theme, the View and the score history are kept too.
        """
        self.form.asking = False
        self.loop.reset_setup()
        self._close_replay()
        self.refresh_setup(rebuild=True)
        self.refresh()

    # -- dealing, playing and saved games (the play loop) -------------------------------------------------

    check_resume = HandOff("saved", SavedGames.check_resume)
    start_new = HandOff("saved", SavedGames.start_new)
    continue_game = HandOff("loop", PlayLoop.continue_game)
    next_hand = HandOff("loop", PlayLoop.next_hand)
    reset_play = HandOff("loop", PlayLoop.reset_play)
    coach_play = HandOff("loop", PlayLoop.coach_play)
    can_undo = HandOff("loop", PlayLoop.can_undo)
    undo = HandOff("loop", PlayLoop.undo)
    next = HandOff("loop", PlayLoop.next)
    set_pacing = HandOff("loop", PlayLoop.set_pacing)
    run_pending = HandOff("loop", PlayLoop.run_pending)
    set_automate = HandOff("loop", PlayLoop.set_automate)
    reseat = HandOff("loop", PlayLoop.reseat)

    def deal(self, seed: int | None = None) -> None:
        """Start a new game from the setup (a seed makes it reproducible); other saved games wait for Continue."""
        self._close_replay()
        self.loop.deal(seed)

    def deal_code(self, code: str) -> None:
        """Start a new game whose first hand is a deal code's (``4-3-20-0-7K``, as notebook 01 hands out); the code
        must fit the setup's seats, decks and cards dealt. The game is saved like any other."""
        self._close_replay()
        self.loop.deal(code=code)

    def _close_replay(self) -> None:
        """An old game's replay does not stay open under Scores once the setup or the game changes."""
        self.score_panel.replayer = None
        self.score_panel.replay_box.children = []

    def play(self, text: str | Move) -> None:
        """Play a move for your seat; anything illegal raises and leaves the game untouched. In tutor mode a
        doubtful play waits for :meth:`play_anyway`, :meth:`rethink` or :meth:`tutor_hint` instead."""
        if not self.tutor.asks([text]):
            self.loop.play(text)

    def play_then(self, text: str | Move, then: str | Move) -> None:
        """A play and the gamble after it in one step (``Play 2× 9 + Risk pile 2``, R17); both checked first."""
        if not self.tutor.asks([text, then]):
            self.loop.play_then(text, then)

    def _land(self, moves: Sequence[Move]) -> None:
        """The learner's play past the tutor's question."""
        if len(moves) == 1:
            self.loop.play(moves[0])
        else:
            self.loop.play_then(*moves)

    # -- the coach (the coach panel) ----------------------------------------------------------------------

    set_coach = HandOff("coach", CoachPanel.set_coach)
    open_analysis = HandOff("coach", CoachPanel.open_analysis)
    set_coach_panel = HandOff("coach", CoachPanel.set_coach_panel)
    start_rollouts = HandOff("coach", CoachPanel.start_rollouts)
    analyse_longer = HandOff("coach", CoachPanel.analyse_longer)
    cancel_rollouts = HandOff("coach", CoachPanel.cancel_rollouts)
    compare_coaches = HandOff("coach", CoachPanel.compare_coaches)
    select_play = HandOff("coach", CoachPanel.select_play)
    advice = HandOff("coach", CoachPanel.advice)
    hint_count = HandOff("coach", CoachPanel.hint_count)

    # -- the hand review, the drills and tutor mode (their rooms) ---------------------------------------------

    review_hand = HandOff("review", ReviewRoom.review_hand)
    cancel_review = HandOff("review", ReviewRoom.cancel_review)
    set_tutor = HandOff("tutor", TutorRoom.set_tutor)
    play_anyway = HandOff("tutor", TutorRoom.play_anyway)
    rethink = HandOff("tutor", TutorRoom.rethink)
    tutor_hint = HandOff("tutor", TutorRoom.tutor_hint)

    @property
    def review_panel(self) -> ReviewPanel | None:
        """The panel of the last hand reviewed: marks, summary, next/previous mistake, *Find a better move*."""
        return self.review.panel

    @property
    def drills(self) -> Drills:
        """Your drills, kept in your home."""
        return self.drills_room.deck()

    @property
    def drills_panel(self) -> DrillsPanel:
        """The Drills section: your due drills, answered one at a time."""
        return self.drills_room.drills_panel()

    @property
    def belief_panel(self) -> BeliefPanel | None:
        """What you know of the other seats, from your last turn's view (once its section has been opened)."""
        return self.belief.panel

    # -- the belief panel ------------------------------------------------------------------------------------------

    open_belief = HandOff("belief", BeliefRoom.open_belief)

    # -- display settings ---------------------------------------------------------------------------------

    def set_theme(self, theme: str) -> None:
        """Light or dark."""
        if theme not in ("light", "dark"):
            raise ValueError("theme: use 'light' or 'dark'")
        self.theme = theme
        self.table.theme = theme
        if self.replayer is not None:  # an open replay follows the app's theme
            self.replayer.table.theme = theme
        # every panel takes the theme through the root's class, whatever the host's own theme
        self.root.remove_class(f"cut-app-{'light' if theme == 'dark' else 'dark'}")
        self.root.add_class(f"cut-app-{theme}")

    def set_layout(self, layout: str) -> None:
        """View: Auto (arc when it fits, else the stacked list), Table or Stacked; kept as chosen."""
        name = layout.strip().lower()
        if name not in LAYOUTS:
            raise ValueError("view: use Auto, Table or Stacked")
        self.table.table_layout = name
        self.form.view_pick.value = name.title()

    def help_links(self, topics: list[str]) -> list[tuple[str, str]]:
        """``(label, url)`` of the guide section explaining each topic (a setting, a Rules field or a page)."""
        return help_links(topics, self.guide)

    def help_html(self, topics: list[str], title: str = "Help") -> w.HTML:
        """A row of links into the player's guide; each opens its section in a new tab."""
        return help_html(topics, self.guide, title)

    # -- scores (the scores panel) ------------------------------------------------------------------------

    delete_games = HandOff("score_panel", ScorePanel.delete_games)
    export_csv = HandOff("score_panel", ScorePanel.export_csv)
    print_view = HandOff("score_panel", ScorePanel.print_view)
    open_stored_replay = HandOff("score_panel", ScorePanel.open_stored_replay)
    open_replay = HandOff("score_panel", ScorePanel.open_replay)
    select_all_games = HandOff("score_panel", ScorePanel.select_all)
    refresh_scores = HandOff("score_panel", ScorePanel.refresh_scores)

    # -- intents from the table ---------------------------------------------------------------------------

    def _on_intent(self, kind: str, value: Any) -> None:
        if kind == "move":
            self.play(str(value))
        elif kind == "select":
            self.select_play(str(value))
        elif kind == "combo":
            self.play_then(*value)
        elif kind == "coach_play":
            self.coach_play()
        elif kind == "undo":
            self.undo()
        elif kind == "next":
            self.next()
        elif kind == "automate":
            self.set_automate(bool(value))
        elif kind == "new_game":
            self.reset_play()
        elif kind == "theme":
            self.set_theme(str(value))
        elif kind == "ready":
            learner, page = value
            # the table drawn again on the same page (the game picker shows it again) keeps the screen it had; a
            # page loaded anew may find a game saved since this kernel started
            again = page is not None and page == self.page
            if learner is not None:  # first: a page refused for naming another learner changes nothing
                self.set_learner(learner)
            if page is not None:
                self.set_page(page)
            if self.game is None and not again:
                self.check_resume()
                self.refresh()
        elif kind == "board":
            if self.board_opener is None:
                raise IntentError("a board link opens Card Clear in the dashboard, under its game picker")
            self.board_opener(str(value))
        elif kind == "key":
            pass  # arrow keys step the replayer only

    # -- refreshing ---------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw everything from the game and setup: one message per trait, batched."""
        with self.controls.quiet(), self.table.hold_sync():
            playing = self.game is not None
            self.saved.draw_resume()
            self.form.draw(shown=not (playing or self.resume_label))
            self.play_box.layout.display = self.side.layout.display = "" if playing else "none"
            self.coach.draw()
            self.refresh_scores()
            advice, hints = (self.advice(), self.hint_count()) if playing else (None, 0)
            self.loop.draw(advice, hints, self.coach.coach_open, self.coach.selected())
            if playing:
                self.coach.draw_advice(advice, hints)
            self.review.draw()
            self.drills_room.draw()
            self.tutor.draw()
            self.belief.draw()
