"""The Card Clear board widget without a browser: every control's Python twin, and what reaches the page (H8)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from cut_tutor.cardclear import LevelError, Puzzle, SwapError
from cut_tutor.cardclear.hint import hint
from cut_tutor.cardclear.progress import Progress
from cut_tutor.cardclear.widget import BoardApp, PuzzleIntentError, parse_intent


def a_bouncing_swap(app: BoardApp) -> str:
    legal = {str(swap) for swap in app.state.legal_swaps()}
    return next(f"r1c{c}-r1c{c + 1}" for c in range(1, 6) if f"r1c{c}-r1c{c + 1}" not in legal)


class TestPickAndSwap:
    def test_tapping_a_card_picks_it_and_tags_the_neighbours_that_make_a_hand(self) -> None:
        app = BoardApp("12-0")
        swap = app.state.legal_swaps()[0]
        first, second = str(swap).split("-")
        app.pick(first)
        assert app.data["selected"] == first
        assert app.data["tags"][second].split()[-1].isdigit()  # "Trips 30"
        app.pick(first)
        assert app.data["selected"] is None and app.data["tags"] == {}

    def test_tapping_a_neighbour_swaps_and_costs_a_move(self) -> None:
        app = BoardApp("12-0")
        moves = app.state.moves_left
        first, second = str(app.state.legal_swaps()[0]).split("-")
        app.pick(first)
        app.pick(second)
        assert app.state.swaps and app.state.moves_left <= moves and app.data["selected"] is None
        assert app.data["message"].startswith(f"{first}-{second}")

    def test_a_card_that_does_not_touch_is_picked_instead(self) -> None:
        app = BoardApp("12-0")
        app.pick("r1c1")
        app.pick("r3c3")
        assert app.data["selected"] == "r3c3" and not app.state.swaps

    def test_a_swap_that_makes_no_hand_bounces_with_the_reason_and_costs_nothing(self) -> None:
        app = BoardApp("12-0")
        moves = app.state.moves_left
        app.swap(a_bouncing_swap(app))
        assert "makes no hand" in app.data["bounce"] and app.state.moves_left == moves and not app.state.swaps

    def test_a_drag_between_cards_that_do_not_touch_is_refused(self) -> None:
        app = BoardApp("12-0")
        assert not app.widget.receive({"type": "swap", "swap": "r1c1-r3c3"})
        assert "touch" in app.widget.error and not app.state.swaps
        with pytest.raises(SwapError):
            app.swap("r1c1-r1c1")


class TestHintTable:
    def test_the_hint_table_lists_every_swap_with_its_parts_and_marks_the_best(self) -> None:
        app = BoardApp("12-0")
        assert app.data["hint"] is None
        app.show_hint()
        rows = app.data["hint"]["rows"]
        assert {r["swap"] for r in rows} == {str(s) for s in app.state.legal_swaps()}
        assert [r["swap"] for r in rows if r["best"]] == [app.best_swap()]
        assert {"points", "combo", "extra_moves", "goal", "lookahead", "finish", "total", "sure"} <= set(rows[0])
        assert app.data["hint"]["text"].startswith(app.best_swap())
        app.show_hint(False)
        assert app.data["hint"] is None

    def test_the_page_gets_the_highest_scoring_swap_and_why_the_hint_prefers_its_own(self) -> None:
        """H7: the board marks the rows the page rings on the board, the Hint's (★) and the one scoring most (▲)."""
        app = BoardApp("4-0")
        app.show_hint()
        hinted = app.data["hint"]
        assert [r["swap"] for r in hinted["rows"] if r["best"]] == ["r5c1-r5c2"]
        assert [r["swap"] for r in hinted["rows"] if r["top"]] == ["r3c3-r3c4"]
        assert hinted["preference"].startswith("r3c3-r3c4 scores the most now")
        assert "The Hint prefers r5c1-r5c2" in hinted["preference"]
        app.play_code("12-0")
        assert app.data["hint"]["preference"] == "" and not any(r["top"] for r in app.data["hint"]["rows"])


