"""The tutor app: setup, the table, the coaching panel, pacing, undo, scores and saved games.

Every control calls a Python method of :class:`GameApp` (``deal``, ``play``, ``coach_play``, ``next``,
``undo``, ``set_coach`` …), so the whole app runs and is tested without a browser.

>>> import tempfile
>>> app = GameApp(tempfile.mkdtemp())
>>> app.set_players(3)
>>> app.deal(seed=11)
>>> app.state is not None and app.game is not None
True
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import random
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as w
import pandas as pd

from cut_tutor.coach import COACHES, LEVELS, STYLES, Advice, AIPlayer, advise, compare
from cut_tutor.engine import (
    Game,
    History,
    Move,
    Rules,
    RulesError,
    SaveError,
    State,
    load_game,
    read_save,
    save_game,
    view,
)
from cut_tutor.engine.cards import RANK_MASK, UP, card_name, cards_of
from cut_tutor.engine.game import DEFAULT_NAMES
from cut_tutor.engine.moves import FLIP, GAMBLE, TAKE, TURNUP
from cut_tutor.engine.rules import CLEAR4_MAX_PLAYERS, PRESETS

from ..guide_links import RULES_FIELDS, guide_url
from .replayer import Replayer
from .scores import game_table, history_hands, history_summary
from .table import COLOURS, LAYOUTS, IntentError, TableWidget, move_label

#: The human's seat: you take the first seat, the others are AI opponents.
YOU = 0
#: Moves that turn a hidden card: C9 never undoes them.
_REVEALING = (FLIP, GAMBLE, TURNUP)
#: How many hints each Level shows on your own seat (C7): Average the most, Expert none.
HINTS = {"Average": 3, "Experienced": 1, "Expert": 0}
PACING = ("Step", "Auto")
#: The rule settings Clear 4 has (R22); the setup hides the others while it is chosen.
CLEAR4_SETTINGS = ("rounds",)


def default_home() -> Path:
    """Where saves and history live unless the app is given a directory (``CUT_TUTOR_HOME`` overrides)."""
    return Path(os.environ.get("CUT_TUTOR_HOME") or "~/.cut_tutor").expanduser()


@dataclass
class SeatSetup:
    """One seat in the player table."""

    name: str
    colour: str
    level: str = "Experienced"
    style: str = "Balanced"


@dataclass
class Setup:
    """Everything the setup screen chooses; display settings and score history are not part of it."""

    seats: list[SeatSetup]
    rules: Rules = field(default_factory=Rules)
    coach: str = "Madonna"
    coaching: bool = True
    pile_counts: bool = True
    pacing: str = "Auto"
    dim: bool = False

    @classmethod
    def default(cls, players: int = 4) -> Setup:
        colours = list(COLOURS)
        seats = [SeatSetup(DEFAULT_NAMES[i], colours[i]) for i in range(players)]
        return cls(seats=seats, rules=Rules(players=players))

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
                   str(data["pacing"]), bool(data.get("dim", False)))  # fmt: skip


#: The guide section each legend entry opens.
LEGEND_TOPICS = {"💥": "bust", "🃏": "known", "🤖": "Automate Player", "D": "dealer", "S": "stacks"}

#: Where Voilà serves the built guide (``make dashboard`` builds it; voila.json allows the files).
GUIDE_BASE = "/voila/files/guide/_build/"

_NONE_AS_ZERO = ("decks", "clear_rank")


def _from_form(name: str, value: Any) -> Any:
    return None if name in _NONE_AS_ZERO and value == 0 else value


class GameApp:
    """The whole tutor in one object; :attr:`widget` is what a notebook or Voilà displays."""

    def __init__(self, home: str | os.PathLike[str] | None = None, guide: str = GUIDE_BASE) -> None:
        self.guide = guide
        self.home = Path(home) if home is not None else default_home()
        self.home.mkdir(parents=True, exist_ok=True)
        self.save_path = self.home / "save.json"
        self.setup_path = self.home / "setup.json"
        self.history = History(self.home / "history.sqlite")
        self.setup = Setup.default()
        self.game: Game | None = None
        self.ai: list[AIPlayer] = []
        self.theme = "light"
        self.log: list[str] = []
        self.analysis_open = False
        self.coach_open = True
        self.comparing = False
        self.resume_label: str | None = None
        self.replayer: Replayer | None = None
        self._cut_rules: Rules | None = None
        self._undo: list[tuple[State, int]] = []
        self._advice: tuple[State, tuple[int, str, str], Advice] | None = None
        self._recorded: Game | None = None
        self._syncing = False
        self._build()
        self.check_resume()
        self.refresh_setup(rebuild=True)

    # -- state --------------------------------------------------------------------------------------------

    @property
    def state(self) -> State | None:
        """The hand in play, if a game has been dealt."""
        return self.game.state if self.game is not None else None

    @property
    def last(self) -> str:
        """What happened since your last move: the Play Bar's latest action."""
        return " · ".join(self.log[-(self.setup.rules.players) :])

    def _note(self, text: str) -> None:
        self.log = [*self.log[-20:], text]

    @property
    def widget(self) -> w.VBox:
        """The app's root widget."""
        return self.root

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    def _need_game(self) -> Game:
        if self.game is None:
            raise IntentError("no game has been dealt: press Deal & play")
        return self.game

    # -- setup --------------------------------------------------------------------------------------------

    def set_players(self, players: int) -> None:
        """Seat 2 to 8 players (2 to 6 in Clear 4); new seats take the default names and the first free colours."""
        self._set_rules(dataclasses.replace(self.setup.rules, players=int(players)))
        self.refresh_setup(rebuild=True)

    def _set_rules(self, rules: Rules) -> None:
        """Take new rules, seating as many players as they name (kept seats keep their names and colours)."""
        players = rules.players
        seats = self.setup.seats[:players]
        free = [c for c in COLOURS if c not in {s.colour for s in seats}]
        for i in range(len(seats), players):
            seats.append(SeatSetup(DEFAULT_NAMES[i], free.pop(0)))
        self.setup.seats, self.setup.rules = seats, rules

    def set_name(self, seat: int, name: str) -> None:
        """Rename a seat (blank names are refused)."""
        if not name.strip():
            raise ValueError("a seat needs a name")
        self.setup.seats[seat].name = name.strip()[:24]
        self.refresh_setup()

    def set_colour(self, seat: int, colour: str) -> None:
        """Give a seat a colour no other seat has."""
        if colour not in COLOURS:
            raise ValueError(f"colour: {colour!r} is not one of {', '.join(COLOURS)}")
        if any(s.colour == colour for i, s in enumerate(self.setup.seats) if i != seat):
            raise ValueError(f"colour: {colour} is already taken")
        self.setup.seats[seat].colour = colour
        self.refresh_setup(rebuild=True)

    def set_level(self, seat: int, level: str) -> None:
        """A seat's Level; for your own seat it also sets how many hints you see (C7)."""
        if level not in LEVELS:
            raise ValueError(f"level: {level!r} is not one of {', '.join(LEVELS)}")
        self.setup.seats[seat].level = level
        if self.game is not None:
            self.ai[seat] = self._ai_for(seat)
        self.refresh()

    def set_style(self, seat: int, style: str) -> None:
        """A seat's Style (Rock, Balanced or Gambler)."""
        if style not in STYLES:
            raise ValueError(f"style: {style!r} is not one of {', '.join(STYLES)}")
        self.setup.seats[seat].style = style
        if self.game is not None:
            self.ai[seat] = self._ai_for(seat)
        self.refresh()

    def set_rule(self, name: str, value: Any) -> None:
        """Change one rule variant; an impossible value is refused with the engine's reason."""
        if name == "players":
            self.set_players(int(value))
            return
        try:
            self.setup.rules = dataclasses.replace(self.setup.rules, **{name: value})
        except (TypeError, RulesError) as exc:
            raise ValueError(str(exc)) from None
        self.refresh_setup()

    def set_preset(self, name: str) -> None:
        """Fill a preset's settings (USA, Canada or Clear 4); *Custom* is derived, never chosen (R21).

        Clear 4 (R22) seats at most 6 and plays rounds; switching back to USA or Canada restores the CUT settings
        chosen before it, with the seats chosen since.
        """
        if name == "Custom":
            raise ValueError("Custom is not a preset: it shows that the settings match neither USA nor Canada")
        rules = self.setup.rules
        try:
            if Rules.from_preset(name).clear4:
                if not rules.clear4:
                    self._cut_rules = rules
                new = rules.with_preset(name)
            else:
                new = self._cut_rules_for(rules).with_preset(name) if rules.clear4 else rules.with_preset(name)
        except RulesError as exc:
            raise ValueError(str(exc)) from None
        self._set_rules(new)
        self.refresh_setup(rebuild=True)

    def _cut_rules_for(self, clear4: Rules) -> Rules:
        """The CUT rules to return to from Clear 4: those chosen before it, with Clear 4's seats."""
        base = self._cut_rules or Rules()
        try:
            return dataclasses.replace(base, players=clear4.players)
        except RulesError:  # fixed decks too few for the seats chosen since: back to Auto
            return dataclasses.replace(base, players=clear4.players, decks=None)

    def set_coaching(self, on: bool) -> None:
        """Coaching on or off; off hides every hint whatever the Level."""
        self.setup.coaching = bool(on)
        self.refresh()

    def set_dim(self, on: bool) -> None:
        """Dim non-playable Cards: the cards no legal move uses are drawn faded."""
        self.setup.dim = bool(on)
        self.refresh()

    def set_pile_counts(self, on: bool) -> None:
        """Show the pile's card count and points."""
        self.setup.pile_counts = bool(on)
        self.refresh()

    def reset_setup(self) -> None:
        """Back to the default setup; ends a game in progress (its board no longer matches the screen).

        Display settings (theme) and the score history are kept.
        """
        self.game = None
        self.ai = []
        self._undo = []
        self.setup = Setup.default()
        self.log = []
        self.refresh_setup(rebuild=True)
        self.refresh()

    # -- dealing and saved games --------------------------------------------------------------------------

    def check_resume(self) -> None:
        """Offer *Continue* when a readable saved game is waiting and no game is in play here."""
        self.resume_label = None
        self.resume_note.value = ""
        if self.game is not None or not self.save_path.exists():
            return
        try:
            data = read_save(self.save_path)
            players = len(data["names"])
            round_no = int(data["hand"]["number"])
        except (SaveError, KeyError, TypeError, ValueError) as exc:
            self.resume_note.value = f"<i>A saved game could not be read: {escape(str(exc))}</i>"
            return
        self.resume_label = f"Continue — {players} players, round {round_no}"

    def continue_game(self) -> None:
        """Resume the saved game with the rules and seats it was saved with."""
        if self.resume_label is None:
            raise IntentError("there is no saved game to continue")
        self.game = load_game(self.save_path)
        if self.setup_path.exists():
            try:
                setup = Setup.from_dict(json.loads(self.setup_path.read_text(encoding="utf-8")))
                if setup.rules == self.game.rules:
                    self.setup = setup
            except (ValueError, KeyError, TypeError):
                pass  # a stale setup file only loses names and colours, never the game
        if self.setup.rules != self.game.rules:
            self.setup = Setup.default(self.game.rules.players)
            self.setup.rules = self.game.rules
        for seat, name in enumerate(self.game.names):
            self.setup.seats[seat].name = name
        self.ai = [self._ai_for(seat) for seat in range(self.game.rules.players)]
        self._undo = []
        self.resume_label = None
        self._note("Game resumed")
        self.refresh_setup(rebuild=True)
        self._advance()

    def start_new(self) -> None:
        """Go to setup; the saved game stays on disk until a new game actually deals."""
        self.resume_label = None
        self.refresh()

    def deal(self, seed: int | None = None) -> None:
        """Start a new game from the setup (a seed makes it reproducible); replaces any saved game."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.game = Game(self.setup.rules, seed, [s.name for s in self.setup.seats])
        self.ai = [self._ai_for(seat) for seat in range(self.setup.rules.players)]
        self._undo = []
        self.resume_label = None
        self.replayer = None
        self.log = []
        self._note(f"{self.game.names[self.game.dealer]} deals")
        self.setup_path.write_text(json.dumps(self.setup.to_dict()), encoding="utf-8")
        self._advance()

    def next_hand(self) -> None:
        """Deal the next hand once this one is over (R6)."""
        game = self._need_game()
        if not game.state.over:
            raise IntentError("the hand is still being played")
        if game.over:
            raise IntentError("the game is over: deal a new game")
        game.next_hand()
        self._undo = []
        self._note(f"Hand {game.hand_number}: {game.names[game.dealer]} deals")
        self._advance()

    def _ai_for(self, seat: int) -> AIPlayer:
        game = self._need_game()
        s = self.setup.seats[seat]
        return AIPlayer(level=s.level, style=s.style, seed=game.seed * 10 + seat)

    # -- playing ------------------------------------------------------------------------------------------

    def play(self, text: str | Move) -> None:
        """Play a move for your seat; anything illegal raises and leaves the game untouched."""
        game = self._need_game()
        state = game.state
        if state.over:
            raise IntentError("the hand is over")
        if state.turn != YOU:
            raise IntentError(f"it is {game.names[state.turn]}'s turn, not yours")
        move = text if isinstance(text, Move) else Move.parse(text)
        reason = state.why_illegal(move)
        if reason is not None:
            raise IntentError(f"{move_label(move, state, game.names)} is not allowed: {reason}")
        snapshot = state.copy()
        hidden = _hidden(state, YOU)
        self._apply(move)
        # C9: never undo a play that turned a hidden card (in Clear 4, a stack card's middle card turning up)
        if move.kind not in _REVEALING and _hidden(game.state, YOU) == hidden and not game.state.over:
            self._undo.append((snapshot, len(game.state.moves)))
        else:
            self._undo.clear()
        self._advance()

    def play_then(self, text: str | Move, then: str | Move) -> None:
        """A play and the gamble after it in one step (``Play 2× 9 + Risk pile 2``, R17); both checked first."""
        game = self._need_game()
        move = text if isinstance(text, Move) else Move.parse(text)
        after = then if isinstance(then, Move) else Move.parse(then)
        trial = game.state.copy()
        if trial.turn != YOU or not trial.is_legal(move):
            self.play(move)  # raises with the reason, changing nothing
        trial.apply(move)
        if trial.turn != YOU or not trial.is_legal(after):
            raise IntentError(f"{after} cannot follow {move} here: it would not be your gamble (R17)")
        self.play(move)
        self.play(after)

    def coach_play(self) -> None:
        """Play exactly the coach's recommendation (the green *Coach: Play …* button)."""
        advice = self.advice()
        if advice is None:
            raise IntentError("the coach has nothing to play: it is not your turn")
        self.play(advice.move)

    def can_undo(self) -> bool:
        """C9: your own last play, until the next seat acts, never one that turned a hidden card."""
        game = self.game
        if game is None or not self._undo or game.state.over:
            return False
        return self._undo[-1][1] == len(game.state.moves)

    def undo(self) -> None:
        """Take back your last play (C9)."""
        if not self.can_undo():
            raise IntentError("there is no play of yours to undo: the next seat has acted, or it turned a card")
        game = self._need_game()
        game.state, _ = self._undo.pop()
        self._note("You took back your last play")
        self._save()
        self.refresh()

    def next(self) -> None:
        """Step pacing: play the next AI seat's move; after a hand, deal the next one."""
        game = self._need_game()
        state = game.state
        if state.over:
            self.next_hand()
            return
        if state.turn == YOU and not game.automated[YOU]:
            raise IntentError("it is your turn")
        self._ai_move()
        self._advance(step=False)

    def set_pacing(self, pacing: str) -> None:
        """``Step`` waits for *Next* before each AI move; ``Auto`` plays them at once."""
        if pacing not in PACING:
            raise ValueError(f"pacing: {pacing!r} is not Step or Auto")
        self.setup.pacing = pacing
        if self.game is not None:
            self._advance()
        else:
            self.refresh()

    def set_automate(self, on: bool) -> None:
        """Automate Player: the coach plays your seat with your own Style and Level until you take over."""
        game = self._need_game()
        game.automated[YOU] = bool(on)
        self._note("Automate Player on" if on else "You have the controls")
        self._advance()

    def _ai_move(self) -> None:
        game = self._need_game()
        seat = game.state.turn
        move = self.ai[seat].choose_view(view(game.state, seat))
        self._apply(move)
        if seat != YOU:
            self._undo.clear()

    def _apply(self, move: Move) -> None:
        """Apply a legal move and describe it in the Play Bar."""
        game = self._need_game()
        state = game.state
        seat = state.turn
        busts, clears = state.busts[seat], state.clears[seat]
        hand_before, cleared_before = list(state.hands[seat]), list(state.cleared)
        label = move_label(move, state, game.names)
        blind = state.stacks[seat][move.stacks[0]][-1] & RANK_MASK if state.rules.clear4 and move.kind == FLIP else 0
        game.play(move)
        after = game.state
        text = f"{game.names[seat]}: {label}"
        if blind:  # Clear 4's final card: what it was is public once played (R22)
            text += f" (turned {_display_name(blind, clear4=True)})"
        elif move.kind in (FLIP, GAMBLE) and (after.pile or after.busts[seat] > busts):
            text += f" (turned {self._turned(after, seat, busts)})"
        # the cards swept away or taken are public (R9–R11): the Play Bar shows them, as a Step pause does
        if after.busts[seat] > busts:
            taken = [a - b for a, b in zip(after.hands[seat], hand_before, strict=True)]
            if move.kind == TAKE and move.n:
                taken[move.rank] += 1  # the card shown went back to the hand with the pile
            text += f" — 💥 took the pile: {self._cards_text(taken, after.rules.clear4)}"
        elif after.clears[seat] > clears:
            swept = [a - b for a, b in zip(after.cleared, cleared_before, strict=True)]
            text += f" — cleared {self._cards_text(swept, after.rules.clear4)}, plays again"
        if after.winner == seat:
            text += " — and went out!"
        self._note(text)

    @staticmethod
    def _cards_text(counts: list[int], clear4: bool) -> str:
        return " ".join(_display_name(card, clear4) for card in cards_of(counts)) or "nothing"

    @staticmethod
    def _turned(after: State, seat: int, busts: int) -> str:
        if after.busts[seat] > busts:
            return "a card above the top"
        return card_name(after.top) if after.pile else "a clear card"

    def _advance(self, step: bool = True) -> None:
        """After any change: let AI seats move (Auto pacing), record a finished game, save, redraw."""
        game = self._need_game()
        if step and self.setup.pacing == "Auto":
            while not game.state.over and (game.state.turn != YOU or game.automated[YOU]):
                self._ai_move()
        if game.over:
            if self._recorded is not game:
                self._recorded = game
                self.history.add(game)
                self.save_path.unlink(missing_ok=True)
        else:
            self._save()
        self.refresh()

    def _save(self) -> None:
        if self.game is not None and not self.game.over:
            save_game(self.game, self.save_path)

    # -- the coach ----------------------------------------------------------------------------------------

    def set_coach(self, coach: str) -> None:
        """Whose advice you are shown: Daryl, Madonna or Marty."""
        if coach not in COACHES:
            raise ValueError(f"coach: {coach!r} is not one of {', '.join(COACHES)}")
        self.setup.coach = coach
        self.refresh()

    def open_analysis(self, on: bool = True) -> None:
        """Show the full analysis whatever the Level: a tutor always allows it on purpose (C7)."""
        self.analysis_open = bool(on)
        self.refresh()

    def set_coach_panel(self, open_: bool) -> None:
        """Expand or collapse the Coaching panel; collapsed hides the Coach button and highlight."""
        self.coach_open = bool(open_)
        self.refresh()

    def compare_coaches(self) -> pd.DataFrame:
        """All three coaches on your position, and whether they agree."""
        state = self.state
        if state is None or state.over or state.turn != YOU:
            raise IntentError("the coaches compare only on your turn")
        self.comparing = self.analysis_open = True
        self.refresh()
        return compare(view(state, YOU), level=self.setup.seats[YOU].level, names=self._need_game().names)

    def advice(self) -> Advice | None:
        """The chosen coach's advice for your seat, from your view only (C2); ``None`` off your turn."""
        state = self.state
        if state is None or state.over or state.turn != YOU:
            return None
        key = (len(state.moves), self.setup.coach, self.setup.seats[YOU].level)
        if self._advice is None or self._advice[0] is not state or self._advice[1] != key:
            names = self._need_game().names
            self._advice = (state, key, advise(view(state, YOU), coach=self.setup.coach, level=key[2], names=names))
        return self._advice[2]

    def hint_count(self) -> int:
        """How many hints show now: by your Level (C7), none with Coaching off, all with the analysis open."""
        if self.analysis_open:
            return 99
        if not self.setup.coaching:
            return 0
        return HINTS[self.setup.seats[YOU].level]

    # -- display settings ---------------------------------------------------------------------------------

    def set_theme(self, theme: str) -> None:
        """Light or dark."""
        if theme not in ("light", "dark"):
            raise ValueError("theme: use 'light' or 'dark'")
        self.theme = theme
        self.table.theme = theme
        if theme == "dark":
            self.root.add_class("cut-app-dark")
        else:
            self.root.remove_class("cut-app-dark")

    def set_layout(self, layout: str) -> None:
        """View: Auto (arc when it fits, else the stacked list), Table or Stacked; kept as chosen."""
        name = layout.strip().lower()
        if name not in LAYOUTS:
            raise ValueError("view: use Auto, Table or Stacked")
        self.table.layout = name
        self.view_pick.value = name.title()

    # -- scores -------------------------------------------------------------------------------------------

    def delete_games(self, game_ids: list[int]) -> None:
        """Delete finished games from the score history."""
        self.history.delete(list(game_ids))
        self.refresh_scores()

    def export_csv(self, path: str | os.PathLike[str] | None = None, game_ids: list[int] | None = None) -> Path:
        """Write the chosen games (default: all) as CSV; returns the file written."""
        out = self.history.export_csv(path or self.home / "scores.csv", game_ids)
        self.export_note.value = f"Saved <code>{escape(str(out))}</code>"
        return out

    def help_links(self, topics: list[str]) -> list[tuple[str, str]]:
        """``(label, url)`` of the guide section explaining each topic (a setting, a Rules field or a page)."""
        return [(RULES_FIELDS.get(t, t), guide_url(t, base=self.guide)) for t in topics]

    def help_html(self, topics: list[str], title: str = "Help") -> w.HTML:
        """A row of links into the player's guide; each opens its section in a new tab."""
        links = " · ".join(
            f'<a href="{escape(url)}" target="_blank" rel="noopener">{escape(label)}</a>'
            for label, url in self.help_links(topics)
        )
        return w.HTML(f'<small class="cut-help">{escape(title)}: {links}</small>')

    def print_view(self, game_ids: list[int] | None = None) -> str:
        """A print-friendly page of the chosen games (default: all): summaries and hand-by-hand tables."""
        games = [g for g in self.history.games() if game_ids is None or g["id"] in game_ids]
        body = "".join(
            f"<h2>{escape(history_summary(g))}</h2>{history_hands(g['names'], self.history.hands(g['id']))}"
            for g in games
        )
        page = (
            "<!doctype html><meta charset='utf-8'><title>CUT scores</title><style>body{font-family:sans-serif;"
            "color:#000;background:#fff}table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}"
            "h2{font-size:14px;break-after:avoid}@page{margin:1in}</style>"
            f"<h1>Clear, Under or Take — games played</h1>{body or '<p>No games selected.</p>'}"
        )
        link = base64.b64encode(page.encode()).decode()
        self.export_note.value = (
            f'<a download="cut-scores.html" href="data:text/html;base64,{link}" target="_blank">'
            f"Print view of {len(games)} game(s): open it and print</a>"
        )
        return page

    def open_stored_replay(self, game_id: int, hand: int) -> Replayer:
        """Open the replayer on a hand of a finished game from the score history."""
        try:
            record = self.history.record(game_id, hand)
        except ValueError as exc:
            raise IntentError(str(exc)) from None
        names = next((g["names"] for g in self.history.games() if g["id"] == game_id), None)
        self.replayer = Replayer(record, names=names, coach=self.setup.coach)
        self.replayer.table.theme = self.theme
        self.replay_box.children = [self.replayer.widget]
        return self.replayer

    def open_replay(self, hand: int) -> Replayer:
        """Open the replayer on a finished hand of this game."""
        game = self._need_game()
        results = {r.number: r for r in game.results}
        if hand not in results:
            raise IntentError(f"hand {hand} has not finished yet")
        self.replayer = Replayer.from_result(
            results[hand], game.rules, names=game.names,
            colours=[COLOURS[s.colour] for s in self.setup.seats], coach=self.setup.coach,
        )  # fmt: skip
        self.replayer.table.theme = self.theme
        self.replay_box.children = [self.replayer.widget]
        return self.replayer

    # -- intents from the table ---------------------------------------------------------------------------

    def _on_intent(self, kind: str, value: Any) -> None:
        if kind == "move":
            self.play(str(value))
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
        elif kind == "theme":
            self.set_theme(str(value))
        elif kind == "ready":
            if self.game is None:
                self.check_resume()
                self.refresh()
        elif kind == "key":
            pass  # arrow keys step the replayer only

    # -- widgets ------------------------------------------------------------------------------------------

    def _button(self, description: str, action: Any, **kwargs: Any) -> w.Button:
        button = w.Button(description=description, layout=w.Layout(width="max-content"), **kwargs)
        button.on_click(lambda _b: self._ui(action))
        return button

    def _ui(self, action: Any, *args: Any) -> None:
        """Run a twin from a control; a refusal shows in the table's error line."""
        if self._syncing:
            return
        try:
            action(*args)
        except ValueError as exc:
            self.table.error = str(exc)
        else:
            self.table.error = ""

    def _build(self) -> None:
        self.table = TableWidget(self._on_intent)
        # resume prompt
        self.resume_note = w.HTML()
        self.continue_button = self._button("Continue", self.continue_game, button_style="success")
        self.start_new_button = self._button("Start new", self.start_new)
        self.resume_box = w.VBox(
            [w.HTML("<b>A saved game is waiting.</b>"), w.HBox([self.continue_button, self.start_new_button])]
        )
        # setup
        self.players = w.Dropdown(options=list(range(2, 9)), value=4, description="Players")
        self.players.observe(lambda c: self._ui(self.set_players, c["new"]), "value")
        self.seat_rows = w.VBox()
        self.coach_pick = w.Dropdown(options=list(COACHES), value="Madonna", description="Coach")
        self.coach_pick.observe(lambda c: self._ui(self.set_coach, c["new"]), "value")
        self.coach_about = w.HTML()
        self.coaching = w.Checkbox(value=True, description="Coaching")
        self.coaching.observe(lambda c: self._ui(self.set_coaching, c["new"]), "value")
        self.pile_counts = w.Checkbox(value=True, description="Pile Counts")
        self.pile_counts.observe(lambda c: self._ui(self.set_pile_counts, c["new"]), "value")
        self.dim = w.Checkbox(value=False, description="Dim non-playable Cards")
        self.dim.observe(lambda c: self._ui(self.set_dim, c["new"]), "value")
        self.pacing = w.ToggleButtons(options=list(PACING), value="Auto", description="AI pacing")
        self.pacing.observe(lambda c: self._ui(self.set_pacing, c["new"]), "value")
        self.view_pick = w.ToggleButtons(options=["Auto", "Table", "Stacked"], value="Auto", description="View")
        self.view_pick.observe(lambda c: self._ui(self.set_layout, c["new"]), "value")
        # the page's own "Switch to Stacked" offer changes the table's layout: keep the picker in step
        self.table.observe(lambda c: setattr(self.view_pick, "value", c["new"].title()), "layout")
        self.preset = w.Dropdown(options=list(PRESETS), value="USA", description="Preset")
        self.preset.observe(lambda c: self._ui(self.set_preset, c["new"]), "value")
        self.rule_widgets = self._rule_widgets()
        self.clear4_note = w.HTML(
            "<i>Clear 4: its own 120-card deck, 2 to 6 players, three-card stacks and a hand of 8. It is played"
            " over a number of rounds; every card left in your hands counts one point against you.</i>"
        )
        self.seed = w.Text(value="", placeholder="random", description="Seed")
        self.deal_button = self._button("Deal & play", self._deal_from_form, button_style="primary")
        self.reset_button = self._button("Reset game setup", self.reset_setup)
        self.setup_box = w.VBox(
            [
                self.help_html(["rules", "coach", "scores", "saving"], title="Guide"),
                w.HTML("<h3>Players</h3>"), self.players, self.seat_rows,
                self.help_html(["Players", "Level", "Style"]),
                w.HTML("<h3>Coaching</h3>"), w.HBox([self.coach_pick, self.coaching]), self.coach_about,
                self.help_html(["Coaching", "Coach style", "Automate Player"]),
                w.HTML("<h3>Rules</h3>"), self.preset, self.help_html(["Global Setting Set (preset)"]),
                self.clear4_note, w.GridBox(
                    list(self.rule_widgets.values()),
                    layout=w.Layout(grid_template_columns="repeat(auto-fill, minmax(300px, 1fr))"),
                ),
                self.help_html(list(RULES_FIELDS)),
                w.HTML("<h3>Table</h3>"), w.HBox([self.pile_counts, self.dim, self.pacing]), self.view_pick, self.seed,
                self.help_html(["Pile Counts", "Dim non-playable Cards", "Pause between Players", "View", "Seed"]),
                w.HBox([self.deal_button, self.reset_button]),
            ]
        )  # fmt: skip
        # play controls
        self.step_pacing = w.ToggleButtons(options=list(PACING), value="Auto", description="Pacing")
        self.step_pacing.observe(lambda c: self._ui(self.set_pacing, c["new"]), "value")
        self.next_button = self._button("Next", self.next)
        self.automate = w.ToggleButton(value=False, description="🤖 Automate Player", layout=w.Layout(width="auto"))
        self.automate.observe(lambda c: self._ui(self.set_automate, c["new"]), "value")
        self.new_game_button = self._button("New game", self.reset_play)
        self.controls = w.HBox([self.step_pacing, self.next_button, self.automate, self.new_game_button])
        # coach panel
        self.panel_coach = w.Dropdown(options=list(COACHES), value="Madonna", description="Coach")
        self.panel_coach.observe(lambda c: self._ui(self.set_coach, c["new"]), "value")
        self.panel_about = w.HTML()
        self.advice_html = w.HTML()
        self.coach_play_button = self._button("Coach: Play", self.coach_play, button_style="success")
        self.coach_play_button.add_class("cut-coach-play")
        self.analysis = w.ToggleButton(value=False, description="Open the analysis", layout=w.Layout(width="auto"))
        self.analysis.observe(lambda c: self._ui(self.open_analysis, c["new"]), "value")
        self.compare_button = self._button("Compare all three", self.compare_coaches)
        self.analysis_html = w.HTML()
        self.analysis_html.add_class("cut-movetable")
        self.coach_body = w.VBox(
            [
                w.HBox([self.panel_coach]), self.panel_about, self.advice_html, self.coach_play_button,
                w.HBox([self.analysis, self.compare_button]), self.analysis_html,
            ]
        )  # fmt: skip
        self.coach_panel = w.Accordion(children=[self.coach_body], titles=("Coaching",), selected_index=0)
        self.coach_panel.observe(lambda c: self._ui(self.set_coach_panel, c["new"] == 0), "selected_index")
        self.play_box = w.VBox([self.controls, self.coach_panel])
        # scores
        self.this_game = w.HTML()
        self.replay_pick = w.Dropdown(options=[], description="Hand")
        self.replay_button = self._button("Replay hand", self._replay_from_form)
        self.replay_box = w.VBox()
        self.games = w.SelectMultiple(options=[], description="Games", layout=w.Layout(width="95%"))
        self.games.observe(lambda _c: self.refresh_scores(), "value")
        self.games_detail = w.HTML()
        self.delete_button = self._button("Delete selected", self._delete_from_form, button_style="danger")
        self.export_button = self._button("Export CSV", self._export_from_form)
        self.export_note = w.HTML()
        self.print_button = self._button("Print selected", self._print_from_form)
        self.stored_pick = w.Dropdown(options=[], description="Stored hand")
        self.stored_button = self._button("Replay stored hand", self._stored_from_form)
        self.scores = w.Accordion(
            children=[
                w.VBox([
                    w.HTML("<h4>This game</h4>"), self.this_game, w.HBox([self.replay_pick, self.replay_button]),
                    self.replay_box, w.HTML("<h4>Games played</h4>"), self.games, self.games_detail,
                    w.HBox([self.stored_pick, self.stored_button]),
                    w.HBox([self.print_button, self.delete_button, self.export_button]), self.export_note,
                ])
            ],
            titles=("Scores",),
        )  # fmt: skip
        self.root = w.VBox([self.table, self.resume_box, self.setup_box, self.play_box, self.scores])
        self.root.add_class("cut-app")

    def _rule_widgets(self) -> dict[str, w.Widget]:
        ranks = [("None (only Jokers)", 0)] + [(card_name(r), r) for r in range(1, 14)]
        specs: dict[str, w.Widget] = {
            "cards_dealt": w.Dropdown(options=[19, 20], description="Cards Dealt"),
            "clear_value": w.Dropdown(options=[25, 50], description="Clear Card value"),
            "game_end_total": w.Dropdown(options=[300, 500], description="Game End Total"),
            "four_plus_clears": w.Checkbox(description="4+ Card Clears"),
            "clear_rank": w.Dropdown(options=ranks, description="Clear card"),
            "card_scoring": w.Dropdown(options=[("Rank value", "rank"), ("A–9 = 5", "flat5")],
                                       description="Card scoring"),
            "bust_penalty": w.Dropdown(options=[("Off", 0), ("25", 25), ("50", 50)], description="Bust penalty"),
            "risk_play": w.Checkbox(description="Risk Play"),
            "piles_face_down": w.Checkbox(description="Piles Face Down"),
            "pile_card_flip": w.Checkbox(description="Pile Card Flip"),
            "end_condition": w.Dropdown(options=[("Score total", "score"), ("After N rounds", "rounds")],
                                        description="End condition"),
            "rounds": w.BoundedIntText(min=1, max=100, description="Rounds"),
            "decks": w.Dropdown(options=[("Auto", 0)] + [(str(n), n) for n in range(1, 13)], description="Decks"),
        }  # fmt: skip
        for name, widget in specs.items():
            widget.style = {"description_width": "initial"}
            # A dropdown shows None as no choice at all, so Auto decks and "only Jokers" travel as 0.
            widget.observe(lambda c, name=name: self._ui(self.set_rule, name, _from_form(name, c["new"])), "value")
        return specs

    def _seat_row(self, seat: int) -> w.HBox:
        s = self.setup.seats[seat]
        taken = {x.colour for i, x in enumerate(self.setup.seats) if i != seat}
        name = w.Text(value=s.name, description="You" if seat == YOU else f"Seat {seat}",
                      layout=w.Layout(width="220px"))  # fmt: skip
        colour = w.Dropdown(options=[c for c in COLOURS if c not in taken], value=s.colour,
                            layout=w.Layout(width="110px"))  # fmt: skip
        level = w.Dropdown(options=list(LEVELS), value=s.level, layout=w.Layout(width="130px"))
        style = w.Dropdown(options=list(STYLES), value=s.style, layout=w.Layout(width="120px"))
        name.observe(lambda c: self._ui(self.set_name, seat, c["new"]), "value")
        colour.observe(lambda c: self._ui(self.set_colour, seat, c["new"]), "value")
        level.observe(lambda c: self._ui(self.set_level, seat, c["new"]), "value")
        style.observe(lambda c: self._ui(self.set_style, seat, c["new"]), "value")
        swatch = w.HTML(f'<span style="display:inline-block;width:14px;height:14px;border-radius:50%;'
                        f'background:{COLOURS[s.colour]}"></span>')  # fmt: skip
        return w.HBox([swatch, name, colour, level, style])

    # -- form helpers -------------------------------------------------------------------------------------

    def _deal_from_form(self) -> None:
        text = self.seed.value.strip()
        if text and not text.isdigit():
            raise ValueError("the seed is a whole number (or blank for a random deal)")
        self.deal(int(text) if text else None)

    def reset_play(self) -> None:
        """Leave the table for the setup screen; the saved game stays until a new game deals."""
        self.game = None
        self.ai = []
        self._undo = []
        self.log = []
        self.refresh()

    def _replay_from_form(self) -> None:
        if self.replay_pick.value is None:
            raise ValueError("no finished hand to replay yet")
        self.open_replay(int(self.replay_pick.value))

    def _print_from_form(self) -> None:
        self.print_view(list(self.games.value) or None)

    def _stored_from_form(self) -> None:
        if self.stored_pick.value is None:
            raise ValueError("select a game played to replay one of its hands")
        self.open_stored_replay(*self.stored_pick.value)

    def _delete_from_form(self) -> None:
        self.delete_games(list(self.games.value))

    def _export_from_form(self) -> None:
        self.export_csv(game_ids=list(self.games.value) or None)

    # -- refreshing ---------------------------------------------------------------------------------------

    def refresh_setup(self, rebuild: bool = False) -> None:
        """Redraw the setup form from :attr:`setup`."""
        self._syncing = True
        try:
            if rebuild or len(self.seat_rows.children) != len(self.setup.seats):
                self.seat_rows.children = [self._seat_row(i) for i in range(len(self.setup.seats))]
            rules = self.setup.rules
            seats = list(range(2, (CLEAR4_MAX_PLAYERS if rules.clear4 else 8) + 1))
            if list(self.players.options) != seats:
                self.players.options = seats
            self.players.value = rules.players
            preset = rules.preset
            options = list(PRESETS) + (["Custom"] if preset == "Custom" else [])
            if list(self.preset.options) != options:
                self.preset.options = options
            self.preset.value = preset
            for name, widget in self.rule_widgets.items():
                value = getattr(rules, name)
                widget.value = 0 if value is None and name in _NONE_AS_ZERO else value
                # Clear 4 has only its seats and rounds (R22): its other settings are not offered
                shown = not rules.clear4 or name in CLEAR4_SETTINGS
                widget.layout.display = "" if shown else "none"
                widget.disabled = not shown
            self.clear4_note.layout.display = "" if rules.clear4 else "none"
        finally:
            self._syncing = False
        self.refresh()

    def refresh(self) -> None:
        """Redraw everything from the game and setup: one message per trait, batched."""
        self._syncing = True
        try:
            with self.table.hold_sync():
                self._refresh()
        finally:
            self._syncing = False

    def _refresh(self) -> None:
        game, setup = self.game, self.setup
        playing = game is not None
        self.resume_box.layout.display = "" if self.resume_label and not playing else "none"
        self.continue_button.description = self.resume_label or "Continue"
        self.setup_box.layout.display = "none" if playing or self.resume_label else ""
        self.play_box.layout.display = "" if playing else "none"
        self.coach_pick.value = self.panel_coach.value = setup.coach
        self.coach_about.value = self.panel_about.value = f"<i>{escape(COACHES[setup.coach])}</i>"
        self.coaching.value = setup.coaching
        self.pile_counts.value = setup.pile_counts
        self.dim.value = setup.dim
        self.pacing.value = self.step_pacing.value = setup.pacing
        self.analysis.value = self.analysis_open
        self.refresh_scores()
        if game is None:
            self.table.table = {"mode": "idle", "status": "Set up a game" if not self.resume_label else "",
                                "last": self.last}  # fmt: skip
            return
        state = game.state
        self.automate.value = game.automated[YOU]
        advice = self.advice()
        hints = self.hint_count()
        show = advice is not None and hints > 0 and self.coach_open
        waiting = not state.over and (state.turn != YOU or game.automated[YOU])
        step = ""
        if state.over and not game.over:
            step = "Continue"
        elif waiting and setup.pacing == "Step":
            step = "Next"
        self.next_button.description = step or "Next"
        self.next_button.disabled = not step
        self.table.table = _table(self, state, advice if show else None, step)
        self._refresh_coach(advice, hints)

    def _refresh_coach(self, advice: Advice | None, hints: int) -> None:
        state = self.state
        if advice is None or state is None:
            who = "" if state is None or state.over else f"Waiting for {self._need_game().names[state.turn]}…"
            self.advice_html.value = f"<i>{escape(who)}</i>"
            self.coach_play_button.layout.display = "none"
            self.analysis_html.value = ""
            self.compare_button.disabled = True
            return
        self.compare_button.disabled = False
        names = self._need_game().names
        label = move_label(advice.move, state, names)
        if hints <= 0:
            self.advice_html.value = (
                "<i>Expert: no hints. Open the analysis to see the coach's view.</i>"
                if self.setup.coaching else "<i>Coaching is off. Open the analysis to see the coach's view.</i>"
            )  # fmt: skip
            self.coach_play_button.layout.display = "none"
        else:
            parts = [f"<b>{escape(advice.coach)} recommends: {escape(label)}</b>", f"<p>{escape(advice.text)}</p>"]
            if advice.plan and hints > 1:
                parts.append(f"<p><i>Plan:</i> {escape(advice.plan)}</p>")
            if hints > 1:
                others = [move_label(c.move, state, names) for c in advice.candidates[1:hints]]
                if others:
                    parts.append(f"<p>Also worth a look: {escape(', '.join(others))}</p>")
            self.advice_html.value = "".join(parts)
            self.coach_play_button.description = f"Coach: {label}"
            self.coach_play_button.layout.display = ""
        if self.analysis_open:
            frame = advice.to_frame()
            html = frame.to_html(index=False, float_format=lambda x: f"{x:.1f}", border=0)
            if self.comparing:
                compared = compare(view(state, YOU), level=self.setup.seats[YOU].level, names=self._need_game().names)
                html += "<h4>All three coaches</h4>" + compared.to_html(
                    index=False, border=0, float_format=lambda x: f"{x:.1f}"
                )
            self.analysis_html.value = html
        else:
            self.analysis_html.value = ""

    def refresh_scores(self) -> None:
        """Redraw this game's score table and the list of games played."""
        game = self.game
        if game is not None:
            self.this_game.value = game_table(game.names, game.results)
            options = [(f"Hand {r.number}", r.number) for r in game.results]
            if list(self.replay_pick.options) != options:
                self.replay_pick.options = options
                self.replay_pick.value = options[-1][1] if options else None
        else:
            self.this_game.value = "<p><i>No game in play.</i></p>"
        games = self.history.games()
        options = [(history_summary(g), g["id"]) for g in games]
        if list(self.games.options) != options:
            self.games.options = options
        chosen = {g["id"]: g for g in games if g["id"] in set(self.games.value)}
        stored = [
            (f"Game #{i}, hand {h}", (i, h)) for i in chosen for h in sorted({r["hand"] for r in self.history.hands(i)})
        ]
        if list(self.stored_pick.options) != stored:
            self.stored_pick.options = stored
        self.games_detail.value = "".join(
            f"<p>{escape(history_summary(g))}</p>{history_hands(g['names'], self.history.hands(i))}"
            for i, g in chosen.items()
        )


