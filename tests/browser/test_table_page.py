"""The table's page code alone in a real browser, fed the JSON Python builds for a position: the screens a seeded
game reaches only by chance are drawn, checked with axe-core and shot, and a press sends the intent Python expects.

No kernel is involved: the page module (the files of ``widgets/static/table/``, joined) is rendered with a stand-in
for the widget model that holds the traits :class:`~cut_tutor.widgets.table.TableWidget` syncs and records what the
page sends.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from serving import CHROMIUM, ROOT, SHOTS, SIZES, axe_problems, contrast, open_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(300),
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not on PATH"),
]

STATIC = ROOT / "cut_tutor" / "widgets" / "static"

#: A stand-in for the anywidget model: ``get`` the traits, ``on`` their changes, ``send`` recorded in
#: ``window.sent``; a theme message is answered as Python answers it: the app's theme class and the trait.
MODEL = """
const traits = JSON.parse(document.getElementById("traits").textContent);
const app = document.getElementById("app");
const handlers = {};
window.sent = [];
const model = {
  get: (key) => traits[key],
  on: (event, handler) => { (handlers[event] = handlers[event] || []).push(handler); },
  send: (message) => {
    window.sent.push(message);
    if (message.type === "theme") {
      traits.theme = message.theme;
      app.className = "cut-app cut-app-" + message.theme;
      (handlers["change:theme"] || []).forEach((handler) => handler());
    }
  },
};
render({ model, el: document.getElementById("host") });
"""


def page_html(traits: dict[str, Any]) -> str:
    """One page holding the table's CSS, its module with the stand-in model, and the traits as JSON."""
    from cut_tutor.widgets import TableWidget

    code = TableWidget._esm.replace("export default { render };", "")
    data = json.dumps(traits).replace("</", "<\\/")  # no "</script>" inside the JSON
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>table</title>"
        f"<style>{(STATIC / 'table.css').read_text()} body {{ margin: 8px; }}</style></head><body>"
        "<main><div id='app' class='cut-app cut-app-light'><div id='host'></div></div></main>"
        f"<script type='application/json' id='traits'>{data}</script>"
        f"<script type='module'>{code}\n{MODEL}</script></body></html>"
    )


def landed_five(home: Path) -> dict[str, Any]:
    """The traits after a blind 5 lands with two 5s in the hand and a face-up 5 on piles 2 and 4 (R13)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_widgets import LANDED_FIVE, app_at

    app = app_at(home, LANDED_FIVE)
    app.set_pacing("Step")
    app.play("flip 1")
    return {"table": app.table.table, "theme": "light", "table_layout": "auto", "error": ""}


def test_a_landed_blind_card_is_card_1_of_a_numbered_list(tmp_path: Path) -> None:
    """R13: the turned card is card 1; the hand's 5s are 2 and 3, pile 2's 4 and pile 4's 5; each button wears the
    colour of its last card's number, and pressing one sends its move."""
    from playwright.sync_api import expect, sync_playwright

    traits = landed_five(tmp_path)
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_content(page_html(traits))
        adding = page.get_by_role("group", name="cards you could send with the turned card")
        expect(adding).to_be_visible()
        numbers = adding.locator(".cut-addno")
        expect(numbers).to_have_text(["1", "2", "3", "4", "5"])
        for k in range(5):  # each number reads on its colour (axe does not look inside a badge named as an image)
            ink, ground = numbers.nth(k).evaluate(
                "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
            )
            assert contrast(ink, ground) >= 4.5, (k + 1, ink, ground)
        expect(adding.locator(".cut-addtitle")).to_have_text(
            [
                "From your hand — costs nothing but the card",
                "From your piles — each one played uncovers that pile's Risk card",
            ]
        )
        expect(adding).to_contain_text("pile 2")

        def colour(locator: Any) -> str:
            return str(locator.evaluate("e => getComputedStyle(e).getPropertyValue('--pile')")).strip()

        moves = page.locator(".cut-moves")
        assert colour(moves.get_by_role("button", name="Play 2× 5", exact=True)) == colour(numbers.nth(1))
        assert colour(moves.get_by_role("button", name="Play 3× 5 — clear", exact=True)) == colour(numbers.nth(2))
        assert colour(moves.get_by_role("button", name="Play 2× 5 (pile 2)", exact=True)) == colour(numbers.nth(3))
        assert colour(moves.get_by_role("button", name="Play 1× 5", exact=True)) == colour(numbers.nth(0))

        SHOTS.mkdir(parents=True, exist_ok=True)
        for theme in ("light", "dark"):
            if theme == "dark":
                page.get_by_role("button", name="☾ Dark").click()
                expect(page.locator(".cut-table.cut-dark")).to_have_count(1)
            assert axe_problems(page) == [], f"the numbered list, {theme}"
            for size, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                adding.scroll_into_view_if_needed()
                page.screenshot(path=str(SHOTS / f"blind-card-1-{theme}-{size}.png"))

        moves.get_by_role("button", name="Play 2× 5", exact=True).click()
        assert page.evaluate("window.sent.at(-1)") == {"type": "move", "move": "add 1×5"}
        browser.close()


@pytest.mark.parametrize(("ground", "dark"), [("#111418", True), ("#ffffff", False)])
def test_a_host_without_a_theme_flag_is_read_by_its_background(tmp_path: Path, ground: str, dark: bool) -> None:
    """A host that sets no theme flag (the page's code shared with Card Clear, ``host.js``): the table turns dark
    when the host's ``--jp-layout-color0`` is dark, and only then."""
    from playwright.sync_api import sync_playwright

    html = page_html(landed_five(tmp_path)).replace("<body>", f"<body style='--jp-layout-color0: {ground}'>", 1)
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_content(html)
        page.wait_for_function("document.querySelector('.cut-table')")
        asked = {"type": "theme", "theme": "dark"} in page.evaluate("window.sent")
        assert asked is dark, page.evaluate("window.sent")
        browser.close()


@pytest.mark.parametrize(
    ("game", "pile", "fanned", "under"),
    [
        ("CUT", "9@1 5@0 5@1", 2, 1),  # R10: the two 5s on top
        ("Clear 4", "6@1 5@0 J*@1 5@0", 3, 1),  # R22: the JOKER counts as the 5 below it
        ("Clear 4", "J*@1 J*@0", 2, 0),  # JOKERs alone have no value and no run: the fan holds them all
    ],
)
def test_the_pile_fans_the_views_top_run(tmp_path: Path, game: str, pile: str, fanned: int, under: int) -> None:
    """The fan holds the view's ``top_run`` (the game module's count), the older cards sit under it."""
    from playwright.sync_api import expect, sync_playwright

    sys.path.insert(0, str(ROOT / "tests"))
    from test_widgets import app_at, clear4_app

    if game == "CUT":
        app = app_at(tmp_path, {"rules": {"players": 2}, "turn": 0, "dealer": 1, "pile": pile,
                                "seats": [{"hand": "4 3"}, {"hand": "2 2"}]})  # fmt: skip
    else:
        app = clear4_app(tmp_path, [{"hand": "4 3"}, {"hand": "2 2"}], pile)
    traits = {"table": app.table.table, "theme": "light", "table_layout": "auto", "error": ""}
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_content(page_html(traits))
        area = page.get_by_role("group", name="the pile")
        expect(area.locator(".cut-fan .cut-pilecard")).to_have_count(fanned)
        expect(area.locator(".cut-pile-under .cut-pilecard")).to_have_count(under)
        browser.close()
