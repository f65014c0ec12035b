"""Saving a game between turns, resuming it exactly, and the SQLite history of finished games.

A save holds the rules, the game seed, the finished hands and the current hand's moves up to the start
of the turn in play; loading replays them, so a resumed game is the game that was saved.
A file that cannot be read is reported and kept: :func:`save_game` moves it aside, never over it.
Every write goes to a temporary file of its own beside the target, is flushed to disk and then renamed over
it, so a reader sees the old file or the new one, never part of one. Stamps are UTC ISO 8601 with an offset.
"""

from __future__ import annotations

import csv
import io
import json
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
from .game import Game, HandResult
from .moves import Move, MoveSyntaxError
from .reading import JSONLimitError, load_json
from .rules import Rules, RulesError
from .state import IllegalMoveError

SAVE_FORMAT, SAVE_VERSION = "cut_tutor.save", 1
T = TypeVar("T")


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


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file of this writer's own, flushed and synced, then renamed
    over it: concurrent writers never share a temporary file and a reader never sees a partial file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


class SaveError(ValueError):
    """A save file that cannot be resumed: corrupt, from a newer version, or from other rules."""


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
        raise SaveError(f"{path}: the save file is corrupt (larger than {MAX_BYTES} bytes); it has been kept as it is")
    try:
        data = load_json(text, "save")
    except JSONLimitError as exc:
        raise SaveError(f"{path}: the save file is corrupt ({exc}); it has been kept as it is") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path}: not a cut_tutor save file; it has been kept as it is")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(f"{path}: the save file has no valid version ({version!r}); it has been kept as it is")
    if version > SAVE_VERSION:
        raise SaveError(f"{path}: saved by a newer version (save format {version}); this version reads {SAVE_VERSION}")
    return data


def _typed(value: Any, kind: type, where: str, players: int | None = None) -> Any:
    """``value`` if it is a ``kind`` (a bool is no int), one per seat when ``players`` is given, else a ``TypeError``
    naming the field."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{where} should be {kind.__name__}, not {type(value).__name__}")
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
        raise SaveError(f"{path}: the save file is corrupt (not text); it has been kept as it is") from None
    return _parse(text, path)


def load_game(path: str | os.PathLike[str], rules: Rules | None = None) -> Game:
    """Resume a saved game exactly; refuses a save made under rules other than ``rules``."""
    path = Path(path)
    data = read_save(path)
    try:
        saved = Rules.from_dict(data.get("rules"), where="rules")
        if rules is not None and saved != rules:
            changed = [k for k, v in rules.to_dict().items() if saved.to_dict()[k] != v]
            raise SaveError(f"{path}: saved under different rules ({', '.join(changed)}); not reopened")
        _check_shape(data, saved.players)
        first = data.get("first")  # the deal code of the first hand, for a game dealt from one
        if first is not None:
            _typed(first, str, "first")
        game = Game(saved, int(data["seed"]), list(data["names"]), first)
        if "uid" in data:  # saves from before games carried an id become a game of their own
            game.uid = _typed(data["uid"], str, "uid")
            if not game.uid.isalnum() or len(game.uid) > 64:
                raise SaveError(f"{path}: uid {game.uid[:64]!r} is not a game id; the file has been kept")
        game.automated = [bool(a) for a in data["automated"]]
        game.results = [HandResult.from_dict(r) for r in data["results"]]
        hand = data["hand"]
        game.dealer = int(hand["dealer"])
        if not 0 <= game.dealer < saved.players:
            raise SaveError(f"{path}: hand.dealer {game.dealer} is not one of the {saved.players} seats")
        # a save made just after a hand ended holds that hand, already in ``results``
        number = int(hand["number"])
        if number not in (len(game.results), len(game.results) + 1) or number < 1:
            raise SaveError(f"{path}: hand.number {number} does not follow the {len(game.results)} finished hands")
        game.state = game.deal_hand(number)
        if game.state.deal_code != hand["deal"]:
            raise SaveError(f"{path}: the current hand's deal {hand['deal']} does not match the seed")
        for index, text in enumerate(hand["moves"]):
            try:
                game.play(Move.parse(str(text)))
            except (MoveSyntaxError, IllegalMoveError) as exc:
                raise SaveError(f"{path}: hand.moves[{index}]: {exc}; the file has been kept") from None
        if number == len(game.results) and not game.state.over:
            raise SaveError(f"{path}: hand {number} is recorded as finished but its moves do not finish it")
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SaveError):
            raise
        detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        kind = "rules" if isinstance(exc, RulesError | PositionError) else "file"
        raise SaveError(f"{path}: the save {kind} is corrupt ({detail}); it has been kept as it is") from None
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

    A game that cannot be written now (the file locked by another program, or unwritable) waits in
    :attr:`pending` and is written before the next one; :attr:`problem` says in plain words what is wrong.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.pending: list[Game] = []
        self.problem = open_store(self.path, self._migrate, "score history", self._explain)

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        """The current schema, and a game id column in a history from before games carried one."""
        db.executescript(_SCHEMA)
        if "uid" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}:
            db.execute("ALTER TABLE games ADD COLUMN uid TEXT")
        db.execute("CREATE UNIQUE INDEX IF NOT EXISTS games_uid ON games(uid)")

    def _explain(self, exc: Exception) -> str:
        return (
            f"The score history {self.path} cannot be used ({exc}): finished games are kept until it can be written."
            " Close any other program using it, or check that its folder can be written."
        )

    def _retry(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return retry(self.path, work)

    def add(self, game: Game) -> int | None:
        """Store a finished game with every hand's record; its id, or ``None`` if it waits in :attr:`pending`."""
        if not game.over:
            raise ValueError("only finished games are recorded")
        self.pending.append(game)
        return self.flush()

    def flush(self) -> int | None:
        """Write the games waiting in :attr:`pending`, oldest first; the id of the last one written."""
        game_id = None
        while self.pending:
            try:
                game_id = self._retry(lambda db: self._insert(db, self.pending[0]))
            except (sqlite3.Error, OSError) as exc:
                self.problem = self._explain(exc)
                return None
            self.pending.pop(0)
        self.problem = ""
        return game_id

    @staticmethod
    def _insert(db: sqlite3.Connection, game: Game) -> int:
        known = db.execute("SELECT id FROM games WHERE uid = ?", (game.uid,)).fetchone()
        if known is not None:  # the same game finished in another tab too: recorded once
            return int(known[0])
        cursor = db.execute(
            "INSERT INTO games (finished, rules, seed, names, totals, winners, uid) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                now_stamp(),
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


#: What a spreadsheet reads as the start of a formula (and the controls that can hide one).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that could start a formula gets a leading ``'``.

    >>> csv_cell("=1+2"), csv_cell("Ann")
    ("'=1+2", 'Ann')
    """
    return "'" + text if text.startswith(_FORMULA_START) else text
