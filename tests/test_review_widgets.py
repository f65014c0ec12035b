"""The review, belief and drills panels, driven through their Python twins and their buttons."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from cut_tutor.analysis import Analysis, Deals, MoveValue
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.engine import Move, Rules, State, record_of, replay, view
from cut_tutor.engine.view import sight
from cut_tutor.review import Drills, HandReview, progress_frame, review
from cut_tutor.review.hand import decision_points, summarise
from cut_tutor.review.words import NO_DRILLS, NO_MISTAKES, PROGRESS_TITLE, RETRY_ASK
from cut_tutor.widgets.belief_panel import BeliefPanel
from cut_tutor.widgets.drills_panel import DrillsPanel
from cut_tutor.widgets.review_panel import ReviewPanel
from cut_tutor.widgets.table import move_label

#: The decisions (by their index among seat 0's) where the constructed review says the move made lost 20 points.
MISTAKES = (1, 4)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    state = State.deal(Rules(players=2), seed=47)
    seats = [AIPlayer("Average", "Balanced", seed=k) for k in range(2)]
    while not state.over:
        state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    return record_of(state)


def constructed(record: dict[str, Any], ply: int, mistake: bool) -> Analysis:
    """Seat 0's position before ``ply`` with known values: the move made best, or (a mistake) 20 points worse
    than another move, with one more move too close to call."""
    legal = view(replay(record, upto=ply), 0)["legal"]
    made = str(record["moves"][ply])
    best = made if not mistake else next(m for m in legal if m != made)
    rows = []
    for k, move in enumerate(sorted(legal, key=lambda m: (m != best, m != made))):
        if move == best:
            rows.append(MoveValue(Move.parse(move), move, 10.0, 8.0, 12.0, 0.0, 0.0, 0.0, 0.0, 50, "best"))
        elif move == made:
            rows.append(MoveValue(Move.parse(move), move, 30.0, 25.0, 35.0, 20.0, 5.0, 35.0, 0.0, 50, "worse"))
        else:
            gap, low = (1.0, -2.0) if k == 2 else (9.0, 3.0)
            rows.append(MoveValue(Move.parse(move), move, 10 + gap, 9.0, 13.0, gap, low, 2 * gap - low, 0.0, 50,
                                  "close" if low <= 0 else "worse"))  # fmt: skip
    return Analysis(0, rows, 100, 0.1, "budget", 0, "Expert:Balanced")


@pytest.fixture(scope="module")
def graded(record: dict[str, Any]) -> tuple[HandReview, dict[int, Analysis]]:
    plies, movers = decision_points(record, 0)
    found = {ply: constructed(record, ply, k in MISTAKES) for k, ply in enumerate(plies)}
    moves = [Move.parse(str(t)) for t in record["moves"]]
    return summarise(list(found.items()), moves, movers, 0, points=0, average=10.0), found


#: The seats' names, as the app passes them.
NAMES = ["You", "Ann"]


def panel_of(record: dict[str, Any], graded: tuple[HandReview, dict[int, Analysis]]) -> ReviewPanel:
    hand, found = graded
    return ReviewPanel(record, hand, names=NAMES, analyser=lambda r, seat, ply: found[ply])


class TestReviewPanel:
    def test_rows_in_the_buttons_words_with_marks_and_intervals(self, record: dict[str, Any], graded: Any) -> None:
        panel = panel_of(record, graded)
        hand = graded[0]
        rows = panel.rows()
        assert len(rows) == len(hand.decisions) and [r["Grade"] for r in rows].count("? mistake") == len(MISTAKES)
        for row, d in zip(rows, hand.decisions, strict=True):
            seen = view(replay(record, upto=d.ply), 0)
            assert row["You played"] == move_label(Move.parse(d.move), seen)
            assert row["Best"] == move_label(Move.parse(d.best), seen)
            assert row["Turn"] == str(seen["turns"])  # the rules' turns (R15), not the moves made
        mistake = rows[MISTAKES[0]]
        assert (mistake["Loss"], mistake["Grade"]) == ("20.0 ± 15.0 points", "? mistake")
        assert rows[0]["Loss"] == "—" and rows[0]["Grade"] == ""
        s = hand.summary
        assert panel.summary().startswith(f"Accuracy {s.accuracy:.1f}% · 40.0 points lost to mistakes")
        assert "2 mistakes" in panel.summary() and "? mistake" in panel.root.children[1].value

    def test_next_and_previous_mistake_wrap_round(self, record: dict[str, Any], graded: Any) -> None:
        panel = panel_of(record, graded)
        plies = [graded[0].decisions[k].ply for k in MISTAKES]
        assert panel.next_mistake() == plies[0] and panel.selected == MISTAKES[0]
        panel._next.click()
        assert panel.selected == MISTAKES[1]
        assert panel.next_mistake() == plies[0]
        assert panel.previous_mistake() == plies[1]
        panel._previous.click()
        assert panel.selected == MISTAKES[0]

    def test_no_mistakes(self, record: dict[str, Any], graded: Any) -> None:
        hand, found = graded
        calm = HandReview([d for d in hand.decisions if d.grade is None], hand.summary)
        panel = ReviewPanel(record, calm, analyser=lambda r, seat, ply: found[ply])
        assert panel.next_mistake() is None and panel._next.disabled and NO_MISTAKES in panel._table.value

    def test_without_names_the_seats_are_named_as_a_new_setup_names_them(
        self, record: dict[str, Any], graded: Any
    ) -> None:
        hand, found = graded
        panel = ReviewPanel(record, hand, analyser=lambda r, seat, ply: found[ply])
        ply = panel.next_mistake()
        assert ply is not None
        panel._find.click()
        shown = panel.position.widget.table
        assert shown["names"] == ["You", "Ann"]  # never "Seat 1": one name for a seat, the table's
        assert "Seat" not in json.dumps(shown) and "Seat" not in " ".join(row["Best"] for row in panel.rows())

    def test_retry_hides_the_answer_until_chosen(self, record: dict[str, Any], graded: Any) -> None:
        hand, found = graded
        panel = panel_of(record, graded)
        with pytest.raises(ValueError, match="select"):
            panel.retry()
        ply = panel.next_mistake()
        assert ply is not None
        decision = hand.decisions[MISTAKES[0]]
        panel._find.click()
        seen = view(replay(record, upto=ply), 0)
        labels = [move_label(Move.parse(m), seen, NAMES) for m in seen["legal"]]
        table = panel.position.widget
        assert [a["label"] for a in table.table["actions"]] == labels  # the table's own buttons
        assert panel.position.shown and table.table["mode"] == "study"
        assert table.table["view"] == seen and "review" not in table.table  # the seat's view, nothing more (C2)
        synced = json.loads(table.synced_json())["table"]["view"]["seats"]
        assert all("hand" not in info for k, info in enumerate(synced) if k != 0)  # no other seat's hand
        assert panel.analysis is None and panel.verdict == "" and panel._shown.value == ""
        assert panel._said.value == RETRY_ASK
        assert not table.receive({"type": "undo"}) and "choose one of its moves" in table.error
        worse = next(m.move for m in found[ply].moves if m.verdict == "worse" and str(m.move) != decision.move)
        assert table.receive({"type": "move", "move": str(worse)})
        assert panel.verdict == "Worse than the best move by 9.0 points."
        # the verdict under the position, the question gone from above it
        children = list(panel.root.children)
        assert panel._verdict.value == panel.verdict and panel._said.value == ""
        assert children.index(panel.position.box) < children.index(panel._verdict) < children.index(panel._shown)
        assert panel.analysis is found[ply] and panel._shown.value and table.table["actions"] == []
        assert table.table["view"]["hand"] == seen["hand"]  # the position stays, without its moves
        shown = re.sub(r"<[^>]+>", " ", panel._shown.value.split("</style>")[1])
        assert "●\u00a0your choice" in shown and not re.search(r"\bseat \d|\d×[A-Z0-9]|\btake\b", shown)
        assert not table.receive({"type": "move", "move": str(worse)})  # answered: nothing more to press
        with pytest.raises(ValueError, match="Find a better move"):
            panel.choose(decision.best)
        panel.retry()
        assert panel.choose(decision.best) == "The best move."
        close = next(m.move for m in found[ply].moves if m.verdict == "close")
        panel.retry()
        assert panel.choose(str(close)) == "Within noise of the best move."
        panel.select(0)
        assert panel.analysis is None and panel._shown.value == "" and not panel.position.shown

    def test_by_default_a_retry_shows_the_review_s_own_analysis(self, record: dict[str, Any]) -> None:
        hand = review(record, 0, rollouts=8, deal_rollouts=2, seed=5)
        panel = ReviewPanel(record, hand, rollouts=8)
        for k in (0, len(hand.decisions) - 1):
            d = hand.decisions[k]
            panel.select(k)
            panel.retry()
            panel.choose(d.move)
            assert panel.analysis is not None and str(panel.analysis.best.move) == d.best
            mine = next(m for m in panel.analysis.moves if str(m.move) == d.move)
            assert round(mine.gap, 3) == d.loss


class TestBeliefPanel:
    def test_the_same_when_hidden_cards_are_re_dealt(self) -> None:
        state = State.deal(Rules(), seed=8)
        seats = [AIPlayer("Expert", "Balanced", seed=k) for k in range(4)]
        for _ in range(17):
            state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
        seat = state.turn
        names = ["You", "Daryl", "Madonna", "Marty"]
        panel = BeliefPanel(view(state, seat), names=names, samples=40)
        before, html = panel.lines(), panel.root.children[0].value
        twin = Deals(view(state, seat)).sample(random.Random(2))
        assert twin.hands != state.hands
        panel.update(view(twin, seat))
        assert panel.lines() == before and panel.root.children[0].value == html
        assert len(before) == 3 + 1 + 4 and before[3].startswith("Unseen (")
        assert before[-1].startswith(f"Chance {names[(seat + 1) % 4]} can play on a K: ")

    def test_what_is_known(self) -> None:
        seats = [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9", "known": "K K"}]
        state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "Q@1", "seats": seats})
        lines = BeliefPanel(view(state, 0), names=["You", "Daryl"], samples=50).lines()
        assert lines[0] == "Daryl: picked up K K · nothing face up · 5 cards in hand"
        assert lines[-1] == "Chance Daryl can play on a K: 100%"

    def test_a_bare_take_is_said(self) -> None:
        seats = [{"hand": "J 7 7 5 5"}, {"hand": "K K Q 9", "known": "Q", "above": "8"}]
        state = State.from_position({"rules": {"players": 2}, "turn": 0, "pile": "", "seats": seats})
        lines = BeliefPanel(view(state, 0), names=["You", "Daryl"], samples=50).lines()
        assert lines[0] == (
            "Daryl: picked up Q · nothing face up · 4 cards in hand · took the pile bare on 8: the rest are above 8,"
            " none clears"
        )
        assert "Chance Daryl can play on a 7: 0%" in lines


class TestDrillsPanel:
    START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)

    def test_answer_a_due_drill_and_see_progress(self, record: dict[str, Any], graded: Any, tmp_path: Path) -> None:
        hand, found = graded
        now = [self.START]
        deck = Drills(tmp_path / "drills.sqlite", clock=lambda: now[0])
        panel = DrillsPanel(deck, analyser=lambda drill: found[drill.ply], names=NAMES)
        assert panel.current is None and panel.root.children[0].value == NO_DRILLS and panel.moves() == []
        assert deck.add_mistakes(record, hand)
        panel.refresh()
        drill = panel.current
        assert drill is not None and len(panel.due) == len(MISTAKES)
        seen = drill.view()
        # numbered as the review numbers the same decision, the seat by its name
        (row,) = [r for r, d in zip(panel_of(record, graded).rows(), hand.decisions, strict=True) if d.ply == drill.ply]
        heading = panel.root.children[0].value
        assert heading.startswith(f"Drill 1 of {len(MISTAKES)} — Turn {row['Turn']}, You: ")
        assert not re.search(r"(?i)\bseat \d", heading)
        table = panel.position.widget
        assert table.table["view"] == seen and table.table["status"] == heading.split(" — ")[1]
        assert panel.moves() == [a["label"] for a in table.table["actions"]]
        assert panel.moves() == [move_label(Move.parse(m), seen, NAMES) for m in seen["legal"]]
        assert panel.analysis is None and panel._shown.value == ""
        made = str(record["moves"][drill.ply])
        assert table.receive({"type": "move", "move": made})
        assert panel.verdict == "Worse than the best move by 20.0 points." and panel._shown.value
        assert table.table["actions"] == []
        assert [a["solved"] for a in deck.attempts()] == [0]
        panel._next.click()
        assert drill.id not in {d.id for d in panel.due}  # answered wrong: due again later, not now
        now[0] += timedelta(days=400)
        panel.refresh()
        best = found[panel.due[0].ply].best.move
        assert panel.choose(str(best)) == "The best move." and deck.attempts()[-1]["solved"] == 1

    def test_the_progress_plot(self, graded: Any, tmp_path: Path) -> None:
        hand, _ = graded
        frame = progress_frame([({"game": 1, "hand": 1}, hand), ({"game": 1, "hand": 2}, hand)])
        panel = DrillsPanel(Drills(tmp_path / "drills.sqlite"), frame=frame)
        first = panel._plot.value
        assert first.startswith('<figure class="cut-progress-plot"') and "<svg" in first and PROGRESS_TITLE in first
        assert "Accuracy and points lost over 2 reviewed hands" in first  # the plot's accessible name
        one = panel.show_progress(frame.head(1))
        assert one == panel._plot.value and one != first
        assert panel.show_progress(frame.head(1)) == one  # the same plot, the same markup
        # two plots on one page (notebook 08 shows two): no id in common, each plot's references its own
        ids = [set(re.findall(r'\bid="([^"]+)"', markup)) for markup in (first, one)]
        assert ids[0] and not ids[0] & ids[1]
        for markup, own in zip((first, one), ids, strict=True):
            assert set(re.findall(r'(?:url\(#|href="#)([^")]+)', markup)) <= own
            assert re.search(r"<style[^>]*>#cut-\w+-plot \*\{", markup)  # its stylesheet kept to itself
