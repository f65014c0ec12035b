"""Build hook: a built package carries the player's guide (``cut_tutor/dashboard/guide``) its help links open, and
the compiled core (``cut_tutor._native``, from ``cut_tutor/native/*.cpp``) when a C++17 compiler is at hand.

Everything else about the package is declared in ``pyproject.toml``. An editable install reads the guide from the
source tree instead, where ``make guide`` builds it; it builds the compiled core into the source tree.
``CUT_TUTOR_NATIVE_FLAGS`` adds compiler and linker flags to the core's build (``make test-native-sanitized``).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent


class BuildWithGuide(build_py):
    """Build the Python package, then the guide into it with MkDocs (``--strict``: a broken link fails the build)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = (Path(self.build_lib) / "cut_tutor" / "dashboard" / "guide").resolve()
        config = HERE / "guide" / "mkdocs.yml"
        mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q", "--strict"]
        subprocess.run([*mkdocs, "-f", str(config), "-d", str(target)], check=True)


def native_extensions() -> list[Extension]:
    """The compiled core. Optional: without a compiler (or pybind11) the package installs and runs on its Python
    path. ``-ffp-contract=off`` keeps every float operation as written (no fused multiply-add), so the core's
    numbers match Python's bit for bit."""
    try:
        import pybind11
    except ImportError:
        return []
    native = HERE / "cut_tutor" / "native"
    sources = sorted(path.relative_to(HERE).as_posix() for path in native.glob("*.cpp"))
    headers = sorted(path.relative_to(HERE).as_posix() for path in native.glob("*.hpp"))
    extra = shlex.split(os.environ.get("CUT_TUTOR_NATIVE_FLAGS", ""))
    return [
        Extension(
            "cut_tutor._native",
            sources,
            include_dirs=[pybind11.get_include()],
            depends=headers,
            language="c++",
            extra_compile_args=["-std=c++17", "-O2", "-ffp-contract=off", "-fvisibility=hidden", *extra],
            extra_link_args=extra,
            optional=True,
        )
    ]


setup(cmdclass={"build_py": BuildWithGuide}, ext_modules=native_extensions())
