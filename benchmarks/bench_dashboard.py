"""Dashboard speed and memory: page load, one move, and the kernel's memory after a full game.

Targets (dashboard): load to interactive with a preheated kernel ≤ 1.3× a trivial anywidget page; one move
of yours, with the AI replies, the coach's advice and the redraw, ≤ 150 ms; the kernel's RSS after a full
game ≤ 200 MB. Baselines run in the same process: a one-button anywidget notebook served by Voilà with the
same ``voila.json`` (page load, browser round trip, kernel RSS) and the engine alone playing the same moves
(one move in Python).

    python benchmarks/bench_dashboard.py             # the table (about two minutes)
    python benchmarks/bench_dashboard.py --loads 9   # more page loads per notebook

Page loads are timed in headless Chromium (Playwright) from navigation start until the main button is
visible and enabled, in a fresh browser context (cold HTTP cache) and in a reused one (warm cache), after
the server's preheated kernel has finished running the notebook. The first load of each notebook is a
warm-up and is not counted.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]  # the package, and the Voilà harness the tests share

from serving import ARGS, CHROMIUM, VoilaServer, cmdline, descendants, free_port, proc_stat  # noqa: E402

from cut_tutor import dashboard  # noqa: E402
from cut_tutor.cli import voila_command  # noqa: E402

DASHBOARD = dashboard.notebook()
DEAL = "Deal & play"
BASE_BUTTON = "Clicked 0"
TARGET_LOAD_RATIO = 1.3
TARGET_MOVE_MS = 150.0
TARGET_RSS_MB = 200.0
CLK_TCK = os.sysconf("SC_CLK_TCK")

BASELINE_CELL = '''\
import anywidget
import traitlets


class Counter(anywidget.AnyWidget):
    """One button; a click goes to Python, which counts it and sends the count back."""

    _esm = """
    function render({ model, el }) {
      const button = document.createElement("button");
      button.className = "base-button";
      const draw = () => { button.textContent = "Clicked " + model.get("count"); };
      button.onclick = () => model.send({ type: "click" });
      model.on("change:count", draw);
      draw();
      el.appendChild(button);
    }
    export default { render };
    """
    count = traitlets.Int(0).tag(sync=True)

    def __init__(self) -> None:
        super().__init__()
        self.on_msg(lambda _widget, _content, _buffers: setattr(self, "count", self.count + 1))


Counter()
'''

#: Installed before any page script: records performance.now() when a button with this text is visible and enabled.
READY_SCRIPT = """
(() => {
  const want = %s;
  const check = () => {
    if (window.__benchReady !== undefined) return;
    for (const b of document.querySelectorAll("button")) {
      if (b.disabled || b.textContent.trim() !== want) continue;
      const r = b.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && getComputedStyle(b).visibility !== "hidden") {
        window.__benchReady = performance.now();
        observer.disconnect();
        return;
      }
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
})();
"""

#: Click a button of the table and wait (MutationObserver, then one frame) until the table is redrawn.
TABLE_ROUND_TRIP = """
async (timeoutMs) => {
  const root = document.querySelector(".cut-table");
  const button = root.querySelector("button.cut-move.cut-coach") || root.querySelector("button.cut-move");
  if (!button) return null;
  return await new Promise((resolve, reject) => {
    let observer;
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error("no redraw")); }, timeoutMs);
    const start = performance.now();
    observer = new MutationObserver(() => {
      const status = root.querySelector(".cut-status");
      if (button.isConnected || !status) return;
      if (status.textContent === "Your turn" || status.textContent.includes("over")) {
        observer.disconnect();
        clearTimeout(timer);
        requestAnimationFrame(() => resolve(performance.now() - start));
      }
    });
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    button.click();
  });
}
"""

#: The same for the baseline page: click the counter and wait until its new count is drawn.
BASE_ROUND_TRIP = """
async (timeoutMs) => {
  const button = document.querySelector("button.base-button");
  const before = button.textContent;
  return await new Promise((resolve, reject) => {
    let observer;
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error("no redraw")); }, timeoutMs);
    const start = performance.now();
    observer = new MutationObserver(() => {
      if (button.textContent === before) return;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => resolve(performance.now() - start));
    });
    observer.observe(button, { childList: true, subtree: true, characterData: true });
    button.click();
  });
}
"""


# -- results --------------------------------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    value: float | None
    unit: str
    target: str = ""
    baseline: float | None = None
    ratio: float | None = None
    ok: bool | None = None


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, row: Row) -> None:
        self.rows.append(row)

    def note(self, text: str) -> None:
        self.notes.append(text)
        print(f"  · {text}", flush=True)

    def print(self) -> None:
        def num(x: float | None, unit: str = "") -> str:
            return "—" if x is None else f"{x:,.1f}{unit}"

        header = f"{'measure':<44} {'value':>12} {'target':>10} {'baseline':>12} {'ratio':>7}  ok"
        print("\n" + header + "\n" + "-" * len(header))
        for r in self.rows:
            unit = f" {r.unit}"
            ratio = "—" if r.ratio is None else f"{r.ratio:.2f}×"
            ok = "" if r.ok is None else ("yes" if r.ok else "NO")
            print(f"{r.name:<44} {num(r.value, unit):>12} {r.target:>10} {num(r.baseline, unit):>12} {ratio:>7}  {ok}")
        if self.notes:
            print("\nnotes:")
            for text in self.notes:
                print(textwrap.fill(text, 116, initial_indent="  - ", subsequent_indent="    "))


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


# -- processes ------------------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    fields = proc_stat(pid)
    return None if fields is None else (int(fields[11]) + int(fields[12])) / CLK_TCK


def status_kb(pid: int, key: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


class Voila(VoilaServer):
    """A Voilà server for one notebook on a free port, and its preheated kernels."""

    def __init__(self, name: str, notebook: Path, cwd: Path, env: dict[str, str], logdir: Path) -> None:
        port = free_port()
        super().__init__(name, voila_command(notebook, port), port, cwd, env, logdir / f"voila-{name}.log")
        self.loads = 0  # pages served: each one took a kernel from the pool

    def kernel_ids(self) -> list[str]:
        """Kernels started so far, oldest first (from the server's log)."""
        return [line.split("Kernel started:")[1].strip() for line in self.log_text().splitlines()
                if "Kernel started:" in line]  # fmt: skip

    def kernel_pid(self, kernel_id: str) -> int | None:
        assert self.proc is not None
        for pid in descendants(self.proc.pid):
            line = cmdline(pid)
            if "ipykernel_launcher" in line and f"kernel-{kernel_id}.json" in line:
                return pid
        return None

    def wait_pool(self, timeout: float = 60, quiet: float = 1.0) -> str:
        """Wait until the next pool kernel has started and run the notebook (it and the server idle ``quiet`` s)."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while len(self.kernel_ids()) <= self.loads:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"Voilà ({self.name}): no pool kernel\n{self.log_text()[-3000:]}")
            time.sleep(0.1)
        kernel = self.kernel_ids()[self.loads]
        pid = None
        while pid is None:
            pid = self.kernel_pid(kernel)
            if time.monotonic() > deadline:
                raise RuntimeError(f"Voilà ({self.name}): kernel {kernel} has no process")
            time.sleep(0.1)
        watched = [pid, self.proc.pid]
        last = [cpu_seconds(p) for p in watched]
        still = time.monotonic()
        busy = 0.0
        while time.monotonic() - still < quiet:
            time.sleep(0.1)
            now = [cpu_seconds(p) for p in watched]
            if any(a is None or b is None or b - a > 0.02 for a, b in zip(last, now, strict=True)) or busy < 0.3:
                still = time.monotonic()
            busy = now[0] or 0.0
            last = now
            if time.monotonic() > deadline:
                raise RuntimeError(f"Voilà ({self.name}): the pool kernel never went idle")
        return kernel


@contextlib.contextmanager
def servers(*items: Voila) -> Iterator[None]:
    try:
        for item in items:
            item.start()
        for item in items:
            item.wait_http()
        yield
    finally:
        for item in items:
            item.stop()


# -- 2. one move in Python ------------------------------------------------------------------------------------


def engine_reply(state: Any, ai: Sequence[Any], move: Any) -> None:
    """The baseline: the same move and AI replies on a copy, with no advice, save or redraw."""
    from cut_tutor.engine import view

    state.apply(move)
    while not state.over and state.turn != 0:
        state.apply(ai[state.turn].choose_view(view(state, state.turn)))


def bench_move(report: Report, home: Path, runs: int, games: int, moves_per_game: int) -> None:
    from cut_tutor.coach import advise
    from cut_tutor.engine import view
    from cut_tutor.widgets import GameApp

    full: list[list[float]] = []
    engine: list[list[float]] = []
    advice_ms: list[float] = []
    redraw_ms: list[float] = []
    for run in range(runs):
        full.append([])
        engine.append([])
        for game_no in range(games):
            app = GameApp(home / f"move-{run}-{game_no}")
            app.set_pacing("Auto")
            app.set_coaching(True)
            app.deal(seed=1000 + game_no)
            assert app.game is not None and app.setup.rules.players == 4
            played = 0
            while played < moves_per_game:
                state = app.game.state
                if state.over:
                    if app.game.over:
                        break
                    app.next_hand()
                    continue
                advice = app.advice()  # computed by the previous redraw, as the page's Coach button shows it
                assert advice is not None
                move = advice.move if played % 2 == 0 else state.legal_moves()[0]
                twin, ai = state.copy(), copy.deepcopy(app.sitting.ai)
                start = time.perf_counter()
                engine_reply(twin, ai, move)
                engine[-1].append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                app.play(move)
                full[-1].append((time.perf_counter() - start) * 1000)
                after = app.game.state
                assert after.over or after.turn == 0
                if not after.over:
                    assert app.coach._advice is not None and app.coach._advice[0] is after, "advice not computed"
                    assert app.table.table["status"] == "Your turn", "table not redrawn"
                    if run == 0:  # the parts, once: the coach's advice alone and a redraw alone
                        start = time.perf_counter()
                        advise(view(after, 0), coach=app.setup.coach, level=app.setup.seats[0].level)
                        advice_ms.append((time.perf_counter() - start) * 1000)
                        start = time.perf_counter()
                        app.refresh()
                        redraw_ms.append((time.perf_counter() - start) * 1000)
                played += 1
    level = app.setup.seats[0].level
    all_full = [x for run in full for x in run]
    p50 = statistics.median(statistics.median(r) for r in full)
    base = statistics.median(statistics.median(r) for r in engine)
    report.add(Row("one move + AI replies + advice + redraw (p50)", p50, "ms", f"≤ {TARGET_MOVE_MS:.0f} ms", base,
                   p50 / base if base else None, p50 <= TARGET_MOVE_MS))  # fmt: skip
    p95 = pct(all_full, 0.95)
    report.add(Row("  same, p95", p95, "ms", f"≤ {TARGET_MOVE_MS:.0f} ms", pct([x for r in engine for x in r], 0.95),
                   None, p95 <= TARGET_MOVE_MS))  # fmt: skip
    report.note(
        f"one move: {len(all_full)} moves ({len(full[0])} per run × {runs} runs, {games} seeded games, "
        f"4 seats, Auto pacing, coaching on, Level {level}); value = median of the per-run medians, "
        f"slowest move {max(all_full):.1f} ms; baseline = the engine alone applying the same move and AI replies "
        "on a copy; parts, medians: "
        f"advice {statistics.median(advice_ms):.2f} ms, redraw (refresh) {statistics.median(redraw_ms):.2f} ms. "
        "In-process the widgets serialize their state but no kernel sends it."
    )


# -- 1. page loads --------------------------------------------------------------------------------------------


def baseline_notebook(folder: Path) -> Path:
    meta = json.loads(DASHBOARD.read_text(encoding="utf-8"))["metadata"]
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "counter", "metadata": {}, "outputs": [],
                   "source": BASELINE_CELL.splitlines(keepends=True)}],
        "metadata": meta, "nbformat": 4, "nbformat_minor": 5,
    }  # fmt: skip
    path = folder / "baseline.ipynb"
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    return path


def load_once(browser: Any, server: Voila, button: str, context: Any = None) -> tuple[float, float]:
    """One timed page load: (ms in the page from navigation start, ms of wall clock around ``goto``).

    Without ``context`` the load runs in a fresh browser context (cold HTTP cache)."""
    server.wait_pool()
    own = context is None
    if own:
        context = browser.new_context(viewport={"width": 1200, "height": 1600})
        context.add_init_script(READY_SCRIPT % json.dumps(button))
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        target = page.get_by_role("button", name=button, exact=True)
        start = time.perf_counter()
        page.goto(server.url, wait_until="commit")
        server.loads += 1
        target.wait_for(state="visible")
        page.wait_for_function("() => window.__benchReady !== undefined")
        wall = (time.perf_counter() - start) * 1000
        in_page = float(page.evaluate("window.__benchReady"))
        if not target.is_enabled():
            raise RuntimeError(f"{server.name}: the {button!r} button is disabled")
        page.goto("about:blank")  # beforeunload: Voilà shuts the page's kernel down
        page.close()
    finally:
        if own:
            context.close()
    return in_page, wall


def bench_loads(report: Report, browser: Any, dash: Voila, base: Voila, loads: int) -> None:
    cases = {"base": (base, BASE_BUTTON), "dash": (dash, DEAL)}
    cold: dict[str, list[tuple[float, float]]] = {"base": [], "dash": []}
    warm: dict[str, list[tuple[float, float]]] = {"base": [], "dash": []}
    contexts: dict[str, Any] = {}
    try:
        for name, (server, button) in cases.items():  # warm-up, not counted: it also fills the warm cache
            contexts[name] = browser.new_context(viewport={"width": 1200, "height": 1600})
            contexts[name].add_init_script(READY_SCRIPT % json.dumps(button))
            load_once(browser, server, button, contexts[name])
        for _ in range(loads):  # interleaved, so drift hits both alike
            for name, (server, button) in cases.items():
                cold[name].append(load_once(browser, server, button))
            for name, (server, button) in cases.items():
                warm[name].append(load_once(browser, server, button, contexts[name]))
    finally:
        for context in contexts.values():
            context.close()

    def med(times: dict[str, list[tuple[float, float]]], name: str, i: int) -> float:
        return statistics.median(x[i] for x in times[name])

    d, b = med(cold, "dash", 0), med(cold, "base", 0)
    report.add(Row("load → interactive, preheated, cold cache", d, "ms", f"≤ {TARGET_LOAD_RATIO}×", b, d / b,
                   d / b <= TARGET_LOAD_RATIO))  # fmt: skip
    d, b = med(warm, "dash", 0), med(warm, "base", 0)
    report.add(Row("  same, warm HTTP cache", d, "ms", f"≤ {TARGET_LOAD_RATIO}×", b, d / b,
                   d / b <= TARGET_LOAD_RATIO))  # fmt: skip
    d, b = med(cold, "dash", 1), med(cold, "base", 1)
    report.add(Row("  cold cache, wall clock around goto", d, "ms", "", b, d / b, None))

    def listing(times: list[tuple[float, float]]) -> str:
        return ", ".join(f"{x[0]:.0f}" for x in times)

    report.note(
        f"load: median of {loads} loads per notebook and cache state, interleaved, after one warm-up load each; "
        "value = performance.now() in the page (from navigation start) when the button is visible and enabled: "
        f"'{DEAL}' on the dashboard, the one anywidget button on the baseline; every load first waits until the "
        "pool kernel has run the notebook (kernel and server idle for 1 s). Cold = a fresh browser context per "
        "load; warm = one context per notebook, reused. ms, dashboard cold: "
        + listing(cold["dash"])
        + "; baseline cold: "
        + listing(cold["base"])
        + "; dashboard warm: "
        + listing(warm["dash"])
        + "; baseline warm: "
        + listing(warm["base"])
    )


# -- 2b. browser round trips and 3. kernel RSS after a full game ----------------------------------------------


def page_kernel(page: Any) -> str:
    return str(page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"))


def round_trips(page: Any, script: str, count: int, between: Callable[[], bool] | None = None) -> list[float]:
    out: list[float] = []
    while len(out) < count:
        if between is not None and not between():
            break
        value = page.evaluate(script, 20_000)
        if value is None:
            break
        out.append(float(value))
        page.wait_for_timeout(100)
    return out


def bench_browser(report: Report, browser: Any, dash: Voila, base: Voila, trips: int, game_timeout: float) -> bool:
    """Round trips on both pages, then a full game on the dashboard; returns whether the game finished."""
    from playwright.sync_api import expect

    # the baseline page: click the counter
    dash.wait_pool()
    base.wait_pool()
    context = browser.new_context(viewport={"width": 1200, "height": 1600})
    base_rss = None
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(base.url)
        base.loads += 1
        expect(page.locator("button.base-button")).to_be_visible()
        base_trips = round_trips(page, BASE_ROUND_TRIP, trips)
        pid = base.kernel_pid(page_kernel(page))
        base_rss = status_kb(pid, "VmRSS") if pid else None
        page.goto("about:blank")
    finally:
        context.close()

    dash.wait_pool()
    fresh = dash.kernel_ids()[dash.loads]
    fresh_pid = dash.kernel_pid(fresh)
    fresh_rss = status_kb(fresh_pid, "VmRSS") if fresh_pid else None
    finished = False
    context = browser.new_context(viewport={"width": 1200, "height": 1600})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        expect.set_options(timeout=30_000)
        page.goto(dash.url)
        dash.loads += 1
        deal = page.get_by_role("button", name=DEAL, exact=True)
        expect(deal).to_be_enabled()
        # Auto pacing, as the in-process move is timed: each click waits for the AI replies, not for Next
        page.locator(".widget-toggle-buttons", has_text="AI pacing").get_by_role("button", name="Auto").click()
        page.get_by_placeholder("random").fill("7")
        page.get_by_placeholder("random").press("Tab")
        deal.click()
        status = page.locator(".cut-table .cut-status")
        expect(status).to_have_text("Your turn")

        def ready_for_move() -> bool:
            text = status.inner_text()
            if "Game over" in text:
                return False
            if "over" in text:  # next hand: Continue, then wait for your turn
                page.locator("button.cut-next").click()
                expect(status).to_have_text("Your turn")
            return True

        dash_trips = round_trips(page, TABLE_ROUND_TRIP, trips, ready_for_move)
        d, b = median(dash_trips), median(base_trips)
        report.add(Row("  browser: click move → table redrawn (p50)", d, "ms", "", b,
                       d / b if d and b else None, None))  # fmt: skip
        report.note(
            f"browser round trip: median of {len(dash_trips)} clicks on the coach's (or the first) move button "
            f"until the table is redrawn with your turn, one frame included; baseline = {len(base_trips)} clicks "
            "on the anywidget counter until its new count is drawn (Python round trip)."
        )

        # a full game: Automate Player, then Continue after each hand until the game is over
        kernel = page_kernel(page)
        start = time.monotonic()
        page.locator("button.cut-automate").click()
        hands = 0
        while time.monotonic() - start < game_timeout:
            page.wait_for_function(
                "() => (document.querySelector('.cut-table .cut-status') || {}).textContent?.includes('over')",
                timeout=max(1000, int((game_timeout - (time.monotonic() - start)) * 1000)),
            )
            text = status.inner_text()
            hands += 1
            if "Game over" in text:
                finished = True
                break
            page.locator("button.cut-next").click()
            page.wait_for_function(
                "(old) => { const s = document.querySelector('.cut-table .cut-status');"
                " return s && s.textContent !== old; }",
                arg=text,
            )
        seconds = time.monotonic() - start
        page.wait_for_timeout(1500)  # let the kernel settle after the last redraw
        pid = dash.kernel_pid(kernel)
        rss = status_kb(pid, "VmRSS") if pid else None
        hwm = status_kb(pid, "VmHWM") if pid else None
        if finished and rss is not None:
            mb = rss / 1024
            base_mb = base_rss / 1024 if base_rss else None
            report.add(Row("kernel RSS after a full game (Voilà kernel)", mb, "MB", f"≤ {TARGET_RSS_MB:.0f} MB",
                           base_mb, mb / base_mb if base_mb else None, mb <= TARGET_RSS_MB))  # fmt: skip
            if fresh_rss:
                report.add(Row("  dashboard kernel, preheated, before use", fresh_rss / 1024, "MB", "", base_mb,
                               fresh_rss / base_rss if base_rss else None, None))  # fmt: skip
            report.note(
                f"kernel RSS: measured in the Voilà kernel process (ipykernel_launcher child of the Voilà server, "
                f"VmRSS from /proc) after a full game played in Chromium: deal (seed 7), {len(dash_trips)} moves "
                f"by click, then Automate Player and Continue until 'Game over' ({hands} hands, {seconds:.1f} s); "
                f"peak VmHWM {hwm / 1024 if hwm else 0:.1f} MB; baseline = the anywidget page's kernel after "
                "its clicks."
            )
        else:
            report.note(f"kernel RSS in Voilà: the game did not finish in {game_timeout:.0f} s ({hands} hands)")
        page.goto("about:blank")
    finally:
        context.close()
    return finished


GAME_IN_PROCESS = """
import json, os, sys
import anywidget, ipywidgets
from cut_tutor.widgets import GameApp
app = GameApp(sys.argv[1])
app.set_pacing("Auto")
app.deal(seed=7)
app.set_automate(True)
hands = 1
while not app.game.over:
    app.next()
    hands += 1
status = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in open("/proc/self/status"))
          if k in ("VmRSS", "VmHWM")}
