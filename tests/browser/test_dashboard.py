"""The dashboard in a real browser: Voilà serves the package's dashboard notebook and Chromium plays through it.

This proves the wiring only (the rules and the app's logic are tested without a browser): the page
draws the table, clicks reach Python, Python's answers reach the page, and a reload can continue the game.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from serving import CHROMIUM, ROOT, SIZES, axe_problems, deal, free_port, open_page, open_setup, shots, voila_server

from cut_tutor import dashboard
from cut_tutor.cli import voila_command

ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


def build_guide() -> None:
    """The dashboard's help links open the built guide, which the package serves at {base_url}cut-tutor/guide/."""
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "guide" / "mkdocs.yml")], check=True, cwd=ROOT
    )


def disagreeing_seed() -> tuple[int, str]:
    """A seed where, after you lead your lowest single card, Madonna and Marty advise different moves."""
    from cut_tutor.coach import advise
    from cut_tutor.engine import view
    from cut_tutor.engine.cards import card_name
    from cut_tutor.widgets import GameApp

    for seed in range(1, 200):
        app = GameApp(tempfile.mkdtemp())
        app.set_pacing("Auto")  # as the play-through deals it
        app.deal(seed=seed)
        assert app.state is not None
        singles = [m for m in app.state.legal_moves() if m.kind == "play" and m.n == 1 and not m.stacks]
        if not singles:
            continue
        low = min(singles, key=lambda m: m.rank)
        app.play(low)
        state = app.state
        if state.over or state.turn != 0:
            continue
        seen = view(state, 0)
        if advise(seen, "Madonna", "Experienced").move != advise(seen, "Marty", "Experienced").move:
            return seed, card_name(low.rank)
    raise AssertionError("no seed where the coaches disagree")


def open_endgame_seed() -> tuple[int, int]:
    """A seed, and how many of the coach's moves (Auto pacing) bring you to a choice where you know every other
    hand, each move changing the table's last-moves line (so the page can wait for it)."""
    from cut_tutor.analysis.seat import hands_open
    from cut_tutor.engine import view
    from cut_tutor.widgets import GameApp

    for seed in range(1, 200):
        app = GameApp(tempfile.mkdtemp())
        app.set_pacing("Auto")
        app.deal(seed=seed)
        lasts: list[str] = []
        while app.state is not None and not app.state.over and len(lasts) < 40:
            seen = view(app.state, 0)
            lasts.append(str(app.table.table["last"]))
            if hands_open(seen) and len(seen["legal"]) > 1:
                if len(set(lasts)) == len(lasts):
                    return seed, len(lasts) - 1
                break
            app.coach_play()
    raise AssertionError("no seed reaches an open endgame")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    build_guide()
    port = free_port()
    with voila_server(voila_command(dashboard.notebook(), port), port) as url:
        yield url + "/"


def open_guide(page: Any, link: Any, ending: str) -> None:
    """Click a link that opens the guide in a new tab and check it lands on its section."""
    from playwright.sync_api import expect

    with page.expect_popup() as popup:
        link.click()
    guide = popup.value
    guide.wait_for_load_state()
    assert guide.url.endswith(ending)
    expect(guide.locator("#" + ending.rpartition("#")[2])).to_be_visible()
    guide.close()


