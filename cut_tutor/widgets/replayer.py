"""Step through a recorded hand and see, at each move, what the coach would have played instead.

>>> from cut_tutor.engine import Rules, State, record_of
>>> state = State.deal(Rules(players=2), seed=5)
>>> state.play(state.legal_moves()[0]).kind
'landed'
>>> r = Replayer(record_of(state))
>>> r.last(); r.step
1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as w

from cut_tutor.coach import COACHES, advise
from cut_tutor.coach.words import recommends
from cut_tutor.engine import HandResult, Move, Rules, State, codes, record_of, replay, state_from_deal, view
from cut_tutor.engine.cards import UP, card_name, cards_of
from cut_tutor.engine.words import count, seat_names

from .shared import Shown
from .table import COLOURS, TableWidget, move_label, table_data

#: The seat choice that shows every card: a review of a finished record, never of a game in play.
REVIEW = -1


@dataclass(frozen=True)
class Comparison:
    """The move made at one step against the coach's choice for the seat that made it."""

    step: int
    seat: int
    made: Move
    advised: Move
    points: float  # how much more the coach valued its move than the one made (0 when they agree)

    @property
    def differs(self) -> bool:
        return self.made != self.advised


def _label(move: Move, state: State, names: Sequence[str]) -> str:
    """A recorded move's button text, as the seat that made it saw it."""
    return move_label(move, view(state, state.turn), names)


def review_view(state: State, seat: int) -> dict[str, Any]:
    """A seat's view with every hidden card filled in, for reviewing a recorded hand."""
    seen = dict(view(state, seat))
    seats = []
    for info, hand, stacks in zip(seen["seats"], state.hands, state.stacks, strict=True):
        info = dict(info)
        info["hand"] = [card_name(c) for c in cards_of(hand)]
        info["stacks"] = [[card_name(c) for c in stack] for stack in stacks]
        info["down"] = [[not c & UP for c in stack] for stack in stacks]
        seats.append(info)
    seen["seats"] = seats
    return seen


