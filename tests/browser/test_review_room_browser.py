"""The review room in a real browser: a two-player hand played with the coach's worst move every turn (chosen in
the analysis table), reviewed in the background once it ends, its blunder graded, retried, and found in the
drills, and the Progress section shows the reviewed hand's plot and its CSV download. axe-core finds nothing
critical or serious with the review, the drills and the progress open. *What you know* says what a bare take told the
table. Tutor mode, switched on in the setup, asks
before the coach's worst move lands and puts the analysis' word in the coach's place once it has finished."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from serving import SHOTS, axe_problems, deal, open_page, open_setup, shots
from test_study_tables import MISPLACED

from cut_tutor.review.words import (
    BELIEF_TITLE,
    FIND_BETTER,
    HINT,
    NEXT_MISTAKE,
    PROGRESS_DOWNLOAD,
    PROGRESS_SECTION,
    RETHINK,
    RETRY_ASK,
    TUTOR_CHECKING,
    TUTOR_MODE,
)

#: A two-player deal on which the coach's worst move every turn is a short hand with graded blunders.
SEED = "3"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def played_as(page: Any, pick: Any) -> str:
    """The table's own button for the move of an analysis table's row (a row of takes names the card shown apart)."""
    move = pick.get_attribute("data-move")
    return str(page.locator(f'.cut-moves button.cut-move[data-move="{move}"]').first.inner_text())


def test_a_bad_hand_is_graded_retried_and_drilled(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 800})
        open_setup(page, server)
        page.locator(".widget-dropdown", has_text="Players").locator("select").select_option("2")
        page.locator(".widget-toggle-buttons", has_text="AI pacing").get_by_role("button", name="Auto").click()
        expect(page.locator(".cut-wrap", has_text="Tutor mode")).to_be_visible()  # the setup's option, off
        page.get_by_placeholder("random").fill(SEED)
        page.get_by_placeholder("random").press("Tab")
        page.get_by_role("button", name="Deal & play").click()
        expect(page.locator(".cut-status")).to_have_text("Your turn")
        page.get_by_role("button", name="Open the analysis").click()
        review = page.locator(".cut-review")
        # every turn: the analysis table's last row (the coach's worst move) selected, then played
        for _ in range(200):
            if review.get_by_text(re.compile("^(Reviewing|Hand 1 reviewed)")).count():
                break
            if page.locator(".cut-status").inner_text() != "Your turn":
                page.wait_for_timeout(300)
                continue
            pick = page.locator(".cut-mt .cut-mt-pick").last
            label = played_as(page, pick)
            pick.click()
            expect(page.locator("button.cut-play")).to_have_text(label)
            page.locator("button.cut-play").click()
            page.wait_for_timeout(400)
        expect(review.get_by_text("Hand 1 reviewed.")).to_be_visible(timeout=300_000)
        expect(review.locator("td", has_text=re.compile(r"^\?\? blunder$")).first).to_be_visible()
        expect(page.locator(".cut-belief")).to_be_visible()
        shots(page, "review-room-graded", review)
        # the blunder retried on the table as the seat saw it, its moves the table's buttons, the answer hidden
        review.get_by_role("button", name=NEXT_MISTAKE).click()
        review.get_by_role("button", name=FIND_BETTER).click()
        expect(review.get_by_text(RETRY_ASK)).to_be_visible()
        expect(review.get_by_text(re.compile("best move"))).to_have_count(0)
        position = review.locator(".cut-study .cut-table")
        expect(position.locator(".cut-study-status")).to_have_text(re.compile(r"^Turn \d+, You: "))
        expect(position.locator(".cut-hand .cut-card").first).to_be_visible()
        expect(position.locator(".cut-pile")).to_be_visible()
        expect(review.locator(".cut-mt")).to_have_count(0)
        choices = position.locator(".cut-moves button.cut-move")
        assert choices.count() >= 2
        shots(page, "review-room-retry", position)
        assert axe_problems(page) == [], "a retry, asking"
        choices.first.click()
        expect(
            review.get_by_text(re.compile(r"^(The best move\.|Within noise|Worse than the best move)"))
        ).to_be_visible(timeout=120_000)
        expect(choices).to_have_count(0)  # answered: the position stays, without its moves
        answer = review.locator(".cut-mt")
        expect(answer.locator("th", has_text="your choice")).to_have_count(1)
        for width, height in ((1280, 900), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            assert answer.evaluate(MISPLACED) == [], width
        shots(page, "review-room-retried", answer)
        # the graded mistakes are the learner's drills, on the table too, numbered as the review numbers them
        drills = page.locator(".cut-drills")
        drills.get_by_text("Drills").first.click()
        turns = [c.inner_text() for c in review.locator("tr td:first-child").all()]
        heading = drills.get_by_text(re.compile(r"^Drill 1 of \d+ — Turn \d+, You: "))
        expect(heading).to_be_visible()
        turn = re.search(r"Turn (\d+),", heading.inner_text())
        assert turn is not None and turn[1] in turns
        drill = drills.locator(".cut-study .cut-table")
        expect(drill.locator(".cut-moves button.cut-move").first).to_be_visible()
        shots(page, "review-room-drills", drill)
        drill.locator(".cut-moves button.cut-move").first.click()
        expect(
            drills.get_by_text(re.compile(r"^(The best move\.|Within noise|Worse than the best move)"))
        ).to_be_visible(timeout=120_000)
        shots(page, "review-room-drill-answered", drills.locator(".cut-mt"))
        assert axe_problems(page) == [], "a drill, answered"
        # the reviewed hand is in the learner's progress: the plot with its text alternative, the table, the CSV
        progress = page.locator(".cut-progress-section")
        progress.get_by_text(PROGRESS_SECTION).first.click()
        plot = progress.get_by_role("img", name=re.compile("^Accuracy and points lost over 1 reviewed hand"))
        expect(plot).to_be_visible()
        expect(progress.get_by_role("table")).to_be_visible()
        link = progress.get_by_role("link", name=PROGRESS_DOWNLOAD)
        expect(link).to_have_attribute("download", re.compile(r"^cut-progress-.+\.csv$"))
        with page.expect_download() as download:
            link.click()
        assert Path(download.value.path()).read_text(encoding="utf-8").startswith("game,hand,seat,points,accuracy")
        shots(page, "review-room-progress", progress)
        # the plot draws in the theme's own text colour: light on the dark theme the shots end in
        expect(page.locator(".cut-app.cut-app-dark")).to_be_visible()
        expect(plot).to_have_css("color", "rgb(232, 232, 232)")
        assert plot.locator("[style*='currentColor']").count() > 10
        assert axe_problems(page) == []
        browser.close()


def test_tutor_mode_asks_before_a_bad_play_and_checks_with_the_analysis(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 800})
        open_setup(page, server)
        page.locator(".widget-dropdown", has_text="Players").locator("select").select_option("2")
        page.locator(".widget-toggle-buttons", has_text="AI pacing").get_by_role("button", name="Step").click()
        page.locator(".cut-wrap", has_text=TUTOR_MODE).locator("input[type=checkbox]").check()
        page.get_by_placeholder("random").fill(SEED)
        page.get_by_placeholder("random").press("Tab")
        page.get_by_role("button", name="Deal & play").click()
        expect(page.locator(".cut-status")).to_have_text("Your turn")
        page.get_by_role("button", name="Open the analysis").click()
        pick = page.locator(".cut-mt .cut-mt-pick").last  # the coach's worst move: far above the threshold
        label = played_as(page, pick)
        pick.click()
        # the pick reaches the table through the kernel: until it does, Play offers the coach's own move
        expect(page.locator("button.cut-play")).to_have_text(label)
        page.locator("button.cut-play").click()
        tutor = page.locator(".cut-tutor")
        # the coach's question at once, then the analysis' word in its place (its budget is 2 s)
        expect(tutor.get_by_text(f"Tutor: {label} may cost you about", exact=False)).to_be_visible()
        expect(tutor.get_by_text(TUTOR_CHECKING)).to_be_visible()  # 2 s cannot part a dozen moves: it runs them out
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "review-room-tutor-checking-light-desktop.png"))
        expect(
            tutor.get_by_text(
                re.compile(r"^(Tutor: the analysis puts|The analysis puts|Too close to call: the analysis)")
            )
        ).to_be_visible(timeout=60_000)
        expect(tutor.get_by_text(TUTOR_CHECKING)).to_have_count(0)
        expect(page.locator(".cut-status")).to_have_text("Your turn")  # the play waits
        tutor.get_by_role("button", name=HINT).click()
        expect(tutor.get_by_text(re.compile("^The analysis prefers: "))).to_be_visible()
        shots(page, "review-room-tutor", tutor)
        assert axe_problems(page) == []
        tutor.get_by_role("button", name=RETHINK).click()
        expect(tutor).to_be_hidden()
        expect(page.locator(".cut-status")).to_have_text("Your turn")
        browser.close()


def test_what_you_know_says_what_a_bare_take_told_the_table(server: str) -> None:
    """On the known deal, Coach: Play until a seat takes the pile bare with unseen cards in hand (R11): *What you
    know* then says the rest of its hand is above that top, and its chances count only such hands."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 800})
        deal(page, server, seed="4")  # a seat takes the pile bare within the first presses of this deal
        belief = page.locator(".cut-belief")
        belief.get_by_text(BELIEF_TITLE).first.click()
        expect(belief.get_by_text(re.compile(r"Chance .+ can play on a K: "))).to_be_visible()
        said = belief.get_by_text(re.compile(r"took the pile bare on \S+: the rest are above \S+, none clears"))
        status, last = page.locator(".cut-status"), page.locator(".cut-last")
        for _ in range(30):
            if said.count() or status.inner_text() != "Your turn":
                break
            before = last.inner_text()
            page.get_by_role("button", name=re.compile("^Coach: ")).click()
            expect(last).not_to_have_text(before)
            expect(status).to_have_text(re.compile(r"^Your turn$|over"))
        expect(said).to_be_visible()
        shots(page, "what-you-know-bare-take", belief)
        assert axe_problems(page) == []
        browser.close()
