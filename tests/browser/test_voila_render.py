"""The dashboard as Binder's badge and the hub's default URL open it: JupyterLab's own Voilà (``/voila/render/``) in a
browser that has never been to JupyterLab. Leaving the page shuts its kernel down there too: the page hands the
browser the ``_xsrf`` cookie Voilà's leaving request needs (the package's server extension sees to it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from serving import CHROMIUM, jupyter_lab, open_page

from cut_tutor import dashboard

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

BASE = "/user/ann/"


def kernels(server: str) -> set[str]:
    """The ids of the kernels the server runs, from its own API."""
    with urllib.request.urlopen(f"{server}{BASE}api/kernels", timeout=30) as response:
        return {kernel["id"] for kernel in json.load(response)}


def test_leaving_the_dashboard_opened_directly_shuts_its_kernel(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    root = tmp_path / "root"
    root.mkdir()
    shutil.copy(dashboard.notebook(), root / "dashboard.ipynb")
    env = os.environ | {"CUT_TUTOR_HOME": str(tmp_path / "home"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={root}"]
    log = tmp_path / "lab.log"
    with jupyter_lab(command, BASE, log, env) as server, sync_playwright() as p:
        browser, page = open_page(p)  # a fresh context: no cookie of JupyterLab's own pages
        page.goto(f"{server}{BASE}voila/render/dashboard.ipynb")
        expect(page.get_by_role("button", name="Deal & play")).to_be_visible(timeout=90_000)
        kernel = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")["kernelId"]
        assert kernel in kernels(server)
        assert "_xsrf" in {cookie["name"] for cookie in page.context.cookies()}
        page.goto("about:blank")  # leaving the page asks the server to shut its kernel down
        deadline = time.monotonic() + 60
        while kernel in kernels(server) and time.monotonic() < deadline:
            time.sleep(0.5)
        browser.close()
        assert kernel not in kernels(server), "the kernel outlived its page"
    text = log.read_text(errors="replace")
    assert f"Kernel shutdown: {kernel}" in text
    assert re.search(r"\b403 POST\b", text) is None and "'_xsrf' argument missing" not in text
