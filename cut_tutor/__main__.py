"""``python -m cut_tutor``: the ``cut-tutor`` command, for when the environment's scripts folder is not on the PATH."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
