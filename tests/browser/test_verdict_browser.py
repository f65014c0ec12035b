"""The coach panel's verdict line in a real browser: the known game dealt, the recommendation shows at once and the
analysis' verdict on it follows, word for word what the same position gives in this process (its evaluation is
seeded from the position); the second button is reached by the keyboard and plays the analysis' best; axe-core finds
nothing critical or serious. Screenshots light and dark, desktop and phone."""

from __future__ import annotations

import re
import tempfile

import pytest
from serving import SEED, axe_problems, deal, open_page, shots

from cut_tutor.coach.words import PLAY_BEST
from cut_tutor.review.words import TUTOR_CHECKING

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


def expected_line() -> str:
    """The verdict line of the known game's first turn, as this process draws it (Auto pacing, as dealt below)."""
    from cut_tutor.widgets import GameApp

    app = GameApp(tempfile.mkdtemp())
    app.coach.verdicts = True
    app.set_pacing("Auto")
    app.deal(seed=int(SEED))
    app.coach.wait_verdict()
    html = app.coach.verdict_html.value.split("</p>")[0]
    return re.sub(r"<[^>]+>", "", html).replace("&#x27;", "'")


def test_the_verdict_line_follows_the_recommendation(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    said = expected_line()
    assert said.startswith("The analysis prefers Play 1× K by ")  # the known game's first turn: Madonna lays lower
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 900})
        deal(page, server)
        coach_play = page.get_by_role("button", name=re.compile("^Coach: Play ")).filter(visible=True)
        expect(coach_play).to_be_visible()
        coach_play.focus()  # the keyboard on Coach: Play while the line comes: its drawing keeps it there
        verdict = page.locator(".cut-verdict")
        expect(verdict).to_contain_text(said)
        expect(verdict).not_to_contain_text(TUTOR_CHECKING)
        expect(verdict).to_contain_text("Madonna's choice: a balanced style, not the winning one here")
        assert page.evaluate("document.activeElement.textContent").startswith("Coach: Play ")
        best = page.get_by_role("button", name=PLAY_BEST)
        expect(best).to_be_visible()
        page.keyboard.press("Tab")  # the next stop after Coach: Play
        assert page.evaluate("document.activeElement.textContent") == PLAY_BEST
        assert axe_problems(page) == [], "the verdict line"

        expect(page.locator(".cut-side")).to_be_visible()
        shots(page, "verdict-line", verdict)  # ends in the dark theme
        assert axe_problems(page) == [], "the verdict line, dark"

        # Enter on the second button plays the analysis' best, as the table's Play 1× K button would
        page.set_viewport_size({"width": 1280, "height": 900})
        best.focus()
        page.keyboard.press("Enter")
        expect(page.locator(".cut-last")).to_contain_text("You: ")
        expect(page.locator(".cut-last")).to_contain_text("K")
        browser.close()
