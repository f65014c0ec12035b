"""A classroom on JupyterHub: learners sign up, the teacher lets them in, and each learner's server runs as a system
user of their own that opens the tutor in their own folder.

Sign-up and sign-in are NativeAuthenticator's: a learner signs up at ``/hub/signup`` with a name and a password
(kept as a bcrypt hash), and cannot sign in until the teacher (the hub's admin, ``CUT_HUB_TEACHER``) authorizes
them at ``/hub/authorize``. On a learner's first sign-in the hub makes a system user of that name in the class's group
(``cut-learners``) whose home is ``learners/<name>`` under the class's data; their server runs as that user, rooted in
that folder (mode 700: no other learner can open it), and the tutor keeps their games there. In the tutor, the
learner is the hub user: a page cannot name another. The hub runs as root to start servers as other users.

``CUT_HUB_DEMO=1`` swaps all of this for a demonstration on one's own machine: any name signs in with any password
(the ``dummy`` authenticator) and every server runs as the hub's own user (the ``simple`` spawner): learners' folders
are apart, but nothing stops one learner's code from reading another's. Never for a real class.

This file runs a class on one machine (``jupyterhub -f deploy/jupyterhub_config.py``); ``CUT_HUB_PORT``,
``CUT_HUB_DATA`` and ``CUT_HUB_PROXY`` move its port, its data and its proxy. ``deploy/README.md`` says how the same
class moves to Kubernetes with zero-to-jupyterhub when one machine is not enough.
"""

import grp
import os
import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

from cut_tutor import dashboard

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (JupyterHub provides it)

#: Where the hub keeps its own state (``hub/``, root's only) and the learners' folders (``learners/<name>``).
DATA = Path(os.environ.get("CUT_HUB_DATA", "/srv/cut_tutor")).resolve()
HUB, LEARNERS = DATA / "hub", DATA / "learners"
DEMO = os.environ.get("CUT_HUB_DEMO") == "1"
#: The class's system group: every learner's system user is in it, and only they get a server.
GROUP = os.environ.get("CUT_HUB_GROUP", "cut-learners")
TEACHER = os.environ.get("CUT_HUB_TEACHER", "teacher")
#: A name a learner signs up with, which is also their system user's name.
NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")

for folder, mode in ((DATA, 0o711), (HUB, 0o700), (LEARNERS, 0o711)):
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(mode)  # learners pass through to their own folder; they cannot list the class or read the hub

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(os.environ.get("CUT_HUB_PORT", "8000"))
c.JupyterHub.db_url = f"sqlite:///{HUB / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(HUB / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(HUB / "jupyterhub.pid")
c.ConfigurableHTTPProxy.command = [os.environ.get("CUT_HUB_PROXY") or shutil.which("configurable-http-proxy") or
                                   "configurable-http-proxy"]  # fmt: skip
c.ConfigurableHTTPProxy.pid_file = str(HUB / "proxy.pid")

# Each learner's server opens the tutor in the learner's own folder, which is also where the tutor keeps their games
# (CUT_TUTOR_HOME/learners/<name>): `cut-tutor class <CUT_HUB_DATA>` gives the teacher the class's table.
# CUT_HUB_PYTHON: the Python the learners' servers run with, when the hub's own cannot be run by other users (one
# installed in root's home); it needs the same packages.
PYTHON = os.environ.get("CUT_HUB_PYTHON")
c.Spawner.cmd = (
    [PYTHON, "-m", "jupyterhub.singleuser"] if PYTHON else [str(Path(sys.executable).parent / "jupyterhub-singleuser")]
)
c.Spawner.notebook_dir = str(LEARNERS / "{username}")
c.Spawner.default_url = "/voila/render/" + dashboard.notebook().name
c.Spawner.environment = {"CUT_TUTOR_HOME": str(DATA)}
c.Spawner.env_keep = ["PATH", "PYTHONPATH", "LANG", "LC_ALL", "JUPYTERHUB_SINGLEUSER_APP"]


def _in_class(name: str) -> bool:
    """Whether ``name`` is a system user of the class's group (never root, never another account of the machine)."""
    try:
        user = pwd.getpwnam(name)
        return user.pw_uid != 0 and grp.getgrnam(GROUP).gr_gid in os.getgrouplist(name, user.pw_gid)
    except KeyError:
        return False


def _open_folder(spawner):  # type: ignore[no-untyped-def]
    """The learner's folder, theirs alone, with the tutor's notebook in it (written afresh at each start)."""
    folder = LEARNERS / spawner.user.name
    folder.mkdir(exist_ok=True)
    shutil.copyfile(dashboard.notebook(), folder / dashboard.notebook().name)
    if not DEMO:
        if not _in_class(spawner.user.name):
            raise PermissionError(f"{spawner.user.name} is not a learner of this class ({GROUP})")
        user = pwd.getpwnam(spawner.user.name)
        os.chown(folder, user.pw_uid, user.pw_gid)
        folder.chmod(0o700)


c.Spawner.pre_spawn_hook = _open_folder

if DEMO:
    c.JupyterHub.authenticator_class = "dummy"
    c.Authenticator.allow_all = True
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(LEARNERS / "{username}")
    if os.geteuid() == 0:  # a throwaway machine run as root: the simple spawner starts servers as root too
        c.Spawner.args = ["--allow-root"]
else:
    from jupyterhub.auth import LocalAuthenticator
    from jupyterhub.handlers import BaseHandler
    from nativeauthenticator import NativeAuthenticator
    from nativeauthenticator.handlers import LoginHandler

    class _Untimed:
        """Stands in for the statsd client JupyterHub 6 no longer has, which NativeAuthenticator 1.3's login page
        still times the sign-in with (nothing is measured)."""

        def timer(self, _name: str) -> "_Untimed":
            return self

        def start(self) -> "_Untimed":
            return self

        def stop(self, send: bool = True) -> None:
            return None

    class ClassLoginHandler(LoginHandler):  # type: ignore[misc]
        if not hasattr(BaseHandler, "statsd"):
            statsd = _Untimed()

    class ClassAuthenticator(LocalAuthenticator, NativeAuthenticator):  # type: ignore[misc]
        """NativeAuthenticator's sign-up and the teacher's authorization, with each learner a system user of the
        class's group, made on their first sign-in; a name that is already another account of the machine is
        refused at sign-up."""

        def get_handlers(self, app):  # type: ignore[no-untyped-def]
            found = super().get_handlers(app)
            return [(route, ClassLoginHandler if handler is LoginHandler else handler) for route, handler in found]

        def validate_username(self, username: str) -> bool:
            if not NAME.fullmatch(username):
                return False
            try:
                pwd.getpwnam(username)
            except KeyError:
                return bool(super().validate_username(username))
            return _in_class(username) and bool(super().validate_username(username))

    try:
        grp.getgrnam(GROUP)
    except KeyError:
        subprocess.run(["groupadd", "--system", GROUP], check=True)
    c.JupyterHub.authenticator_class = ClassAuthenticator
    c.Authenticator.admin_users = {TEACHER}
    c.Authenticator.allow_all = True  # NativeAuthenticator itself lets in only those the teacher authorized
    c.NativeAuthenticator.minimum_password_length = 8
    c.LocalAuthenticator.create_system_users = True
    c.LocalAuthenticator.add_user_cmd = ["useradd", "--no-create-home", "--home-dir", str(LEARNERS / "USERNAME"),
                                         "--gid", GROUP, "--shell", "/usr/sbin/nologin"]  # fmt: skip
    c.JupyterHub.spawner_class = "localprocess"