class TestResult:
    def play_out(self, app: BoardApp) -> None:
        while not app.state.over:
            app.swap(app.best_swap())

    def test_a_level_played_to_its_result_card_then_try_again_and_new_deal(self) -> None:
        app = BoardApp("1-0")
        self.play_out(app)
        result = app.data["view"]["result"]
        assert result["code"] == "1-0" and {"score", "bonus", "final", "stars", "goals"} <= set(result)
        assert app.board_code() == "1-0"
        app.try_again()
        assert app.state == Puzzle.from_code("1-0") and app.data["view"]["result"] is None
        app.new_deal()
        assert app.board_code() == "1-1"
        app.set_level(7)
        assert app.board_code() == "7-0"
        with pytest.raises(LevelError):
            app.set_level(99)

    def test_combo_badge_shows_the_last_swaps_multiplier(self) -> None:
        app = BoardApp("12-0")
        seen = set()
        while not app.state.over and max(seen, default=1) == 1:
            swap = app.best_swap()
            expected = app.state.copy().play(swap).combo
            app.swap(swap)
            assert app.data["combo"] == expected
            seen.add(expected)
        assert max(seen) > 1, "a combo on this deal"
        app.try_again()
        assert app.data["combo"] == 1


class TestIntents:
    @pytest.mark.parametrize(
        "content",
        [None, {"type": "cheat"}, {"type": "pick"}, {"type": "pick", "cell": "x" * 99}, {"type": "hint", "on": 1},
         {"type": "level", "level": "7"}, {"type": "level", "level": True}],
    )  # fmt: skip
    def test_malformed_messages_are_refused(self, content: object) -> None:
        with pytest.raises(PuzzleIntentError):
            parse_intent(content)

    def test_every_control_reaches_its_twin_through_the_widget(self) -> None:
        app = BoardApp("4-2")
        widget = app.widget
        assert widget.receive({"type": "pick", "cell": "r2c2"}) and app.data["selected"] == "r2c2"
        assert widget.receive({"type": "hint", "on": True}) and app.data["hint"]
        assert widget.receive({"type": "theme", "theme": "dark"}) and widget.theme == "dark"
        assert not widget.receive({"type": "theme", "theme": "pink"}) and widget.theme == "dark"
        assert widget.receive({"type": "level", "level": 3}) and app.board_code() == "3-0"
        assert widget.receive({"type": "new"}) and app.board_code() == "3-1"
        assert widget.receive({"type": "retry"}) and app.board_code() == "3-1"
        assert not widget.receive({"type": "pick", "cell": "r9c9"}) and "r1c1" in widget.error
        assert widget.receive({"type": "pick", "cell": "r1c1"}) and widget.error == ""


def test_the_page_receives_only_the_board_and_the_three_next_cards() -> None:
    """H8: two games alike but for the stock beyond the Next cards sync the same data, Hint table open, before
    and after a swap, and no field names the stock."""
    app, other = BoardApp("12-0"), BoardApp("12-0")
    deeper = other.state.stock[3:]
    other.state.stock[3:] = deeper[::-1]
    assert other.state.stock != app.state.stock
    other.id = app.id  # each board's id is its own; the two are compared as one board
    for each in (app, other):
        each.show_hint()
    assert app.widget.synced_json() == other.widget.synced_json()
    assert set(app.data["view"]) & {"stock", "discard"} == set()
    assert json.loads(app.widget.synced_json())["board"]["view"]["next"] == app.data["view"]["next"]
    assert len(app.data["view"]["next"]) == 3


