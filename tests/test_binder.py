"""The Binder environment builds and runs the learning path, checked the way repo2docker would build it.

repo2docker installs ``binder/requirements.txt`` into a fresh Python, then runs ``binder/postBuild`` from the
repository root. This test does the same in a throwaway virtual environment (pip's cache keeps it quick) and
executes the first notebook with that environment's ``jupyter nbconvert``.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

import pytest
from conftest import run_in

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
NOTEBOOK = ROOT / "notebooks" / "01_your_first_game.ipynb"


def test_binder_files_are_what_repo2docker_reads() -> None:
    assert (BINDER / "requirements.txt").is_file()
    post = BINDER / "postBuild"
    assert post.is_file() and os.access(post, os.X_OK), "postBuild must be executable"
    assert "--no-deps -e ." in post.read_text(encoding="utf-8"), "the lock, not pip, decides every version"
    assert (BINDER / "runtime.txt").read_text(encoding="utf-8").strip().startswith("python-3.")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "urlpath=voila/render/cut_tutor/dashboard/dashboard.ipynb" in readme
    assert "urlpath=lab/tree/notebooks/01_your_first_game.ipynb" in readme


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_binder_requirements_are_a_full_lock() -> None:
    """Every package pinned, the tutor's own dependencies among them: next month's image is this program."""
    text = (BINDER / "requirements.txt").read_text(encoding="utf-8")
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    pins = dict(line.split("==") for line in lines if line)
    assert all(version and " " not in version for version in pins.values()), pins
    assert not [line for line in lines if line and "==" not in line], "every requirement is an exact pin"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    wanted = [*project["dependencies"], *extras["lab"], *extras["dashboard"], *extras["widgets"], *extras["sim"],
              *extras["docs"]]  # fmt: skip
    names = {re.split(r"[\[<>=!~ ]", req)[0].lower().replace("_", "-") for req in wanted}
    names.discard("cut-tutor")
    assert names <= set(pins), f"missing from the lock: {sorted(names - set(pins))}"


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_binder_environment_runs_a_notebook(binder_env: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = binder_env
    where = run_in([str(bin_dir / "python"), "-c", "import cut_tutor, voila; print(cut_tutor.__file__)"], env)
    assert where.returncode == 0, where.stderr[-3000:]
    assert Path(where.stdout.strip()).is_relative_to(ROOT), "postBuild must install this checkout (editable)"

    extensions = run_in([str(bin_dir / "jupyter"), "server", "extension", "list"], env)
    listed = extensions.stdout + extensions.stderr
    assert "voila" in listed, "voila/render needs the voila server extension"
    assert "cut_tutor.dashboard.server" in listed, "the guide's route needs the tutor's server extension"

    executed = run_in(
        [str(bin_dir / "jupyter"), "nbconvert", "--to", "notebook", "--execute", str(NOTEBOOK),
         "--output-dir", str(tmp_path), "--ExecutePreprocessor.timeout=120"],
        env,
    )  # fmt: skip
    assert executed.returncode == 0, executed.stderr[-3000:]
    notebook = json.loads((tmp_path / NOTEBOOK.name).read_text(encoding="utf-8"))
    errors = [o for c in notebook["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, errors


def _pins(path: Path) -> dict[str, str]:
    """``name==version`` lines of a requirements file, the names as PyPI compares them."""
    lines = [line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    pairs = [line.split("==") for line in lines if "==" in line]
    return {re.sub(r"[-_.]+", "-", name).lower(): version for name, version in pairs}


def test_the_lock_keeps_binders_base_environment_as_it_is() -> None:
    """repo2docker installs the lock over its base environment, whose notebook allows only the JupyterLab it came
    with: every package the base has stays at its version there, so ``pip check`` passes on Binder."""
    assert "-c base-env.txt" in (BINDER / "requirements.in").read_text(encoding="utf-8").splitlines()
    base, lock = _pins(BINDER / "base-env.txt"), _pins(BINDER / "requirements.txt")
    assert {"notebook", "jupyterlab", "jupyter-server"} <= set(base)
    moved = {name: (base[name], lock[name]) for name in base.keys() & lock.keys() if base[name] != lock[name]}
    assert not moved, f"the lock moves base packages (base, lock): {moved}"


def test_the_base_constraints_come_from_the_conda_lock_python_packages_only() -> None:
    import sys

    sys.path.insert(0, str(BINDER))
    try:
        from base_env import constraints
    finally:
        sys.path.remove(str(BINDER))
    lock = "\n".join(f"https://conda.anaconda.org/conda-forge/{name}#0" for name in (
        "linux-64/python-3.11.14-hd63d673_2_cpython.conda", "linux-64/openssl-3.5.4-h26f9b46_0.conda",
        "noarch/notebook-7.4.7-pyhd8ed1ab_0.conda", "linux-64/brotli-python-1.1.0-py311h1ddb823_4.conda",
        "noarch/nbconvert-core-7.16.6-pyh29332c3_0.conda"))  # fmt: skip
    assert constraints(lock) == ["brotli==1.1.0", "nbconvert==7.16.6", "notebook==7.4.7"]
