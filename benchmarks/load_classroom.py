"""A class on one dashboard server: N learners (10 by default) playing at once against one Voilà server on
127.0.0.1, some in a browser context of their own (Chromium), the rest as light clients that speak the widgets'
protocol over the kernel's websocket as the page does. Every learner loads the page, deals a seeded game and plays
its moves as fast as the table answers, then leaves (the browser's page closes, the light client asks the server to
shut its kernel down as the page does on leaving).

The figures: page to table (request → the tutor drawn in a browser, or every widget's state received by a light
client), one move in Step pacing, the dashboard's default (a press of Coach on your turn or Next for an AI seat →
the table redrawn, advice included; for a light client, the intent sent → the table's update received) over all
learners, each learner's kernel memory, the learners that
failed (a blank page, a timeout), and the kernels left once every learner has gone.

    python benchmarks/load_classroom.py [--learners 10] [--browsers 5] [--moves 12] [--think 0] [--together]

``--think SECONDS``: each learner pauses that long after every answer before the next press (0, the default, is
the worst case for the table; past the verdict line's 0.4 s pause, every recommendation starts its evaluation, so
the learners' moves share the server with the evaluations, as in a class that reads the line).

``--together``: every learner waits, once dealt, until every other learner is dealt (or has failed) before the first
press, so the moves measure a class playing at once, not learners playing while the last pages still load (without
it, the first learners' moves meet the kernels that are still starting for the rest).

Bounded: a fixed number of learners and moves, every request to 127.0.0.1, a time limit on each wait.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_dashboard import (
    ARGS,
    CHROMIUM,
    DASHBOARD,
    DEAL,
    ROOT,
    Voila,
    pct,
    servers,
    status_kb,
)
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1
from serving import DEALT, cmdline, descendants, proc_stat

TARGET_P95_MS = 250.0
TARGET_MB = 150.0
#: The longest wait for the tutor to be drawn, for a deal, or for one move's answer.
PAGE_S, DEAL_S, MOVE_S = 180.0, 120.0, 30.0
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: The websocket protocol the page's kernel connection asks for (JupyterLab's services).
PROTOCOL = "v1.kernel.websocket.jupyter.org"

#: Step pacing (the dashboard's default): press the table's next move, Next for an AI seat's move, or Coach for yours,
#: and wait (MutationObserver, then one frame) until the table is redrawn; no deliberate delay is in the answer.
STEP_ROUND_TRIP = """
async (timeoutMs) => {
  const root = document.querySelector(".cut-table");
  const button = root.querySelector("button.cut-next") || root.querySelector("button.cut-move.cut-coach");
  if (!button) return null;
  return await new Promise((resolve, reject) => {
    let observer;
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error("no redraw")); }, timeoutMs);
    const start = performance.now();
    observer = new MutationObserver(() => {
      if (button.isConnected || !root.querySelector(".cut-status")) return;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => resolve(performance.now() - start));
    });
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    button.click();
  });
}
"""


@dataclass
class Learner:
    """What one learner measured: page to table, each move, the kernel, and why it failed (if it did)."""

    kind: str
    seed: int
    page_ms: float | None = None
    moves: list[float] = field(default_factory=list)
    kernel: str | None = None
    rss_kb: int | None = None
    failed: str | None = None


class Countdown:
    """An event set once ``count`` learners have been counted."""

    def __init__(self, count: int) -> None:
        self.left, self.event = count, asyncio.Event()

    def tick(self) -> None:
        self.left -= 1
        if self.left <= 0:
            self.event.set()


class Gate:
    """Where the learners wait for each other before their first press (``--together``): it opens when every learner
    has arrived, a learner that fails arriving on its way out; closed only if asked for. With ``--together`` the
    learners also leave together: each that has played (or failed) waits until every learner has, so the CPU the
    class used playing is counted while every kernel is still up."""

    def __init__(self, learners: int, together: bool) -> None:
        self.together = together
        self.arrived, self.finished = Countdown(learners), Countdown(learners)
        self.opened, self.played = self.arrived.event, self.finished.event
        if not together:
            self.opened.set()

    def arrive(self) -> None:
        self.arrived.tick()

    async def wait(self) -> None:
        """Arrive, and wait until every learner has."""
        self.arrive()
        await asyncio.wait_for(self.opened.wait(), PAGE_S)

    def done(self) -> None:
        self.finished.tick()

    async def leave(self) -> None:
        """Done playing; with ``--together``, wait until every learner is."""
        self.done()
        if self.together:
            await asyncio.wait_for(self.played.wait(), PAGE_S + MOVE_S * 100)


def cpu_seconds(server: Voila) -> dict[str, float]:
    """CPU seconds (user + system) used so far by each part of the class on this machine: the Voilà server, the
    kernels' own threads, the kernels' background jobs (their threads at nice 19, see ``cut_tutor.widgets.jobs``),
    the light clients (this process) and the browsers (with Playwright's driver). The system counts each process and
    thread in clock ticks (10 ms), so a short run's split between a kernel's own threads and its jobs is rough."""
    assert server.proc is not None
    tick = os.sysconf("SC_CLK_TCK")

    def used(fields: list[str] | None) -> float:
        return (int(fields[11]) + int(fields[12])) / tick if fields else 0.0

    served = {server.proc.pid, *descendants(server.proc.pid)}
    parts = {"server": used(proc_stat(server.proc.pid)), "kernels": 0.0, "jobs": 0.0,
             "clients": used(proc_stat(os.getpid())), "browsers": 0.0}  # fmt: skip
    for pid in served - {server.proc.pid}:
        if "ipykernel_launcher" not in cmdline(pid):
            continue
        whole = used(proc_stat(pid))
        # a job thread may have ended (its time stays in the process's total); the kernel's own threads live on
        own = sum(used(fields) for task in Path(f"/proc/{pid}/task").glob("*")
                  if (fields := proc_stat_path(task / "stat")) is not None and int(fields[16]) < 19)  # fmt: skip
        parts["kernels"] += min(own, whole)
        parts["jobs"] += max(whole - own, 0.0)
    parts["browsers"] = sum(used(proc_stat(pid)) for pid in set(descendants(os.getpid())) - served)
    return parts


def proc_stat_path(path: Path) -> list[str] | None:
    """A thread's ``stat`` fields from the state on, as :func:`proc_stat` reads a process's."""
    try:
        text = path.read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def kernel_rss(server: Voila, kernel: str | None) -> int | None:
    pid = server.kernel_pid(kernel) if kernel else None
    return status_kb(pid, "VmRSS") if pid else None


async def browser_learner(browser: Any, server: Voila, seed: int, moves: int, think: float, gate: Gate) -> Learner:
    """One learner in a browser context of their own: a seeded deal, then ``moves`` moves, then the page closes."""
    from playwright.async_api import expect

    out = Learner("browser", seed)
    waited = played = False
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = await context.new_page()
        page.set_default_timeout(MOVE_S * 1000)
        start = time.perf_counter()
        await page.goto(server.url)
        await expect(page.get_by_role("button", name=DEAL)).to_be_visible(timeout=PAGE_S * 1000)
        out.page_ms = (time.perf_counter() - start) * 1000
        config = await page.locator("#jupyter-config-data").text_content()
        out.kernel = json.loads(config or "{}")["kernelId"]
        await page.get_by_placeholder("random").fill(str(seed))
        await page.get_by_placeholder("random").press("Tab")
        await page.get_by_role("button", name=DEAL).click()
        status = page.locator(".cut-table .cut-status")
        await expect(status).to_have_text(DEALT, timeout=DEAL_S * 1000)
        waited = True
        await gate.wait()
        while len(out.moves) < moves and "over" not in await status.inner_text():
            value = await page.evaluate(STEP_ROUND_TRIP, MOVE_S * 1000)
            if value is None:
                break
            out.moves.append(float(value))
            await asyncio.sleep(think)
        out.rss_kb = kernel_rss(server, out.kernel)
        played = True
        await gate.leave()
        await page.close(run_before_unload=True)  # leaving: the page asks the server to shut its kernel down
    except Exception as exc:  # a learner that fails is counted, with its reason, and the class goes on
        out.failed = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    finally:
        if not waited:
            gate.arrive()
        if not played:
            gate.done()
        await context.close()
    return out


class WidgetClient:
    """The page's side of the widgets' protocol over the kernel's websocket, in the page's own wire format (Jupyter's
    ``v1.kernel.websocket.jupyter.org``: the server passes each message through without decoding it): the states of
    every widget, updates sent to the kernel, and the table's updates awaited."""

    def __init__(self, socket: Any) -> None:
        if socket.selected_subprotocol != PROTOCOL:
            raise RuntimeError(f"the server did not take the page's websocket protocol {PROTOCOL}")
        self.socket = socket
        self.session = uuid.uuid4().hex
        # read all the time, as a page does: tornado's client holds one unread message and then stops reading its
        # socket, pings included, and the server closes a socket that has not answered its pings for 90 s
        self.received: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            raw = await self.socket.read_message()
            self.received.put_nowait(raw)
            if raw is None:
                return

    def send(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> None:
        header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": self.session, "username": "",
                  "date": "", "version": "5.3"}  # fmt: skip
        parts = [json.dumps(part).encode() for part in (header, {}, metadata or {}, content)]
        self.socket.write_message(serialize_msg_to_ws_v1(parts, "shell"), binary=True)

    def to_widget(self, comm_id: str, data: dict[str, Any]) -> None:
        self.send("comm_msg", {"comm_id": comm_id, "data": data})

    async def comm_data(self, deadline: float) -> tuple[str, dict[str, Any]]:
        """The next widget message from the kernel: (comm id, data)."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from the kernel")
            raw = await asyncio.wait_for(self.received.get(), left)
            if raw is None:
                raise ConnectionError("the kernel's websocket closed")
            _, (header, _parent, _metadata, content, *_buffers) = deserialize_msg_from_ws_v1(raw)
            if json.loads(header)["msg_type"] == "comm_msg":
                message = json.loads(content)
                return message["comm_id"], message["data"]

    async def states(self, deadline: float) -> dict[str, dict[str, Any]]:
        """Every widget's state, as the page asks for them on the widgets' control channel."""
        control = uuid.uuid4().hex
        self.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
                  {"version": "1.0.0"})  # fmt: skip
        self.to_widget(control, {"method": "request_states"})
        while True:
            comm, data = await self.comm_data(deadline)
            if comm == control and data.get("method") == "update_states":
                return {model: entry["state"] for model, entry in data["states"].items()}

    async def table_status(self, deadline: float, done: re.Pattern[str]) -> tuple[str, str]:
        """Wait until a table's update shows a status ``done`` finds: (the table's comm id, the status)."""
        while True:
            comm, data = await self.comm_data(deadline)
            status = data.get("state", {}).get("table", {}).get("status")
            if data.get("method") == "update" and isinstance(status, str) and done.search(status):
                return comm, status


def find(states: dict[str, dict[str, Any]], model: str, **traits: str) -> str:
    """The id of the widget of ``model`` whose traits hold these values."""
    return next(m for m, s in states.items()
                if s.get("_model_name") == model and all(s.get(k) == v for k, v in traits.items()))  # fmt: skip


def cookie_header(response: Any) -> str:
    return "; ".join(c.split(";", 1)[0] for c in response.headers.get_list("Set-Cookie"))


async def socket_learner(server: Voila, seed: int, moves: int, think: float, gate: Gate) -> Learner:
    """One learner as a light client: the page's HTML, then the widgets over the kernel's websocket."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    out = Learner("websocket", seed)
    waited = played = False
    # a client of its own, as each learner's browser is: tornado's shared client queues past 10 requests at once
    http = AsyncHTTPClient(force_instance=True)
    try:
        start = time.perf_counter()
        response = await http.fetch(server.url, connect_timeout=PAGE_S, request_timeout=PAGE_S)
        page = response.body.decode("utf-8")
        config = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S)
        assert config is not None, "the page has no kernel"
        out.kernel = json.loads(config.group(1))["kernelId"]
        outputs = re.findall(r'<script type="application/vnd.voila.cell-output\+json">(.*?)</script>', page, re.S)
        if not any(WIDGET_VIEW in json.loads(text).get("data", {}) for text in outputs):
            raise RuntimeError("blank page: the cell left no widget")
        cookies = cookie_header(response)
        address = server.url.replace("http://", "ws://") + f"api/kernels/{out.kernel}/channels"
        request = HTTPRequest(address, headers={"Cookie": cookies}, connect_timeout=MOVE_S)
        socket = await websocket_connect(request, subprotocols=[PROTOCOL])
        client = WidgetClient(socket)
        states = await client.states(time.monotonic() + PAGE_S)
        out.page_ms = (time.perf_counter() - start) * 1000
        tables = [m for m, s in states.items() if s.get("_model_name") == "AnyModel" and "table" in s]
        for table in tables:  # the page names its learner on every table it draws
            client.to_widget(table, {"method": "custom", "content": {"type": "ready", "learner": f"load-{seed}"}})
        seed_box, deal = find(states, "TextModel", placeholder="random"), find(states, "ButtonModel", description=DEAL)
        client.to_widget(seed_box, {"method": "update", "state": {"value": str(seed)}, "buffer_paths": []})
        client.to_widget(deal, {"method": "custom", "content": {"event": "click"}})
        game, status = await client.table_status(time.monotonic() + DEAL_S, DEALT)
        waited = True
        await gate.wait()
        while len(out.moves) < moves and "over" not in status:
            sent = time.perf_counter()  # as the page's Coach (your turn) or Next (an AI seat's) button
            press = "coach_play" if status == "Your turn" else "next"
            client.to_widget(game, {"method": "custom", "content": {"type": press}})
            _, status = await client.table_status(time.monotonic() + MOVE_S, re.compile("."))
            out.moves.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(think)
        out.rss_kb = kernel_rss(server, out.kernel)
        played = True
        await gate.leave()
        socket.close()
        xsrf = re.search(r"(?:^|; )_xsrf=([^;]*)", cookies)
        form = f"_xsrf={xsrf.group(1) if xsrf else ''}"
        headers = {"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"}
        # leaving, as the page's widget manager does: ask the server to shut the kernel down
        await http.fetch(server.url + f"voila/api/shutdown/{out.kernel}", method="POST", body=form, headers=headers,
                         request_timeout=MOVE_S)  # fmt: skip
    except Exception as exc:  # a learner that fails is counted, with its reason, and the class goes on
        out.failed = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    finally:
        if not waited:
            gate.arrive()
        if not played:
            gate.done()
        http.close()
    return out


