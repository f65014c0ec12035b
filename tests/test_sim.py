"""The simulation lab and the command line: deterministic results through any executor, Dask included."""

from __future__ import annotations

import io
import json
import re
from concurrent.futures import ProcessPoolExecutor
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pandas as pd
import pytest

from cut_tutor import Rules, State
from cut_tutor.analysis.seat import ROLLOUTS
from cut_tutor.cli import main
from cut_tutor.sim import COLUMNS, parse_seat, same_chair, simulate, summary

SEATS = ["Expert:Rock", "Average:Gambler", "Random"]


def test_rows_per_hand_and_seat() -> None:
    frame = simulate(SEATS, Rules(players=3), hands=4, seed=5)
    assert list(frame.columns) == COLUMNS
    assert len(frame) == 12
    per_hand = frame.groupby("hand")
    assert (per_hand["went_out"].sum() + per_hand["stalemate"].first() == 1).all()
    assert set(frame["level"]) == {"Expert", "Average", "Random"}


def test_duplicate_deals_rotate_every_player_through_every_seat() -> None:
    frame = simulate(SEATS, Rules(players=3), hands=2, seed=5, duplicate=True)
    seats_played = frame.groupby("player")["seat"].apply(lambda s: sorted(set(s)))
    assert all(seats == [0, 1, 2] for seats in seats_played)


def test_same_results_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    alone = simulate(SEATS, Rules(players=3), hands=6, seed=9, duplicate=True, chunk=3)
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as client:
        shared = simulate(SEATS, Rules(players=3), hands=6, seed=9, duplicate=True, chunk=3, executor=client)
    pd.testing.assert_frame_equal(alone, shared)


def test_summary_has_confidence_intervals() -> None:
    table = summary(simulate(SEATS, Rules(players=3), hands=6, seed=1))
    assert {"mean_points", "ci95", "go_out", "busts"} <= set(table.columns)
    assert (table["ci95"] >= 0).all()


def test_bad_seat_spec_is_named() -> None:
    with pytest.raises(ValueError, match="level: 'Wizard'"):
        simulate(["Wizard:Rock", "Random"], Rules(players=2), hands=1)


def test_an_analysis_seat_sits_in_a_simulation_and_plays_the_same_through_any_executor() -> None:
    seats = ["Analysis:8", "Random"]
    alone = simulate(seats, Rules(players=2), hands=2, seed=4, duplicate=True, chunk=1)
    assert alone.loc[alone["player"] == 0, ["level", "style"]].drop_duplicates().values.tolist() == [
        ["Analysis", "8 rollouts"]
    ]
    with ProcessPoolExecutor(2) as pool:
        shared = simulate(seats, Rules(players=2), hands=2, seed=4, duplicate=True, chunk=1, executor=pool)
    pd.testing.assert_frame_equal(alone, shared)
    reader = simulate(["Analysis:8:open", "Random"], Rules(players=2), hands=1, seed=4)
    assert reader["style"].iloc[0] == "8 rollouts, open endgames only"
    assert parse_seat(" analysis ") == ("Analysis", f"{ROLLOUTS} rollouts")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("Analysis:x", "a whole number of at least 1, not 'x'"),
        ("Analysis:0", "a whole number of at least 1, not '0'"),
        ("Analysis:40:closed", "the only word after the rollouts is 'open'"),
        ("Analysis:40:open:now", "Analysis, Analysis:ROLLOUTS or Analysis:ROLLOUTS:open"),
    ],
)
def test_a_bad_analysis_seat_is_named(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"seat {spec!r}: ") + ".*" + re.escape(words)):
        simulate([spec, "Random"], Rules(players=2), hands=1)


def test_same_chair_pairs_a_player_with_the_baseline_hand_by_hand() -> None:
    others = ["Random", "Expert:Rock"]
    frame = simulate(["Expert:Balanced", *others], Rules(players=3), hands=3, seed=2, duplicate=True)
    baseline = simulate(["Average:Gambler", *others], Rules(players=3), hands=3, seed=2, duplicate=True)
    found = same_chair(frame, baseline)
    diffs = frame[frame["player"] == 0]["points"].to_numpy() - baseline[baseline["player"] == 0]["points"].to_numpy()
    assert found.hands == len(diffs) == 9
    assert found.points == pytest.approx(diffs.mean(), abs=1e-3)
    assert found.low < found.points < found.high
    assert same_chair(frame, frame) == (0.0, 0.0, 0.0, 9)
    with pytest.raises(ValueError, match="differ in a seat other than player 0's"):
        same_chair(frame, simulate(["Average:Gambler", "Random", "Random"], Rules(players=3), hands=3, seed=2,
                                   duplicate=True))  # fmt: skip
    with pytest.raises(ValueError, match="did not play the same hands"):
        same_chair(frame, simulate(["Average:Gambler", *others], Rules(players=3), hands=3, seed=2))


