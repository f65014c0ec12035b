"""The class's page served by Voilà in Chromium: the teacher, who holds the token of ``cut-tutor class --serve``,
sees who plays now, the table, the plots and the kinds of mistake, downloads the table, refreshes it; nothing
critical or serious for axe-core in either theme; no secret shown; a browser without the token, or a hub user who
is no teacher, is shown no class."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from serving import ARGS, CHROMIUM, ROOT, SHOTS, VoilaServer, axe_problems, free_port

from cut_tutor import dashboard, roster
from cut_tutor.cli import class_server, voila_command

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]
#: The screenshot sizes of the class's page: (width, height).
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


@contextmanager
def served(home: Path, command: list[str], port: int, env: dict[str, str]) -> Iterator[str]:
    """Voilà running ``command`` on ``port`` with ``env``; its address once it answers."""
    server = VoilaServer("class", command, port, ROOT, env, home / "voila.log")
    try:
        server.start()
        server.wait_http()
        yield server.url
    finally:
        server.stop()


def make_class(home: Path) -> Any:
    """ann: finished games and two reviewed hands; ben: a finished game; dan: a game on the table now (the app
    returned, whose tab holds the game's claim while it lives). Made with the tutor's own storage."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_progress import graded
    from test_teacher_view import _learner

    from cut_tutor.coach import AIPlayer, Knowledge
    from cut_tutor.engine import Rules, State, record_of
    from cut_tutor.engine.view import sight
    from cut_tutor.review import Drills, hand_kinds
    from cut_tutor.review.drills import DRILLS_FILE
    from cut_tutor.widgets import GameApp

    _learner(home, "ann", finished=[4, 5], unfinished=1)
    _learner(home, "ben", finished=[6])
    state = State.deal(Rules(players=2), seed=47)
    seats = [AIPlayer("Average", "Balanced", seed=k) for k in range(2)]
    while not state.over:
        state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    record = record_of(state)
    deck = Drills(home / "learners" / "ann" / DRILLS_FILE)
    for seat in (0, 1):
        hand = graded(record, seat)
        deck.keep_review(record, hand, hand_kinds(record, hand), "g1", seat + 1)
    deck.add_mistakes(record, graded(record, 0))
    dan = GameApp(home)
    assert dan.table.receive({"type": "ready", "learner": "dan"})
    dan.deal(seed=9)
    return dan


def test_the_teacher_sees_the_class() -> None:
    from playwright.sync_api import expect, sync_playwright

    from cut_tutor.classroom import class_view, table_csv

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    home = Path(tempfile.mkdtemp(prefix="cut-class-"))
    dan = make_class(home)
    passwords = [roster.add(home, name) for name in ("ann", "ben", "dan")]  # a class whose learners sign in
    claim = next((home / "learners" / "dan").glob("save-*.claim")).read_text()
    port = free_port()
    command, env, token = class_server(home, port)
    with served(home, command, port, env) as url, sync_playwright() as p:
        expect.set_options(timeout=60_000)
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        stranger = browser.new_page()
        stranger.goto(url)  # without the teacher's token: Voilà's sign-in asks for it, and shows no class
        expect(stranger.locator("input[type=password]").first).to_be_visible()
        assert not any(name in stranger.content() for name in ("ann", "ben", "dan"))
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}?token={token}")
        expect(page.get_by_text("Playing now: dan.")).to_be_visible()
        table = page.get_by_role("table")
        for name in ("ann", "ben", "dan"):
            expect(table.get_by_role("rowheader", name=name)).to_be_visible()
        expect(
            page.get_by_role("img", name="Accuracy and points lost over 2 reviewed hands", exact=False)
        ).to_have_count(1)
        expect(page.get_by_role("heading", name="Most frequent mistakes")).to_be_visible()
        content = page.content()
        held = json.loads(claim)
        assert held["holder"] not in content and held["kernel"] not in content and str(home) not in content
        kept = json.loads((home / roster.ROSTER_FILE).read_text())["learners"].values()
        assert not any(secret in content for secret in [*passwords, token, *(e["hash"] for e in kept)])
        with page.expect_download() as info:
            page.get_by_role("link", name="Download the table (CSV)").click()
        assert Path(info.value.path()).read_text() == table_csv(class_view(home).table)
        SHOTS.mkdir(parents=True, exist_ok=True)
        for theme in ("light", "dark"):
            if not page.locator(f".cut-class.cut-app-{theme}").count():
                page.locator("button.cut-theme").click()
                expect(page.locator(f".cut-class.cut-app-{theme}")).to_be_visible()
            assert axe_problems(page) == [], theme
            for size, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                for part, target in (("", "h1"), ("-plots", "svg[role=img]")):
                    page.locator(target).first.evaluate("e => e.scrollIntoView({block: 'start'})")
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(SHOTS / f"class{part}-{theme}-{size}.png"))
        dan.reset_play()  # dan's tab leaves the game: Refresh shows nobody playing
        page.get_by_role("button", name="Refresh").click()
        expect(page.get_by_text("Nobody is playing now.")).to_be_visible()
        browser.close()


def test_no_teacher_is_shown_no_class() -> None:
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    home = Path(tempfile.mkdtemp(prefix="cut-class-"))
    (home / "learners" / "ann").mkdir(parents=True)
    port = free_port()
    hub = {"CUT_TUTOR_HOME": str(home), "JUPYTERHUB_USER": "ann", "CUT_TUTOR_TEACHERS": "mrs_t"}
    command = voila_command(dashboard.class_notebook(), port)  # ann's own server under a hub: ann is no teacher
    with served(home, command, port, os.environ | hub) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        expect(page.get_by_role("alert")).to_contain_text("teacher only", timeout=60_000)
        expect(page.get_by_role("table")).to_have_count(0)
        assert "ann" not in page.locator(".cut-class").inner_text()
        browser.close()
