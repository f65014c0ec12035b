"""The tutor as a web app: the dashboard notebook and the built guide ship inside the package.

Both are found with :mod:`importlib.resources`, so ``cut-tutor dashboard`` works from a wheel as well as from a
source checkout. The guide is built when the package is built (``setup.py``) or by ``make guide`` in a checkout.

>>> notebook().name
'dashboard.ipynb'
>>> GUIDE_ROUTE
'cut-tutor/guide/'
"""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

#: Where the guide is served, below the Jupyter base URL (``/``, ``/user/<name>/`` on JupyterHub and Binder).
GUIDE_ROUTE = "cut-tutor/guide/"


def _here() -> Path:
    with as_file(files(__name__)) as path:  # a real directory for an installed or an editable package
        return Path(path)


def notebook() -> Path:
    """The dashboard notebook Voilà renders: the game picker (CUT, Clear 4, Card Clear) over the game it shows."""
    return _here() / "dashboard.ipynb"


def class_notebook() -> Path:
    """The class's page Voilà renders for a teacher (:mod:`cut_tutor.widgets.class_page`): read-only."""
    return _here() / "class.ipynb"


def guide_dir() -> Path:
    """The built player's guide (its ``index.html`` exists once the guide has been built)."""
    return _here() / "guide"
