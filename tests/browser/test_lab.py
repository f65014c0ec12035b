"""The tutor inside a plain JupyterLab under a base URL: the app runs in a notebook, its help links reach the guide
below the prefix (the page resolves them from its config; the guide's route is the package's server extension), and
scores and hand records download through the browser there as in Voilà, with nothing written in the server's files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import CHROMIUM, ROOT, SEED, jupyter_lab, open_page

from cut_tutor import dashboard
from cut_tutor.engine import codes

BASE = "/user/ann/"
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any, Path]]:
    """JupyterLab serving a folder that holds only the tutor's notebook (its home and config lie outside it), the
    notebook open in Chromium with its cell run; yields the server's address, the page and the folder."""
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "guide" / "mkdocs.yml")], check=True
    )
    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "root"
    root.mkdir()
    shutil.copy(dashboard.notebook(), root / "tutor.ipynb")
    ARTIFACTS.mkdir(exist_ok=True)
    env = {"CUT_TUTOR_HOME": str(tmp / "home"), "JUPYTER_CONFIG_DIR": str(tmp / "config")}
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={root}"]
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
        yield server, page, root
        browser.close()


def test_the_app_in_a_jupyterlab_notebook_links_to_the_guide(lab: tuple[str, Any, Path]) -> None:
    from playwright.sync_api import expect

    server, page, _root = lab
    link = page.get_by_role("link", name="Risk Play", exact=True)
    expect(link).to_have_attribute("href", f"{BASE}cut-tutor/guide/glossary.html#risk-play", timeout=90_000)
    expect(page.get_by_role("button", name="Deal & play")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "lab-notebook.png"))
    response = page.request.get(server + (link.get_attribute("href") or ""))
    assert response.status == 200 and "<title>" in response.text()


def test_scores_and_hand_records_download_through_the_browser(lab: tuple[str, Any, Path]) -> None:
    from playwright.sync_api import expect

    _server, page, root = lab
    page.locator(".widget-toggle-buttons", has_text="AI pacing").get_by_role("button", name="Auto").click()
    page.get_by_placeholder("random").fill(SEED)
    page.get_by_placeholder("random").press("Tab")
    page.get_by_role("button", name="Deal & play").click()
    status = page.locator(".cut-status").first
    expect(status).to_have_text("Your turn", timeout=90_000)
    page.locator("button.cut-automate").click()
    expect(status).to_contain_text("hand 1 over", timeout=90_000)
    page.get_by_role("button", name="Scores", exact=True).click()  # the Title Bar opens the panel
    page.get_by_role("button", name="Export CSV").click()
    with page.expect_download() as done:
        page.locator("a.cut-download", has_text="cut-scores.csv").click()
    assert done.value.suggested_filename == "cut-scores.csv"
    assert Path(done.value.path()).read_text().startswith("game,finished,hand,seat,name")
    page.get_by_role("button", name="Download hand record").click()
    with page.expect_download() as done:
        page.locator("a.cut-download", has_text="cut-hand-1.json").click()
    record = json.loads(Path(done.value.path()).read_text())
    assert done.value.suggested_filename == "cut-hand-1.json"
    assert record["format"] == codes.RECORD_FORMAT and record["moves"] and record["learner"]
    page.screenshot(path=str(ARTIFACTS / "lab-downloads.png"))
    written = [p.relative_to(root) for p in root.rglob("*") if ".ipynb_checkpoints" not in p.parts]
    assert written == [Path("tutor.ipynb")]
