"""Serving the tutor: the guide by a handler that resolves each path inside the built site before reading it.

The same handler is added to the standalone Voilà that ``cut-tutor dashboard`` runs and, as a Jupyter server
extension, to JupyterLab, Binder and JupyterHub's single-user servers, always at ``{base_url}cut-tutor/guide/``.
Nothing else of the package or of the tutor's home is reachable through it. Both also find the package's Voilà
template, which the dashboard notebook names in its metadata, so it renders offline wherever Voilà renders it, and
both serve the dashboard's page with the same handlers and the same executor settings (``voila.json``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import tornado.web
from jupyter_server.auth.authorizer import AllowAllAuthorizer, Authorizer
from jupyter_server.auth.identity import IdentityProvider, PasswordIdentityProvider
from jupyter_server.utils import url_path_join
from traitlets import default
from voila.app import Voila
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.handler import TornadoVoilaHandler

from ..identity import LEARNER_ENV, LEARNER_HEADER, TEACHER_ENV, TEACHER_HEADER, class_home
from . import CLASS_ROUTE, GUIDE_ROUTE, class_notebook, guide_dir
from .signin import ClassAuthorizer, ClassIdentityProvider, Learner, LearnerShutdownHandler, refusal_page


class GuideHandler(tornado.web.StaticFileHandler):
    """Files of the built guide only: the path is resolved (``..``, encoded slashes, symlinks) and must stay inside;
    one no file can have (an encoded NUL byte) is not found, like any other."""

    def get_absolute_path(self, root: str, path: str) -> str:  # type: ignore[override]
        try:
            return os.path.realpath(os.path.join(root, path))
        except ValueError:  # ``embedded null byte``: no such file, not a fault of the server
            raise tornado.web.HTTPError(404) from None

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        real_root = os.path.realpath(root)
        if os.path.commonpath([real_root, absolute_path]) != real_root:
            raise tornado.web.HTTPError(404)
        return super().validate_absolute_path(real_root, absolute_path)


def guide_handlers(base_url: str, root: Path | None = None) -> list[tuple[str, type[GuideHandler], dict[str, Any]]]:
    """The guide's route below ``base_url``, serving the package's built guide (or ``root``)."""
    route = url_path_join(base_url, GUIDE_ROUTE, "(.*)")
    return [(route, GuideHandler, {"path": str(root or guide_dir()), "default_filename": "index.html"})]


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "cut_tutor.dashboard.server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Add the guide to a Jupyter server (JupyterLab, Binder, a JupyterHub single-user server), the package's
    template to where its Voilà (``/voila/render/``) looks for the template a notebook names, and the standalone
    dashboard's executor settings to the server's config, which that Voilà gives each page's executor (this
    extension loads before Voilà's, which reads the config as it loads; a setting of the server's own stays)."""
    serverapp.web_app.add_handlers(".*$", guide_handlers(serverapp.base_url))
    with_package_data()
    executor = serverapp.config.VoilaExecutor
    for name, value in executor_settings().items():
        if name not in executor:
            executor[name] = value


async def _start_jupyter_server_extension(serverapp: Any) -> None:
    """Serve the server's Voilà pages with the standalone dashboard's handlers: its page sets the ``_xsrf`` cookie
    a browser that opened ``/voila/render/`` directly (Binder's badge) would otherwise never get (a JupyterHub
    server sets it as the learner signs in), so leaving the page shuts its kernel down. Voilà adds its routes after
    this extension loads, so they are swapped here, the first thing the server does once its loop runs."""
    _swap_handlers(serverapp.web_app.default_router, set())


def _swap_handlers(router: Any, seen: set[int]) -> None:
    """Put :data:`OUR_HANDLERS` in place of Voilà's in ``router``'s rules and in those of the routers it holds."""
    if id(router) in seen:
        return
    seen.add(id(router))
    for rule in getattr(router, "rules", []):
        if isinstance(rule.target, type):
            rule.target = OUR_HANDLERS.get(rule.target, rule.target)
        else:
            _swap_handlers(rule.target, seen)


class TutorPageHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """The dashboard's page, which also hands the browser its ``_xsrf`` cookie, and on a class's dashboard tells
    the page's kernel who signed in, in a header that is the server's own (the browser's is dropped).

    Leaving the page, Voilà's widget manager asks the server to shut the page's kernel down with the ``_xsrf``
    value it reads from the page's cookies. The page is rendered ahead of the request (a preheated kernel), so
    nothing else asks for the token and tornado would never set the cookie: the request would be refused (403)
    and the kernel would live on until the idle cull.
    """

    async def prepare(self) -> None:
        self.request.headers.pop(LEARNER_HEADER, None)
        self.request.headers.pop(TEACHER_HEADER, None)
        await super().prepare()
        user = self.current_user
        if isinstance(user, Learner):
            self.request.headers[TEACHER_HEADER if user.teacher else LEARNER_HEADER] = user.username

    async def get(self, path: str | None = None) -> None:
        user = self.current_user
        if isinstance(user, Learner) and user.teacher:  # a teacher has no games: the class's page is theirs
            self.redirect(url_path_join(self.base_url, CLASS_ROUTE))
            return
        self.xsrf_token  # noqa: B018 - reading it is what sets the cookie, before the page's first byte is sent
        await super().get(path=path)


