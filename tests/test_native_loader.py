"""Which path computes (``cut_tutor.compiled``): the compiled core when built, the Python path when
``CUT_TUTOR_PURE=1`` or when the core is missing (said once), and ``cut-tutor --version`` names it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cut_tutor

#: The folder holding the package these tests import, for the fresh interpreters they start.
HERE = str(Path(cut_tutor.__file__).resolve().parents[1])
#: What each process reports: the active path, whether the module is loaded and whether it can be found, and the
#: warnings it gave (the loader imported twice).
REPORT = """
import importlib.util, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import cut_tutor.compiled as compiled
    import cut_tutor.compiled
print(compiled.ACTIVE)
print(compiled.NATIVE is not None, sys.modules.get("cut_tutor._native") is not None and
      importlib.util.find_spec("cut_tutor._native") is not None)
print(len(caught), *[str(w.message) for w in caught])
"""
#: The core made unimportable in that process, as where it was never built.
UNBUILT = 'import sys\nsys.modules["cut_tutor._native"] = None\n'


def run(code: str, tmp_path: Path, pure: str) -> list[str]:
    """Run ``code`` in a fresh interpreter on this package, with ``CUT_TUTOR_PURE`` set to ``pure``."""
    environ = os.environ | {"PYTHONPATH": os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]),
                            "CUT_TUTOR_PURE": pure}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], env=environ, cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def test_pure_forces_the_python_path(tmp_path: Path) -> None:
    assert run(REPORT, tmp_path, "1") == ["Python path (CUT_TUTOR_PURE=1)", "False False", "0"]


def test_without_pure_a_built_core_is_used(tmp_path: Path) -> None:
    active, loaded, warned = run(REPORT, tmp_path, "0")
    if loaded == "True True":
        assert (active, warned) == ("compiled core", "0")
    else:
        assert active == "Python path (compiled core not built)" and warned.startswith("1 ")


def test_a_missing_core_falls_back_and_says_so_once(tmp_path: Path) -> None:
    """Without the built module the package imports, plays on the Python path, and warns once."""
    play = "from cut_tutor import Rules, State\nprint(len(State.deal(Rules(), seed=1).legal_moves()))"
    code = UNBUILT + REPORT + play
    active, loaded, warned, moves = run(code, tmp_path, "0")
    assert (active, loaded) == ("Python path (compiled core not built)", "False False")
    assert warned.startswith("1 cut_tutor runs on the Python path: the compiled core is not built here")
    assert int(moves) > 0


def test_version_names_the_path(tmp_path: Path) -> None:
    code = "from cut_tutor.compiled import ACTIVE; print(ACTIVE); from cut_tutor.cli import main; main(['--version'])"
    seen = set()
    for prefix, pure in (("", "1"), ("", "0"), (UNBUILT, "0")):
        active, line = run(prefix + code, tmp_path, pure)
        assert line == f"cut-tutor {cut_tutor.__version__}: {active}"
        seen.add(active)
    assert {"Python path (CUT_TUTOR_PURE=1)", "Python path (compiled core not built)"} <= seen
