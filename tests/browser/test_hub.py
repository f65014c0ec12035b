"""A real classroom: JupyterHub on 127.0.0.1 (DummyAuthenticator, a local spawner, configurable-http-proxy from the
npm registry), two learners logged in from two browsers, each playing the tutor; their games and histories stay apart.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from serving import CHROMIUM, DEALT, ROOT, free_port, open_page, wait_until_answers

PROXY = ROOT / "build" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]


def play_as(browser: object, hub: str, learner: str, seed: int) -> None:
    """Log in, let the hub start this learner's server, deal a seeded game and play its first legal card."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1200, "height": 1400})  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{hub}/hub/login")
    page.locator("#username_input").fill(learner)
    page.locator("#password_input").fill("any")
    page.locator("#login_submit").click()
    page.wait_for_url(f"**/user/{learner}/voila/render/**", timeout=180_000)
    deal = page.get_by_role("button", name="Deal & play")
    expect(deal).to_be_visible(timeout=180_000)
    page.get_by_placeholder("random").fill(str(seed))
    page.get_by_placeholder("random").press("Tab")
    deal.click()
    expect(page.locator(".cut-status")).to_have_text(DEALT, timeout=120_000)
    page.screenshot(path=str(ARTIFACTS / f"hub-{learner}.png"))
    context.close()


def test_two_learners_on_one_hub_keep_their_games_apart(tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    if not PROXY.exists():
        pytest.skip("configurable-http-proxy is not installed (make venv installs it from the npm registry)")
    from playwright.sync_api import sync_playwright

    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    env = os.environ | {"CUT_HUB_DATA": str(tmp_path / "hub"), "CUT_HUB_PORT": str(port), "CUT_HUB_PROXY": str(PROXY),
                        "CONFIGPROXY_API_PORT": str(free_port())}  # fmt: skip
    env.pop("CUT_TUTOR_HOME", None)  # each learner's comes from the hub
    log = (ARTIFACTS / "hub.log").open("w")
    hub_cmd = [sys.executable, "-m", "jupyterhub", "-f", str(ROOT / "deploy" / "jupyterhub_config.py"),
               f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{env['CONFIGPROXY_API_PORT']}"]  # fmt: skip
    hub = subprocess.Popen(hub_cmd, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_answers(f"{url}/hub/api", hub, ARTIFACTS / "hub.log")
        with sync_playwright() as p:
            browser, _page = open_page(p)
            play_as(browser, url, "ann", seed=11)
            play_as(browser, url, "ben", seed=12)
            browser.close()
        homes = {name: tmp_path / "hub" / "learners" / name / "cut_tutor" for name in ("ann", "ben")}
        # within each hub user's home, the browser's learner folder holds the game
        found = {name: sorted(home.glob("learners/*/save-*.json")) for name, home in homes.items()}
        assert all(len(paths) == 1 for paths in found.values()), found
        saves = {name: json.loads(paths[0].read_text(encoding="utf-8")) for name, paths in found.items()}
        assert (saves["ann"]["seed"], saves["ben"]["seed"]) == (11, 12), "each learner's save holds their own game"
        for paths in found.values():
            assert (paths[0].parent / "history.sqlite").exists()
    finally:
        hub.terminate()
        try:
            hub.wait(timeout=30)
        except subprocess.TimeoutExpired:
            hub.kill()
        log.close()
        shutil.rmtree(tmp_path / "hub" / "learners", ignore_errors=True)
