"""Saves and history under pressure: concurrent writers, a locked or damaged history, hostile save files, CSV."""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC
from pathlib import Path
from typing import ClassVar

import pytest

from cut_tutor.engine import Game, Rules
from cut_tutor.storage import History, SaveError, files, load_game, read_save, save_game
from cut_tutor.storage import history as history_module
from cut_tutor.storage.files import read_stamp
from tests.test_codes_storage import finish_game, finish_hand, game_in_progress


def _save_many(path: str, seed: int, count: int) -> None:
    """One writer: ``count`` saves of its own game to the shared path (used by threads and processes)."""
    game = game_in_progress(seed=seed, steps=10)
    for _ in range(count):
        save_game(game, path)


class TestAtomicWrites:
    def test_threads_saving_and_reading_at_once_never_tear(self, tmp_path: Path) -> None:
        path = tmp_path / "save.json"
        save_game(game_in_progress(), path)
        errors: list[BaseException] = []
        stop = threading.Event()

        def write(seed: int) -> None:
            try:
                _save_many(str(path), seed, 25)
            except BaseException as exc:  # every escape is a failure of the test
                errors.append(exc)

        def read() -> None:
            while not stop.is_set():
                try:
                    load_game(path)
                except BaseException as exc:
                    errors.append(exc)

        writers = [threading.Thread(target=write, args=(seed,)) for seed in range(6)]
        readers = [threading.Thread(target=read) for _ in range(2)]
        for thread in writers + readers:
            thread.start()
        for thread in writers:
            thread.join()
        stop.set()
        for thread in readers:
            thread.join()
        assert errors == []
        assert [p.name for p in tmp_path.iterdir()] == ["save.json"]  # nothing moved aside, no temp file left

    def test_processes_saving_at_once_never_tear(self, tmp_path: Path) -> None:
        path = tmp_path / "save.json"
        context = multiprocessing.get_context("spawn")
        workers = [context.Process(target=_save_many, args=(str(path), seed, 15)) for seed in range(3)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        assert [w.exitcode for w in workers] == [0, 0, 0]
        assert [p.name for p in tmp_path.iterdir()] == ["save.json"]
        assert load_game(path).seed in range(3)

    def test_a_failed_write_leaves_the_old_save_and_no_temp_file(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        path = save_game(game_in_progress(steps=5), tmp_path / "save.json")
        before = path.read_bytes()

        def full(_fd: int) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(files.os, "fsync", full)
        with pytest.raises(OSError, match="No space left"):
            save_game(game_in_progress(steps=30), path)
        assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["save.json"]

    def test_a_moves_save_is_left_to_the_system_and_every_other_file_synced(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A game in progress is saved after every move without waiting for the disk; the setup and a finished
        game waiting for the history are synced before they replace the old file (the guide's *Saving*)."""
        from cut_tutor.widgets import GameApp

        synced: list[str] = []
        real = os.fsync

        def fsync(fd: int) -> None:
            synced.append(Path(os.readlink(f"/proc/self/fd/{fd}")).name)
            real(fd)

        monkeypatch.setattr(files.os, "fsync", fsync)
        app = GameApp(tmp_path)
        app.deal(seed=3)
        for _ in range(6):
            state = app.need_game().state
            app.coach_play() if app.loop.pause is None and state.turn == 0 else app.next()
        save = app.saves.path(app.need_game().uid)
        assert save.exists() and load_game(save).state == app.need_game().state  # every move saved
        assert [name for name in synced if name.startswith(f".{save.name}.")] == []
        assert any(name.startswith(".setup.json.") for name in synced)
        history = History(tmp_path / "elsewhere" / "history.sqlite")
        holder = sqlite3.connect(history.path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        monkeypatch.setattr(history_module, "LOCK_TIMEOUT", 0.05)
        monkeypatch.setattr(history_module, "RETRY_PAUSES", (0.01,))
        assert history.add(_finished(1)) is None
        holder.execute("ROLLBACK")
        holder.close()
        assert any(name.startswith(".history.pending-") for name in synced)


class TestStamps:
    def test_saves_and_history_stamp_utc_with_an_offset(self, tmp_path: Path) -> None:
        path = save_game(game_in_progress(), tmp_path / "g.json")
        assert read_stamp(read_save(path)["saved_at"]).utcoffset() == UTC.utcoffset(None)
        history = History(tmp_path / "h.sqlite")
        history.add(finish_game(Game(Rules(end_condition="rounds", rounds=1), 2), random.Random(2)))
        assert history.games()[0]["finished"].endswith("+00:00")

    def test_old_naive_stamps_still_read(self) -> None:
        stamp = read_stamp("2024-05-01 10:00:00")
        assert stamp.tzinfo is not None and (stamp.year, stamp.month, stamp.day) == (2024, 5, 1)


@contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """:func:`history_module.connect` to a file this process may read but not write (tests run as root, whom a file's
    permissions do not stop)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db, db:
        yield db


def _finished(seed: int) -> Game:
    return finish_game(Game(Rules(end_condition="rounds", rounds=1), seed), random.Random(seed))


class TestLockedHistory:
    @pytest.fixture(autouse=True)
    def _quick(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(history_module, "LOCK_TIMEOUT", 0.05)
        monkeypatch.setattr(history_module, "RETRY_PAUSES", (0.01, 0.02))

    def test_a_locked_history_queues_the_game_and_writes_it_later(self, tmp_path: Path) -> None:
        history = History(tmp_path / "h.sqlite")
        holder = sqlite3.connect(history.path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        first = _finished(1)
        assert history.add(first) is None
        assert history.pending == [first.uid] and "in use by another program" in history.problem
        assert history.games() == []  # reads wait too, and say why
        holder.execute("ROLLBACK")
        holder.close()
        second_id = history.add(_finished(2))
        assert second_id is not None and history.pending == [] and history.problem == ""
        assert [g["seed"] for g in history.games()] == [2, 1]  # the queued game first, none dropped
        assert [p.name for p in tmp_path.iterdir()] == ["h.sqlite"]  # no pending file left

    def test_a_game_finished_while_locked_is_kept_on_disk_and_written_at_the_next_start(self, tmp_path: Path) -> None:
        history = History(tmp_path / "h.sqlite")
        holder = sqlite3.connect(history.path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        game = _finished(1)
        assert history.add(game) is None and history.on_disk(game)
        del history  # the tab closes, or its kernel is stopped: nothing is kept in memory
        [pending] = tmp_path.glob("h.pending-*.json")
        data = json.loads(pending.read_text())
        pending.write_text(json.dumps({**data, "saved_at": "2026-12-01T09:00:00+00:00"}))  # when the game ended
        again = History(tmp_path / "h.sqlite")  # still locked: the game keeps waiting on disk
        assert again.pending == [game.uid] and "will be added" in again.problem and pending.exists()
        holder.execute("ROLLBACK")
        holder.close()
        later = History(tmp_path / "h.sqlite")
        assert later.problem == "" and later.pending == [] and not pending.exists()
        [stored] = later.games()
        assert (stored["seed"], stored["totals"], stored["finished"]) == (1, game.totals, "2026-12-01T09:00:00+00:00")
        assert later.record(stored["id"], 1)["moves"] == list(game.results[0].moves)
        assert History(tmp_path / "h.sqlite").games() == [stored]  # written once

    def test_a_read_only_history_keeps_the_game_on_disk_until_it_can_be_written(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        History(tmp_path / "h.sqlite")
        monkeypatch.setattr(history_module, "connect", read_only)
        history = History(tmp_path / "h.sqlite")
        game = _finished(2)
        assert history.add(game) is None and history.pending == [game.uid]
        assert "cannot be written" in history.problem and str(tmp_path) not in history.problem
        monkeypatch.undo()
        assert History(tmp_path / "h.sqlite").games()[0]["seed"] == 2
        assert list(tmp_path.glob("h.pending-*")) == []

    def test_a_pending_file_whose_time_does_not_read_is_written_as_of_now(self, tmp_path: Path) -> None:
        history = History(tmp_path / "h.sqlite")
        holder = sqlite3.connect(history.path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        history.add(_finished(6))
        holder.execute("ROLLBACK")
        holder.close()
        [pending] = tmp_path.glob("h.pending-*.json")
        pending.write_text(json.dumps({**json.loads(pending.read_text()), "saved_at": "yesterday"}))
        [stored] = History(tmp_path / "h.sqlite").games()
        assert read_stamp(stored["finished"]).utcoffset() == UTC.utcoffset(None)

    def test_a_pending_file_that_does_not_replay_is_kept_aside_and_named(self, tmp_path: Path) -> None:
        (tmp_path / "h.pending-abc123.json").write_text('{"format": "cut_tutor.save", "version": 1}')
        history = History(tmp_path / "h.sqlite")
        [kept] = tmp_path.glob("h.pending-abc123.corrupt-*.json")
        assert kept.name in history.problem and str(tmp_path) not in history.problem
        assert history.pending == [] and history.add(_finished(3)) is not None

    def test_a_lock_released_during_the_backoff_is_waited_for(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(history_module, "RETRY_PAUSES", (0.1, 0.3, 0.6))
        history = History(tmp_path / "h.sqlite")
        holder = sqlite3.connect(history.path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN EXCLUSIVE")
        release = threading.Timer(0.15, lambda: (holder.execute("ROLLBACK"), holder.close()))
        release.start()
        assert history.add(_finished(3)) is not None
        release.join()
        assert history.pending == []


#: A finished hand's entry in a save, well formed.
RESULT = {"number": 1, "dealer": 0, "winner": 1, "scores": [3, 0, 5, 2], "busts": [0, 0, 1, 0],
          "automated": [False] * 4, "deal": "4-3-20-0-1", "moves": ["2×9"]}  # fmt: skip


class TestTheListOfGames:
    def test_another_tab_s_finished_game_is_listed_at_the_next_look(self, tmp_path: Path) -> None:
        mine, other = History(tmp_path / "h.sqlite"), History(tmp_path / "h.sqlite")
        assert mine.games() == []
        other.add(_finished(1))
        assert [g["seed"] for g in mine.games()] == [1]  # the file changed: read again
        mine.add(_finished(2))
        assert [g["seed"] for g in mine.games()] == [2, 1]
        mine.delete([mine.games()[0]["id"]])
        assert [g["seed"] for g in mine.games()] == [1]

    def test_an_unchanged_file_is_not_read_again_for_a_while(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        history = History(tmp_path / "h.sqlite")
        history.add(_finished(1))
        reads: list[int] = []
        real = history._read
        monkeypatch.setattr(history, "_read", lambda work: reads.append(1) or real(work))
        assert history.games() == history.games()
        assert len(reads) == 1
        monkeypatch.setattr(history_module, "GAMES_FRESH", 0.0)
        history.games()
        assert len(reads) == 2


class TestDamagedFiles:
    def test_a_damaged_history_is_kept_and_a_new_one_started(self, tmp_path: Path) -> None:
        path = tmp_path / "history.sqlite"
        path.write_bytes(b"not a database at all" * 100)
        history = History(path)
        kept = [p for p in tmp_path.iterdir() if p.name.startswith("history.corrupt-")]
        assert len(kept) == 1 and kept[0].read_bytes() == b"not a database at all" * 100
        assert kept[0].name in history.problem
        assert history.add(_finished(4)) is not None

    def test_an_unusable_history_folder_is_explained(self, tmp_path: Path) -> None:
        (tmp_path / "home").write_text("a file where a folder should be")
        history = History(tmp_path / "home" / "history.sqlite")
        assert "cannot be opened" in history.problem and history.games() == []
        game = _finished(5)
        assert history.add(game) is None and history.pending == [game.uid] and not history.on_disk(game)
        assert "only while this page stays open" in history.problem and str(tmp_path) not in history.problem

    @pytest.mark.parametrize(
        ("edit", "message"),
        [
            (lambda d: d.__setitem__("names", "abcd"), r"names should be list, not str"),
            (lambda d: d.__setitem__("seed", "7"), r"seed should be int, not str"),
            (lambda d: d.__setitem__("seed", True), r"seed should be int, not bool"),
            (lambda d: d.__setitem__("automated", [1, 0, 0, 0]), r"automated\[0\] should be bool"),
            (lambda d: d["names"].__setitem__(0, "x" * 500), r"names\[0\] is too long"),
            (lambda d: d.__setitem__("results", {"a": 1}), r"results should be list"),
            (lambda d: d["hand"].__setitem__("moves", "2×9"), r"hand\.moves should be list"),
            (lambda d: d["results"].append({**RESULT, "scores": "abcd"}), r"results\[0\]\.scores should be list"),
            (lambda d: d["results"].append({**RESULT, "busts": [0, 0]}), r"results\[0\]\.busts: 2 .* for 4 players"),
            (lambda d: d.__setitem__("extra", [[[[[[[[[[1]]]]]]]]]]), r"nested deeper than 8"),
            (lambda d: d.__setitem__("seed", 10**70), r"corrupt \(save\.seed: a whole number of more than 64 digits\)"),
        ],
    )
    def test_a_save_of_the_wrong_shape_is_refused_by_name(self, tmp_path: Path, edit: object, message: str) -> None:
        path = save_game(game_in_progress(), tmp_path / "g.json")
        data = json.loads(path.read_text())
        edit(data)  # type: ignore[operator]
        path.write_text(json.dumps(data))
        with pytest.raises(SaveError, match=message):
            load_game(path)

    #: Where a save holds a whole number, and numbers no history keeps: past SQLite's integers, and past the
    #: 4300 digits Python reads from text at all.
    INT_FIELDS: ClassVar = [("seed",), ("version",), ("hand", "number"), ("hand", "dealer"), ("results", 0, "number"),
                  ("results", 0, "dealer"), ("results", 0, "winner"), ("results", 0, "scores", 1),
                  ("results", 0, "busts", 2), ("rules", "players"), ("rules", "rounds")]  # fmt: skip

    @pytest.mark.parametrize("where", INT_FIELDS)
    @pytest.mark.parametrize("number", ["1" + "0" * 5000, "9" * 4300, str(2**63), str(-(2**63) - 1), "1e999"])
    def test_a_number_too_large_for_the_history_is_refused(
        self, tmp_path: Path, where: tuple[str | int, ...], number: str
    ) -> None:
        game = Game(Rules(end_condition="rounds", rounds=2), 7)
        finish_hand(game, random.Random(7))
        game.next_hand()
        path = save_game(game, tmp_path / "g.json")
        data = json.loads(path.read_text())
        inner = data
        for key in where[:-1]:
            inner = inner[key]
        inner[where[-1]] = "NUMBER"
        path.write_text(json.dumps(data).replace('"NUMBER"', number))
        with pytest.raises(SaveError, match=r"corrupt|version|not allowed"):
            load_game(path)

    def test_a_seed_the_history_cannot_keep_is_refused_at_the_deal(self) -> None:
        with pytest.raises(ValueError, match="seed: too large"):
            Game(Rules(), 2**63)
        assert Game(Rules(), 2**63 - 1).seed == 2**63 - 1 and Game(Rules(), -(2**63)).seed == -(2**63)

    def test_very_deep_json_is_refused_without_recursion(self, tmp_path: Path) -> None:
        path = tmp_path / "g.json"
        path.write_text('{"format": "cut_tutor.save", "version": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
        with pytest.raises(SaveError, match="nested deeper"):
            read_save(path)
        save_game(game_in_progress(), path)
        assert len(list(tmp_path.glob("g.corrupt-*.json"))) == 1


class TestCsv:
    def test_cells_that_could_run_as_formulas_are_neutralised(self, tmp_path: Path) -> None:
        names = ['=HYPERLINK("http://x","y")', "+1", "-2", "@SUM(A1)"]
        game = finish_game(Game(Rules(end_condition="rounds", rounds=1), 6, names=names), random.Random(6))
        history = History(tmp_path / "h.sqlite")
        history.add(game)
        with history.export_csv(tmp_path / "out.csv").open(newline="", encoding="utf-8") as handle:
            cells = {row["name"] for row in csv.DictReader(handle)}
        assert cells == {"'" + name for name in names}
        assert history_module.csv_cell("Ann - Ben") == "Ann - Ben"


#: A child that starts a save and blocks inside it, between writing its temporary file and renaming it: it makes
#: ``writing`` in the folder, then waits to be killed.
_STUCK_WRITER = """
import os, sys, time
from pathlib import Path
from cut_tutor.engine import Game, Rules
from cut_tutor.storage import save_game

home = Path(sys.argv[1])

def stuck(_fd):
    (home / "writing").touch()
    time.sleep(600)

os.fsync = stuck
save_game(Game(Rules(), 9), home / "save-abc.json")
"""


def _age(path: Path, seconds: float) -> None:
    """Make ``path`` look last written ``seconds`` ago (the next start comes later)."""
    then = path.stat().st_mtime - seconds
    os.utime(path, (then, then))


class TestInterruptedWrites:
    def test_a_save_killed_part_way_leaves_a_temp_file_the_next_start_sweeps(self, tmp_path: Path) -> None:
        from cut_tutor.storage.saves import Saves

        before = save_game(game_in_progress(), tmp_path / "save-abc.json").read_bytes()
        root = Path(__file__).resolve().parent.parent
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
        child = subprocess.Popen([sys.executable, "-c", _STUCK_WRITER, str(tmp_path)], env=env)
        try:
            while not (tmp_path / "writing").exists():  # the child is inside the save
                assert child.poll() is None, "the writer ended before it reached the write"
                time.sleep(0.05)
            [temp] = tmp_path.glob(".save-abc.json.*.tmp")
            _age(temp, 3600)
            saves = Saves(tmp_path, "tab", "kernel")
            saves.waiting()  # another tab opens while the write is still going on
            assert temp.exists(), "a live writer's file is never swept, however old"
            child.send_signal(signal.SIGKILL)
            child.wait()
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        assert temp.exists() and (tmp_path / "save-abc.json").read_bytes() == before
        waiting, problems = Saves(tmp_path, "tab", "kernel").waiting()  # the next start
        assert [p for p in tmp_path.iterdir() if p.suffix == ".tmp"] == [] and problems == []
        assert [w.path.read_bytes() for w in waiting] == [before]  # the save the killed write was to replace

    def test_a_temp_file_just_written_is_left_until_it_is_stale(self, tmp_path: Path) -> None:
        from cut_tutor.storage.saves import Saves

        temp = tmp_path / ".setup.json.x1y2z3.tmp"  # as a write killed a moment ago left it
        temp.write_text('{"par')
        other = tmp_path / "notes.tmp"  # not a temporary file of the tutor's
        other.write_text("mine")
        _age(other, 3600)
        Saves(tmp_path, "tab", "kernel").waiting()
        assert temp.exists(), "its writer may be about to lock it"
        _age(temp, files.STALE_TEMP + 1)
        assert files.sweep_temps(tmp_path) == [temp] and not temp.exists() and other.exists()
