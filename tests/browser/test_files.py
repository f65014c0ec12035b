"""Nothing served but the guide: against the real dashboard server, every way of spelling a path to the saves, the
history, the repository's files or the system's is refused on both routes that serve files."""

from __future__ import annotations

import http.client

import pytest
from serving import ROOT, free_port, voila_server

from cut_tutor import dashboard
from cut_tutor.cli import voila_command

pytestmark = [pytest.mark.timeout(300)]

#: Targets outside the guide, each reached from the guide's folder, from the notebook's and by absolute path.
TARGETS = ["save.json", "history.sqlite", "pyproject.toml", ".git/HEAD", "cut_tutor/dashboard/voila.json"]
SPELLINGS = ["../../{t}", "..%2f..%2f{t}", "..%252f..%252f{t}", "%2e%2e/%2e%2e/{t}", "..\\..\\{t}", "/{t}", "//{t}"]


def _status(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path)  # exactly as written
    response = connection.getresponse()
    return response.status, response.read()


def test_only_the_guide_is_served() -> None:
    port = free_port()
    with voila_server(voila_command(dashboard.notebook(), port), port):
        refused = 0
        for route in ("/cut-tutor/guide/", "/voila/files/", "/voila/static/", "/voila/templates/"):
            for target in [*TARGETS, str(ROOT / "pyproject.toml").lstrip("/"), "etc/passwd"]:
                for spelling in SPELLINGS:
                    status, body = _status(port, route + spelling.format(t=target))
                    # the guide's and the files' routes refuse plainly; Voilà's own asset routes may fail instead
                    allowed = (
                        (400, 403, 404) if route in ("/cut-tutor/guide/", "/voila/files/") else (400, 403, 404, 500)
                    )
                    assert status in allowed, (route, spelling, target, status)
                    assert b"[project]" not in body and b"root:" not in body and b'"hands"' not in body
                    refused += 1
        assert refused == 4 * 7 * len(SPELLINGS)
        assert _status(port, "/voila/files/dashboard.ipynb")[0] == 403, "Voilà serves no file of its own folder"
