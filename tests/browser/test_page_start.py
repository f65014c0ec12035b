"""The dashboard page from its first byte to leaving it: it says the tutor is starting, draws the tutor with no error
in the browser's console, says what to do when the tutor cannot start, and leaving it shuts its kernel down."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import CHROMIUM, ROOT, VoilaServer, cmdline, descendants, free_port, open_page

from cut_tutor import dashboard
from cut_tutor.cli import voila_command

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


@pytest.fixture
def home() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="cut-home-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def serve(notebook: Path, home: Path) -> VoilaServer:
    """A started Voilà serving ``notebook`` as ``cut-tutor dashboard`` does, with its own tutor home."""
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    port = free_port()
    env = os.environ | {"CUT_TUTOR_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    server = VoilaServer("page", voila_command(notebook, port), port, ROOT, env, home / "voila.log")
    server.start()
    server.wait_http()
    return server


def kernel_running(server: VoilaServer, kernel_id: str) -> bool:
    assert server.proc is not None
    return any(f"kernel-{kernel_id}.json" in cmdline(pid) for pid in descendants(server.proc.pid))


def test_the_page_says_it_is_starting_then_draws_the_tutor_and_leaving_shuts_its_kernel(home: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    server = serve(dashboard.notebook(), home)
    try:
        with urllib.request.urlopen(server.url, timeout=120) as response:  # the page as first sent, before any script
            first = response.read().decode("utf-8")
        assert '<p id="cut-starting" class="cut-starting" role="status">Starting the tutor…</p>' in first
        with sync_playwright() as p:
            browser, page = open_page(p)
            problems: list[str] = []
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.goto(server.url)
            expect(page.get_by_role("button", name="Deal & play")).to_be_visible()
            expect(page.locator("#cut-starting")).to_be_hidden()  # the tutor is drawn: the line has gone
            page.wait_for_timeout(1000)  # errors raised as the last views are drawn
            assert problems == []
            config = page.locator("#jupyter-config-data").text_content()
            kernel = json.loads(config or "{}")["kernelId"]
            assert kernel_running(server, kernel)
            assert "_xsrf" in {cookie["name"] for cookie in page.context.cookies()}
            page.goto("about:blank")  # leaving the page asks the server to shut its kernel down
            deadline = time.monotonic() + 60
            while kernel_running(server, kernel) and time.monotonic() < deadline:
                time.sleep(0.5)
            browser.close()
        assert not kernel_running(server, kernel), "the kernel outlived its page"
        log = server.log_text()
        assert f"Kernel shutdown: {kernel}" in log
        assert re.search(r"^403 ", log, re.MULTILINE) is None and "'_xsrf' argument missing" not in log
    finally:
        server.stop()


def test_a_tutor_that_cannot_start_says_to_reload(home: Path) -> None:
    """A kernel that leaves no widget (here its cell fails) gives a page that says so and what to do, not a blank."""
    from playwright.sync_api import expect, sync_playwright

    notebook = json.loads(dashboard.notebook().read_text(encoding="utf-8"))
    notebook["cells"][0]["source"] = ["raise RuntimeError('the tutor could not be built')\n"]
    folder = home / "failing"
    folder.mkdir()
    path = folder / "dashboard.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    server = serve(path, home)
    try:
        with sync_playwright() as p:
            browser, page = open_page(p)
            page.goto(server.url)
            stuck = page.get_by_role("status").filter(has_text="The tutor did not start.")
            expect(stuck).to_be_visible()
            expect(stuck).to_contain_text("Reload the page to try again: your saved games are kept.")
            browser.close()
    finally:
        server.stop()