def test_play_through_the_dashboard(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    seed, low = disagreeing_seed()
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.goto(server)
        expect(page.locator(".cut-table")).to_be_visible()
        deal = page.get_by_role("button", name="Deal & play")
        expect(deal).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "01-setup.png"), full_page=True)

        # a help link opens the matching section of the guide
        open_guide(page, page.get_by_role("link", name="Risk Play", exact=True), "glossary.html#risk-play")

        # deal a known game, the AI seats playing on at once (Auto pacing)
        page.locator(".widget-toggle-buttons", has_text="AI pacing").get_by_role("button", name="Auto").click()
        page.get_by_placeholder("random").fill(str(seed))
        page.get_by_placeholder("random").press("Tab")
        deal.click()
        status = page.locator(".cut-status")
        expect(status).to_have_text("Your turn")
        page.screenshot(path=str(ARTIFACTS / "02-dealt.png"), full_page=True)

        # with nothing selected the coach's pick is the selection: Play names the move Coach: Play plays
        coach_play = page.get_by_role("button", name=re.compile("^Coach: Play ")).filter(visible=True)
        expect(coach_play).to_be_visible()
        expect(page.locator("button.cut-play")).to_have_text(coach_play.inner_text().removeprefix("Coach: "))
        # select your lowest card and play it with the Play button; the AI seats answer
        page.locator(".cut-hand .cut-card", has_text=re.compile(f"^{re.escape(low)}$")).first.click()
        play = page.locator("button.cut-play")
        expect(play).to_have_text(f"Play 1× {low}")
        play.click()
        expect(page.locator(".cut-last")).to_contain_text("Ann:")
        expect(status).to_have_text("Your turn")
        page.screenshot(path=str(ARTIFACTS / "03-ai-replied.png"), full_page=True)

        # switch coach: Madonna and Marty disagree here
        advice = page.locator(".cut-app .widget-html-content", has_text="recommends:")
        expect(advice).to_contain_text("Madonna recommends:")
        madonna = advice.inner_text()
        page.get_by_label("Coach").filter(visible=True).select_option("Marty")
        expect(advice).to_contain_text("Marty recommends:")
        marty = advice.inner_text()
        assert madonna.split("recommends:")[1].split("\n")[0] != marty.split("recommends:")[1].split("\n")[0]
        page.screenshot(path=str(ARTIFACTS / "04-coach-switched.png"), full_page=True)

        # the Coach button plays the recommendation, whatever kind of move it is
        before = page.locator(".cut-last").inner_text()
        page.get_by_role("button", name=re.compile("^Coach: ")).click()
        expect(page.locator(".cut-last")).not_to_have_text(before)

        # let Automate Player finish the hand, then replay it
        page.locator("button.cut-automate").click()
        expect(status).to_contain_text("hand 1 over")
        page.get_by_role("button", name="Scores", exact=True).click()
        page.get_by_role("button", name="Replay hand").click()
        replay_status = page.locator(".cut-status", has_text="Move ")
        expect(replay_status).to_have_text(re.compile(r"^Move 0 of \d+"))
        page.get_by_role("button", name="Forward ▶").click()
        page.get_by_role("button", name="Forward ▶").click()
        page.get_by_role("button", name="◀ Back").click()
        expect(replay_status).to_have_text(re.compile(r"^Move 1 of \d+"))
        replay_status.click()
        page.keyboard.press("ArrowRight")
        expect(replay_status).to_have_text(re.compile(r"^Move 2 of \d+"))
        page.screenshot(path=str(ARTIFACTS / "05-replayer.png"), full_page=True)

        # reload: the saved game is offered and continues
        page.reload()
        resume = page.get_by_role("button", name=re.compile(r"^Continue — 4 players, round \d+$"))
        expect(resume).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "06-continue-offered.png"), full_page=True)
        resume.click()
        expect(status).to_contain_text("hand 1 over")
        page.screenshot(path=str(ARTIFACTS / "07-continued.png"), full_page=True)
        browser.close()


def test_the_coach_names_an_open_endgame(server: str) -> None:
    """Following the coach to a turn where every other hand is known: the panel says the coach slips most there."""
    from playwright.sync_api import expect, sync_playwright

    from cut_tutor.coach.words import OPEN_ENDGAME

    seed, plays = open_endgame_seed()
    with sync_playwright() as p:
        browser, page = open_page(p)
        deal(page, server, seed=str(seed))
        last = page.locator(".cut-last")
        note = page.locator(".cut-open-endgame")
        for _ in range(plays):
            expect(page.locator(".cut-status")).to_have_text("Your turn")  # the others have played: a fresh Coach
            expect(note).to_have_count(0)
            before = last.inner_text()
            page.get_by_role("button", name=re.compile("^Coach: ")).filter(visible=True).click()
            expect(last).not_to_have_text(before)
        expect(page.locator(".cut-status")).to_have_text("Your turn")
        expect(note).to_have_text(OPEN_ENDGAME)
        assert axe_problems(page) == [], "open endgame"
        # on a phone the coach wraps straight under your cards: the pacing comes after it (the guide's first game)
        width, height = SIZES["phone"]
        page.set_viewport_size({"width": width, "height": height})
        parts = [page.locator(name).first for name in (".cut-you", ".cut-side", ".cut-play-controls")]
        for part in parts:
            expect(part).to_be_visible()  # the narrower page lays the table out again: wait for it to show
        cards, coach, pacing = [part.bounding_box() for part in parts]
        assert cards and coach and pacing and cards["y"] < coach["y"] < pacing["y"]
        shots(page, "coach-open-endgame", note)
        browser.close()