class ClassPageHandler(TutorPageHandler):
    """``/class`` on a class's dashboard: the class's page (``class.ipynb``), rendered for a signed-in teacher only,
    whose page's kernel the server tells that a teacher is there; a learner is refused it and shown nothing of it."""

    async def get(self, path: str | None = None) -> None:
        user = self.current_user
        if not isinstance(user, Learner):  # not signed in: to the sign-in, as every other page
            await super().get(path=path)
            return
        if not user.teacher:
            self.set_status(403)
            self.finish(refusal_page(self.base_url))
            return
        self.xsrf_token  # noqa: B018 - as on the dashboard's page: leaving the page shuts its kernel down
        await TornadoVoilaHandler.get(self, path=path)


#: Voilà's handlers and the tutor's in their place, in the standalone Voilà and in a Jupyter server's alike.
OUR_HANDLERS: dict[type, type] = {
    TornadoVoilaHandler: TutorPageHandler,
    VoilaShutdownKernelHandler: LearnerShutdownHandler,
}


class TutorVoila(Voila):  # type: ignore[misc]
    """Standalone Voilà with the guide's route ahead of the notebook's catch-all route, whose page sets the cookie
    that lets leaving the page shut its kernel down. Serving a class's home, its learners and teachers sign in first
    (:mod:`.signin`), each page's kernel is told by the server who signed in, and the class's page is served at
    ``/class`` to a teacher's session alone."""

    @default("identity_provider_class")
    def _class_sign_in(self) -> type[IdentityProvider]:
        return ClassIdentityProvider if class_home(_home()) else PasswordIdentityProvider

    @default("authorizer_class")
    def _class_kernels(self) -> type[Authorizer]:
        return ClassAuthorizer if class_home(_home()) else AllowAllAuthorizer

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        if isinstance(self.identity_provider, ClassIdentityProvider):
            self.identity_provider.home = str(_home())
            self.voila_configuration.http_header_envs = [LEARNER_HEADER, TEACHER_HEADER]
        return settings

    def init_handlers(self) -> list[Any]:
        handlers = [
            (route, OUR_HANDLERS.get(handler, handler), *rest) for route, handler, *rest in super().init_handlers()
        ]
        if isinstance(self.identity_provider, ClassIdentityProvider):  # ahead of the dashboard's catch-all route
            at = next(i for i, (_, handler, *_) in enumerate(handlers) if handler is TutorPageHandler)
            page = handlers[at][2] | {"notebook_path": os.path.relpath(class_notebook(), self.root_dir)}
            handlers.insert(at, (url_path_join(self.server_url, CLASS_ROUTE), ClassPageHandler, page))
        return [*guide_handlers(self.server_url or self.base_url), *handlers]


def _home() -> Path:
    from ..widgets.shared import default_home

    return default_home()


#: The tutor's Voilà template (``cut_tutor``: Voilà's lab template, offline) lives in the package.
JUPYTER_DATA = Path(__file__).parent / "jupyter"
#: The dashboard's Voilà settings: the standalone Voilà reads all of them (``Voila.config_file_paths``), a Jupyter
#: server's Voilà those of the page's executor (:func:`executor_settings`).
VOILA_CONFIG = Path(__file__).parent / "voila.json"


def executor_settings() -> dict[str, Any]:
    """How the dashboard's executor runs its cell (``VoilaExecutor`` in ``voila.json``), wherever Voilà serves it."""
    settings: dict[str, Any] = json.loads(VOILA_CONFIG.read_text(encoding="utf-8"))["VoilaExecutor"]
    return settings


def with_package_data() -> None:
    """Name the package's own Jupyter data first on ``JUPYTER_PATH``, where Voilà looks up a template on each
    render (once: a server that loads the extension again adds nothing)."""
    paths = [path for path in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if path]
    if str(JUPYTER_DATA) not in paths:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(JUPYTER_DATA), *paths])


def main() -> int:
    """Run the standalone Voilà with the package's template on the path."""
    with_package_data()
    for name in (LEARNER_ENV, TEACHER_ENV):  # only a request's own header, set by this server, names anyone
        os.environ.pop(name, None)
    TutorVoila.launch_instance()
    return 0


if __name__ == "__main__":
    sys.exit(main())
