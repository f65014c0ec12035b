"""The package as a user installs it: metadata, one version, the launcher's command line and its signals."""

from __future__ import annotations

import contextlib
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
from cut_tutor.compiled import ACTIVE

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_one_version_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert "version" in PYPROJECT["dynamic"] and "version" not in PYPROJECT
    assert metadata.version("cut_tutor") == cut_tutor.__version__
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"cut-tutor {cut_tutor.__version__}: {ACTIVE}"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog or f"## [{cut_tutor.__version__}]" in changelog


def test_python_m_runs_the_same_command(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m cut_tutor`` is ``cut-tutor``: the same output and exit status, bad input included."""
    env = os.environ | {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    for args, status in ((["cardclear", "show", "12-0"], 0), (["class", str(ROOT / "no such home")], 2)):
        run = subprocess.run([sys.executable, "-m", "cut_tutor", *args], env=env, capture_output=True, text=True,
                             timeout=120)  # fmt: skip
        assert main(args) == run.returncode == status
        printed = capsys.readouterr()
        assert (run.stdout, run.stderr) == (printed.out, printed.err) and (run.stdout or run.stderr)


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
    # matplotlib draws the progress plot the app shows: every extra that ships the app must install it
    assert names["widgets"] == {"ipywidgets", "anywidget", "traitlets", "matplotlib"}, "no Voilà or Lab in widgets"
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


def _launch(launcher: list[str], home: Path, cwd: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    """``cut-tutor dashboard`` on a free port, once Voilà listens: the process and its port."""
    port = _free_port()
    command = [*launcher, "dashboard", "--no-browser", f"--port={port}", f"--home={home}"]
    # A session of its own, so that a failed test can stop Voilà with the launcher (``_kill``).
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while not _listening(port):
        if process.poll() is not None or time.monotonic() > deadline:
            _kill(process)
            raise AssertionError(f"Voilà did not start:\n{process.communicate()[0][-3000:]}")
        time.sleep(0.2)
    return process, port


def _kill(process: subprocess.Popen[str]) -> None:
    """Kill a launcher and whatever of its session still runs (its Voilà), so no server outlives the test."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


@pytest.mark.timeout(240)  # beyond the launch's 120 s, the 60 s to stop and the 10 s to let go of the port
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_launcher_stops_voila(tmp_path: Path, sig: signal.Signals) -> None:
    env = os.environ | {"PYTHONUNBUFFERED": "1"}
    launcher, port = _launch([sys.executable, "-m", "cut_tutor.cli"], tmp_path / "home", tmp_path, env)
    try:
        launcher.send_signal(sig)
        out, _ = launcher.communicate(timeout=60)
        assert f"http://127.0.0.1:{port}/" in out
        deadline = time.monotonic() + 10
        while _listening(port) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _listening(port), "Voilà kept running after the launcher stopped"
    finally:
        _kill(launcher)


#: A stand-in for Voilà: reports its pid, ignores SIGINT, and on SIGTERM exits 0, or ignores that too if told.
STUBBORN = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN if sys.argv[1] == "deaf" else lambda *_: sys.exit(0))
print(os.getpid(), flush=True)
time.sleep(600)
"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("child", ["stops on SIGTERM", "deaf"])
def test_the_launcher_stops_a_server_that_misses_ctrl_c(tmp_path: Path, child: str) -> None:
    """A SIGINT to the launcher reaches the server as SIGTERM; a server deaf to both is killed after the grace."""
    script = tmp_path / "child.py"
    script.write_text(STUBBORN)
    launcher = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys; from cut_tutor.cli import _wait_forwarding_signals as w;"
         f" sys.exit(w(subprocess.Popen([sys.executable, {str(script)!r}, {child.split()[0]!r}]), grace=5.0))"],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert launcher.stdout is not None
        server = int(launcher.stdout.readline())
        start = time.monotonic()
        launcher.send_signal(signal.SIGINT)
        code = launcher.wait(timeout=30)
        took = time.monotonic() - start
        assert not Path(f"/proc/{server}").exists(), "the server outlived the launcher"
        if child == "deaf":
            assert code == -signal.SIGKILL % 256 and took >= 5.0  # the killed server's status, passed on
        else:
            assert code == 0 and took < 5.0
    finally:
        _kill(launcher)


