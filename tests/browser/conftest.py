"""What the browser tests share: the dashboard served by Voilà, one server per test module that asks for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from serving import CHROMIUM, free_port, voila_server

from cut_tutor import dashboard
from cut_tutor.cli import voila_command


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The dashboard's URL; a module that needs another server (the guide built first …) defines its own."""
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    port = free_port()
    with voila_server(voila_command(dashboard.notebook(), port), port) as url:
        yield url + "/"
