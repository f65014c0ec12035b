"""The player's guide in a real browser: axe-core finds nothing critical or serious on any page, with the reader's
system light or dark (the guide follows it), and screenshots are kept of its pages in both themes and sizes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import CHROMIUM, ROOT, SHOTS, axe_problems, open_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

#: Pages kept as screenshots: the one with the most code and links, and the Hint's.
SHOWN = ("coach.html", "card-clear.html")
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    out = tmp_path_factory.mktemp("guide")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "guide" / "mkdocs.yml"), "-d",
                    str(out)], check=True, cwd=ROOT)  # fmt: skip
    yield out


def test_every_guide_page_passes_axe_in_both_themes(site: Path) -> None:
    from playwright.sync_api import sync_playwright

    pages = sorted(page.name for page in site.glob("*.html") if page.name not in ("404.html", "search.html"))
    assert "rules.html" in pages and "card-clear.html" in pages
    found: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p)
        for theme in ("light", "dark"):
            page.emulate_media(color_scheme=theme)
            for name in pages:
                page.goto((site / name).as_uri())
                found += [f"{theme} {name}: {problem}" for problem in axe_problems(page)]
                if name in SHOWN:
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    for size, (width, height) in SIZES.items():
                        page.set_viewport_size({"width": width, "height": height})
                        page.locator("code").first.evaluate("e => e.scrollIntoView({block: 'center'})")
                        page.screenshot(path=str(SHOTS / f"guide-{name.removesuffix('.html')}-{theme}-{size}.png"))
                    page.set_viewport_size({"width": 1200, "height": 1600})
        browser.close()
    assert found == [], "\n".join(found)
