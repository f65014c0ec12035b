"""Test-wide settings and fixtures: under CI, Hypothesis replays a fixed set of examples so a run is reproducible;
the Binder environment is built once for the tests that need it; a browser test module gets the dashboard served."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
#: pip messages that mean this machine cannot reach the packages, not that the environment is wrong.
UNREACHABLE = ("No matching distribution found", "Could not find a version", "Failed to establish a new connection")

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def run_in(args: list[str], env: dict[str, str], timeout: int = 300) -> subprocess.CompletedProcess[str]:
    """A command from the repository root, as repo2docker runs Binder's steps."""
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """What repo2docker builds: a fresh Python with exactly ``binder/requirements.txt`` (the lock), then
    ``binder/postBuild`` from the repository root. Returns its ``bin`` folder and the environment to run in it."""
    venv = tmp_path_factory.mktemp("binder") / "env"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    bin_dir = venv / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH")}
    env |= {"PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "VIRTUAL_ENV": str(venv),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1"}  # fmt: skip
    lock = str(ROOT / "binder" / "requirements.txt")
    install = run_in([str(bin_dir / "python"), "-m", "pip", "install", "-q", "-r", lock], env, 900)
    if install.returncode and any(text in install.stderr for text in UNREACHABLE):
        pytest.skip(f"the package index is not reachable from here: {install.stderr.strip()[-300:]}")
    assert install.returncode == 0, install.stderr[-3000:]
    post = run_in([str(ROOT / "binder" / "postBuild")], env)
    assert post.returncode == 0, post.stderr[-3000:]
    return bin_dir, env


@pytest.fixture(autouse=True)
def _no_automatic_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished hand starts its review in the background; only the review room's own tests want that, the
    others' finished hands would each keep a core busy (the browser tests' servers review as learners see)."""
    from cut_tutor.widgets.review_room import ReviewRoom

    monkeypatch.setattr(ReviewRoom, "automatic", False)


@pytest.fixture(autouse=True)
def _no_automatic_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A recommendation starts its verdict line's evaluation in the background; only the verdict line's own tests
    want that, the others' would each keep a core busy and find their positions evaluated already."""
    from cut_tutor.widgets.coach_panel import CoachPanel

    monkeypatch.setattr(CoachPanel, "verdicts", False)


@pytest.fixture(autouse=True)
def _fresh_evaluations() -> None:
    """Each test starts with no position evaluated: the process keeps one evaluation per position, and a test
    that counts or spies on rollouts must not find another test's."""
    from cut_tutor.analysis.evaluations import forget

    forget()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The dashboard served by Voilà for one browser test module, its URL (a module that needs another server, the
    guide built first …, defines its own). ``serving`` is the browser tests' harness, on the path once one runs."""
    from serving import CHROMIUM, free_port, voila_server

    from cut_tutor import dashboard
    from cut_tutor.cli import voila_command

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH")
    port = free_port()
    with voila_server(voila_command(dashboard.notebook(), port), port) as url:
        yield url + "/"
