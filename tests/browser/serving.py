"""Shared pieces of the real-browser tests: a Voilà server on 127.0.0.1 and Debian's Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium")
#: As root in a sandbox, with the machine's closed network: no sandbox, no background traffic.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def voila_server(command: list[str], port: int) -> Iterator[str]:
    """Run a Voilà command line (serving ``port``) with its own tutor home; yield its URL once it answers."""
    home = tempfile.mkdtemp(prefix="cut-home-")
    env = os.environ | {"CUT_TUTOR_HOME": home, "PYTHONUNBUFFERED": "1"}
    log_path = Path(home) / "voila.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    with urllib.request.urlopen(url + "/", timeout=5):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(log_path.read_text()) from None
                    time.sleep(0.5)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
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
