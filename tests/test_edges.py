"""Every input checked at the edge: impossible positions, another game's cards, deal codes, forged updates to the
setup controls, and a seeded fuzz of page messages that must all be refused visibly, changing nothing."""

from __future__ import annotations

import contextlib
import copy
import logging
import random
import string
import time
from pathlib import Path
from typing import Any

import pytest

from cut_tutor.engine import IllegalMoveError, Move, Rules, State
from cut_tutor.engine.codes import record_of, replay, state_from_deal
from cut_tutor.engine.deals import PositionError
from cut_tutor.storage import read_save

#: Two seats, seat 0 to play; each test below breaks one thing about it.
BASE: dict[str, Any] = {
    "rules": Rules(players=2).to_dict(),
    "dealer": 1,
    "turn": 0,
    "pile": "9@1 9@1",
    "seats": [
        {"hand": "5 5 3", "stacks": ["[K] 2", "[K] 2", "[K]", ""]},
        {"hand": "Q Q 9", "stacks": ["[J] 4", "[J]", "", "[9] 4"]},
    ],
}


def _edit(change: Any) -> dict[str, Any]:
    position = copy.deepcopy(BASE)
    change(position)
    return position


class TestImpossiblePositions:
    def test_the_base_position_is_possible(self) -> None:
        assert State.from_position(BASE).turn == 0

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            (lambda p: p.__setitem__("pile", "9@1 " * 6), r"four or more of a rank lie together.*\(R10\)"),
            (lambda p: p.__setitem__("pile", "9@0 9@1 9@0 9@1 K@0"), r"four or more of a rank"),
            (lambda p: p["seats"][0]["stacks"].__setitem__(0, "[K] [2] 3"), r"3 cards; a CUT stack holds 2"),
            (lambda p: p["seats"][0]["stacks"].__setitem__(0, "K [2]"), r"face-down card lies on a face-up one"),
            (lambda p: p["seats"][1].update(hand="", stacks=["", "", "", ""]), r"seats\[1\]: holds no cards.*R14"),
            (lambda p: p.__setitem__("winner", 1), r"winner: seat 1 still holds cards"),
            (lambda p: p.__setitem__("phase", "gamble"), r"'gamble' needs Risk Play on"),
            (lambda p: p["seats"][0].__setitem__("hand", "9 " * 40), r"9s are placed but"),
            (lambda p: p["seats"][0].__setitem__("hand", "P J*"), r"P is not a card of CUT"),
        ],
    )
    def test_refused_with_the_field_and_the_rule(self, change: Any, message: str) -> None:
        with pytest.raises(PositionError, match=message):
            State.from_position(_edit(change))

    def test_a_landed_blind_card_may_make_four_while_it_waits_for_additions(self) -> None:
        """4+ Card Clears: a blind 9 onto three 9s waits for the 9s to add before the clear is judged (R10, R13)."""
        position = {"rules": {"players": 2, "four_plus_clears": True, "piles_face_down": True}, "turn": 0,
                    "phase": "add", "pile": "9@1 9@1 9@1 9@0",
                    "seats": [{"hand": "9 K", "stacks": ["[3] [4]", "[5]", "", ""]},
                              {"hand": "Q Q", "stacks": ["", "", "", ""]}]}  # fmt: skip
        state = State.from_position(position)
        assert "add 1×9" in [str(m) for m in state.legal_moves()]
        with pytest.raises(PositionError, match="four or more"):
            State.from_position(position | {"phase": "play"})

    def test_six_nines_on_a_usa_pile_never_reach_the_coach(self) -> None:
        """Once met: the engine offered 47×9 to a seat holding three."""
        position = _edit(lambda p: (p.__setitem__("pile", "9@1 " * 6), p["seats"][0].__setitem__("hand", "9 9 9")))
        with pytest.raises(PositionError):
            State.from_position(position)


