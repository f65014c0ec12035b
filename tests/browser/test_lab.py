"""The tutor inside a plain JupyterLab under a base URL: the app runs in a notebook and its help links reach the
guide below the prefix (the page resolves them from its config; the guide's route is the package's server extension).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from serving import CHROMIUM, ROOT, jupyter_lab, open_page

from cut_tutor import dashboard

BASE = "/user/ann/"
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


def test_the_app_in_a_jupyterlab_notebook_links_to_the_guide(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "guide" / "mkdocs.yml")], check=True
    )
    shutil.copy(dashboard.notebook(), tmp_path / "tutor.ipynb")
    ARTIFACTS.mkdir(exist_ok=True)
    env = {"CUT_TUTOR_HOME": str(tmp_path / "home"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={tmp_path}"]
    with jupyter_lab(command, BASE, ARTIFACTS / "lab.log", os.environ | env) as server, sync_playwright() as p:
        browser, page = open_page(p)
        page.goto(f"{server}{BASE}lab/tree/tutor.ipynb")
        cell = page.locator(".jp-Cell .jp-InputArea-editor").first
        expect(cell).to_be_visible(timeout=90_000)
        expect(page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")).to_be_attached(timeout=90_000)
        prompt = page.locator(".jp-Cell").first.locator(".jp-InputPrompt")
        for _ in range(5):  # a run sent before the kernel's session is wired up is dropped: send it again
            cell.click()
            page.keyboard.press("Control+Enter")
            try:
                expect(prompt).not_to_have_text("[ ]:", timeout=15_000)
                break
            except AssertionError:
                continue
        link = page.get_by_role("link", name="Risk Play", exact=True)
        expect(link).to_have_attribute("href", f"{BASE}cut-tutor/guide/glossary.html#risk-play", timeout=90_000)
        expect(page.get_by_role("button", name="Deal & play")).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "lab-notebook.png"))
        response = page.request.get(server + (link.get_attribute("href") or ""))
        assert response.status == 200 and "<title>" in response.text()
        browser.close()