class TestGamePicker:
    def test_the_picker_shows_cut_clear_4_or_the_card_clear_board(self, tmp_path: Path) -> None:
        from cut_tutor.widgets import GameApp, GamePicker

        picker = GamePicker(GameApp(tmp_path))
        assert picker.choice.options == ("CUT", "Clear 4", "Card Clear") and picker.shown is picker.game_app.widget
        picker.pick("Clear 4")
        assert picker.game_app.setup.rules.clear4 and picker.shown is picker.game_app.widget
        picker.choice.value = "Card Clear"  # a click
        assert picker.board is not None and picker.shown is picker.board.widget
        picker.pick("CUT")
        assert picker.game_app.setup.rules.preset == "USA" and picker.shown is picker.game_app.widget
        picker.game_app.set_preset("Canada")
        picker.pick("Card Clear")
        picker.pick("CUT")
        assert picker.game_app.setup.rules.preset == "Canada", "CUT keeps a Canada setup"
        with pytest.raises(ValueError, match="unknown game"):
            picker.pick("Chess")

    def test_the_choice_follows_the_table_games_own_preset(self, tmp_path: Path) -> None:
        """Clear 4 chosen on the setup screen, or a saved Clear 4 game continued, is named at the top too."""
        from cut_tutor.widgets import GameApp, GamePicker

        app = GameApp(tmp_path)
        app.set_preset("Clear 4")
        app.deal(seed=5)  # a Clear 4 game in play, saved
        picker = GamePicker(GameApp(tmp_path))
        picker.game_app.set_preset("Clear 4")
        assert picker.choice.value == "Clear 4" and picker.shown is picker.game_app.widget
        picker.game_app.set_preset("Canada")
        assert picker.choice.value == "CUT" and picker.game_app.setup.rules.preset == "Canada"
        picker.pick("Card Clear")
        picker.game_app.set_preset("Clear 4")  # the table game behind the board: the board stays shown
        assert picker.choice.value == "Card Clear" and picker.board is not None and picker.shown is picker.board.widget
        picker.pick("CUT")
        assert not picker.game_app.setup.rules.clear4
        picker.game_app.continue_game()
        assert picker.game_app.game is not None and picker.game_app.setup.rules.clear4
        assert picker.choice.value == "Clear 4" and picker.shown is picker.game_app.widget

    def test_clear_4_shows_a_clear_4_table_whatever_is_on_screen(self, tmp_path: Path) -> None:
        """Clear 4 (R22) picked while a CUT game is dealt, or from Card Clear, shows Clear 4's setup: the CUT game is
        left, saved for Continue, and CUT picked back shows CUT's setup with that game offered again on a reload."""
        from cut_tutor.widgets import GameApp, GamePicker

        picker = GamePicker(GameApp(tmp_path))
        app = picker.game_app
        app.deal(seed=3)  # a CUT game in play
        cut_uid = app.game.uid if app.game is not None else None
        picker.pick("Card Clear")
        picker.choice.value = "Clear 4"  # a click, from Card Clear
        assert picker.shown is app.widget and app.game is None and app.setup.rules.clear4
        assert app.form.box.layout.display != "none" and app.setup.rules.players <= 6, "Clear 4's setup is shown"
        app.deal(seed=5)
        assert app.game is not None and app.game.rules.clear4
        picker.pick("CUT")
        assert app.game is None and not app.setup.rules.clear4 and app.form.box.layout.display != "none"
        picker.pick("Clear 4")
        picker.pick("Clear 4")  # picked again: nothing changes
        assert app.setup.rules.clear4 and app.game is None
        waiting = {saved.uid for saved in GameApp(tmp_path).saved.waiting}
        assert cut_uid in waiting and len(waiting) == 2, "both games left are saved for Continue"


class TestStarLines:
    def test_a_line_lights_once_crossed_and_at_the_end_by_the_final_score(self) -> None:
        """K15: during play the score lights the lines it crosses; at the end the final score (with the move bonus)
        does, so the lines lit are the stars earned beyond the first: 1-4 played by the Hint ends with score 780
        under both lines, and final 1030 over the 2-star line (1010)."""
        app = BoardApp("1-4")
        assert app.data["lit"] == 0
        while not app.state.over:
            app.swap(app.best_swap())
        assert (app.state.score, app.state.final_score, app.data["view"]["star_lines"]) == (780, 1030, [1010, 1160])
        assert app.state.stars == 2 and app.data["lit"] == 1


