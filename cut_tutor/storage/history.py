"""The SQLite history of finished games, and the helpers every learner's SQLite file shares (locks, retries, a
damaged file kept aside, troubles told in the learner's words).

A finished game reaches the history through a pending file beside it (its save), so a game the history cannot take
now waits on disk, not in a closed tab's memory. Stamps are UTC ISO 8601 with an offset (:func:`now_stamp`).
"""

from __future__ import annotations

import csv
import errno
import io
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from ..engine.codes import record
from ..engine.game import Game
from .files import (
    SaveError,
    Stamp,
    disk_reason,
    file_stamp,
    keep_aside,
    load_game,
    now_stamp,
    read_save,
    read_stamp,
    save_data,
    write_atomic,
)

T = TypeVar("T")
#: Where a file's path and its error go when a learner is told only what it means for them.
LOG = logging.getLogger(__name__)


class HistoryError(ValueError):
    """The score history cannot be read or changed now; the message says why and what to do."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    names TEXT NOT NULL,
    totals TEXT NOT NULL,
    winners TEXT NOT NULL,
    uid TEXT
);
CREATE TABLE IF NOT EXISTS hands (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    points INTEGER NOT NULL,
    busts INTEGER NOT NULL,
    went_out INTEGER NOT NULL,
    automated INTEGER NOT NULL,
    deal TEXT NOT NULL,
    PRIMARY KEY (game_id, hand, seat)
);
CREATE TABLE IF NOT EXISTS records (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    hand INTEGER NOT NULL,
    deal TEXT NOT NULL,
    moves TEXT NOT NULL,
    PRIMARY KEY (game_id, hand)
);
"""


#: How long one SQLite call waits for a lock, and the pauses between the tries after it (seconds).
LOCK_TIMEOUT, RETRY_PAUSES = 2.0, (0.05, 0.2, 0.5)
#: Seconds a list of games read stays good while the file bears the same stamp: the app redraws it on every move,
#: and another tab's finished game shows within this time.
GAMES_FRESH = 2.0


@contextmanager
def connect(path: Path) -> Iterator[sqlite3.Connection]:
    """One transaction on a learner's SQLite file, foreign keys on, waiting a while for a lock."""
    with closing(sqlite3.connect(path, timeout=LOCK_TIMEOUT)) as db:
        db.execute("PRAGMA foreign_keys = ON")
        with db:
            yield db


