"""The play loop: deal, your moves and the AI's, pacing, undo, Automate Player, and the saved game.

After every change the loop lets the AI seats move (Auto pacing), records a finished game in the history,
saves a game in progress and redraws the app. It narrates each move in the Play Bar. With an ``auto_delay`` Auto
plays one AI move per tick of the kernel's event loop, so the learner sees each land and the controls stay live;
while Automate Player plays your seat the ticks come without the delay, playing the hand out.

A change lands together with its save or not at all: when the save cannot be written (a full disk) the game
goes back to where it was and the refusal says why, so the table, the save and the game always agree. The saves
themselves, and the offer of saved games, are :mod:`.saved_games`'s.

The loop owns the game's state, its :attr:`~PlayLoop.sitting`: it alone replaces it, the other rooms read it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

import ipywidgets as w

from cut_tutor.coach import Advice
from cut_tutor.engine import Game, Move, State, view
from cut_tutor.engine.cards import RANK_MASK, UP, cards_of
from cut_tutor.engine.moves import FLIP, GAMBLE

from ..engine.outcome import BUST, CLEAR, NATURAL, OUT, Outcome
from ..engine.words import acts, busts_mark, face, hand_over_title
from ..guide_links import guide_url
from .saved_games import SavedGames, SaveFailed, TakenOver
from .shared import PACING, YOU, Host, Setup, Sitting, seat_ai, seats_ai
from .table import COLOURS, IntentError, move_label, table_data
from .words import (
    CONTINUE,
    NEXT,
    NEXT_HAND,
    bust_addon,
    code_note,
    cut_line,
    pause_line,
    play_bar,
    turn_status,
)

#: The guide section each legend entry opens.
LEGEND_TOPICS = {"💥": "bust", "🃏": "known", "🤖": "Automate Player", "D": "dealer", "S": "clear"}

P = ParamSpec("P")
R = TypeVar("R")


def _all_or_nothing(change: Callable[Concatenate[PlayLoop, P], R]) -> Callable[Concatenate[PlayLoop, P], R]:
    """A change to the game that lands with its save, or is taken back whole and refused with the reason."""

    def guarded(loop: PlayLoop, /, *args: P.args, **kwargs: P.kwargs) -> R:
        sitting = loop.sitting
        game = sitting.game.copy() if sitting.game is not None else None
        before = dataclasses.replace(sitting, game=game), list(loop._undo), loop._recorded, loop.pause
        # a seat's Level and Style are frozen: its generator's state is all a change can move (cheaper than a copy)
        draws = [seat.rng.getstate() for seat in sitting.ai]
        try:
            return change(loop, *args, **kwargs)
        except SaveFailed as exc:
            continued = loop.sitting.setup is not sitting.setup  # a Continue: its game's setup, form and claim
            loop.sitting, loop._undo, loop._recorded, loop.pause = before
            for seat, state in zip(loop.sitting.ai, draws, strict=True):
                seat.rng.setstate(state)
            loop.cancel_tick()  # Auto stops where the refusal says, rather than failing again at every tick
            if isinstance(exc, TakenOver) or continued:
                # the game is left (a Continue's claim given up) and the saved games are offered again
                loop.end_game()
                loop.saved.check_resume()
            if continued:
                loop.host.refresh_setup(rebuild=True)  # the form shows the setup taken back, then the whole app
            else:
                loop.host.refresh()
            raise IntentError(str(exc)) from None

    functools.update_wrapper(guarded, change)
    return guarded


class PlayLoop:
    """Dealing and playing, each change saved by :attr:`saved`; :attr:`controls` are the play controls."""

    def __init__(self, host: Host, saved: SavedGames, auto_delay: float = 0.0) -> None:
        self.host, self.saved = host, saved
        #: The game's state: this loop alone replaces it.
        self.sitting = Sitting(Setup.default())
        #: Auto pacing's pause before each AI move, in seconds; 0 plays the AI seats at once.
        self.auto_delay = auto_delay
        self._tick: asyncio.TimerHandle | None = None
        self._undo: list[tuple[State, int]] = []
        self._recorded: Game | None = None
        #: Step pacing's pause after an AI seat's clear or bust: what the table shows until *Continue*.
        self.pause: dict[str, Any] | None = None
        #: The Title Bar's links into the guide.
        self.links = {topic: guide_url(topic, base=host.guide) for topic in ("guide", "scores")}
        controls = host.controls
        # Next, Automate Player and New game are the table's own buttons (each control once): only pacing is here
        self.step_pacing = w.ToggleButtons(options=list(PACING), value="Step", description="Pacing")
        controls.watch(self.step_pacing, host.set_pacing)
        self.controls = w.HBox([self.step_pacing])
        self.controls.add_class("cut-play-controls")

    @property
    def last(self) -> str:
        """What happened since your last move: the Play Bar's latest action."""
        return " · ".join(self.sitting.log[-(self.sitting.setup.rules.players) :])

    def note(self, text: str) -> None:
        """Add a line to the Play Bar."""
        self.sitting = dataclasses.replace(self.sitting, log=(*self.sitting.log[-20:], text))

    # -- dealing ------------------------------------------------------------------------------------------

    @_all_or_nothing
    def continue_game(self, uid: str | None = None) -> None:
        """Resume a saved game (the newest unless ``uid`` names one) with the rules and seats it was saved with;
        a game open in another tab is taken over, and that tab stops playing it."""
        game = self.saved.load(uid)
        setup = self.saved.setup_of(game)
        self.sitting = dataclasses.replace(self.sitting, setup=setup, game=game, ai=seats_ai(setup, game))
        self._undo = []
        self.pause = None
        self.saved.resumed()
        self.note("Game resumed")
        self.host.refresh_setup(rebuild=True)
        self._advance()

    @_all_or_nothing
    def deal(self, seed: int | None = None, code: str | None = None) -> None:
        """Start a new game from the setup (a seed makes it reproducible); other saved games wait for Continue.

        A deal ``code`` (``4-3-20-0-7K``) deals its own first hand, which must fit the setup's seats, decks and
        cards dealt; the seed deals the hands after it, and the save keeps both.
        """
        setup = self.sitting.setup
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        first = code.strip() if code is not None else None
        game = Game(setup.rules, seed, [s.name for s in setup.seats], first)
        game.automated[YOU] = setup.automate  # Automate Player chosen in setup plays from the first move
        self.sitting = Sitting(setup, game, seats_ai(setup, game))
        self._undo = []
        self.pause = None
        self.note(acts(game.names[game.dealer], "deal"))
        if game.first is not None:
            self.note(code_note(game.first))
        self.saved.dealt()
        self._advance()

    @_all_or_nothing
    def next_hand(self) -> None:
        """Deal the next hand once this one is over (R6)."""
        game = self.sitting.need_game()
        if not game.state.over:
            raise IntentError("the hand is still being played")
        if game.over:
            raise IntentError("the game is over: deal a new game")
        game.next_hand()
        self._undo = []
        self.pause = None
        self.note(f"Hand {game.hand_number}: {acts(game.names[game.dealer], 'deal')}")
        self._advance()

    def reseat(self, seat: int) -> None:
        """A game in play takes a seat's new Level or Style (from the setup) at once."""
        sitting = self.sitting
        if sitting.game is not None:
            ai = list(sitting.ai)
            ai[seat] = seat_ai(sitting.setup, seat, sitting.game)
            self.sitting = dataclasses.replace(sitting, ai=tuple(ai))

    def end_game(self) -> None:
        """Leave the game in play without a redraw; the saved game stays on disk."""
        self.cancel_tick()
        self.sitting = Sitting(self.sitting.setup)
        self._undo = []
        self.pause = None
        self.host.saves.release()

    def reset_setup(self) -> None:
        """Leave the game in play without a redraw (its save stays) and put the setup back to its defaults: what is
        kept is :meth:`Setup.reset`'s."""
        self.end_game()
        self.sitting = Sitting(self.sitting.setup.reset())

    def reset_play(self) -> None:
        """Leave the table for the setup screen; the saved game stays for Continue."""
        self.end_game()
        self.host.refresh()

    # -- playing ------------------------------------------------------------------------------------------

    @_all_or_nothing
    def play(self, text: str | Move) -> None:
        """Play a move for your seat; anything illegal raises and leaves the game untouched."""
        game = self.sitting.need_game()
        state = game.state
        if state.over:
            raise IntentError("the hand is over")
        if state.turn != YOU:
            raise IntentError(f"it is {game.names[state.turn]}'s turn, not yours")
        move = text if isinstance(text, Move) else Move.parse(text)
        reason = state.why_illegal(move)
        if reason is not None:
            raise IntentError(f"{move_label(move, view(state, YOU), game.names)} is not allowed: {reason}")
        snapshot = state.copy()
        self.pause = None  # playing on ends a pause: the pile is as the view shows it
        outcome = self._apply(move)
        # C9: never undo a play that turned a hidden card face up, as its outcome says, nor one that ended the hand
        if outcome.turned or game.state.over:
            self._undo.clear()
        else:
            self._undo.append((snapshot, len(game.state.moves)))
        self._advance()

    def play_then(self, text: str | Move, then: str | Move) -> None:
        """A play and the gamble after it in one step (``Play 2× 9 + Risk pile 2``, R17); both checked first."""
        game = self.sitting.need_game()
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
        advice = self.host.advice()
        if advice is None:
            raise IntentError("the coach has nothing to play: it is not your turn")
        self.play(advice.move)

    def can_undo(self) -> bool:
        """C9: your own last play, until the next seat acts, never one that turned a hidden card."""
        game = self.sitting.game
        if game is None or not self._undo or game.state.over:
            return False
        return self._undo[-1][1] == len(game.state.moves)

    @_all_or_nothing
    def undo(self) -> None:
        """Take back your last play (C9)."""
        if not self.can_undo():
            raise IntentError("there is no play of yours to undo: the next seat has acted, or it turned a card")
        game = self.sitting.need_game()
        self.cancel_tick()
        game.state, _ = self._undo.pop()
        self.pause = None
        self.note("You took back your last play")
        self.saved.save(game)
        self.host.refresh()

    @_all_or_nothing
    def next(self) -> None:
        """Step pacing: end a pause (*Continue*), else play the next AI seat's move; after a hand, deal the next one."""
        game = self.sitting.need_game()
        state = game.state
        if self.pause is not None:
            self.pause = None
            self.host.refresh()
            return
        if state.over:
            self.next_hand()
            return
        if state.turn == YOU and not game.automated[YOU]:
            raise IntentError("it is your turn")
        self._ai_move()
        self._advance(step=False)

    def set_pacing(self, pacing: str) -> None:
        """``Step`` waits for *Next* before each AI move and pauses on a clear or a bust; ``Auto`` plays on."""
        if pacing not in PACING:
            raise ValueError(f"pacing: {pacing!r} is not Step or Auto")
        self.cancel_tick()
        self.sitting.setup.pacing = pacing
        if pacing == "Auto":
            self.pause = None
        if self.sitting.game is not None:
            self._advance()
        else:
            self.host.refresh()

    @_all_or_nothing
    def set_automate(self, on: bool) -> None:
        """Automate Player: the coach plays your seat with your own Style and Level until you take over.

        Before a deal it is the setup's switch: the game then deals with your seat automated.
        """
        game = self.sitting.game
        if game is None:
            self.sitting.setup.automate = bool(on)
            self.host.refresh()
            return
        if game.automated[YOU] == bool(on):
            return  # already so: Esc is sent whatever the page last drew, so a quick one is never lost
        game.automated[YOU] = bool(on)
        self.note("Automate Player on" if on else "You have the controls")
        self._advance()

    # -- Auto pacing's ticks ------------------------------------------------------------------------------

    @property
    def tick_pending(self) -> bool:
        """Auto pacing has an AI move waiting for its delay."""
        return self._tick is not None

    def cancel_tick(self) -> None:
        """Drop the AI move waiting for its delay (a new move, a pacing change, the end of the game)."""
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def run_pending(self, ticks: int | None = None) -> int:
        """Play the waiting AI moves now, one tick at a time (all of them unless ``ticks`` says how many); returns
        how many were played. The twin of waiting out Auto pacing's delay."""
        played = 0
        while self._tick is not None and (ticks is None or played < ticks):
            self._tick.cancel()
            self._on_tick()
            played += 1
        return played

    def _ai_to_move(self, game: Game) -> bool:
        return not game.state.over and (game.state.turn != YOU or game.automated[YOU])

    def _events(self) -> asyncio.AbstractEventLoop | None:
        """The event loop that waits out Auto pacing's delay (a kernel's, answering the page), or ``None`` when the
        AI seats play at once: no delay, or no event loop running to wait on."""
        if self.auto_delay <= 0:
            return None
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def _on_tick(self) -> None:
        self._tick = None
        self.host.controls.run(self._play_tick)  # a refusal (a save that failed) shows in the table's error line

    @_all_or_nothing
    def _play_tick(self) -> None:
        """One AI move of Auto pacing, with its redraw and save; the next waits for its own tick."""
        game = self.sitting.game
        if game is None or self.sitting.setup.pacing != "Auto" or not self._ai_to_move(game):
            return
        self._ai_move()
        self._advance()

    def _ai_move(self) -> None:
        game = self.sitting.need_game()
        seat = game.state.turn
        move = self.sitting.ai[seat].choose_view(view(game.state, seat))
        laid_by = tuple(game.state.pile_by)  # who laid each pile card: the pause shows each in its player's colour
        outcome = self._apply(move)
        if seat != YOU:
            self._undo.clear()
        if self.sitting.setup.pacing == "Step":
            self.pause = _pause(outcome, game, laid_by)

    def _apply(self, move: Move) -> Outcome:
        """Apply a legal move and tell the Play Bar what it did, from the move's outcome."""
        game = self.sitting.need_game()
        state = game.state
        label = move_label(move, view(state, state.turn), game.names)
        outcome = game.play(move)
        # a blind card, and the cards swept away or taken, are public (R9–R12, R22): the Play Bar names them
        turned = face(outcome.turned[0], state.rules.game) if outcome.turned and move.kind in (FLIP, GAMBLE) else ""
        text = play_bar(
            game.names[outcome.seat], label, game=state.rules.game, turned=turned,
            took=sorted(outcome.taken, reverse=True) if outcome.kind == BUST else None,
            swept=sorted(outcome.swept, reverse=True) if outcome.swept else None, went_out=outcome.kind == OUT,
        )  # fmt: skip
        self.note(text)
        return outcome

    def _advance(self, step: bool = True) -> None:
        """After any change: let AI seats move (Auto pacing: at once, or the next after its delay), record a finished
        game, save, redraw."""
        host = self.host
        game = self.sitting.need_game()
        self.cancel_tick()
        auto = self.sitting.setup.pacing == "Auto" and self._ai_to_move(game)
        events = self._events() if auto else None
        while auto and events is None and step and self._ai_to_move(game):
            self._ai_move()
        if game.over:
            if self._recorded is not game:
                self.saved.finish(game)
                self._recorded = game
        else:
            self.saved.save(game)
        host.refresh()
        if events is not None:  # the next AI move waits its delay from the redraw that shows this one
            # Automate Player plays the hand out without the delay, yet a move per tick, so Esc lands between two
            delay = 0.0 if game.automated[YOU] else self.auto_delay
            self._tick = events.call_later(delay, self._on_tick)

    # -- drawing ------------------------------------------------------------------------------------------

    def draw(self, advice: Advice | None, hints: int, coach_open: bool, selected: Move | None = None) -> None:
        """The play controls and the table, the coach's move highlighted when its hints are shown and the play
        chosen from the analysis table selected."""
        host, setup = self.host, self.sitting.setup
        self.step_pacing.value = setup.pacing
        game = self.sitting.game
        if game is None:
            host.table.table = {"mode": "idle", "status": "Set up a game" if not self.saved.resume_label else "",
                                "last": self.last, "links": self.links}  # fmt: skip
            return
        state = game.state
        show = advice is not None and hints > 0 and coach_open
        waiting = self._ai_to_move(game)
        step = ""
        if self.pause is not None:
            step = CONTINUE
        elif state.over and not game.over:
            step = NEXT_HAND
        elif waiting and setup.pacing == "Step":
            step = NEXT
        self.host.table.table = self._table(state, advice if show else None, step, selected)

    def _table(self, state: State, highlight: Advice | None, step: str, selected: Move | None) -> dict[str, Any]:
        host, setup = self.host, self.sitting.setup
        game = self.sitting.need_game()
        winners = [game.names[s] for s in game.winners] if game.over else None
        status = turn_status(view(state, YOU), game.names, game.hand_number, winners, game.automated[YOU])
        cut = [] if game.first else [cut_line(game.cut, game.names, _first_dealer(game), state.rules.game)]
        # the first hand opens on the cut for dealer (R4), which names who deals
        last = cut[0] if cut and game.hand_number == 1 and not state.moves else self.last
        return table_data(
            view(state, YOU), names=game.names, colours=[COLOURS[s.colour] for s in setup.seats],
            automated=game.automated, highlight=highlight.move if highlight else None, selected=selected,
            can_undo=self.can_undo(),
            pile_counts=setup.pile_counts, status=status, last=last, step=step, dim=setup.dim,
            legend={icon: guide_url(topic, base=host.guide) for icon, topic in LEGEND_TOPICS.items()},
            pause=self.pause, hand_over=_hand_over(game, setup) if state.over else None,
            history=[*cut, *self.sitting.log],
            links=self.links,
        )  # fmt: skip


