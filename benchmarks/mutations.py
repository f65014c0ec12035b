"""Deliberate breakages the tests must catch: each is applied alone to a copy of the project and its tests run.

A mutation is one text replacement in one source file (rules, honesty, undo, saves, validation). The copy lives in a
temporary folder and is imported from there (the tests run with it as their working directory), so the project
itself is never touched. A mutation whose text no longer occurs is reported as stale, never as caught.

    python benchmarks/mutations.py               # every mutation: caught or MISSED, and how long its tests took
    python benchmarks/mutations.py undo-any-play # the ones named
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent

RULES = ("tests/test_rules.py", "tests/test_gaps.py", "tests/test_clear4.py", "tests/test_codes_storage.py")
HONESTY = (
    "tests/test_widgets.py",
    "tests/test_coach.py",
    "tests/test_properties.py::test_view_never_shows_a_hidden_card",
)
UNDO = ("tests/test_widgets.py::TestUndo", "tests/test_undo.py", "tests/test_gaps.py")
SAVES = (
    "tests/test_codes_storage.py",
    "tests/test_storage_safety.py",
    "tests/test_fail_soft.py",
    "tests/test_saves.py",
)
VALID = ("tests/test_edges.py", "tests/test_storage_safety.py", "tests/test_codes_storage.py")


class Mutation(NamedTuple):
    """One breakage: in ``path`` the text ``old`` (found exactly once) becomes ``new``; ``tests`` must fail."""

    name: str
    area: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


CUT, CORE, CLEAR4 = "cut_tutor/engine/cut.py", "cut_tutor/engine/core.py", "cut_tutor/engine/clear4.py"
LIMITS, READING = "cut_tutor/engine/cut_limits.py", "cut_tutor/engine/reading.py"
GAME, VIEW, STATE = "cut_tutor/engine/game.py", "cut_tutor/engine/view.py", "cut_tutor/engine/state.py"
FILES, HISTORY, SHELF = "cut_tutor/storage/files.py", "cut_tutor/storage/history.py", "cut_tutor/storage/saves.py"
POSITION = "cut_tutor/engine/position.py"
LOOP, FORM, SHARED = "cut_tutor/widgets/play_loop.py", "cut_tutor/widgets/setup_form.py", "cut_tutor/widgets/shared.py"

MUTATIONS: tuple[Mutation, ...] = (
    # -- rules
    Mutation("usa-cap-five", "rules", CUT, "row[1 : min(held, 4) + 1]", "row[1 : min(held, 5) + 1]", RULES),
    Mutation(
        "run-misses-bottom",
        "rules",
        LIMITS,
        "while k > 0 and pile[k - 1] == top:",
        "while k > 1 and pile[k - 1] == top:",
        RULES,
    ),
    Mutation(
        "out-with-stacks-left",
        "rules",
        CORE,
        "if self.hand_count[seat] or any(self.stacks[seat]):",
        "if self.hand_count[seat]:",
        RULES,
    ),
    Mutation(
        "take-is-no-bust",
        "rules",
        CORE,
        "        self.busts[seat] += 1\n        return taken",
        "        return taken",
        RULES,
    ),
    Mutation(
        "bust-penalty-sign",
        "rules",
        CORE,
        "+ self.busts[seat] * self.rules.bust_penalty",
        "- self.busts[seat] * self.rules.bust_penalty",
        RULES,
    ),
    Mutation(
        "game-end-strict",
        "rules",
        GAME,
        "return max(self.totals) >= self.rules.game_end_total",
        "return max(self.totals) > self.rules.game_end_total",
        RULES,
    ),
    Mutation("highest-total-wins", "rules", GAME, "if total == min(totals)]", "if total == max(totals)]", RULES),
    Mutation(
        "winner-never-deals",
        "rules",
        GAME,
        "if not module_of(self.rules).WINNER_DEALS or last.winner is None:",
        "if True:",
        RULES,
    ),
    Mutation("clear4-run-of-three", "rules", CLEAR4, "FOUR = 4", "FOUR = 3", RULES),
    # -- honesty (C2)
    Mutation(
        "view-shows-risk-cards",
        "honesty",
        VIEW,
        "card & RANK_MASK if card & UP else None for card",
        "card & RANK_MASK for card",
        HONESTY,
    ),
    Mutation(
        "view-shows-next-hand",
        "honesty",
        VIEW,
        "hand=tuple(state.hands[seat]),",
        "hand=tuple(state.hands[(seat + 1) % state.players]),",
        HONESTY,
    ),
    # every seat sees a pick-up (R11): the rules tests hold the known marks, the view tests what they show
    Mutation(
        "pick-ups-secret",
        "honesty",
        CORE,
        "            known[card] += 1\n",
        "",
        ("tests/test_rules.py::TestR11Take", *HONESTY),
    ),
    # -- undo (C9)
    Mutation(
        "undo-any-play",
        "undo",
        LOOP,
        "if outcome.turned or game.state.over:",
        "if game.state.over:",
        UNDO,
    ),
    Mutation(
        "undo-after-others", "undo", LOOP, "return self._undo[-1][1] == len(game.state.moves)", "return True", UNDO
    ),
    Mutation(
        "undo-automated-flip",
        "undo",
        LOOP,
        "        outcome = self._apply(move)\n        if seat != YOU:",
        "        self._undo.append((game.state.copy(), len(game.state.moves) + 1))\n"
        "        outcome = self._apply(move)\n        if seat != YOU:",
        UNDO,
    ),
    # -- saves
    Mutation(
        "save-mid-turn",
        "saves",
        FILES,
        "upto = len(state.moves) if state.over else state.turn_start",
        "upto = len(state.moves)",
        SAVES,
    ),
    Mutation(
        "corrupt-overwritten",
        "saves",
        FILES,
        "    except SaveError:\n        keep_aside(path)\n",
        "    except SaveError:\n        pass\n",
        SAVES,
    ),
    Mutation(
        "shared-temp-name",
        "saves",
        FILES,
        'fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)',
        "tmp = str(path) + TEMP_SUFFIX\n    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)",
        SAVES,
    ),
    Mutation(
        "locked-game-dropped",
        "saves",
        HISTORY,
        "            self.problem = self._explain(exc)\n            return False",
        "            self.problem = self._explain(exc)\n            return True",
        SAVES,
    ),
    Mutation("no-lock-retry", "saves", HISTORY, "            time.sleep(pause)", "            raise", SAVES),
    Mutation("other-rules-resume", "saves", FILES, "if rules is not None and saved != rules:", "if False:", SAVES),
    Mutation(
        "bad-save-not-kept", "saves", SHELF, "    kept = keep_aside(exc.path, load_game)\n", "    kept = None\n", SAVES
    ),
    Mutation(
        "taken-over-plays-on",
        "saves",
        SHELF,
        'if claim is None or claim["holder"] != self.holder:',
        "if False:",
        SAVES,
    ),
    Mutation(
        "finish-leaves-its-save", "saves", SHELF, "        self.path(game.uid).unlink(missing_ok=True)\n", "", SAVES
    ),
    Mutation(
        "full-disk-half-applied",
        "saves",
        LOOP,
        "            loop.sitting, loop._undo, loop._recorded, loop.pause = before\n",
        "",
        SAVES,
    ),
    Mutation(
        "csv-formula-through",
        "saves",
        HISTORY,
        """return "'" + text if text.startswith(_FORMULA_START) else text""",
        "return text",
        SAVES,
    ),
    # -- validation
    Mutation(
        "pile-run-of-four-accepted",
        "validation",
        POSITION,
        "if ends_here and run >= 4 and not (last and top_may_run):",
        "if ends_here and run >= 7 and not (last and top_may_run):",
        VALID,
    ),
    Mutation("face-down-on-face-up", "validation", POSITION, "if faces != sorted(faces):", "if False:", VALID),
    Mutation("foreign-cards-index-error", "validation", STATE, "if card and card not in deck:", "if False:", VALID),
    Mutation(
        "rules-change-mid-game",
        "validation",
        FORM,
        "        if self.host.sitting.game is not None:\n            self.refresh_setup()",
        "        if False:\n            self.refresh_setup()",
        VALID,
    ),
    Mutation(
        "forged-updates-unguarded",
        "validation",
        SHARED,
        "            widget.comm.on_msg(handle)",
        "            pass",
        VALID,
    ),
    Mutation("deep-json-parsed", "validation", READING, "if json_depth(data) > MAX_DEPTH:", "if False:", VALID),
    Mutation("bool-as-int", "validation", FILES, "(kind is int and isinstance(value, bool))", "False", VALID),
)


def copy_project(into: Path) -> Path:
    """The package, its tests and the test settings, copied to ``into`` (caches and artifacts left behind)."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "test-artifacts", "browser", ".hypothesis")
    for folder in ("cut_tutor", "tests"):
        shutil.copytree(ROOT / folder, into / folder, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, into / name)
    return into


