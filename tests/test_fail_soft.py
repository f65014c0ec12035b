"""The app when its files fail: a save that does not resume, a locked, damaged or unwritable history or home,
and a full disk. It opens, plays, says plainly what is wrong, and never lets the table, the save and the game
disagree."""

from __future__ import annotations

import errno
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

import ipywidgets as w

from cut_tutor.storage import files
from cut_tutor.storage import history as history_module
from cut_tutor.storage import saves as saves_module
from cut_tutor.widgets import GameApp, saved_games
from cut_tutor.widgets.table import IntentError
from tests.test_storage_safety import read_only


def on_screen(app: GameApp, widget: w.Widget) -> bool:
    """Is ``widget`` somewhere in the app's layout?"""
    todo = [app.root]
    while todo:
        node = todo.pop()
        if node is widget:
            return True
        todo.extend(getattr(node, "children", ()))
    return False


def _two_player_game(home: Path, rounds: int = 1) -> GameApp:
    app = GameApp(home)
    app.set_players(2)
    app.set_rule("end_condition", "rounds")
    app.set_rule("rounds", rounds)
    app.set_pacing("Auto")  # Automate Player plays the game out at once
    return app


class TestSavesThatDoNotResume:
    def test_a_save_that_reads_but_does_not_load_is_kept_and_named_before_a_deal(self, tmp_path: Path) -> None:
        app = GameApp(tmp_path)
        app.deal(seed=3)
        data = json.loads(app.save_path.read_text())
        data["hand"]["moves"] = ["flip 1", *data["hand"]["moves"]]  # reads as a save, does not replay
        app.save_path.write_text(json.dumps(data))
        broken = app.save_path.read_bytes()
        again = GameApp(tmp_path)
        kept = list(tmp_path.glob("save-*.corrupt-*.json"))
        assert again.resume_label is None and len(kept) == 1 and kept[0].read_bytes() == broken
        assert kept[0].name in again.resume_note.value and "could not be read" in again.resume_note.value
        assert on_screen(again, again.resume_note) and again.setup_box.layout.display == ""
        again.deal(seed=4)
        assert kept[0].read_bytes() == broken and json.loads(again.save_path.read_text())["seed"] == 4

    def test_a_save_whose_seed_has_over_4300_digits_is_kept_and_the_app_opens(self, tmp_path: Path) -> None:
        GameApp(tmp_path).deal(seed=3)
        [path] = tmp_path.glob("save-*.json")
        path.write_text(path.read_text().replace('"seed": 3', '"seed": ' + "1" * 4301))
        broken = path.read_bytes()
        app = GameApp(tmp_path)  # a seed of over 4300 digits stopped the app opening (ValueError from int)
        [kept] = tmp_path.glob("save-*.corrupt-*.json")
        assert app.resume_label is None and kept.read_bytes() == broken and not path.exists()
        assert "corrupt" in app.resume_note.value and kept.name in app.resume_note.value
        app.deal(seed=4)
        assert app.game is not None and kept.read_bytes() == broken

    def test_continue_on_a_save_spoiled_since_the_offer_is_refused_and_kept(self, tmp_path: Path) -> None:
        GameApp(tmp_path).deal(seed=3)
        app = GameApp(tmp_path)
        assert app.resume_label is not None
        app.save_path.write_text('{"format": "cut_tutor.save", "version": 1}')
        with pytest.raises(IntentError, match="could not be read"):
            app.continue_game()
        assert app.game is None and len(list(tmp_path.glob("save-*.corrupt-*.json"))) == 1


