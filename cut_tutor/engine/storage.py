"""Saving a game between turns, resuming it exactly, and the SQLite history of finished games.

A save holds the rules, the game seed, the finished hands and the current hand's moves up to the start
of the turn in play; loading replays them, so a resumed game is the game that was saved.
A file that cannot be read is reported and kept: :func:`save_game` moves it aside, never over it.
Every write goes to a temporary file of its own beside the target, is flushed to disk and then renamed over
it, so a reader sees the old file or the new one, never part of one. Stamps are UTC ISO 8601 with an offset.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import logging
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from .codes import PositionError, record
from .game import INT_LIMIT, Game, HandResult
from .moves import Move, MoveSyntaxError
from .reading import JSONLimitError, load_json
from .rules import Rules, RulesError
from .state import IllegalMoveError

SAVE_FORMAT, SAVE_VERSION = "cut_tutor.save", 1
T = TypeVar("T")
#: Where a file's path and its error go when a learner is told only what it means for them.
LOG = logging.getLogger(__name__)


def now_stamp() -> str:
    """This moment in UTC, ISO 8601 with its offset (``2026-12-01T11:06:55+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_stamp(text: str) -> datetime:
    """A stamp as an aware time; stamps written before UTC stamps (no offset) are read as local time.

    >>> read_stamp("2026-12-01T11:06:55+00:00").isoformat()
    '2026-12-01T11:06:55+00:00'
    >>> read_stamp("2024-05-01 10:00:00").tzinfo is not None
    True
    """
    stamp = datetime.fromisoformat(text)
    return stamp if stamp.tzinfo is not None else stamp.astimezone()


#: How a temporary file of :func:`write_atomic` ends, and how long after its last write one whose writer holds no lock
#: on it may be swept (:func:`sweep_temps`); a write takes milliseconds.
TEMP_SUFFIX, STALE_TEMP = ".tmp", 60.0


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file of this writer's own, flushed and synced, then renamed
    over it: concurrent writers never share a temporary file and a reader never sees a partial file. The writer
    holds a lock on its temporary file while it writes, so :func:`sweep_temps` leaves it alone."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            _lock(out.fileno())  # a new file of this writer's own: nobody else holds it
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _lock(fd: int) -> bool:
    """Lock the open file ``fd`` without waiting; ``False`` when another process (or file object) holds it. The lock
    goes with the process, however it ends. Without ``fcntl`` (Windows) there is none to take: there a file open in
    another process cannot be deleted, which guards a live writer instead."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def sweep_temps(folder: Path) -> list[Path]:
    """Remove the temporary files :func:`write_atomic` left in ``folder`` when its writer was killed mid-write, and
    return them: those unchanged for :data:`STALE_TEMP` seconds whose writer no longer holds its lock. A live
    writer's file is never touched, however long it takes."""
    swept = []
    for tmp in folder.glob(f".*{TEMP_SUFFIX}"):
        try:
            if time.time() - tmp.stat().st_mtime < STALE_TEMP:
                continue  # just made: its writer may not have locked it yet
            with open(tmp, "rb") as probe:
                free = _lock(probe.fileno())
            if free:  # no writer holds it, and none ever opens a temporary file it did not make
                tmp.unlink()
                swept.append(tmp)
        except OSError:  # gone meanwhile (its writer finished), or open elsewhere (Windows)
            continue
    if swept:
        LOG.warning("removed %d temporary file(s) left by interrupted writes in %s", len(swept), folder)
    return swept


class SaveError(ValueError):
    """A save file that cannot be resumed: corrupt, from a newer version, or from other rules. Its text names the
    file; :attr:`reason` alone is what a learner is told (never a path on the server)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason

    def __reduce__(self) -> tuple[type[SaveError], tuple[Path, str]]:
        return SaveError, (self.path, self.reason)


class HistoryError(ValueError):
    """The score history cannot be read or changed now; the message says why and what to do."""


def save_data(game: Game) -> dict[str, Any]:
    """The JSON-ready save of a game, as of the start of the current turn (or the end of a finished hand)."""
    state = game.state
    # A finished hand is already in ``results``: keep its last turn too, or the resumed hand would replay it.
    upto = len(state.moves) if state.over else state.turn_start
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "saved_at": now_stamp(),
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "first": game.first,
        "uid": game.uid,
        "names": game.names,
        "automated": game.automated,
        "results": [r.to_dict() for r in game.results],
        "hand": {
            "number": game.hand_number,
            "dealer": game.dealer,
            "deal": state.deal_code,
            "moves": [str(m) for m in state.moves[:upto]],
        },
    }


#: Limits a save must keep besides those of every JSON read (:mod:`~cut_tutor.engine.reading`): its size, and the
#: length of any text or list in it.
MAX_BYTES, MAX_TEXT, MAX_ITEMS = 4_000_000, 64, 100_000


def _parse(text: str, path: Path) -> dict[str, Any]:
    if len(text) > MAX_BYTES:
        raise SaveError(path, f"the save file is corrupt (larger than {MAX_BYTES} bytes); it has been kept as it is")
    try:
        data = load_json(text, "save")
    except JSONLimitError as exc:
        raise SaveError(path, f"the save file is corrupt ({exc}); it has been kept as it is") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(path, "not a cut_tutor save file; it has been kept as it is")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(path, f"the save file has no valid version ({version!r}); it has been kept as it is")
    if version > SAVE_VERSION:
        raise SaveError(path, f"saved by a newer version (save format {version}); this version reads {SAVE_VERSION}")
    return data


def _typed(value: Any, kind: type, where: str, players: int | None = None) -> Any:
    """``value`` if it is a ``kind`` (a bool is no int; an int one the history can keep), one per seat when
    ``players`` is given, else a ``TypeError`` naming the field."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{where} should be {kind.__name__}, not {type(value).__name__}")
    if isinstance(value, int) and not -INT_LIMIT <= value < INT_LIMIT:
        raise TypeError(f"{where} is out of range")
    size = len(value) if isinstance(value, str | list) else 0
    if size > (MAX_TEXT if isinstance(value, str) else MAX_ITEMS):
        raise TypeError(f"{where} is too long ({size})")
    if players is not None and size != players:
        raise TypeError(f"{where}: {size} {where} for {players} players")
    return value


