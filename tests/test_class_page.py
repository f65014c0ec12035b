"""The teacher's live view of a class: one reading (:func:`class_view`) behind both the class's page and
``cut-tutor class``, over a class made with the tutor's own storage (finished games in the history, a game being
played now, reviewed hands and drills); its CSV read back; the page shown only to a teacher, never a secret."""

from __future__ import annotations

import base64
import io
import json
import re
from html import escape
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

pytest.importorskip("anywidget")

from test_progress import finished, graded, value  # noqa: F401 - ``finished`` is a fixture
from test_teacher_view import _files, _learner

from cut_tutor import roster
from cut_tutor.analysis import Analysis
from cut_tutor.classroom import TABLE_COLUMNS, class_view, is_teacher, table_csv
from cut_tutor.cli import main
from cut_tutor.review import Drills, hand_kinds, kind_counts
from cut_tutor.review.drills import DRILLS_FILE
from cut_tutor.review.words import MISTAKE_KINDS
from cut_tutor.storage import History
from cut_tutor.widgets import GameApp
from cut_tutor.widgets.class_page import NOT_A_TEACHER, ClassPage

TEACHER = {"JUPYTERHUB_USER": "mrs_t", "CUT_TUTOR_TEACHERS": "mr_b, mrs_t"}


@pytest.fixture
def home(tmp_path: Path, finished: dict[str, Any]) -> Any:  # noqa: F811
    """ann: two finished games, one waiting, two reviewed hands and drills (one answered right, one wrong); ben: one
    finished game; dan: a game on the table now (a live tab)."""
    _learner(tmp_path, "ann", finished=[4, 5], unfinished=1)
    _learner(tmp_path, "ben", finished=[6])
    deck = Drills(tmp_path / "learners" / "ann" / DRILLS_FILE)
    hand = graded(finished)
    deck.keep_review(finished, hand, hand_kinds(finished, hand), "g1", 1)
    deck.keep_review(finished, graded(finished, seat=1), hand_kinds(finished, graded(finished, seat=1)), "g1", 1)
    deck.add_mistakes(finished, hand)
    first, second = deck.drills()[:2]
    for drill, right in ((first, True), (second, False)):
        legal = drill.view()["legal"]
        best, worse = legal[0], legal[1]
        analysis = Analysis(drill.seat, [value(best, 5.0, 0, 0, 0), value(worse, 25.0, 20.0, 8.0, 32.0)], 100, 0.1,
                            "budget", 0, "Expert:Balanced")  # fmt: skip
        deck.answer(drill, best if right else worse, analysis)
    dan = GameApp(tmp_path)
    assert dan.table.receive({"type": "ready", "learner": "dan"})
    dan.deal(seed=9)  # dan's tab plays this game now
    for name in ("ann", "ben", "dan", "eve"):  # the class's roster: eve has not played yet
        roster.add(tmp_path, name)
    yield tmp_path, dan
    dan.reset_play()


def test_one_reading_of_the_class(home: tuple[Path, GameApp], finished: dict[str, Any]) -> None:  # noqa: F811
    path, _ = home
    view = class_view(path)
    table = view.table.set_index("learner")
    assert view.problems == [] and list(view.table.columns) == TABLE_COLUMNS
    assert list(table.index) == ["ann", "ben", "dan", "eve"]
    assert list(table["playing"]) == [False, False, True, False], "only dan's tab holds a live claim"
    assert tuple(table.loc["eve", ["games", "reviewed", "drills"]]) == (0, 0, 0)
    assert tuple(table.loc["ann", ["games", "hands", "unfinished"]]) == (2, 4, 1)
    assert tuple(table.loc["dan", ["games", "hands", "unfinished"]]) == (0, 0, 1)
    history = History(path / "learners" / "ann" / "history.sqlite")
    rows = [r for g in history.games() for r in history.hands(g["id"]) if r["seat"] == 0]
    assert table.loc["ann", "points_per_hand"] == round(sum(r["points"] for r in rows) / len(rows), 2)
    assert table.loc["ann", "reviewed"] == 2 and table.loc["ben", "reviewed"] == 0
    assert tuple(table.loc["ann", ["tried", "solved"]]) == (2, 1) and table.loc["ann", "drills"] >= 2
    expected = kind_counts([*hand_kinds(finished, graded(finished)).values(),
                            *hand_kinds(finished, graded(finished, seat=1)).values()])  # fmt: skip
    assert view.kinds == expected and sum(view.kinds.values()) > 0
    assert list(view.frames["ann"]["seat"]) == [0, 1], "each learner's reviewed hands, oldest first"


def test_the_csv_reads_back_as_the_table(home: tuple[Path, GameApp]) -> None:
    table = class_view(home[0]).table
    back = pd.read_csv(io.StringIO(table_csv(table)))
    pd.testing.assert_frame_equal(back, table, check_dtype=False)


def test_the_command_reads_the_same(home: tuple[Path, GameApp], capsys: pytest.CaptureFixture[str]) -> None:
    view = class_view(home[0])
    assert main(["class", str(home[0]), "--csv"]) == 0
    assert capsys.readouterr().out == table_csv(view.summary)
    assert main(["class", str(home[0]), "--progress", "--csv"]) == 0
    assert capsys.readouterr().out == table_csv(view.progress)


