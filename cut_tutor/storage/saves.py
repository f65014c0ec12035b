"""A learner's saved games: one save per game, named by the game's id, each claimed by one tab at a time.

Two tabs of one learner can play two games at once without either replacing the other's save. A tab that plays a
game holds its *claim*: a small file beside the save naming the holder (the kernel and the tab) and a heartbeat.
A claim whose heartbeat is older than :data:`CLAIM_STALE` seconds is free (its kernel has gone); a fresh one is
another tab's, which a tab takes over only when the learner asks. Finishing a game removes its own save and
claim, never another's. Every look at a claim and what is done about it (renew, take over, remove) happens under
a file lock in the learner's folder, so two kernels cannot interleave: a heartbeat never writes back a claim another
tab has just taken. The single ``save.json`` of earlier versions is moved into place and its file kept. Listing the
saves sweeps the temporary files of writes that were killed part-way.
"""

from __future__ import annotations

import errno
import json
import logging
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from ..engine.game import Game
from .files import (
    SaveError,
    Stamp,
    file_stamp,
    keep_aside,
    load_game,
    read_save,
    save_game,
    sweep_temps,
    write_atomic,
)

#: Where the path of a save set aside goes: a learner is told only its name.
LOG = logging.getLogger(__name__)
#: Seconds after its last heartbeat that a claim is stale, and between the heartbeats of a claim held.
CLAIM_STALE, BEAT = 90.0, 20.0
#: The single save of earlier versions, in the learner's home.
LEGACY = "save.json"
#: The lock every tab of a learner takes to read and change the claims in their home; and how long it waits.
CLAIMS_LOCK, LOCK_WAIT = ".claims.lock", 10.0


def save_path(home: Path, uid: str) -> Path:
    """Where a learner whose folder is ``home`` keeps the game ``uid``."""
    return home / f"save-{uid}.json"


def read_claim(path: Path) -> dict[str, Any] | None:
    """The claim in ``path`` (``holder``, ``kernel``, ``beat``), fresh or stale; ``None`` when there is none. It only
    reads, so a teacher's view can ask who plays now without touching a learner's claims."""
    try:
        claim = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(claim, dict) and isinstance(claim["holder"], str) and float(claim["beat"]) >= 0:
            return claim
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None  # none, or not a claim: nobody holds it


def fresh(claim: dict[str, Any]) -> bool:
    """Whether a claim's heartbeat is recent enough that a live tab holds it (:data:`CLAIM_STALE`)."""
    return time.time() - float(claim["beat"]) < CLAIM_STALE


def playing(home: Path) -> bool:
    """Whether a live tab plays one of the learner's games now: a fresh claim in their folder ``home`` (read only)."""
    return any((claim := read_claim(path)) is not None and fresh(claim) for path in home.glob("save-*.claim"))


class ClaimLost(ValueError):
    """The game this tab played was taken over by another tab: it no longer saves here."""


class ClaimsBusy(OSError):
    """Another tab of the learner's held the claims' lock too long: nothing was changed, try again."""


@dataclass(frozen=True)
class Waiting:
    """An unfinished game offered for *Continue*: what it is, when it was saved, and who holds it now."""

    uid: str
    path: Path
    game: Game
    saved_at: str
    #: The kernel of the tab playing it now, or ``""`` when no live tab holds it.
    elsewhere: str

    @property
    def label(self) -> str:
        """The *Continue* button's text, such as ``Continue — 4 players, round 3``."""
        return f"Continue — {self.game.rules.players} players, round {self.game.hand_number}"

    @property
    def about(self) -> str:
        """The game, who plays it, the hand and the time it was saved (UTC), in one line."""
        game = self.game
        when = self.saved_at.replace("T", " ")[:16]
        return f"{game.rules.game}: {', '.join(game.names)} · hand {game.hand_number} · saved {when} UTC"


