"""The guide's route: every file of the built guide and nothing outside it, however the path is spelled; and what
the package's server extension gives a Jupyter server's Voilà: the dashboard's handlers and executor settings."""

from __future__ import annotations

import asyncio
import http.client
import logging
import os
import socket
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("voila")
import tornado.web

from cut_tutor.dashboard import GUIDE_ROUTE
from cut_tutor.dashboard.server import guide_handlers

#: Ways to reach a file beside the guide, not in it: dot segments, encoded slashes and dots, double encoding,
#: backslashes and absolute paths.
ESCAPES = [
    "../secret.json",
    "..%2fsecret.json",
    "..%2Fsecret.json",
    "%2e%2e/secret.json",
    "%2e%2e%2fsecret.json",
    "%252e%252e%252fsecret.json",
    "..%5csecret.json",
    "css/../../secret.json",
    "css/..%2f..%2fsecret.json",
    "%2fetc%2fpasswd",
    "/etc/passwd",
    "//etc/passwd",
    "link/secret.json",
]
#: Paths no file of the guide has, spelled oddly: an encoded NUL byte, dot segments alone, very long names and
#: deep paths, encoded slashes and backslashes, invalid UTF-8.
ODD = [
    "%00",
    "index.html%00",
    "%00/index.html",
    "css/%00.css",
    "%2e%2e",
    "%2e%2e%00",
    "a" * 5000,
    "a/" * 3000,
    ("b" * 250 + "/") * 40,
    "css%5cprint.css",
    "\\etc\\passwd",
    "%ff",
    "%c0%ae%c0%ae/",
]


def _get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)  # sent exactly as written: no client-side normalising
    response = connection.getresponse()
    return response.status, response.read()


def _serve(root: Path, paths: list[str], base_url: str = "/") -> list[tuple[int, bytes]]:
    async def main() -> list[tuple[int, bytes]]:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        server = tornado.web.Application(guide_handlers(base_url, root)).listen(port, "127.0.0.1")
        try:
            return [await asyncio.to_thread(_get, port, base_url + GUIDE_ROUTE + path) for path in paths]
        finally:
            server.stop()

    return asyncio.run(main())


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A small built guide with a secret save beside it and a symlink that points out of it."""
    root = tmp_path / "guide"
    (root / "css").mkdir(parents=True)
    (root / "index.html").write_text("<h1>Guide</h1>", encoding="utf-8")
    (root / "css" / "print.css").write_text("@page {}", encoding="utf-8")
    (tmp_path / "secret.json").write_text('{"hidden": "K"}', encoding="utf-8")
    (root / "link").symlink_to(tmp_path)
    return root


def test_the_guide_is_served(site: Path) -> None:
    (index, body), (css, _), (default, _) = _serve(site, ["index.html", "css/print.css", ""])
    assert (index, css, default) == (200, 200, 200) and b"Guide" in body


def test_the_guide_is_served_below_a_base_url(site: Path) -> None:
    [(status, _)] = _serve(site, ["index.html"], base_url="/user/learner/")
    assert status == 200


@pytest.mark.parametrize("path", ESCAPES)
def test_nothing_outside_the_guide(site: Path, path: str) -> None:
    [(status, body)] = _serve(site, [path])
    assert status in (400, 403, 404), (path, status)
    assert b"hidden" not in body and b"root:" not in body


@pytest.mark.parametrize("path", ODD)
def test_an_odd_path_is_not_found_without_a_fault(site: Path, path: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        [(status, _)] = _serve(site, [path])
    assert status in (400, 404), (path[:40], status)
    faults = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert faults == [], [r.getMessage()[:200] for r in faults]


def test_the_notebook_names_the_offline_template_voila_then_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Jupyter server's own Voilà renders the dashboard with the template its metadata names, looked up on the
    Jupyter data path, where the package's server extension puts the package's data (once, however often)."""
    import json

    from voila.paths import collect_template_paths

    from cut_tutor import dashboard
    from cut_tutor.dashboard.server import JUPYTER_DATA, with_package_data

    metadata = json.loads(dashboard.notebook().read_text(encoding="utf-8"))["metadata"]
    assert metadata["voila"]["template"] == "cut_tutor"
    monkeypatch.setenv("JUPYTER_PATH", "/elsewhere")
    with_package_data()
    with_package_data()
    assert os.environ["JUPYTER_PATH"].split(os.pathsep) == [str(JUPYTER_DATA), "/elsewhere"]
    found = [Path(p) for p in collect_template_paths(["voila", "nbconvert"], "cut_tutor")]
    assert JUPYTER_DATA / "voila" / "templates" / "cut_tutor" in found


