"""A class on one dashboard server: N learners (10 by default) playing at once, each in a browser context of its
own against one Voilà server on 127.0.0.1. Every learner deals a seeded game and plays its moves as fast as the
table answers; the figures are the latency of one move (click → the table redrawn with your turn, AI replies and
advice included) over all learners, and each learner's kernel memory.

    python benchmarks/load_classroom.py [--learners 10] [--moves 12]

Bounded: a fixed number of learners and moves, every request to 127.0.0.1, a time limit on each move.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_dashboard import (
    ARGS,
    CHROMIUM,
    DASHBOARD,
    ROOT,
    TABLE_ROUND_TRIP,
    Voila,
    pct,
    servers,
    status_kb,
)

TARGET_P95_MS = 250.0
TARGET_MB = 150.0


async def learner(browser: Any, url: str, seed: int, moves: int) -> tuple[list[float], str]:
    """One learner: a browser context of their own, a seeded deal, then ``moves`` moves; returns the move times and
    the learner's kernel id."""
    from playwright.async_api import expect

    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    page.set_default_timeout(120_000)
    await page.goto(url)
    await expect(page.get_by_role("button", name="Deal & play")).to_be_visible(timeout=180_000)
    await page.get_by_placeholder("random").fill(str(seed))
    await page.get_by_placeholder("random").press("Tab")
    await page.get_by_role("button", name="Deal & play").click()
    status = page.locator(".cut-table .cut-status")
    await expect(status).to_have_text("Your turn", timeout=120_000)
    times: list[float] = []
    while len(times) < moves:
        text = await status.inner_text()
        if "over" in text:
            break
        value = await page.evaluate(TABLE_ROUND_TRIP, 30_000)
        if value is None:
            break
        times.append(float(value))
    return times, await page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


async def run(url: str, learners: int, moves: int) -> tuple[list[list[float]], list[str], float]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        start = time.monotonic()
        results = await asyncio.gather(*(learner(browser, url, seed, moves) for seed in range(1, learners + 1)))
        wall = time.monotonic() - start
        await browser.close()
    return [times for times, _ in results], [kernel for _, kernel in results], wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=10)
    parser.add_argument("--moves", type=int, default=12)
    args = parser.parse_args(argv)
    if CHROMIUM is None:
        print("chromium is not on PATH", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="cut-load-") as folder:
        work = Path(folder)
        env = os.environ | {"CUT_TUTOR_HOME": str(work / "home"), "PYTHONUNBUFFERED": "1"}
        server = Voila("load", DASHBOARD, ROOT, env, work)
        with servers(server):
            server.wait_pool()
            times, kernels, wall = asyncio.run(run(server.url, args.learners, args.moves))
            rss = [status_kb(pid, "VmRSS") for pid in (server.kernel_pid(k) for k in kernels) if pid]
            learners = sorted((work / "home" / "learners").iterdir())
        flat = [t for learner_times in times for t in learner_times]
        mb = [kb / 1024 for kb in rss if kb]
        p95 = pct(flat, 0.95)
        print(f"{args.learners} learners at once on one server, {len(flat)} moves in {wall:.0f} s")
        print(f"  one move, click → table redrawn: p50 {statistics.median(flat):.0f} ms, p95 {p95:.0f} ms"
              f" (target ≤ {TARGET_P95_MS:.0f} ms)")  # fmt: skip
        print(f"  kernel memory per learner: median {statistics.median(mb):.0f} MB, max {max(mb):.0f} MB"
              f" (target ≤ {TARGET_MB:.0f} MB)")  # fmt: skip
        print(f"  learner folders: {len(learners)} (one per browser)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