def test_clear4_table(server: str) -> None:
    """Clear 4 in the browser: the preset deals three-card stacks with the final card laid across (R22)."""
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser, page = open_page(p)
        open_setup(page, server)

        # the two window widths: auto takes the whole width; a Setup window sizes the setup screen only
        def app_width() -> float:
            return float(page.locator(".cut-app").first.evaluate("e => e.getBoundingClientRect().width"))

        assert app_width() > 1100
        page.get_by_role("button", name="View settings").click()
        page.get_by_label("Setup window").fill("700")
        page.get_by_label("Setup window").press("Tab")
        page.wait_for_function("document.querySelector('.cut-app').getBoundingClientRect().width <= 700")
        page.get_by_role("button", name="View settings").click()
        page.get_by_label("Preset").filter(visible=True).select_option("Clear 4")
        page.locator(".widget-toggle-buttons", has_text="AI pacing").get_by_role("button", name="Auto").click()
        page.get_by_placeholder("random").fill("5")
        page.get_by_placeholder("random").press("Tab")
        page.get_by_role("button", name="Deal & play").click()
        expect(page.locator(".cut-you .cut-final")).to_have_count(4)
        expect(page.locator(".cut-you .cut-middle")).to_have_count(4)
        expect(page.locator(".cut-moves button").first).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "08-clear4.png"), full_page=True)
        # the play window is its own width, auto: on a wide screen the table fills its column, uncapped
        page.set_viewport_size({"width": 2400, "height": 1600})
        page.wait_for_function("document.querySelector('.cut-table').getBoundingClientRect().width > 1500")
        page.set_viewport_size({"width": 1200, "height": 1600})
        # the Play Bar names the layout Auto picked
        expect(page.locator(".cut-layout-name")).to_have_text("Auto · Table")

        # View settings: one control moves one thing, and the choice is kept in this browser
        def size(selector: str) -> str:
            return str(page.locator(selector).first.evaluate("e => getComputedStyle(e).fontSize"))

        before = size(".cut-seat .cut-card")
        page.get_by_role("button", name="View settings").click()
        page.locator("input[name=yours]").fill("24")
        page.locator("input[name=yours]").press("Tab")
        expect(page.locator(".cut-hand .cut-card:not(.cut-special)").first).to_have_css("font-size", "24px")
        assert size(".cut-seat .cut-card") == before
        page.reload()
        page.get_by_role("button", name=re.compile(r"^Continue — ")).click()
        expect(page.locator(".cut-hand .cut-card:not(.cut-special)").first).to_have_css("font-size", "24px")
        # the View is a View setting too: chosen there, it is the setup's View, and this browser keeps it
        page.get_by_role("button", name="View settings").click()
        views = page.get_by_role("group", name="View")
        views.get_by_role("button", name="Stacked").click()
        expect(page.locator(".cut-table[data-layout=stacked]")).to_have_count(1)
        expect(views.get_by_role("button", name="Stacked")).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".cut-layout-name")).to_have_text("Stacked")
        page.get_by_label("Play window").fill("900")
        page.get_by_label("Play window").press("Tab")
        page.wait_for_function("document.querySelector('.cut-app').getBoundingClientRect().width <= 900")
        assert axe_problems(page) == [], "View settings"
        shots(page, "view-settings", views)
        page.reload()
        page.get_by_role("button", name=re.compile(r"^Continue — ")).click()
        expect(page.locator(".cut-table[data-layout=stacked]")).to_have_count(1)
        page.get_by_role("button", name="View settings").click()
        page.get_by_role("button", name="Back to defaults").click()
        expect(page.locator(".cut-hand .cut-card:not(.cut-special)").first).to_have_css("font-size", "14px")
        expect(page.get_by_role("group", name="View").get_by_role("button", name="Auto")).to_have_attribute(
            "aria-pressed", "true"
        )
        page.wait_for_function("document.querySelector('.cut-app').getBoundingClientRect().width > 1100")
        # a legend entry opens its section of the guide
        open_guide(page, page.locator("a.cut-legend-item", has_text="Dealer"), "rules.html#the-deal")
        browser.close()


