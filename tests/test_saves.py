"""A save per game: two tabs of one learner, each its own game; the offer of unfinished games; one tab per game
(claims, heartbeats, take-over); finishing removes only its own save; the single save of earlier versions."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

pytest.importorskip("anywidget")

from cut_tutor.storage import read_save, save_game, saves
from cut_tutor.storage.files import write_atomic
from cut_tutor.storage.saves import ClaimLost, ClaimsBusy, Saves
from cut_tutor.widgets import GameApp
from cut_tutor.widgets.table import IntentError
from tests.test_codes_storage import game_in_progress


def _tab(home: Path, players: int = 2, rounds: int = 1) -> GameApp:
    """One browser tab of the learner whose home is ``home``."""
    app = GameApp(home)
    app.set_players(players)
    app.set_rule("end_condition", "rounds")
    app.set_rule("rounds", rounds)
    app.set_pacing("Auto")  # the AI seats reply at once, so a game can be played to its end in a test
    return app


def _uid(app: GameApp) -> str:
    assert app.game is not None
    return app.game.uid


class TestTwoTabsTwoGames:
    def test_each_tab_keeps_its_own_save(self, tmp_path: Path) -> None:
        one, two = _tab(tmp_path), _tab(tmp_path, players=3)
        one.deal(seed=4)
        two.deal(seed=5)
        assert one.save_path != two.save_path
        assert read_save(one.save_path)["seed"] == 4 and read_save(two.save_path)["seed"] == 5
        before = two.save_path.read_bytes()
        one.set_pacing("Step")
        one.set_automate(True)
        for _ in range(5):  # one plays on and saves after every move: the other tab's save is untouched
            one.next()
        assert one.game is not None and read_save(one.save_path)["hand"]["moves"]
        assert two.save_path.read_bytes() == before and two.resume_label is None

    def test_finishing_one_game_removes_only_its_own_save(self, tmp_path: Path) -> None:
        one, two = _tab(tmp_path), _tab(tmp_path)
        one.deal(seed=4)
        two.deal(seed=5)
        mine, theirs = one.save_path, two.save_path
        one.set_automate(True)
        assert one.game is not None and one.game.over
        assert not mine.exists() and not mine.with_suffix(".claim").exists()
        assert theirs.exists() and theirs.with_suffix(".claim").exists()
        assert [g["seed"] for g in one.history.games()] == [4]


class TestTheOffer:
    def test_lists_unfinished_games_newest_first_with_players_hand_and_time(self, tmp_path: Path) -> None:
        old, new = _tab(tmp_path, players=2), _tab(tmp_path, players=3)
        old.deal(seed=4)
        new.deal(seed=5)
        os.utime(old.save_path, (time.time() - 60, time.time() - 60))
        old.reset_play()
        new.reset_play()
        tab = GameApp(tmp_path)
        assert [w.game.seed for w in tab.saved.waiting] == [5, 4]
        assert tab.resume_label == "Continue — 3 players, round 1"
        first = tab.saved.waiting[0]
        assert first.about.startswith("CUT: You, Ann, Ben · hand 1 · saved 20") and "UTC" in first.about
        shown = "".join(
            getattr(c, "value", "") for row in tab.resume_box.children for c in getattr(row, "children", ())
        )
        assert "2 saved games are waiting" in tab.resume_box.children[0].value and first.about in shown
        labels = [row.children[0].description for row in tab.resume_box.children[1:-1]]
        assert labels == ["Continue — 3 players, round 1", "Continue — 2 players, round 1"]
        assert "another tab" not in shown, "both tabs left their games: nobody holds them"

    def test_continue_picks_the_game_named(self, tmp_path: Path) -> None:
        old, new = _tab(tmp_path), _tab(tmp_path)
        old.deal(seed=4)
        new.deal(seed=5)
        uid = _uid(old)
        tab = GameApp(tmp_path)
        tab.continue_game(uid)
        assert tab.game is not None and tab.game.seed == 4 and tab.game.uid == uid
        with pytest.raises(IntentError, match="no saved game"):
            GameApp(tmp_path).continue_game("f" * 32)

    def test_a_button_of_the_offer_continues_its_own_game(self, tmp_path: Path) -> None:
        old, new = _tab(tmp_path), _tab(tmp_path)
        old.deal(seed=4)
        new.deal(seed=5)
        tab = GameApp(tmp_path)
        older = tab.resume_box.children[2].children[0]
        older.click()
        assert tab.game is not None and tab.game.seed == 4 and tab.table.error == ""

    def test_the_page_s_first_message_keeps_the_offer_being_clicked(self, tmp_path: Path) -> None:
        _tab(tmp_path).deal(seed=4)
        tab = GameApp(tmp_path)
        button = tab.resume_box.children[1].children[0]
        assert tab.table.receive({"type": "ready"})  # as the page says it is ready, the learner clicks Continue
        assert tab.resume_box.children[1].children[0] is button and button.comm is not None
        button.click()
        assert tab.game is not None and tab.game.seed == 4

    def test_an_offer_that_changed_is_drawn_anew(self, tmp_path: Path) -> None:
        _tab(tmp_path).deal(seed=4)
        tab = GameApp(tmp_path)
        button = tab.resume_box.children[1].children[0]
        _tab(tmp_path).deal(seed=5)
        assert tab.table.receive({"type": "ready"})
        assert len(tab.resume_box.children) == 4 and button not in tab.resume_box.children[1].children
        assert button.comm is None, "the old offer's button is closed"


class TestOneTabPerGame:
    def test_a_claimed_game_is_offered_as_open_elsewhere_and_taken_over(self, tmp_path: Path) -> None:
        first = _tab(tmp_path)
        first.deal(seed=4)
        second = GameApp(tmp_path)
        waiting = second.saved.waiting[0]
        assert waiting.elsewhere.startswith("process ")
        assert "Open in another tab" in second.resume_box.children[1].children[1].value
        second.continue_game()
        assert second.saved.waiting == [] and not second.saves.elsewhere(_uid(second))
        save = first.save_path.read_bytes()
        with pytest.raises(IntentError, match="another tab took this game over"):
            first.set_automate(True)
        assert first.game is None and first.resume_label is not None and first.save_path.read_bytes() == save
        assert first.saved.waiting[0].elsewhere, "the first tab now sees the game open in the second"
        first.continue_game()  # and takes it back
        assert first.game is not None and first.game.uid == _uid(second)

    def test_a_stale_claim_is_free(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        first = _tab(tmp_path)
        first.deal(seed=4)
        claim = first.save_path.with_suffix(".claim")
        data = json.loads(claim.read_text())
        assert data["holder"] == first.tab and data["kernel"]
        data["beat"] -= saves.CLAIM_STALE + 1  # its kernel stopped beating long ago
        claim.write_text(json.dumps(data))
        assert GameApp(tmp_path).saved.waiting[0].elsewhere == ""

    def test_the_heartbeat_renews_a_claim_held_and_never_one_taken_over(self, tmp_path: Path) -> None:
        one, two = Saves(tmp_path, "one", "kernel a"), Saves(tmp_path, "two", "kernel b")
        one.claim("abc")
        path = tmp_path / "save-abc.claim"
        first = json.loads(path.read_text())["beat"]
        time.sleep(0.01)
        one.beat()
        assert json.loads(path.read_text())["beat"] > first
        assert two.elsewhere("abc") == "kernel a" and one.elsewhere("abc") == ""
        two.claim("abc")
        one.beat()
        assert json.loads(path.read_text())["holder"] == "two"
        with pytest.raises(ClaimLost):
            one.check("abc")
        one.release()
        assert path.exists(), "a tab never releases another tab's claim"

    def test_a_take_over_during_a_heartbeat_stands(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """The heartbeat reads its claim, then writes it back: a take-over in between once lost to it."""
        one, two = Saves(tmp_path, "one", "kernel a"), Saves(tmp_path, "two", "kernel b")
        one.claim("abc")
        taker = threading.Thread(target=two.claim, args=("abc",))
        read = one._read_claim

        def read_then_take(uid: str) -> dict[str, Any] | None:
            claim = read(uid)  # the first tab has read its own claim...
            if taker.ident is None:
                taker.start()  # ...when the second takes the game over
                taker.join(0.3)  # it waits for the claims' lock (without one, it writes at once)
            return claim

        monkeypatch.setattr(one, "_read_claim", read_then_take)
        one.beat()
        taker.join()
        assert json.loads((tmp_path / "save-abc.claim").read_text())["holder"] == "two"
        with pytest.raises(ClaimLost):
            one.check("abc")

    def test_a_game_finished_after_a_take_over_keeps_its_save_for_the_tab_that_took_it(self, tmp_path: Path) -> None:
        one, two = Saves(tmp_path, "one", "kernel a"), Saves(tmp_path, "two", "kernel b")
        game = game_in_progress()
        saved = one.save(game)
        two.claim(game.uid)
        one.finish(game)
        assert saved.exists() and two.holder_of(game.uid) is not None and one.held is None
        two.finish(game)
        assert not saved.exists() and not (tmp_path / f"save-{game.uid}.claim").exists()

    def test_a_lock_held_too_long_says_so_and_changes_nothing(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(saves, "LOCK_WAIT", 0.1)
        one = Saves(tmp_path, "one", "kernel a")
        with (
            FileLock(str(tmp_path / saves.CLAIMS_LOCK)),
            pytest.raises(ClaimsBusy, match=r"held \.claims\.lock for 0\.1 s"),
        ):
            one.claim("abc")
        assert not (tmp_path / "save-abc.claim").exists() and one.held is None

    def test_leaving_a_game_releases_its_claim_and_keeps_its_save(self, tmp_path: Path) -> None:
        app = _tab(tmp_path)
        app.deal(seed=4)
        save = app.save_path
        app.reset_play()
        assert save.exists() and not save.with_suffix(".claim").exists()
        assert GameApp(tmp_path).saved.waiting[0].elsewhere == ""

    def test_a_game_finished_elsewhere_is_not_played_on(self, tmp_path: Path) -> None:
        first = _tab(tmp_path)
        first.deal(seed=4)
        other = GameApp(tmp_path)
        other.continue_game()
        other.set_automate(True)
        assert other.game is not None and other.game.over
        with pytest.raises(IntentError, match="another tab"):
            first.set_automate(True)
        assert len(first.history.games()) == 1 and first.resume_label is None

    def test_a_save_replaced_behind_the_tab_s_back_is_read_before_it_is_written_over(self, tmp_path: Path) -> None:
        """The tab skips reading back only the save it wrote itself: a file put in its place is checked, and kept
        aside when it does not resume."""
        tab = Saves(tmp_path, "one", "kernel a")
        game = game_in_progress(steps=4)
        path = tab.save(game, sync=False)
        tab.save(game, sync=False)  # its own save: not read again
        write_atomic(path, "{ not a save")
        tab.save(game, sync=False)
        kept = sorted(p.name for p in tmp_path.glob("save-*.corrupt-*.json"))
        assert len(kept) == 1 and read_save(path)["uid"] == game.uid

    def test_a_claim_changed_on_disk_is_read_again_before_the_next_save(self, tmp_path: Path) -> None:
        """A claim file another tab replaced is read again, so its take-over refuses this tab's next save."""
        one, two = Saves(tmp_path, "one", "kernel a"), Saves(tmp_path, "two", "kernel b")
        game = game_in_progress(steps=4)
        one.save(game)
        one.save(game)  # the claim as it was: not read again
        two.claim(game.uid)
        with pytest.raises(ClaimLost):
            one.save(game)


