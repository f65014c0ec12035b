"""One dashboard for two learners: two browsers on one Voilà server each keep their own game."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from serving import ARGS, CHROMIUM, DEALT, free_port, voila_server

from cut_tutor import dashboard
from cut_tutor.cli import voila_command

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


def test_two_browsers_on_one_server_keep_their_games_apart() -> None:
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    port = free_port()
    with voila_server(voila_command(dashboard.notebook(), port), port) as url, sync_playwright() as p:
        expect.set_options(timeout=60_000)
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        ann, ben = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in range(2))
        ann.goto(url + "/")
        ann.get_by_role("button", name="Deal & play").click()
        expect(ann.locator(".cut-status")).to_have_text(DEALT)
        ben.goto(url + "/")  # another browser: another learner, who has no game waiting
        expect(ben.get_by_role("button", name="Deal & play")).to_be_visible()
        expect(ben.get_by_text("A saved game is waiting.")).to_be_hidden()
        ann.reload()  # the same browser comes back to its own game
        expect(ann.get_by_role("button", name="Continue — 4 players, round 1")).to_be_visible()
        browser.close()


def test_two_tabs_of_one_learner_each_keep_their_own_game() -> None:
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    port = free_port()
    with voila_server(voila_command(dashboard.notebook(), port), port) as url, sync_playwright() as p:
        expect.set_options(timeout=60_000)
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})  # one browser: one learner
        first, second = context.new_page(), context.new_page()
        first.goto(url + "/")
        first.get_by_role("button", name="Deal & play").click()
        expect(first.locator(".cut-status")).to_have_text(DEALT)
        second.goto(url + "/")  # the same learner's second tab: the game is offered, and said to be open
        expect(second.get_by_role("button", name="Continue — 4 players, round 1")).to_be_visible()
        expect(second.get_by_text("Open in another tab")).to_be_visible()
        second.get_by_role("button", name="Start new").click()
        second.get_by_role("button", name="Deal & play").click()
        expect(second.locator(".cut-status")).to_have_text(DEALT)
        first.reload()  # both games wait, each its own save
        expect(first.get_by_text("2 saved games are waiting (newest first).")).to_be_visible()
        browser.close()


def test_a_class_signs_in_and_each_learner_opens_only_their_own_games() -> None:
    """A class's dashboard: nothing before signing in; a wrong password is refused; Ann and Ben, signed in from two
    browsers, each play their own game, and a page that keeps Ben's name still opens only Ann's."""
    import tempfile
    from pathlib import Path

    from playwright.sync_api import expect, sync_playwright
    from serving import VoilaServer

    from cut_tutor import roster
    from cut_tutor.identity import LEARNER_ENV

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    home = Path(tempfile.mkdtemp(prefix="cut-class-"))
    passwords = {name: roster.add(home, name) for name in ("ann", "ben")}
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != LEARNER_ENV} | {"CUT_TUTOR_HOME": str(home)}
    server = VoilaServer("class", voila_command(dashboard.notebook(), port), port, home, env, home / "voila.log")
    try:
        server.start()
        server.wait_http()
        with sync_playwright() as p:
            expect.set_options(timeout=60_000)
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            ann, ben = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in range(2))

            def sign_in(page: object, name: str, password: str) -> None:
                page.goto(server.url)  # type: ignore[attr-defined]
                page.get_by_label("Name").fill(name)  # type: ignore[attr-defined]
                page.get_by_label("Password").fill(password)  # type: ignore[attr-defined]
                page.get_by_role("button", name="Sign in").click()  # type: ignore[attr-defined]

            sign_in(ann, "ann", passwords["ben"])
            expect(ann.get_by_role("alert")).to_have_text(re.compile("do not match"))
            assert not (home / "learners").exists(), "a refused sign-in opens no one's folder"
            sign_in(ann, "ann", passwords["ann"])
            ann.get_by_role("button", name="Deal & play").click()
            expect(ann.locator(".cut-status")).to_have_text(DEALT)
            sign_in(ben, "ben", passwords["ben"])
            expect(ben.get_by_role("button", name="Deal & play")).to_be_visible()
            expect(ben.get_by_text("A saved game is waiting.")).to_be_hidden()
            ann.evaluate("localStorage.setItem('cut_tutor.learner', 'ben')")  # the page keeps another's name
            ann.reload()
            expect(ann.get_by_role("button", name="Continue — 4 players, round 1")).to_be_visible()
            browser.close()
        assert sorted(p.name for p in (home / "learners").iterdir()) == ["ann", "ben"]
        assert len(list((home / "learners" / "ann").glob("save-*.json"))) == 1
        assert not list((home / "learners" / "ben").glob("save-*.json"))
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)