class TestBoardLink:
    """K16: the dashboard's result card copies a board link; the page's ``?board=`` reaches the picker through the
    table's message, and Card Clear opens that deal, at any level."""

    def test_a_board_link_opens_its_deal_under_the_picker(self, tmp_path: Path) -> None:
        from cut_tutor.widgets import GameApp, GamePicker

        picker = GamePicker(GameApp(tmp_path))
        assert picker.game_app.table.receive({"type": "ready", "learner": "ann"})
        assert picker.game_app.table.receive({"type": "board", "code": "12-3"})
        assert picker.choice.value == "Card Clear" and picker.board is not None and picker.shown is picker.board.widget
        assert picker.board.board_code() == "12-3" and picker.board.data["link"] is True
        assert picker.board.progress is not None and picker.board.progress.unlocked() == 1, "it opens nothing"
        assert picker.board.progress.path == tmp_path / "learners" / "ann" / "cardclear.sqlite"

    @pytest.mark.parametrize(
        ("code", "said"),
        [
            ("12-x", "bad board code '12-x'"),
            ("99-0", "there is no level 99"),
            ("12-" + "3" * 70, "bad board code '12-" + "3" * 61 + "…'"),
        ],
    )
    def test_a_link_to_no_deal_keeps_the_board_and_says_why(self, tmp_path: Path, code: str, said: str) -> None:
        from cut_tutor.widgets import GameApp, GamePicker

        picker = GamePicker(GameApp(tmp_path))
        picker.pick("Card Clear")
        assert picker.board is not None
        picker.board.swap(picker.board.best_swap())
        played = picker.board.state.copy()
        picker.game_app.table.receive({"type": "board", "code": code})
        assert picker.shown is picker.board.widget and said in picker.board.widget.error
        assert picker.board.state.board == played.board and picker.board.state.score == played.score
        assert picker.board.widget.receive({"type": "theme", "theme": "dark"})
        assert said in picker.board.widget.error, "a change of theme leaves the refusal in view"

    def test_outside_the_dashboard_a_board_message_is_refused(self, tmp_path: Path) -> None:
        from cut_tutor.widgets import GameApp

        app = GameApp(tmp_path)
        assert app.table.receive({"type": "board", "code": "12-0"}) is False
        assert "opens Card Clear in the dashboard" in app.table.error
        assert app.table.receive({"type": "board", "code": 12}) is False and "short text" in app.table.error

    def test_a_notebook_board_copies_the_code(self) -> None:
        assert BoardApp("4-2").data["link"] is False


class TestOpening:
    """K18: each deal falls in under its banner (the page animates a new ``deal`` number), and a learner's first
    game points at a swap they can make until they make one."""

    def test_every_new_deal_has_a_new_number(self) -> None:
        app = BoardApp("2-0")
        assert app.data["board"] == app.id and app.id != BoardApp("2-0").id, "each board its own id"
        dealt = [app.data["deal"]]
        for act in (app.try_again, app.new_deal, lambda: app.set_level(3), lambda: app.play_code("5-1")):
            act()
            dealt.append(app.data["deal"])
        app.pick("r1c1")
        assert dealt == sorted(set(dealt)) and app.data["deal"] == dealt[-1], "a tap is not a new deal"

    def test_the_first_game_points_at_a_swap_until_one_is_made(self, tmp_path: Path) -> None:
        progress = Progress(tmp_path / "cardclear.sqlite")
        app = BoardApp(progress=progress)
        pointer = app.data["pointer"]
        assert pointer is not None and pointer["swap"] == app.best_swap()
        assert pointer["swap"] in {option["swap"] for option in app.data["view"]["legal"]}
        first, second = pointer["swap"].split("-")
        assert f"Tap {first}, then {second}." in pointer["text"]
        app.pick(first)
        assert app.data["pointer"] == pointer, "picking a card is not yet a swap"
        app.pick(first)
        app.swap(pointer["swap"])
        assert app.data["pointer"] is None
        app.try_again()
        assert app.data["pointer"] is not None, "still the first game: none has ended"
        while not app.state.over:
            app.swap(app.best_swap())
        app.new_deal()
        assert app.data["pointer"] is None and not progress.first_game()

    def test_a_game_lost_ends_the_first_game_too(self, tmp_path: Path) -> None:
        progress = Progress(tmp_path / "cardclear.sqlite")
        app = BoardApp(progress=progress)
        while not app.state.over:  # the Hint's worst swap each turn: the level is lost
            app.swap(str(hint(app.state).options[-1].swap))
        assert not app.state.passed and not progress.first_game() and progress.unlocked() == 1

    def test_a_learner_who_cleared_levels_before_games_were_kept_sees_no_finger(self, tmp_path: Path) -> None:
        path = tmp_path / "cardclear.sqlite"
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE levels (level INTEGER PRIMARY KEY, best INTEGER NOT NULL, stars INTEGER NOT NULL,"
                       " cleared TEXT NOT NULL)")  # fmt: skip
            db.execute("INSERT INTO levels VALUES (1, 900, 2, '2026-11-30T10:00:00Z')")
        db.close()
        app = BoardApp(progress=Progress(path))
        assert app.data["pointer"] is None and app.state.code == "2-0"

    def test_a_notebook_board_has_no_first_game(self) -> None:
        assert BoardApp("1-0").data["pointer"] is None


