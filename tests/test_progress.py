"""Progress over time: the kinds of mistake (on constructed positions of CUT and Clear 4), the reviews kept per
learner in SQLite (one row per hand, a damaged file kept), the progress panel's twin, and the teacher's gathering
of exported progress CSVs (a bad file named and skipped, never changed)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

import pytest

from cut_tutor.analysis import Analysis, MoveValue
from cut_tutor.classroom import PROGRESS_COLUMNS, class_progress, gather_progress
from cut_tutor.cli import main
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.engine import Move, Rules, State, record_of, replay, view
from cut_tutor.engine.view import sight
from cut_tutor.review import KINDS, Drills, HandReview, hand_kinds, kind, kind_counts, progress_frame
from cut_tutor.review.drills import DRILLS_FILE
from cut_tutor.review.hand import decision_points, summarise
from cut_tutor.review.progress import KIND_COLUMNS, kind_totals
from cut_tutor.review.words import MISTAKE_KINDS, kinds_line


def value(move: str, expected: float, gap: float, low: float, high: float) -> MoveValue:
    verdict = "best" if gap == 0 else "worse"
    return MoveValue(Move.parse(move), move, expected, expected - 1, expected + 1, gap, low, high, 0.0, 50, verdict)


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    """A short 2-seat CUT hand played by Average seats."""
    state = State.deal(Rules(players=2), seed=47)
    seats = [AIPlayer("Average", "Balanced", seed=k) for k in range(2)]
    while not state.over:
        state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    return record_of(state)


def graded(record: dict[str, Any], seat: int = 0) -> HandReview:
    """A review of ``seat`` in which every decision's best move is another legal move, 20 points better: all
    blunders, each of a kind the view at its ply decides."""
    plies, movers = decision_points(record, seat)
    moves = [Move.parse(str(t)) for t in record["moves"]]
    found = []
    for ply in plies:
        legal = view(replay(record, upto=ply), seat)["legal"]
        other = next(m for m in legal if m != str(moves[ply]))
        found.append((ply, Analysis(seat, [value(other, 5.0, 0, 0, 0), value(str(moves[ply]), 25.0, 20.0, 8.0, 32.0)],
                                    100, 0.1, "budget", 0, "Expert:Balanced")))  # fmt: skip
    return summarise(found, moves, movers, seat, points=replay(record).scores()[seat], average=10.0)


class TestKinds:
    """Each kind on a constructed position: the move made, the best, and the hand the seat held then."""

    SEEN: ClassVar[dict[str, list[str]]] = {"hand": ["K", "9", "9", "9", "4", "10"]}

    @pytest.mark.parametrize(
        ("move", "best", "expected"),
        [("take", "1×4", "took"), ("take 9 s1", "1×4", "took"), ("1×4", "take", "missed_take"),
         ("clear 10", "1×9", "spent_clear"), ("1×9", "clear 10", "held_clear"), ("flip 2", "1×4", "blind"),
         ("gamble 1", "done", "blind"), ("done", "gamble 3", "held_blind"), ("turn up 2", "1×4", "turned_up"),
         ("1×4", "turn up 2", "missed_turn_up"), ("add 0", "add 2", "adding"), ("1×9", "3×9", "split"),
         ("3×9", "2×9", "too_many"), ("2×9 s2", "1×9", "too_many"), ("1×9 s2", "1×9", "board"),
         ("1×K", "1×4", "higher"), ("1×4", "1×9", "lower"), ("take K s2", "take K s1", "other"), ("1×4", "1×4", None)],
    )  # fmt: skip
    def test_cut(self, move: str, best: str, expected: str | None) -> None:
        assert kind(move, best, self.SEEN) == expected

    def test_a_split_needs_cards_left_in_hand(self) -> None:
        """Playing every 9 held is no split, even when the best play also lays a Board 9."""
        assert kind("3×9", "4×9 s1", self.SEEN) != "split"
        assert kind("2×9", "4×9 s1", self.SEEN) == "split"

    @pytest.mark.parametrize(
        ("move", "best", "expected"),
        [("push → 1", "1×5", "push"), ("push → 1", "push → 2", "push"), ("1×5", "push s3 → 2", "held_push"),
         ("clear CL", "1×5", "spent_clear"), ("take", "1×5", "took"), ("flip 9", "1×5", "blind"),
         ("1×J*", "1×5", "other"), ("2×5+J*", "2×5", "too_many"), ("1×8", "1×5", "higher")],
    )  # fmt: skip
    def test_clear4(self, move: str, best: str, expected: str) -> None:
        assert kind(move, best, {"hand": ["5", "5", "8", "J*", "P", "CL"]}) == expected

    @pytest.mark.parametrize("preset", ["USA", "Clear 4"])
    def test_every_pair_of_legal_moves_has_a_kind_with_words(self, preset: str) -> None:
        rng = random.Random(5)
        state = State.deal(Rules.from_preset(preset, players=3), seed=11)
        seen_kinds = set()
        while not state.over and len(state.moves) < 300:
            seen = view(state, state.turn)
            for move in seen["legal"]:
                for best in seen["legal"]:
                    found = kind(move, best, seen)
                    assert (found is None) == (move == best)
                    seen_kinds.add(found)
            state.play(rng.choice(seen["legal"]))
        assert seen_kinds - {None} <= set(KINDS) == set(MISTAKE_KINDS)
        assert len(seen_kinds) > 5

    def test_a_hand_s_kinds_are_read_from_the_seat_s_view_at_each_ply(self, finished: dict[str, Any]) -> None:
        hand = graded(finished)
        kinds = hand_kinds(finished, hand)
        assert sorted(kinds) == [d.ply for d in hand.mistakes()] and kinds
        for d in hand.mistakes():
            assert kinds[d.ply] == kind(d.move, d.best, view(replay(finished, upto=d.ply), 0))

    def test_counts_and_words(self) -> None:
        counts = kind_counts(["took", "split", "took"])
        assert list(counts) == list(KINDS) and counts["took"] == 2 and sum(counts.values()) == 3
        assert kinds_line(counts, most=1) == f"{MISTAKE_KINDS['took']} ×2"


class TestKeptReviews:
    def test_a_hand_reviewed_twice_is_one_row_and_reads_back(self, finished: dict[str, Any], tmp_path: Path) -> None:
        deck = Drills(tmp_path / "drills.sqlite")
        hand = graded(finished)
        kinds = hand_kinds(finished, hand)
        assert deck.keep_review(finished, hand, kinds, "g1", 1)
        assert deck.keep_review(finished, hand, kinds, "g1", 1)
        other = graded(finished, seat=1)
        assert deck.keep_review(finished, other, hand_kinds(finished, other), "g1", 1)  # the other seat's: a row
        kept = deck.reviewed()
        assert len(kept) == 2 and kept[0][1] == hand and kept[1][1] == other
        key = kept[0][0]
        assert (key["game"], key["hand"], sorted(key["kinds"])) == ("g1", 1, sorted(kinds.values()))
        frame = progress_frame(kept)
        assert list(frame.columns[-len(KIND_COLUMNS) :]) == KIND_COLUMNS
        assert kind_totals(frame.head(1)) == kind_counts(kinds.values())
        assert Drills(tmp_path / "drills.sqlite").reviewed() == kept  # kept across sessions

    def test_a_damaged_file_is_kept_and_named(self, finished: dict[str, Any], tmp_path: Path) -> None:
        path = tmp_path / "drills.sqlite"
        path.write_bytes(b"not a database, the learner's file" * 40)
        before = path.read_bytes()
        deck = Drills(path)
        assert "drills file cannot be opened" in deck.problem and str(tmp_path) not in deck.problem
        hand = graded(finished)
        assert deck.keep_review(finished, hand, {}, "g1", 1) is False and deck.reviewed() == []
        assert "cannot be opened" in deck.problem and path.read_bytes() == before


class TestProgressPanel:
    def test_the_twin_shows_the_plot_table_and_download(self, finished: dict[str, Any], tmp_path: Path) -> None:
        pytest.importorskip("ipywidgets")
        from cut_tutor.review.words import NO_PROGRESS, PROGRESS_DOWNLOAD
        from cut_tutor.widgets.drills_panel import ProgressPanel

        panel = ProgressPanel("ana")
        assert panel.plot.value == NO_PROGRESS and panel.link.value == "" and panel.csv == ""
        deck = Drills(tmp_path / "drills.sqlite")
        hand = graded(finished)
        deck.keep_review(finished, hand, {}, "abcdef0123", 1)
        deck.keep_review(finished, hand, hand_kinds(finished, hand), "abcdef0123", 1)  # reviewed again: replaced
        frame = panel.show(deck.reviewed())
        assert len(frame) == 1
        assert 'role="img" aria-label="Accuracy and points lost over 1 reviewed hand:' in panel.plot.value
        assert "<svg" in panel.plot.value and "currentColor" in panel.plot.value  # inline, in the theme's ink
        assert 'download="cut-progress-ana.csv"' in panel.link.value and PROGRESS_DOWNLOAD in panel.link.value
        assert panel.csv == frame.to_csv(index=False) and "<td>abcdef01</td>" in panel.table.value
        assert MISTAKE_KINDS[kinds_line_first(frame)] in panel.table.value


def kinds_line_first(frame: Any) -> str:
    """The most frequent kind of ``frame``'s mistakes."""
    totals = kind_totals(frame)
    return max(totals, key=lambda name: totals[name])