class TestAnotherGamesCards:
    @pytest.mark.parametrize(
        ("preset", "text", "reason"),
        [
            ("USA", "2×J*", "J* is not a card of CUT"),
            ("USA", "P", "P is not a card of CUT"),
            ("USA", "push → 1", "CUT has no PUSH card"),
            ("USA", "clear CL", "CL is not a card of CUT"),
            ("USA", "2×5+J*", "J* is not a card of CUT"),
            ("Clear 4", "2×JK", "JK is not a card of Clear 4"),
            ("Clear 4", "clear 10+JK", "JK is not a card of Clear 4"),
            ("Clear 4", "take JK", "JK is not a card of Clear 4"),
        ],
    )
    def test_an_illegal_move_with_a_reason_never_an_index_error(self, preset: str, text: str, reason: str) -> None:
        state = State.deal(Rules.from_preset(preset), seed=1)
        before = state.to_position()
        with pytest.raises(IllegalMoveError, match=reason):
            state.play(Move.parse(text))
        assert state.to_position() == before


class TestCodesAndRecords:
    def test_malformed_codes_are_value_errors(self) -> None:
        rng = random.Random(5)
        alphabet = string.digits + "-C4x+ é\x00"
        for _ in range(2000):
            code = "".join(rng.choice(alphabet) for _ in range(rng.randrange(30)))
            with contextlib.suppress(ValueError):  # anything else escapes and fails the test
                state_from_deal(code)

    def test_malformed_records_are_value_errors(self) -> None:
        good = record_of(State.deal(Rules(), seed=2))
        rng = random.Random(6)
        values: list[Any] = [None, 1, "x", [], {}, True, 2.5, "4-3-20-0-1", ["2×9"], [None], {"a": 1}, 10**30]
        for _ in range(2000):
            broken: Any = dict(good)
            for key in rng.sample([*good, "extra"], rng.randrange(1, 3)):
                broken[key] = rng.choice(values)
            with contextlib.suppress(ValueError):
                replay(broken)


pytest.importorskip("anywidget")

from cut_tutor.widgets import GameApp  # noqa: E402


