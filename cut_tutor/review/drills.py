"""Drills: positions from the learner's graded mistakes (and a teacher's chosen ones), scheduled by FSRS spaced
repetition, with progress in one SQLite file per learner (``<home>/learners/<id>/drills.sqlite``). The same file
keeps every finished review of the learner's hands, with its mistakes' kinds, for the progress over time.

Writes are single transactions retried while the file is locked, as the score history's are; a file that cannot
be used leaves :attr:`Drills.problem` set and the drills empty rather than stopping the game. The clock is
injected, and the scheduler does not fuzz its intervals, so a schedule is the same on every run.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import fsrs

from ..analysis import Analysis
from ..analysis.report import BEST
from ..engine import View, replay, view
from ..storage.history import retry, store_trouble
from .hand import Decision, HandReview, Summary
from .words import position_title

T = TypeVar("T")
#: A learner's drills file in their home: the deck, the answers and the kept reviews.
DRILLS_FILE = "drills.sqlite"
MISTAKE, TEACHER = "mistake", "teacher"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS drills (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    record TEXT NOT NULL,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    source TEXT NOT NULL,
    title TEXT NOT NULL,
    card TEXT NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (record, ply, seat)
);
CREATE TABLE IF NOT EXISTS attempts (
    drill_id INTEGER NOT NULL REFERENCES drills(id) ON DELETE CASCADE,
    answered TEXT NOT NULL,
    move TEXT NOT NULL,
    solved INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS reviews (
    record TEXT NOT NULL,
    seat INTEGER NOT NULL,
    game TEXT,
    hand INTEGER,
    reviewed TEXT NOT NULL,
    review TEXT NOT NULL,
    kinds TEXT NOT NULL,
    UNIQUE (record, seat)
);
"""


@dataclass(frozen=True)
class Drill:
    """One position to retry: the hand's record, the ply and seat, a title that gives nothing away, when it is due."""

    id: int
    record: dict[str, Any]
    ply: int
    seat: int
    source: str
    title: str
    due: datetime

    def view(self) -> View:
        """The position as the seat saw it then (C2): what the learner is shown, the answer hidden."""
        return view(replay(self.record, upto=self.ply), self.seat)


def review_of(data: Mapping[str, Any]) -> HandReview:
    """A hand review back from its stored rows (:meth:`HandReview.rows`: the decisions, then the summary)."""
    *decisions, summary = data["rows"]
    return HandReview(
        [Decision.from_dict(d) for d in decisions], Summary(**{k: v for k, v in summary.items() if k != "summary"})
    )


def title_of(seat_view: Mapping[str, Any]) -> str:
    """A spoiler-free title, numbered as the review numbers the decision (:func:`~.words.position_title`).

    >>> title_of({"seat": 1, "turns": 11, "hand": ["7", "5"], "pile": [{"card": "9", "by": 0}]})
    'Turn 11, seat 1: 2 cards in hand, the pile topped by 9'
    """
    return position_title(seat_view)


def judge(analysis: Analysis, move: str) -> tuple[str, float]:
    """How ``move`` compares with the analysis' best: its verdict, ``best``, ``close`` (too close to call) or
    ``worse``, and its loss in points (what a retry and a drill tell the learner once they have chosen). The
    analysis is the position's one evaluation (:func:`~cut_tutor.review.hand.position_analysis`), so a retry and a
    drill say what the review and the tutor said."""
    mine = next((m for m in analysis.moves if str(m.move) == move), None)
    if mine is None:
        raise ValueError(f"drill: {move} is not a legal move here")
    return mine.verdict, 0.0 if mine.verdict == BEST else mine.gap


def solved(analysis: Analysis, move: str) -> bool:
    """Is ``move`` the analysis' best move, or too close to it to call?"""
    return judge(analysis, move)[0] != "worse"


