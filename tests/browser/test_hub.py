"""A real classroom: JupyterHub on 127.0.0.1 (deploy/jupyterhub_config.py, configurable-http-proxy from the npm
registry) and Debian's Chromium. With the class's own sign-in (NativeAuthenticator), two learners sign up, are let in
by the teacher, and each plays in a server running as a system user of their own, in a folder no other learner can
open; with the demonstration switch (any name, one system user), two learners' games still stay apart.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from serving import CHROMIUM, DEALT, ROOT, cmdline, free_port, open_page, wait_until_answers

PROXY = ROOT / "build" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]


@contextmanager
def hub(data: Path, **settings: str) -> Iterator[str]:
    """JupyterHub from the deploy recipe on a free port, its data in ``data``; yields its URL."""
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    if not PROXY.exists():
        pytest.skip("configurable-http-proxy is not installed (make venv installs it from the npm registry)")
    port, api = free_port(), free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    env = os.environ | {"CUT_HUB_DATA": str(data), "CUT_HUB_PORT": str(port), "CUT_HUB_PROXY": str(PROXY),
                        "CONFIGPROXY_API_PORT": str(api), "PYTHONPATH": str(ROOT), **settings}  # fmt: skip
    env.pop("CUT_TUTOR_HOME", None)  # each learner's comes from the hub
    log_path = ARTIFACTS / "hub.log"
    command = [sys.executable, "-m", "jupyterhub", "-f", str(ROOT / "deploy" / "jupyterhub_config.py"),
               f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{api}",
               f"--JupyterHub.hub_port={free_port()}"]  # fmt: skip
    with log_path.open("w") as log:
        process = subprocess.Popen(command, cwd=data, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_answers(f"{url}/hub/api", process, log_path)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()


def learner_python(folder: Path) -> dict[str, str]:
    """The Python for the learners' servers: the hub's own if other users can run it, else a Python of the system
    that reads this environment's packages (a Python installed in root's home is closed to other users)."""
    tried = subprocess.run(["runuser", "-u", "nobody", "--", sys.executable, "-c", "pass"], capture_output=True)
    if tried.returncode == 0:
        return {}
    system = f"/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]}"  # the same version reads the same packages
    if not Path(system).exists():
        pytest.skip(f"this Python cannot be run by other users, and there is no {system} for the learners' servers")
    packages = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    if subprocess.run(["runuser", "-u", "nobody", "--", "ls", str(packages)], capture_output=True).returncode != 0:
        pytest.skip(f"the learners' users cannot read this environment's packages ({packages.name})")
    folder.mkdir(parents=True)
    subprocess.run([system, "-m", "venv", "--without-pip", str(folder)], check=True)
    for site in folder.glob("lib/python*/site-packages"):
        (site / "cut-hub-packages.pth").write_text(f"{packages}\n")
    for data in ("share", "etc"):  # Jupyter's data and settings (Voilà, the widgets, the guide's route)
        (folder / data).mkdir(exist_ok=True)
        (folder / data / "jupyter").symlink_to(Path(sys.prefix) / data / "jupyter")
    return {"CUT_HUB_PYTHON": str(folder / "bin" / "python")}


def deal_game(page: Any, learner: str, seed: int) -> None:
    """On the learner's tutor: deal a seeded game (the save is made as the deal lands)."""
    from playwright.sync_api import expect

    page.wait_for_url(f"**/user/{learner}/voila/render/**", timeout=180_000)
    deal = page.get_by_role("button", name="Deal & play")
    expect(deal).to_be_visible(timeout=180_000)
    page.get_by_placeholder("random").fill(str(seed))
    page.get_by_placeholder("random").press("Tab")
    deal.click()
    expect(page.locator(".cut-status")).to_have_text(DEALT, timeout=120_000)


def log_in(browser: Any, hub_url: str, name: str, password: str) -> Any:
    """A new browser (its own cookies) that has submitted the hub's login form; its page."""
    context = browser.new_context(viewport={"width": 1200, "height": 1400})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{hub_url}/hub/login")
    page.locator("#username_input").fill(name)
    page.locator("#password_input").fill(password)
    page.locator("#login_submit").click()
    return page