def _pause(outcome: Outcome, game: Game, laid_by: Sequence[int]) -> dict[str, Any] | None:
    """Step pacing's pause after a clear (the swept cards, shown before the pile clears) or a bust; else ``None``.

    ``laid_by`` names who laid each card of the pile before the move; the cards swept or taken are that pile in
    order, then any the move itself laid. Each keeps its player's colour: nobody is credited with another's card.
    """
    kind = "clear" if outcome.kind in (CLEAR, NATURAL) else "bust" if outcome.kind == BUST else None
    if kind is None:
        return None
    cards = outcome.swept if kind == "clear" else outcome.taken
    rules_game = game.rules.game
    by = [*laid_by[: len(cards)], *[outcome.seat] * (len(cards) - len(laid_by))]
    return {
        "kind": kind, "seat": outcome.seat, "cards": [face(c, rules_game) for c in cards], "by": by,
        "text": pause_line(kind, game.names[outcome.seat], cards, rules_game),
    }  # fmt: skip


def _first_dealer(game: Game) -> int:
    """Who won the cut: the first hand's dealer (R4)."""
    return game.results[0].dealer if game.results else game.dealer


def _hand_over(game: Game, setup: Setup) -> dict[str, Any]:
    """The round-over panel: who went out, every seat's cards left with the Risk cards face up (the hand is over,
    so nothing is hidden any more), the hand's points with the bust add-on apart, and the running totals."""
    state = game.state
    name = state.rules.game
    penalty = state.rules.bust_penalty
    scores = state.scores()
    totals = game.totals
    seats = []
    for seat in range(state.players):
        busts = state.busts[seat]
        seats.append({
            "name": game.names[seat], "colour": COLOURS[setup.seats[seat].colour],
            "hand": [face(c, name) for c in cards_of(state.hands[seat])],
            "stacks": [[{"card": face(c & RANK_MASK, name), "risk": not c & UP} for c in stack]
                       for stack in state.stacks[seat]],
            "points": scores[seat] - busts * penalty, "busts": busts_mark(busts),
            "addon": bust_addon(busts, penalty), "score": scores[seat], "total": totals[seat],
        })  # fmt: skip
    winner = game.names[state.winner] if state.winner is not None else None
    over = acts([game.names[s] for s in game.winners], "win") if game.over else ""
    return {"title": hand_over_title(winner), "seats": seats, "game_over": over, "next": "" if game.over else NEXT_HAND}
