"""The learning path says what it shows: each claim a notebook's prose makes, checked against what its cells compute.

The cells come from ``notebooks/make_notebooks.py`` (the notebooks' source) and run here in one namespace, as the
notebook runs them; the prose is read from the same source, so a claim that no longer matches the coach's
output fails here, not in front of a learner.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
from contextlib import redirect_stdout
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from cut_tutor.engine import Move

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: The numbers the prose writes in words.
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _source() -> ModuleType:
    """The notebooks' source, loaded by path: the notebooks folder is no package."""
    spec = importlib.util.spec_from_file_location("make_notebooks", NOTEBOOKS / "make_notebooks.py")
    assert spec and spec.loader
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


source = _source()


def prose(name: str, heading: str) -> str:
    """The markdown cell of notebook ``name`` under ``## heading``, on one line."""
    for kind, text in source.NOTEBOOKS[name]:
        if kind == "markdown" and text.startswith(f"## {heading}"):
            return " ".join(text.split())
    raise AssertionError(f"{name} has no section {heading!r}")


def paragraph(name: str, start: str) -> str:
    """The markdown cell of notebook ``name`` that begins with ``start``, on one line."""
    for kind, text in source.NOTEBOOKS[name]:
        if kind == "markdown" and text.startswith(start):
            return " ".join(text.split())
    raise AssertionError(f"{name} has no paragraph beginning {start!r}")


def test_every_notebook_is_written_from_its_source() -> None:
    """The tests here read the notebooks' source, and ``make_notebooks.py`` writes the notebooks from it: a cell
    edited in a notebook alone is untested here and lost the next time the notebooks are written."""
    for name, cells in source.NOTEBOOKS.items():
        stored = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
        assert [(cell["cell_type"], "".join(cell["source"])) for cell in stored] == list(cells), name
    assert sorted(source.NOTEBOOKS) == sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb"))


@cache
def run(name: str) -> dict[str, Any]:
    """Every code cell of notebook ``name``, run in order in one namespace; ``display`` shows nothing."""
    namespace: dict[str, Any] = {"display": lambda *objects, **options: None}
    for kind, text in source.NOTEBOOKS[name]:
        if kind == "code":
            exec(compile(text, f"<{name}>", "exec"), namespace)
    return namespace


