"""Which path computes: the compiled core (``cut_tutor._native``, built from ``cut_tutor/native/``) or the Python
code it mirrors, which stays the readable reference and the fallback. Both give the same numbers for a seed.

The core is used when it is built, unless ``CUT_TUTOR_PURE=1`` asks for the Python path (to compare the two, or to
rule the core out). When it is missing the package still works, on the Python path, and says so once.

>>> ACTIVE in ("compiled core", "Python path (CUT_TUTOR_PURE=1)", "Python path (compiled core not built)") or ACTIVE
True
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType

#: Set to ``1`` to run on the Python path even where the compiled core is built.
PURE_VARIABLE = "CUT_TUTOR_PURE"


def _load() -> tuple[ModuleType | None, str]:
    """The compiled module (None on the Python path) and the phrase that names the path, for ``--version``."""
    if os.environ.get(PURE_VARIABLE) == "1":
        return None, f"Python path ({PURE_VARIABLE}=1)"
    try:
        module = importlib.import_module("cut_tutor._native")
    except ImportError as error:
        # Once per process: this module is imported once.
        warnings.warn(f"cut_tutor runs on the Python path: the compiled core is not built here ({error})",
                      RuntimeWarning, stacklevel=2)  # fmt: skip
        return None, "Python path (compiled core not built)"
    return module, "compiled core"


#: ``cut_tutor._native`` when the compiled core computes, None on the Python path.
NATIVE, ACTIVE = _load()