def _per_seat(value: Any, kind: type, where: str, players: int) -> None:
    """A list with one ``kind`` per seat."""
    for seat, item in enumerate(_typed(value, list, where, players)):
        _typed(item, kind, f"{where}[{seat}]")


def _check_shape(data: dict[str, Any], players: int) -> None:
    """Every field of a save has the type and length a resumed game needs (the replay checks the rest)."""
    _typed(data["seed"], int, "seed")
    _per_seat(data["names"], str, "names", players)
    _per_seat(data["automated"], bool, "automated", players)
    for index, result in enumerate(_typed(data["results"], list, "results")):
        where = f"results[{index}]"
        _typed(result, dict, where)
        for key in ("number", "dealer"):
            _typed(result[key], int, f"{where}.{key}")
        if result["winner"] is not None and _typed(result["winner"], int, f"{where}.winner") not in range(players):
            raise TypeError(f"{where}.winner is not one of the {players} seats")
        for key, kind in (("scores", int), ("busts", int), ("automated", bool)):
            _per_seat(result[key], kind, f"{where}.{key}", players)
        _typed(result["deal"], str, f"{where}.deal")
        for move, text in enumerate(_typed(result.get("moves", []), list, f"{where}.moves")):
            _typed(text, str, f"{where}.moves[{move}]")
    hand = _typed(data["hand"], dict, "hand")
    _typed(hand["deal"], str, "hand.deal")
    for key in ("number", "dealer"):
        _typed(hand[key], int, f"hand.{key}")
    _typed(hand["moves"], list, "hand.moves")


