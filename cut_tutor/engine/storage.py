"""Saving a game between turns, resuming it exactly, and the SQLite history of finished games.

A save holds the rules, the game seed, the finished hands and the current hand's moves up to the start
of the turn in play; loading replays them, so a resumed game is the game that was saved.
A file that cannot be read is reported and kept: :func:`save_game` moves it aside, never over it.
"""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from .codes import PositionError, record
from .game import Game, HandResult
from .moves import Move, MoveSyntaxError
from .rules import Rules, RulesError
from .state import IllegalMoveError

SAVE_FORMAT, SAVE_VERSION = "cut_tutor.save", 1


class SaveError(ValueError):
    """A save file that cannot be resumed: corrupt, from a newer version, or from other rules."""


def save_data(game: Game) -> dict[str, Any]:
    """The JSON-ready save of a game, as of the start of the current turn (or the end of a finished hand)."""
    state = game.state
    # A finished hand is already in ``results``: keep its last turn too, or the resumed hand would replay it.
    upto = len(state.moves) if state.over else state.turn_start
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "rules": game.rules.to_dict(),
        "seed": game.seed,
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


def save_game(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write the save atomically; an unreadable file already there is kept beside it, not overwritten."""
    path = Path(path)
    if path.exists():
        try:
            read_save(path)
        except SaveError:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            keep = path.with_name(f"{path.stem}.corrupt-{stamp}{path.suffix}")
            number = 1
            while keep.exists():  # never replace an earlier kept file
                number += 1
                keep = path.with_name(f"{path.stem}.corrupt-{stamp}-{number}{path.suffix}")
            path.rename(keep)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(save_data(game), indent=1), encoding="utf-8")
    tmp.replace(path)
    return path


def _parse(text: str, path: Path) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}: the save file is corrupt ({exc}); it has been kept as it is") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path}: not a cut_tutor save file; it has been kept as it is")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(f"{path}: the save file has no valid version ({version!r}); it has been kept as it is")
    if version > SAVE_VERSION:
        raise SaveError(f"{path}: saved by a newer version (save format {version}); this version reads {SAVE_VERSION}")
    return data


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
        game = Game(saved, int(data["seed"]), list(data["names"]))
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


# -- history ------------------------------------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    names TEXT NOT NULL,
    totals TEXT NOT NULL,
    winners TEXT NOT NULL
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


class History:
    """Finished games in an SQLite file: hand-by-hand scores, busts and automated seats."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path)) as db:
            db.execute("PRAGMA foreign_keys = ON")
            with db:
                yield db

    def add(self, game: Game) -> int:
        """Store a finished game with every hand's record; returns its id."""
        if not game.over:
            raise ValueError("only finished games are recorded")
        with self._connect() as db:
            cursor = db.execute(
                "INSERT INTO games (finished, rules, seed, names, totals, winners) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    time.strftime("%Y-%m-%d %H:%M:%S"),
                    game.rules.to_json(),
                    game.seed,
                    json.dumps(game.names),
                    json.dumps(game.totals),
                    json.dumps(game.winners),
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

    def record(self, game_id: int, hand: int) -> dict[str, Any]:
        """The replayable record of one stored hand (see :func:`~cut_tutor.engine.codes.replay`)."""
        with self._connect() as db:
            row = db.execute(
                "SELECT games.rules, records.deal, records.moves FROM records JOIN games ON games.id = records.game_id"
                " WHERE records.game_id = ? AND records.hand = ?",
                (game_id, hand),
            ).fetchone()
        if row is None:
            raise ValueError(f"history: game {game_id} has no stored hand {hand}")
        return record(json.loads(row[0]), row[1], json.loads(row[2]))

    def games(self) -> list[dict[str, Any]]:
        """One summary per finished game, newest first."""
        with self._connect() as db:
            rows = db.execute("SELECT id, finished, rules, seed, names, totals, winners FROM games ORDER BY id DESC")
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
        """The hand-by-hand rows of one game."""
        with self._connect() as db:
            cursor = db.execute(
                "SELECT hand, seat, points, busts, went_out, automated, deal FROM hands WHERE game_id = ?"
                " ORDER BY hand, seat",
                (game_id,),
            )
            keys = [d[0] for d in cursor.description]
            return [dict(zip(keys, row, strict=True)) for row in cursor]

    def delete(self, game_ids: list[int]) -> None:
        """Delete games and their hands."""
        with self._connect() as db:
            db.executemany("DELETE FROM games WHERE id = ?", [(i,) for i in game_ids])

    def export_csv(self, path: str | os.PathLike[str], game_ids: list[int] | None = None) -> Path:
        """Every hand row (of the chosen games) as CSV, with player names."""
        path = Path(path)
        games = {g["id"]: g for g in self.games() if game_ids is None or g["id"] in game_ids}
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["game", "finished", "hand", "seat", "name", "points", "busts", "went_out", "automated"])
            for game_id in sorted(games):
                info = games[game_id]
                for row in self.hands(game_id):
                    writer.writerow(
                        [game_id, info["finished"], row["hand"], row["seat"], info["names"][row["seat"]],
                         row["points"], row["busts"], row["went_out"], row["automated"]]
                    )  # fmt: skip
        return path
