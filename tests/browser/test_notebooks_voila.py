"""Every notebook of the learning path renders in Voilà: executed by a real Voilà server, without an error."""

from __future__ import annotations

import html
import json
import sys
import urllib.request
from collections.abc import Iterator

import pytest
from serving import ROOT, free_port, voila_server

NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9]*.ipynb"))

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def voila() -> Iterator[str]:
    port = free_port()
    command = [sys.executable, "-m", "voila", "notebooks", f"--port={port}", "--Voila.ip=127.0.0.1", "--no-browser"]
    with voila_server(command, port) as url:
        yield url


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_renders_in_voila(voila: str, name: str) -> None:
    with urllib.request.urlopen(f"{voila}/voila/render/{name}", timeout=300) as response:
        page = response.read().decode("utf-8")
        assert response.status == 200
    assert "Traceback" not in page and "There was an error when executing cell" not in page
    cells = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    goal = "".join(cells[0]["source"]).splitlines()[0].lstrip("# ").strip()
    assert goal in html.unescape(page)  # the goal heading was rendered