print(json.dumps({"hands": hands, **status}))
"""

BASE_IN_PROCESS = """
import json
import anywidget, ipywidgets
status = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in open("/proc/self/status"))
          if k in ("VmRSS", "VmHWM")}
print(json.dumps(status))
"""


def bench_rss_process(report: Report, home: Path, primary: bool) -> None:
    """A plain Python process (no kernel): import the dashboard stack, play a full game with Automate on."""
    env = os.environ | {"CUT_TUTOR_HOME": str(home)}

    def run(code: str, *args: str) -> dict[str, int]:
        done = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True,
                              text=True, check=True, timeout=120)  # fmt: skip
        result: dict[str, int] = json.loads(done.stdout)
        return result

    game = run(GAME_IN_PROCESS, str(home / "rss-game"))
    base = run(BASE_IN_PROCESS)
    mb, base_mb = game["VmRSS"] / 1024, base["VmRSS"] / 1024
    name = "process RSS after a full game (no kernel)" if primary else "  same game in a plain process (no kernel)"
    report.add(Row(name, mb, "MB", f"≤ {TARGET_RSS_MB:.0f} MB" if primary else "", base_mb, mb / base_mb,
                   mb <= TARGET_RSS_MB if primary else None))  # fmt: skip
    report.note(
        f"plain process: python imports ipywidgets, anywidget and cut_tutor.widgets, creates the GameApp, plays a "
        f"full game with Automate on ({game['hands']} hands) and reads its own VmRSS (no kernel, no comm "
        f"traffic); baseline = a process that imports only anywidget and ipywidgets."
    )


# -- main -----------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=7, help="timed page loads per notebook (after one warm-up)")
    parser.add_argument("--runs", type=int, default=5, help="runs of the in-process move set")
    parser.add_argument("--trips", type=int, default=15, help="browser round trips per page")
    parser.add_argument("--no-browser", action="store_true", help="only the in-process measures")
    args = parser.parse_args(argv)

    report = Report()
    work = Path(tempfile.mkdtemp(prefix="cut-bench-"))
    home = work / "home"
    home.mkdir()
    os.environ["CUT_TUTOR_HOME"] = str(home)
    started = time.monotonic()
    try:
        print("one move in Python …", flush=True)
        bench_move(report, home, runs=args.runs, games=4, moves_per_game=10)

        finished = False
        if args.no_browser:
            report.note("browser measures skipped (--no-browser)")
        elif CHROMIUM is None:
            report.note("browser measures skipped: chromium is not on PATH")
        else:
            from playwright.sync_api import sync_playwright

            base_dir = work / "baseline"
            base_dir.mkdir()
            env = os.environ | {"CUT_TUTOR_HOME": str(home / "voila"), "PYTHONUNBUFFERED": "1"}
            dash = Voila("dashboard", DASHBOARD, ROOT, env, work)
            base = Voila("baseline", baseline_notebook(base_dir), base_dir, env, work)
            print("starting Voilà (dashboard and baseline) …", flush=True)
            with servers(dash, base), sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                try:
                    print("page loads …", flush=True)
                    bench_loads(report, browser, dash, base, args.loads)
                    print("browser round trips and a full game …", flush=True)
                    try:
                        finished = bench_browser(report, browser, dash, base, args.trips, game_timeout=90)
                    except Exception as exc:  # the page-load figures still stand
                        report.note(f"browser game failed: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
                finally:
                    browser.close()
        print("full game in a plain process …", flush=True)
        bench_rss_process(report, home, primary=not finished)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load1, load5, _ = os.getloadavg()
    report.note(f"machine: {os.cpu_count()} CPUs, load average {load1:.1f} (1 min) / {load5:.1f} (5 min) at the end; "
                "other work on the machine widens the spread of the page loads (see the listed loads).")  # fmt: skip
    report.print()
    print(f"\n({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
