"""The ``cut-tutor`` command: ``simulate``, ``advise``, ``analyse``, ``review``, ``dashboard``, ``cardclear`` and
``class``."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from . import __version__
from .coach.styles import DEFAULT_LEVEL, LEVELS
from .compiled import ACTIVE
from .engine import PositionError, RulesError, State, load_rules, view
from .engine.reading import load_json


@contextmanager
def _progress(quiet: bool, unit: str, bar_format: str | None = None) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr, told ``(done, total)``: none with ``--quiet``, and none when stderr is not a
    terminal (a log or a pipe would keep every redrawn line)."""
    if quiet:
        yield None
        return
    from tqdm import tqdm

    with tqdm(file=sys.stderr, unit=unit, bar_format=bar_format, disable=None) as bar:

        def show(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        yield show


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play hands between AI seats and print the summary table."""
    from .sim import simulate, summary

    rules = load_rules(args.rules)
    if len(args.seats) != rules.players:
        from dataclasses import replace

        rules = replace(rules, players=len(args.seats))
    executor = None
    if args.workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        executor = ProcessPoolExecutor(args.workers)
    try:
        with _progress(args.quiet, "batch") as progress:
            frame = simulate(
                args.seats,
                rules,
                hands=args.hands,
                seed=args.seed,
                executor=executor,
                duplicate=args.duplicate,
                progress=progress,
            )
    finally:
        if executor is not None:
            executor.shutdown()
    table = summary(frame)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    stalemates = frame.groupby(["hand", "rotation"])["stalemate"].first().mean()
    print(f"\n{len(frame.groupby(['hand', 'rotation']))} hands, stalemates {stalemates:.3%}")
    if args.out:
        frame.to_csv(args.out, index=False)
        print(f"rows written to {args.out}")
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    """Print the move-value table and the explanation for the seat to move in a position file, in the table's
    words: the turn and the seat as the table names them, each move by its button."""
    from .coach import COACH_STYLE, advise
    from .coach.scoring import COMPONENTS
    from .engine.words import SEAT_NAMES, aligned
    from .review.words import position_title

    state = State.from_position(Path(args.position).read_text(encoding="utf-8"))
    seat_view = view(state, state.turn)
    coaches = list(COACH_STYLE) if args.coach == "all" else [args.coach]
    for coach in coaches:
        advice = advise(seat_view, coach, args.level, SEAT_NAMES)
        print(f"{coach} ({args.level}) — {position_title(seat_view, SEAT_NAMES)}")
        rows = [(advice.labels[c.move], *(f"{c.components[k]:.1f}" for k in COMPONENTS), f"{c.total:.1f}",
                 "recommended" if c.move == advice.move else "") for c in advice.candidates]  # fmt: skip
        print("\n".join(aligned([("move", *COMPONENTS, "total", ""), *rows])))
        print(f"\n{advice.text}\n")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    """Print every legal move's Monte-Carlo value for the seat to move in a position file: a table in the table's
    words (the turn, the seat's name, each move by its button), or JSON or CSV for programs."""
    import json

    from .analysis import analyse
    from .analysis.evaluations import seed_of
    from .engine.words import SEAT_NAMES
    from .review.words import position_title

    state = State.from_position(Path(args.position).read_text(encoding="utf-8"))
    seen = view(state, state.turn)
    seconds = args.seconds if args.seconds is not None else (None if args.rollouts else 2.0)
    executor = None
    if args.workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        executor = ProcessPoolExecutor(args.workers)
    try:
        with _progress(args.quiet, "%", "{percentage:3.0f}%|{bar}| {elapsed}") as shown:
            share = None if shown is None else lambda spent: shown(round(100 * spent), 100)
            seed = seed_of(seen) if args.seed is None else args.seed
            result = analyse(seen, seconds=seconds, seed=seed, executor=executor, max_rollouts=args.rollouts,
                             progress=share)  # fmt: skip
    finally:
        if executor is not None:
            executor.shutdown()
    if args.json:
        for move in result.moves:
            print(json.dumps(move.to_dict(), ensure_ascii=False))
    elif args.csv:
        sys.stdout.write(result.to_frame().to_csv(index=False))
    else:
        print(position_title(seen, SEAT_NAMES))
        print(result.status)
        print("\n".join(result.lines()))
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """Grade every decision of one seat in a finished hand's record: a table, or JSON lines then a summary."""
    import json

    from .engine.words import SEAT_NAMES, aligned, count, seat_name
    from .review import review
    from .review.hand import DEAL_ROLLOUTS, ROLLOUTS
    from .review.words import REVIEW_COLUMNS, luck_parts, review_cells, review_summary

    record = load_json(Path(args.record).read_text(encoding="utf-8"), "record")
    executor = None
    if args.workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        executor = ProcessPoolExecutor(args.workers)
    deals = DEAL_ROLLOUTS if args.deal_rollouts is None else args.deal_rollouts
    rollouts = ROLLOUTS if args.rollouts is None else args.rollouts
    try:
        result = review(record, args.seat, seconds=args.seconds, rollouts=rollouts, seed=args.seed,
                        executor=executor, deal_rollouts=deals, level=args.level)  # fmt: skip
    finally:
        if executor is not None:
            executor.shutdown()
    if args.json:
        for row in result.rows():
            print(json.dumps(row, ensure_ascii=False))
        return 0
    table = [REVIEW_COLUMNS, *(review_cells(d.turn, d.label, d.coaches, d.best_label, d.loss, d.loss_low, d.loss_high,
                                           d.grade) for d in result.decisions)]  # fmt: skip
    print("\n".join(aligned(table)))
    s = result.summary
    print(f"{seat_name(s.seat, SEAT_NAMES)}: {count(s.points, 'point')} · "
          + review_summary(s.accuracy, s.lost_to_mistakes, s.luck, s.graded))  # fmt: skip
    print(luck_parts(s.average, s.lost, s.luck_deal, s.luck_blind, s.luck_play))
    return 0


def cmd_dashboard(args: argparse.Namespace) -> int:
    """Serve the dashboard notebook, shipped in the package, with Voilà on 127.0.0.1."""
    from . import dashboard, roster
    from .identity import class_home

    if not (dashboard.guide_dir() / "index.html").is_file():
        print("note: the guide is not built (make guide, or install a built package); help links will not open",
              file=sys.stderr)  # fmt: skip
    env = os.environ | {"PYTHONUNBUFFERED": "1"}
    if args.home:
        env["CUT_TUTOR_HOME"] = str(Path(args.home).expanduser().resolve())
    print(f"cut_tutor {__version__}: the dashboard is at http://127.0.0.1:{args.port}/ (Ctrl+C stops it)", flush=True)
    home = Path(env["CUT_TUTOR_HOME"]) if "CUT_TUTOR_HOME" in env else None
    if home is not None and class_home(home):
        print(f"{home} holds a class of {len(roster.names(home))}: each learner signs in with their password",
              flush=True)  # fmt: skip
    command = voila_command(dashboard.notebook(), args.port, browser=not args.no_browser)
    return _wait_forwarding_signals(subprocess.Popen(command, env=env))


#: Seconds Voilà has to stop after the launcher is told to, before it is killed.
GRACE = 20.0


def _wait_forwarding_signals(child: subprocess.Popen[bytes], grace: float = GRACE) -> int:
    """Wait for ``child``; on SIGINT or SIGTERM stop it, so that stopping the launcher never orphans Voilà.

    Voilà is sent SIGTERM either way: it stops its loop on SIGTERM, while a SIGINT is a KeyboardInterrupt wherever
    Voilà happens to be, and one that lands while it starts its kernels can be lost. If it has not stopped within
    ``grace`` seconds it is killed (its kernels notice their parent is gone and stop too).
    """
    asked: list[float] = []

    def forward(_signum: int, _frame: FrameType | None) -> None:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            asked.append(time.monotonic())

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while True:
            try:
                return child.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                if asked and time.monotonic() - asked[0] > grace:
                    child.kill()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def voila_command(notebook: Path, port: int, *, browser: bool = False) -> list[str]:
    """The Voilà command line serving ``notebook`` on 127.0.0.1 only, with the guide (the browser tests use it too).

    Voilà's files are served from the notebook's own folder, and its settings (preheated kernel, idle culling,
    no other files) come from the package's ``voila.json`` whatever the working directory. Where the system has
    them (not Windows), the kernels talk to the server over local sockets rather than TCP ports: a class's 30
    kernels starting at once raced for the same free port, and the one that lost died at start.
    """
    from . import dashboard

    config = Path(dashboard.__file__).parent
    command = [sys.executable, "-m", "cut_tutor.dashboard.server", str(notebook), f"--port={port}",
               "--Voila.ip=127.0.0.1", f"--Voila.root_dir={notebook.parent}", "--template=cut_tutor",
               f"--Voila.config_file_paths={config}"]  # fmt: skip
    if os.name == "posix":
        command.append("--KernelManager.transport=ipc")
    if not browser:
        command.append("--no-browser")
    return command


def cmd_cardclear(args: argparse.Namespace) -> int:
    """Card Clear from a board code: ``show`` the board, ``hint`` every swap's value, ``solve`` with the Hint."""
    import json

    from .cardclear import Puzzle, board_text
    from .cardclear.hint import hint, solve

    state = Puzzle.from_code(args.code)
    if args.action == "show":
        print(f"Card Clear {state.code}: level {state.level}, {state.moves_left} moves, goals "
              + ", ".join(str(goal) for goal in state.row.goals))  # fmt: skip
        print(board_text(state))
    elif args.action == "hint":
        advice = hint(state)
        if args.json:
            for row in advice.rows():
                print(json.dumps(row))
            return 0
        for row in advice.rows():
            mark, least = "*" if row["best"] else " ", " " if row["sure"] else "≥"
            print(f"{mark} {row['swap']}  points {least}{row['points']:>4} (base {row['base']}, ×{row['combo']:g})"
                  f"  moves +{row['extra_moves']}  goal {row['goal']:>5}  look {row['lookahead']:>5}"
                  f"  finish {row['finish']:>6}  total {row['total']:>7}")  # fmt: skip
        print(advice.text)
    else:
        solve(state)
        result = state.result()
        print(" ".join(str(swap) for swap in state.swaps))
        print(f"score {result['score']} + bonus {result['bonus']} = {result['final']}, "
              f"{'passed' if result['passed'] else 'failed'}, stars {result['stars']}")  # fmt: skip
        for goal in result["goals"]:
            print(
                f"  {goal['goal']}: {goal['have']}/{goal['need']}"
                + (f", {goal['short']} short" if goal["short"] else "")
            )
    return 0


def cmd_class(args: argparse.Namespace) -> int:
    """A teacher's table of every learner in a tutor home (their games, or with ``--progress`` their reviewed
    hands' accuracy and kinds of mistake); what could not be read goes to stderr. ``add``, ``teacher``, ``reset`` and
    ``remove`` change the class's roster: a new password is printed once, here, and kept only as a hash."""
    from .classroom import class_view, table_csv

    if args.action:
        return _change_roster(args.home, args.action, args.names)
    if args.names:
        raise ValueError("names follow add, teacher, reset or remove")
    if not Path(args.home).is_dir():
        raise ValueError(f"{args.home} is not a folder")
    if args.serve:
        return _serve_class(args.home, args.port)
    view = class_view(args.home)  # the class's page reads the same
    table, problems = (view.progress if args.progress else view.summary), view.problems
    if args.csv:
        sys.stdout.write(table_csv(table))
    elif table.empty:
        print(f"no learners in {Path(args.home) / 'learners'}")
    else:
        print(table.to_string(index=False, na_rep="-"))
    for problem in problems:
        print(f"note: {problem}", file=sys.stderr)
    return 0


def class_server(home: str | os.PathLike[str], port: int) -> tuple[list[str], dict[str, str], str]:
    """The Voilà command line, environment and token that serve the class's page for ``home`` on 127.0.0.1: it
    serves nothing without the token (handed over in the environment, never on a command line others can list),
    and its page's kernel is told that whoever reached it holds the token (:func:`~cut_tutor.classroom.is_teacher`).
    """
    import secrets

    from . import dashboard
    from .classroom import TEACHER_SERVER_ENV

    token = secrets.token_urlsafe(24)
    env = os.environ | {"PYTHONUNBUFFERED": "1", "CUT_TUTOR_HOME": str(Path(home).expanduser().resolve()),
                        "JUPYTER_TOKEN": token, TEACHER_SERVER_ENV: "1"}  # fmt: skip
    # the token is the one sign-in, even where the home holds a class whose learners sign in to its dashboard
    sign_in = ["--token", "--Voila.identity_provider_class=jupyter_server.auth.identity.PasswordIdentityProvider",
               "--Voila.authorizer_class=jupyter_server.auth.authorizer.AllowAllAuthorizer"]  # fmt: skip
    return [*voila_command(dashboard.class_notebook(), port), *sign_in], env, token


def _serve_class(home: str, port: int) -> int:
    """Serve the class's page for its teacher until stopped; its address, with the token, is printed here only."""
    command, env, token = class_server(home, port)
    print(f"cut_tutor {__version__}: the class's page is at http://127.0.0.1:{port}/?token={token}"
          " (for you only: the token opens it; Ctrl+C stops it)", flush=True)  # fmt: skip
    return _wait_forwarding_signals(subprocess.Popen(command, env=env))


def _change_roster(home: str, action: str, names: list[str]) -> int:
    """Add learners (or teachers) to the class in ``home``, give them new passwords, or take them off; each new
    password is printed once for the teacher to hand out."""
    from . import roster

    if not names:
        raise ValueError(f"{action} needs the learners' names")
    for name in names:
        if action == "remove":
            roster.remove(home, name)
            print(f"{name}: removed from the class (their games stay in their folder)")
        else:
            teacher = action == "teacher"
            password = roster.reset(home, name) if action == "reset" else roster.add(home, name, teacher=teacher)
            print(f"{name}: password {password}")
    if action == "teacher":
        print("The password is shown only now. A teacher signs in to the class's dashboard "
              f"(cut-tutor dashboard --home {home}) as a learner does, and is shown the class's page.")  # fmt: skip
    elif action != "remove":
        print("Hand each learner their password: it is shown only now. They sign in to the class's dashboard "
              f"(cut-tutor dashboard --home {home}).")  # fmt: skip
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cut-tutor", description="Clear, Under or Take: tutor and lab")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}: {ACTIVE}")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play hands between AI seats and summarise")
    sim.add_argument(
        "--seats", nargs="+", required=True, help="Level:Style per seat, Random, Greedy or Analysis[:ROLLOUTS[:open]]"
    )
    sim.add_argument("--hands", type=int, default=200)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--rules", default="USA", help="a preset (USA, Canada) or a rules JSON file")
    sim.add_argument("--workers", type=int, default=1)
    sim.add_argument("--duplicate", action="store_true", help="every seat rotation plays each shuffle")
    sim.add_argument("--out", help="write one row per hand and seat to this CSV file")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=cmd_simulate)

    adv = sub.add_parser("advise", help="the coach's move-value table for a position file")
    adv.add_argument("position", help="a JSON position file")
    adv.add_argument("--coach", default="Madonna", choices=["Daryl", "Madonna", "Marty", "all"])
    adv.add_argument("--level", default="Expert", choices=["Average", "Experienced", "Expert"])
    adv.set_defaults(func=cmd_advise)

    ana = sub.add_parser("analyse", help="every legal move's expected points, played out to the end of the hand")
    ana.add_argument("position", help="a JSON position file")
    ana.add_argument("--seconds", type=float, help="time budget (default 2; none when only --rollouts is given)")
    ana.add_argument("--rollouts", type=int, help="rollout budget, all moves together: repeatable for a seed")
    ana.add_argument("--seed", type=int, help="the deals' seed (default: the position's own, as the tutor's)")
    ana.add_argument("--workers", type=int, default=1)
    ana.add_argument("--quiet", action="store_true", help="no progress bar")
    out = ana.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object per legal move")
    out.add_argument("--csv", action="store_true", help="one CSV row per legal move")
    ana.set_defaults(func=cmd_analyse)

    rev = sub.add_parser("review", help="grade every decision of one seat in a finished hand's record")
    rev.add_argument("record", help="a JSON hand record")
    rev.add_argument("--seat", type=int, required=True)
    rev.add_argument("--json", action="store_true", help="one JSON object per decision, then a summary object")
    rev.add_argument("--seconds", type=float, help="time budget of the whole review (default: none)")
    rev.add_argument("--rollouts", type=int, help="rollout budget of each decision at most (default 160)")
    rev.add_argument("--deal-rollouts", type=int, help="fresh deals that measure the deal's luck (default 64)")
    rev.add_argument("--seed", type=int, default=0, help="the seed of the fresh deals that measure the deal's luck")
    rev.add_argument("--workers", type=int, default=1)
    rev.add_argument(
        "--level",
        default=DEFAULT_LEVEL,
        choices=list(LEVELS),
        help=f"the learner's Level, whose coaches' advice each move is held to (default {DEFAULT_LEVEL})",
    )
    rev.set_defaults(func=cmd_review)

    dash = sub.add_parser("dashboard", help="serve the tutor's dashboard with Voilà on 127.0.0.1")
    dash.add_argument("--port", type=int, default=8866)
    dash.add_argument("--no-browser", action="store_true")
    dash.add_argument("--home", help="where saves and history live (default: CUT_TUTOR_HOME or the user data folder)")
    dash.set_defaults(func=cmd_dashboard)

    card = sub.add_parser("cardclear", help="Card Clear: show a board code, list the Hint's values, or solve it")
    card.add_argument("action", choices=["show", "hint", "solve"])
    card.add_argument("code", help="a board code: level and deal number, such as 12-0")
    card.add_argument("--json", action="store_true", help="hint: one JSON object per legal swap")
    card.set_defaults(func=cmd_cardclear)

    room = sub.add_parser(
        "class", help="a teacher's table of a tutor home's learners; add, reset or remove learners and teachers"
    )
    room.add_argument("home", help="the tutor home: its learners/ folder holds one folder per learner")
    room.add_argument(
        "action",
        nargs="?",
        choices=["add", "teacher", "reset", "remove"],
        help="add learners to the class (each gets a password), add its teachers, give new passwords, or take off",
    )
    room.add_argument("names", nargs="*", help="the learners' or teachers' names (letters, digits, '-' or '_')")
    room.add_argument("--csv", action="store_true", help="the table as CSV")
    room.add_argument(
        "--progress", action="store_true", help="each learner's reviewed hands: accuracy, points lost, kinds of mistake"
    )
    room.add_argument("--serve", action="store_true", help="serve the class's page for you, its teacher, on 127.0.0.1")
    room.add_argument("--port", type=int, default=8867, help="the class's page's port (with --serve)")
    room.set_defaults(func=cmd_class)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``cut-tutor``; bad input ends with a one-line error and exit status 2."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (RulesError, PositionError, ValueError, OSError) as exc:  # a RosterError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
