"""Saving a game between turns and resuming it exactly; every file a learner keeps is written whole or not at all.

A save holds the rules, the game seed, the finished hands and the current hand's moves up to the start
of the turn in play; loading replays them, so a resumed game is the game that was saved.
A file that cannot be read is reported and kept: :func:`save_game` moves it aside, never over it.
Every write goes to a temporary file of its own beside the target and is then renamed over it, so a reader sees the
old file or the new one, never part of one. Every file is synced to the disk before the rename, except the save a
game in progress rewrites after each move: a closed tab or a stopped kernel loses nothing without it, and 30 kernels
syncing a save a move each queue on one disk (``benchmarks/results/classroom.md``). Stamps are UTC ISO 8601 with an
offset.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..engine.codes import PositionError
from ..engine.game import INT_LIMIT, Game, HandResult
from ..engine.moves import Move, MoveSyntaxError
from ..engine.reading import JSONLimitError, load_json
from ..engine.rules import Rules, RulesError
from ..engine.state import IllegalMoveError

SAVE_FORMAT, SAVE_VERSION = "cut_tutor.save", 1
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


#: One version of a file, told from another without reading it: its inode, change time (ns) and size.
Stamp = tuple[int, int, int]


def file_stamp(path: str | os.PathLike[str]) -> Stamp | None:
    """The file's :data:`Stamp`, ``None`` when there is none. A write through :func:`write_atomic` gives it a new
    inode (the old one stays in use until the rename), so a stamp seen again is the file as it was."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_ino, stat.st_mtime_ns, stat.st_size


def write_atomic(path: str | os.PathLike[str], text: str, sync: bool = True) -> Path:
    """Write ``text`` to ``path`` through a temporary file of this writer's own, flushed (and with ``sync`` synced
    to the disk), then renamed over it: concurrent writers never share a temporary file and a reader never sees a
    partial file. The writer holds a lock on its temporary file while it writes, so :func:`sweep_temps` leaves it
    alone."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            _lock(out.fileno())  # a new file of this writer's own: nobody else holds it
            out.write(text)
            out.flush()
            if sync:
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


def _saved_game(path: Path, data: dict[str, Any], saved: Rules) -> Game:
    """The game a save's header describes (rules, seed, names, id, finished hands), before its current hand."""
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
    return game


def _resume_hand(path: Path, game: Game, hand: dict[str, Any]) -> None:
    """Deal the save's current hand again and replay its moves, checking each against the seed and the rules."""
    game.dealer = int(hand["dealer"])
    if not 0 <= game.dealer < game.rules.players:
        raise SaveError(path, f"hand.dealer {game.dealer} is not one of the {game.rules.players} seats")
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


def load_game(path: str | os.PathLike[str], rules: Rules | None = None) -> Game:
    """Resume a saved game exactly; refuses a save made under rules other than ``rules``."""
    path = Path(path)
    data = read_save(path)
    try:
        saved = Rules.from_dict(data.get("rules"), where="rules")
        if rules is not None and saved != rules:
            changed = [k for k, v in rules.to_dict().items() if saved.to_dict()[k] != v]
            raise SaveError(path, f"saved under different rules ({', '.join(changed)}); not reopened")
        game = _saved_game(path, data, saved)
        _resume_hand(path, game, data["hand"])
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SaveError):
            raise
        detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        kind = "rules" if isinstance(exc, RulesError | PositionError) else "file"
        raise SaveError(path, f"the save {kind} is corrupt ({detail}); it has been kept as it is") from None
    return game


def save_game(game: Game, path: str | os.PathLike[str], sync: bool = True, ours: Stamp | None = None) -> Path:
    """Write the save atomically; an unreadable file already there is kept beside it, not overwritten (a file that
    still bears ``ours``, the stamp of the save this writer made last, is not read again). Without ``sync`` (a
    move's save) the system writes it to the disk in its own time: a power cut may lose the last seconds of play, a
    closed tab or a stopped kernel nothing."""
    path = Path(path)
    try:
        if ours is None or file_stamp(path) != ours:
            read_save(path)
    except SaveError:
        keep_aside(path)
    except FileNotFoundError:
        pass  # nothing there yet, or another writer's file is on its way
    return write_atomic(path, json.dumps(save_data(game), indent=1), sync)


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


def disk_reason(exc: OSError) -> str:
    """What went wrong with a file, in a learner's words and without its path (``str(exc)`` names the file)."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    return (exc.strerror or "the disk could not be used").lower()