def _hidden(state: State, seat: int) -> int:
    """How many of a seat's stack cards are face-down: fewer after a move means it turned a hidden card."""
    return sum(not card & UP for stack in state.stacks[seat] for card in stack)


def _display_name(card: int, clear4: bool) -> str:
    """A card as the table shows it: Clear 4 writes its 1 as ``1`` and its special cards in words (R22)."""
    name = card_name(card)
    if clear4:
        return {"A": "1", "P": "PUSH", "J*": "JOKER", "CL": "CLEAR"}.get(name, name)
    return name


def _table(app: GameApp, state: State, highlight: Advice | None, step: str) -> dict[str, Any]:
    from .table import table_data

    game = app._need_game()
    if state.over:
        if state.winner is not None:
            status = f"{game.names[state.winner]} went out — hand {game.hand_number} over"
        else:
            status = "Stalemate — hand over"
        if game.over:
            status += " · Game over: " + ", ".join(game.names[s] for s in game.winners) + " win"
    elif state.turn == YOU:
        status = "Your turn" + (" (automated)" if game.automated[YOU] else "")
        if state.rules.clear4 and state.phase == "push":
            status += " — your blind PUSH: choose who gets the pile"
        elif state.rules.clear4 and state.phase == "add":
            status += " — add matching cards, or Add none"
    else:
        status = f"{game.names[state.turn]} to play"
    return table_data(
        state, YOU, names=game.names, colours=[COLOURS[s.colour] for s in app.setup.seats],
        automated=game.automated, highlight=highlight.move if highlight else None, can_undo=app.can_undo(),
        pile_counts=app.setup.pile_counts, status=status, last=app.last, step=step, dim=app.setup.dim,
        legend={icon: guide_url(topic, base=app.guide) for icon, topic in LEGEND_TOPICS.items()},
    )  # fmt: skip
