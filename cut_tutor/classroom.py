"""A teacher's view across a class: one row per learner under ``<home>/learners``, read without changing anything,
and the learners' exported progress gathered into one table (:func:`gather_progress`).

Each learner's history is opened read-only and their saves are only read, so looking at a class never locks,
migrates, moves or rewrites a learner's file. A history that cannot be read now (damaged, locked by the learner's
game, unreadable) is named in the problems and its learner skipped; the others are listed.

The class's page (``class.ipynb``, beside the dashboard) and ``cut-tutor class`` both read a class through
:func:`class_view`; the page shows only to a teacher (:func:`is_teacher`).

>>> import tempfile
>>> table, problems = class_summary(tempfile.mkdtemp())
>>> list(table.columns), problems
(['learner', 'playing', 'games', 'hands', 'points_per_hand', 'busts', 'last_played', 'unfinished'], [])
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from . import roster
from .identity import HUB_USER, TEACHER_ENV
from .review import HandReview, progress_frame
from .review.drills import DRILLS_FILE, review_of
from .review.progress import COLUMNS as COLUMNS_OF_PROGRESS
from .review.progress import KIND_COLUMNS, kind_totals
from .review.words import kinds_line
from .storage import SaveError, read_save
from .storage.files import disk_reason
from .storage.history import csv_cell
from .storage.saves import playing

#: The columns of :func:`class_summary`; points and busts are the learner's own seat's (the first); ``playing``: a
#: live tab of theirs plays a game now.
COLUMNS = ["learner", "playing", "games", "hands", "points_per_hand", "busts", "last_played", "unfinished"]
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
        except (SaveError, OSError) as exc:  # named by the learner's folder, never by a path on the server
            reason = exc.reason if isinstance(exc, SaveError) else disk_reason(exc)
            problems.append(f"{home.name}: a save cannot be read ({reason})")
            continue
        count += 1
    return count, problems


def _learners(home: str | os.PathLike[str]) -> list[Path]:
    """Each learner's folder under ``<home>/learners``, and in a class every learner on its roster (named, never
    with a secret; a learner who has not played yet has no folder and no games)."""
    folder = Path(home) / "learners"
    found = {p.name for p in folder.iterdir() if p.is_dir()} if folder.is_dir() else set()
    return [folder / name for name in sorted(found | set(roster.names(home)))]


def class_summary(home: str | os.PathLike[str]) -> tuple[pd.DataFrame, list[str]]:
    """Each learner under ``<home>/learners``: games played, hands, average points per hand, busts, when they
    last finished a game and how many games wait unfinished; with what could not be read (those learners skipped).
    """
    rows, problems = [], []
    for learner in _learners(home):
        try:
            figures = _history(learner / "history.sqlite")
        except sqlite3.Error as exc:
            reason = "locked by a game being recorded" if "locked" in str(exc) else str(exc)
            problems.append(f"{learner.name}: the history cannot be read ({reason}); skipped, try again later")
            continue
        unfinished, unreadable = _unfinished(learner)
        problems.extend(unreadable)
        rows.append({"learner": learner.name, "playing": playing(learner), **figures, "unfinished": unfinished})
    return pd.DataFrame(rows, columns=COLUMNS), problems


#: The columns of :func:`gather_progress`: one row per learner's exported progress CSV.
PROGRESS_COLUMNS = ["learner", "hands", "accuracy", "lost_per_hand", "kinds"]
#: The name the app gives a learner's progress download: ``cut-progress-<learner>.csv``.
PROGRESS_PREFIX = "cut-progress-"


def gather_progress(
    files: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
) -> tuple[pd.DataFrame, list[str]]:
    """The learners' exported progress CSVs (a folder's ``*.csv``, or a list of files) in one table: each learner
    (named by the file, ``cut-progress-<learner>.csv``), their reviewed hands, mean accuracy, points lost to graded
    mistakes per hand (the losses clear of noise, as the accuracy counts them) and most frequent mistake kinds;
    with a line for each file that cannot be read (skipped, never changed)."""
    paths = sorted(Path(files).glob("*.csv")) if isinstance(files, (str, os.PathLike)) else [Path(f) for f in files]
    rows, problems = [], []
    for path in paths:
        try:
            frame = pd.read_csv(path)
            missing = [c for c in [*COLUMNS_OF_PROGRESS, *KIND_COLUMNS] if c not in frame.columns]
            if missing:
                raise ValueError(f"not a progress export: no {missing[0]} column")
            rows.append(_progress_row(path.stem.removeprefix(PROGRESS_PREFIX), frame))
        except (OSError, ValueError, TypeError) as exc:
            problems.append(f"{path.name}: cannot be read ({disk_reason(exc) if isinstance(exc, OSError) else exc});"
                            " skipped")  # fmt: skip
    return pd.DataFrame(rows, columns=PROGRESS_COLUMNS), problems


def _progress_row(learner: str, frame: pd.DataFrame) -> dict[str, Any]:
    """One learner's line of the class's progress, from their progress table."""
    counts = kind_totals(frame)
    accuracy, lost = frame["accuracy"].mean(), frame["lost_to_mistakes"].mean()
    return {"learner": learner, "hands": len(frame), "accuracy": round(float(accuracy), 1) if len(frame) else None,
            "lost_per_hand": round(float(lost), 2) if len(frame) else None, "kinds": kinds_line(counts)}  # fmt: skip


def class_progress(home: str | os.PathLike[str]) -> tuple[pd.DataFrame, list[str]]:
    """The same table as :func:`gather_progress`, read straight from each learner's drills file under
    ``<home>/learners``, opened read-only (a learner with no file has no hands); a file that cannot be read now is
    named in the problems and its learner skipped."""
    frames, _, problems = _progress_frames(home)
    rows = [_progress_row(learner, frame) for learner, frame in frames.items()]
    return pd.DataFrame(rows, columns=PROGRESS_COLUMNS), problems


def _progress_frames(
    home: str | os.PathLike[str],
) -> tuple[dict[str, pd.DataFrame], dict[str, dict[str, int]], list[str]]:
    """Each learner's reviewed hands (:func:`~cut_tutor.review.progress_frame`), oldest first, and their drills
    (:data:`DRILL_COLUMNS`), from their drills file opened read-only; with a line for each file that cannot be read
    now (its learner left out)."""
    frames, drills, problems = {}, {}, []
    for learner in _learners(home):
        path = learner / DRILLS_FILE
        try:
            kept, counts = _drills(path) if path.exists() else ([], dict.fromkeys(DRILL_COLUMNS, 0))
            frames[learner.name], drills[learner.name] = progress_frame(kept), counts
        except (sqlite3.Error, ValueError, KeyError, TypeError) as exc:
            problems.append(f"{learner.name}: the drills file cannot be read ({exc}); skipped, try again later")
    return frames, drills, problems


#: A learner's drills, as the class's table counts them: in their deck, answers given, answers that solved one.
DRILL_COLUMNS = ["drills", "tried", "solved"]


def _drills(path: Path) -> tuple[list[tuple[dict[str, Any], HandReview]], dict[str, int]]:
    """A learner's kept reviews, oldest first, and their drills' counts, from their drills file opened read-only."""
    uri = path.resolve().as_uri() + "?mode=ro"
    with closing(sqlite3.connect(uri, uri=True, timeout=READ_TIMEOUT)) as db:
        found = db.execute("SELECT game, hand, review, kinds FROM reviews ORDER BY rowid").fetchall()
        (deck,) = db.execute("SELECT COUNT(*) FROM drills").fetchone()
        tried, solved = db.execute("SELECT COUNT(*), COALESCE(SUM(solved), 0) FROM attempts").fetchone()
    reviews = [({"game": game, "hand": hand, "kinds": list(json.loads(kinds).values())}, review_of(json.loads(text)))
               for game, hand, text, kinds in found]  # fmt: skip
    return reviews, {"drills": deck, "tried": tried, "solved": solved}


#: The columns of :attr:`ClassView.table`: the games' figures, then the reviewed hands' (``reviewed``: how many).
TABLE_COLUMNS = [*COLUMNS, "reviewed", "accuracy", "lost_per_hand", "kinds", *DRILL_COLUMNS]


@dataclass(frozen=True)
class ClassView:
    """A class as its teacher sees it, read once: the games (:func:`class_summary`), the reviewed hands
    (:func:`class_progress`), each learner's reviewed hands in order (for accuracy over time), the class's mistakes
    of each kind, each learner's drills (:data:`DRILL_COLUMNS`), and what could not be read."""

    summary: pd.DataFrame
    progress: pd.DataFrame
    frames: dict[str, pd.DataFrame]
    kinds: dict[str, int]
    drills: pd.DataFrame
    problems: list[str]

    @property
    def table(self) -> pd.DataFrame:
        """One row per learner: the games' figures beside the reviewed hands' (a learner any part of whose files
        could not be read is left out, as the problems say)."""
        reviewed = self.progress.rename(columns={"hands": "reviewed"})
        both = self.summary.merge(reviewed, on="learner", how="inner")
        return both.merge(self.drills, on="learner", how="inner")[TABLE_COLUMNS]


