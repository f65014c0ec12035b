"""MkDocs hooks: the printed guide's running header names the tutor's version, read from the package's one
``__version__`` line, so a printout says which guide it is without a second copy of the number to keep in step.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

#: The placeholder the print stylesheet's header carries in the sources.
PLACEHOLDER = "{version}"


def version() -> str:
    """The package's version, read as text: the guide is built where the package's dependencies may be missing."""
    init = Path(__file__).resolve().parents[1] / "cut_tutor" / "__init__.py"
    found = re.search(r'^__version__ = "([^"]+)"$', init.read_text(encoding="utf-8"), flags=re.MULTILINE)
    if found is None:
        raise ValueError(f"{init} has no __version__ line")
    return found.group(1)


def on_post_build(config: Any, **_: Any) -> None:
    """Put the version into the built print stylesheet's header."""
    css = Path(config["site_dir"]) / "css" / "print.css"
    text = css.read_text(encoding="utf-8")
    if PLACEHOLDER not in text:
        raise ValueError(f"{css} has no {PLACEHOLDER} in its header")
    css.write_text(text.replace(PLACEHOLDER, version()), encoding="utf-8")
