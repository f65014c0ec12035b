"""The teacher's view across learner folders: the figures, read-only, and a damaged or locked history skipped."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("anywidget")

from cut_tutor.classroom import class_summary
from cut_tutor.cli import main
from cut_tutor.widgets import GameApp


def _learner(home: Path, learner: str, finished: list[int], unfinished: int = 0) -> GameApp:
    """A learner's tab that finished a game per seed in ``finished`` (two hands each) and left others unfinished."""
    app = GameApp(home)
    assert app.table.receive({"type": "ready", "learner": learner})
    app.set_players(2)
    app.set_rule("end_condition", "rounds")
    app.set_rule("rounds", 2)
    app.set_pacing("Auto")
    for seed in finished:
        app.deal(seed=seed)
        app.set_automate(True)
        app.next()
        app.set_automate(True)
        assert app.game is not None and app.game.over
    for seed in range(unfinished):
        app.deal(seed=100 + seed)
    app.reset_play()
    return app


def _files(home: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(home)): (p.read_bytes(), p.stat().st_mtime_ns) for p in home.rglob("*") if p.is_file()}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    _learner(tmp_path, "ann", finished=[4, 5], unfinished=1)
    _learner(tmp_path, "ben", finished=[6])
    _learner(tmp_path, "cleo", finished=[], unfinished=2)
    return tmp_path


class TestClassSummary:
    def test_each_learner_with_their_figures(self, home: Path) -> None:
        table, problems = class_summary(home)
        assert problems == [] and list(table["learner"]) == ["ann", "ben", "cleo"]
        ann = GameApp(home)
        ann.set_learner("ann")
        rows = [r for g in ann.history.games() for r in ann.history.hands(g["id"]) if r["seat"] == 0]
        first = table.iloc[0]
        assert (first["games"], first["hands"], first["unfinished"]) == (2, 4, 1)
        assert first["points_per_hand"] == round(sum(r["points"] for r in rows) / len(rows), 2)
        assert first["busts"] == sum(r["busts"] for r in rows)
        assert first["last_played"] == max(g["finished"] for g in ann.history.games())
        assert tuple(table.iloc[1][["games", "hands", "unfinished"]]) == (1, 2, 0)
        cleo = table.iloc[2]
        assert (cleo["games"], cleo["hands"], cleo["unfinished"]) == (0, 0, 2) and pd.isna(cleo["last_played"])

    def test_reading_a_class_changes_no_file(self, home: Path) -> None:
        before = _files(home)
        class_summary(home)
        main(["class", str(home), "--csv"])
        assert _files(home) == before

    def test_a_damaged_or_locked_history_is_named_and_skipped(self, home: Path) -> None:
        (home / "learners" / "ben" / "history.sqlite").write_bytes(b"\x00not a database" * 64)
        holder = sqlite3.connect(home / "learners" / "ann" / "history.sqlite", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # ann's game is being recorded this moment
        try:
            before = _files(home)
            table, problems = class_summary(home)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert list(table["learner"]) == ["cleo"]
        assert any(p.startswith("ann:") and "locked" in p for p in problems)
        assert any(p.startswith("ben:") and "cannot be read" in p for p in problems)
        assert _files(home) == before, "a damaged history is left as it is: the learner's own app keeps it aside"

    def test_an_unreadable_save_is_named_not_counted(self, home: Path) -> None:
        (home / "learners" / "ben" / "save-0123abcd.json").write_text("{not json")
        table, problems = class_summary(home)
        assert table.set_index("learner").loc["ben", "unfinished"] == 0
        assert any(p.startswith("ben: a save cannot be read") for p in problems)

    def test_a_home_without_learners_is_an_empty_table(self, tmp_path: Path) -> None:
        table, problems = class_summary(tmp_path)
        assert table.empty and problems == []


class TestClassCommand:
    def test_prints_the_table_and_notes_problems(self, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
        (home / "learners" / "ben" / "history.sqlite").write_bytes(b"junk" * 256)
        assert main(["class", str(home)]) == 0
        out, err = capsys.readouterr()
        assert "ann" in out and "cleo" in out and "ben" not in out and err.startswith("note: ben:")

    def test_csv(self, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["class", str(home), "--csv"]) == 0
        rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
        assert [r["learner"] for r in rows] == ["ann", "ben", "cleo"] and rows[0]["games"] == "2"

    def test_a_home_that_is_not_a_folder_is_refused(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["class", str(tmp_path / "nowhere")]) == 2
        assert "is not a folder" in capsys.readouterr().err
