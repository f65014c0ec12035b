"""A learner's way up Card Clear's levels: the levels cleared, each with its best final score and stars, in an
SQLite file in the learner's home. Levels open one by one: clearing a level opens the next (K17).

>>> import tempfile, pathlib
>>> progress = Progress(pathlib.Path(tempfile.mkdtemp()) / "cardclear.sqlite")
>>> progress.unlocked(), progress.stars()
(1, {})
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from ..engine.storage import now_stamp, open_store, retry
from .levels import LEVELS
from .state import State

_SCHEMA = """
CREATE TABLE IF NOT EXISTS levels (
    level INTEGER PRIMARY KEY,
    best INTEGER NOT NULL,   -- the best final score (points and move bonus) the level was cleared with
    stars INTEGER NOT NULL,  -- the most stars earned on it, 1 to 3
    cleared TEXT NOT NULL    -- when it was first cleared (UTC)
);
"""


class Progress:
    """The levels a learner has cleared. A file that cannot be used leaves every level a fresh start: nothing is
    lost that was kept, and :attr:`problem` says in plain words what is wrong."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.problem = open_store(self.path, self._migrate, "Card Clear progress", self._explain)

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        db.executescript(_SCHEMA)

    def _explain(self, exc: Exception) -> str:
        return (
            f"Card Clear's progress {self.path} cannot be used ({exc}): the levels you clear now are not kept."
            " Check that its folder can be written."
        )

    def record(self, state: State) -> None:
        """Keep a cleared level: its best final score and stars; a level not cleared changes nothing."""
        if not state.passed or self.problem:
            return
        try:
            retry(self.path, lambda db: db.execute(
                "INSERT INTO levels VALUES (?, ?, ?, ?) ON CONFLICT(level) DO UPDATE SET"
                " best = max(best, excluded.best), stars = max(stars, excluded.stars)",
                (state.level, state.final_score, state.stars, now_stamp())))  # fmt: skip
        except (sqlite3.Error, OSError) as exc:
            self.problem = self._explain(exc)

    def stars(self) -> dict[int, int]:
        """The most stars earned on each level cleared."""
        if self.problem:
            return {}
        try:
            rows = retry(self.path, lambda db: db.execute("SELECT level, stars FROM levels").fetchall())
        except (sqlite3.Error, OSError) as exc:
            self.problem = self._explain(exc)
            return {}
        return {int(level): int(stars) for level, stars in rows}

    def unlocked(self, cleared: Mapping[int, int] | None = None) -> int:
        """The highest level open: the first whose level before it is not cleared. A level played from a shared
        code and cleared keeps its stars but opens nothing out of turn. ``cleared``: :meth:`stars` if already read.
        """
        cleared, level = self.stars() if cleared is None else cleared, min(LEVELS)
        while level in cleared and level + 1 in LEVELS:
            level += 1
        return level