async def run(server: Voila, learners: int, browsers: int, moves: int, think: float,
              together: bool) -> tuple[list[Learner], float, dict[str, float] | None]:  # fmt: skip
    """Every learner at once; with ``together``, also the CPU each part of the class used while it played."""
    from playwright.async_api import async_playwright

    async def while_playing(gate: Gate) -> dict[str, float]:
        await gate.opened.wait()
        first = cpu_seconds(server)
        await gate.played.wait()
        return {part: spent - first[part] for part, spent in cpu_seconds(server).items()}

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        start = time.monotonic()
        gate = Gate(learners, together)
        spent = asyncio.ensure_future(while_playing(gate)) if together else None
        everyone = [browser_learner(browser, server, seed, moves, think, gate) if seed <= browsers
                    else socket_learner(server, seed, moves, think, gate)
                    for seed in range(1, learners + 1)]  # fmt: skip
        results = await asyncio.gather(*everyone)
        wall = time.monotonic() - start
        await browser.close()
    return list(results), wall, (spent.result() if spent is not None and spent.done() else None)


def kernels_running(server: Voila) -> int:
    assert server.proc is not None
    return sum("ipykernel_launcher" in cmdline(pid) for pid in descendants(server.proc.pid))


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=10)
    parser.add_argument("--browsers", type=int, default=5, help="how many of the learners use a real browser")
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--think", type=float, default=0.0, help="seconds each learner pauses after every answer")
    parser.add_argument("--together", action="store_true", help="the first press waits until every learner is dealt")
    args = parser.parse_args(argv)
    if CHROMIUM is None:
        print("chromium is not on PATH", file=sys.stderr)
        return 2
    browsers = min(args.browsers, args.learners)
    with tempfile.TemporaryDirectory(prefix="cut-load-") as folder:
        work = Path(folder)
        env = os.environ | {"CUT_TUTOR_HOME": str(work / "home"), "PYTHONUNBUFFERED": "1"}
        server = Voila("load", DASHBOARD, ROOT, env, work)
        with servers(server):
            server.wait_pool()
            before = load_average()
            played = run(server, args.learners, browsers, args.moves, args.think, args.together)
            results, wall, spent = asyncio.run(played)
            after = load_average()
            deadline = time.monotonic() + 60  # the kernels of the learners who left are shut down
            while kernels_running(server) > 1 and time.monotonic() < deadline:
                time.sleep(1)
            left = kernels_running(server)
            log = server.log_text()
        failed = [r for r in results if r.failed]
        pages = [r.page_ms for r in results if r.page_ms is not None]
        flat = [t for r in results for t in r.moves]
        mb = [r.rss_kb / 1024 for r in results if r.rss_kb]
        print(f"{args.learners} learners at once on one server ({browsers} in Chromium, "
              f"{args.learners - browsers} over the websocket, {args.think:g} s between moves"
              f"{', the first press once every learner is dealt' if args.together else ''}), "
              f"{len(flat)} moves in {wall:.0f} s; "
              f"load average {before} before, {after} after")  # fmt: skip
        if pages:
            print(f"  page to table: p50 {statistics.median(pages) / 1000:.1f} s, p95 {pct(pages, 0.95) / 1000:.1f} s,"
                  f" max {max(pages) / 1000:.1f} s")  # fmt: skip
        if flat:
            print(f"  one move (Coach or Next, Step pacing), press → redrawn: p50 {statistics.median(flat):.0f} ms,"
                  f" p95 {pct(flat, 0.95):.0f} ms (target ≤ {TARGET_P95_MS:.0f} ms)")  # fmt: skip
        if mb:
            print(f"  kernel memory per learner: median {statistics.median(mb):.0f} MB, max {max(mb):.0f} MB"
                  f" (target ≤ {TARGET_MB:.0f} MB)")  # fmt: skip
        if spent and flat:
            print(
                f"  CPU while the class played, ms a move ({len(flat)} moves): "
                + ", ".join(f"{part} {seconds * 1000 / len(flat):.1f}" for part, seconds in spent.items())
                + f"; in all {sum(spent.values()) * 1000 / len(flat):.1f} ms a move on {os.cpu_count()} cores"
            )
        print(f"  failed learners: {len(failed)}")
        for r in failed:
            print(f"    {r.kind} learner {r.seed}: {r.failed}")
        if failed:  # the server's own account of what went wrong: its log goes with the folder
            print(log[-20000:], file=sys.stderr)
        print(f"  kernels left after every learner left: {left} (the pool's preheated kernel is 1);"
              f" refused requests (403) in the server log: {len(re.findall('^403 ', log, re.MULTILINE))},"
              f" IOPub timeouts: {log.count('Timeout waiting for IOPub output')}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
