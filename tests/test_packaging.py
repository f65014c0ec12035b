"""The package as a user installs it: metadata, one version, the launcher's command line and its signals."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import tomllib
from importlib import metadata, resources
from pathlib import Path

import pytest

import cut_tutor
from cut_tutor.cli import main

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_one_version_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert "version" in PYPROJECT["dynamic"] and "version" not in PYPROJECT
    assert metadata.version("cut_tutor") == cut_tutor.__version__
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"cut-tutor {cut_tutor.__version__}"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog or f"## [{cut_tutor.__version__}]" in changelog


def test_metadata_a_package_index_shows() -> None:
    assert PYPROJECT["readme"] == "README.md" and PYPROJECT["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    for classifier in ("Framework :: Jupyter", "Framework :: Jupyter :: JupyterLab", "Topic :: Games/Entertainment",
                       "Typing :: Typed"):  # fmt: skip
        assert classifier in PYPROJECT["classifiers"]
    assert {"Homepage", "Source", "Changelog"} <= set(PYPROJECT["urls"])
    assert resources.files("cut_tutor").joinpath("py.typed").is_file()


def test_extras_by_use() -> None:
    extras = PYPROJECT["optional-dependencies"]
    assert {"widgets", "dashboard", "lab", "sim", "docs", "test", "dev"} <= set(extras)
    names = {extra: {req.split("[")[0].split(">")[0].split("=")[0] for req in reqs} for extra, reqs in extras.items()}
    assert names["widgets"] == {"ipywidgets", "anywidget", "traitlets"}, "widgets alone must not pull Voilà or Lab"
    assert "voila" in names["dashboard"] and "jupyterlab" not in names["dashboard"]
    assert "jupyterlab" in names["lab"]
    for reqs in extras.values():
        for req in reqs:
            assert req.startswith("cut_tutor[") or ">=" in req or req == "pandas-stubs", f"{req}: no lower bound"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_launcher_stops_voila(tmp_path: Path, sig: signal.Signals) -> None:
    port = _free_port()
    command = [sys.executable, "-m", "cut_tutor.cli", "dashboard", "--no-browser", f"--port={port}",
               f"--home={tmp_path / 'home'}"]  # fmt: skip
    launcher = subprocess.Popen(command, cwd=tmp_path, env=os.environ | {"PYTHONUNBUFFERED": "1"},
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while not _listening(port):
            assert launcher.poll() is None, launcher.communicate()[0]
            assert time.monotonic() < deadline, "Voilà did not start"
            time.sleep(0.2)
        launcher.send_signal(sig)
        out, _ = launcher.communicate(timeout=30)
        assert f"http://127.0.0.1:{port}/" in out
        deadline = time.monotonic() + 10
        while _listening(port) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _listening(port), "Voilà kept running after the launcher stopped"
    finally:
        if launcher.poll() is None:
            launcher.kill()