class TestTheSaveOfEarlierVersions:
    def test_is_moved_into_its_game_and_kept(self, tmp_path: Path) -> None:
        game = game_in_progress(steps=4)
        legacy = save_game(game, tmp_path / "save.json")
        text = legacy.read_text()
        app = GameApp(tmp_path)
        assert app.resume_label is not None and app.saved.waiting[0].uid == game.uid
        kept = list(tmp_path.glob("save.migrated-*.json"))
        assert not legacy.exists() and len(kept) == 1 and kept[0].read_text() == text
        app.continue_game()
        assert app.game is not None and (app.game.uid, app.game.seed) == (game.uid, game.seed)
        assert app.game.state.moves[: len(game.state.moves)] == game.state.moves[: game.state.turn_start]

    def test_without_a_game_id_becomes_one_game(self, tmp_path: Path) -> None:
        data = json.loads(save_game(game_in_progress(steps=4), tmp_path / "save.json").read_text())
        del data["uid"]  # saved before games carried an id
        (tmp_path / "save.json").write_text(json.dumps(data))
        assert len(GameApp(tmp_path).saved.waiting) == 1
        assert len(GameApp(tmp_path).saved.waiting) == 1, "migrated once, not once per tab"

    def test_that_does_not_resume_is_kept_aside_and_named(self, tmp_path: Path) -> None:
        (tmp_path / "save.json").write_text('{"format": "cut_tutor.save", "version": 1}')
        app = GameApp(tmp_path)
        kept = list(tmp_path.glob("save.corrupt-*.json"))
        assert app.resume_label is None and len(kept) == 1 and kept[0].name in app.resume_note.value
