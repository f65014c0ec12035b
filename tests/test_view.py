"""A seat's view (C2) has the fields :class:`~cut_tutor.engine.view.ViewFields` declares, no more, and carries the
game module's answer to the pile's questions: its top run (R10, R22), from which the game module says whether a
play completes four; the engine's own clear after the play lands agrees with that answer.

Positions come from random play on random deals under random rules: CUT with every option (R1–R21), and Clear 4
(R22) one time in four.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_native_engine import positions

from cut_tutor.coach import Knowledge
from cut_tutor.coach.knowledge import completes_clear
from cut_tutor.engine import Move, Rules, State, view
from cut_tutor.engine.games import module_of
from cut_tutor.engine.moves import ADD, PLAY
from cut_tutor.engine.outcome import NATURAL, OUT
from cut_tutor.engine.view import PileCard, SeatFields, ViewFields


def keys(declared: Any) -> tuple[frozenset[str], frozenset[str]]:
    """A TypedDict's required keys and every key it allows."""
    return declared.__required_keys__, declared.__required_keys__ | declared.__optional_keys__


def test_every_view_has_exactly_the_declared_fields() -> None:
    """C2: the view is what ViewFields declares, in both games: a field added without being declared fails here."""
    view_required, view_allowed = keys(ViewFields)
    seat_required, seat_allowed = keys(SeatFields)
    pile_required, pile_allowed = keys(PileCard)
    games = set()
    for state in positions(3, 600):
        seen = view(state, state.turn)
        assert view_required <= seen.keys() <= view_allowed
        for info in seen["seats"]:
            assert seat_required <= info.keys() <= seat_allowed
        for entry in seen["pile"]:
            assert pile_required <= entry.keys() <= pile_allowed
        assert ("pile_value" in seen) == state.rules.clear4  # Clear 4 says the value to play to (R22)
        games.add(state.rules.game)
    assert games == {"CUT", "Clear 4"}


def position(game: str, pile: str, hand: str) -> State:
    rules = Rules.from_preset("Clear 4" if game == "Clear 4" else "USA", players=2)
    seats = [{"hand": hand}, {"hand": "3"}]
    return State.from_position({"rules": rules.to_dict(), "pile": pile, "seats": seats, "turn": 0, "dealer": 1})


@pytest.mark.parametrize(
    ("game", "pile", "run"),
    [
        ("USA", "", 0),
        ("USA", "9@1 5@0 5@1 5@0", 3),  # R10: three fives on top, a nine under them
        ("USA", "5@1 9@0", 1),
        ("Clear 4", "5@1 J*@0 5@1", 3),  # R22: a JOKER counts as the five it was laid on
        ("Clear 4", "6@1 5@0 J*@1", 2),
        ("Clear 4", "J*@1 J*@0", 0),  # R22: JOKERs that open the pile have no value and no run
    ],
)
def test_the_view_sends_the_top_run(game: str, pile: str, run: int) -> None:
    """The view's top_run is the game module's count; the coach's knowledge reads it from the view."""
    state = position(game, pile, "2")
    seen = view(state, 0)
    assert seen["top_run"] == run == module_of(state.rules).run(state.pile)
    assert Knowledge.from_view(seen).run == run


def test_a_view_recorded_without_its_top_run_reads_the_same() -> None:
    """Views recorded before views sent ``top_run`` (``benchmarks/results/regret-*.jsonl``, which the tuning scripts
    read) give the coach the same knowledge: the game module counts the run as the view would."""
    runs = set()
    for state in positions(3, 600):
        seen = view(state, state.turn)
        older = {key: value for key, value in seen.items() if key != "top_run"}
        assert Knowledge.from_view(older) == Knowledge.from_view(seen)
        runs.add((state.rules.game, seen["top_run"]))
    assert {("CUT", 3), ("Clear 4", 3)} <= runs


@pytest.mark.parametrize(
    ("game", "pile", "play", "clears"),
    [
        ("USA", "9@1 5@0 5@1 5@0", "1×5", True),  # R10: the fourth five clears
        ("USA", "5@1 5@0 9@1", "2×9", False),
        ("USA", "", "4×5", True),
        ("Clear 4", "5@1 J*@0 5@1", "1×5", True),  # R22: the JOKER counted as a five
        ("Clear 4", "5@1 J*@0 5@1", "1×J*", True),  # JOKERs alone take the pile's value
        ("Clear 4", "J*@1 J*@0", "2×J*", False),  # JOKERs with no number below them never clear
    ],
)
def test_the_game_module_says_whether_a_play_completes_four(game: str, pile: str, play: str, clears: bool) -> None:
    state = position(game, pile, "5 5 5 5 9 9 J* J*" if game == "Clear 4" else "5 5 5 5 9 9")
    move = Move.parse(play)
    assert move in state.legal_moves()
    assert completes_clear(move, Knowledge.from_view(view(state, 0))) is clears
    after = state.copy()
    assert (after.apply(move).kind in (NATURAL, OUT) and not after.pile) is clears


def test_completes_four_is_what_the_engine_clears() -> None:
    """Every play of every position: the game module's answer from the view's fields is the engine's clear once
    the play lands (R10, R22); the coach's and the table's question is this answer."""
    checked = clearing = 0
    for state in positions(5, 1500):
        seen = view(state, state.turn)
        know = Knowledge.from_view(seen)
        game = module_of(state.rules)
        for move in state.legal_moves():
            if move.kind not in (PLAY, ADD) or not (move.size or move.kind == ADD):
                continue
            after = state.copy()
            outcome = after.apply(move)
            swept = outcome.kind in (NATURAL, OUT) and bool(outcome.swept)
            answer = game.completes_four(know.top, seen["top_run"], move)
            assert answer == completes_clear(move, know)
            assert answer == swept, (state.to_position(), str(move))
            checked += 1
            clearing += answer
    assert checked > 1000 and clearing > 10
