"""The tutor app without a browser: every control's Python twin, C2 in the synced traits, C7 hints, C9 undo,
saved games, scores, the replayer, and a fuzz of malformed messages from the page."""

from __future__ import annotations

import asyncio
import html
import itertools
import json
import os
import random
import re
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

import ipywidgets as w

from cut_tutor import dashboard
from cut_tutor.analysis import analyse
from cut_tutor.cli import build_parser, voila_command
from cut_tutor.coach.words import ANALYSE_LONGER, OPEN_ENDGAME
from cut_tutor.engine import IllegalMoveError, Move, Rules, State, deal_code, state_from_deal, view
from cut_tutor.engine.rules import CLEAR4
from cut_tutor.widgets import GameApp, Replayer, TableWidget, move_label
from cut_tutor.widgets.replayer import REVIEW
from cut_tutor.widgets.table import IntentError, parse_intent

ROOT = Path(__file__).resolve().parent.parent

# Seat 1's hand and every face-down card hold the only Qs and Js: anything showing a Q or a J leaks (C2).
HIDDEN = {
    "rules": {"players": 2},
    "turn": 0,
    "dealer": 1,
    "pile": "9@1",
    "seats": [
        {"hand": "9 9 5 3 A", "stacks": ["[Q] 8", "[J] 7", "[Q] 6", "[J] 4"]},
        {"hand": "Q Q J J K", "known": "K", "stacks": ["[Q] 2", "[J] 2", "[Q] 3", "[J] 5"]},
    ],
}


def swapped(position: dict[str, Any]) -> dict[str, Any]:
    """The same position with every card hidden from seat 0 changed (Q and J become 7 and 8)."""
    other = json.loads(json.dumps(position))
    table = str.maketrans({"Q": "7", "J": "8"})
    seats = other["seats"]
    seats[0]["stacks"] = [s.split()[0].translate(table) + " " + s.split()[1] for s in seats[0]["stacks"]]
    seats[1]["hand"] = seats[1]["hand"].translate(table)
    seats[1]["stacks"] = [s.split()[0].translate(table) + " " + s.split()[1] for s in seats[1]["stacks"]]
    return other


#: Your 2×5 goes out: the analysis soon finds the best standing apart.
STANDS_APART = {
    "rules": {"players": 2},
    "turn": 0,
    "dealer": 1,
    "pile": "9@1",
    "seats": [{"hand": "5 5 3 2", "stacks": ["", "", "", ""]}, {"hand": "K K Q Q J 8 7", "stacks": ["", "", "", ""]}],
}


#: R13's position: pile 1's face-down 5 is about to be flipped onto a 5, with two 5s in the hand and one face up
#: on piles 2 and 4 (Piles Face Down: a blind card may be played with cards in the hand).
LANDED_FIVE: dict[str, Any] = {
    "rules": {"players": 2, "piles_face_down": True},
    "turn": 0,
    "dealer": 1,
    "pile": "5@1",
    "seats": [{"hand": "9 5 5", "stacks": ["[5]", "[7] 5", "[8]", "[9] 5"]}, {"hand": "2 2"}],
}


def app_at(home: Path, position: dict[str, Any], **setup: Any) -> GameApp:
    """An app whose current hand is ``position`` (your turn, Auto pacing)."""
    app = GameApp(home)
    app.set_players(position["rules"]["players"])
    app.set_pacing("Auto")
    for key, value in setup.items():
        getattr(app, f"set_{key}")(*value) if isinstance(value, tuple) else getattr(app, f"set_{key}")(value)
    app.deal(seed=3)
    assert app.game is not None
    app.game.state = State.from_position(position)
    app.refresh()
    return app


def synced(widget: w.Widget) -> list[Any]:
    """Every synced value in a widget tree: what the page can receive."""
    out: list[Any] = []
    for name in widget.keys:
        if name.startswith("_") or name in ("layout", "style", "children", "tabbable", "tooltip"):
            continue
        value = getattr(widget, name)
        out.append((name, value if isinstance(value, str | int | float | bool | dict | list | tuple) else None))
    for child in getattr(widget, "children", ()):
        out.extend(synced(child))
    return out


@pytest.fixture
def app(tmp_path: Path) -> GameApp:
    app = GameApp(tmp_path)
    app.set_players(3)
    app.set_pacing("Auto")
    app.deal(seed=11)
    return app


