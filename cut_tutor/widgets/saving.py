"""What the app says when the tutor home or a save cannot be used: in plain words, with what to do.

The play loop asks here before it saves and after a save fails, and for the kernel and the tab a claim on a game
names; nothing here changes a game.
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
from collections.abc import Iterable
from html import escape
from pathlib import Path

from cut_tutor.storage.files import disk_reason

#: Where the paths and errors go that a learner is told about only in plain words.
LOG = logging.getLogger(__name__)


def kernel_id() -> str:
    """The kernel this app runs in, as a claim on a game names it (its process when there is no kernel)."""
    try:
        from ipykernel import get_connection_file

        name = Path(get_connection_file()).stem
    except (ImportError, RuntimeError, AttributeError):
        return f"process {os.getpid()}"
    return "kernel " + name.removeprefix("kernel-")


#: Between the browser tab's id and the kernel's own token in a claim's holder.
_PAGE_SEP = "/"


def holder_name(page: str | None = None) -> str:
    """A claim's holder: a token of this kernel's own, after the id of the browser tab it draws (when the page has
    named it). A reload of that tab starts a new kernel: the two hold a game apart, yet the new one knows the game
    it offers was played in this very tab, not in another."""
    token = secrets.token_hex(6)
    return f"{page}{_PAGE_SEP}{token}" if page else token


def same_page(holder: str, other: str) -> bool:
    """Whether two holders are kernels of one browser tab (it was reloaded in between)."""
    page, sep, _ = holder.partition(_PAGE_SEP)
    return bool(sep) and other.partition(_PAGE_SEP)[:2] == (page, sep)


def probe_home(home: Path) -> str:
    """Why saving is off for this session, or ``""``: the tutor home must be a folder this user can write. Its
    path, a place on the server, goes to the log only."""
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        LOG.warning("tutor home %s cannot be made: %s", home, exc)
        return f"Saving is off: your folder for saved games cannot be made ({disk_reason(exc)})."
    if not os.access(home, os.W_OK | os.X_OK):
        LOG.warning("tutor home %s cannot be written", home)
        return "Saving is off: your folder for saved games cannot be written."
    return ""


def cannot_save(exc: OSError, what: str) -> str:
    """A save that failed, and what became of the change (``what``); the file's path goes to the log only."""
    LOG.warning("a save failed: %s", exc)
    full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
    advice = "free some space and try again" if full else "try again"
    return f"the game could not be saved ({disk_reason(exc)}), so {what}: {advice}"


def notice_html(save_problem: str, others: Iterable[str]) -> str:
    """The notice above the table: every problem with the save or the history, or nothing."""
    problems = [save_problem, *others]
    if save_problem:
        problems.append("Games play on but are not kept: set CUT_TUTOR_HOME to a folder you can write.")
    text = " ".join(escape(p) for p in problems if p)
    return f'<div class="cut-notice" role="alert">⚠️ {text}</div>' if text else ""
