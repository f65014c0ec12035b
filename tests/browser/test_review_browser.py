"""Studying and reviewing in a real browser: a row of the analysis table selects its play on the table, the
Monte-Carlo columns join it, scores and hand records download through the browser, and the replayer's move list
and disagreement buttons step the hand. axe-core finds nothing critical or serious with the panel open."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from serving import SHOTS, axe_problems, deal, open_page, shots

from cut_tutor import dashboard

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def test_a_row_selects_its_play_and_the_rollouts_join_the_table(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 800})
        deal(page, server)
        page.get_by_role("button", name="Open the analysis").click()
        table = page.locator(".cut-mt table")
        expect(table).to_be_visible()
        rows = table.locator("tbody tr[data-move]")
        count = rows.count()
        moves = page.locator(".cut-moves button.cut-move")
        takes = moves.filter(has_text=re.compile("^Take")).count()  # takes that differ by the card shown: one row
        assert count == moves.count() - moves.filter(has_text=" + Risk pile").count() - max(0, takes - 1)
        # the words of the buttons, the recommendation marked, each part explained on hover
        labels = [b.inner_text() for b in page.locator(".cut-mt .cut-mt-pick").all()]
        assert set(labels) <= {b.inner_text() for b in moves.all()} | {"Take the pile"}
        expect(table.locator("tr.cut-mt-rec")).to_have_count(1)
        expect(table.locator("tr.cut-mt-parts li[title^='shed: ']")).to_have_count(count)
        # a click on another move's button selects it on the table; a click on a cell of a row does too
        other = rows.filter(has_not=page.locator(".cut-mt-rec")).last if count > 1 else rows.first
        label = other.locator(".cut-mt-pick").inner_text()
        other.locator(".cut-mt-pick").click()
        expect(page.locator("button.cut-play")).to_have_text(label)
        expect(table.locator("tr.cut-mt-sel")).to_have_count(1)
        expect(table.locator("tr.cut-mt-sel .cut-mt-pick")).to_have_text(label)
        first = rows.first
        first_label = first.locator(".cut-mt-pick").inner_text()
        first.locator("td").first.click()
        expect(page.locator("button.cut-play")).to_have_text(first_label)
        expect(page.locator(".cut-hand .cut-card[aria-pressed=true]").first).to_be_visible()
        # the position's evaluation, which the verdict line under the recommendation started in the background, joins
        # the same table with its columns; the analysis button then continues it
        expect(page.get_by_text("Best by the rollouts")).to_be_visible(timeout=90_000)
        longer = page.get_by_role("button", name="Analyse longer")
        longer.focus()
        expect(page.get_by_role("button", name="Monte-Carlo analysis")).to_have_count(0)
        expect(table.locator("thead abbr", has_text="expected")).to_be_visible()
        expect(table.locator("td small", has_text="± ")).to_have_count(count)
        # how much is known, and Analyse longer continues the same analysis (at ±1 once every gap is known to ±2)
        line = page.get_by_text(re.compile(r"^\d+ rollouts in [\d.]+ s"))
        expect(line).to_contain_text("known to ±2 points or too close to call")
        before = int(line.inner_text().split()[0])
        page.keyboard.press("Enter")  # by keyboard: the focus stays on the button while it runs and after
        expect(line).not_to_have_text(re.compile(rf"^{before} rollouts"), timeout=90_000)
        assert int(line.inner_text().split()[0]) > before
        expect(table.locator("td small", has_text="± ")).to_have_count(count)
        expect(longer).to_be_focused()
        assert axe_problems(page) == [], "the analysis once continued, light"
        page.get_by_role("button", name="Compare all three").click()
        expect(page.locator(".cut-mt-compare .cut-mt-coach")).to_have_count(3)
        expect(page.locator(".cut-mt-compare")).to_contain_text("(your coach)")
        assert axe_problems(page) == [], "the analysis table with the rollouts and the compare, light"
        page.locator("button.cut-theme").first.click()
        expect(page.locator(".cut-app.cut-app-dark")).to_be_visible()
        assert axe_problems(page) == [], "the analysis table with the rollouts and the compare, dark"
        shots(page, "review-analysis", page.locator(".cut-mt"))
        shots(page, "analysis-longer", page.locator(".cut-rollouts"))
        # on a phone the table fits its box: the page itself does not widen
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
        browser.close()


def test_downloads_and_the_replayer(server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 800})
        deal(page, server)
        page.locator("button.cut-automate").click()
        expect(page.locator(".cut-status").first).to_contain_text("hand 1 over")
        page.get_by_role("button", name="Scores", exact=True).click()  # the Title Bar opens the panel
        # the scores as CSV, downloaded through the browser
        page.get_by_role("button", name="Export CSV").click()
        link = page.locator("a.cut-download", has_text="cut-scores.csv")
        with page.expect_download() as done:
            link.click()
        download = done.value
        assert download.suggested_filename == "cut-scores.csv"
        assert Path(download.path()).read_text().startswith("game,finished,hand,seat,name")
        # every game played ticked at once, and printed
        page.get_by_role("button", name="Select all").click()
        page.get_by_role("button", name="Print selected").click()
        expect(page.locator("a.cut-download", has_text="Print view of")).to_be_visible()
        assert axe_problems(page) == [], "the scores panel"
        shots(page, "scores-panel", page.get_by_role("button", name="Select all"))
        # the finished hand's record, downloaded too; it replays
        page.get_by_role("button", name="Download hand record").click()
        with page.expect_download() as done:
            page.locator("a.cut-download", has_text="cut-hand-1.json").click()
        record = json.loads(Path(done.value.path()).read_text())
        assert done.value.suggested_filename == "cut-hand-1.json" and record["moves"] and record["learner"]

        page.get_by_role("button", name="Replay hand").click()
        status = page.locator(".cut-status", has_text="Move ")
        expect(status).to_have_text(re.compile(r"^Move 0 of \d+"))
        # review: every Risk card face up
        page.get_by_label("Show").select_option(label="All cards (review)")
        replay_table = page.locator(".cut-replayer .cut-table")
        expect(replay_table.locator(".cut-seat .cut-stack").first.locator(".cut-card")).to_have_count(2)
        expect(replay_table.locator(".cut-back")).to_have_count(0)
        # the move list goes to a move; next and previous disagreement jump between the coach's differences
        moves = page.get_by_label("Moves")
        moves.select_option(value=moves.locator("option").nth(4).get_attribute("value"))
        expect(status).to_have_text(re.compile(r"^Move 4 of \d+"))
        page.get_by_role("button", name="Next disagreement ▶").click()
        expect(status).not_to_have_text(re.compile(r"^Move 4 of"))
        expect(page.locator(".cut-replayer .cut-differs")).to_be_visible()
        at = int(re.findall(r"\d+", status.inner_text())[0])
        assert at > 4
        marked = [t.replace("\xa0", " ") for t in moves.locator("option", has_text="✗").all_inner_texts()]
        assert any(text.startswith(f"{at + 1}. ") for text in marked), (at, marked)  # move at+1 is made at step at
        # the next one after it, and back again to it
        page.get_by_role("button", name="Next disagreement ▶").click()
        expect(status).not_to_have_text(re.compile(rf"^Move {at} of"))
        page.get_by_role("button", name="◀ Previous disagreement").click()
        expect(status).to_have_text(re.compile(rf"^Move {at} of"))
        earliest = min(int(text.split(".")[0]) - 1 for text in marked)
        previous = expect(page.get_by_role("button", name="◀ Previous disagreement"))
        previous.to_be_disabled() if earliest == at else previous.to_be_enabled()
        assert axe_problems(page) == [], "the replayer in review"
        shots(page, "review-replayer", page.locator(".cut-replayer"))
        browser.close()


def test_the_guide_prints(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.goto(server + dashboard.GUIDE_ROUTE + "coach.html")
        button = page.get_by_role("button", name="🖨 Print / Save as PDF")
        expect(button).to_be_visible()
        page.evaluate("window.print = () => { window.printed = true; }")
        button.click()
        assert page.evaluate("window.printed === true")
        # every printed page's foot gives the guide's address, which only the page knows
        footer = page.evaluate("[...document.querySelector('.cut-print-footer').sheet.cssRules].map(r => r.cssText)")
        assert len(footer) == 1 and "bottom-left" in footer[0] and server + dashboard.GUIDE_ROUTE in footer[0]
        page.emulate_media(media="print")
        expect(button).to_be_hidden()
        SHOTS.mkdir(parents=True, exist_ok=True)
        for scheme in ("light", "dark"):
            page.emulate_media(media="screen", color_scheme=scheme)
            page.screenshot(path=str(SHOTS / f"review-guide-{scheme}.png"))
        browser.close()