def test_the_page_shows_the_class_to_its_teacher_and_writes_nothing(home: tuple[Path, GameApp]) -> None:
    path = home[0]
    before = _files(path)
    page = ClassPage(path, environ=TEACHER, every=None)
    text = page.body.value
    assert "Playing now: dan." in text
    assert all(f'<th scope="row">{n}</th>' in text for n in ("ann", "ben", "dan", "eve"))
    link = re.search(r'href="data:text/csv;charset=utf-8;base64,([^"]+)"', text)
    assert link is not None and base64.b64decode(link.group(1)).decode() == table_csv(class_view(path).table)
    assert text.count("<svg ") == 1, "accuracy over time for the one learner with reviewed hands"
    top = max(page.view.kinds, key=lambda k: page.view.kinds[k]) if page.view else ""
    assert MISTAKE_KINDS[top] in text
    claim = json.loads(next((path / "learners" / "dan").glob("save-*.claim")).read_text())
    assert claim["holder"] not in text and claim["kernel"] not in text, "nothing that names a tab or a kernel"
    assert str(path) not in text
    kept = json.loads((path / roster.ROSTER_FILE).read_text())["learners"]
    assert all(entry["hash"] not in text and entry["salt"] not in text for entry in kept.values())
    page.refresh()
    assert _files(path) == before, "reading the class writes no learner's file"


@pytest.mark.parametrize(
    "environ",
    [{}, {"CUT_TUTOR_TEACHERS": "mrs_t"}, {"JUPYTERHUB_USER": "ann", "CUT_TUTOR_TEACHERS": "mrs_t"},
     {"JUPYTERHUB_USER": "mrs_t"}, {"JUPYTERHUB_USER": "", "CUT_TUTOR_TEACHERS": ","}],
)  # fmt: skip
def test_no_teacher_no_class(home: tuple[Path, GameApp], environ: dict[str, str]) -> None:
    assert not is_teacher(environ)
    page = ClassPage(home[0], environ=environ, every=None)
    shown = page.body.value
    assert escape(NOT_A_TEACHER) in shown and "ann" not in shown and page.root.children == (page.body,)


def test_a_teacher_is_named_by_the_server() -> None:
    assert is_teacher(TEACHER) and is_teacher({"JUPYTERHUB_USER": "mr_b", "CUT_TUTOR_TEACHERS": "mr_b"})


def test_a_teacher_signed_in_to_the_class_is_named_by_the_server_and_the_roster(tmp_path: Path) -> None:
    """Only the server's own teacher header, naming a teacher the roster still has, makes a teacher: not a learner's
    name in it, not a teacher's name in the learner's header, not a name the roster does not hold."""
    from cut_tutor.identity import LEARNER_ENV, TEACHER_ENV

    roster.add(tmp_path, "ann")
    roster.add(tmp_path, "mrs_t", teacher=True)
    assert is_teacher({TEACHER_ENV: "mrs_t"}, tmp_path)
    assert not is_teacher({LEARNER_ENV: "ann"}, tmp_path), "a learner's session"
    assert not is_teacher({TEACHER_ENV: "ann"}, tmp_path), "a learner named where a teacher would be"
    assert not is_teacher({LEARNER_ENV: "mrs_t"}, tmp_path) and not is_teacher({TEACHER_ENV: "mr_x"}, tmp_path)
    assert not is_teacher({TEACHER_ENV: "mrs_t"}), "no class to check the name against"
    page = ClassPage(tmp_path, environ={TEACHER_ENV: "mrs_t"}, every=None)
    assert page.teacher and '<th scope="row">ann</th>' in page.body.value and "mrs_t" not in page.body.value
    roster.remove(tmp_path, "mrs_t")
    assert not is_teacher({TEACHER_ENV: "mrs_t"}, tmp_path), "taken off the class, no longer a teacher"


def test_the_teachers_server_asks_for_its_token(tmp_path: Path) -> None:
    from cut_tutor.classroom import TEACHER_SERVER_ENV
    from cut_tutor.cli import class_server

    command, env, token = class_server(tmp_path, 8867)
    assert "--token" in command and not any(token in part for part in command), "never on a listed command line"
    assert env["JUPYTER_TOKEN"] == token and len(token) >= 32 and env["CUT_TUTOR_HOME"] == str(tmp_path.resolve())
    assert any("PasswordIdentityProvider" in part for part in command), "the token, not a class's learners' sign-in"
    assert is_teacher({TEACHER_SERVER_ENV: "1"}) and not is_teacher({TEACHER_SERVER_ENV: "yes"})


@pytest.mark.timeout(120)  # only if the timer never fires: the test waits for its read, not for a time
def test_the_page_reads_the_class_again_on_its_timer(tmp_path: Path) -> None:
    """The timer's own read shows a learner who arrived after the page opened: the test waits for that read (an
    event set by it), not for a time, so a slow machine cannot fail it."""
    import asyncio

    async def watch() -> str:
        page = ClassPage(tmp_path, environ=TEACHER, every=0.05)
        assert "No learners yet." in page.body.value
        read = asyncio.Event()
        reads = page.refresh

        def refresh() -> None:  # the timer's read, noted
            reads()
            read.set()

        page.refresh = refresh  # type: ignore[method-assign]
        # a learner arrives while the page is open, before the timer's task first runs (nothing has awaited yet)
        (tmp_path / "learners" / "fay").mkdir(parents=True)
        await read.wait()
        assert page._timer is not None
        page._timer.cancel()
        return str(page.body.value)

    assert '<th scope="row">fay</th>' in asyncio.run(watch())
