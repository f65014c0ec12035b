"""The study screen in a real browser: axe-core finds nothing critical or serious, focus survives redraws, the theme
reaches every panel with readable contrast, and the advice is in view without scrolling.

axe-core comes with its PyPI wrapper (``axe-playwright-python`` ships ``axe.min.js``), so nothing is fetched at
test time.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from serving import ROOT, axe_problems, contrast, deal, open_page, open_setup

from cut_tutor.widgets.table import COLOURS

ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"study-{name}.png"))


def test_axe_finds_nothing_serious(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 800})
        open_setup(page, server)
        expect(page.get_by_role("button", name="Deal & play")).to_be_visible()
        assert axe_problems(page) == [], "setup"
        shot(page, "setup-light")
        deal(page, server)
        assert axe_problems(page) == [], "play, light"
        shot(page, "play-light")
        page.locator("button.cut-theme").click()
        expect(page.locator(".cut-app.cut-app-dark")).to_be_visible()
        assert axe_problems(page) == [], "play, dark"
        shot(page, "play-dark")
        page.get_by_role("button", name="Open the analysis").click()
        page.get_by_role("button", name="Compare all three").click()
        expect(page.locator(".cut-movetable")).to_contain_text("All three coaches")
        assert axe_problems(page) == [], "coach panel with the analysis open"
        shot(page, "analysis-dark")
        page.locator("button.cut-theme").first.click()
        expect(page.locator(".cut-app.cut-app-light")).to_be_visible()
        shot(page, "analysis-light")
        page.locator("button.cut-automate").click()
        expect(page.locator(".cut-status").first).to_contain_text("hand 1 over")
        page.get_by_role("button", name="Scores", exact=True).click()
        page.get_by_role("button", name="Replay hand").click()
        expect(page.locator(".cut-status", has_text="Move ")).to_have_text(re.compile(r"^Move 0 of \d+"))
        assert axe_problems(page) == [], "scores and the replayer"
        page.locator(".cut-status", has_text="Move ").scroll_into_view_if_needed()
        shot(page, "replayer-light")
        browser.close()


def test_focus_survives_redraws(server: str) -> None:
    """A card press and a play redraw the table whole; focus stays on the same control, and Esc and the
    replayer's arrow keys work wherever focus is in the app."""
    from playwright.sync_api import expect, sync_playwright

    def active(attribute: str) -> str | None:
        return page.evaluate(f"document.activeElement && document.activeElement.getAttribute('{attribute}')")

    with sync_playwright() as p:
        browser, page = open_page(p)
        deal(page, server)
        card = page.locator(".cut-hand .cut-card[role=button]").nth(2)
        card.focus()
        page.keyboard.press("Enter")
        expect(page.locator(".cut-hand .cut-card[aria-pressed=true]")).to_have_count(1)
        assert active("data-key") == "card:h2" and active("aria-pressed") == "true"
        play = page.locator("button.cut-play")
        play.focus()
        page.keyboard.press("Enter")
        expect(page.locator(".cut-last")).to_contain_text("Ann:")
        expect(page.locator(".cut-status")).to_have_text("Your turn")
        assert page.evaluate("document.querySelector('.cut-table').contains(document.activeElement)")
        assert page.evaluate("document.activeElement !== document.querySelector('.cut-table')")

        # Esc hands back Automate right after pressing it (focus is on the redrawn button)
        page.get_by_role("button", name="Automate Player", exact=False).filter(visible=True).first.click()
        page.keyboard.press("Escape")
        expect(page.locator("button.cut-automate")).to_have_attribute("aria-pressed", "false")
        browser.close()


PROBE = """colours => {
  const table = document.querySelector('.cut-table');
  const out = [];
  for (const colour of colours) {
    const seat = document.createElement('div'); seat.className = 'cut-seat'; seat.style.setProperty('--seat', colour);
    const plate = document.createElement('div'); plate.className = 'cut-plate'; plate.textContent = 'Name';
    seat.appendChild(plate); table.appendChild(seat);
    const pile = document.createElement('div'); pile.className = 'cut-pile';
    const card = document.createElement('span'); card.className = 'cut-card cut-pilecard';
    card.style.setProperty('--by', colour); pile.appendChild(card); table.appendChild(pile);
    out.push([getComputedStyle(plate).color, getComputedStyle(card).borderTopColor,
              getComputedStyle(pile).backgroundColor]);
    seat.remove(); pile.remove();
  }
  return [getComputedStyle(table).backgroundColor, out];
}"""


