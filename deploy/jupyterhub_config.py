"""A classroom on JupyterHub: every learner logs in and gets a single-user server of their own that opens the tutor.

Each learner's saves and history live in their own folder (``CUT_TUTOR_HOME``), outside anything a server serves.
This file runs a local class on one machine (``jupyterhub -f deploy/jupyterhub_config.py``); the settings read from
the environment let a test or a teacher move its port, its data and its proxy. ``deploy/README.md`` says how the same
class moves to Kubernetes with zero-to-jupyterhub when one machine is not enough.
"""

import os
import shutil
import sys
from pathlib import Path

from cut_tutor import dashboard

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (JupyterHub provides it)

#: Where the hub keeps its database, its cookie secret and the learners' homes.
DATA = Path(os.environ.get("CUT_HUB_DATA", "/srv/cut_tutor")).resolve()
(DATA / "learners").mkdir(parents=True, exist_ok=True)

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(os.environ.get("CUT_HUB_PORT", "8000"))
c.JupyterHub.db_url = f"sqlite:///{DATA / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(DATA / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(DATA / "jupyterhub.pid")
c.ConfigurableHTTPProxy.command = [os.environ.get("CUT_HUB_PROXY") or shutil.which("configurable-http-proxy") or
                                   "configurable-http-proxy"]  # fmt: skip
c.ConfigurableHTTPProxy.pid_file = str(DATA / "proxy.pid")

# A local class: any name logs in (DummyAuthenticator); a school replaces this with its own login (OAuth, LDAP…).
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
# One process per learner on this machine; each with its own HOME under DATA/learners.
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(DATA / "learners" / "{username}")
c.Spawner.cmd = [str(Path(sys.executable).parent / "jupyterhub-singleuser")]
# The single-user server serves the package's dashboard folder (the notebook, its guide) and opens the tutor.
c.Spawner.notebook_dir = str(dashboard.notebook().parent)
c.Spawner.default_url = "/voila/render/" + dashboard.notebook().name
c.Spawner.environment = {
    "CUT_TUTOR_HOME": lambda spawner: str(DATA / "learners" / spawner.user.name / "cut_tutor"),
}
if os.geteuid() == 0:  # a throwaway machine run as root (a test box): the local spawner starts servers as root too
    c.Spawner.args = ["--allow-root"]
