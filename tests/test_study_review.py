"""Studying and reviewing: the analysis table, Compare all three, the replayer's move list and disagreements,
and the downloads of scores and hand records."""

from __future__ import annotations

import base64
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from cut_tutor.analysis import Analysis, MoveValue
from cut_tutor.coach import advise
from cut_tutor.coach.scoring import COMPONENTS
from cut_tutor.coach.words import COMPONENT_HELP
from cut_tutor.engine import Move, Rules, State, replay, view
from cut_tutor.widgets import GameApp, Replayer, move_label
from cut_tutor.widgets.move_table import analysis_html, move_rows, move_table_html
from cut_tutor.widgets.replayer import REVIEW
from cut_tutor.widgets.table import IntentError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def app(tmp_path: Path) -> GameApp:
    app = GameApp(tmp_path)
    app.set_players(3)
    app.deal(seed=11)
    app.open_analysis(True)
    return app


def rows(html: str) -> list[str]:
    return re.findall(r"<tr data-move=.*?</tr>", html)


def downloaded(note: str) -> tuple[str, str]:
    """The file name and text of the download link in a note."""
    found = re.search(r'download="([^"]+)" href="data:[^;]+;charset=utf-8;base64,([^"]+)"', note)
    assert found is not None, note
    return found[1], base64.b64decode(found[2]).decode()


class TestMoveTable:
    def test_every_move_in_the_buttons_words_recommended_marked_and_the_gap_to_the_best(self, app: GameApp) -> None:
        advice, state = app.advice(), app.state
        assert advice is not None and state is not None
        html = app.analysis_html.value
        found = rows(html)
        assert len(found) == len(state.legal_moves())
        buttons = {a["move"]: a["label"] for a in app.table.table["actions"] if "then" not in a}
        for row, cand in zip(found, advice.candidates, strict=True):
            assert f'data-move="{cand.move}"' in row
            assert f">{buttons[str(cand.move)]}</button>" in row  # the table's own button text
            assert ("cut-mt-rec" in row) == (cand.move == advice.move)
        best = max(c.total for c in advice.candidates)
        worst = min(advice.candidates, key=lambda c: c.total)
        assert f"−{best - worst.total:.1f}" in rows(html)[advice.candidates.index(worst)]
        shown = re.sub(r"<[^>]+>", " ", html.split("</style>")[1])  # the words on the page, not its attributes
        assert not re.search(r"\bTrue\b|\bFalse\b|\d×[A-Z0-9]|\btake\b", shown)

    def test_each_part_explained_on_hover_and_in_the_guide(self, app: GameApp) -> None:
        html = app.analysis_html.value
        guide = (ROOT / "guide" / "docs" / "coach.md").read_text(encoding="utf-8")
        for part in COMPONENTS:
            assert f'title="{part}: {COMPONENT_HELP[part]}"' in html
            assert f"| {part} | {COMPONENT_HELP[part]}" in guide
        assert html.count('class="cut-mt-bar"') == len(rows(html)) * (len(COMPONENTS) + 1)  # a bar per part + total

    def test_a_row_click_selects_the_play_on_the_table(self, app: GameApp) -> None:
        state = app.state
        assert state is not None
        move, played = state.legal_moves()[-1], len(state.moves)
        assert app.table.receive({"type": "select", "move": str(move)})
        selected = app.table.table["selected"]
        assert selected["move"] == str(move) and selected["cards"]
        assert len(state.moves) == played  # selected, not played
        row = next(r for r in rows(app.analysis_html.value) if f'data-move="{move}"' in r)
        assert "cut-mt-sel" in row and 'aria-pressed="true"' in row
        app.play(move)
        assert app.table.table["selected"] is None and app.coach.selected() is None

    def test_a_play_that_is_not_legal_is_refused(self, app: GameApp) -> None:
        assert not app.table.receive({"type": "select", "move": "13×K"})
        assert "not one of your legal plays" in app.table.error and app.table.table["selected"] is None
        with pytest.raises(IntentError):
            app.select_play("take 9")

    def test_the_rollouts_join_the_table(self, app: GameApp) -> None:
        assert "expected" not in app.analysis_html.value
        app.start_rollouts(seconds=None, rollouts=24, wait=True)
        done = app.coach.rollouts()
        assert done is not None
        html = app.analysis_html.value
        assert "expected" in html and "rollouts" in html and html.count("<small>± ") == len(rows(html))
        best = next(r for r in rows(html) if f'data-move="{done.best.move}"' in r)
        assert (
            "cut-mt-best" in best and f"Best by the rollouts: <b>{done.best.label}</b>" in app.coach.rollout_html.value
        )