def test_theme_reaches_every_panel_with_contrast(server: str) -> None:
    """Voilà's ``?theme=dark`` darkens the app; in both themes every seat colour reads as a name (4.5:1) and
    stands out on the felt (3:1), and the coach panel's text reads on its own background."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        deal(page, server, "?theme=dark")
        expect(page.locator(".cut-table.cut-dark")).to_be_visible()
        expect(page.locator(".cut-app.cut-app-dark")).to_be_visible()
        shot(page, "voila-dark")
        for theme in ("dark", "light"):
            background, seats = page.evaluate(PROBE, list(COLOURS.values()))
            for name, (plate, border, felt) in zip(COLOURS, seats, strict=True):
                assert contrast(plate, background) >= 4.5, (theme, name, plate, background)
                assert contrast(border, felt) >= 3, (theme, name, border, felt)
            label = page.locator(".cut-side .widget-html-content", has_text="recommends:")
            colours = label.evaluate(
                "e => { let b = e; while (b && ['rgba(0, 0, 0, 0)', 'transparent']"
                ".includes(getComputedStyle(b).backgroundColor)) b = b.parentElement;"
                " return [getComputedStyle(e).color, getComputedStyle(b || document.body).backgroundColor]; }"
            )
            assert contrast(*colours) >= 4.5, (theme, colours)
            page.locator("button.cut-theme").click()
        browser.close()


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768)])
def test_advice_in_view_without_scrolling(server: str, size: tuple[int, int]) -> None:
    from playwright.sync_api import expect, sync_playwright

    width, height = size
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": width, "height": height})
        deal(page, server)
        advice = page.locator(".cut-side .widget-html-content", has_text="recommends:")
        expect(advice.locator("p").first).to_be_visible()  # the reason under the recommendation
        shot(page, f"desktop-{width}x{height}")
        for what, box in (
            ("table", page.locator(".cut-table").bounding_box()),
            ("advice", advice.bounding_box()),
            ("Coach: Play", page.locator(".cut-coach-play").bounding_box()),
        ):
            assert box is not None, what
            assert box["x"] >= 0 and box["y"] >= 0, (what, box)
            assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, (what, box)
        browser.close()


def test_phone_buttons_whole_and_rows_wrap(server: str) -> None:
    from playwright.sync_api import sync_playwright

    truncated = """() => [...document.querySelectorAll('.cut-app button')]
      .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)"""
    outside = """() => [...document.querySelectorAll('.cut-app .widget-inline-hbox, .cut-app button')]
      .filter(e => e.offsetParent !== null && e.getBoundingClientRect().right > innerWidth + 1)
      .map(e => e.textContent.slice(0, 40))"""
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 390, "height": 844})
        open_setup(page, server)
        page.get_by_role("button", name="Deal & play").wait_for()
        assert page.evaluate(truncated) == [], "setup"
        assert page.evaluate(outside) == [], "setup"
        shot(page, "phone-setup")
        deal(page, server)
        assert page.evaluate(truncated) == [], "play"
        assert page.evaluate(outside) == [], "play"
        shot(page, "phone-play")
        page.locator("button.cut-theme").click()
        shot(page, "phone-play-dark")
        browser.close()


SCREENS = ARTIFACTS / "screenshots"


def screen(page: Any, name: str) -> None:
    """A screenshot of a main screen, kept for a person to look at."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"))