class TestHistoryTrouble:
    @pytest.fixture(autouse=True)
    def _quick(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(history_module, "LOCK_TIMEOUT", 0.05)
        monkeypatch.setattr(history_module, "RETRY_PAUSES", (0.01,))

    def test_a_locked_history_when_a_game_ends_keeps_the_game_and_says_so(self, tmp_path: Path) -> None:
        app = _two_player_game(tmp_path)
        holder = sqlite3.connect(app.history.path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        app.deal(seed=4)
        assert app.table.receive({"type": "automate", "on": True})  # plays the game to its end
        assert app.game is not None and app.game.over and len(app.history.pending) == 1
        assert "in use by another program" in app.saved.notice.value and "will be added" in app.saved.notice.value
        assert str(tmp_path) not in app.saved.notice.value
        holder.execute("ROLLBACK")
        holder.close()
        app.deal(seed=5)
        app.set_automate(True)
        assert [g["seed"] for g in app.history.games()] == [5, 4] and app.saved.notice.value == ""

    def test_a_game_finished_while_the_history_is_locked_survives_a_closed_tab(self, tmp_path: Path) -> None:
        app = _two_player_game(tmp_path)
        holder = sqlite3.connect(app.history.path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        app.deal(seed=4)
        app.set_automate(True)  # plays the game to its end
        assert app.game is not None and app.game.over and list(tmp_path.glob("save-*.json")) == []
        assert len(list(tmp_path.glob("history.pending-*.json"))) == 1  # on disk, not only in this kernel
        del app  # the tab is closed, or its kernel stopped
        reopened = GameApp(tmp_path)  # still locked: it says so, and keeps the game waiting
        notice = reopened.saved.notice.value
        assert "your finished game is kept" in notice and str(tmp_path) not in notice
        holder.execute("ROLLBACK")
        holder.close()
        later = GameApp(tmp_path)
        assert [g["seed"] for g in later.history.games()] == [4] and later.saved.notice.value == ""
        assert list(tmp_path.glob("history.pending-*")) == []

    def test_a_game_finished_while_the_history_cannot_be_written_is_added_at_the_next_start(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        app = _two_player_game(tmp_path)
        app.deal(seed=4)
        monkeypatch.setattr(history_module, "connect", read_only)
        app.set_automate(True)
        assert app.game is not None and app.game.over and list(tmp_path.glob("save-*.json")) == []
        notice = app.saved.notice.value
        assert "cannot be written" in notice and "will be added" in notice and str(tmp_path) not in notice
        monkeypatch.undo()
        assert [g["seed"] for g in GameApp(tmp_path).history.games()] == [4]

    def test_a_finished_game_no_file_can_hold_keeps_its_save(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        app = _two_player_game(tmp_path)
        holder = sqlite3.connect(app.history.path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        app.deal(seed=4)
        [save] = tmp_path.glob("save-*.json")
        real = history_module.write_atomic

        def refuse_pending(path: Path, text: str) -> Path:
            if ".pending-" in Path(path).name:
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real(path, text)

        monkeypatch.setattr(history_module, "write_atomic", refuse_pending)
        app.set_automate(True)
        assert app.game is not None and app.game.over and save.exists(), "the save is all that is kept on disk"
        assert "only while this page stays open" in app.saved.notice.value
        assert str(tmp_path) not in app.saved.notice.value

    def test_a_damaged_history_still_opens_and_plays(self, tmp_path: Path) -> None:
        (tmp_path / "history.sqlite").write_bytes(b"\x00garbage" * 64)
        app = _two_player_game(tmp_path)
        assert "damaged" in app.saved.notice.value and on_screen(app, app.saved.notice)
        app.deal(seed=6)
        app.set_automate(True)
        assert app.game is not None and app.game.over and len(app.history.games()) == 1

    def test_an_unusable_home_still_opens_and_plays_and_says_saving_is_off(self, tmp_path: Path) -> None:
        home = tmp_path / "home"
        home.write_text("a file where the tutor's folder should be")
        app = _two_player_game(home)
        assert "Saving is off" in app.saved.notice.value and "CUT_TUTOR_HOME" in app.saved.notice.value
        app.deal(seed=7)
        app.set_automate(True)
        assert app.game is not None and app.game.over and home.read_text().startswith("a file")


class TestFullDisk:
    def test_a_move_that_cannot_be_saved_is_refused_and_nothing_changes(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        app = GameApp(tmp_path)
        app.deal(seed=8)
        assert app.game is not None and app.state is not None
        saved, position, table = app.save_path.read_bytes(), app.state.to_position(), json.dumps(app.table.table)

        def full(*_args: Any, **_kwargs: Any) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(saves_module, "save_game", full)
        move = str(app.state.legal_moves()[0])
        assert not app.table.receive({"type": "move", "move": move})
        assert "disk is full" in app.table.error and "was not played" in app.table.error
        assert app.state.to_position() == position and app.save_path.read_bytes() == saved
        assert json.dumps(app.table.table) == table
        monkeypatch.undo()
        assert app.table.receive({"type": "move", "move": move})
        assert json.loads(app.save_path.read_bytes())["hand"]["moves"] != json.loads(saved)["hand"]["moves"]

    def test_an_ai_move_that_cannot_be_saved_leaves_the_ai_seats_next_choices_as_they_were(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The refused move drew from the AI seat's noise (C4): taken back, the seats choose as if it never ran."""
        apps = [GameApp(tmp_path / "refused"), GameApp(tmp_path / "twin")]
        for app in apps:
            app.deal(seed=8)
            assert app.state is not None and app.sitting.ai[1].level.noise > 0, "a seat whose choices draw from its RNG"
            app.play(app.state.legal_moves()[0])  # Step pacing: the AI seats wait for Next
        refused = apps[0]
        assert refused.state is not None
        position = refused.state.to_position()

        def full(*_args: Any, **_kwargs: Any) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(saves_module, "save_game", full)
        with pytest.raises(IntentError, match="disk is full"):
            refused.next()
        assert refused.state.to_position() == position
        monkeypatch.undo()
        for app in apps:  # both play on alike, move for move, the AI seats choosing with their noise
            for _ in range(40):
                assert app.state is not None
                if app.state.over:
                    break
                if app.state.turn == 0:
                    app.play(app.state.legal_moves()[0])
                else:
                    app.next()
        assert refused.state is not None and apps[1].state is not None
        assert [str(m) for m in refused.state.moves] == [str(m) for m in apps[1].state.moves]

    def test_a_deal_that_cannot_be_saved_is_refused(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        app = GameApp(tmp_path)

        def full(*_args: Any, **_kwargs: Any) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(saved_games, "write_atomic", full)
        with pytest.raises(IntentError, match="disk is full"):
            app.deal(seed=9)
        assert app.game is None and not app.save_path.exists()

    def test_a_continue_that_cannot_be_saved_leaves_the_setup_as_it_was(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The game's state is taken back whole: no game, and the setup the learner had, not the continued game's."""
        played = _two_player_game(tmp_path, rounds=3)
        played.set_pacing("Step")
        played.deal(seed=8)
        saved = played.save_path.read_bytes()
        app = GameApp(tmp_path)
        app.set_players(3)
        app.set_name(1, "Zoe")
        setup = app.setup.to_dict()
        assert app.resume_label is not None and len(setup["seats"]) == 3

        def full(*_args: Any, **_kwargs: Any) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(saves_module, "save_game", full)
        with pytest.raises(IntentError, match="disk is full"):
            app.continue_game()
        assert app.game is None and app.sitting.ai == () and app.setup.to_dict() == setup
        # the setup screen shows that setup again, not the continued game's two seats, and the saved game is offered
        # again, claimed by no tab: once there is space, Continue plays it
        assert app.form.players.value == 3 and len(app.form.seat_rows.children) == 3
        assert app.resume_label is not None and app.saves.held is None and played.save_path.read_bytes() == saved
        monkeypatch.undo()
        app.continue_game()
        assert app.game is not None and app.setup.rules.players == 2


class TestOneGameManyTabs:
    """Games carry an id: a game continued in two tabs is played by one and recorded once; only its own save goes."""

    def test_a_game_continued_in_two_tabs_is_played_by_the_last_and_recorded_once(self, tmp_path: Path) -> None:
        first = _two_player_game(tmp_path)
        first.deal(seed=4)
        tabs = [GameApp(tmp_path), GameApp(tmp_path)]
        for tab in tabs:
            tab.continue_game()  # each takes the game over from the tab before
            assert tab.game is not None and first.game is not None and tab.game.uid == first.game.uid
        with pytest.raises(IntentError, match="another tab"):
            tabs[0].set_automate(True)
        assert tabs[0].game is None and tabs[0].resume_label is not None, "back to the offer, the game not played"
        tabs[1].set_automate(True)
        assert tabs[1].game is not None and tabs[1].game.over
        with pytest.raises(IntentError, match="another tab"):
            first.set_automate(True)
        assert len(tabs[0].history.games()) == 1
        with sqlite3.connect(tabs[0].history.path) as db:  # the history keeps a game once, whoever records it
            assert db.execute("SELECT COUNT(*) FROM games WHERE uid = ?", (tabs[1].game.uid,)).fetchone() == (1,)

    def test_finishing_a_game_leaves_another_games_save(self, tmp_path: Path) -> None:
        old, new = _two_player_game(tmp_path), _two_player_game(tmp_path)
        old.deal(seed=4)
        new.deal(seed=5)  # the same learner starts another game in another tab: the save is now that one
        old.set_automate(True)
        assert old.game is not None and old.game.over
        assert new.game is not None and files.read_save(new.save_path)["uid"] == new.game.uid

    def test_a_history_from_before_game_ids_is_brought_up_to_date(self, tmp_path: Path) -> None:
        path = tmp_path / "history.sqlite"
        with sqlite3.connect(path) as db:
            columns = "finished TEXT, rules TEXT, seed INTEGER, names TEXT, totals TEXT, winners TEXT"
            db.execute(f"CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, {columns})")
        app = _two_player_game(tmp_path)
        app.deal(seed=4)
        app.set_automate(True)
        assert len(app.history.games()) == 1 and not app.history.problem


class TestNoticesNameNoServerPath:
    """What the learner is told says what happened to their games; the folder on the server goes to the log only."""

    @staticmethod
    def shown(app: GameApp) -> str:
        return " ".join((app.saved.notice.value, app.resume_note.value, app.table.error))

    def test_a_folder_that_cannot_be_made(self, tmp_path: Path) -> None:
        home = tmp_path / "learner"
        home.write_text("a file where the folder should be")
        app = _two_player_game(home)
        assert "Saving is off" in self.shown(app) and str(tmp_path) not in self.shown(app)

    def test_a_corrupt_save_and_one_spoiled_before_continue(self, tmp_path: Path) -> None:
        GameApp(tmp_path).deal(seed=3)
        [path] = tmp_path.glob("save-*.json")
        path.write_text("{not json")
        app = GameApp(tmp_path)
        assert "corrupt" in self.shown(app) and str(tmp_path) not in self.shown(app)
        GameApp(tmp_path).deal(seed=4)
        again = GameApp(tmp_path)
        again.save_path.write_text('{"format": "cut_tutor.save", "version": 1}')
        with pytest.raises(IntentError) as refused:
            again.continue_game()
        assert "corrupt" in self.shown(again) and str(tmp_path) not in self.shown(again) + str(refused.value)

    def test_a_save_the_disk_refuses(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        app = GameApp(tmp_path)
        app.deal(seed=8)
        assert app.state is not None

        def refused(_game: object, path: Path, *_args: Any, **_kwargs: Any) -> None:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))  # str() of it names the file

        monkeypatch.setattr(saves_module, "save_game", refused)
        assert not app.table.receive({"type": "move", "move": str(app.state.legal_moves()[0])})
        assert "permission denied" in app.table.error and str(tmp_path) not in self.shown(app)

    def test_saved_games_that_cannot_be_listed(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        app = GameApp(tmp_path)

        def unreadable() -> None:
            raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path))

        monkeypatch.setattr(app.saves, "waiting", unreadable)
        app.check_resume()
        assert "cannot be read" in self.shown(app) and str(tmp_path) not in self.shown(app)

    def test_a_locked_history_and_card_clear_progress(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
    ) -> None:
        from cut_tutor.cardclear.progress import Progress

        monkeypatch.setattr(history_module, "LOCK_TIMEOUT", 0.05)
        monkeypatch.setattr(history_module, "RETRY_PAUSES", (0.01,))
        GameApp(tmp_path)
        Progress(tmp_path / "cardclear.sqlite")
        holders = [sqlite3.connect(tmp_path / name, isolation_level=None) for name in ("history.sqlite",
                                                                                       "cardclear.sqlite")]  # fmt: skip
        for holder in holders:
            holder.execute("BEGIN EXCLUSIVE")
        app = _two_player_game(tmp_path)
        app.deal(seed=4)
        app.set_automate(True)
        progress = Progress(tmp_path / "cardclear.sqlite")
        assert "in use by another program" in self.shown(app) and str(tmp_path) not in self.shown(app)
        assert "in use by another program" in progress.problem and str(tmp_path) not in progress.problem
        assert str(tmp_path / "history.sqlite") in caplog.text  # where it is, for whoever runs the server
        for holder in holders:
            holder.execute("ROLLBACK")
            holder.close()
