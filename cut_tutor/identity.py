"""Who the learner is, as the server says: never as the page says.

Under JupyterHub the learner is the hub user whose server this is (``JUPYTERHUB_USER``: each learner's server runs
as their own system user, so nothing else can open their folder). On a class's dashboard (a tutor home holding a
roster, :mod:`cut_tutor.roster`) the learner signed in to the dashboard's server, which puts their name in a request
header it sets itself (any header of that name the browser sent is dropped first); Voilà hands the header to the
kernel as ``HTTP_X_CUT_TUTOR_LEARNER``, in its environment or, for a kernel started ahead of the request, through
Voilà's request channel from the server. Without either, on one's own machine, the browser names its learner.

>>> server_learner("/nowhere", {})  # one's own machine: the page names its learner
>>> server_learner("/nowhere", {"JUPYTERHUB_USER": "ann"})
'ann'
>>> learner_home("/srv/class", "ann").as_posix(), learner_home("/srv/class", "ann@school.org").name
('/srv/class/learners/ann', 'ann_school_org~eaf0c85868')
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from pathlib import Path

from .roster import LEARNER, ROSTER_FILE

#: The hub user a JupyterHub single-user server (and every kernel it starts) runs for.
HUB_USER = "JUPYTERHUB_USER"
#: The header the class's dashboard server sets to the signed-in learner (the browser's own is dropped).
LEARNER_HEADER = "X-Cut-Tutor-Learner"
#: The same header as Voilà hands it to the kernel (RFC 3875 naming).
LEARNER_ENV = "HTTP_" + LEARNER_HEADER.upper().replace("-", "_")


class IdentityError(ValueError):
    """No server says who the learner is where one must: a class's home opened without signing in."""


def class_home(home: str | os.PathLike[str]) -> bool:
    """Whether ``home`` holds a class (a roster), whose learners sign in to its dashboard."""
    return (Path(home) / ROSTER_FILE).is_file()


def server_learner(home: str | os.PathLike[str], environ: Mapping[str, str] | None = None) -> str | None:
    """The learner the server names for a tutor ``home``: the hub user, or on a class's dashboard the signed-in
    learner (waiting for the page's request when the kernel was started ahead of it); ``None`` when the page names
    its own learner (one's own machine). Raises :class:`IdentityError` on a class's home that no sign-in reached."""
    env = os.environ if environ is None else environ
    if env.get(HUB_USER):
        return env[HUB_USER]
    if not class_home(home):
        return None
    if environ is None and LEARNER_ENV not in env:
        from voila.utils import wait_for_request  # a kernel started ahead of its page learns the request now

        wait_for_request()
    learner = env.get(LEARNER_ENV)
    if not learner:
        raise IdentityError(f"{home} holds a class: its learners sign in to the class's dashboard to play")
    return learner


def learner_home(home: str | os.PathLike[str], learner: str) -> Path:
    """A learner's folder under ``<home>/learners``: their name, or for a hub name that is not a plain name (an
    e-mail address, say) its plain part and a short hash of the whole after a ``~``, which no plain name holds; so
    each name has one folder and no name reaches another's or leaves ``learners``."""
    if LEARNER.fullmatch(learner):
        return Path(home) / "learners" / learner
    plain = re.sub(r"[^A-Za-z0-9_-]+", "_", learner).strip("_")[:48]
    return Path(home) / "learners" / f"{plain}~{hashlib.sha256(learner.encode()).hexdigest()[:10]}"
