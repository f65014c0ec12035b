"""A learner is who the server says: the class roster's hashed passwords, the dashboard's sessions, and the kernel
refusing a page that names another learner (under JupyterHub, and on a class's dashboard)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

from cut_tutor import roster
from cut_tutor.cli import main
from cut_tutor.identity import HUB_USER, LEARNER_ENV, IdentityError, server_learner
from cut_tutor.widgets import GameApp


@pytest.fixture(autouse=True)
def _no_server_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test says itself whether a hub or a sign-in names the learner."""
    monkeypatch.delenv(HUB_USER, raising=False)
    monkeypatch.delenv(LEARNER_ENV, raising=False)


def _tree(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


class TestRoster:
    def test_a_password_opens_only_its_own_learner(self, tmp_path: Path) -> None:
        ann, ben = roster.add(tmp_path, "ann"), roster.add(tmp_path, "ben")
        assert ann != ben
        assert roster.verify(tmp_path, "ann", ann) == 1 and roster.verify(tmp_path, "ben", ben) == 1
        assert roster.verify(tmp_path, "ann", ben) is None, "another learner's password"
        assert roster.verify(tmp_path, "ann", ann.upper()) is None and roster.verify(tmp_path, "ann", "") is None
        assert roster.verify(tmp_path, "cleo", ann) is None, "a name not in the class"

    def test_the_file_keeps_only_salted_hashes_readable_by_its_owner(self, tmp_path: Path) -> None:
        passwords = [roster.add(tmp_path, name) for name in ("ann", "ben")]
        path = tmp_path / roster.ROSTER_FILE
        text = path.read_text(encoding="utf-8")
        assert not any(p in text or p.replace("-", "") in text for p in passwords)
        entries = json.loads(text)["learners"]
        assert entries["ann"]["salt"] != entries["ben"]["salt"] and entries["ann"]["hash"] != entries["ben"]["hash"]
        assert stat.S_IMODE(path.stat().st_mode) == 0o600

    def test_a_reset_ends_the_old_password(self, tmp_path: Path) -> None:
        old = roster.add(tmp_path, "ann")
        new = roster.reset(tmp_path, "ann")
        assert roster.verify(tmp_path, "ann", old) is None and roster.verify(tmp_path, "ann", new) == 2
        roster.remove(tmp_path, "ann")
        assert roster.verify(tmp_path, "ann", new) is None and roster.names(tmp_path) == []

    @pytest.mark.parametrize("name", ["../ann", "", "ann ben", "a" * 65, "-ann", "ann/ben"])
    def test_a_bad_name_is_refused_and_nothing_written(self, tmp_path: Path, name: str) -> None:
        with pytest.raises(roster.RosterError, match="letters, digits"):
            roster.add(tmp_path, name)
        assert _tree(tmp_path) == {}

    def test_changes_to_learners_not_there_or_already_there_are_refused(self, tmp_path: Path) -> None:
        roster.add(tmp_path, "ann")
        before = _tree(tmp_path)
        for change in (lambda: roster.add(tmp_path, "ann"), lambda: roster.reset(tmp_path, "ben"),
                       lambda: roster.remove(tmp_path, "ben")):  # fmt: skip
            with pytest.raises(roster.RosterError):
                change()
        assert _tree(tmp_path) == before

    def test_a_damaged_roster_is_named_and_kept(self, tmp_path: Path) -> None:
        (tmp_path / roster.ROSTER_FILE).write_text("{not json")
        with pytest.raises(roster.RosterError, match="cannot be read"):
            roster.add(tmp_path, "ann")
        assert (tmp_path / roster.ROSTER_FILE).read_text() == "{not json"

    def test_the_teacher_adds_learners_and_the_table_shows_names_only(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["class", str(tmp_path), "add", "ann", "ben"]) == 0
        said = capsys.readouterr().out
        passwords = dict(line.split(": password ") for line in said.splitlines() if ": password " in line)
        assert set(passwords) == {"ann", "ben"} and roster.verify(tmp_path, "ann", passwords["ann"]) == 1
        assert main(["class", str(tmp_path)]) == 0
        table = capsys.readouterr().out
        assert "ann" in table and "ben" in table, "a learner who has not played yet is listed"
        assert not any(p in table for p in passwords.values()) and "hash" not in table and "salt" not in table
        assert main(["class", str(tmp_path), "reset"]) == 2
        assert "needs the learners' names" in capsys.readouterr().err


class TestServerNamesTheLearner:
    def test_on_ones_own_machine_the_page_names_its_learner(self, tmp_path: Path) -> None:
        assert server_learner(tmp_path) is None
        app = GameApp(tmp_path)
        assert app.table.learner == "" and app.table.receive({"type": "ready", "learner": "anyone"})
        assert app.home == tmp_path / "learners" / "anyone"

    def test_under_the_hub_the_learner_is_the_hub_user(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv(HUB_USER, "ann")
        app = GameApp(tmp_path)
        assert app.learner == "ann" and app.home == tmp_path / "learners" / "ann" and app.table.learner == "ann"
        assert app.table.receive({"type": "ready"}) and app.table.receive({"type": "ready", "learner": "ann"})
        app.deal(seed=5)
        assert app.save_path.parent == tmp_path / "learners" / "ann"

    def test_a_page_naming_another_learner_is_refused_and_nothing_changes(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Ben's saved game waits; a page of Ann's that names Ben gets a refusal, not his game or his history."""
        monkeypatch.setenv(HUB_USER, "ben")
        ben = GameApp(tmp_path)
        ben.deal(seed=6)
        monkeypatch.setenv(HUB_USER, "ann")
        ann = GameApp(tmp_path)
        before = _tree(tmp_path)
        assert not ann.table.receive({"type": "ready", "learner": "ben"})
        assert "another learner" in ann.table.error
        assert ann.learner == "ann" and ann.home == tmp_path / "learners" / "ann" and ann.resume_label is None
        assert ann.history.path.parent == ann.home
        assert _tree(tmp_path) == before
        assert not ann.table.receive({"type": "ready", "learner": "ben"}), "sent again, refused again"

    def test_on_a_class_dashboard_the_signed_in_learner(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        roster.add(tmp_path, "ann")
        roster.add(tmp_path, "ben")
        monkeypatch.setenv(LEARNER_ENV, "ann")
        app = GameApp(tmp_path)
        assert app.learner == "ann" and app.home == tmp_path / "learners" / "ann"
        assert not app.table.receive({"type": "ready", "learner": "ben"}) and app.home.name == "ann"

    def test_a_class_home_opened_without_a_sign_in_opens_no_ones_games(self, tmp_path: Path) -> None:
        roster.add(tmp_path, "ann")
        before = _tree(tmp_path)
        with pytest.raises(IdentityError, match="sign in"):
            GameApp(tmp_path)
        assert _tree(tmp_path) == before


class TestSessions:
    """The class dashboard's sessions: a cookie carries only a session's random token; the server decides."""

    @pytest.fixture
    def provider(self, tmp_path: Path) -> object:
        pytest.importorskip("voila")
        from cut_tutor.dashboard.signin import ClassIdentityProvider

        self.passwords = {name: roster.add(tmp_path, name) for name in ("ann", "ben")}
        return ClassIdentityProvider(home=str(tmp_path))

    def test_a_sign_in_names_its_learner_and_nothing_else_does(self, provider: Any, tmp_path: Path) -> None:
        assert provider.sign_in("ann", self.passwords["ben"]) is None and provider.sessions == {}
        ann = provider.sign_in("ann", self.passwords["ann"])
        token = provider.user_to_cookie(ann)
        assert provider.user_from_cookie(token).username == "ann"
        assert "ann" not in token and self.passwords["ann"] not in token
        for forged in ("ann", "ben", token[:-1], token + "x", ""):
            assert provider.user_from_cookie(forged) is None

    def test_a_signed_out_reset_or_expired_session_is_over(self, provider: Any, tmp_path: Path) -> None:
        token = provider.user_to_cookie(provider.sign_in("ann", self.passwords["ann"]))
        provider.sign_out(token)
        assert provider.user_from_cookie(token) is None, "replayed after signing out"
        token = provider.user_to_cookie(provider.sign_in("ann", self.passwords["ann"]))
        roster.reset(tmp_path, "ann")
        assert provider.user_from_cookie(token) is None, "made with a password since reset"
        ben = provider.sign_in("ben", self.passwords["ben"])
        ben.until = 0.0
        assert provider.user_from_cookie(provider.user_to_cookie(ben)) is None, "past its day"
        assert provider.sessions == {}


def test_a_hub_name_that_is_not_a_plain_name_gets_a_folder_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hub names from a school's login may be e-mail addresses; none reaches outside ``learners`` or another's."""
    folders = set()
    for name in ("ann@school.org", "ann.school.org", "..", "../ben", "ann"):
        monkeypatch.setenv(HUB_USER, name)
        app = GameApp(tmp_path)
        assert app.learner == name and app.home.parent == tmp_path / "learners" and app.home.name not in ("", "..")
        folders.add(app.home)
    assert len(folders) == 5
