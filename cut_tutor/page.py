"""The page code each widget sends the browser: what the pages share (``widgets/static/host.js``), then its own.

The CUT table and the Card Clear board are separate page modules, so the element maker and the reading of the
host's theme would otherwise be written in each.
"""

from __future__ import annotations

from pathlib import Path

#: The code both page modules share.
HOST = Path(__file__).parent / "widgets" / "static" / "host.js"


def page_module(*paths: Path) -> str:
    """A widget's page module, as anywidget takes it: the shared code, then the module's own files in order."""
    return "\n".join(path.read_text(encoding="utf-8") for path in (HOST, *paths))