class Saves:
    """The saved games in ``<home>/save-<id>.json``, as seen by one tab (``holder``, which names its ``kernel``)."""

    def __init__(self, home: Path, holder: str, kernel: str) -> None:
        self.home = home
        self.holder, self.kernel = holder, kernel
        #: The game whose claim this tab holds and keeps beating, if any.
        self.held: str | None = None
        #: The claim on :attr:`held` as this tab last wrote or read it under the lock: its file's stamp and beat.
        self._seen: tuple[str, Stamp | None, float] | None = None
        #: The stamp of each save this tab wrote last, by game.
        self._saved: dict[str, Stamp | None] = {}
        self._lock = threading.RLock()
        self._file_lock = FileLock(str(home / CLAIMS_LOCK), timeout=LOCK_WAIT)
        _beat_in_background(self)

    @contextmanager
    def _claims(self) -> Iterator[None]:
        """Hold the claims still: this tab's threads, and every other kernel of the learner's, wait meanwhile
        (:class:`ClaimsBusy` after :data:`LOCK_WAIT` seconds)."""
        with self._lock:
            self.home.mkdir(parents=True, exist_ok=True)
            try:
                self._file_lock.acquire()
            except Timeout as exc:
                raise ClaimsBusy(errno.EBUSY, f"another tab held {CLAIMS_LOCK} for {LOCK_WAIT:g} s") from exc
            try:
                yield
            finally:
                self._file_lock.release()

    def path(self, uid: str) -> Path:
        """Where the game ``uid`` is saved."""
        return save_path(self.home, uid)

    def _claim_path(self, uid: str) -> Path:
        return self.home / f"save-{uid}.claim"

    # -- claims -------------------------------------------------------------------------------------------

    def _read_claim(self, uid: str) -> dict[str, Any] | None:
        """The claim on ``uid`` (``holder``, ``kernel``, ``beat``), fresh or stale; ``None`` when there is none."""
        return read_claim(self._claim_path(uid))

    def holder_of(self, uid: str) -> dict[str, Any] | None:
        """The fresh claim on ``uid``, or ``None`` when it is free (none, or its heartbeat is stale)."""
        claim = self._read_claim(uid)
        return claim if claim is not None and fresh(claim) else None

    def elsewhere(self, uid: str) -> str:
        """The kernel of another live tab playing ``uid``, else ``""``."""
        claim = self.holder_of(uid)
        return str(claim.get("kernel", "another tab")) if claim and claim["holder"] != self.holder else ""

    def claim(self, uid: str) -> None:
        """Hold ``uid`` from now on (taking it over from any other tab) and release the game held before."""
        with self._claims():
            if self.held not in (None, uid):
                self._release()
            self._write_claim(uid)
            self.held = uid

    def check(self, uid: str) -> None:
        """Hold ``uid`` if this tab has not yet (a new game); if it has, a :class:`ClaimLost` when its claim is
        gone or another tab's: another tab took the game over since, so this tab's copy may be behind its save.
        A claim file that still bears the stamp this tab saw under the lock, with a recent beat, is not read
        again: every other tab replaces the file to change it (a new stamp)."""
        seen = self._seen
        if (
            self.held == uid
            and seen is not None
            and seen[0] == uid
            and time.time() - seen[2] <= BEAT
            and file_stamp(self._claim_path(uid)) == seen[1]
        ):
            return
        with self._claims():
            if self.held != uid:
                self.claim(uid)
                return
            claim = self._read_claim(uid)
            if claim is None or claim["holder"] != self.holder:
                self.held = self._seen = None
                raise ClaimLost(
                    "another tab took this game over (it plays it now, or has finished it), so it is not played"
                    " here; Continue it here to take it back if it is still waiting"
                )
            if time.time() - float(claim["beat"]) > BEAT:
                self.claim(uid)  # ours, but the heartbeat has not run lately
            else:
                self._seen = (uid, file_stamp(self._claim_path(uid)), float(claim["beat"]))

    def release(self) -> None:
        """Give up the claim held (the tab left the game); the save stays for *Continue*."""
        if self.held is None:
            return
        with suppress(OSError), self._claims():  # a claim left behind goes stale by itself
            self._release()

    def _release(self) -> None:
        if self.held is not None and self._ours(self.held):
            self._claim_path(self.held).unlink(missing_ok=True)
        self.held = self._seen = None

    def _ours(self, uid: str) -> bool:
        claim = self._read_claim(uid)
        return claim is not None and claim["holder"] == self.holder

    def _write_claim(self, uid: str) -> None:
        beat = time.time()
        claim = {"holder": self.holder, "kernel": self.kernel, "beat": beat}
        path = write_atomic(self._claim_path(uid), json.dumps(claim))
        self._seen = (uid, file_stamp(path), beat)

    def beat(self) -> None:
        """Renew the claim held, unless another tab has taken it since."""
        if self.held is None:
            return
        with suppress(OSError), self._claims():  # the next save says what is wrong with the folder
            if self.held is not None and self._ours(self.held):
                self._write_claim(self.held)

    # -- saves --------------------------------------------------------------------------------------------

    def save(self, game: Game, sync: bool = True) -> Path:
        """Save ``game`` in its own file, checking first that this tab still holds it (:class:`ClaimLost`); without
        ``sync``, a move's save (:func:`~.files.save_game`)."""
        self.check(game.uid)
        path = save_game(game, self.path(game.uid), sync, ours=self._saved.get(game.uid))
        self._saved = {game.uid: file_stamp(path)}  # only the game this tab plays now
        return path

    def finish(self, game: Game) -> None:
        """A finished game: its own save and claim go, every other game's stay, and so does this game's if
        another tab has taken it over meanwhile (it plays on there)."""
        with self._claims():
            claim = self._read_claim(game.uid)
            if claim is None or claim["holder"] == self.holder:
                self.path(game.uid).unlink(missing_ok=True)
                self._claim_path(game.uid).unlink(missing_ok=True)
            if self.held == game.uid:
                self.held = self._seen = None

    def waiting(self) -> tuple[list[Waiting], list[str]]:
        """The unfinished games that resume, newest first, and a line for each save that does not (moved aside,
        kept, and named); an old single ``save.json`` is migrated first."""
        problems = self._migrate()
        if self.home.is_dir():
            sweep_temps(self.home)  # what a write killed part-way (a stopped kernel) left behind
        found: list[tuple[int, Waiting]] = []
        paths = sorted(self.home.glob("save-*.json")) if self.home.is_dir() else []
        for path in paths:
            if not path.stem.removeprefix("save-").isalnum():
                continue  # a kept file (``save-<id>.corrupt-<stamp>.json``)
            try:
                game = load_game(path)
                saved_at = str(read_save(path).get("saved_at", ""))
                found.append(
                    (path.stat().st_mtime_ns, Waiting(game.uid, path, game, saved_at, self.elsewhere(game.uid)))
                )
            except SaveError as exc:
                problems.append(set_aside(exc))
            except OSError:
                continue  # finished and removed by another tab meanwhile
        return [w for _, w in sorted(found, key=lambda item: -item[0])], problems

    def _migrate(self) -> list[str]:
        """Move the single save of earlier versions into its game's own file, keeping the old file beside it."""
        legacy = self.home / LEGACY
        if not legacy.exists():
            return []
        try:
            game = load_game(legacy)
        except SaveError as exc:
            return [set_aside(exc)]
        except OSError:
            return []  # another tab moved it a moment ago
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        kept = legacy.with_name(f"save.migrated-{stamp}.json")
        try:
            legacy.rename(kept)  # one tab wins the move; the others find nothing to migrate
        except FileNotFoundError:
            return []
        if not self.path(game.uid).exists():
            save_game(game, self.path(game.uid))
        return []


def set_aside(exc: SaveError) -> str:
    """Move the save that does not resume aside, and say why and the name it is kept under (its folder, a path on
    the server, goes to the log only)."""
    kept = keep_aside(exc.path, load_game)
    LOG.warning("%s; kept as %s", exc, kept)
    where = f" It is kept as {kept.name}." if kept else ""
    return f"{exc.reason}.{where}"


#: Every tab's saves in this process: one thread beats the claims they hold.
_BEATING: weakref.WeakSet[Saves] = weakref.WeakSet()
_BEATER: list[threading.Thread] = []


def _beat_in_background(saves: Saves) -> None:
    """Keep ``saves``' claim fresh while this process lives (one daemon thread for all tabs, started once)."""
    _BEATING.add(saves)
    if not _BEATER:
        _BEATER.append(threading.Thread(target=_beat_forever, name="cut-tutor-claims", daemon=True))
        _BEATER[0].start()


def _beat_forever() -> None:
    while True:
        time.sleep(BEAT)
        for saves in list(_BEATING):
            saves.beat()