class TestGather:
    def test_files_gathered_and_a_bad_one_named_and_left_alone(self, finished: dict[str, Any], tmp_path: Path) -> None:
        hand = graded(finished)
        kinds = list(hand_kinds(finished, hand).values())
        frame = progress_frame([({"game": "g", "hand": 1, "kinds": kinds}, hand)] * 2)
        frame.to_csv(tmp_path / "cut-progress-ana.csv", index=False)
        frame.head(1).to_csv(tmp_path / "cut-progress-ben.csv", index=False)
        bad = tmp_path / "cut-progress-cleo.csv"
        bad.write_bytes(b"\xff\xfe not, a, progress\nfile")
        before = bad.read_bytes()
        (tmp_path / "notes.txt").write_text("not a CSV at all")  # not gathered: a folder's *.csv only
        table, problems = gather_progress(tmp_path)
        assert list(table.columns) == PROGRESS_COLUMNS
        assert list(table["learner"]) == ["ana", "ben"] and list(table["hands"]) == [2, 1]
        assert table["accuracy"][0] == pytest.approx(hand.summary.accuracy, abs=0.05)
        assert table["lost_per_hand"][0] == pytest.approx(hand.summary.lost_to_mistakes, abs=0.005)
        assert table["kinds"][0] == kinds_line(kind_counts(kinds * 2))
        assert len(problems) == 1 and problems[0].startswith("cut-progress-cleo.csv: cannot be read")
        assert bad.read_bytes() == before
        listed, _ = gather_progress([tmp_path / "cut-progress-ben.csv"])
        assert list(listed["learner"]) == ["ben"]
        _, [gone] = gather_progress([tmp_path / "cut-progress-dev.csv"])
        assert gone.startswith("cut-progress-dev.csv: cannot be read (no such file") and str(tmp_path) not in gone

    def test_read_straight_from_the_learners_files_read_only(
        self, finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        learners = tmp_path / "learners"
        hand = graded(finished)
        ana = Drills(learners / "ana" / DRILLS_FILE)
        ana.keep_review(finished, hand, hand_kinds(finished, hand), "g", 1)
        (learners / "ben").mkdir()  # no drills file yet: no hands
        cleo = learners / "cleo" / DRILLS_FILE
        cleo.parent.mkdir()
        cleo.write_bytes(b"damaged" * 100)
        files = {path: path.read_bytes() for path in (ana.path, cleo)}
        table, problems = class_progress(tmp_path)
        assert list(table["learner"]) == ["ana", "ben"] and list(table["hands"]) == [1, 0]
        assert table["kinds"][0] == kinds_line(kind_counts(hand_kinds(finished, hand).values()))
        assert len(problems) == 1 and problems[0].startswith("cleo: the drills file cannot be read")
        assert {path: path.read_bytes() for path in files} == files
        assert sorted(p.name for p in (learners / "ana").iterdir()) == [DRILLS_FILE]  # no journal left behind
        assert main(["class", str(tmp_path), "--progress", "--csv"]) == 0
        out, err = capsys.readouterr()
        assert out.splitlines()[0] == ",".join(PROGRESS_COLUMNS) and out.splitlines()[1].startswith("ana,1,")
        assert "note: cleo: the drills file cannot be read" in err
        assert {path: path.read_bytes() for path in files} == files