def _lab_server(config: dict[str, Any]) -> SimpleNamespace:
    """What the package's server extension uses of a Jupyter server: its config, its web app and base URL."""
    from traitlets.config import Config

    return SimpleNamespace(config=Config(config), web_app=tornado.web.Application(), base_url="/")


def test_a_jupyter_servers_voila_runs_the_dashboards_cell_as_the_standalone_one_does() -> None:
    """The page's executor gets ``voila.json``'s timeout for the widget messages under ``/voila/render/`` too: the
    file the standalone command line names, read once; a busy server does not give the first cell up early."""
    import nbformat
    from traitlets.config.loader import JSONFileConfigLoader
    from voila.execute import VoilaExecutor

    from cut_tutor import dashboard
    from cut_tutor.cli import voila_command
    from cut_tutor.dashboard.server import _load_jupyter_server_extension

    [paths] = [arg.split("=", 1)[1] for arg in voila_command(dashboard.notebook(), 1) if "config_file_paths" in arg]
    standalone = JSONFileConfigLoader("voila.json", path=paths).load_config()
    server = _lab_server({})
    _load_jupyter_server_extension(server)
    nb = nbformat.v4.new_notebook()
    timeout = VoilaExecutor(nb, config=standalone).iopub_timeout
    assert timeout != VoilaExecutor(nb).iopub_timeout, "voila.json sets the timeout"
    assert VoilaExecutor(nb, config=server.config).iopub_timeout == timeout
    assert (
        VoilaExecutor(nb, config=server.config).store_widget_state
        == VoilaExecutor(nb, config=standalone).store_widget_state
    )


def test_a_jupyter_servers_own_executor_setting_stays() -> None:
    from cut_tutor.dashboard.server import _load_jupyter_server_extension

    server = _lab_server({"VoilaExecutor": {"iopub_timeout": 7}})
    _load_jupyter_server_extension(server)
    assert server.config.VoilaExecutor.iopub_timeout == 7


def test_a_jupyter_servers_voila_pages_are_the_dashboards() -> None:
    """Voilà's page and leaving routes, added after the package's extension loaded, are served by the standalone
    dashboard's handlers once the server starts: the page sets the ``_xsrf`` cookie leaving it needs."""
    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
    from voila.tornado.handler import TornadoVoilaHandler

    from cut_tutor.dashboard.server import (
        LearnerShutdownHandler,
        TutorPageHandler,
        _load_jupyter_server_extension,
        _start_jupyter_server_extension,
    )

    server = _lab_server({})
    _load_jupyter_server_extension(server)
    server.web_app.add_handlers(".*$", [("/voila/render/(.*)", TornadoVoilaHandler, {}),
                                        ("/voila/api/shutdown/(.*)", VoilaShutdownKernelHandler)])  # fmt: skip
    asyncio.run(_start_jupyter_server_extension(server))

    def handler(path: str) -> type:
        request = HTTPServerRequest(
            start_line=RequestStartLine("GET", path, "HTTP/1.1"), headers=HTTPHeaders({"Host": "127.0.0.1"})
        )
        return server.web_app.find_handler(request).handler_class  # type: ignore[no-any-return]

    assert handler("/voila/render/dashboard.ipynb") is TutorPageHandler
    assert handler("/voila/api/shutdown/1-2-3-4-5") is LearnerShutdownHandler