#: Seat 0 on a 9 with K and Q above it: two takes that differ only by the card shown (R11), and three plays under.
TAKES = {"rules": {"players": 2}, "turn": 0, "pile": "9@1",
         "seats": [{"hand": "K Q 5 5 3"}, {"hand": "K K Q Q 9"}]}  # fmt: skip


class TestTableALearnerReads:
    """The verdict's columns only, the parts behind a named button, no engine notation, takes as one choice."""

    def analysis(self, seen: dict[str, Any], expected: dict[str, float]) -> Analysis:
        """Rollouts with known figures: ``expected`` by move text, the lowest best."""
        low = min(expected.values())
        values = [
            MoveValue(Move.parse(m), m, e, e - 2, e + 2, e - low, e - low - 3, e - low + 3, 0.0, 40,
                      "best" if e == low else "close" if e - low - 3 <= 0 else "worse")
            for m, e in sorted(expected.items(), key=lambda kv: kv[1])
        ]  # fmt: skip
        return Analysis(seen["seat"], values, 200, 0.5, "budget", 0, "Expert:Balanced")

    def test_takes_differing_only_by_the_card_shown_are_one_choice(self) -> None:
        seen = view(State.from_position(TAKES), 0)
        advice = advise(seen, coach="Madonna", level="Expert")
        found = self.analysis(seen, {"1×3": 20.0, "1×5": 18.0, "2×5": 15.0, "take Q": 63.3, "take K": 75.5})
        table = move_rows(advice, found)
        takes = [r for r in table if r.move.kind == "take"]
        assert len(table) == 4 and len(takes) == 1
        (take,) = takes
        # the take's figures are those of the better take, the card shown its detail
        assert (take.label, str(take.move), take.detail) == ("Take the pile", "take Q", "showing Q (or K)")
        assert take.rollout is not None and take.rollout.expected == 63.3
        html = move_table_html(table, "Madonna")
        assert html.count(">Take the pile</button>") == 1 and "75.5" not in html
        shown = re.sub(r"<[^>]+>", " ", html.split("</style>")[1])
        assert not re.search(r"\btake\b|\d×\d|\d×[A-Z]", shown)  # no engine notation where a learner reads

    def test_verdict_columns_first_the_parts_behind_a_named_button(self, app: GameApp) -> None:
        app.start_rollouts(seconds=None, rollouts=24, wait=True)
        html = app.analysis_html.value
        heads = re.findall(r'<th scope="col">(?:<abbr[^>]*>)?([^<]+)', html)
        assert heads == ["move", "expected", "gap", "verdict"]
        assert re.search(r'<button type="button" class="cut-mt-toggle" aria-expanded="false"[^>]*>Show each move', html)
        parts = re.findall(r'<tr class="cut-mt-parts"><td colspan="4">(.*?)</td></tr>', html)
        assert len(parts) == len(rows(html))
        assert all(p.count("<li") == len(COMPONENTS) + 2 for p in parts)  # each part, the total, the rollouts
        css = (ROOT / "cut_tutor" / "widgets" / "static" / "move_table.css").read_text(encoding="utf-8")
        assert "sticky" not in css and ".cut-mt:not(.cut-mt-open) tr.cut-mt-parts { display: none; }" in css

    def test_a_retry_s_table_reads_the_rollouts_alone(self) -> None:
        seen = view(State.from_position(TAKES), 0)
        found = self.analysis(seen, {"1×3": 20.0, "1×5": 18.0, "2×5": 15.0, "take Q": 63.3, "take K": 75.5})
        labels = {Move.parse(m): move_label(Move.parse(m), seen, ["You", "Ann"]) for m in seen["legal"]}
        html = analysis_html(found, labels, Move.parse("take K")).split("</style>")[1]
        assert "cut-mt-pick" not in html and "data-move" not in html and "cut-mt-toggle" not in html
        assert re.findall(r'<th scope="row"><b>([^<]+)', html) == ["Play 2× 5", "Play 1× 5", "Play 1× 3",
                                                                 "Take the pile"]  # fmt: skip
        # the learner's take is the one its figures are for
        take = html.split("Take the pile")[1]
        assert "showing K (or Q)" in take and "●\u00a0your choice" in take and "worse by 60.5 points" in take