def test_cli_simulate_writes_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.csv"
    code = main(
        [
            "simulate",
            "--seats",
            "Expert:Rock",
            "Random",
            "--hands",
            "3",
            "--seed",
            "1",
            "--rules",
            "USA",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "mean_points" in printed and "ci95" in printed and "stalemates" in printed
    assert len(pd.read_csv(out)) == 6


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False])
def test_cli_simulate_counts_batches_on_a_terminal_only(terminal: bool) -> None:
    err = Terminal() if terminal else io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        assert main(["simulate", "--seats", "Random", "Random", "--hands", "60", "--seed", "1"]) == 0
    if terminal:  # 60 hands in batches of 25: three batches, the bar left at its end
        assert err.getvalue().split("\r")[-1].startswith("100%|") and " 3/3 [" in err.getvalue(), err.getvalue()
    else:  # a log or a pipe: no redrawn lines
        assert err.getvalue() == ""


def test_cli_rules_file_and_bad_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps(Rules(players=2, risk_play=True).to_dict()))
    assert main(["simulate", "--seats", "Random", "Random", "--hands", "1", "--rules", str(rules), "--quiet"]) == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"players": 2, "bust_penalty": 7}))
    assert main(["simulate", "--seats", "Random", "Random", "--rules", str(bad), "--quiet"]) == 2
    assert "bust_penalty: 7 is not allowed" in capsys.readouterr().err
    assert main(["simulate", "--seats", "Analysis:4", "Random", "--hands", "1", "--quiet"]) == 0
    assert "Analysis 4 rollouts" in capsys.readouterr().out
    assert main(["simulate", "--seats", "Analysis:many", "Random", "--quiet"]) == 2
    assert "seat 'Analysis:many': the rollouts a decision" in capsys.readouterr().err


def test_cli_advise_prints_the_table_for_every_coach(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = State.from_position(
        {"rules": {"players": 2}, "turn": 0, "pile": "Q@1", "seats": [{"hand": "J 7 7 5 5"}, {"hand": "K K Q Q 9"}]}
    )
    path = tmp_path / "position.json"
    path.write_text(json.dumps(state.to_position()))
    assert main(["advise", str(path), "--coach", "all", "--level", "Expert"]) == 0
    printed = capsys.readouterr().out
    for coach in ("Daryl", "Madonna", "Marty"):  # the turn as the rules count it (R15), the seat by its name
        assert f"{coach} (Expert) — Turn 1, You: 5 cards in hand, the pile topped by Q\n" in printed
    lines = printed.splitlines()
    assert lines[1].split() == ["move", "go", "out", "shed", "assets", "control", "risk", "line", "total"]
    picked = [line for line in lines if line.endswith("recommended")]
    assert len(picked) == 3 and all(line.startswith("Play ") for line in picked)  # each move by its button
    assert not any(text in printed for text in ("seat", "1×J", "2×7", "2×5"))
    assert "it sets up your next turns: your 2 7s, then your 2 5s" in printed
    assert "go out" in printed and "line" in printed


def test_cli_advise_reports_a_bad_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "position.json"
    path.write_text('{"rules": {"players": 2}, "seats": [{"hand": "Z"}, {}]}')
    assert main(["advise", str(path)]) == 2
    assert "position.seats[0].hand" in capsys.readouterr().err


def test_cli_refuses_deep_json_and_too_long_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Positions, records and rules files that would exhaust the parser or the int conversion limit: one line each."""
    deep, huge = "[" * 100_000 + "]" * 100_000, '{"players": 2, "turn": ' + "9" * 5000 + "}"
    cases = [
        (["advise"], deep, "error: position: nested deeper than 8"),
        (["analyse", "--rollouts", "1"], huge, "error: position.turn: a whole number of more than 64 digits"),
        (["review", "--seat", "0"], deep, "error: record: nested deeper than 8"),
        (["review", "--seat", "0"], huge, "error: record.turn: a whole number of more than 64 digits"),
    ]
    path = tmp_path / "file.json"
    for command, text, error in cases:
        path.write_text(text)
        assert main([command[0], str(path), *command[1:]]) == 2
        assert capsys.readouterr().err.strip() == error
    path.write_text('{"players": ' + "2" * 5000 + "}")
    assert main(["simulate", "--seats", "Random", "Random", "--rules", str(path), "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == f"error: rules: {path}.players: a whole number of more than 64 digits"
