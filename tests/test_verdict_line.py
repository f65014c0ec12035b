"""The coach panel's verdict line: the position's one evaluation on the coach's move, under the recommendation.

The line follows the recommendation on its own, from the evaluation every judge reads (its seed the position's),
says *agrees*, *too close to call* or *prefers … by … points*, names the style's price where the coach's move is
worse beyond noise, and offers the analysis' best beside *Coach: Play* where that is another move.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_widgets import HIDDEN, STANDS_APART, app_at

from cut_tutor.analysis import evaluations
from cut_tutor.analysis.evaluations import cached, seed_of
from cut_tutor.coach.words import PLAY_BEST, style_cost
from cut_tutor.engine import view
from cut_tutor.review.words import TUTOR_CHECKING
from cut_tutor.widgets import GameApp
from cut_tutor.widgets.table import IntentError

ROOT = Path(__file__).resolve().parents[1]

#: A 2-player position whose coaches differ: Madonna and Marty clear with the 10, Daryl takes the pile showing a 2.
DIFFER = {
    "rules": {"players": 2},
    "dealer": 0,
    "turn": 0,
    "turns": 5,
    "pile": "A@1",
    "cleared": "JK 10",
    "seats": [
        {"hand": "K K Q 10 9 8 8 7 6 6 5 2 A", "known": "K 5", "stacks": ["[4] A", "[6] 2", "[9] JK", "[J] 5"],
         "busts": 1},
        {"hand": "K 10 8 6 4 3 3 2", "stacks": ["[6] 4", "[3] Q", "[7] Q", "[8] 5"], "clears": 1},
    ],
}  # fmt: skip


#: A 2-player position where Madonna lays her two Ks on an empty pile, too close to call against a lone 3.
CLOSE = {
    "rules": {"players": 2},
    "dealer": 0,
    "turn": 0,
    "turns": 5,
    "pile": "",
    "cleared": "JK 10 8 8",
    "seats": [
        {"hand": "K K J J 8 3 3 A", "stacks": ["[6] 4", "[10] K", "[2] 5", "[2] 2"], "clears": 1},
        {"hand": "K Q Q 10 9 5 4 4 3 A A A", "known": "5 A A", "stacks": ["[JK] 5", "[4] A", "[5] 3", "[7] 2"],
         "busts": 1},
    ],
}  # fmt: skip


def judged(home: Path, position: dict[str, Any], coach: str = "Madonna", **setup: Any) -> GameApp:
    """An app at ``position`` with ``coach`` chosen, whose recommendation then starts its verdict line."""
    app = app_at(home, position, coach=coach, **setup)
    app.coach.verdicts = True
    app.refresh()
    return app


def line(app: GameApp) -> str:
    """The verdict line as read: its text without the markup."""
    import re

    return re.sub(r"<[^>]+>", "", app.coach.verdict_html.value).replace("&#x27;", "'")


class TestTheVerdictLine:
    def test_it_follows_the_recommendation_from_the_shared_evaluation(self, tmp_path: Path) -> None:
        app = judged(tmp_path, STANDS_APART)
        assert TUTOR_CHECKING in line(app)  # the recommendation at once, the line once the evaluation is in
        assert "recommends" in app.coach.advice_html.value
        app.coach.wait_verdict()
        found = app.coach.evaluated()
        assert found is not None and found.seed == seed_of(view(app.state, 0))
        advice = app.advice()
        assert advice is not None and str(advice.move) in found.focus
        assert found.best.move == advice.move and line(app) == "The analysis agrees."
        assert app.coach.best_button.layout.display == "none"  # nothing else to play

    def test_a_worse_move_names_the_best_its_gap_and_the_styles_price(self, tmp_path: Path) -> None:
        app = judged(tmp_path, HIDDEN, coach="Daryl")
        app.coach.wait_verdict()
        found, advice = app.coach.evaluated(), app.advice()
        assert found is not None and advice is not None
        mine = found.price(advice.move)
        assert mine.verdict == "worse" and mine.gap_low > 0
        said = line(app)
        assert said.startswith(f"The analysis prefers {found.best.label} by {mine.gap:.1f} points")
        assert f"({mine.gap_low:.1f} to {mine.gap_high:.1f})" in said
        assert style_cost("Daryl", "Rock", mine.gap) in said and "safe style" in said
        assert "seat 0" not in said and str(found.best.move) not in said  # the guide's words, no engine notation
        assert "<i>Play 1× A</i>" in app.coach.verdict_html.value
        assert app.coach.best_button.layout.display == "" and app.coach.best_button.description == PLAY_BEST

    def test_a_move_within_noise_of_the_best_is_too_close_to_call(self, tmp_path: Path) -> None:
        app = judged(tmp_path, CLOSE)
        app.coach.wait_verdict()
        found, advice = app.coach.evaluated(), app.advice()
        assert found is not None and advice is not None and found.price(advice.move).verdict == "close"
        said = f"Too close to call: the analysis cannot tell Play 2× K from its best, {found.best.label}."
        assert line(app) == said and "choice" not in said  # within noise: no price said
        assert app.coach.best_button.layout.display == ""  # the best is another move all the same

    def test_switching_coach_reads_the_same_evaluation_extended_never_drawn_again(self, tmp_path: Path) -> None:
        app = judged(tmp_path, DIFFER)
        app.coach.wait_verdict()
        first = app.coach.evaluated()
        assert first is not None and first.focus == ("clear 10",)
        app.set_coach("Daryl")  # another move: the same evaluation continued to price it
        app.coach.wait_verdict()
        second = app.coach.evaluated()
        assert second is not None and second.seed == first.seed == seed_of(view(app.state, 0))
        assert second.focus == ("clear 10", "take 2") and second.rollouts > first.rollouts
        assert second.analysis.deals > first.analysis.deals  # the next deals, after the first's
        app.set_coach("Marty")  # the clear again: priced already, drawn at once, nothing run
        assert app.coach.evaluated() is second and TUTOR_CHECKING not in line(app)
        assert not app.coach._running()

    def test_a_stale_position_is_never_judged(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """The evaluation ends after the learner has moved on: its verdict is kept, but not drawn."""
        go, real = threading.Event(), evaluations.analyse

        def gated(*args: Any, **kwargs: Any) -> Any:
            assert go.wait(30)
            return real(*args, **kwargs)

        monkeypatch.setattr(evaluations, "analyse", gated)
        app = judged(tmp_path, HIDDEN, coach="Daryl", pacing="Step")
        before = view(app.state, 0)
        assert app.coach._running() and TUTOR_CHECKING in line(app)
        app.play("1×A")  # the learner plays before the line comes
        assert app.state is not None and app.state.turn != 0
        go.set()
        app.coach.wait_verdict()
        assert cached(before) is not None  # evaluated, kept for the other judges
        assert app.coach.verdict_html.value == "" and app.coach.best_button.layout.display == "none"

    def test_the_second_button_plays_the_best_as_the_move_buttons_do(self, tmp_path: Path) -> None:
        app = judged(tmp_path, HIDDEN, coach="Daryl", pacing="Step")
        app.coach.wait_verdict()
        found = app.coach.evaluated()
        assert found is not None
        asked: list[str] = []
        play: Callable[[str], None] = app.play
        app.play = lambda text: (asked.append(str(text)), play(text))  # type: ignore[method-assign,func-returns-value]
        app.coach.best_button.click()
        assert asked == [str(found.best.move)]  # through the app's play, where the tutor may ask first
        assert app.state is not None and [str(m) for m in app.state.moves] == [str(found.best.move)]
        assert app.table.error == ""

    def test_no_second_button_where_the_coach_is_the_best(self, tmp_path: Path) -> None:
        app = judged(tmp_path, STANDS_APART)
        app.coach.wait_verdict()
        with pytest.raises(IntentError, match="no other best move"):
            app.coach.play_best()

    def test_no_line_without_a_recommendation(self, tmp_path: Path) -> None:
        """Expert shows no hints (C7): nothing is recommended, so nothing is judged or run."""
        app = judged(tmp_path, HIDDEN, level=(0, "Expert"))
        assert app.coach.verdict_html.value == "" and not app.coach._running() and app.coach.evaluated() is None


def test_the_verdicts_change_no_game(tmp_path: Path) -> None:
    """A seeded hand played by *Coach: Play* goes the same with the verdict line as without: the evaluation draws
    from its own seed, never from the game's or the seats'."""
    played = []
    for on in (False, True):
        app = GameApp(tmp_path / str(on))
        app.set_players(2)
        app.set_pacing("Step")
        app.coach.verdicts = on
        app.deal(seed=21)
        assert app.state is not None
        while not app.state.over:
            if app.state.turn == 0:
                app.coach.wait_verdict()
                assert TUTOR_CHECKING not in line(app)
                assert (line(app) != "") == (on and len(app.state.legal_moves()) > 1)
                app.coach_play()
            else:
                app.next()
        played.append([str(m) for m in app.state.moves])
    assert played[0] == played[1]


def test_a_process_ending_while_a_verdict_runs_ends_cleanly(tmp_path: Path) -> None:
    """A kernel shut down, a script's end: the running evaluation stops after its round, and no other starts, before
    the interpreter tears its thread down in the middle of the compiled core (which would abort the process)."""
    script = (
        "import sys\n"
        "from cut_tutor.widgets import GameApp\n"
        "app = GameApp(sys.argv[1])\n"
        "app.set_pacing('Auto')\n"
        "app.deal(seed=3)\n"
        "app.play('1×K')  # the AI seats answer: a new position, its verdict started while the first one runs\n"
        "assert app.coach._running()\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=300,
                          env=os.environ | {"PYTHONPATH": str(ROOT)})  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]


class TestThePause:
    """In a kernel (an event loop running) the line's evaluation waits for the recommendation to stay a moment."""

    def test_the_evaluation_starts_only_once_the_recommendation_has_stayed(self, tmp_path: Path) -> None:
        import asyncio

        from cut_tutor.widgets.coach_panel import VERDICT_PAUSE

        async def shown() -> tuple[bool, bool]:
            app = judged(tmp_path, STANDS_APART)  # drawn inside the loop: the pause begins
            at_once = app.coach.evaluated() is None and not app.coach._running()
            await asyncio.sleep(VERDICT_PAUSE * 1.5)
            app.coach.wait_verdict()
            return at_once, app.coach.evaluated() is not None and line(app) == "The analysis agrees."

        assert asyncio.run(shown()) == (True, True)

    def test_a_position_left_within_the_pause_is_never_evaluated(self, tmp_path: Path) -> None:
        import asyncio

        from cut_tutor.widgets.coach_panel import VERDICT_PAUSE

        async def left() -> object:
            app = judged(tmp_path, STANDS_APART)
            first = view(app.state, 0)
            app.coach_play()  # played on at once: the next position, or the AI seat's turn
            await asyncio.sleep(VERDICT_PAUSE * 1.5)
            app.coach.wait_verdict()
            return cached(first)

        assert asyncio.run(left()) is None


def test_the_evaluation_waits_while_the_table_answers_and_finds_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between its rounds the line's evaluation waits while the kernel answers the page (the jobs' helper steps it
    back): later, not different, as its seed is the position's."""
    from cut_tutor.widgets import jobs

    monkeypatch.setattr(jobs, "ANSWER_WAIT", 30.0)  # it waits for the answer's end, long before this
    free = judged(tmp_path / "free", STANDS_APART)
    free.coach.wait_verdict()
    found = free.coach.evaluated()
    assert found is not None
    evaluations.forget()
    with jobs.answering():  # the kernel's thread answers a click all along
        held = judged(tmp_path / "held", STANDS_APART)
        job = held.coach.analyses.running()
        assert job is not None and TUTOR_CHECKING in line(held)
        job.thread.join(0.3)  # time for many rounds, were it not waiting
        assert job.thread.is_alive() and held.coach.rollout_progress.value == 0.0  # past no round's end
    held.coach.wait_verdict()
    again = held.coach.evaluated()
    assert again is not None and again is not found
    assert again.analysis.moves == found.analysis.moves and again.rollouts == found.rollouts
    assert line(held) == line(free) == "The analysis agrees."