class TestThreeCoaches:
    """Notebook 03: the coaches' picks, as its prose tells them."""

    def test_the_count_of_plays_is_the_count_the_prose_gives(self) -> None:
        text = prose("03_three_coaches", "A pair of Kings on the pile")
        picks: dict[str, str] = run("03_three_coaches")["picks"]
        claim = re.search(r"(\w+) coaches, (\w+) plays", text)
        assert claim, text
        assert WORDS[claim[1].lower()] == len(picks)
        assert WORDS[claim[2].lower()] == len(set(picks.values())), (claim[0], picks)

    def test_who_plays_what(self) -> None:
        text = prose("03_three_coaches", "A pair of Kings on the pile")
        picks = run("03_three_coaches")["picks"]
        assert "Daryl and Madonna both take the solid pair of 7s" in text
        assert picks["Daryl"] == picks["Madonna"] == "Play 2× 7"
        assert "Marty sheds the J" in text and picks["Marty"] == "Play 1× J"

    def test_the_parts_that_decide_are_as_the_prose_says(self) -> None:
        """The paragraph over the coaches' tables names the parts that split them; the notebook's ``edge`` table (the
        7s less the J, part by part) and its tables say the same."""
        text = paragraph("03_three_coaches", "Each coach scores every legal move by the same parts")
        namespace = run("03_three_coaches")
        edge, parts, picks = namespace["edge"], namespace["parts"], namespace["picks"]
        assert "the 7s shed more" in text and (edge["shed"] > 0).all()
        assert (
            "the J's line (what it sets up for the turns after) is worth more, by the same amount to every coach"
            in text
        )
        assert (edge["line"] < 0).all() and edge["line"].nunique() == 1
        assert "Daryl and Madonna weigh the shed enough to take the 7s" in text
        assert edge.loc["Daryl", "total"] > 0 and edge.loc["Madonna", "total"] > 0
        assert picks["Daryl"] == picks["Madonna"] == "Play 2× 7"
        assert "Marty weighs it least, so the J's line and its assets carry his choice" in text
        assert edge["shed"].idxmin() == "Marty" and edge.loc["Marty", "total"] < 0 and picks["Marty"] == "Play 1× J"
        assert (edge["assets"] < 0).all(), "the J has the assets"
        assert "the Joker, is not his pick here: no coach ranks it in their top four" in text
        assert all("Play 1× clear" not in list(frame.index[:4]) for frame in parts.values())
        assert "Play 1× clear" in parts["Marty"].index, "the spare clear is a legal move"
        # the claims it replaced, which its tables contradict: Marty does not prefer the spare clear, and Madonna
        # does not pick the move with the better line
        assert parts["Marty"]["total"].idxmax() != "Play 1× clear"
        assert parts["Madonna"].loc[picks["Madonna"], "line"] < parts["Madonna"]["line"].max()

    def test_where_they_agree_every_coach_leads_high(self) -> None:
        from cut_tutor import view
        from cut_tutor.coach import compare

        assert "every coach leads high" in prose("03_three_coaches", "Where they agree")
        frame = compare(view(run("03_three_coaches")["lead"], 0))
        moves = {Move.parse(text) for text in frame["move"]}
        assert len(moves) == 1 and next(iter(moves)).rank >= 11, frame

    def test_the_side_by_side_table_reads_as_the_prose_says(self) -> None:
        text = prose("03_three_coaches", "Side by side")
        namespace = run("03_three_coaches")
        totals, picks = namespace["totals"], namespace["picks"]
        assert "sorted by Madonna's" in text
        assert list(totals["Madonna"]) == sorted(totals["Madonna"], reverse=True)
        assert "her pick and Daryl's head the table" in text
        assert totals.index[0] == picks["Madonna"] == picks["Daryl"]
        assert "Marty's highest total is the J one row down" in text
        assert totals["Marty"].idxmax() == totals.index[1] == picks["Marty"] == "Play 1× J"
        assert "Each coach recommends the move with the highest total in their own column" in text
        assert {coach: totals[coach].idxmax() for coach in totals} == picks

    def test_the_analysis_settles_the_late_position_as_the_prose_says(self) -> None:
        text = prose("03_three_coaches", "Who is right? Ask the analysis") + prose("03_three_coaches", "Analyse longer")
        namespace = run("03_three_coaches")
        check, longer, picks, gaps = (namespace[k] for k in ("check", "longer", "late_picks", "gaps"))
        assert "300 rollouts leave wide intervals" in text and check.rollouts <= 300
        assert check.settled < len(check.moves) - 1  # a caption with something left to know
        assert "every gap is known to ±2 points or too close to call" in text and longer.stopped == "apart"
        assert longer.settled == len(longer.moves) - 1
        assert "the best is the 9 that Daryl and Marty play" in text
        assert longer.best.label == picks["Daryl"] == picks["Marty"] == "Play 1× 9"
        assert "the two 4s that Madonna plays lose more than 5 points" in text
        assert picks["Madonna"] == "Play 2× 4" and gaps["Madonna"] > 5


class TestRisk:
    """Notebook 05: when each coach gambles."""

    def test_daryl_stops_and_marty_gambles_on_a_high_pile(self) -> None:
        namespace = run("05_risk")
        text = " ".join(" ".join(body.split()) for kind, body in source.NOTEBOOKS["05_risk"] if kind == "markdown")
        assert "Daryl flips only into an empty pile; Marty gambles on a high pile" in text
        table = {row["pile"]: row for row in namespace["gambles"]}
        assert all(row["Daryl"] == "Done" for row in table.values()), table
        assert any(
            row["Marty"].startswith("Risk pile") and int(row["fits"].rstrip("%")) >= 75 for row in table.values()
        )

    def test_what_it_prints_names_piles_in_the_tables_words(self) -> None:
        """A learner reads the printed lines: a pile is its cards' faces, not the position code (``9@1``)."""
        cells = "\n".join(body for kind, body in source.NOTEBOOKS["05_risk"] if kind == "code")
        printed = io.StringIO()
        with redirect_stdout(printed):
            exec(compile(cells, "<05_risk>", "exec"), {"display": lambda *objects, **options: None})
        text = printed.getvalue()
        assert "a pile of K Q J 9 9 5 costs 53 pts" in text, text
        assert "pile top  K: a blind card fits 100%" in text, text
        assert not re.search(r"@\d|\[|×", text), text