def read_save(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The parsed save at ``path``, checked for format and version (for a *Continue* prompt)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SaveError(path, "the save file is corrupt (not text); it has been kept as it is") from None
    return _parse(text, path)


def load_game(path: str | os.PathLike[str], rules: Rules | None = None) -> Game:
    """Resume a saved game exactly; refuses a save made under rules other than ``rules``."""
    path = Path(path)
    data = read_save(path)
    try:
        saved = Rules.from_dict(data.get("rules"), where="rules")
        if rules is not None and saved != rules:
            changed = [k for k, v in rules.to_dict().items() if saved.to_dict()[k] != v]
            raise SaveError(path, f"saved under different rules ({', '.join(changed)}); not reopened")
        _check_shape(data, saved.players)
        first = data.get("first")  # the deal code of the first hand, for a game dealt from one
        if first is not None:
            _typed(first, str, "first")
        game = Game(saved, int(data["seed"]), list(data["names"]), first)
        if "uid" in data:  # saves from before games carried an id become a game of their own
            game.uid = _typed(data["uid"], str, "uid")
            if not game.uid.isalnum() or len(game.uid) > 64:
                raise SaveError(path, f"uid {game.uid[:64]!r} is not a game id; the file has been kept")
        game.automated = [bool(a) for a in data["automated"]]
        game.results = [HandResult.from_dict(r) for r in data["results"]]
        hand = data["hand"]
        game.dealer = int(hand["dealer"])
        if not 0 <= game.dealer < saved.players:
            raise SaveError(path, f"hand.dealer {game.dealer} is not one of the {saved.players} seats")
        # a save made just after a hand ended holds that hand, already in ``results``
        number = int(hand["number"])
        if number not in (len(game.results), len(game.results) + 1) or number < 1:
            raise SaveError(path, f"hand.number {number} does not follow the {len(game.results)} finished hands")
        game.state = game.deal_hand(number)
        if game.state.deal_code != hand["deal"]:
            raise SaveError(path, f"the current hand's deal {hand['deal']} does not match the seed")
        for index, text in enumerate(hand["moves"]):
            try:
                game.play(Move.parse(str(text)))
            except (MoveSyntaxError, IllegalMoveError) as exc:
                raise SaveError(path, f"hand.moves[{index}]: {exc}; the file has been kept") from None
        if number == len(game.results) and not game.state.over:
            raise SaveError(path, f"hand {number} is recorded as finished but its moves do not finish it")
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SaveError):
            raise
        detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        kind = "rules" if isinstance(exc, RulesError | PositionError) else "file"
        raise SaveError(path, f"the save {kind} is corrupt ({detail}); it has been kept as it is") from None
    return game


def save_game(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write the save atomically; an unreadable file already there is kept beside it, not overwritten."""
    path = Path(path)
    try:
        read_save(path)
    except SaveError:
        keep_aside(path)
    except FileNotFoundError:
        pass  # nothing there yet, or another writer's file is on its way
    return write_atomic(path, json.dumps(save_data(game), indent=1))


def keep_aside(path: str | os.PathLike[str], check: Callable[[Path], object] = read_save) -> Path | None:
    """Move a save that cannot be resumed to ``<stem>.corrupt-<UTC stamp>.json`` beside it and return where it went;
    ``None`` when there was nothing to keep: another writer moved it, or replaced it with a save that passes
    ``check`` (:func:`read_save`, or :func:`load_game` for one that must resume)."""
    path = Path(path)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    keep = path.with_name(f"{path.stem}.corrupt-{stamp}{path.suffix}")
    number = 1
    while keep.exists():  # never replace an earlier kept file
        number += 1
        keep = path.with_name(f"{path.stem}.corrupt-{stamp}-{number}{path.suffix}")
    try:
        path.rename(keep)
    except FileNotFoundError:
        return None
    try:  # a writer may have replaced the bad file with a good save just before the rename: that one goes back
        check(keep)
    except SaveError:
        return keep
    except FileNotFoundError:
        return None
    with suppress(OSError):  # a newer save is already in place (and this writer replaces it in any case)
        os.link(keep, path)
    keep.unlink()
    return None


# -- history ------------------------------------------------------------------------------------------

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


def disk_reason(exc: OSError) -> str:
    """What went wrong with a file, in a learner's words and without its path (``str(exc)`` names the file)."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    return (exc.strerror or "the disk could not be used").lower()


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
        """One summary per finished game, newest first; none while the file cannot be read (see :attr:`problem`)."""
        try:
            rows = self._read(
                lambda db: db.execute(
                    "SELECT id, finished, rules, seed, names, totals, winners FROM games ORDER BY id DESC"
                ).fetchall()
            )
        except HistoryError:
            return []
        return [
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