class TestTwins:
    def test_deal_shows_your_turn(self, app: GameApp) -> None:
        assert app.state is not None and app.state.turn == 0
        table = app.table.table
        assert table["status"] == "Your turn"
        assert table["actions"] and all(a["label"] for a in table["actions"])

    def test_play_then_ai_replies(self, app: GameApp) -> None:
        assert app.state is not None
        move = app.state.legal_moves()[0]
        app.play(str(move))
        assert app.state.moves[0] == move
        assert app.state.turn == 0 or app.state.over  # Auto pacing: the AI seats have answered
        assert len(app.state.moves) > 1

    def test_illegal_play_changes_nothing(self, app: GameApp) -> None:
        assert app.state is not None
        before = app.state.to_position()
        with pytest.raises(ValueError):
            app.play("13×K")
        with pytest.raises(ValueError):
            app.play("not a move")
        assert app.state.to_position() == before

    def test_coach_play_plays_the_recommendation(self, app: GameApp) -> None:
        for _ in range(5):
            assert app.state is not None
            advice = app.advice()
            assert advice is not None
            done = len(app.state.moves)
            app.coach_play()
            assert app.state.moves[done] == advice.move
            if app.state.over:
                break

    def test_set_coach_changes_the_advice_and_description(self, app: GameApp) -> None:
        app.set_coach("Marty")
        advice = app.advice()
        assert advice is not None and advice.coach == "Marty"
        assert "Marty" in app.panel_about.value
        with pytest.raises(ValueError):
            app.set_coach("Nobody")

    def test_step_pacing_waits_for_next(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_pacing("Step")
        app.deal(seed=5)
        assert app.state is not None
        while app.state.turn != 0:
            app.next()
        app.play(str(app.state.legal_moves()[-1]))
        if app.state.turn != 0 and not app.state.over:
            assert app.table.table["step"] == "Next"
            done = len(app.state.moves)
            app.next()
            assert len(app.state.moves) == done + 1  # one AI move per Next
        with pytest.raises(IntentError):
            while True:
                app.next()  # eventually: your turn, which Next refuses

    def test_buttons_call_their_twins(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.seed.value = "21"
        app.deal_button.click()
        assert app.game is not None and app.game.seed == 21
        before = len(app.game.state.moves)
        app.coach_play_button.click()
        assert len(app.game.state.moves) > before

    def test_automate_plays_your_seat(self, app: GameApp) -> None:
        app.set_automate(True)
        assert app.state is not None and app.state.over
        assert app.game is not None and app.game.results[-1].automated[0]
        with pytest.raises(IntentError):
            app.play("1×A")

    def test_next_hand_after_a_hand(self, app: GameApp) -> None:
        app.set_automate(True)
        app.set_automate(False)
        assert app.game is not None
        if not app.game.over:
            app.next_hand()
            assert app.game.hand_number == 2 and len(app.game.results) == 1

    def test_theme(self, app: GameApp) -> None:
        app.set_theme("dark")
        assert app.table.theme == "dark" and "cut-app-dark" in app.root._dom_classes
        app.table.receive({"type": "theme", "theme": "light"})
        assert app.table.theme == "light"


class TestSetup:
    def test_players_names_colours(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(6)
        assert len(app.seat_rows.children) == 6
        colours = [s.colour for s in app.setup.seats]
        assert len(set(colours)) == 6
        with pytest.raises(ValueError, match="taken"):
            app.set_colour(1, colours[0])
        app.set_name(1, "Zoe")
        app.set_level(1, "Expert")
        app.set_style(1, "Gambler")
        app.deal(seed=2)
        assert app.game is not None and app.game.names[1] == "Zoe"
        assert app.sitting.ai[1].level.name == "Expert" and app.sitting.ai[1].style.name == "Gambler"

    def test_a_game_in_play_takes_a_seats_new_level_and_style_at_once(self, tmp_path: Path) -> None:
        """The play loop, the game's one owner, gives the seat its new AI; the game itself goes on untouched."""
        app = GameApp(tmp_path)
        app.set_players(3)
        app.deal(seed=2)
        state = app.state
        app.set_level(1, "Expert")
        app.set_style(1, "Rock")
        seat = app.sitting.ai[1]
        assert seat.level.name == "Expert" and seat.style.name == "Rock" and app.state is state

    def test_colour_offers_only_free_colours(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        row = app.seat_rows.children[1]
        colour = row.children[2]
        taken = {s.colour for i, s in enumerate(app.setup.seats) if i != 1}
        assert not taken & set(colour.options)

    def test_the_seats_rows_are_redrawn_not_made_again(self, tmp_path: Path) -> None:
        """A colour, fewer or more seats, or the page naming its learner redraw the rows the page already has."""
        from cut_tutor.widgets.table import COLOURS

        app = GameApp(tmp_path)
        app.set_players(6)
        rows = app.seat_rows.children
        app.set_players(3)
        assert app.seat_rows.children == rows[:3]
        free = next(c for c in COLOURS if all(s.colour != c for s in app.setup.seats))
        app.set_colour(1, free)
        assert app.table.receive({"type": "ready", "learner": "ana", "tab": "tab-1"})
        app.set_players(6)
        assert app.seat_rows.children == rows
        swatch, name, colour, level, style = rows[1].children
        assert colour.value == free and COLOURS[free] in swatch.value and free not in rows[0].children[2].options
        assert name.value == app.setup.seats[1].name and (level.value, style.value) == ("Experienced", "Balanced")
        assert [r.children[1].value for r in rows] == [s.name for s in app.setup.seats]

    def test_preset_reads_custom_when_derived(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        assert app.preset.value == "USA"
        app.set_rule("cards_dealt", 19)
        assert app.preset.value == "Custom" and "Custom" in app.preset.options
        app.set_preset("Canada")
        assert app.setup.rules.preset == "Canada" and app.preset.options == ("USA", "Canada", "Clear 4")
        with pytest.raises(ValueError):
            app.set_preset("Custom")

    def test_impossible_rule_is_refused(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(8)
        with pytest.raises(ValueError, match="decks"):
            app.set_rule("decks", 2)
        assert app.setup.rules.decks is None
        app.rule_widgets["decks"].value = 2  # from the form: refused, shown as an error
        assert "decks" in app.table.error

    def test_reset_setup_keeps_theme_and_history(self, app: GameApp) -> None:
        app.set_theme("dark")
        app.set_name(1, "Zoe")
        app.reset_setup()
        assert app.game is None and app.setup.seats[1].name == "Ann" and app.theme == "dark"

    def test_reset_setup_keeps_the_learners_own_choices(self, tmp_path: Path) -> None:
        """The guide's *Reset game setup*: the game's setup goes back to its defaults, the display settings stay."""
        app = GameApp(tmp_path)
        app.set_players(5)
        app.set_level(2, "Expert")
        app.set_rule("clear_value", 50)
        app.set_coach("Marty")
        app.set_pile_counts(True)
        app.set_dim(True)
        app.set_pacing("Auto")
        app.set_coaching(False)
        app.set_layout("Stacked")
        app.reset_setup()
        setup = app.setup
        assert setup.rules == Rules() and len(setup.seats) == 4 and setup.seats[2].level == "Experienced"
        assert setup.coach == "Madonna"
        assert (setup.pile_counts, setup.dim, setup.pacing, setup.coaching) == (True, True, "Auto", False)
        assert app.form.pile_counts.value and app.form.dim.value and app.form.pacing.value == "Auto"
        assert not app.form.coaching.value and app.table.table_layout == "stacked"


class TestHints:
    """C7: Average shows the most, Experienced one, Expert none, unless the analysis is opened."""

    @pytest.mark.parametrize(("level", "count"), [("Average", 3), ("Experienced", 1), ("Expert", 0)])
    def test_hints_by_level(self, tmp_path: Path, level: str, count: int) -> None:
        app = GameApp(tmp_path)
        app.set_level(0, level)
        app.set_pacing("Auto")
        app.deal(seed=11)
        assert app.hint_count() == count
        shown = app.coach_play_button.layout.display != "none"
        assert shown == (count > 0)
        assert (app.table.table["highlight"] is not None) == (count > 0)
        app.open_analysis(True)
        assert app.hint_count() > 0 and "<table" in app.analysis_html.value
        assert app.coach_play_button.layout.display != "none"

    def test_the_coach_says_when_every_other_hand_is_known(self, tmp_path: Path) -> None:
        """The open endgame, where the coach's tables slip most (guide: Reading out the endgame), is named under
        the advice; with one card of the other hand unseen, or at a Level without hints, it is not."""
        position = {
            "rules": {"players": 2},
            "turn": 0,
            "dealer": 1,
            "pile": "9@1",
            "seats": [{"hand": "8 5 5 3 2", "stacks": ["[4]", "[6]", "", ""]}, {"hand": "K 7 2", "known": "K 7 2"}],
        }
        app = app_at(tmp_path / "open", position, level=(0, "Average"))
        assert OPEN_ENDGAME in html.unescape(app.coach.advice_html.value)
        hidden = position | {"seats": [position["seats"][0], {"hand": "K 7 2", "known": "K 7"}]}
        app = app_at(tmp_path / "hidden", hidden, level=(0, "Average"))
        assert "Play" in app.coach.advice_html.value and OPEN_ENDGAME not in html.unescape(app.coach.advice_html.value)
        app = app_at(tmp_path / "expert", position, level=(0, "Expert"))
        assert OPEN_ENDGAME not in html.unescape(app.coach.advice_html.value)

    def test_coaching_off_hides_hints(self, app: GameApp) -> None:
        app.set_coaching(False)
        assert app.hint_count() == 0 and app.table.table["highlight"] is None

    def test_compare_all_three(self, app: GameApp) -> None:
        frame = app.compare_coaches()
        assert list(frame["coach"]) == ["Daryl", "Madonna", "Marty"]


class TestHiddenCards:
    """C2: the page never receives a card its seat cannot see."""

    def test_no_hidden_card_in_the_synced_table(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, HIDDEN, level=(0, "Average"))
        app.open_analysis(True)
        text = app.table.synced_json()
        cards = json.dumps(app.table.table["view"])
        assert '"Q"' not in cards and '"J"' not in cards
        assert '"Q"' not in text and '"J"' not in text
        labels = " ".join(a["label"] for a in app.table.table["actions"])
        assert "Q" not in labels and " J" not in labels

    def test_everything_synced_is_the_same_when_hidden_cards_change(self, tmp_path: Path) -> None:
        one = app_at(tmp_path / "a", HIDDEN, level=(0, "Average"))
        two = app_at(tmp_path / "b", swapped(HIDDEN), level=(0, "Average"))
        for app in (one, two):
            app.open_analysis(True)
            app.compare_coaches()
        assert one.table.synced_json() == two.table.synced_json()
        assert synced(one.root) == synced(two.root)


class TestRolloutsInThePanel:
    """The Monte-Carlo analysis in the coach panel: in the background, kept per position, cancellable, honest."""

    def test_analysis_runs_in_the_background_and_is_kept(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, HIDDEN)
        app.open_analysis(True)
        app.start_rollouts(seconds=None, rollouts=48, wait=True)
        done = app.coach.rollouts()
        assert done is not None and sorted(str(m.move) for m in done.moves) == sorted(map(str, app.state.legal_moves()))
        assert "cut-analysis" not in {thread.name for thread in threading.enumerate()}
        assert done.moves[0].label in app.coach.rollout_html.value
        app.start_rollouts(seconds=None, rollouts=48)  # the same position: kept, no second run
        assert app.coach.rollouts() is done and app.coach.analyses.job is not None
        app.open_analysis(False)
        assert app.coach.rollout_box.layout.display == "none"

    def test_one_button_starts_the_analysis_then_continues_it(self, tmp_path: Path) -> None:
        """Never a press that does nothing: *Monte-Carlo analysis* becomes *Analyse longer*, which measures every
        gap; once every gap is known to ±2 points or too close to call, a longer analysis aims at ±1."""
        app = app_at(tmp_path, STANDS_APART)
        app.open_analysis(True)
        button = app.coach.rollout_button
        assert button.description == "Monte-Carlo analysis"
        app.start_rollouts(seconds=None, rollouts=1000, wait=True)
        assert app.coach.rollouts() is not None and button.description == ANALYSE_LONGER
        app.analyse_longer(seconds=None, rollouts=20_000, wait=True)
        apart = app.coach.rollouts()
        assert apart is not None and apart.stopped == "apart" and apart.precision == 2.0
        button.click()  # the learner's press: 4 seconds more, in the background
        assert app.coach.analyses.job is not None
        app.coach.analyses.job.thread.join()
        finer = app.coach.rollouts()
        assert finer is not None and finer.precision == 1.0 and apart.rollouts < finer.rollouts
        assert "known to ±1 point or too close" in app.coach.rollout_html.value
        assert button.layout.display == ""

    def test_a_single_legal_move_has_nothing_to_analyse(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, GOING_OUT)
        app.open_analysis(True)
        assert app.state is not None and len(app.state.legal_moves()) == 1
        assert app.coach.rollout_box.layout.display == "" and app.coach.rollout_button.layout.display == "none"

    def test_the_first_press_analyses(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, HIDDEN)
        app.open_analysis(True)
        app.coach.rollout_button.click()
        assert app.coach.analyses.job is not None
        app.coach.analyses.job.thread.join()
        assert app.coach.rollouts() is not None and app.coach.rollout_button.description == ANALYSE_LONGER

    def test_cancel_keeps_nothing(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, HIDDEN)
        app.open_analysis(True)
        app.start_rollouts(seconds=None, rollouts=10_000)
        app.cancel_rollouts()  # pressed long before its rounds are done
        app.coach.wait_rollouts()
        assert app.coach.rollouts() is None and "stopped" in app.coach.rollout_html.value

    def test_analyse_longer_continues_the_kept_analysis(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, HIDDEN)
        app.open_analysis(True)
        with pytest.raises(IntentError, match="no finished analysis"):
            app.analyse_longer(seconds=None, rollouts=48, wait=True)
        app.start_rollouts(seconds=None, rollouts=48, wait=True)
        first = app.coach.rollouts()
        assert first is not None and first.stopped == "budget"
        assert (
            app.coach.rollout_button.description == ANALYSE_LONGER
            and "known to ±2 points or too close" in app.coach.rollout_html.value
        )
        app.analyse_longer(seconds=None, rollouts=96, wait=True)
        longer = app.coach.rollouts()
        assert longer is not None and first.rollouts < longer.rollouts <= first.rollouts + 96
        resumed = analyse(view(app.state, 0), seconds=None, max_rollouts=96, resume=first, aim="gaps")
        assert [m.to_dict() for m in longer.moves] == [m.to_dict() for m in resumed.moves]  # the library's figures
        assert f"{longer.rollouts} rollouts" in app.coach.rollout_html.value

    def test_a_cancelled_longer_analysis_keeps_the_first(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, HIDDEN)
        app.open_analysis(True)
        app.start_rollouts(seconds=None, rollouts=48, wait=True)
        first = app.coach.rollouts()
        app.analyse_longer(seconds=None, rollouts=10_000)
        app.cancel_rollouts()
        app.coach.wait_rollouts()
        assert app.coach.rollouts() is first and f"{first.rollouts} rollouts" in app.coach.rollout_html.value

    def test_the_analysis_reads_only_your_view(self, tmp_path: Path) -> None:
        one, two = app_at(tmp_path / "a", HIDDEN), app_at(tmp_path / "b", swapped(HIDDEN))
        for app in (one, two):
            app.open_analysis(True)
            app.start_rollouts(seconds=None, rollouts=48, wait=True)
        first, second = one.coach.rollouts(), two.coach.rollouts()
        assert first is not None and second is not None
        assert first.to_frame().equals(second.to_frame())  # the same figures, move by move
        assert one.table.synced_json() == two.table.synced_json()


class TestUndo:
    """C9: your own last play until the next seat acts, never one that turned a hidden card."""

    def test_undo_own_play_before_the_next_seat_acts(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_pacing("Step")
        app.deal(seed=5)
        assert app.state is not None
        while app.state.turn != 0:
            app.next()
        before = app.state.to_position()
        app.play(str(app.state.legal_moves()[0]))
        if app.state.over:
            pytest.skip("that play went out")
        assert app.can_undo() and app.table.table["undo"]
        app.undo()
        assert app.state.to_position() == before
        app.play(str(app.state.legal_moves()[0]))
        if app.state.turn != 0 and not app.state.over:
            app.next()
            assert not app.can_undo()
            with pytest.raises(IntentError):
                app.undo()

    def test_no_undo_of_a_flip(self, tmp_path: Path) -> None:
        position = {
            "rules": {"players": 2},
            "turn": 0,
            "dealer": 1,
            "pile": "",
            "seats": [
                {"hand": "10", "stacks": ["[9]", "[4]", "", ""]},
                {"hand": "K K", "stacks": ["", "", "", ""]},
            ],
        }
        app = app_at(tmp_path, position)
        app.set_pacing("Step")
        app.play("clear 10")
        assert app.state is not None and app.state.turn == 0  # a clear plays again
        assert app.can_undo()
        app.play("flip 2")
        assert not app.can_undo()
        with pytest.raises(IntentError):
            app.undo()

    def test_undo_through_the_table(self, app: GameApp) -> None:
        assert app.table.receive({"type": "undo"}) is False
        assert "undo" in app.table.error


class TestSaves:
    def test_continue_names_players_and_round(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(4)
        app.deal(seed=8)
        assert app.state is not None
        app.play(str(app.state.legal_moves()[0]))
        position = app.state.to_position()
        again = GameApp(tmp_path)
        assert again.resume_label == "Continue — 4 players, round 1"
        assert again.resume_box.layout.display != "none" and again.setup_box.layout.display == "none"
        again.continue_game()
        assert again.state is not None and again.state.to_position() == position

    def test_start_new_keeps_the_save_until_a_deal(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.deal(seed=8)
        saved = app.save_path.read_text()
        again = GameApp(tmp_path)
        again.start_new()
        assert again.save_path.read_text() == saved
        assert GameApp(tmp_path).resume_label is not None
        again.deal(seed=9)
        assert json.loads(again.save_path.read_text())["seed"] == 9

    def test_ready_from_the_page_rechecks_the_save(self, tmp_path: Path) -> None:
        waiting = GameApp(tmp_path)  # a preheated kernel: started before the game below was saved
        app = GameApp(tmp_path)
        app.deal(seed=8)
        assert waiting.resume_label is None
        waiting.table.receive({"type": "ready"})
        assert waiting.resume_label is not None

    def test_corrupt_save_is_reported(self, tmp_path: Path) -> None:
        (tmp_path / "save.json").write_text("{not json")
        app = GameApp(tmp_path)
        assert app.resume_label is None and "could not be read" in app.resume_note.value

    def test_finished_game_goes_to_history(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(2)
        app.set_rule("end_condition", "rounds")
        app.set_rule("rounds", 1)
        app.set_pacing("Auto")
        app.deal(seed=4)
        app.set_automate(True)
        assert app.game is not None and app.game.over
        assert not app.save_path.exists()
        games = app.history.games()
        assert len(games) == 1 and games[0]["seed"] == 4
        assert "Hand" in app.this_game.value and "🤖" in app.this_game.value
        out = app.export_csv(tmp_path / "scores.csv")
        assert out.read_text().count("\n") == 3
        app.games.value = (games[0]["id"],)
        assert app.stored_pick.options == (("Game #1, hand 1", (1, 1)),)
        app.stored_pick.value = (1, 1)
        app.stored_button.click()
        assert app.replayer is not None and app.replayer.states[-1].over
        assert app.replayer.states[-1].scores() == list(app.game.results[0].scores)
        app.games.value = ()
        app.select_all_games()
        assert app.games.value == tuple(g["id"] for g in games)
        page = app.print_view()
        assert "@page{margin:1in}" in page and "<table" in page and "Print view of 1 game" in app.export_note.value
        assert "print()" in page  # opened, the sheet goes to the print dialog
        with pytest.raises(IntentError, match="no stored hand 5"):
            app.open_stored_replay(games[0]["id"], 5)
        app.delete_games([games[0]["id"]])
        assert app.history.games() == [] and app.games.options == ()


class TestFuzz:
    """Thousands of malformed or illegal messages: each refused, the game and history untouched."""

    def messages(self, rng: random.Random, app: GameApp) -> list[Any]:
        words = ["move", "undo", "next", "coach_play", "automate", "deal", "", "MOVE", None, 3, "eval"]
        texts = [
            "13×K",
            "2×",
            "x",
            "clear",
            "take Q",
            "flip 9",
            "gamble 1",
            "done",
            "add 0",
            "9" * 500,
            "2×9 s9",
            "play",
            "",
            "<script>",
            "turn up 1",
            "1×JK",
            "take K s1 s2",
            "-1×9",
        ]
        out: list[Any] = [None, [], "move", 42, {"type": "move"}, {"type": "automate", "on": "yes"}]
        for _ in range(3000):
            kind = rng.choice(words)
            message: dict[str, Any] = {"type": kind}
            for _field in range(rng.randrange(3)):
                key = rng.choice(["move", "on", "key", "theme", "x"])
                message[key] = rng.choice([*texts, None, 7, 2.5, [], {}, True, rng.random()])
            if kind == "move" and rng.random() < 0.5:
                message["move"] = rng.choice(texts) + rng.choice(["", " s1", "×", "  "])
            out.append(message)
        return out

    def test_fuzz(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_pacing("Step")
        app.deal(seed=31)
        assert app.game is not None
        state = app.game.state
        while state.turn != 0:
            app.next()
            state = app.game.state
        legal = {str(m) for m in state.legal_moves()}
        position, moves = state.to_position(), list(state.moves)
        save = app.save_path.read_text()
        results = list(app.game.results)
        refused = 0
        for message in self.messages(random.Random(7), app):
            try:
                kind, value = parse_intent(message)
            except IntentError:
                kind, value = "", None
            if kind in ("automate", "coach_play", "ready", "key", "theme"):
                continue  # well-formed and allowed: not what this test is about
            if kind == "move":
                try:
                    if str(Move.parse(value)) in legal:
                        continue
                except ValueError:
                    pass
            app.table.error = ""
            app.table._handle_custom_msg(message, [])  # the ipywidgets dispatch a page message takes
            assert app.table.error, message
            refused += 1
        assert refused > 1000
        assert app.game.state is state and state.to_position() == position and state.moves == moves
        assert app.game.results == results and app.history.games() == []
        assert app.save_path.read_text() == save

    def test_page_messages_reach_the_handler(self, app: GameApp) -> None:
        """A custom comm message, as the page's ``model.send`` delivers it, is checked like any intent."""
        comm_msg = {"content": {"data": {"method": "custom", "content": {"type": "move", "move": "99×Q"}}}}
        app.table._handle_msg(comm_msg | {"buffers": []})
        assert "99" in app.table.error


class TestTable:
    def test_labels_follow_the_guide(self) -> None:
        state = State.from_position(
            {
                "rules": {"players": 2},
                "turn": 0,
                "pile": "A@1",
                "seats": [{"hand": "A A A 10 10 10 10 K", "stacks": ["", "", "", ""]}, {"hand": "2"}],
            }
        )
        labels = {move_label(m, view(state, state.turn)) for m in state.legal_moves()}
        assert {"Play 1× A", "Play 3× A — clear", "Play 4× clear", "Take (show K)"} <= labels

    def test_a_landed_blind_card_is_card_1_of_every_choice(self, tmp_path: Path) -> None:
        """R13: after a blind 5 lands, "Play 1× 5" sends it alone and "Play 3× 5" adds both hand 5s to it."""
        no_face_up_five = {"hand": "9 5 5", "stacks": ["[5]", "[7]", "[8]", "[9]"]}
        app = app_at(tmp_path, {**LANDED_FIVE, "seats": [no_face_up_five, {"hand": "2 2"}]})
        app.set_pacing("Step")
        app.play("flip 1")
        assert labels_of(app) == {"add 0": "Play 1× 5", "add 1×5": "Play 2× 5", "add 2×5": "Play 3× 5 — clear"}
        adding = app.table.table["adding"]  # the numbered list above the buttons: the turned 5 first, then the hand's
        assert adding["first"] == {"number": 1, "card": "5", "note": "the card you turned over"}
        assert [g["title"] for g in adding["groups"]] == ["From your hand"]
        assert [c["number"] for c in adding["groups"][0]["cards"]] == [2, 3]
        app.play("add 0")
        assert app.table.table["adding"] is None
        seen = app.table.table["view"]
        assert [p["card"] for p in seen["pile"]] == ["5", "5"] and seen["hand"] == ["9", "5", "5"]

    def test_the_numbered_list_puts_the_hand_before_the_piles(self, tmp_path: Path) -> None:
        """R13: a pile card that could go too is numbered after the hand's, with its pile named, and its button
        is the one that plays that pile."""
        app = app_at(tmp_path, LANDED_FIVE)
        app.set_pacing("Step")
        app.play("flip 1")
        hand, piles = app.table.table["adding"]["groups"]
        assert (hand["title"], [c["number"] for c in hand["cards"]]) == ("From your hand", [2, 3])
        assert piles["title"] == "From your piles" and "Risk card" in piles["note"]
        assert piles["cards"] == [
            {"number": 4, "card": "5", "stack": 1, "where": "pile 2"},
            {"number": 5, "card": "5", "stack": 3, "where": "pile 4"},
        ]
        assert {a["stack"] for a in app.table.table["actions"] if "stack" in a} == {1, 3}

    def test_same_labels_name_their_cards(self, tmp_path: Path) -> None:
        position = {
            "rules": {"players": 2},
            "turn": 0,
            "dealer": 1,
            "pile": "5@1",
            "seats": [{"hand": "10 JK 3"}, {"hand": "2"}],
        }
        labels = [a["label"] for a in app_at(tmp_path, position).table.table["actions"]]
        assert "Play 1× clear (10)" in labels and "Play 1× clear (JK)" in labels and "Play 2× clear" in labels
        assert len(set(labels)) == len(labels)
        empty = State(Rules())
        assert move_label(Move.parse("take"), view(empty, empty.turn)) == "Take the pile"
        assert move_label(Move.parse("flip 2"), view(empty, empty.turn)) == "Flip pile 2"
        assert move_label(Move.parse("gamble 2"), view(empty, empty.turn)) == "Risk pile 2"
        assert move_label(Move.parse("turn up 3"), view(empty, empty.turn)) == "Turn up pile 3"
        assert move_label(Move.parse("done"), view(empty, empty.turn)) == "Done"
        assert move_label(Move.parse("add 1×A"), view(empty, empty.turn)) == "Play 2× A"  # R13: with the turned A

    def test_actions_carry_the_cards_they_use(self, app: GameApp) -> None:
        for action in app.table.table["actions"]:
            move = Move.parse(action["move"])
            if move.kind == "play":
                assert len(action["cards"]) == move.size

    def test_unconnected_table_refuses(self) -> None:
        table = TableWidget()
        assert table.receive({"type": "move", "move": "2×9"}) is False and table.error

    def test_static_files_ship(self) -> None:
        static = ROOT / "cut_tutor" / "widgets" / "static"
        js = TableWidget._esm
        assert "export default" in js and "model.send" in js
        assert (static / "table.css").exists()

    def test_each_page_module_carries_the_shared_code_once(self) -> None:
        from cut_tutor.cardclear.widget import BoardWidget

        for widget in (TableWidget, BoardWidget):
            assert widget._esm.count("function hostIsDark(") == 1 and widget._esm.count("function h(") == 1


class TestReplayer:
    def finished(self) -> State:
        state = State.deal(Rules(players=2), seed=12)
        rng = random.Random(1)
        for _ in range(40):
            if state.over:
                break
            state.play(rng.choice(state.legal_moves()))
        return state

    def test_steps(self) -> None:
        state = self.finished()
        r = Replayer.from_state(state, names=["You", "Daryl"])
        assert r.step == 0
        r.forward()
        r.forward()
        r.back()
        assert r.step == 1 and r.slider.value == 1
        r.last()
        assert r.step == len(state.moves) and r.states[-1].to_position() == state.to_position()
        r.table.receive({"type": "key", "key": "ArrowLeft"})
        assert r.step == len(state.moves) - 1
        r.table.receive({"type": "key", "key": "Home"})
        assert r.step == 0
        assert r.table.receive({"type": "move", "move": "2×9"}) is False

    def test_random_moves_differ_from_the_coach(self) -> None:
        r = Replayer.from_state(self.finished())
        assert r.names == ["You", "Ann"]  # without names, as a new setup names the seats; never "Seat 1"
        assert "Seat view: Ann" in [label for label, _ in r.seat_pick.options]
        diffs = r.differences()
        assert diffs and all(d.differs and d.points >= 0 for d in diffs)
        r.set_seat(REVIEW)
        r.go(diffs[0].step)
        assert "✗ Madonna recommends: " in r.info.value

    def test_seat_view_hides_and_review_shows(self) -> None:
        state = self.finished()
        r = Replayer.from_state(state)
        r.set_seat(0)
        assert r.table.table["view"]["seats"][1].get("hand") is None
        r.set_seat(REVIEW)
        assert r.table.table["view"]["seats"][1]["hand"] is not None

    def test_from_a_finished_hand_of_the_app(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_pacing("Auto")
        app.deal(seed=4)
        app.set_automate(True)
        r = app.open_replay(1)
        r.last()
        assert app.game is not None and r.states[-1].over
        with pytest.raises(IntentError):
            app.open_replay(7)


class TestDashboardFiles:
    def test_notebook_is_one_cell_without_outputs(self) -> None:
        nb = json.loads(dashboard.notebook().read_text())
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert len(code) == 1 and code[0]["outputs"] == [] and "GameApp" in "".join(code[0]["source"])

    def test_voila_config_names_real_settings(self) -> None:
        from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
        from voila.configuration import VoilaConfiguration
        from voila.voila_kernel_manager import voila_kernel_manager_factory

        config = json.loads((dashboard.notebook().parent / "voila.json").read_text())
        manager = voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
        assert manager.__name__ == "VoilaKernelManager"
        assert set(config["VoilaConfiguration"]) <= set(VoilaConfiguration.class_trait_names(config=True))
        assert set(config["VoilaKernelManager"]) <= set(manager.class_trait_names(config=True))
        assert config["VoilaConfiguration"]["preheat_kernel"] is True
        assert config["VoilaKernelManager"]["cull_idle_timeout"] > 0
        assert config["VoilaConfiguration"]["file_allowlist"] == [], "Voilà serves no files: the guide has its route"
        from voila.execute import VoilaExecutor

        assert set(config["VoilaExecutor"]) <= set(VoilaExecutor.class_trait_names(config=True))
        # a busy server reads the cell's widget messages late: with nbclient's 4 s the cell was given up and its
        # widget never reached the page (a blank page)
        assert config["VoilaExecutor"]["iopub_timeout"] >= 30
        # kernels on local sockets: 30 kernels starting at once on TCP ports raced for one, and one died at start
        assert ("--KernelManager.transport=ipc" in voila_command(dashboard.notebook(), 9001)) == (os.name == "posix")

    def test_cli_dashboard(self) -> None:
        args = build_parser().parse_args(["dashboard", "--port", "9001", "--no-browser"])
        assert args.port == 9001 and args.no_browser
        command = voila_command(dashboard.notebook(), 9001)
        assert "--Voila.ip=127.0.0.1" in command and "--no-browser" in command


def test_illegal_move_error_is_a_value_error() -> None:
    assert issubclass(IllegalMoveError, ValueError)


class TestHelpLinks:
    """The app's help links open the matching section of the player's guide (built by MkDocs)."""

    def test_every_setting_links_to_its_guide_section(self, app: GameApp) -> None:
        from cut_tutor.guide_links import GUIDE_LINKS, RULES_FIELDS

        html = "".join(
            child.value for child in app.setup_box.children if isinstance(child, w.HTML) and "cut-help" in child.value
        )
        hrefs = re.findall(r'href="([^"]+)"', html)
        assert hrefs and all(h.startswith(app.guide) for h in hrefs)
        targets = {h[len(app.guide) :] for h in hrefs}
        assert targets <= set(GUIDE_LINKS.values())
        for field in RULES_FIELDS:
            assert GUIDE_LINKS[RULES_FIELDS[field]] in targets
        assert {"rules.html", "coach.html", "glossary.html#risk-play"} <= targets

    def test_legend_entries_open_their_guide_sections(self, app: GameApp) -> None:
        from cut_tutor.guide_links import GUIDE_LINKS

        app.deal(seed=2)
        legend = app.table.table["legend"]
        assert set(legend) == {"💥", "🃏", "🤖", "D", "S"}
        assert {url[len(app.guide) :] for url in legend.values()} <= set(GUIDE_LINKS.values())
        assert legend["🤖"].endswith("glossary.html#automate-player")


class TestLayout:
    """View: Auto picks the arc when it fits, Table and Stacked are kept as chosen; the page may switch."""

    def test_view_picker_and_page_switch(self, app: GameApp) -> None:
        assert app.table.table_layout == "auto"
        app.view_pick.value = "Table"
        assert app.table.table_layout == "table"
        assert app.table.receive({"type": "layout", "layout": "stacked"})
        assert app.table.table_layout == "stacked" and app.view_pick.value == "Stacked"
        assert not app.table.receive({"type": "layout", "layout": "circle"})
        assert "layout is 'auto', 'table' or 'stacked'" in app.table.error
        assert app.table.table_layout == "stacked"
        with pytest.raises(ValueError, match="view"):
            app.set_layout("grid")


# -- Clear 4 (R22) -------------------------------------------------------------------------------------------


# Seat 1's hand and every face-down card hold the only 8s and CLEARs: anything showing an 8 or a CLEAR leaks (C2).
HIDDEN_CLEAR4 = {
    "rules": Rules.from_preset(CLEAR4, players=2).to_dict(),
    "turn": 0,
    "dealer": 1,
    "pile": "9@1",
    "seats": [
        {"hand": "9 9 5 3 P J*", "stacks": ["[8] [CL] 7", "[CL] [8] 6", "[8] [8] 4", "[CL] [8] 2"]},
        {"hand": "8 8 10", "known": "10", "stacks": ["[8] [CL] 2", "[CL] [8] 3", "[8] 6", "[CL]"]},
    ],
}


def swapped_clear4(position: dict[str, Any]) -> dict[str, Any]:
    """The same Clear 4 position with every card hidden from seat 0 changed (8 and CLEAR become 1 and 10)."""
    text = json.dumps(position)
    for hidden, other in (("[8]", "[A]"), ("[CL]", "[10]")):
        text = text.replace(hidden, other)
    data = json.loads(text)
    data["seats"][1]["hand"] = "A A 10"
    return dict(data)


def clear4_app(home: Path, seats: list[dict[str, Any]], pile: str = "", **extra: Any) -> GameApp:
    """An app playing Clear 4 whose hand is this position, seat 0 (you) to move, Auto pacing."""
    app = GameApp(home)
    app.set_players(len(seats))
    app.set_preset(CLEAR4)
    app.set_pacing("Auto")
    app.deal(seed=3)
    assert app.game is not None
    full = [
        {
            "hand": s.get("hand", ""),
            "known": s.get("known", ""),
            "stacks": list(s.get("stacks", ())) + [""] * (4 - len(s.get("stacks", ()))),
        }
        for s in seats
    ]
    data = {"rules": app.setup.rules.to_dict(), "turn": 0, "dealer": len(seats) - 1, "pile": pile, "seats": full}
    app.game.state = State.from_position(data | extra)
    app.refresh()
    return app


def labels_of(app: GameApp) -> dict[str, str]:
    return {a["move"]: a["label"] for a in app.table.table["actions"]}


class TestClear4:
    """R22 in the app: setup, three-card stacks, its cards and moves, the coach, replays, saves and scores."""

    def test_preset_in_setup(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(8)
        assert "Clear 4" in app.preset.options
        app.preset.value = CLEAR4  # the form's dropdown, as a learner picks it
        rules = app.setup.rules
        assert rules.clear4 and rules.players == 6 and len(app.seat_rows.children) == 6
        assert app.players.options == (2, 3, 4, 5, 6) and app.players.value == 6
        shown = {name for name, widget in app.rule_widgets.items() if widget.layout.display != "none"}
        assert shown == {"rounds"} and app.clear4_note.layout.display != "none"
        with pytest.raises(ValueError, match="2 to 6"):
            app.set_players(7)
        with pytest.raises(ValueError, match="Clear 4 has no such setting"):
            app.set_rule("risk_play", True)
        app.set_rule("rounds", 2)
        assert app.setup.rules.rounds == 2
        app.set_preset("Canada")
        rules = app.setup.rules
        assert not rules.clear4 and rules.preset == "Canada" and rules.end_condition == "score"
        assert rules.players == 6 and app.players.options == tuple(range(2, 9))
        assert all(widget.layout.display != "none" for widget in app.rule_widgets.values())
        assert app.clear4_note.layout.display == "none"

    def test_deal_draws_three_card_stacks(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(3)
        app.set_preset(CLEAR4)
        app.set_pacing("Step")
        app.deal(seed=5)
        table = app.table.table
        assert table["view"]["rules"]["game"] == CLEAR4 and len(table["view"]["hand"]) == 8
        for seat in table["view"]["seats"]:
            assert all(stack[:2] == [None, None] and stack[2] is not None for stack in seat["stacks"])
        assert json.loads(app.table.synced_json())["table"]["view"]["seats"] == table["view"]["seats"]

    def test_push_picks_a_seat_and_pass(self, tmp_path: Path) -> None:
        app = clear4_app(
            tmp_path, [{"hand": "P 9 5", "stacks": ["[2] [3] 6"]}, {"hand": "3 4"}, {"hand": "4 4"}], pile="8@1 7@2"
        )
        app.set_pacing("Step")
        labels = labels_of(app)
        assert labels["push → 1"] == "Push to Ann" and labels["push → 2"] == "Push to Ben"
        assert labels["take"] == "Pass" and labels["1×6 s1"] == "Play 1× 6 (pile 1)"
        pushes = [a for a in app.table.table["actions"] if a["move"].startswith("push")]
        assert [(a["cards"], a["to"]) for a in pushes] == [(["h:P"], 1), (["h:P"], 2)]  # one card, a seat each
        assert app.table.receive({"type": "move", "move": "push → 2"})  # the page's seat picker
        assert app.state is not None
        assert app.state.to_position()["seats"][2]["hand"] == "8 7 4 4" and app.state.turn == 1
        assert "You: Push to Ben" in app.last
        while app.state.turn != 0:
            app.next()
        if app.state.pile:
            app.play("take")
            assert "You: Pass — 💥 took the pile" in app.last

    def test_pass_is_labelled_and_played(self, tmp_path: Path) -> None:
        app = clear4_app(tmp_path, [{"hand": "9 5"}, {"hand": "3 3"}], pile="4@1")
        assert labels_of(app)["take"] == "Pass"
        app.set_pacing("Step")
        app.play("take")
        assert app.state is not None and app.state.to_position()["seats"][0]["hand"] == "9 5 4"
        assert app.last.endswith("You: Pass — 💥 took the pile: 4")

    def test_jokers_cards_and_pile_value(self, tmp_path: Path) -> None:
        app = clear4_app(tmp_path, [{"hand": "J* 5 5 A", "stacks": ["[2] [3] J*"]}, {"hand": "3 3"}], pile="8@1")
        app.set_pacing("Step")
        actions = {a["move"]: a for a in app.table.table["actions"]}
        assert actions["2×5+J*"]["cards"] == ["h:5", "h:5", "h:J*"]
        assert actions["2×5+J*"]["label"] == "Play 2× 5 + 1× JOKER"
        assert actions["1×J*"]["cards"] == ["h:J*"] and actions["1×J*"]["label"] == "Play 1× JOKER"
        assert actions["1×A"]["label"] == "Play 1× 1"
        assert app.table.table["view"]["pile_value"] == "8"
        app.play("2×5+J*")
        seen = app.table.table["view"]
        assert seen["pile"][-1] == {"card": "J*", "by": 0, "as": "5"} and seen["pile_value"] == "5"

    def test_middle_card_turns_up_and_add(self, tmp_path: Path) -> None:
        app = clear4_app(tmp_path, [{"hand": "7", "stacks": ["[2] [6] 6"]}, {"hand": "3 3"}], pile="8@1")
        app.set_pacing("Step")
        app.play("1×6 s1")
        table = app.table.table
        assert table["view"]["exposed"] == [1] and table["view"]["seats"][0]["stacks"][0] == [None, "6"]
        assert labels_of(app) == {"add 0": "Add none", "add 1×6 s1": "Add 1× 6 (pile 1)"}
        assert "add matching cards" in table["status"]
        assert table["adding"] is None, "Clear 4 adds after a play of several: no turned card 1 (R22)"
        assert not app.can_undo()  # it turned a hidden card (C9)
        app.play("add 1×6 s1")
        assert app.table.table["view"]["seats"][0]["stacks"][0] == [None]

    def test_blind_push_offers_a_seat_each(self, tmp_path: Path) -> None:
        app = clear4_app(tmp_path, [{"hand": "9", "stacks": ["[P]"]}, {"hand": "3"}, {"hand": "4"}], pile="8@1")
        app.set_pacing("Step")
        assert labels_of(app)["flip 1"] == "Flip pile 1"
        app.play("flip 1")
        assert "(turned PUSH)" in app.last and "choose who gets the pile" in app.table.table["status"]
        assert labels_of(app) == {"push blind → 1": "Push to Ann", "push blind → 2": "Push to Ben"}
        assert [a["to"] for a in app.table.table["actions"]] == [1, 2]
        app.play("push blind → 1")
        assert app.state is not None and app.state.to_position()["seats"][1]["hand"] == "8 3"

    def test_coach_play(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(3)
        app.set_preset(CLEAR4)
        app.set_pacing("Auto")
        app.deal(seed=9)
        for _ in range(6):
            assert app.state is not None
            if app.state.over:
                break
            advice = app.advice()
            assert advice is not None
            done = len(app.state.moves)
            label = move_label(advice.move, view(app.state, app.state.turn), app.game.names)
            assert app.coach_play_button.description == f"Coach: {label}"
            app.coach_play_button.click()
            assert app.state.moves[done] == advice.move

    def test_no_hidden_card_in_the_synced_table(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, HIDDEN_CLEAR4, preset=CLEAR4, level=(0, "Average"))
        app.open_analysis(True)
        text = app.table.synced_json()
        assert '"8"' not in text and '"CL"' not in text
        labels = " ".join(a["label"] for a in app.table.table["actions"])
        assert not re.search(r"\b8\b|CLEAR", labels)
        for seat in app.table.table["view"]["seats"]:
            for stack in seat["stacks"]:
                assert all(card is None for card in stack[:-1])

    def test_everything_synced_is_the_same_when_hidden_cards_change(self, tmp_path: Path) -> None:
        one = app_at(tmp_path / "a", HIDDEN_CLEAR4, preset=CLEAR4, level=(0, "Average"))
        two = app_at(tmp_path / "b", swapped_clear4(HIDDEN_CLEAR4), preset=CLEAR4, level=(0, "Average"))
        for app in (one, two):
            app.open_analysis(True)
            app.compare_coaches()
        assert one.table.synced_json() == two.table.synced_json()
        assert synced(one.root) == synced(two.root)

    def test_replayer_steps_through_a_hand(self) -> None:
        state = State.deal(Rules.from_preset(CLEAR4, players=3), seed=12)
        rng = random.Random(2)
        while not state.over and len(state.moves) < 80:
            state.play(rng.choice(state.legal_moves()))
        r = Replayer.from_state(state, names=["You", "Daryl", "Madonna"])
        seen = r.table.table["view"]
        assert all(len(stack) == 3 for stack in seen["seats"][0]["stacks"])
        for step in range(len(state.moves)):
            r.go(step)
            assert r.info.value.startswith("Next:")
        r.last()
        assert r.states[-1].to_position() == state.to_position()
        r.set_seat(REVIEW)
        review = r.table.table["view"]["seats"]
        assert all(card is not None for seat in review for stack in seat["stacks"] for card in stack)
        pushes = [m for m in r.moves if m.kind == "push"]
        if pushes:
            step = r.moves.index(pushes[0])
            r.go(step + 1)
            assert "Push to" in r.table.table["last"]

    def test_save_resume_rounds_and_scores(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(3)
        app.set_preset(CLEAR4)
        app.set_rule("rounds", 2)
        app.set_pacing("Auto")
        app.deal(seed=8)
        assert app.state is not None
        app.play(str(app.state.legal_moves()[0]))
        position = app.state.to_position()
        again = GameApp(tmp_path)
        assert again.resume_label == "Continue — 3 players, round 1"
        again.continue_game()
        assert again.state is not None and again.state.to_position() == position
        assert again.setup.rules.clear4 and again.preset.value == CLEAR4 and again.players.options == (2, 3, 4, 5, 6)
        again.set_automate(True)
        again.set_automate(False)
        assert again.game is not None and len(again.game.results) == 1 and not again.game.over
        first = again.game.results[0]
        assert "Hand" in again.this_game.value and again.table.table["step"] == "Next hand"
        again.next()  # Next hand: the second round
        assert again.game.hand_number == 2
        assert GameApp(tmp_path).resume_label == "Continue — 3 players, round 2"
        again.set_automate(True)
        assert again.game.over and len(again.game.results) == 2
        totals = [a + b for a, b in zip(first.scores, again.game.results[1].scores, strict=True)]
        assert again.game.totals == totals and "Game over" in again.table.table["status"]
        assert again.history.games()[0]["totals"] == totals
        r = again.open_replay(2)
        r.last()
        assert r.states[-1].over and r.states[-1].scores() == list(again.game.results[1].scores)


class TestPlayBar:
    """Clears and busts show the cards swept away or taken: those cards are public (R9–R11)."""

    def test_swept_and_taken_cards_are_named(self, tmp_path: Path) -> None:
        app = app_at(
            tmp_path,
            {
                "rules": {"players": 2},
                "turn": 0,
                "pile": "9@1 9@1 9@1",
                "seats": [{"hand": "9 K 4"}, {"hand": "Q Q 5"}],
            },
        )
        app.play("1×9")
        assert any(line.endswith("1× 9 — clear — cleared 9 9 9 9, plays again") for line in app.sitting.log)
        bust = app_at(
            tmp_path / "b",
            {"rules": {"players": 2}, "turn": 0, "pile": "4@1 Q@1", "seats": [{"hand": "K"}, {"hand": "Q Q 5"}]},
        )
        bust.play("take")
        assert any("took the pile: Q 4" in line for line in bust.sitting.log)

    def test_a_blind_card_is_named_from_the_move_outcome(self, tmp_path: Path) -> None:
        """The card a flip turned is public once it is on the pile (R12): the Play Bar names it, landed or not."""
        landed = app_at(
            tmp_path,
            {
                "rules": {"players": 2},
                "turn": 0,
                "pile": "9@1",
                "seats": [{"hand": "", "stacks": ["[3]", "[4]", "", ""]}, {"hand": "Q Q"}],
            },
        )
        landed.play("flip 1")
        assert "You: Flip pile 1 (turned 3)" in landed.sitting.log
        bust = app_at(
            tmp_path / "b",
            {
                "rules": {"players": 2},
                "turn": 0,
                "pile": "9@1",
                "seats": [{"hand": "", "stacks": ["[K]", "[4]", "", ""]}, {"hand": "Q Q"}],
            },
        )
        bust.play("flip 1")
        assert "You: Flip pile 1 (turned K) — 💥 took the pile: K 9" in bust.sitting.log

    def test_the_dealer_agrees_with_its_verb(self, tmp_path: Path) -> None:
        """ "You deal" and "Ann deals", never "You deals"."""
        dealers = {}
        for seed in range(12):
            app = GameApp(tmp_path / str(seed))
            app.deal(seed=seed)
            assert app.game is not None
            dealers[app.game.dealer] = app.sitting.log[0]
        assert dealers[0] == "You deal" and dealers[1] == "Ann deals", dealers


RISKY = {
    "rules": {"players": 2, "risk_play": True},
    "turn": 0,
    "pile": "K@1",
    "seats": [{"hand": "9", "stacks": ["[3] 9", "[A] 4", "[5] Q", "[6] 2"]}, {"hand": "Q Q 8 7"}],
}


class TestRiskCombos:
    """``Play 2× 9 + Risk pile 1`` plays the set, then gambles that stack's Risk card at once (R17)."""

    def test_combo_buttons_and_the_python_twin(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, RISKY)
        actions = app.table.table["actions"]
        combo = [a for a in actions if a.get("then")]
        expected = [("Play 2× 9 + Risk pile 1", "gamble 1", 0)]
        assert [(a["label"], a["then"], a["stack"]) for a in combo] == expected
        assert app.table.receive({"type": "combo", "move": combo[0]["move"], "then": combo[0]["then"]})
        assert app.game is not None
        played = [str(m) for m in app.game.state.moves[:2]]
        assert played == ["2×9 s1", "gamble 1"]

    def test_a_combo_that_cannot_gamble_changes_nothing(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, RISKY)
        assert app.game is not None
        before = app.game.state.to_position()
        assert not app.table.receive({"type": "combo", "move": "2×9 s1", "then": "gamble 3"})
        assert "cannot follow" in app.table.error
        assert app.game.state.to_position() == before
        assert not app.table.receive({"type": "combo", "move": "2×9 s1"})
        assert app.game.state.to_position() == before

    def test_dim_marks_the_option_and_leaves_the_cards_alone(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, RISKY)
        app.dim.value = True
        assert app.table.table["dim"] is True and app.setup.dim
        used = {c for a in app.table.table["actions"] for c in a["cards"]}
        assert "h:9" in used and "s:1" not in used  # the 4 on stack 2 plays nowhere: the page dims it

    def test_a_card_only_shown_to_take_is_dimmed(self, tmp_path: Path) -> None:
        """Over a 5, the 9 can only be shown to take the pile: it is not playable, and is dimmed."""
        position = {
            "rules": {"players": 2},
            "turn": 0,
            "pile": "5@1",
            "seats": [{"hand": "9 3", "stacks": ["[Q] 8", "[J] 7", "[Q] 6", "[J] 4"]}, {"hand": "Q Q 8 7"}],
        }
        app = app_at(tmp_path, position, dim=True)
        table = app.table.table
        shown = {c for a in table["actions"] if a["move"].startswith("take") for c in a["cards"]}
        assert "h:9" in shown and "h:9" not in table["playable"]
        assert table["playable"] == ["h:3"]  # the Board waits until the hand is spent (R7)


class TestLearners:
    """Each browser names its learner; a learner's save, setup and history are their own (one server, a class)."""

    def test_two_learners_on_one_home_keep_their_games_apart(self, tmp_path: Path) -> None:
        ann, ben = GameApp(tmp_path), GameApp(tmp_path)
        assert ann.table.receive({"type": "ready", "learner": "ann-1"})
        assert ben.table.receive({"type": "ready", "learner": "ben-2"})
        ann.deal(seed=5)
        assert ann.save_path.exists() and ann.save_path.parent == tmp_path / "learners" / "ann-1"
        assert not ben.save_path.exists() and ben.resume_label is None, "ann's game is not offered to ben"
        ben.deal(seed=6)
        again = GameApp(tmp_path)
        again.table.receive({"type": "ready", "learner": "ann-1"})
        assert again.resume_label is not None and again.save_path == ann.save_path
        again.continue_game()
        assert again.game is not None and again.game.seed == 5

    def test_a_bad_learner_name_is_refused_and_nothing_changes(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        for bad in ("../ann", "", "a" * 65, "ann/ben", 7):
            assert not app.table.receive({"type": "ready", "learner": bad})
            assert app.table.error and app.home == tmp_path and app.learner is None
        app.deal(seed=1)
        assert not app.table.receive({"type": "ready", "learner": "late"}), "a learner is named before a game"
        assert app.home == tmp_path and app.game is not None


# Ann, to move, holds only a K over a 9: the pile is hers (a bust). A 9 of hers on three 9s sweeps them (R10).
BUSTING = {
    "rules": {"players": 2, "bust_penalty": 25},
    "turn": 1,
    "dealer": 0,
    "pile": "9@0",
    "seats": [
        {"hand": "5 3", "stacks": ["[Q] 8", "[J] 7", "[Q] 6", "[J] 4"]},
        {"hand": "K", "stacks": ["", "", "", ""]},
    ],
}
CLEARING = {
    "rules": {"players": 2},
    "turn": 1,
    "dealer": 0,
    "pile": "9@0 9@0 9@0",
    "seats": [
        {"hand": "5 3", "stacks": ["[Q] 8", "[J] 7", "[Q] 6", "[J] 4"]},
        {"hand": "9", "stacks": ["[3] 4", "", "", ""]},
    ],
}
# You go out with your 5; Ann has busted twice under a 25-point penalty and keeps a Risk card face down.
GOING_OUT = {
    "rules": {"players": 2, "bust_penalty": 25},
    "turn": 0,
    "dealer": 1,
    "pile": "9@1",
    "seats": [{"hand": "5", "stacks": ["", "", "", ""]}, {"hand": "K Q", "busts": 2, "stacks": ["[7] 2", "", "", ""]}],
}


class TestPacing:
    """The glossary's Pause between Players: Step is the default, pauses on an AI seat's clear or bust until
    Continue; Auto plays on."""

    def test_step_is_the_default(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        assert app.setup.pacing == "Step" and app.form.pacing.value == "Step" and app.loop.step_pacing.value == "Step"
        assert not app.setup.pile_counts and not app.form.pile_counts.value

    def test_a_bust_pauses_with_continue(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, BUSTING, pacing="Step")
        assert app.table.table["step"] == "Next" and app.table.table["pause"] is None
        app.next()
        table = app.table.table
        assert table["step"] == "Continue" and table["pause"]["kind"] == "bust"
        assert table["pause"]["text"] == "💥 Ann took the pile: 9"
        assert table["pause"]["by"] == [0] * len(table["pause"]["cards"])  # the pile you laid, not Ann's
        app.table.receive({"type": "next"})  # Continue, from the page
        assert app.table.table["pause"] is None and app.table.table["step"] == ""
        assert app.state is not None and app.state.turn == 0

    def test_a_clear_pauses_with_the_swept_cards_shown(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, CLEARING, pacing="Step")
        app.next()
        table = app.table.table
        assert table["pause"] == {
            "kind": "clear",
            "seat": 1,
            "cards": ["9"] * 4,
            "by": [0, 0, 0, 1],  # each card in its player's colour: you laid three, Ann the fourth
            "text": "Ann cleared the pile: 9 9 9 9",
        }
        assert table["view"]["pile"] == [] and table["step"] == "Continue"
        done = len(app.state.moves) if app.state else 0
        app.next()  # Continue ends the pause and plays nothing
        assert app.state is not None and len(app.state.moves) == done and app.table.table["step"] == "Next"

    def test_your_play_ends_a_pause(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, BUSTING, pacing="Step")
        app.next()
        app.play("1×5")
        assert app.table.table["pause"] is None

    def test_auto_plays_on_without_a_pause(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, CLEARING)
        app.set_pacing("Auto")
        assert app.table.table["pause"] is None and app.table.table["step"] != "Continue"


class TestAutoDelay:
    """Auto pacing with a delay (the dashboard's): one AI move per tick of the event loop, each redrawn and saved,
    the learner's controls live between ticks; without a delay or an event loop the AI seats play at once."""

    @staticmethod
    def dealt(home: Path, delay: float = 30.0) -> GameApp:
        """Four seats, Auto pacing, the known deal: called inside a running event loop, the AI moves wait."""
        app = GameApp(home, auto_delay=delay)
        app.set_players(4)
        app.set_pacing("Auto")
        app.deal(seed=3)
        return app

    @staticmethod
    def to_your_turn(app: GameApp) -> None:
        while app.loop.tick_pending:
            app.run_pending(1)
        assert app.state is not None and app.state.turn == 0

    def test_one_ai_move_per_tick_each_redrawn_and_saved(self, tmp_path: Path) -> None:
        from cut_tutor.storage import load_game

        async def run() -> None:
            app = self.dealt(tmp_path)
            self.to_your_turn(app)
            assert app.state is not None
            app.play(app.state.legal_moves()[0])
            ticks = 0
            while app.loop.tick_pending:
                before, last = len(app.state.moves), app.table.table["last"]
                assert app.run_pending(1) == 1
                ticks += 1
                assert len(app.state.moves) == before + 1  # one AI move, no more
                assert app.table.table["last"] != last  # the Play Bar names it at once
                if not app.state.over:
                    assert load_game(app.save_path).state.moves == app.state.moves  # and it is saved
            assert ticks >= 1 and (app.state.turn == 0 or app.state.over)
            assert app.run_pending() == 0

        asyncio.run(run())

    def test_the_event_loop_plays_the_ticks(self, tmp_path: Path) -> None:
        async def run() -> list[int]:
            app = self.dealt(tmp_path, delay=0.01)
            self.to_your_turn(app)
            assert app.state is not None
            app.play(app.state.legal_moves()[0])
            seen = [len(app.state.moves)]
            for _ in range(300):
                await asyncio.sleep(0.005)
                seen.append(len(app.state.moves))
                if app.state.turn == 0 and not app.loop.tick_pending:
                    break
            return seen

        seen = asyncio.run(run())
        assert seen[-1] - seen[0] >= 2, seen  # the AI seats answered, on the loop's own ticks
        assert all(b - a <= 1 for a, b in itertools.pairwise(seen)), seen  # one move per tick

    def test_automate_plays_the_hand_out_without_the_delay_and_esc_stops_it(self, tmp_path: Path) -> None:
        async def run() -> tuple[int, int, int]:
            app = self.dealt(tmp_path)  # a 30 s delay: no reply of the AI seats lands while this test runs
            self.to_your_turn(app)
            assert app.state is not None
            app.set_automate(True)
            start = len(app.state.moves)
            for _ in range(200):
                await asyncio.sleep(0)
                if len(app.state.moves) >= start + 2:
                    break
            app.table.receive({"type": "automate", "on": False})  # Esc, between two moves
            stopped = len(app.state.moves)
            for _ in range(20):
                await asyncio.sleep(0)
            assert app.loop.tick_pending == (app.state.turn != 0)  # an AI seat's reply waits its full delay again
            return start, stopped, len(app.state.moves)

        start, stopped, end = asyncio.run(run())
        assert stopped >= start + 2  # your seat and the AI seats played on at once, tick by tick
        assert end == stopped  # after Esc nothing plays at once

    def test_step_undo_and_esc_cancel_the_waiting_move(self, tmp_path: Path) -> None:
        async def run() -> None:
            app = self.dealt(tmp_path)
            self.to_your_turn(app)
            assert app.state is not None
            app.play(next(m for m in app.state.legal_moves() if m.kind == "play"))
            played = len(app.state.moves)
            assert app.loop.tick_pending and app.can_undo()
            app.undo()  # Undo between ticks: nothing waits, it is your turn again
            assert not app.loop.tick_pending and app.state.turn == 0 and len(app.state.moves) == played - 1
            app.set_automate(True)  # the coach plays your seat at the same pace
            assert app.loop.tick_pending and len(app.state.moves) == played - 1
            app.table.receive({"type": "automate", "on": False})  # Esc before the tick: your seat is yours
            assert not app.loop.tick_pending and len(app.state.moves) == played - 1
            app.play(next(m for m in app.state.legal_moves() if m.kind == "play"))
            assert app.loop.tick_pending
            app.set_pacing("Step")  # Step waits for Next instead
            assert not app.loop.tick_pending and app.table.table["step"] == "Next"
            assert app.run_pending() == 0 and len(app.state.moves) == played
            app.set_pacing("Auto")
            assert app.loop.tick_pending
            app.reset_play()
            assert not app.loop.tick_pending

        asyncio.run(run())

    def test_a_tick_that_cannot_be_saved_takes_its_move_back(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from cut_tutor.storage import saves as saves_module

        async def run() -> None:
            app = self.dealt(tmp_path)
            self.to_your_turn(app)
            assert app.state is not None
            app.play(app.state.legal_moves()[0])
            position, saved = app.state.to_position(), app.save_path.read_bytes()

            def full(*_args: Any, **_kwargs: Any) -> None:
                raise OSError(28, "No space left on device")

            monkeypatch.setattr(saves_module, "save_game", full)
            assert app.run_pending(1) == 1
            assert app.state.to_position() == position and app.save_path.read_bytes() == saved
            assert "disk is full" in app.table.error and not app.loop.tick_pending  # stopped, and says why
            monkeypatch.undo()
            app.set_pacing("Auto")  # plays on from where it stopped
            assert app.run_pending(1) == 1 and app.state.to_position() != position

        asyncio.run(run())

    def test_without_an_event_loop_the_ai_plays_at_once(self, tmp_path: Path) -> None:
        app = self.dealt(tmp_path, delay=0.5)
        assert app.state is not None and app.state.turn == 0 and not app.loop.tick_pending


class TestHandOver:
    """The round-over panel: who went out, every seat's cards with Risk cards face up (only once the hand is
    over), the hand's points with the bust add-on apart, running totals and Next hand."""

    def test_panel_after_going_out(self, tmp_path: Path) -> None:
        app = app_at(tmp_path, GOING_OUT)
        assert app.table.table["hand_over"] is None  # nothing hidden is shown before the hand is over
        assert app.table.table["view"]["seats"][1]["stacks"][0] == [None, "2"]
        app.play("1×5")
        over = app.table.table["hand_over"]
        assert over["title"] == "You went out — hand over" and over["next"] == "Next hand"
        you, ann = over["seats"]
        assert you["hand"] == [] and you["points"] == 0 and you["addon"] == ""
        assert ann["hand"] == ["K", "Q"] and ann["stacks"][0] == [
            {"card": "7", "risk": True},
            {"card": "2", "risk": False},
        ]
        assert ann["addon"] == "💥×2 +50" and ann["score"] == ann["points"] + 50 and ann["total"] == ann["score"]
        assert app.table.table["step"] == "Next hand"
        app.table.receive({"type": "next"})
        assert app.game is not None and app.game.hand_number == 2 and app.table.table["hand_over"] is None


class TestTitleAndPlayBar:
    """One Title Bar (Guide and Scores links, New game) and a Play Bar with a history headed by the cut."""

    def test_links_history_and_the_cut(self, app: GameApp) -> None:
        table = app.table.table
        assert table["links"]["guide"].endswith("index.html") and "scoring.html" in table["links"]["scores"]
        assert app.game is not None
        assert table["history"][0].startswith("Cut for dealer: ")
        assert table["history"][1:] == list(app.sitting.log[-20:])
        assert table["history"][0].endswith(f"{app.game.names[app.game.dealer]} deals") or app.game.dealer == 0

    def test_the_first_hand_opens_on_the_cut(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.deal(seed=3)  # Step: nobody has moved yet
        assert app.game is not None and app.state is not None and not app.state.moves
        last = app.table.table["last"]
        assert last.startswith("Cut for dealer: You ") and last.endswith(f"{app.game.names[app.game.dealer]} deals")
        app.next()
        assert not app.table.table["last"].startswith("Cut for dealer")

    def test_new_game_from_the_title_bar(self, app: GameApp) -> None:
        assert app.table.receive({"type": "new_game"})
        assert app.game is None and app.setup_box.layout.display != "none"

    def test_each_control_once(self, app: GameApp) -> None:
        """Next, Automate Player and New game are the table's buttons: the play box holds only the pacing."""
        assert list(app.loop.controls.children) == [app.loop.step_pacing]


class TestSetupSwitches:
    def test_ai_seats_are_not_the_coaches(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(8)
        names = {s.name for s in app.setup.seats}
        assert len(names) == 8 and not names & {"Daryl", "Madonna", "Marty"}

    def test_automate_player_in_setup(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.form.automate.value = True  # the setup's switch
        assert app.setup.automate
        app.set_pacing("Auto")
        app.deal(seed=4)
        assert app.game is not None and app.game.automated[0] and app.state is not None and app.state.over

    def test_reset_asks_first_while_a_game_is_in_progress(self, app: GameApp) -> None:
        app.set_automate(True)
        if app.game is not None and not app.game.over:
            app.next_hand()
        app.open_replay(1)
        assert app.game is not None
        assert app.ask_reset() and app.form.reset_ask.layout.display != "none"
        app.cancel_reset()
        assert app.game is not None and app.form.reset_ask.layout.display == "none"
        app.form.reset_button.click()
        app.form.reset_yes.click()
        assert app.setup.seats[1].name == "Ann" and app.replayer is None and app.game is None
        assert app.score_panel.replay_box.children == ()

    def test_reset_after_new_game_does_not_ask(self, app: GameApp) -> None:
        """New game leaves the table; the game waits for Continue, so Reset has nothing to end."""
        app.reset_play()
        app.set_name(1, "Zoe")
        assert not app.ask_reset() and app.setup.seats[1].name == "Ann"

    def test_reset_without_a_game_does_not_ask(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_name(1, "Zoe")
        assert not app.ask_reset() and app.setup.seats[1].name == "Ann"

    def test_the_legend_s_means_a_clear(self, app: GameApp) -> None:
        legend = dict(app.table.table["words"]["legend"])
        assert legend["S"].startswith("Clear") and app.table.table["legend"]["S"].endswith("rules.html#clear-play")


class TestDealCodes:
    """The deal field takes a seed or a deal code, as notebook 01 hands them out."""

    def test_a_deal_code_deals_its_hand_and_the_game_is_saved(self, tmp_path: Path) -> None:
        code = deal_code(Rules(players=3), 12345, 2)
        app = GameApp(tmp_path)
        app.set_players(3)
        app.seed.value = code
        app.deal_button.click()
        assert app.table.error == ""
        assert app.game is not None and app.state is not None
        assert app.state.deal_code == code and app.game.dealer == 2
        assert app.state.to_position() == state_from_deal(code).to_position()
        assert f"Dealt from code {code}" in " ".join(app.sitting.log)
        assert not app.table.table["history"][0].startswith("Cut for dealer")
        app.coach_play() if app.state.turn == 0 else app.next()
        position = app.state.to_position()
        again = GameApp(tmp_path)  # the tab comes back: the code's hand continues where it was
        again.set_players(3)
        again.continue_game()
        assert again.game is not None and again.game.first == code and again.state is not None
        assert again.state.to_position() == position

    @pytest.mark.parametrize("seed", ["9" * 5000, str(2**63)])
    def test_a_seed_too_large_is_refused_with_the_seeds_range(self, tmp_path: Path, seed: str) -> None:
        app = GameApp(tmp_path)
        app.seed.value = seed
        app.deal_button.click()
        assert app.game is None and "seed: too large; a seed is a whole number from" in app.table.error
        app.seed.value = "0" * 30 + "21"  # leading zeros are no part of its size
        app.deal_button.click()
        assert app.game is not None and app.game.seed == 21

    def test_a_code_for_other_seats_is_refused(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.seed.value = deal_code(Rules(players=3), 12345, 2)  # the setup seats four
        app.deal_button.click()
        assert app.game is None and "deal" in app.table.error
        app.seed.value = "not-a-code"
        app.deal_button.click()
        assert app.game is None and "is not a deal code" in app.table.error
