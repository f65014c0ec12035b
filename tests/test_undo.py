"""C9 in the app, game by game: *Undo last play* takes back your own last play until the next seat acts, but never a
play that turned a hidden card face up, which the play's outcome names (its ``turned`` cards)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

from cut_tutor.engine import State
from cut_tutor.engine.rules import CLEAR4
from cut_tutor.widgets import GameApp
from cut_tutor.widgets.table import IntentError


def app_at(home: Path, seats: list[dict[str, Any]], pile: str = "", preset: str = "USA", **rules: Any) -> GameApp:
    """An app whose hand is this two-seat position (CUT's ``rules``, or Clear 4's preset), seat 0 (you) to move,
    Step pacing so that nothing is played after your move."""
    app = GameApp(home)
    app.set_players(len(seats))
    app.set_preset(preset)
    for name, value in rules.items():
        app.set_rule(name, value)
    app.set_pacing("Step")
    app.deal(seed=3)
    assert app.game is not None
    full = [{"hand": s.get("hand", ""), "stacks": [*s.get("stacks", ()), "", "", "", ""][:4]} for s in seats]
    data = {"rules": app.setup.rules.to_dict(), "turn": 0, "dealer": len(seats) - 1, "pile": pile, "seats": full}
    app.game.state = State.from_position(data)
    app.refresh()
    return app


def undoable(app: GameApp, move: str) -> bool:
    """Play ``move``, then whether Undo offers to take it back; when it does, taking it back restores the position
    exactly, and when it does not, asking anyway is refused with the reason and changes nothing."""
    assert app.state is not None
    before = app.state.to_position()
    app.play(move)
    after = app.state.to_position()
    if app.can_undo():
        assert app.table.table["undo"]
        app.undo()
        assert app.state.to_position() == before
        return True
    assert not app.table.table["undo"]
    with pytest.raises(IntentError, match="no play of yours to undo"):
        app.undo()
    assert app.state.to_position() == after
    return False


class TestCut:
    """C9 in CUT: a blind card (R12), a gamble (R17) and a card turned up (R18) are never taken back."""

    def test_a_hand_play_is_taken_back(self, tmp_path: Path) -> None:
        assert undoable(app_at(tmp_path, [{"hand": "7 7 5", "stacks": ["[3] 8"]}, {"hand": "K K"}], "9@1"), "2×7")

    def test_a_board_card_that_uncovers_a_risk_card_is_taken_back(self, tmp_path: Path) -> None:
        """Playing a Board card leaves its Risk card face down: nothing hidden was shown (R5, R7)."""
        app = app_at(tmp_path, [{"hand": "", "stacks": ["[3] 8", "[4] 6"]}, {"hand": "K K"}], "9@1")
        assert undoable(app, "1×8 s1")

    def test_a_blind_play_is_not(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, [{"hand": "", "stacks": ["[3]", "[4]"]}, {"hand": "K K"}], "9@1")
        assert not undoable(app, "flip 1")

    def test_a_gamble_is_not_though_the_play_before_it_was(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, [{"hand": "8", "stacks": ["[5] 8", "[6] 3"]}, {"hand": "K K"}], "Q@1", risk_play=True)
        app.play("2×8 s1")
        assert app.can_undo()  # the Board card's play turned nothing
        assert not undoable(app, "gamble 1")

    def test_a_card_turned_up_is_not(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, [{"hand": "", "stacks": ["[3] [5]"]}, {"hand": "K K"}], "9@1", piles_face_down=True,
                     pile_card_flip=True)  # fmt: skip
        assert not undoable(app, "turn up 1")


class TestClear4:
    """C9 in Clear 4 (R22): a middle card turned up beneath a top card played, or the final card played blind."""

    def test_a_hand_play_is_taken_back(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, [{"hand": "5 4", "stacks": ["[2] [9] 6"]}, {"hand": "8 8"}], "7@1", CLEAR4)
        assert undoable(app, "1×5")

    def test_a_top_card_over_the_final_card_is_taken_back(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, [{"hand": "4", "stacks": ["[2] 6"]}, {"hand": "8 8"}], "7@1", CLEAR4)
        assert undoable(app, "1×6 s1")

    def test_a_top_card_that_turns_up_the_middle_card_is_not(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, [{"hand": "4", "stacks": ["[2] [9] 6"]}, {"hand": "8 8"}], "7@1", CLEAR4)
        assert not undoable(app, "1×6 s1")

    def test_a_clear_or_push_from_a_stack_that_turns_up_the_middle_card_is_not(self, tmp_path: Path) -> None:
        app = app_at(tmp_path / "clear", [{"hand": "4", "stacks": ["[2] [9] CL"]}, {"hand": "8 8"}], "7@1", CLEAR4)
        assert not undoable(app, "clear s1")
        app = app_at(tmp_path / "push", [{"hand": "4", "stacks": ["[2] [9] P"]}, {"hand": "8 8"}], "7@1", CLEAR4)
        assert not undoable(app, "push s1 → 1")

    def test_the_final_card_played_blind_is_not(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, [{"hand": "", "stacks": ["[5]", "[4]"]}, {"hand": "8 8"}], "7@1", CLEAR4)
        assert not undoable(app, "flip 1")
