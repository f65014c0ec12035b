"""A class's dashboard, served for real (``cut-tutor dashboard`` on a tutor home holding a roster): nothing is
served before signing in, a wrong password or another learner's is refused, the page's kernel opens the signed-in
learner's folder whatever header the browser sends, and a forged, altered or signed-out cookie opens nothing."""

from __future__ import annotations

import http.cookiejar
import os
import re
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("voila")

from cut_tutor import dashboard, roster
from cut_tutor.cli import voila_command
from cut_tutor.identity import HUB_USER, LEARNER_ENV, LEARNER_HEADER

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a redirect is an answer to look at, not to follow


class Browser:
    """A cookie jar and the requests a browser would send (redirects not followed)."""

    def __init__(self, url: str) -> None:
        self.url, self.jar = url, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Status, body and where a redirect points."""
        request = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with self.opener.open(request, timeout=120) as response:
                return response.status, response.read().decode(), ""
        except urllib.error.HTTPError as answer:
            return answer.code, answer.read().decode(errors="replace"), answer.headers.get("Location", "")

    def sign_in(self, name: str, password: str) -> int:
        _, page, _ = self.get("/login")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)
        assert xsrf, page
        form = urllib.parse.urlencode({"_xsrf": xsrf.group(1), "username": name, "password": password, "next": "/"})
        try:
            with self.opener.open(self.url + "/login", form.encode(), timeout=60) as response:
                return int(response.status)
        except urllib.error.HTTPError as answer:
            return answer.code

    def session(self) -> str | None:
        return next((c.value for c in self.jar if c.name == "cut-tutor-session"), None)

    def set_session(self, value: str) -> None:
        for cookie in [c for c in self.jar if c.name == "cut-tutor-session"]:
            self.jar.clear(cookie.domain, cookie.path, cookie.name)
        self.jar.set_cookie(http.cookiejar.Cookie(0, "cut-tutor-session", value, None, False, "127.0.0.1", False,
                                                  False, "/", True, False, None, False, None, None, {}))  # fmt: skip


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, dict[str, str]]]:
    """The dashboard serving a class of two (Ann and Ben); its URL, its home and the learners' passwords."""
    home = tmp_path_factory.mktemp("class")
    passwords = {name: roster.add(home, name) for name in ("ann", "ben")}
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in (HUB_USER, LEARNER_ENV)}
    env |= {"CUT_TUTOR_HOME": str(home), "PYTHONUNBUFFERED": "1", LEARNER_ENV: "ben"}  # the launcher's own is dropped
    log = (home.parent / "voila.log").open("w")
    server = subprocess.Popen(voila_command(dashboard.notebook(), port), env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(url + "/voila/static/voila.js", timeout=5).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (home.parent / "voila.log").read_text()
                time.sleep(0.5)
        yield url, home, passwords
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def _opened(home: Path) -> set[str]:
    folder = home / "learners"
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


def test_nothing_is_served_before_signing_in(classroom: tuple[str, Path, dict[str, str]]) -> None:
    url, home, _ = classroom
    stranger = Browser(url)
    status, _, where = stranger.get("/", headers={LEARNER_HEADER: "ann"})
    assert status == 302 and where.startswith("/login"), "the notebook's page asks for a sign-in"
    assert stranger.get("/api/kernels")[0] in (302, 403)
    assert _opened(home) == set(), "no kernel opened anyone's folder"


def test_a_wrong_password_or_another_learners_is_refused(classroom: tuple[str, Path, dict[str, str]]) -> None:
    url, home, passwords = classroom
    guesser = Browser(url)
    assert guesser.sign_in("ann", "wrong") == 401
    assert guesser.sign_in("ann", passwords["ben"]) == 401
    assert guesser.sign_in("cleo", passwords["ann"]) == 401
    assert guesser.session() is None and guesser.get("/")[0] == 302
    assert _opened(home) == set()


def test_the_kernel_opens_the_signed_in_learners_folder_whatever_the_browser_says(
    classroom: tuple[str, Path, dict[str, str]],
) -> None:
    url, home, passwords = classroom
    ann = Browser(url)
    assert ann.sign_in("ann", passwords["ann"]) == 302 and ann.session(), "signed in, sent on to the tutor"
    status, page, _ = ann.get("/", headers={LEARNER_HEADER: "ben"})
    assert status == 200 and "<html" in page
    deadline = time.monotonic() + 60
    while "ann" not in _opened(home) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _opened(home) == {"ann"}, "ann's page, with a header naming ben, opened ann's folder only"


def test_a_forged_altered_or_signed_out_cookie_opens_nothing(classroom: tuple[str, Path, dict[str, str]]) -> None:
    url, home, passwords = classroom
    before = _opened(home)
    forger = Browser(url)
    forger.set_session("ann")
    assert forger.get("/")[0] == 302
    ben = Browser(url)
    assert ben.sign_in("ben", passwords["ben"]) == 302
    cookie = ben.session()
    assert cookie is not None
    altered = Browser(url)
    altered.set_session(cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB"))
    assert altered.get("/")[0] == 302
    assert ben.get("/logout")[0] == 200
    replay = Browser(url)
    replay.set_session(cookie)  # the cookie as it was before signing out
    assert replay.get("/")[0] == 302, "a signed-out session's cookie opens nothing"
    assert _opened(home) == before


def test_a_kernel_answers_only_the_learner_whose_page_it_serves(classroom: tuple[str, Path, dict[str, str]]) -> None:
    """Ben, signed in, who learned the id of Ann's kernel, can neither read it nor shut it down; his own he can."""
    url, _home, passwords = classroom
    pages = {}
    for name in ("ann", "ben"):
        browser = Browser(url)
        assert browser.sign_in(name, passwords[name]) == 302
        status, page, _ = browser.get("/")
        found = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
        assert status == 200 and found, page[-2000:]
        assert browser.get(f"/api/kernels/{found.group(1)}")[0] == 200, "the page's own learner reaches its kernel"
        pages[name] = (browser, found.group(1))
    (ann, ann_kernel), (ben, ben_kernel) = pages["ann"], pages["ben"]
    assert ben.get(f"/api/kernels/{ann_kernel}")[0] == 403

    def shut_down(browser: Browser, kernel: str) -> int:
        xsrf = next(c.value for c in browser.jar if c.name == "_xsrf")
        request = urllib.request.Request(f"{url}/voila/api/shutdown/{kernel}", data=b"", method="POST",
                                         headers={"X-XSRFToken": xsrf})  # fmt: skip
        try:
            with browser.opener.open(request, timeout=60) as response:
                return int(response.status)
        except urllib.error.HTTPError as answer:
            return answer.code

    assert shut_down(ben, ann_kernel) == 403
    assert ann.get(f"/api/kernels/{ann_kernel}")[0] == 200, "ann's kernel still runs"
    assert shut_down(ben, ben_kernel) == 204, "ben may close his own page's kernel"


def test_a_new_password_ends_the_old_sign_ins(classroom: tuple[str, Path, dict[str, str]]) -> None:
    url, home, passwords = classroom
    ann = Browser(url)
    assert ann.sign_in("ann", passwords["ann"]) == 302 and ann.get("/")[0] == 200
    passwords["ann"] = roster.reset(home, "ann")  # the teacher resets it while ann is signed in
    assert ann.get("/")[0] == 302, "the session made with the old password is over"
    assert Browser(url).sign_in("ann", passwords["ann"]) == 302
