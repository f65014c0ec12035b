"""Every notebook of the learning path renders in Voilà: executed by a real Voilà server, without an error."""

from __future__ import annotations

import html
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9]*.ipynb"))

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def voila() -> Iterator[str]:
    home = tempfile.mkdtemp(prefix="cut-home-")
    port = free_port()
    env = os.environ | {"CUT_TUTOR_HOME": home, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "voila", "notebooks", f"--port={port}", "--Voila.ip=127.0.0.1", "--no-browser"]
    with open(Path(home) / "voila.log", "w") as log:
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
                        raise RuntimeError((Path(home) / "voila.log").read_text()) from None
                    time.sleep(0.5)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
    shutil.rmtree(home, ignore_errors=True)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_renders_in_voila(voila: str, name: str) -> None:
    with urllib.request.urlopen(f"{voila}/voila/render/{name}", timeout=300) as response:
        page = response.read().decode("utf-8")
        assert response.status == 200
    assert "Traceback" not in page and "There was an error when executing cell" not in page
    cells = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    goal = "".join(cells[0]["source"]).splitlines()[0].lstrip("# ").strip()
    assert goal in html.unescape(page)  # the goal heading was rendered