def sign_up(browser: Any, hub_url: str, name: str, password: str) -> bool:
    """Sign up at the hub; whether the hub took the sign-up (a refusal is said in a danger alert)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{hub_url}/hub/signup")
    page.locator("#username_input").fill(name)
    page.locator("#password_input").fill(password)
    page.locator("#password_confirmation_input").fill(password)
    page.locator("#signup_submit").click()
    alert = page.locator(".alert")
    alert.wait_for()
    taken = "alert-danger" not in (alert.get_attribute("class") or "")
    context.close()
    return taken


def _system_user(name: str) -> tuple[int, int] | None:
    import pwd

    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


def _server_uids(learner: str) -> set[int]:
    """The real uids of the processes serving ``learner`` (their single-user server and its kernels)."""
    uids = set()
    for entry in Path("/proc").iterdir():
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            if f"JUPYTERHUB_USER={learner}".encode() in environ:
                uids.add(int((entry / "status").read_text().split("Uid:")[1].split()[0]))
        except (OSError, IndexError, ValueError):
            continue
    return uids


@pytest.mark.skipif(os.geteuid() != 0, reason="the class's hub makes system users: it runs as root")
def test_learners_sign_up_are_let_in_and_each_plays_as_a_user_of_their_own() -> None:
    from playwright.sync_api import expect, sync_playwright

    tag = secrets.token_hex(3)  # fresh system users each run
    teacher, ann, ben = (f"{name}{tag}" for name in ("teacher", "ann", "ben"))
    passwords = {name: secrets.token_urlsafe(12) for name in (teacher, ann, ben)}
    # the learners' own users must reach their homes below it: the system's temporary folder, not the test run's own
    # (which only root may enter); removed below like the rest
    data = Path(tempfile.mkdtemp(prefix="cut-hub-", dir="/tmp"))
    try:
        with hub(data, CUT_HUB_TEACHER=teacher, **learner_python(data / "python")) as url, sync_playwright() as p:
            browser, _page = open_page(p)
            for name in (teacher, ann, ben):
                assert sign_up(browser, url, name, passwords[name]), name
            assert not sign_up(browser, url, "root", passwords[ann]), "another account of the machine is refused"
            waiting = log_in(browser, url, ann, passwords[ann])  # signed up, not yet let in
            expect(waiting.locator("#login_submit")).to_be_visible()
            assert "/user/" not in waiting.url and _system_user(ann) is None, "no server, no system user yet"
            stranger = log_in(browser, url, ben, passwords[ann])  # another learner's password
            expect(stranger.locator("#login_submit")).to_be_visible()
            assert "/user/" not in stranger.url
            desk = log_in(browser, url, teacher, passwords[teacher])
            desk.wait_for_url(lambda address: "/hub/login" not in address)
            for name in (ann, ben):
                desk.goto(f"{url}/hub/authorize/{name}")
            ann_page = log_in(browser, url, ann, passwords[ann])
            deal_game(ann_page, ann, seed=11)
            ann_page.screenshot(path=str(ARTIFACTS / "hub-native-ann.png"))
            ben_page = log_in(browser, url, ben, passwords[ben])
            ben_page.wait_for_url(f"**/user/{ben}/voila/render/**", timeout=180_000)
            ben_page.evaluate(f"localStorage.setItem('cut_tutor.learner', {json.dumps(ann)})")
            ben_page.reload()  # a page that keeps another learner's name: the hub's user decides, not the page
            expect(ben_page.get_by_role("button", name="Deal & play")).to_be_visible(timeout=180_000)
            expect(ben_page.get_by_text("A saved game is waiting.")).to_be_hidden()
            deal_game(ben_page, ben, seed=12)
            ann_page.reload()  # ann comes back to her own game
            expect(ann_page.get_by_role("button", name="Continue — 4 players, round 1")).to_be_visible()
            for name in (ann, ben):
                assert _server_uids(name) == {_system_user(name)[0]}, f"{name}'s server runs as {name} alone"  # type: ignore[index]
            browser.close()
        learners = data / "learners"
        saves = {name: sorted((learners / name).glob("save-*.json")) for name in (ann, ben)}
        assert all(len(found) == 1 for found in saves.values()), saves
        seeds = {name: json.loads(found[0].read_text(encoding="utf-8"))["seed"] for name, found in saves.items()}
        assert seeds == {ann: 11, ben: 12}, "each learner's save holds their own game"
        for name in (ann, ben):
            folder = learners / name
            assert (folder.stat().st_uid, folder.stat().st_mode & 0o777) == (_system_user(name)[0], 0o700)  # type: ignore[index]
            assert (folder / "history.sqlite").exists() and not (folder / "learners").exists()
        peek = subprocess.run(["runuser", "-u", ann, "--", "ls", str(learners / ben)], capture_output=True)
        assert peek.returncode != 0, "ann's system user cannot open ben's folder"
        table = subprocess.run([sys.executable, "-m", "cut_tutor.cli", "class", str(data)], capture_output=True,
                               text=True, env=os.environ | {"PYTHONPATH": str(ROOT)})  # fmt: skip
        assert ann in table.stdout and ben in table.stdout, table.stderr
    finally:
        for name in (teacher, ann, ben):
            if _system_user(name) is not None:
                subprocess.run(["userdel", name], capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


def test_the_demonstration_hub_keeps_two_learners_games_apart() -> None:
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix="cut-hub-"))
    try:
        with hub(data, CUT_HUB_DEMO="1") as url, sync_playwright() as p:
            browser, _page = open_page(p)
            for name, seed in (("ann", 11), ("ben", 12)):
                page = log_in(browser, url, name, "any")
                deal_game(page, name, seed)
                page.screenshot(path=str(ARTIFACTS / f"hub-{name}.png"))
            browser.close()
        saves = {name: sorted((data / "learners" / name).glob("save-*.json")) for name in ("ann", "ben")}
        assert all(len(found) == 1 for found in saves.values()), saves
        seeds = {name: json.loads(found[0].read_text(encoding="utf-8"))["seed"] for name, found in saves.items()}
        assert seeds == {"ann": 11, "ben": 12}, "each learner's save holds their own game"
    finally:
        shutil.rmtree(data, ignore_errors=True)


def _kernel_running(kernel: str) -> bool:
    return any(f"kernel-{kernel}.json" in cmdline(int(entry.name)) for entry in Path("/proc").iterdir()
               if entry.name.isdigit())  # fmt: skip


def test_leaving_the_hubs_dashboard_shuts_its_kernel_down() -> None:
    """The hub's default URL opens the dashboard at ``/voila/render/`` in a browser that never saw JupyterLab: the
    ``_xsrf`` cookie Voilà's leaving request needs is there (the learner's server sets it as the learner signs in, and
    the page's handler keeps it), and the learner's kernel goes with the page."""
    from playwright.sync_api import expect, sync_playwright

    data = Path(tempfile.mkdtemp(prefix="cut-hub-"))
    try:
        with hub(data, CUT_HUB_DEMO="1") as url, sync_playwright() as p:
            browser, _page = open_page(p)
            page = log_in(browser, url, "ann", "any")
            page.wait_for_url("**/user/ann/voila/render/**", timeout=180_000)
            expect(page.get_by_role("button", name="Deal & play")).to_be_visible(timeout=180_000)
            kernel = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")["kernelId"]
            assert _kernel_running(kernel)
            page.goto("about:blank")  # leaving the page asks the learner's server to shut its kernel down
            deadline = time.monotonic() + 60
            while _kernel_running(kernel) and time.monotonic() < deadline:
                time.sleep(0.5)
            browser.close()
            assert not _kernel_running(kernel), "the kernel outlived its page"
        log = (ARTIFACTS / "hub.log").read_text(errors="replace")
        assert f"Kernel shutdown: {kernel}" in log
        assert re.search(r"\b403 POST\b", log) is None and "'_xsrf' argument missing" not in log
    finally:
        shutil.rmtree(data, ignore_errors=True)
