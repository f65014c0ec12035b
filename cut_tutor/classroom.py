"""A teacher's view across a class: one row per learner under ``<home>/learners``, read without changing anything.

Each learner's history is opened read-only and their saves are only read, so looking at a class never locks,
migrates, moves or rewrites a learner's file. A history that cannot be read now (damaged, locked by the learner's
game, unreadable) is named in the problems and its learner skipped; the others are listed.

>>> import tempfile
>>> table, problems = class_summary(tempfile.mkdtemp())
>>> list(table.columns), problems
(['learner', 'games', 'hands', 'points_per_hand', 'busts', 'last_played', 'unfinished'], [])
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pandas as pd

from .engine import SaveError, read_save

#: The columns of :func:`class_summary`; points and busts are the learner's own seat's (the first).
COLUMNS = ["learner", "games", "hands", "points_per_hand", "busts", "last_played", "unfinished"]
#: How long to wait for a history that the learner's game is writing (seconds) before naming it locked.
READ_TIMEOUT = 0.5

_STATS = """
SELECT COUNT(DISTINCT games.id), COUNT(hands.hand), AVG(hands.points), COALESCE(SUM(hands.busts), 0),
       MAX(games.finished)
FROM games LEFT JOIN hands ON hands.game_id = games.id AND hands.seat = 0
"""


def _history(path: Path) -> dict[str, Any]:
    """One learner's figures from their history, opened read-only (a missing history is no games)."""
    if not path.exists():
        return {"games": 0, "hands": 0, "points_per_hand": None, "busts": 0, "last_played": None}
    uri = path.resolve().as_uri() + "?mode=ro"
    with closing(sqlite3.connect(uri, uri=True, timeout=READ_TIMEOUT)) as db:
        games, hands, points, busts, last = db.execute(_STATS).fetchone()
    return {
        "games": games,
        "hands": hands,
        "points_per_hand": round(points, 2) if points is not None else None,
        "busts": busts,
        "last_played": last,
    }


def _unfinished(home: Path) -> tuple[int, list[str]]:
    """How many saved games wait in a learner's folder, and a line for each save that cannot be read."""
    count, problems = 0, []
    for path in sorted([*home.glob("save-*.json"), *home.glob("save.json")]):
        if not path.stem.removeprefix("save-").isalnum():
            continue  # a kept or migrated file, not a game waiting
        try:
            read_save(path)
        except (SaveError, OSError) as exc:
            problems.append(f"{home.name}: a save cannot be read ({exc})")
            continue
        count += 1
    return count, problems


def class_summary(home: str | os.PathLike[str]) -> tuple[pd.DataFrame, list[str]]:
    """Each learner under ``<home>/learners``: games played, hands, average points per hand, busts, when they
    last finished a game and how many games wait unfinished; with what could not be read (those learners skipped).
    """
    rows, problems = [], []
    folder = Path(home) / "learners"
    learners = sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
    for learner in learners:
        try:
            figures = _history(learner / "history.sqlite")
        except sqlite3.Error as exc:
            reason = "locked by a game being recorded" if "locked" in str(exc) else str(exc)
            problems.append(f"{learner.name}: the history cannot be read ({reason}); skipped, try again later")
            continue
        unfinished, unreadable = _unfinished(learner)
        problems.extend(unreadable)
        rows.append({"learner": learner.name, **figures, "unfinished": unfinished})
    return pd.DataFrame(rows, columns=COLUMNS), problems