class TestProgress:
    """K17: levels open one by one as they are cleared, kept per learner; the board opens at the highest open."""

    def clear(self, app: BoardApp) -> None:
        """Play the Hint's best swap until the level ends."""
        while not app.state.over:
            app.swap(app.best_swap())

    def test_a_cleared_level_opens_the_next_and_the_board_opens_there(self, tmp_path: Path) -> None:
        progress = Progress(tmp_path / "cardclear.sqlite")
        app = BoardApp(progress=progress)
        assert app.state.code == "1-0" and app.data["levels"] == [1] and app.data["stars"] == {}
        with pytest.raises(PuzzleIntentError, match="level 2 opens once level 1 is cleared"):
            app.set_level(2)
        assert app.widget.receive({"type": "level", "level": 3}) is False and "level 3 opens" in app.widget.error
        assert app.state.code == "1-0"  # refused: the game is as it was
        self.clear(app)
        assert app.state.passed, "the Hint clears level 1-0"
        stars = app.state.stars
        assert progress.stars() == {1: stars} and progress.unlocked() == 2
        assert app.data["levels"] == [1, 2] and app.data["stars"] == {"1": stars}
        again = BoardApp(progress=Progress(tmp_path / "cardclear.sqlite"))  # the next visit
        assert again.state.code == "2-0"

    def test_a_shared_code_plays_any_level_and_opens_nothing_out_of_turn(self, tmp_path: Path) -> None:
        progress = Progress(tmp_path / "cardclear.sqlite")
        app = BoardApp("3-1", progress=progress)
        assert app.data["levels"] == [1, 3]
        self.clear(app)
        assert app.state.passed and 3 in progress.stars(), "the Hint clears level 3-1"
        assert progress.unlocked() == 1

    def test_a_damaged_progress_file_is_kept_and_a_new_one_started(self, tmp_path: Path) -> None:
        path = tmp_path / "cardclear.sqlite"
        path.write_bytes(b"not a database at all" * 100)
        app = BoardApp(progress=Progress(path))
        assert "damaged" in app.data["message"] and app.state.code == "1-0"
        assert [p.name.startswith("cardclear.corrupt-") for p in tmp_path.iterdir()].count(True) == 1

    def test_the_dashboards_board_keeps_each_learners_progress_in_their_home(self, tmp_path: Path) -> None:
        from cut_tutor.widgets import GameApp, GamePicker

        game_app = GameApp(tmp_path)
        game_app.set_learner("ann")
        picker = GamePicker(game_app)
        picker.pick("Card Clear")
        assert picker.board is not None and picker.board.progress is not None
        assert picker.board.progress.path == tmp_path / "learners" / "ann" / "cardclear.sqlite"
