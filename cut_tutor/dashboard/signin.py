"""Signing in to a class's dashboard: the server, not the page, says who the learner is.

When the tutor home holds a class (:mod:`cut_tutor.roster`), ``cut-tutor dashboard`` serves nothing, not the
notebook, not a kernel, until the learner signs in at ``/login`` with their name and the password their teacher
handed them. A sign-in starts a session kept in the server's memory; the browser holds only the session's random
token, in a cookie signed with the server's secret (HttpOnly, and Secure over HTTPS). A forged or altered cookie
fails its signature, a cookie of a session that signed out or whose password was reset names no session, and either
way the request is treated as not signed in. The notebook's page then carries the learner's name to the kernel in a
header the server sets itself (:data:`~cut_tutor.identity.LEARNER_HEADER`; the browser's own is dropped first).
"""

from __future__ import annotations

import asyncio
import html
import secrets
import time
from dataclasses import dataclass
from typing import Any

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server.auth.authorizer import Authorizer
from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.auth.identity import IdentityProvider, User
from jupyter_server.base.handlers import JupyterHandler
from traitlets import Float, Unicode, default
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

from .. import roster

#: How long a session lasts without signing in again (seconds): a school day.
SESSION_SECONDS = 12 * 3600


@dataclass
class Learner(User):
    """A signed-in learner: their name (the username) and the session that signed them in."""

    session: str = ""
    generation: int = 0
    until: float = 0.0


class ClassIdentityProvider(IdentityProvider):
    """The class's learners, signed in against the roster in ``home``; sessions live in this server's memory."""

    home = Unicode(help="The tutor home holding the class's roster.").tag(config=True)
    session_seconds = Float(SESSION_SECONDS, help="How long a sign-in lasts (seconds).").tag(config=True)

    @default("cookie_name")
    def _cookie_name(self) -> str:
        return "cut-tutor-session"

    @default("token")
    def _no_token(self) -> str:
        return ""  # no server token: the roster is the only way in

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sessions: dict[str, Learner] = {}

    @property
    def auth_enabled(self) -> bool:
        return True

    def get_handlers(self) -> list[tuple[str, object]]:
        return [(r"/login", SignInHandler), (r"/logout", SignOutHandler)]

    def sign_in(self, name: str, password: str) -> Learner | None:
        """A new session for ``name`` if ``password`` is theirs; ``None`` (and no session) otherwise."""
        generation = roster.verify(self.home, name, password)
        if generation is None:
            return None
        learner = Learner(name, session=secrets.token_urlsafe(32), generation=generation,
                          until=time.time() + self.session_seconds)  # fmt: skip
        self.sessions[learner.session] = learner
        return learner

    def sign_out(self, token: str) -> None:
        """End the session of ``token`` (a token naming none is ignored)."""
        self.sessions.pop(token, None)

    def user_to_cookie(self, user: User) -> str:
        assert isinstance(user, Learner)
        return user.session

    def user_from_cookie(self, cookie_value: str) -> User | None:
        """The session's learner while it lasts and their password is the one they signed in with."""
        learner = self.sessions.get(cookie_value)
        if learner is None:
            return None
        try:
            current = roster.generation(self.home, learner.username)
        except roster.RosterError:
            current = None
        if current != learner.generation or time.time() > learner.until:
            self.sign_out(cookie_value)
            return None
        return learner


class ClassAuthorizer(Authorizer):
    """Only signed-in learners reach anything, and a kernel is the learner's whose page first reached it (its id
    is sent to that page alone): no other learner may connect to it, read it or shut it down."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.owners: dict[str, str] = {}

    def is_authorized(self, handler: JupyterHandler, user: User, action: str, resource: str) -> bool:
        if not isinstance(user, Learner):
            return False
        if resource != "kernels":
            return True
        kernel = getattr(handler, "kernel_id", None) or (handler.path_kwargs or {}).get("kernel_id")
        kernel = kernel or next(iter(handler.path_args or []), None)
        return kernel is None or self.owners.setdefault(str(kernel), user.username) == user.username


def _page(title: str, body: str) -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · CUT tutor</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem;color:#1b1b1b}}
label{{display:block;margin-top:1rem}}input{{font:inherit;width:100%;padding:.4rem;box-sizing:border-box}}
button{{font:inherit;margin-top:1.2rem;padding:.4rem 1.2rem}}.cut-refused{{color:#a00000}}</style>
</head><body><main><h1>{title}</h1>
{body}
</main></body></html>"""


class SignInHandler(JupyterHandler):
    """``/login``: the sign-in form, and its answer (the notebook on success, the form again with a refusal)."""

    def _form(self, refusal: str = "") -> None:
        name = html.escape(self.get_argument("username", ""))
        after = html.escape(self.get_argument("next", self.base_url))
        said = f'<p class="cut-refused" role="alert">{html.escape(refusal)}</p>' if refusal else ""
        self.write(
            _page(
                "Sign in",
                f"""{said}<p>Sign in with your name and the password your teacher gave you.</p>
<form method="post">{self.xsrf_form_html()}<input type="hidden" name="next" value="{after}">
<label for="username">Name</label><input id="username" name="username" value="{name}" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>""",
            )
        )

    @allow_unauthenticated
    def get(self) -> None:
        if self.current_user:
            self.redirect(self._next())
        else:
            self._form()

    @allow_unauthenticated
    async def post(self) -> None:
        provider = self.identity_provider
        assert isinstance(provider, ClassIdentityProvider)
        name, password = self.get_argument("username", ""), self.get_argument("password", "")
        # the password's hash takes a while on purpose: worked out beside the loop, other learners' play goes on
        learner = await asyncio.to_thread(provider.sign_in, name, password)
        if learner is None:
            self.set_status(401)
            self._form("That name and password do not match a learner of this class.")
            return
        self.log.info("%s signed in", learner.username)
        provider.set_login_cookie(self, learner)
        self.redirect(self._next())

    def _next(self) -> str:
        """Where to go after signing in: a path on this server only."""
        wanted = self.get_argument("next", self.base_url)
        return wanted if wanted.startswith(self.base_url) and not wanted.startswith("//") else str(self.base_url)


class SignOutHandler(JupyterHandler):
    """``/logout``: the session ends on the server too, so its cookie opens nothing any more."""

    @allow_unauthenticated
    def get(self) -> None:
        provider = self.identity_provider
        user = self.current_user
        if isinstance(user, Learner) and isinstance(provider, ClassIdentityProvider):
            provider.sign_out(user.session)
        provider.clear_login_cookie(self)
        self.write(_page("Signed out", f'<p>You are signed out. <a href="{self.base_url}login">Sign in</a></p>'))


class LearnerShutdownHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]
    """A page's kernel shut down as the page closes: by its own learner only."""

    async def post(self, kernel_id: str) -> None:
        if not await ensure_async(self.authorizer.is_authorized(self, self.current_user, "write", "kernels")):
            raise tornado.web.HTTPError(403)
        await super().post(kernel_id)