def class_view(home: str | os.PathLike[str]) -> ClassView:
    """Everything the class's page and ``cut-tutor class`` show of the learners under ``<home>/learners``, read
    without changing a file."""
    summary, problems = class_summary(home)
    frames, drills, unread = _progress_frames(home)
    progress = pd.DataFrame([_progress_row(learner, frame) for learner, frame in frames.items()],
                            columns=PROGRESS_COLUMNS)  # fmt: skip
    every = pd.concat(list(frames.values())) if frames else progress_frame([])
    decks = pd.DataFrame([{"learner": learner, **counts} for learner, counts in drills.items()],
                         columns=["learner", *DRILL_COLUMNS])  # fmt: skip
    return ClassView(summary, progress, frames, kind_totals(every), decks, problems + unread)


def table_csv(table: pd.DataFrame) -> str:
    """A class's table as CSV, each learner's name a cell a spreadsheet shows as text."""
    return table.assign(learner=table["learner"].map(csv_cell)).to_csv(index=False)


#: The hub users who teach the class: names separated by commas, set where the class's hub starts its servers.
TEACHERS_ENV = "CUT_TUTOR_TEACHERS"


#: Set (to ``1``) by ``cut-tutor class --serve`` on the Voilà it starts for the teacher, which serves nothing to
#: anyone without the token it printed to them.
TEACHER_SERVER_ENV = "CUT_TUTOR_TEACHER_SERVER"


def is_teacher(environ: Mapping[str, str] | None = None, home: str | os.PathLike[str] | None = None) -> bool:
    """Whether the server says the person at this page teaches the class: under JupyterHub, the hub user whose server
    this is (signed in by the hub; :mod:`cut_tutor.identity`) is one of :data:`TEACHERS_ENV`'s names; on the class's
    dashboard, a teacher of the class in ``home`` signed in (the server names them in its own
    :data:`~cut_tutor.identity.TEACHER_ENV`, and the roster still names them a teacher); or the page is served by the
    teacher's own ``cut-tutor class --serve``, whose token they alone were given. Nobody else is: a page cannot name
    itself a teacher, a learner signed in to a class's dashboard is a learner, and where no teacher can be
    established the class's page shows nobody the class. Every teacher check goes through here."""
    env = os.environ if environ is None else environ
    if env.get(TEACHER_SERVER_ENV) == "1":
        return True
    signed_in = env.get(TEACHER_ENV, "")
    if signed_in and home is not None and roster.is_teacher(home, signed_in):
        return True
    user = env.get(HUB_USER, "")
    teachers = {name.strip() for name in env.get(TEACHERS_ENV, "").split(",") if name.strip()}
    return bool(user) and user in teachers
