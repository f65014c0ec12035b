"""Build hook: a built package carries the player's guide (``cut_tutor/dashboard/guide``) its help links open.

Everything else about the package is declared in ``pyproject.toml``. An editable install reads the guide from the
source tree instead, where ``make guide`` builds it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithGuide(build_py):
    """Build the Python package, then the guide into it with MkDocs (``--strict``: a broken link fails the build)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = (Path(self.build_lib) / "cut_tutor" / "dashboard" / "guide").resolve()
        config = Path(__file__).parent / "guide" / "mkdocs.yml"
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--strict", "-f", str(config), "-d", str(target)],
                       check=True)  # fmt: skip


setup(cmdclass={"build_py": BuildWithGuide})
