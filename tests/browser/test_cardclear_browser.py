"""Card Clear in a real browser: the dashboard's picker shows the board, a level is played to its result card by
clicking the Hint's best swap each turn (one by keyboard), a bounce says why, axe-core finds nothing critical or
serious in either theme, and screenshots are kept for desktop and phone, light and dark.

This proves the wiring only: the board's logic is tested through its Python twins (tests/test_cardclear_widget.py).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from serving import ROOT, axe_problems, open_page

SHOTS = ROOT / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"cardclear-{name}.png"), full_page=True)


def open_board(page: Any, url: str) -> Any:
    """Open the dashboard, pick Card Clear, and open the Hint table; the board's root."""
    from playwright.sync_api import expect

    page.goto(url)
    page.get_by_role("button", name="Card Clear", exact=True).click()
    board = page.locator(".cc-board")
    expect(board.locator(".cc-grid")).to_be_visible()
    settle(board)
    page.get_by_role("button", name="Show the Hint: the value of every swap").click()
    expect(board.locator("tr.cc-best")).to_have_count(1)
    return board


def settle(board: Any) -> None:
    """Wait for a new deal's opening to end: the fall (a tap in it skips it rather than picking) and the banner."""
    from playwright.sync_api import expect

    expect(board).not_to_have_class(re.compile("cc-falling"))
    expect(board.locator(".cc-banner")).to_have_count(0)


def best_swap(board: Any) -> tuple[str, str]:
    swap = board.locator("tr.cc-best").get_attribute("data-swap")
    first, second = swap.split("-")
    return first, second


def play_best(page: Any, board: Any, keyboard: bool = False) -> None:
    """Swap the Hint's best pair by clicking (or with the arrow keys and Enter) and wait for the score to move."""
    from playwright.sync_api import expect

    score = board.locator(".cc-score")
    before = score.inner_text()
    first, second = best_swap(board)
    if keyboard:
        board.locator(".cc-cell[tabindex='0']").focus()
        walk(page, board, first)
        page.keyboard.press("Enter")
        expect(board.locator(f"[data-cell='{first}']")).to_have_class(re.compile(r"\bcc-picked\b"))
        expect(board.locator(".cc-tag").first).to_be_visible()
        walk(page, board, second)
        page.keyboard.press(" ")
    else:
        board.locator(f"[data-cell='{first}']").click()
        expect(board.locator(f"[data-cell='{second}'] .cc-tag")).to_be_visible()  # "Trips 30" on the neighbour
        board.locator(f"[data-cell='{second}']").click()
    expect(score).not_to_have_text(before)


def walk(page: Any, board: Any, cell: str) -> None:
    """Move the focus cursor to a cell with the arrow keys; focus must survive every redraw."""
    row, col = int(cell[1]), int(cell[3])
    for _ in range(12):
        at = page.evaluate("document.activeElement.dataset.cell || ''")
        assert at, "the focus cursor is on a card"
        r, c = int(at[1]), int(at[3])
        if (r, c) == (row, col):
            return
        page.keyboard.press(
            "ArrowDown" if r < row else "ArrowUp" if r > row else "ArrowRight" if c < col else "ArrowLeft"
        )
    raise AssertionError(f"the cursor did not reach {cell}")