class Drills:
    """One learner's deck of drills in an SQLite file, scheduled by FSRS under the clock ``clock``."""

    def __init__(self, path: str | Path, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.path = Path(path)
        self.clock = clock
        self.scheduler = fsrs.Scheduler(enable_fuzzing=False)
        self.problem = ""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._retry(lambda db: db.executescript(_SCHEMA))
        except (sqlite3.Error, OSError) as exc:
            self.problem = self._explain(exc)

    def _explain(self, exc: Exception) -> str:
        return f"{store_trouble('drills file', self.path, exc)}: drills are off until it can be used."

    def _retry(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return retry(self.path, work)

    def _soft(self, work: Callable[[sqlite3.Connection], T], default: T) -> T:
        try:
            result = self._retry(work)
        except (sqlite3.Error, OSError) as exc:
            self.problem = self._explain(exc)
            return default
        self.problem = ""
        return result

    def add(self, record: Mapping[str, Any], ply: int, seat: int, source: str = TEACHER) -> int | None:
        """Add the position before ply ``ply`` for ``seat`` (once: adding it again returns the same id); ``None``
        if the file cannot be written now."""
        seat_view = view(replay(dict(record), upto=ply), seat)
        if seat_view["turn"] != seat or not seat_view["legal"]:
            raise ValueError(f"drill: seat {seat} is not to move at ply {ply}")
        now = self.clock()
        card = fsrs.Card(card_id=1, due=now)
        text = json.dumps(dict(record), sort_keys=True)

        def insert(db: sqlite3.Connection) -> int:
            db.execute(
                "INSERT OR IGNORE INTO drills (record, ply, seat, source, title, card, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (text, ply, seat, source, title_of(seat_view), json.dumps(card.to_dict()), now.isoformat()),
            )
            row = db.execute("SELECT id FROM drills WHERE record = ? AND ply = ? AND seat = ?", (text, ply, seat))
            return int(row.fetchone()[0])

        return self._soft(insert, None)

    def add_mistakes(self, record: Mapping[str, Any], hand: HandReview) -> list[int]:
        """A drill for every graded decision of a hand review."""
        ids = [self.add(record, d.ply, hand.summary.seat, MISTAKE) for d in hand.mistakes()]
        return [i for i in ids if i is not None]

    def drills(self) -> list[Drill]:
        """Every drill, soonest due first."""
        empty: list[Any] = []
        rows = self._soft(
            lambda db: db.execute("SELECT id, record, ply, seat, source, title, card FROM drills").fetchall(), empty
        )
        found = [
            Drill(r[0], json.loads(r[1]), r[2], r[3], r[4], r[5], fsrs.Card.from_dict(json.loads(r[6])).due)
            for r in rows
        ]
        return sorted(found, key=lambda d: (d.due, d.id))

    def due(self) -> list[Drill]:
        """The drills due now by the clock, soonest first."""
        now = self.clock()
        return [d for d in self.drills() if d.due <= now]

    def answer(self, drill: Drill, move: str, analysis: Analysis) -> bool:
        """Record the learner's move in a drill, judged by the analysis of its position: solved when best or too
        close to call (then FSRS rates it Good, otherwise Again); whether it was solved."""
        if analysis.seat != drill.seat:
            raise ValueError("drill: the analysis is of another seat")
        ok = solved(analysis, move)
        now = self.clock()

        def update(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT card FROM drills WHERE id = ?", (drill.id,)).fetchone()
            if row is None:
                raise ValueError(f"drill {drill.id} is not in the deck")
            card = fsrs.Card.from_dict(json.loads(row[0]))
            card, _ = self.scheduler.review_card(card, fsrs.Rating.Good if ok else fsrs.Rating.Again, now)
            db.execute("UPDATE drills SET card = ? WHERE id = ?", (json.dumps(card.to_dict()), drill.id))
            db.execute("INSERT INTO attempts VALUES (?, ?, ?, ?)", (drill.id, now.isoformat(), move, int(ok)))

        self._soft(update, None)
        return ok

    def attempts(self) -> list[dict[str, Any]]:
        """Every answer given, oldest first: the drill, when, the move and whether it was solved."""
        keys = ("drill", "answered", "move", "solved")
        empty: list[Any] = []
        rows = self._soft(lambda db: db.execute("SELECT * FROM attempts ORDER BY rowid").fetchall(), empty)
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def keep_review(
        self,
        record: Mapping[str, Any],
        hand: HandReview,
        kinds: Mapping[int, str],
        game: str | None = None,
        number: int | None = None,
    ) -> bool:
        """Keep a finished review for the learner's progress: its summary and decisions, and the kind of each graded
        decision (by ply). The same hand reviewed again for the same seat replaces its row, so it counts once;
        whether it was written."""
        text = json.dumps(dict(record), sort_keys=True)
        kept = json.dumps({"rows": hand.rows()})
        named = json.dumps({str(ply): name for ply, name in kinds.items()})
        row = (text, hand.summary.seat, game, number, self.clock().isoformat(), kept, named)

        def upsert(db: sqlite3.Connection) -> bool:
            db.execute(
                "INSERT INTO reviews (record, seat, game, hand, reviewed, review, kinds) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (record, seat) DO UPDATE SET game = excluded.game, hand = excluded.hand,"
                " reviewed = excluded.reviewed, review = excluded.review, kinds = excluded.kinds",
                row,
            )
            return True

        return self._soft(upsert, False)

    def reviewed(self) -> list[tuple[dict[str, Any], HandReview]]:
        """Every kept review, first reviewed first, as :func:`~cut_tutor.review.progress_frame` reads them: a key
        naming the game, the hand, when it was reviewed and the graded decisions' kinds, and the review."""
        empty: list[Any] = []
        rows = self._soft(
            lambda db: db.execute("SELECT game, hand, reviewed, review, kinds FROM reviews ORDER BY rowid").fetchall(),
            empty,
        )
        return [
            ({"game": game, "hand": hand, "reviewed": when, "kinds": list(json.loads(kinds).values())},
             review_of(json.loads(review)))
            for game, hand, when, review, kinds in rows
        ]  # fmt: skip
