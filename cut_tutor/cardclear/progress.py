"""A learner's way up Card Clear's levels: the levels cleared, each with its best final score and stars, in an
SQLite file in the learner's home. Levels open one by one: clearing a level opens the next (K17).

>>> import tempfile, pathlib
>>> progress = Progress(pathlib.Path(tempfile.mkdtemp()) / "cardclear.sqlite")
>>> progress.unlocked(), progress.stars(), progress.first_game()
(1, {}, True)
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from ..storage.files import now_stamp
from ..storage.history import open_store, retry, store_trouble
from .levels import LEVELS
from .state import Puzzle

_SCHEMA = """
CREATE TABLE IF NOT EXISTS levels (
    level INTEGER PRIMARY KEY,
    best INTEGER NOT NULL,   -- the best final score (points and move bonus) the level was cleared with
    stars INTEGER NOT NULL,  -- the most stars earned on it, 1 to 3
    cleared TEXT NOT NULL    -- when it was first cleared (UTC)
);
CREATE TABLE IF NOT EXISTS games (
    code TEXT NOT NULL,      -- the board code played to its end, cleared or not
    final INTEGER NOT NULL,  -- its final score
    stars INTEGER NOT NULL,  -- 0 when the level was not cleared
    finished TEXT NOT NULL   -- when (UTC)
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
        return f"{store_trouble('Card Clear progress', self.path, exc)}: the levels you clear now are not kept."

    def record(self, state: Puzzle) -> None:
        """Keep a game played to its end, and for a cleared level its best final score and stars."""
        if self.problem:
            return

        def keep(db: sqlite3.Connection) -> None:
            stamp = now_stamp()
            db.execute("INSERT INTO games VALUES (?, ?, ?, ?)", (state.code, state.final_score, state.stars, stamp))
            if state.passed:
                db.execute("INSERT INTO levels VALUES (?, ?, ?, ?) ON CONFLICT(level) DO UPDATE SET"
                           " best = max(best, excluded.best), stars = max(stars, excluded.stars)",
                           (state.level, state.final_score, state.stars, stamp))  # fmt: skip

        try:
            retry(self.path, keep)
        except (sqlite3.Error, OSError) as exc:
            self.problem = self._explain(exc)

    def first_game(self) -> bool:
        """Has the learner yet to play a game to its end? Their first game shows a swap they can make (K18). A
        level cleared before games were kept counts as a game played."""
        if self.problem:
            return False
        ask = "SELECT 1 FROM games UNION ALL SELECT 1 FROM levels LIMIT 1"
        try:
            return retry(self.path, lambda db: db.execute(ask).fetchone()) is None
        except (sqlite3.Error, OSError) as exc:
            self.problem = self._explain(exc)
            return False

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