def retry(path: Path, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``work`` in one transaction on ``path``, trying again after a pause while the file is locked."""
    for pause in (*RETRY_PAUSES, None):
        try:
            with connect(path) as db:
                return work(db)
        except sqlite3.OperationalError as exc:
            if pause is None or not ("locked" in str(exc) or "busy" in str(exc)):
                raise
            time.sleep(pause)
    raise AssertionError("unreachable")  # the last pause is None: the loop returns or raises


def store_trouble(what: str, path: Path, exc: Exception) -> str:
    """What is wrong with a learner's file, in the learner's words (``The score history is in use …``) and never with
    its path: the path and the error go to the server's log."""
    LOG.warning("%s %s: %s", what, path, exc)
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        reason = "is in use by another program just now"
    elif "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
        reason = "cannot be written"
    elif isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        reason = f"cannot be written: {disk_reason(exc)}"
    else:
        reason = "cannot be opened"
    return f"The {what} {reason}"


def open_store(
    path: Path, migrate: Callable[[sqlite3.Connection], None], what: str, explain: Callable[[Exception], str]
) -> str:
    """Ready a learner's SQLite file with its schema; ``""``, or what is wrong in plain words. A damaged file is
    kept aside (``<name>.corrupt-<stamp>``) and a new one started; one locked or unwritable is left as it is
    (``explain`` says so)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        retry(path, migrate)
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError):
            return explain(exc)
        kept = path.with_name(f"{path.stem}.corrupt-{datetime.now(UTC):%Y%m%d-%H%M%S}{path.suffix}")
        path.rename(kept)
        retry(path, migrate)
        return f"The {what} was damaged ({exc}): it is kept as {kept.name}; a new one was started."
    except OSError as exc:
        return explain(exc)
    return ""


class History:
    """Finished games in an SQLite file: hand-by-hand scores, busts and automated seats.

    A finished game is written to disk first, beside the file as ``<stem>.pending-<id>.json`` (its save, which
    replays it whole), then into the history, and only then is its pending file removed: a game the history cannot
    take now (the file locked by another program, or unwritable) stays on disk through a closed tab or a stopped
    kernel, and is written the next time the history is opened or a game added. Only a game whose pending file cannot
    be written either waits in memory (:attr:`unsaved`). :attr:`problem` says in plain words what is wrong.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        #: Finished games neither the history nor a pending file could hold: kept while this process lives.
        self.unsaved: list[Game] = []
        self.problem = ""
        #: The last list of games read: the file's stamp then, when, and the list (:meth:`games`).
        self._games: tuple[Stamp | None, float, list[dict[str, Any]]] | None = None
        self._ready = self._open()
        if self._ready and self._waiting_files():  # games finished while it could not be written, or in a lost tab
            opened = self.problem  # a damaged file kept aside, say
            self.flush()
            self.problem = " ".join(filter(None, (opened, self.problem)))

    def _open(self) -> bool:
        """Ready the file (see :func:`open_store`); whether it can be used (a damaged one replaced can)."""
        failed: list[Exception] = []

        def explain(exc: Exception) -> str:
            failed.append(exc)
            return self._explain(exc)

        self.problem = open_store(self.path, self._migrate, "score history", explain)
        return not failed

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        """The current schema, and a game id column in a history from before games carried one."""
        db.executescript(_SCHEMA)
        if "uid" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}:
            db.execute("ALTER TABLE games ADD COLUMN uid TEXT")
        db.execute("CREATE UNIQUE INDEX IF NOT EXISTS games_uid ON games(uid)")

    def _explain(self, exc: Exception) -> str:
        waiting = len(self.pending)
        if self.unsaved:
            kept = "your finished game is kept only while this page stays open, and will be added when it can be"
        elif waiting:
            games = "your finished game is" if waiting == 1 else f"your {waiting} finished games are"
            kept = f"{games} kept, and will be added to it when it can be written"
        else:
            kept = "a game you finish now is kept, and will be added to it when it can be written"
        return f"{store_trouble('score history', self.path, exc)}: {kept}."

    def _retry(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return retry(self.path, work)

    def _pending_path(self, uid: str) -> Path:
        return self.path.with_name(f"{self.path.stem}.pending-{uid}.json")

    def _waiting_files(self) -> list[Path]:
        """The pending files beside the history, oldest first (a kept bad one, ``…pending-<id>.corrupt-…``, is not)."""
        prefix = f"{self.path.stem}.pending-"
        try:
            found = [(p.stat().st_mtime_ns, p) for p in self.path.parent.glob(f"{prefix}*.json")
                     if p.stem.removeprefix(prefix).isalnum()]  # fmt: skip
        except OSError:  # the folder cannot be read, or a file went meanwhile (written by another tab)
            return []
        return [p for _, p in sorted(found)]

    @property
    def pending(self) -> list[str]:
        """The ids of the finished games waiting to be written: in memory, then on disk, oldest first."""
        in_memory = [game.uid for game in self.unsaved]
        on_disk = [p.stem.removeprefix(f"{self.path.stem}.pending-") for p in self._waiting_files()]
        return in_memory + [uid for uid in on_disk if uid not in in_memory]

    def on_disk(self, game: Game) -> bool:
        """Is ``game`` kept on disk, in the history or in its pending file (so its save may go)?"""
        return all(waiting.uid != game.uid for waiting in self.unsaved)

    def add(self, game: Game) -> int | None:
        """Store a finished game with every hand's record; its id, or ``None`` while it waits (see :attr:`pending`)."""
        if not game.over:
            raise ValueError("only finished games are recorded")
        try:
            write_atomic(self._pending_path(game.uid), json.dumps(save_data(game)))
        except OSError as exc:
            LOG.warning("score history %s: the pending file of game %s cannot be written: %s", self.path, game.uid, exc)
            self.unsaved.append(game)
        return self.flush().get(game.uid)

    def flush(self) -> dict[str, int]:
        """Write the games waiting (see :attr:`pending`), oldest first, until one cannot be; the id each game
        written has, by its game id."""
        written: dict[str, int] = {}
        self._ready = self._ready or self._open()
        if not self._ready:
            return written
        damaged = []
        while self.unsaved:
            if not self._write(self.unsaved[0], now_stamp(), written):
                return written
            self.unsaved.pop(0)
        for path in self._waiting_files():
            try:
                game = load_game(path)
                finished = _saved_at(path)  # when it ended, not when it is written
            except FileNotFoundError:
                continue  # another tab wrote it a moment ago
            except SaveError as exc:  # a damaged pending file is kept aside and named
                LOG.warning("score history %s: %s", self.path, exc)
                kept = keep_aside(path, load_game)
                damaged.append(f"A finished game could not be read to be added to the score history: it is kept as"
                               f" {(kept or path).name}.")  # fmt: skip
                continue
            except OSError as exc:
                self.problem = self._explain(exc)
                return written
            if not self._write(game, finished, written):
                return written
            path.unlink(missing_ok=True)  # only now: the history holds the game
        self.problem = " ".join(damaged)
        return written

    def _write(self, game: Game, finished: str, written: dict[str, int]) -> bool:
        """Insert ``game``, which ended at ``finished``, in one transaction (its id noted in ``written``); ``False``,
        :attr:`problem` set, if it must wait."""
        self._games = None
        try:
            written[game.uid] = self._retry(lambda db: self._insert(db, game, finished))
        except (sqlite3.Error, OSError) as exc:
            self.problem = self._explain(exc)
            return False
        return True

    @staticmethod
    def _insert(db: sqlite3.Connection, game: Game, finished: str) -> int:
        known = db.execute("SELECT id FROM games WHERE uid = ?", (game.uid,)).fetchone()
        if known is not None:  # the same game finished in another tab too: recorded once
            return int(known[0])
        cursor = db.execute(
            "INSERT INTO games (finished, rules, seed, names, totals, winners, uid) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                finished,
                game.rules.to_json(),
                game.seed,
                json.dumps(game.names),
                json.dumps(game.totals),
                json.dumps(game.winners),
                game.uid,
            ),
        )
        game_id = int(cursor.lastrowid or 0)
        db.executemany(
            "INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    r.number,
                    seat,
                    r.scores[seat],
                    r.busts[seat],
                    int(r.winner == seat),
                    int(r.automated[seat]),
                    r.deal,
                )
                for r in game.results
                for seat in range(game.rules.players)
            ],
        )
        db.executemany(
            "INSERT INTO records VALUES (?, ?, ?, ?)",
            [(game_id, r.number, r.deal, json.dumps(list(r.moves))) for r in game.results],
        )
        return game_id

    def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """A read that fails with a plain :class:`HistoryError`, the reason kept in :attr:`problem`."""
        try:
            return self._retry(work)
        except (sqlite3.Error, OSError) as exc:
            self.problem = self._explain(exc)
            raise HistoryError(self.problem) from None

    def record(self, game_id: int, hand: int) -> dict[str, Any]:
        """The replayable record of one stored hand (see :func:`~cut_tutor.engine.codes.replay`)."""
        row = self._read(
            lambda db: db.execute(
                "SELECT games.rules, records.deal, records.moves FROM records JOIN games ON games.id = records.game_id"
                " WHERE records.game_id = ? AND records.hand = ?",
                (game_id, hand),
            ).fetchone()
        )
        if row is None:
            raise ValueError(f"history: game {game_id} has no stored hand {hand}")
        return record(json.loads(row[0]), row[1], json.loads(row[2]))

    def games(self) -> list[dict[str, Any]]:
        """One summary per finished game, newest first; none while the file cannot be read (see :attr:`problem`).
        Read again once the file has changed, this history has written, or :data:`GAMES_FRESH` seconds have passed."""
        stamp, kept = file_stamp(self.path), self._games
        if kept is not None and kept[0] == stamp and time.monotonic() - kept[1] < GAMES_FRESH:
            return [dict(game) for game in kept[2]]
        try:
            rows = self._read(
                lambda db: db.execute(
                    "SELECT id, finished, rules, seed, names, totals, winners FROM games ORDER BY id DESC"
                ).fetchall()
            )
        except HistoryError:
            return []
        games = [
            {
                "id": row[0],
                "finished": row[1],
                "rules": json.loads(row[2]),
                "seed": row[3],
                "names": json.loads(row[4]),
                "totals": json.loads(row[5]),
                "winners": json.loads(row[6]),
            }
            for row in rows
        ]
        self._games = (stamp, time.monotonic(), games)
        return [dict(game) for game in games]

    def hands(self, game_id: int) -> list[dict[str, Any]]:
        """The hand-by-hand rows of one game; none while the file cannot be read (see :attr:`problem`)."""
        keys = ("hand", "seat", "points", "busts", "went_out", "automated", "deal")
        try:
            rows = self._read(
                lambda db: db.execute(
                    f"SELECT {', '.join(keys)} FROM hands WHERE game_id = ? ORDER BY hand, seat", (game_id,)
                ).fetchall()
            )
        except HistoryError:
            return []
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def delete(self, game_ids: list[int]) -> None:
        """Delete games and their hands."""
        self._games = None
        self._read(lambda db: db.executemany("DELETE FROM games WHERE id = ?", [(i,) for i in game_ids]))

    def export_csv(self, path: str | os.PathLike[str], game_ids: list[int] | None = None) -> Path:
        """Every hand row (of the chosen games) as CSV, with player names; no cell can run as a formula."""
        return write_atomic(path, self.csv_text(game_ids))

    def csv_text(self, game_ids: list[int] | None = None) -> str:
        """The CSV :meth:`export_csv` writes, as text: what a browser download carries."""
        games = {g["id"]: g for g in self.games() if game_ids is None or g["id"] in game_ids}
        out = io.StringIO(newline="")
        writer = csv.writer(out)
        writer.writerow(["game", "finished", "hand", "seat", "name", "points", "busts", "went_out", "automated"])
        for game_id in sorted(games):
            info = games[game_id]
            for row in self.hands(game_id):
                writer.writerow(
                    [game_id, info["finished"], row["hand"], row["seat"], csv_cell(info["names"][row["seat"]]),
                     row["points"], row["busts"], row["went_out"], row["automated"]]
                )  # fmt: skip
        return out.getvalue()


def _saved_at(path: Path) -> str:
    """When the save at ``path`` was made, as a stamp; now, if it holds no time that reads as one."""
    try:
        return read_stamp(str(read_save(path)["saved_at"])).isoformat(timespec="seconds")
    except (KeyError, ValueError):
        return now_stamp()


#: What a spreadsheet reads as the start of a formula (and the controls that can hide one).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that could start a formula gets a leading ``'``.

    >>> csv_cell("=1+2"), csv_cell("Ann")
    ("'=1+2", 'Ann')
    """
    return "'" + text if text.startswith(_FORMULA_START) else text