def _fresh_venv(where: Path) -> tuple[Path, dict[str, str]]:
    """A new virtual environment outside the checkout, with nothing of this one's on its path."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH")}
    env |= {"PATH": f"{where / 'bin'}{os.pathsep}{env.get('PATH', '')}", "VIRTUAL_ENV": str(where),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1"}  # fmt: skip
    return where / "bin", env


def _build(kind: str, out: Path) -> Path:
    """Build the sdist or wheel of this checkout (the guide is built into the wheel by setup.py)."""
    subprocess.run([sys.executable, "-m", "build", f"--{kind}", "--no-isolation", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    [built] = out.glob("*.tar.gz" if kind == "sdist" else "*.whl")
    return built


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_sdist_holds_the_whole_project_and_its_tests_run(tmp_path: Path) -> None:
    import tarfile

    with tarfile.open(_build("sdist", tmp_path / "dist")) as archive:
        archive.extractall(tmp_path / "src", filter="data")
    [src] = (tmp_path / "src").iterdir()
    folders = ["tests", "notebooks", "guide", "binder", "cut_tutor", "deploy"]
    listing = subprocess.run(["git", "ls-files", *folders], cwd=ROOT, capture_output=True, text=True, check=True)
    tracked = listing.stdout.split()
    missing = [path for path in tracked if (ROOT / path).exists() and not (src / path).exists()]
    assert not missing, f"the sdist lacks {missing[:10]}"
    for path in ("LICENSE", "CHANGELOG.md", "README.md", "setup.py", "jupyter-config/cut_tutor.json"):
        assert (src / path).is_file(), path
    env = os.environ | {"PYTHONPATH": str(src), "CUT_TUTOR_HOME": str(tmp_path / "home")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_rules.py",
                          "tests/test_playthroughs.py", "tests/test_codes_storage.py"],
                         cwd=src, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and str(src) in subprocess.run(
        [sys.executable, "-c", "import cut_tutor; print(cut_tutor.__file__)"], cwd=src, env=env,
        capture_output=True, text=True, check=True).stdout  # fmt: skip


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_wheel_in_a_fresh_environment_serves_the_dashboard_and_its_guide(tmp_path: Path) -> None:
    wheel = _build("wheel", tmp_path / "dist")
    bin_dir, env = _fresh_venv(tmp_path / "env")
    install = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", f"{wheel}[dashboard]"],
                             env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert install.returncode == 0, install.stderr[-3000:]
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    where = subprocess.run([str(bin_dir / "python"), "-c", "import cut_tutor; print(cut_tutor.__file__)"],
                           cwd=outside, env=env, capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert not Path(where.strip()).is_relative_to(ROOT), "the installed package, not this checkout"
    template = bin_dir.parent / "share" / "jupyter" / "voila" / "templates" / "cut_tutor"
    assert (template / "index.html.j2").is_file(), "the notebook's template where a plain `voila` looks"

    launcher, port = _launch([str(bin_dir / "cut-tutor")], tmp_path / "home", outside, env)
    try:
        import http.client

        def status(path: str) -> int:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", path)
            return connection.getresponse().status

        assert status("/") == 200
        assert status("/cut-tutor/guide/glossary.html") == 200
        assert status("/cut-tutor/guide/..%2f..%2f__init__.py") == 404
        assert status("/voila/files/dashboard.ipynb") == 403
    finally:
        launcher.send_signal(signal.SIGTERM)
        try:
            launcher.communicate(timeout=60)
        finally:
            _kill(launcher)


def test_the_tutor_home_is_the_users_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ipywidgets")
    from cut_tutor.widgets.shared import default_home

    monkeypatch.delenv("CUT_TUTOR_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_home() == tmp_path / "data" / "cut_tutor"
    (tmp_path / ".cut_tutor").mkdir()  # an earlier version's folder keeps being used: no game is left behind
    assert default_home() == tmp_path / ".cut_tutor"
    monkeypatch.setenv("CUT_TUTOR_HOME", str(tmp_path / "class" / "ann"))
    assert default_home() == tmp_path / "class" / "ann"