def test_play_a_level_to_its_result_card(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size(DESKTOP)
        board = open_board(page, server)
        expect(board).to_have_class("cc-board cc-light")
        expect(board.locator(".cc-next .cc-mini")).to_have_count(3)
        # the Hands strip says what scores at level 1; opened, it shows an example, and stays open as play goes on
        hands = board.locator(".cc-hands summary")
        expect(hands).to_have_text("Hands: Trips 30")
        hands.click()
        expect(board.locator(".cc-hand-chart tr")).to_have_count(1)
        spoken = "5 of spades, 5 of hearts, 5 of diamonds"
        expect(board.locator(".cc-hand-example")).to_have_attribute("aria-label", spoken)

        # a swap that makes no hand bounces back with the reason
        legal = set(board.locator("tr[data-swap]").evaluate_all("rows => rows.map(r => r.dataset.swap)"))
        bad = next(
            f"r{r}c{c}-r{r}c{c + 1}" for r in range(1, 7) for c in range(1, 6) if f"r{r}c{c}-r{r}c{c + 1}" not in legal
        )
        moves = board.locator(".cc-moves").inner_text()
        board.locator(f"[data-cell='{bad[:4]}']").click()
        board.locator(f"[data-cell='{bad[5:]}']").click()
        expect(board.locator(".cc-bounce")).to_contain_text(re.compile("makes no hand|not unlocked until"))
        expect(board.locator(".cc-moves")).to_have_text(moves)

        play_best(page, board, keyboard=True)
        expect(board.locator(".cc-hand-chart")).to_be_visible()
        assert axe_problems(page) == [], "board with the Hint open, light"
        shot(page, "desktop-light")

        for _ in range(40):
            if board.locator(".cc-result").count():
                break
            play_best(page, board)
        result = board.locator(".cc-result")
        expect(result).to_be_visible()
        expect(result).to_contain_text("Score")
        # at the end the lines lit are the stars won beyond the first (which lines light is tested in Python)
        expect(board.locator(".cc-star-line")).to_have_count(2)
        won = result.locator(".cc-result-title").inner_text().count("★")
        expect(board.locator(".cc-star-line.cc-lit")).to_have_count(won - 1)
        # the Hint clears 1-0: level 2 opens, and the picker shows the stars won on level 1 (K17)
        options = board.get_by_label("Level").locator("option")
        expect(options).to_have_count(2)
        expect(options.nth(0)).to_have_text(re.compile(r"^Level 1 ★{1,3}$"))
        expect(options.nth(1)).to_have_text("Level 2")
        assert axe_problems(page) == [], "result card"
        result.scroll_into_view_if_needed()
        shot(page, "result-light")
        # the board link opens this deal for a friend: here, level 1 again although the board now opens at 2 (K16)
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.get_by_role("button", name="Copy the board link of deal 1-0").click()
        expect(result.locator(".cc-copy")).to_have_text("Copied the board link")
        link = page.evaluate("navigator.clipboard.readText()")
        assert urlsplit(link).query == "board=1-0", f"the link carries the code and nothing else: {link}"

        page.get_by_role("button", name="Try again: the same deal").click()
        expect(result).to_have_count(0)
        settle(board)
        page.set_viewport_size(PHONE)
        board.locator(".cc-cell").first.click()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the board fits a phone ({width} px)"
        shot(page, "phone-light")

        page.goto(link)  # the link opens Card Clear at its deal, not at the learner's own level 2
        expect(page.locator(".cc-code")).to_have_text(re.compile(r"^1-0 · "))
        expect(page.get_by_role("button", name="Card Clear", exact=True)).to_have_class(re.compile("mod-active"))
        page.goto(link.replace("1-0", "1-" + "0" * 70))  # a code too long for any deal: Card Clear's board says so
        expect(page.locator(".cc-error")).to_contain_text("The board link does not open a deal: bad board code")
        assert axe_problems(page) == [], "a board link that opens no deal"
        wraps = page.locator(".cc-error").evaluate("e => e.scrollWidth <= e.clientWidth")
        assert wraps, "the error about a long code wraps within the board on a phone"
        shot(page, "bad-link-phone-light")
        page.set_viewport_size(DESKTOP)
        page.get_by_role("button", name="Dark theme").click()
        expect(page.get_by_role("button", name="Light theme")).to_be_visible()
        assert axe_problems(page) == [], "a board link that opens no deal, dark"
        shot(page, "bad-link-desktop-dark")
        browser.close()


# Records, from the page itself, whether a deal fell in and whether a tap in the fall skipped it: the first time
# the board is drawn falling, a card is tapped at once (a fall lasts under a second, too short to catch from here).
WATCH_THE_FALL = """
new MutationObserver((_, watcher) => {
  const board = document.querySelector(".cc-board.cc-falling");
  if (!board) return;
  watcher.disconnect();
  window.__fell = true;
  board.querySelector(".cc-cell").click();
  const after = document.querySelector(".cc-board");
  window.__skipped = !after.classList.contains("cc-falling") && !!after.querySelector(".cc-banner-fold");
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["class"]});
"""


def test_a_deal_falls_in_under_its_banner(server: str) -> None:
    """K18: the board falls in row by row (a tap skips it) under a banner with the goals and the move limit, which
    folds away; a first game's finger points at the Hint's best swap until a swap is made."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size(DESKTOP)
        page.add_init_script(WATCH_THE_FALL)
        page.goto(server)
        page.get_by_role("button", name="Card Clear", exact=True).click()
        board = page.locator(".cc-board")
        expect(board.locator(".cc-grid")).to_be_visible()
        page.wait_for_function("window.__fell === true")
        assert page.evaluate("window.__skipped") is True, "a tap in the fall skips it and folds the banner"
        settle(board)
        expect(board.locator(".cc-picked")).to_have_count(0)  # the tapped card was not picked up
        # back from CUT, the same deal is not dealt again
        page.get_by_role("button", name="CUT", exact=True).click()
        expect(page.locator(".cut-table")).to_be_visible()
        page.get_by_role("button", name="Card Clear", exact=True).click()
        expect(board.locator(".cc-grid")).to_be_visible()
        assert board.locator(".cc-banner").count() == 0 and "cc-falling" not in (board.get_attribute("class") or "")

        # a new deal of the level: its banner names the level, the goals and the moves, then folds by itself
        board.get_by_label("Level").select_option("1")  # the same level again: deal 0 anew
        banner = board.locator(".cc-banner")
        expect(banner).to_be_visible()
        expect(banner.locator(".cc-banner-level")).to_have_text("Level 1")
        goals = board.locator(".cc-goal > span:first-child").all_inner_texts()
        expect(banner.locator("li")).to_have_text(goals)
        expect(banner.locator(".cc-banner-moves")).to_have_text(re.compile(r"^\d+ moves$"))
        assert axe_problems(page) == [], "the banner, light"
        shot(page, "opening-desktop-light")
        expect(banner).to_have_count(0, timeout=5_000)

        # the first game: the finger marks the Hint's best swap, and the line under the board says what to do
        finger = board.locator(".cc-pointed .cc-finger")
        expect(finger).to_have_count(1)
        page.get_by_role("button", name="Show the Hint: the value of every swap").click()
        first, second = best_swap(board)
        expect(board.locator(".cc-pointed")).to_have_attribute("data-cell", first)
        expect(board.locator(".cc-pointed-to")).to_have_attribute("data-cell", second)
        expect(board.locator(".cc-pointer-text")).to_have_text(re.compile(f"Tap {first}, then {second}\\.$"))
        page.set_viewport_size(PHONE)
        shot(page, "pointer-phone-light")
        page.set_viewport_size(DESKTOP)
        play_best(page, board)
        expect(finger).to_have_count(0)

        # less motion asked for: nothing falls, and the banner still says the goals
        page.emulate_media(reduced_motion="reduce")
        board.get_by_role("button", name="Dark theme").click()
        board.get_by_label("Level").select_option("1")
        expect(banner).to_be_visible()
        expect(board).not_to_have_class(re.compile("cc-falling"))
        assert axe_problems(page) == [], "the banner, dark"
        shot(page, "opening-desktop-dark")
        page.set_viewport_size(PHONE)
        shot(page, "opening-phone-dark")
        browser.close()


def test_dark_theme_follows_the_page(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size(DESKTOP)
        board = open_board(page, server + "?theme=dark")
        expect(board).to_have_class("cc-board cc-dark")
        board.locator(".cc-hands summary").click()
        play_best(page, board)
        assert axe_problems(page) == [], "board with the Hint open, dark"
        shot(page, "desktop-dark")
        page.set_viewport_size(PHONE)
        first, _ = best_swap(board)
        board.locator(f"[data-cell='{first}']").click()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, "phone-dark")
        page.get_by_role("button", name="Light theme").click()
        expect(board).to_have_class("cc-board cc-light")
        browser.close()


def test_the_hint_marks_its_swap_and_the_highest_scoring_one_on_the_board(server: str) -> None:
    """H7 on the board: with the Hint open, both cards of its swap wear ★ and say so to a screen reader; on 4-0,
    where a goal makes it prefer r5c1-r5c2 to r3c3-r3c4 (the most points now), that swap wears ▲ and the Hint says
    why it prefers its own."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size(DESKTOP)
        page.goto(server + "?board=4-0")
        board = page.locator(".cc-board")
        expect(page.locator(".cc-code")).to_have_text(re.compile(r"^4-0 · "))
        settle(board)
        expect(board.locator(".cc-hinted")).to_have_count(0)  # the Hint closed: nothing marked
        page.get_by_role("button", name="Show the Hint: the value of every swap").click()
        expect(board.locator(".cc-cell.cc-hinted")).to_have_count(2)
        for cell, other in (("r5c1", "r5c2"), ("r5c2", "r5c1")):
            node = board.locator(f"[data-cell='{cell}']")
            expect(node).to_have_class(re.compile(r"\bcc-hinted\b"))
            expect(node).to_have_attribute("aria-label", re.compile(f", the Hint's swap: with {other}$"))
            expect(node.locator(".cc-mark")).to_have_text("★")
        for cell, other in (("r3c3", "r3c4"), ("r3c4", "r3c3")):
            node = board.locator(f"[data-cell='{cell}']")
            expect(node).to_have_attribute("aria-label", re.compile(f", the most points now: with {other}$"))
            expect(node.locator(".cc-mark")).to_have_text("▲")
        expect(board.locator(".cc-hint-preference")).to_contain_text("The Hint prefers r5c1-r5c2")
        expect(board.locator("tr.cc-top")).to_have_attribute("data-swap", "r3c3-r3c4")
        for theme in ("light", "dark"):
            if theme == "dark":
                board.get_by_role("button", name="Dark theme").click()
                expect(board).to_have_class("cc-board cc-dark")
            assert axe_problems(page) == [], f"the Hint's marks, {theme}"
            for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                page.set_viewport_size(viewport)
                board.locator(".cc-grid").evaluate("e => e.scrollIntoView({block: 'start'})")
                page.wait_for_timeout(200)
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"cardclear-hint-marks-{theme}-{size}.png"))
            page.set_viewport_size(DESKTOP)
        # the swap made, the marks move to the next Hint's swap
        board.locator("[data-cell='r5c1']").click()
        board.locator("[data-cell='r5c2']").click()
        expect(board.locator(".cc-score")).not_to_have_text(re.compile(r"^Score 0\b"))
        expect(board.locator(".cc-cell.cc-hinted")).to_have_count(2)
        first, second = best_swap(board)
        expect(board.locator(f"[data-cell='{first}']")).to_have_class(re.compile(r"\bcc-hinted\b"))
        expect(board.locator(f"[data-cell='{second}']")).to_have_class(re.compile(r"\bcc-hinted\b"))
        browser.close()
