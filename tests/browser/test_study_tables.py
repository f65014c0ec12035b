"""The analysis table in a real browser, as a learner reads it at a desktop's and a phone's width, light and dark:
every cell inside the table's box (nothing off its right edge, nothing under another cell), each move's parts
behind a button that says whether they are shown, and axe-core finds nothing critical or serious."""

from __future__ import annotations

from typing import Any

import pytest
from serving import SHOTS, axe_problems, deal, open_page

from cut_tutor.coach.words import PARTS_HIDE, PARTS_SHOW

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

#: Where each cell of the analysis table lies against its box, and cells of one row that overlap: nothing is the
#: answer. The box itself must not scroll sideways (no column hidden past its edge) nor reach past the window.
MISPLACED = """box => {
  const r = box.getBoundingClientRect();
  const out = [];
  if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push('box outside the window: ' + r.left + '..' + r.right);
  if (box.scrollWidth > box.clientWidth + 1) out.push('box scrolls: ' + box.scrollWidth + ' > ' + box.clientWidth);
  for (const row of box.querySelectorAll('tr')) {
    const cells = [...row.children].filter(c => c.getClientRects().length);
    let right = -Infinity;
    for (const cell of cells) {
      const q = cell.getBoundingClientRect();
      const name = cell.textContent.trim().slice(0, 30);
      if (q.left < r.left - 0.5 || q.right > r.right + 0.5) out.push('outside: ' + name + ' ' + q.right);
      if (q.left < right - 0.5) out.push('overlaps the cell before it: ' + name);
      if (getComputedStyle(cell).position === 'sticky') out.push('sticky: ' + name);
      right = q.right;
    }
  }
  return out;
}"""


def check_fits(page: Any, where: str) -> None:
    box = page.locator(".cut-side .cut-mt").first
    assert box.evaluate(MISPLACED) == [], where


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_analysis_table_fits_its_box_at_every_width(server: str, theme: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1280, "height": 900})
        deal(page, server, "?theme=dark" if theme == "dark" else "")
        expect(page.locator(f".cut-app.cut-app-{theme}")).to_be_visible()
        page.get_by_role("button", name="Open the analysis").click()
        # the position's evaluation, started by the verdict line under the recommendation, fills the table's columns
        expect(page.get_by_text("Best by the rollouts")).to_be_visible(timeout=120_000)
        table = page.locator(".cut-side .cut-mt").first
        heads = [h.strip() for h in table.locator("thead th").all_inner_texts()]
        assert heads == ["move", "expected", "gap", "verdict"]
        toggle = table.get_by_role("button", name=PARTS_SHOW)
        expect(toggle).to_have_attribute("aria-expanded", "false")
        parts = table.locator("tr.cut-mt-parts")
        expect(parts.first).to_be_hidden()
        for size, (width, height) in {"desktop": (1280, 900), "phone": (390, 844)}.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(300)
            check_fits(page, f"{size}, {theme}, parts hidden")
            assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, size
            table.evaluate("e => e.scrollIntoView({block: 'start'})")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"analysis-table-{theme}-{size}.png"))
            # the parts by keyboard: the button says what it does and whether they are shown, and they fit too
            table.locator(".cut-mt-toggle").focus()
            page.keyboard.press("Enter")
            opened = table.get_by_role("button", name=PARTS_HIDE)
            expect(opened).to_have_attribute("aria-expanded", "true")
            expect(parts.first).to_be_visible()
            check_fits(page, f"{size}, {theme}, parts shown")
            table.evaluate("e => e.scrollIntoView({block: 'start'})")
            page.screenshot(path=str(SHOTS / f"analysis-table-parts-{theme}-{size}.png"))
            assert axe_problems(page) == [], f"{size}, {theme}"
            page.keyboard.press("Space")
            expect(toggle).to_have_attribute("aria-expanded", "false")
            expect(parts.first).to_be_hidden()
        browser.close()
