"""A dashboard kernel's own CPU: its start-up (imports and the app's widgets) and one move of a seeded hand.

On a shared server every kernel's start-up competes with the other learners' moves, so the figures are CPU
seconds of the kernel's process (``time.process_time``), not wall time, and hold on a busy machine.

    python benchmarks/bench_kernel_start.py              # 5 fresh processes, one seeded hand
    python benchmarks/bench_kernel_start.py --runs 9 --seed 7 --moves 80

Start-up runs the dashboard notebook's cell (``cut_tutor/dashboard/dashboard.ipynb``) in a fresh Python process,
``ipykernel`` already loaded as in a kernel: the import of ``cut_tutor.widgets``, then
``GamePicker(GameApp(auto_delay=0.6))`` in an empty home. It counts the widgets made (``ipywidgets.Widget.widgets``)
and the bytes of their state as JSON (what the kernel sends the page when it opens them). A move is one press in
Step pacing, the dashboard's default: Coach on your turn, Next for an AI seat's; with its save, the coach's advice
and the redraw. Median of each press over half as many processes as ``--runs``.

The same cell then runs in as many real kernels (``jupyter_client``), where each widget's state also goes out as a
message: the kernel's CPU and the widget messages on IOPub, for the cell, for the page's first message (``ready``,
naming the learner and the tab, which the table's page sends once drawn) and for each of :data:`PRESSES` presses of
a seeded game as the page's messages run them, and the kernel's peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "cut_tutor" / "dashboard" / "dashboard.ipynb"
sys.path.insert(0, str(ROOT))  # the package of this tree


def start_up(home: str) -> dict[str, Any]:
    """The dashboard cell in this (fresh) process: CPU seconds to import and to build, widgets and their bytes."""
    import ipykernel.kernelapp  # noqa: F401  a kernel has it loaded before it runs the cell

    t0 = time.process_time()
    import ipywidgets as w

    from cut_tutor.widgets import GameApp, GamePicker

    t1 = time.process_time()
    GamePicker(GameApp(home, auto_delay=0.6))
    t2 = time.process_time()
    widgets = list(w.Widget.widgets.values())  # ipywidgets 8 keeps every open widget here
    state = sum(len(json.dumps(widget.get_state(), default=str)) for widget in widgets)
    return {"import_s": t1 - t0, "build_s": t2 - t1, "widgets": len(widgets), "state_bytes": state}


def in_kernel(home: str) -> dict[str, Any]:
    """The dashboard's cell run by a real kernel, then the page's first message (``ready``, naming its learner and
    tab, as the table's page sends it): the kernel's CPU for each (the widgets' messages included) and what each
    sends on IOPub."""
    from jupyter_client.manager import start_new_kernel

    cell = "".join(json.loads(NOTEBOOK.read_text())["cells"][0]["source"])
    ready = 'app.table.receive({"type": "ready", "learner": "bench", "tab": "bench-tab"})'
    env = {**os.environ, "CUT_TUTOR_HOME": home, "PYTHONPATH": str(ROOT)}
    manager, client = start_new_kernel(kernel_name="python3", env=env, cwd=home)
    result: dict[str, Any] = {}
    try:
        for name, code in (("cell", cell), ("ready", ready)):
            client.execute_interactive("import time\n_bench_t0 = time.process_time()", timeout=60)
            messages: list[dict[str, Any]] = []
            client.execute_interactive(code, timeout=120, output_hook=messages.append)
            said: list[dict[str, Any]] = []
            client.execute_interactive("print(time.process_time() - _bench_t0)", timeout=60, output_hook=said.append)
            spent = next(m["content"]["text"] for m in said if m["msg_type"] == "stream")
            comms = [m for m in messages if m["msg_type"] in ("comm_open", "comm_msg")]
            sent = sum(
                len(json.dumps(m["content"], default=str)) + len(b"".join(m.get("buffers") or [])) for m in comms
            )
            result[name] = {"s": float(spent), "messages": len(comms), "bytes": sent}
        result["presses"] = kernel_presses(client, PRESSES)
        said = []
        client.execute_interactive(
            "import resource\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)", timeout=60,
            output_hook=said.append,
        )  # fmt: skip
        result["rss_mb"] = int(next(m["content"]["text"] for m in said if m["msg_type"] == "stream")) / 1024
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    return result


#: The presses timed in a real kernel after the cell: a seeded game (seed 3), Coach on your turn, Next for an AI seat.
PRESSES = 30
#: One press run by the kernel as the page's message runs it (the table's ``receive``), with its CPU.
PRESS = """
_t0 = time.process_time()
_mine = app.loop.pause is None and app.game.state.turn == 0 and not app.game.state.over
app.table.receive({"type": "coach_play" if _mine else "next"})
print(time.process_time() - _t0, app.game.over)
"""


def kernel_presses(client: Any, count: int) -> list[dict[str, Any]]:
    """Each press's CPU in the kernel and the widget messages and bytes it sends on IOPub (the verdict line
    switched off: the table's own work and traffic)."""
    setup = ("import time\nfrom cut_tutor.widgets.coach_panel import CoachPanel\nCoachPanel.verdicts = False\n"
             "app.deal(seed=3)")  # fmt: skip
    client.execute_interactive(setup, timeout=60)
    out = []
    for _ in range(count):
        messages: list[dict[str, Any]] = []
        client.execute_interactive(PRESS, timeout=60, output_hook=messages.append)
        text = "".join(m["content"]["text"] for m in messages if m["msg_type"] == "stream").split()
        comms = [m for m in messages if m["msg_type"] in ("comm_open", "comm_msg")]
        sent = sum(len(json.dumps(m["content"], default=str)) + len(b"".join(m.get("buffers") or [])) for m in comms)
        out.append({"s": float(text[0]), "messages": len(comms), "bytes": sent})
        if text[1] == "True":
            break
    return out


def moves(home: str, seed: int, count: int) -> list[float]:
    """CPU milliseconds of each press (Coach or Next) over a seeded game, up to ``count`` presses."""
    from cut_tutor.widgets import GameApp

    app = GameApp(home)
    app.deal(seed=seed)
    spent = []
    for _ in range(count):
        game = app.need_game()
        if game.over:
            break
        press = app.coach_play if app.loop.pause is None and game.state.turn == 0 and not game.state.over else app.next
        t0 = time.process_time()
        press()
        spent.append((time.process_time() - t0) * 1000)
    return spent


def child(kind: str, seed: int, count: int) -> None:
    with tempfile.TemporaryDirectory() as home:
        if kind == "kernel":
            result = in_kernel(home)
        else:
            result = start_up(home) if kind == "start" else {"moves_ms": moves(home, seed, count)}
    print(json.dumps(result))


def run(kind: str, seed: int = 0, count: int = 0) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", kind, "--seed", str(seed), "--moves", str(count)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    result: dict[str, Any] = json.loads(out.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes for the start-up (medians)")
    parser.add_argument("--seed", type=int, default=3, help="the seeded game whose presses are timed")
    parser.add_argument("--moves", type=int, default=60, help="presses timed, at most (a game that ends stops)")
    parser.add_argument("--child", choices=["start", "kernel", "moves"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.seed, args.moves)
        return
    starts = [run("start") for _ in range(args.runs)]

    def median(key: str) -> float:
        return statistics.median(s[key] for s in starts)

    print(f"kernel start-up, median of {args.runs} fresh processes (CPU):")
    print(f"  import cut_tutor.widgets   {median('import_s'):.3f} s")
    print(f"  build the dashboard's app  {median('build_s'):.3f} s")
    print(f"  widgets made               {median('widgets'):.0f}")
    print(f"  their state as JSON        {median('state_bytes') / 1000:.0f} kB")
    kernels = [run("kernel") for _ in range(max(1, args.runs // 2))]
    print(f"in a kernel, median of {len(kernels)} kernels (CPU of the kernel's process, its messages included):")
    for step, what in (("cell", "the dashboard's cell"), ("ready", "the page's first message")):
        cpu = statistics.median(k[step]["s"] for k in kernels)
        sent = statistics.median(k[step]["messages"] for k in kernels)
        size = statistics.median(k[step]["bytes"] for k in kernels) / 1000
        print(f"  {what:26} {cpu:.3f} s, {sent:.0f} widget messages, {size:.0f} kB")
    presses = [p for k in kernels for p in k["presses"]]
    print(
        f"  one press (Coach or Next)  {statistics.median(p['s'] for p in presses) * 1000:.1f} ms CPU at the median,"
        f" {statistics.mean(p['messages'] for p in presses):.1f} widget messages and"
        f" {statistics.mean(p['bytes'] for p in presses) / 1000:.1f} kB a press on average"
        f" ({len(presses)} presses, seed 3)"
    )
    print(f"  the kernel's peak memory   {statistics.median(k['rss_mb'] for k in kernels):.0f} MB")
    runs = [run("moves", args.seed, args.moves)["moves_ms"] for _ in range(max(1, args.runs // 2))]
    per_move = [statistics.median(presses) for presses in zip(*runs, strict=False)]  # each press, median of runs
    per_move.sort()
    p95 = per_move[min(len(per_move) - 1, round(0.95 * (len(per_move) - 1)))]
    print(f"one press (Coach or Next, Step pacing), seed {args.seed}, {len(per_move)} presses (CPU):")
    print(f"  median {statistics.median(per_move):.1f} ms, p95 {p95:.1f} ms, total {sum(per_move):.0f} ms")


if __name__ == "__main__":
    main()
