"""Two cases the other tests let through: five of a rank in one USA play, and undo after Automate turned a card."""

from __future__ import annotations

from pathlib import Path

import pytest

from cut_tutor.engine import Move, Rules, State


def _holding_five_nines(pile: str = "") -> State:
    return State.from_position(
        {
            "rules": Rules(players=2).to_dict(),
            "dealer": 1,
            "turn": 0,
            "pile": pile,
            "seats": [{"hand": "9 9 9 9 9 5", "stacks": ["", "", "", ""]}, {"hand": "K", "stacks": ["", "", "", ""]}],
        }
    )


class TestR10FiveOfARank:
    """R10 with 4+ Card Clears off (USA): no play lays more of a rank than it takes to reach four on the pile."""

    def test_five_of_a_rank_on_an_empty_pile_is_refused(self) -> None:
        state = _holding_five_nines()
        assert [m.n for m in state.legal_moves() if m.rank == 9] == [1, 2, 3, 4]
        assert "R10" in (state.why_illegal(Move.parse("5×9")) or "")

    def test_five_of_a_rank_onto_a_run_is_refused_beyond_four(self) -> None:
        state = _holding_five_nines(pile="9@1 9@1")
        assert [m.n for m in state.legal_moves() if m.rank == 9] == [1, 2]
        for n in (3, 4, 5):
            assert state.why_illegal(Move.parse(f"{n}×9")) is not None


pytest.importorskip("anywidget")

from cut_tutor.engine.moves import FLIP  # noqa: E402
from cut_tutor.widgets import GameApp  # noqa: E402
from cut_tutor.widgets.table import IntentError  # noqa: E402


def test_no_undo_after_automate_turned_a_blind_card_for_you(tmp_path: Path) -> None:
    """C9: a card Automate Player turned for you is as public as one you turned; taking over cannot undo it."""
    app = GameApp(tmp_path)
    app.set_rule("piles_face_down", True)
    app.set_pacing("Step")
    app.deal(seed=5)
    app.set_automate(True)
    assert app.game is not None
    blind_turns = 0
    for _ in range(400):
        state = app.game.state
        if state.over:
            break
        mine = state.turn == 0
        app.next()
        state = app.game.state
        if mine and state.moves[-1].kind == FLIP and state.turn == 0 and not state.over:
            blind_turns += 1
            app.set_automate(False)  # you take over right after the blind card
            assert not app.can_undo() and not app.table.table["undo"]
            with pytest.raises(IntentError, match="no play of yours to undo"):
                app.undo()
            app.set_automate(True)
    assert blind_turns > 0, "Automate never turned a blind card for you: the case was not tested"


def test_no_undo_of_your_play_once_automate_has_played_after_it(tmp_path: Path) -> None:
    """C9: undo takes back your last play only while nothing has been played since, by the coach either."""
    from tests.test_widgets import app_at

    position = {
        "rules": Rules(players=2).to_dict(),
        "dealer": 1,
        "turn": 0,
        "pile": "9@1",
        "seats": [{"hand": "10 5 5 3 3", "stacks": ["", "", "", ""]}, {"hand": "K Q", "stacks": ["", "", "", ""]}],
    }
    app = app_at(tmp_path, position, pacing="Step")
    app.play("clear 10")  # a clear: your turn again (R9), and your play to undo
    assert app.can_undo()
    app.set_automate(True)
    app.next()  # the coach plays your seat
    app.set_automate(False)
    assert not app.can_undo()
    with pytest.raises(IntentError, match="no play of yours to undo"):
        app.undo()