class TestCompare:
    def position(self, tmp_path: Path) -> GameApp:
        """A position where Daryl plays otherwise than Madonna and Marty."""
        app = GameApp(tmp_path)
        app.set_players(3)
        app.set_pacing("Auto")
        app.deal(seed=0)
        for _ in range(6):
            app.coach_play()
        return app

    def test_marked_against_the_coach_you_chose_not_a_vote(self, tmp_path: Path) -> None:
        app = self.position(tmp_path)
        frame = app.compare_coaches().set_index("coach")
        assert not frame.loc["Madonna", "differs"]  # the chosen coach never disagrees with herself
        assert frame.loc["Daryl", "differs"] and not frame.loc["Marty", "differs"]
        html = app.analysis_html.value
        assert html.count("differs from Madonna") == 1 and "Madonna (your coach)" in html
        app.set_coach("Daryl")  # now the two who agree are both marked: Daryl is the reference, not the majority
        frame = app.compare_coaches().set_index("coach")
        assert list(frame["differs"]) == [False, True, True]
        assert app.analysis_html.value.count("differs from Daryl") == 2


def finished(seed: int = 12) -> State:
    state = State.deal(Rules(players=2), seed=seed)
    rng = random.Random(1)
    while not state.over:
        state.play(rng.choice(state.legal_moves()))
    return state


class TestReplayerReview:
    def test_the_move_list_goes_to_a_move(self) -> None:
        state = finished()
        r = Replayer.from_state(state, names=["You", "Daryl"])
        items = r.moves_pick.options
        assert len(items) == len(state.moves) + 1 and items[-1] == ("End of the hand", len(state.moves))
        start = r.states[0]
        assert items[0] == (
            f"1. {r.names[start.turn]}: {move_label(state.moves[0], view(start, start.turn), r.names)}",
            0,
        )
        r.moves_pick.value = 7
        assert r.step == 7 and r.slider.value == 7

    def test_next_and_previous_disagreement(self) -> None:
        r = Replayer.from_state(finished(), names=["You", "Daryl"])
        r.set_seat(REVIEW)
        steps = [c.step for c in r.differences() if c.step > 0]
        assert len(steps) >= 2
        assert r.next_disagreement() == steps[0] and "✗" in r.info.value
        assert r.next_disagreement() == steps[1]
        assert r.previous_disagreement() == steps[0]
        r.first()
        with pytest.raises(ValueError, match="no earlier move"):
            r.previous_disagreement()
        marked = [value for text, value in r.moves_pick.options if text.endswith(" ✗")]
        assert marked == [c.step for c in r.differences()]
        r.set_seat(1)  # one seat's view: only that seat's moves
        assert r.disagreements() == [c.step for c in r.differences() if c.seat == 1]
        r.last()
        assert r.next_button.disabled and not r.previous_button.disabled
        r.next_button.click()
        assert "no later move" in r.table.error

    def test_review_turns_up_the_risk_cards(self) -> None:
        state = State.deal(Rules(players=3), seed=5)
        r = Replayer.from_state(state)
        r.set_seat(REVIEW)
        data = r.table.table
        assert data["review"] is True
        for seat in data["view"]["seats"]:
            assert all(len(stack) == 2 and None not in stack for stack in seat["stacks"])
        r.set_seat(1)
        assert "review" not in r.table.table


class TestDownloads:
    def finished_game(self, tmp_path: Path) -> GameApp:
        app = GameApp(tmp_path)
        app.set_players(2)
        app.set_rule("end_condition", "rounds")
        app.set_rule("rounds", 1)
        app.set_pacing("Auto")
        app.deal(seed=4)
        app.set_automate(True)
        assert app.game is not None and app.game.over
        return app

    def test_csv_downloads_from_the_page_and_nothing_is_written(self, tmp_path: Path) -> None:
        app = self.finished_game(tmp_path)
        before = set(tmp_path.rglob("*"))
        app.score_panel.export_button.click()
        assert set(tmp_path.rglob("*")) == before  # nothing written on the server
        name, text = downloaded(app.export_note.value)
        assert name == "cut-scores.csv" and text.count("\n") == 3
        assert text == app.export_csv(tmp_path / "out" / "s.csv").read_bytes().decode()

    def test_a_hand_record_downloads_once_the_hand_is_over(self, tmp_path: Path) -> None:
        app = self.finished_game(tmp_path)
        assert app.game is not None
        app.score_panel.record_button.click()
        name, text = downloaded(app.export_note.value)
        record = json.loads(text)
        assert name == "cut-hand-1.json" and record["learner"] == app.game.names[0]
        assert replay(record).scores() == list(app.game.results[0].scores)
        app.games.value = (app.history.games()[0]["id"],)
        app.stored_pick.value = (1, 1)
        app.score_panel.stored_record_button.click()
        name, text = downloaded(app.export_note.value)
        assert name == "cut-game-1-hand-1.json" and json.loads(text)["moves"] == record["moves"]

    def test_no_record_of_a_hand_in_play(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.set_players(3)
        app.deal(seed=11)
        with pytest.raises(IntentError, match="not finished"):
            app.score_panel.hand_record(1)
        app.score_panel.record_button.click()
        assert "no finished hand" in app.table.error and "data:" not in app.export_note.value
