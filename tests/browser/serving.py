"""The one Voilà harness: a server on 127.0.0.1 and Debian's Chromium, for the browser tests and the benchmarks,
and what the browser tests share: axe-core's findings, the contrast of two colours, screenshots in both themes
and sizes, the known deal.

The browser tests import it as ``serving`` (pytest puts this folder on the path); ``benchmarks/bench_dashboard.py``
puts this folder on its path and imports it the same way.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium")
#: As root in a sandbox, with the machine's closed network: no sandbox, no background traffic.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip
#: The Turn Status once a deal is on the table: Step pacing (the default) waits for Next before an AI seat plays.
DEALT = re.compile(r"( to play|^Your turn)$")
#: The deal code of the known game the study tests deal.
SEED = "3"
SHOTS = ROOT / "test-artifacts" / "screenshots"
#: The screenshot sizes of every screen: (width, height).
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def proc_stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` from the state on (the name before them may hold spaces)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def descendants(pid: int) -> list[int]:
    """Every process whose parent chain leads to ``pid``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := proc_stat(int(entry.name))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class VoilaServer:
    """One Voilà command line serving ``port`` on 127.0.0.1, its log in a file; stopping it stops its kernels."""

    def __init__(
        self, name: str, command: list[str], port: int, cwd: Path, env: dict[str, str], log_path: Path
    ) -> None:
        self.name, self.command, self.port, self.cwd, self.env = name, command, port, cwd, env
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        self._log = open(self.log_path, "w")  # noqa: SIM115 - kept open for the server's lifetime
        self.proc = subprocess.Popen(self.command, cwd=self.cwd, env=self.env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip

    def wait_http(self, timeout: float = 90) -> None:
        """Wait until the server answers with a static file, which runs no notebook and takes no kernel."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.url + "voila/static/voila.js", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Voilà ({self.name}) did not start:\n{self.log_text()[-3000:]}")
            time.sleep(0.25)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is None:
            return
        children = descendants(self.proc.pid)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for pid in children:  # kernels the server could not shut down
            if "ipykernel_launcher" in cmdline(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, 9)
        if self._log is not None:
            self._log.close()
        self.proc = None


@contextmanager
def voila_server(command: list[str], port: int) -> Iterator[str]:
    """Run a Voilà command line (serving ``port``) with its own tutor home; yield its URL once it answers."""
    home = tempfile.mkdtemp(prefix="cut-home-")
    env = os.environ | {"CUT_TUTOR_HOME": home, "PYTHONUNBUFFERED": "1"}
    server = VoilaServer("test", command, port, ROOT, env, Path(home) / "voila.log")
    try:
        server.start()
        server.wait_http()
        yield server.url.rstrip("/")
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


def open_page(playwright: Any) -> tuple[Any, Any]:
    """Debian's Chromium, headless, driven by Playwright (it cannot download a browser of its own here),
    and a tall page with generous waits for Voilà's kernel."""
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    page = browser.new_page(viewport={"width": 1200, "height": 1600})
    page.set_default_timeout(60_000)
    return browser, page


def wait_until_answers(url: str, process: subprocess.Popen[Any], log: Path, timeout: float = 120) -> None:
    """Wait until ``url`` answers; fail with the end of ``log`` if ``process`` exits or time runs out."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            assert process.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, f"{url} did not answer"
            time.sleep(0.5)


@contextmanager
def jupyter_lab(command: list[str], base: str, log: Path, env: dict[str, str], cwd: Path = ROOT) -> Iterator[str]:
    """Run ``command`` (a ``jupyter lab`` start line without its server options) on a free port of 127.0.0.1 under
    the base URL ``base``, with no token; yield the server's address once its API answers; stop it after."""
    port = free_port()
    options = ["--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", f"--ServerApp.base_url={base}",
               "--IdentityProvider.token=", "--ServerApp.password=", "--no-browser",
               "--allow-root"]  # fmt: skip  # this machine runs as root; Binder and a learner's laptop do not
    with log.open("w") as out:
        lab = subprocess.Popen([*command, *options], cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        server = f"http://127.0.0.1:{port}"
        try:
            wait_until_answers(f"{server}{base}api/status", lab, log)
            yield server
        finally:
            lab.terminate()
            try:
                lab.wait(timeout=30)
            except subprocess.TimeoutExpired:
                lab.kill()


def relative_luminance(css: str) -> float:
    """WCAG relative luminance of a computed colour: ``rgb(…)``/``rgba(…)`` or ``color(srgb …)``."""
    numbers = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
    channels = numbers if css.startswith("color(") else [x / 255 for x in numbers]

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two computed colours."""
    x, y = sorted((relative_luminance(a), relative_luminance(b)))
    return (y + 0.05) / (x + 0.05)


def axe_problems(page: Any) -> list[str]:
    """Every critical or serious axe-core violation on the page, one line per element."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {node['html'][:120]}"
        for v in found
        if v["impact"] in ("critical", "serious")
        for node in v["nodes"]
    ]


def shots(page: Any, name: str, target: Any, check: Callable[[], object] | None = None) -> None:
    """The same screen light and dark, at desktop and phone sizes, with ``target`` scrolled into view: saved as
    ``test-artifacts/screenshots/<name>-<theme>-<size>.png``; ``check()``, if given, runs before each."""
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        if not page.locator(f".cut-app.cut-app-{theme}").count():
            page.locator("button.cut-theme").first.click()
            expect(page.locator(f".cut-app.cut-app-{theme}")).to_be_visible()
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            # scrolled by the page itself: Playwright's own scroll waits for the target to hold still, which a panel
            # under a table that is still redrawing (an analysis filling in above it) may not do within its timeout
            target.evaluate("e => e.scrollIntoView({block: 'nearest'})")
            page.wait_for_timeout(300)
            if check is not None:
                check()
            page.screenshot(path=str(SHOTS / f"{name}-{theme}-{size}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def open_setup(page: Any, server: str, query: str = "") -> None:
    """Open the app at its setup screen: a game left by another test, offered first, is set aside."""
    page.goto(server + query)
    page.get_by_role("button", name=re.compile("^(Start new|Deal & play)$")).first.wait_for()
    start_new = page.get_by_role("button", name="Start new")
    if start_new.is_visible():
        start_new.click()


def deal(page: Any, server: str, query: str = "", pacing: str = "Auto", seed: str = SEED) -> None:
    """Open the app and deal the known game, or the game of ``seed`` (Auto pacing unless told)."""
    from playwright.sync_api import expect

    open_setup(page, server, query)
    page.locator(".widget-toggle-buttons", has_text="AI pacing").get_by_role("button", name=pacing).click()
    page.get_by_placeholder("random").fill(seed)
    page.get_by_placeholder("random").press("Tab")
    page.get_by_role("button", name="Deal & play").click()
    # Auto: the AI seats before you have played; Step: they wait for Next
    expect(page.locator(".cut-status")).to_have_text(
        "Your turn" if pacing == "Auto" else re.compile("to play$|^Your turn$")
    )
    page.evaluate("window.scrollTo(0, 0)")