class Replayer(Shown):
    """A recorded hand, one state per move, with first/back/forward/last, a slider and arrow keys."""

    def __init__(
        self,
        record: dict[str, Any],
        *,
        names: Sequence[str] | None = None,
        colours: Sequence[str] | None = None,
        coach: str = "Madonna",
        level: str = "Expert",
    ) -> None:
        first = replay(record, upto=0)
        self.rules = first.rules
        self.moves = [Move.parse(str(m)) for m in record["moves"]]
        self.states = [first]
        for move in self.moves:
            nxt = self.states[-1].copy()
            nxt.play(move)
            self.states.append(nxt)
        players = first.players
        # without names, the seats are named as a new setup names them: the record's seat 0 is You
        self.names = seat_names(players, names)
        self.colours = list(colours) if colours else list(COLOURS.values())[:players]
        self.coach = coach
        self.level = level
        self.seat = 0
        self.step = 0
        self._compared: dict[tuple[int, str], Comparison] = {}
        self._texts: list[str] | None = None  # the move list's words, once worked out
        self._build()
        self.refresh()

    @classmethod
    def from_deal(cls, deal: str, moves: Sequence[str], rules: Rules | None = None, **kwargs: Any) -> Replayer:
        """A replayer from a deal code and the moves played."""
        rules = rules or state_from_deal(deal).rules
        return cls(codes.record(rules, deal, moves), **kwargs)

    @classmethod
    def from_result(cls, result: HandResult, rules: Rules, **kwargs: Any) -> Replayer:
        """A replayer on a finished hand of a game (its :class:`HandResult`)."""
        return cls.from_deal(result.deal, result.moves, rules, **kwargs)

    @classmethod
    def from_state(cls, state: State, **kwargs: Any) -> Replayer:
        """A replayer on a dealt hand so far."""
        return cls(record_of(state), **kwargs)

    # -- stepping -----------------------------------------------------------------------------------------

    def go(self, step: int) -> None:
        """Show the position after ``step`` moves (clamped to the record)."""
        self.step = max(0, min(int(step), len(self.moves)))
        self.refresh()

    def first(self) -> None:
        self.go(0)

    def back(self) -> None:
        self.go(self.step - 1)

    def forward(self) -> None:
        self.go(self.step + 1)

    def last(self) -> None:
        self.go(len(self.moves))

    def set_seat(self, seat: int) -> None:
        """Whose view to show, or :data:`REVIEW` for every card, the Risk cards face up (the app opens only
        finished hands, so a review never shows a hand in play)."""
        if seat != REVIEW and not 0 <= seat < len(self.names):
            raise ValueError(f"seat {seat} is not one of the {len(self.names)} seats")
        self.seat = seat
        self.refresh()

    def set_coach(self, coach: str) -> None:
        if coach not in COACHES:
            raise ValueError(f"coach: {coach!r} is not one of {', '.join(COACHES)}")
        self.coach = coach
        self.refresh()

    # -- the coach against the record ---------------------------------------------------------------------

    def comparison(self, step: int | None = None) -> Comparison | None:
        """The coach's choice against the move made at ``step`` (``None`` after the last move)."""
        step = self.step if step is None else step
        if step >= len(self.moves):
            return None
        key = (step, self.coach)
        if key not in self._compared:
            state = self.states[step]
            seat = state.turn
            advice = advise(view(state, seat), coach=self.coach, level=self.level, names=self.names)
            made = self.moves[step]
            scored = {c.move: c for c in advice.candidates}
            chosen = scored[advice.move]
            # a clear this turn is chosen by its worth for this turn alone (C5): its lead is measured the same way
            by_turn = chosen.clears and not chosen.goes_out
            worth = {move: c.turn_value if by_turn else c.total for move, c in scored.items()}
            best = worth[advice.move]
            points = 0.0 if made == advice.move else round(best - worth.get(made, best), 1)
            self._compared[key] = Comparison(step, seat, made, advice.move, points)
        return self._compared[key]

    @property
    def finished(self) -> bool:
        """Is the record a whole hand, played to its end?"""
        return self.states[-1].over

    def differences(self) -> list[Comparison]:
        """Every step where the move made is not the coach's choice."""
        found = []
        for step in range(len(self.moves)):
            comparison = self.comparison(step)
            if comparison is not None and comparison.differs:
                found.append(comparison)
        return found

    def disagreements(self) -> list[int]:
        """The steps where the coach would have played otherwise: the shown seat's moves, every seat's in review."""
        return [c.step for c in self.differences() if self.seat in (REVIEW, c.seat)]

    def next_disagreement(self) -> int:
        """Go to the next step where the coach would have played otherwise; returns it."""
        later = [step for step in self.disagreements() if step > self.step]
        if not later:
            raise ValueError(f"no later move where {self.coach} would have played otherwise")
        self.go(later[0])
        return self.step

    def previous_disagreement(self) -> int:
        """Go back to the previous step where the coach would have played otherwise; returns it."""
        earlier = [step for step in self.disagreements() if step < self.step]
        if not earlier:
            raise ValueError(f"no earlier move where {self.coach} would have played otherwise")
        self.go(earlier[-1])
        return self.step

    def move_list(self) -> list[tuple[str, int]]:
        """Every move of the record as the list shows it, with the step it goes to; ✗ where the coach differs."""
        if self._texts is None:  # the words of a move never change: worked out once
            self._texts = [
                f"{step + 1}. {self.names[self.states[step].turn]}: {_label(move, self.states[step], self.names)}"
                for step, move in enumerate(self.moves)
            ]
        differs = set(self.disagreements())
        items = [(text + (" ✗" if step in differs else ""), step) for step, text in enumerate(self._texts)]
        return [*items, ("End of the hand" if self.finished else "End of the record", len(self.moves))]

    def _on_intent(self, kind: str, value: Any) -> None:
        keys = {"ArrowLeft": self.back, "ArrowRight": self.forward, "Home": self.first, "End": self.last}
        if kind == "key" and value in keys:
            keys[value]()
            self.table.error = ""
        elif kind == "theme":
            self.table.theme = str(value)
        elif kind not in ("ready", "key"):
            raise ValueError("the replayer only steps through the hand")

    # -- widgets ------------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.table = TableWidget(self._on_intent)
        buttons = []
        for text, action in (("⏮ First", self.first), ("◀ Back", self.back), ("Forward ▶", self.forward),
                             ("Last ⏭", self.last)):  # fmt: skip
            button = w.Button(description=text, layout=w.Layout(width="auto"))
            button.on_click(lambda _b, action=action: action())
            buttons.append(button)
        self.slider = w.IntSlider(min=0, max=len(self.moves), value=0, description="Move",
                                  layout=w.Layout(width="95%"))  # fmt: skip
        self.slider.observe(lambda c: self.go(c["new"]) if c["new"] != self.step else None, "value")
        self.moves_pick = w.Select(options=[], rows=8, description="Moves", layout=w.Layout(width="95%"))
        self.moves_pick.observe(lambda c: self.go(c["new"]) if c["new"] not in (None, self.step) else None, "value")
        jumps = []
        for text, jump in (("◀ Previous disagreement", self.previous_disagreement),
                             ("Next disagreement ▶", self.next_disagreement)):  # fmt: skip
            button = w.Button(description=text, layout=w.Layout(width="auto"))
            button.on_click(lambda _b, jump=jump: self._jump(jump))
            jumps.append(button)
        self.previous_button, self.next_button = jumps
        seats = [(f"Seat view: {n}", i) for i, n in enumerate(self.names)] + [("All cards (review)", REVIEW)]
        self.seat_pick = w.Dropdown(options=seats, value=0, description="Show")
        self.seat_pick.observe(lambda c: self.set_seat(c["new"]), "value")
        self.coach_pick = w.Dropdown(options=list(COACHES), value=self.coach, description="Coach")
        self.coach_pick.observe(lambda c: self.set_coach(c["new"]), "value")
        self.info = w.HTML()
        self.root = w.VBox([w.HBox(buttons), self.slider, w.HBox([self.seat_pick, self.coach_pick]),
                            w.HBox(jumps), self.info, self.table, self.moves_pick])  # fmt: skip
        self.root.add_class("cut-replayer")

    def _jump(self, action: Callable[[], int]) -> None:
        """A disagreement button: nothing further that way is said in the table's error line."""
        try:
            action()
        except ValueError as exc:
            self.table.error = str(exc)
        else:
            self.table.error = ""

    def refresh(self) -> None:
        state = self.states[self.step]
        self.slider.value = self.step
        self.seat_pick.value = self.seat
        self.coach_pick.value = self.coach
        seat = self.seat if self.seat != REVIEW else state.turn % state.players
        data = table_data(view(state, seat), names=self.names, colours=self.colours, mode="replay",
                          status=f"Move {self.step} of {len(self.moves)}", last=self._last_text())  # fmt: skip
        if self.seat == REVIEW:
            data["view"] = review_view(state, seat)
            data["review"] = True
        with self.table.hold_sync():
            self.table.table = data
        items = self.move_list()
        if list(self.moves_pick.options) != items:
            self.moves_pick.options = items
        self.moves_pick.value = self.step
        found = self.disagreements()
        self.previous_button.disabled = not any(step < self.step for step in found)
        self.next_button.disabled = not any(step > self.step for step in found)
        self.info.value = self._info_html()

    def _last_text(self) -> str:
        if self.step == 0:
            return "The deal"
        before = self.states[self.step - 1]
        return f"{self.names[before.turn]}: {_label(self.moves[self.step - 1], before, self.names)}"

    def _info_html(self) -> str:
        comparison = self.comparison() if self.seat in (REVIEW, self.states[self.step].turn) else None
        if self.step >= len(self.moves):
            return "<i>End of the record.</i>"
        state = self.states[self.step]
        made = _label(self.moves[self.step], state, self.names)
        who = escape(self.names[state.turn])
        if comparison is None:
            return f"Next: {who} — {escape(made)}"
        if not comparison.differs:
            return f"Next: {who} — {escape(made)} <span>✓ {escape(self.coach)} agrees</span>"
        advised = recommends(self.coach, _label(comparison.advised, state, self.names))
        return (
            f'Next: {who} — {escape(made)} <span class="cut-differs">✗ {escape(advised)} '
            f"(worth {escape(count(comparison.points, 'point'))} more)</span>"
        )