def inside(page: Any, selector: str, width: int, height: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (selector, box)


def play_until(page: Any, selector: str, limit: int = 80) -> None:
    """Step through the hand (Next, Continue, or the coach's play on your turn) until ``selector`` shows."""
    for _ in range(limit):
        page.wait_for_timeout(150)
        if page.locator(selector).count():
            return
        step = page.locator("button.cut-next")
        if step.count():
            step.click()
        else:
            page.locator(".cut-coach-play").filter(visible=True).first.click()
    raise AssertionError(f"{selector} never showed")


@pytest.mark.parametrize(("size", "theme"), [((1280, 800), "light"), ((390, 844), "dark")])
def test_step_pauses_and_the_hand_over(server: str, size: tuple[int, int], theme: str) -> None:
    """Step is the default: an AI seat's clear pauses with the S badge and the swept cards, a bust with Continue;
    the hand over shows every seat's cards, Risk cards face up, points with the bust add-on, totals and Next hand.
    The Title Bar has each control once and the Play Bar keeps its height."""
    from playwright.sync_api import expect, sync_playwright

    width, height = size
    where = "desktop" if width > 640 else "phone"
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": width, "height": height})
        open_setup(page, server, "?theme=dark" if theme == "dark" else "")
        step = page.locator(".widget-toggle-buttons", has_text="AI pacing").get_by_role("button", name="Step")
        expect(step).to_have_class(re.compile("mod-active"))  # Step is the default
        expect(page.get_by_role("checkbox", name="Pile Counts")).not_to_be_checked()
        screen(page, f"setup-{where}-{theme}")
        deal(page, server, "?theme=dark" if theme == "dark" else "", pacing="Step")
        for name in ("New game", "View settings", "Scores"):
            expect(page.get_by_role("button", name=name, exact=True).filter(visible=True)).to_have_count(1)
        expect(page.get_by_role("link", name="Guide", exact=True).filter(visible=True)).to_have_count(1)
        expect(page.get_by_role("button", name=re.compile("Automate Player")).filter(visible=True)).to_have_count(1)
        expect(page.locator(".cut-history summary")).to_have_text("History")
        page.locator(".cut-history summary").click()
        expect(page.locator(".cut-history-list li").first).to_contain_text("Cut for dealer:")
        page.locator(".cut-history summary").click()
        bar = page.locator(".cut-playbar").bounding_box()
        inside(page, ".cut-title", width, height)
        screen(page, f"play-{where}-{theme}")

        play_until(page, ".cut-pause-clear")
        expect(page.locator(".cut-clearmark")).to_have_text("S")
        assert page.locator(".cut-paused .cut-pilecard").count() >= 1  # the swept cards, before the pile clears
        expect(page.locator(".cut-pause-text")).to_contain_text("cleared the pile:")
        expect(page.locator("button.cut-next")).to_have_text("Continue")
        inside(page, ".cut-paused", width, height)
        screen(page, f"clear-pause-{where}-{theme}")
        assert axe_problems(page) == [], "a clear pause"
        page.locator("button.cut-next").focus()
        page.keyboard.press("Enter")
        expect(page.locator(".cut-paused")).to_have_count(0)
        assert page.evaluate("document.querySelector('.cut-table').contains(document.activeElement)")
        after = page.locator(".cut-playbar").bounding_box()
        assert bar is not None and after is not None and abs(after["height"] - bar["height"]) < 1

        play_until(page, ".cut-pause-bust")
        expect(page.locator(".cut-pause-text")).to_contain_text("💥")
        expect(page.locator("button.cut-next")).to_have_text("Continue")
        page.locator("button.cut-next").click()

        page.locator(".widget-toggle-buttons", has_text="Pacing").filter(visible=True).get_by_role(
            "button", name="Auto"
        ).click()
        page.locator("button.cut-automate").click()
        over = page.locator(".cut-handover")
        expect(over).to_be_visible()
        expect(over.locator(".cut-handover-title")).to_contain_text("hand over")
        expect(over.locator("tr")).to_have_count(5)  # a heading and four seats
        expect(over.locator("button.cut-next")).to_have_text("Next hand")
        expect(over.locator(".cut-card").first).to_be_visible()  # the cards left, Risk cards face up
        over.scroll_into_view_if_needed()
        box = over.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
        screen(page, f"hand-over-{where}-{theme}")
        assert axe_problems(page) == [], "the hand over"
        expect(page.locator(".cut-status")).to_contain_text("hand 1 over")
        over.locator("button.cut-next").click()
        expect(page.locator(".cut-status")).not_to_contain_text("hand 1 over")  # hand 2 (still automated)
        browser.close()


def to_the_ai_seats(page: Any) -> None:
    """Play the coach's move until it hands the turn on (a clear plays again)."""
    from playwright.sync_api import expect

    for _ in range(6):
        before = page.locator(".cut-last").inner_text()
        page.locator(".cut-coach-play").filter(visible=True).first.click()
        expect(page.locator(".cut-last")).not_to_have_text(before)
        if page.locator(".cut-status").inner_text().endswith("to play"):
            return
    raise AssertionError("the turn never passed to an AI seat")


def test_auto_replies_land_one_at_a_time_and_step_still_pauses(server: str) -> None:
    """The dashboard's Auto pacing plays each AI reply after a short delay, one after another (the Play Bar and
    whose turn it is change in steps over a second or two); Step chosen between two replies waits for Next."""
    from playwright.sync_api import expect, sync_playwright

    sample = (
        "() => [document.querySelector('.cut-status').textContent, document.querySelector('.cut-last').textContent]"
    )
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 800})
        deal(page, server)
        to_the_ai_seats(page)
        seen: list[tuple[float, str, str]] = []
        start = page.evaluate("performance.now()")
        for _ in range(60):
            status, last = page.evaluate(sample)
            if not seen or (status, last) != seen[-1][1:]:
                seen.append((page.evaluate("performance.now()") - start, status, last))
            if status == "Your turn":
                break
            page.wait_for_timeout(100)
        screen(page, "auto-replied-desktop-light")
        assert seen[0][1].endswith("to play") and seen[-1][1] == "Your turn", seen
        assert len(seen) >= 3 and seen[-1][0] >= 800, seen  # the replies landed one by one, each after its delay
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(seen)]
        assert all(gap >= 300 for gap in gaps), seen  # each reply apart from the one before

        # Step between two replies: the next AI seat waits for Next, however long
        to_the_ai_seats(page)
        page.locator(".widget-toggle-buttons", has_text="Pacing").filter(visible=True).get_by_role(
            "button", name="Step"
        ).click()
        expect(page.locator("button.cut-next")).to_be_visible()
        paused = page.evaluate(sample)
        page.wait_for_timeout(1500)
        assert page.evaluate(sample) == paused
        screen(page, "step-after-auto-desktop-light")
        page.locator("button.cut-next").click()
        expect(page.locator(".cut-last")).not_to_have_text(paused[1])
        browser.close()