def run_tests(project: Path, tests: tuple[str, ...]) -> tuple[int, float]:
    """Run ``tests`` against the copy; the exit status and the seconds taken."""
    env = os.environ | {"CUT_TUTOR_HOME": str(project / "test-artifacts" / "home"), "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-m", "not browser", "-o", "addopts=-p no:cacheprovider", *tests],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    return done.returncode, time.perf_counter() - start


def main(names: list[str]) -> int:
    chosen = [m for m in MUTATIONS if not names or m.name in names]
    with tempfile.TemporaryDirectory(prefix="cut-mutations-") as tmp:
        project = copy_project(Path(tmp))
        status, seconds = run_tests(project, tuple(sorted({t for m in chosen for t in m.tests})))
        print(f"unmutated: {'pass' if status == 0 else 'FAIL'} ({seconds:.0f} s)")
        if status != 0:
            return 2  # a failing suite would "catch" every mutation
        missed = 0
        for m in chosen:
            source = project / m.path
            original = source.read_text(encoding="utf-8")
            if original.count(m.old) != 1:
                print(f"{m.name:28} {m.area:11} STALE: its text occurs {original.count(m.old)} times")
                missed += 1
                continue
            source.write_text(original.replace(m.old, m.new), encoding="utf-8")
            try:
                status, seconds = run_tests(project, m.tests)
            finally:
                source.write_text(original, encoding="utf-8")
            caught = status != 0
            missed += not caught
            print(f"{m.name:28} {m.area:11} {'caught' if caught else 'MISSED'} (exit {status}, {seconds:.0f} s)")
        print(f"{len(chosen) - missed} of {len(chosen)} mutations caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
