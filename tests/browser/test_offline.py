"""An offline classroom: loading the dashboard, dealing and opening the guide ask nothing of any other machine, from
``cut-tutor dashboard`` and from the Voilà inside JupyterLab (as on Binder and JupyterHub) alike.

Every request the page makes is watched; each must go to the dashboard's own server on 127.0.0.1 (or stay
inside the page: ``data:`` and ``blob:`` URLs).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from serving import CHROMIUM, DEALT, ROOT, free_port, jupyter_lab, open_page, voila_server

from cut_tutor import dashboard
from cut_tutor.cli import voila_command

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


def test_the_dashboard_makes_no_request_off_the_machine() -> None:
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "guide" / "mkdocs.yml")], check=True
    )
    port = free_port()
    requests: list[str] = []
    with voila_server(voila_command(dashboard.notebook(), port), port) as url, sync_playwright() as p:
        browser, page = open_page(p)
        page.context.on("request", lambda request: requests.append(request.url))
        page.goto(url + "/")
        deal = page.get_by_role("button", name="Deal & play")
        expect(deal).to_be_visible()
        deal.click()
        expect(page.locator(".cut-status")).to_have_text(DEALT)  # a random deal: whoever leads, it is dealt
        with page.expect_popup() as popup:
            page.get_by_role("link", name="Dealer").first.click()
        popup.value.wait_for_load_state()
        browser.close()
    assert_all_local(requests, port)


def assert_all_local(requests: list[str], port: int) -> None:
    """Every request went to the server on ``port`` or stayed inside the page."""
    assert requests, "the page made no request at all: the watch is not working"
    away = sorted({u for u in requests if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).port != port})
    assert not away, f"requests that leave the dashboard's server: {away}"


def test_the_dashboard_in_jupyterlab_makes_no_request_off_the_machine(tmp_path: Path) -> None:
    """JupyterLab's own Voilà (``/voila/render/``, the route Binder's and JupyterHub's links open) renders the
    dashboard with its offline template too: the notebook names it, the package's server extension finds it."""
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    root = tmp_path / "root"
    root.mkdir()
    shutil.copy(dashboard.notebook(), root / "dashboard.ipynb")
    env = os.environ | {"CUT_TUTOR_HOME": str(tmp_path / "home"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={root}"]
    requests: list[str] = []
    base = "/user/ann/"
    with jupyter_lab(command, base, tmp_path / "lab.log", env) as server, sync_playwright() as p:
        browser, page = open_page(p)
        page.context.on("request", lambda request: requests.append(request.url))
        page.goto(f"{server}{base}voila/render/dashboard.ipynb")
        deal = page.get_by_role("button", name="Deal & play")
        expect(deal).to_be_visible(timeout=90_000)
        deal.click()
        expect(page.locator(".cut-status")).to_have_text(DEALT)
        browser.close()
    assert_all_local(requests, urlsplit(server).port or 80)