def test_the_guide_opens_beside_the_game(server: str) -> None:
    """Every Guide link opens the guide in one window beside the game, reused on each click, and the guide links
    back to the game's own window rather than opening another."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        open_setup(page, server)
        page.get_by_role("button", name="Deal & play").click()
        title_guide = page.locator(".cut-title").get_by_role("link", name="Guide", exact=True)
        expect(title_guide).to_have_attribute("target", "cut-tutor-guide")
        with page.expect_popup() as popup:
            title_guide.click()
        guide = popup.value
        guide.wait_for_load_state()
        assert guide.url.endswith("index.html"), guide.url
        back = guide.get_by_role("link", name="← Back to the game")
        expect(back).to_be_visible()
        guide.screenshot(path=str(ARTIFACTS / "screenshots" / "guide-beside-the-game.png"))

        # a second guide link, from the legend, lands in the same window
        page.bring_to_front()
        pages = len(page.context.pages)
        page.locator("a.cut-legend-item", has_text="Dealer").click()
        guide.wait_for_url(re.compile(r"rules\.html#the-deal$"))
        assert len(page.context.pages) == pages
        expect(guide.get_by_role("link", name="← Back to the game")).to_be_visible()  # still, page to page

        # Back to the game finds the game's window: no new window, the game not reloaded
        page.evaluate("window.__still_here = true")
        guide.get_by_role("link", name="← Back to the game").click()
        page.wait_for_timeout(500)
        assert len(page.context.pages) == pages
        assert page.evaluate("window.__still_here === true")
        browser.close()


def test_the_tutor_mode_threshold_is_labelled_in_full(server: str) -> None:
    """Tutor mode's "Ask from (points)" is read whole beside its switch, on a desktop and on a phone."""
    from playwright.sync_api import expect, sync_playwright

    from cut_tutor.review.words import TUTOR_THRESHOLD

    with sync_playwright() as p:
        browser, page = open_page(p)
        open_setup(page, server)
        label = page.locator(".cut-app .widget-label", has_text=TUTOR_THRESHOLD)
        expect(label).to_be_visible()
        expect(page.get_by_label(TUTOR_THRESHOLD)).to_be_visible()

        def whole() -> None:
            box = label.evaluate("e => [e.scrollWidth, e.clientWidth, e.getBoundingClientRect().right]")
            assert box[0] <= box[1], f"the label is cut: {box[0]} px of text in {box[1]} px"
            assert box[2] <= page.viewport_size["width"], "the label runs off the screen"
            assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]

        shots(page, "tutor-mode-setup", label, whole)
        assert axe_problems(page) == [], "setup with tutor mode"
        browser.close()


def test_clear_4_shows_a_clear_4_table_and_a_reload_offers_the_game_plainly(server: str) -> None:
    """The picker's Clear 4, picked while a CUT game is dealt (and from Card Clear), shows Clear 4's setup, which
    deals Clear 4 (R22); a reload of this tab offers its game back without "another tab" or any kernel id, and a
    second tab still says the game is open in another tab."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        deal(page, server)  # a CUT game in play
        page.get_by_role("button", name="Card Clear", exact=True).click()
        expect(page.locator(".cc-grid")).to_be_visible()
        clear4 = page.get_by_role("button", name="Clear 4", exact=True)
        clear4.click()
        expect(clear4).to_have_class(re.compile("mod-active"))
        expect(page.locator(".cc-grid")).to_have_count(0)
        expect(page.get_by_label("Preset").filter(visible=True)).to_have_value("Clear 4")
        deal_button = page.get_by_role("button", name="Deal & play")
        expect(deal_button).to_be_visible()
        shots(page, "picker-clear4-setup", page.locator(".cut-game-picker"))
        assert axe_problems(page) == [], "Clear 4's setup from the picker"
        deal_button.click()
        expect(page.locator(".cut-you .cut-final")).to_have_count(4)  # Clear 4's stacks: the final card across
        shots(page, "picker-clear4-dealt", page.locator(".cut-game-picker"))

        # the same tab reloaded: its game is offered plainly
        page.reload()
        resume = page.get_by_role("button", name=re.compile(r"^Continue — "))
        expect(resume.first).to_be_visible()
        offer = page.locator(".cut-app")
        page.wait_for_timeout(1500)  # the page's ready message has redrawn the offer by now, if it would
        expect(offer).not_to_contain_text("another tab")
        expect(offer).not_to_contain_text(re.compile(r"kernel|process \d"))
        shots(page, "reload-continue", resume.first)
        assert axe_problems(page) == [], "the offer after a reload"

        # another tab of the same browser: the game is open in the first, said without a kernel id
        with page.expect_popup() as popup:  # a tab of its own: noopener gives it no copy of this tab's storage
            page.evaluate("url => window.open(url, '_blank', 'noopener')", server)
        other = popup.value
        expect(other.get_by_role("button", name=re.compile(r"^Continue — ")).first).to_be_visible()
        expect(other.locator(".cut-app")).to_contain_text("Open in another tab")
        expect(other.locator(".cut-app")).not_to_contain_text(re.compile(r"kernel|process \d"))
        other.close()
        resume.first.click()
        expect(page.locator(".cut-you .cut-final")).to_have_count(4)
        browser.close()