def _update(widget: Any, state: dict[str, Any]) -> None:
    """A comm update as the page sends it, through the widget's comm (the path a forged one takes)."""
    message = {"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []}
    widget.comm.handle_msg(message)


def _custom(widget: Any, content: Any) -> None:
    widget.comm.handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def _my_turn(home: Path) -> GameApp:
    app = GameApp(home)
    app.set_pacing("Step")
    app.deal(seed=31)
    assert app.game is not None
    while app.game.state.turn != 0:
        app.next()
    return app


def _snapshot(app: GameApp) -> tuple[Any, ...]:
    assert app.game is not None
    save = read_save(app.save_path)
    save.pop("saved_at")
    state = app.game.state
    return state.to_position(), list(state.moves), list(app.game.results), app.game.rules, save, app.history.games()


class TestForgedUpdates:
    def test_setup_rules_cannot_change_while_a_game_is_in_play(self, tmp_path: Path) -> None:
        app = _my_turn(tmp_path)
        before = _snapshot(app)
        _update(app.form.players, {"index": 0})
        assert "cannot change while a game is in play" in app.table.error
        assert app.form.players.value == app.setup.rules.players == 4
        _update(app.rule_widgets["risk_play"], {"value": True})
        assert "cannot change" in app.table.error and app.rule_widgets["risk_play"].value is False
        _update(app.form.preset, {"index": 1})
        assert app.setup.rules.preset == "USA" and _snapshot(app) == before

    def test_an_update_a_control_cannot_take_is_a_visible_error(self, tmp_path: Path) -> None:
        app = _my_turn(tmp_path)
        _update(app.form.players, {"index": 99})
        assert "Players: that change was refused" in app.table.error
        _update(app.table, {"table_layout": "sideways"})
        assert "refused" in app.table.error and app.table.table_layout == "auto"


def _forgeries(rng: random.Random, app: GameApp) -> list[tuple[Any, Any, bool]]:
    """``(widget, message, custom?)``: page messages and updates, malformed or not allowed now."""
    texts = ["2×J*", "P", "push → 1", "clear CL", "13×K", "99×9", "flip 9", "gamble 7", "take P", "add 2×J*",
             "turn up 0", "", "x" * 70, "2×9 s9 s9", "clear", "-1×9", "1×JK", "push blind → 9", "→", "\0"]  # fmt: skip
    values: list[Any] = [None, -1, 0, 1, 2, 3, 99, 10**12, 2.5, "", "x", "USA", True, False, [], {}, [1], {"a": 1}]
    setup = [app.form.players, app.form.preset, *app.rule_widgets.values()]
    others = [app.form.seed, app.form.view_pick, app.form.coach_pick, app.table]
    out: list[tuple[Any, Any, bool]] = []
    for _ in range(10_000):
        roll = rng.random()
        if roll < 0.45:
            kind = rng.choice(["move", "combo", "automate", "theme", "layout", "key", "undo", "eval", None, 3])
            message: Any = {"type": kind}
            for key in rng.sample(["move", "then", "on", "theme", "layout", "key", "x"], rng.randrange(3)):
                message[key] = rng.choice([*texts, *values])
            if rng.random() < 0.05:
                message = rng.choice(values)
            out.append((app.table, message, True))
        else:
            widget = rng.choice(setup if roll < 0.85 else others)
            key = rng.choice(["index", "value", "description", "disabled", "options", "_dom_classes", "nonsense"])
            out.append((widget, {key: rng.choice([*values, *texts])}, False))
    return out


class TestFuzz:
    def test_ten_thousand_forgeries_escape_nothing_and_change_nothing(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        app = _my_turn(tmp_path)
        assert app.game is not None
        legal = {str(m) for m in app.game.state.legal_moves()}
        before = _snapshot(app)
        forgeries = [f for f in _forgeries(random.Random(12), app) if not _allowed(f, legal)]
        escaped = refused = 0
        start = time.perf_counter()
        with caplog.at_level(logging.WARNING):
            for widget, message, custom in forgeries:
                app.table.error = ""
                try:
                    (_custom if custom else _update)(widget, message)
                except Exception:
                    escaped += 1
                refused += bool(app.table.error)
        elapsed = time.perf_counter() - start
        faults = [r for r in caplog.records if "unexpected error" in r.getMessage() or r.exc_info]
        assert (escaped, faults) == (0, [])
        assert len(forgeries) > 8000 and refused > 5000, (len(forgeries), refused)
        assert _snapshot(app) == before
        assert elapsed < 30


def _allowed(forgery: tuple[Any, Any, bool], legal: set[str]) -> bool:
    """Messages that are well-formed and allowed now (a legal move, the theme, the view): not this test's subject."""
    _widget, message, custom = forgery
    if not custom:
        return False
    if not isinstance(message, dict):
        return False
    kind = message.get("type")
    if kind in ("automate", "theme", "layout", "key", "ready", "coach_play", "next"):
        return True
    if kind in ("move", "combo") and isinstance(message.get("move"), str):
        try:
            return str(Move.parse(message["move"])) in legal
        except ValueError:
            return False
    return False


def test_voila_shows_learners_an_error_but_no_traceback() -> None:
    """With the package's settings a failing cell still says it failed, without source lines or paths."""
    import json

    import nbformat
    from voila.execute import VoilaExecutor

    from cut_tutor import dashboard

    config = json.loads((dashboard.notebook().parent / "voila.json").read_text())["VoilaConfiguration"]
    executor = VoilaExecutor(nbformat.v4.new_notebook(), show_tracebacks=config["show_tracebacks"])
    cell = nbformat.v4.new_code_cell("1/0", execution_count=1)
    trace = ['File "/home/teacher/secret/app.py", line 3', "ZeroDivisionError: division by zero"]
    cell.outputs = [nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="x", traceback=trace)]
    assert executor.should_strip_error()
    executor.strip_notebook_errors({"cells": [cell]})
    (shown,) = cell.outputs[0]["traceback"]
    assert "There was an error when executing cell [1]" in shown and "/home/" not in json.dumps(cell.outputs)
