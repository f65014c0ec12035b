"""Binder as a learner meets it: JupyterLab under a ``/user/<name>/`` prefix, the dashboard through Voilà's
``/voila/render/`` route in Chromium, a game dealt, and a help link that reaches the guide below the prefix.

The environment is built from exactly ``binder/requirements.txt`` (the lock), ``runtime.txt`` and ``postBuild``
(the session fixture ``binder_env``), and JupyterLab is started from the repository root, as repo2docker does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from serving import CHROMIUM, DEALT, ROOT, jupyter_lab, open_page

BASE = "/user/learner/"
DASHBOARD = "voila/render/cut_tutor/dashboard/dashboard.ipynb"
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(1500)]


def test_the_dashboard_on_binder_deals_and_opens_the_guide(
    binder_env: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    bin_dir, env = binder_env
    env = env | {"CUT_TUTOR_HOME": str(tmp_path / "home")}  # a new learner: no saved game waiting
    ARTIFACTS.mkdir(exist_ok=True)
    lab = jupyter_lab([str(bin_dir / "jupyter"), "lab"], BASE, ARTIFACTS / "binder-lab.log", env)
    with lab as server, sync_playwright() as p:
        browser, page = open_page(p)
        page.goto(f"{server}{BASE}{DASHBOARD}")
        deal = page.get_by_role("button", name="Deal & play")
        expect(deal).to_be_visible(timeout=120_000)
        link = page.get_by_role("link", name="Risk Play", exact=True)
        href = link.get_attribute("href") or ""
        assert href == f"{BASE}cut-tutor/guide/glossary.html#risk-play", href
        deal.click()
        expect(page.locator(".cut-status")).to_have_text(DEALT)
        legend = page.locator("a.cut-legend-item", has_text="Dealer")
        assert (legend.get_attribute("href") or "").startswith(f"{BASE}cut-tutor/guide/")
        page.screenshot(path=str(ARTIFACTS / "binder-dashboard.png"), full_page=True)
        for url in (href, legend.get_attribute("href") or ""):
            response = page.request.get(server + url)
            assert response.status == 200, (url, response.status)
            assert "<title>" in response.text()
        browser.close()
