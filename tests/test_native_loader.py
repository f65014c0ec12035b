"""Which path computes (``cut_tutor.compiled``): the compiled core when built, the Python path when
``CUT_TUTOR_PURE=1`` or when the core is missing (said once), and ``cut-tutor --version`` names it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What each process reports: the active path, whether the module is there, and the warnings it gave.
REPORT = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import cut_tutor.compiled as compiled
    import cut_tutor.compiled
print(compiled.ACTIVE)
print(compiled.NATIVE is not None)
print(len(caught), *[str(w.message) for w in caught])
"""


def run(code: str, tmp_path: Path, **env: str) -> list[str]:
    """Run ``code`` in a fresh interpreter with this checkout first on the path, and ``env`` set."""
    environ = {k: v for k, v in os.environ.items() if k != "CUT_TUTOR_PURE"}
    environ |= {"PYTHONPATH": os.pathsep.join([env.pop("PYTHONPATH", str(ROOT)), environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], env=environ | env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def test_pure_forces_the_python_path(tmp_path: Path) -> None:
    assert run(REPORT, tmp_path, CUT_TUTOR_PURE="1") == ["Python path (CUT_TUTOR_PURE=1)", "False", "0"]


def test_without_pure_the_built_core_is_used(tmp_path: Path) -> None:
    built = any((ROOT / "cut_tutor").glob("_native*.so"))
    expected = ["compiled core", "True", "0"] if built else ["Python path (compiled core not built)", "False"]
    assert run(REPORT, tmp_path, CUT_TUTOR_PURE="0")[: len(expected)] == expected


def test_a_missing_core_falls_back_and_says_so_once(tmp_path: Path) -> None:
    """A copy of the package without the built module: it imports, plays on the Python path, warns once."""
    import shutil

    shutil.copytree(ROOT / "cut_tutor", tmp_path / "src" / "cut_tutor",
                    ignore=shutil.ignore_patterns("_native*.so", "__pycache__", "guide"))  # fmt: skip
    code = REPORT + "from cut_tutor import Rules, State\nprint(len(State.deal(Rules(), seed=1).legal_moves()) > 0)\n"
    lines = run(code, tmp_path, PYTHONPATH=str(tmp_path / "src"))
    assert lines[:2] == ["Python path (compiled core not built)", "False"]
    assert lines[2].startswith("1 cut_tutor runs on the Python path: the compiled core is not built here")
    assert lines[3] == "True"


def test_version_names_the_path(tmp_path: Path) -> None:
    import cut_tutor

    code = "from cut_tutor.compiled import ACTIVE; print(ACTIVE); from cut_tutor.cli import main; main(['--version'])"
    for pure in ("1", "0"):
        active, line = run(code, tmp_path, CUT_TUTOR_PURE=pure)
        assert line == f"cut-tutor {cut_tutor.__version__}: {active}"
    assert active != "Python path (CUT_TUTOR_PURE=1)" and run(code, tmp_path, CUT_TUTOR_PURE="1")[0] == (
        "Python path (CUT_TUTOR_PURE=1)"
    )
