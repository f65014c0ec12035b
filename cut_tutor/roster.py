"""A class's roster: the learners a teacher adds to a tutor home, each with a password kept only as a salted hash.

The roster is ``class.json`` in the tutor home (written whole, then moved into place, readable by its owner only).
A learner's password is made by :func:`add` or :func:`reset` and shown once; the file keeps its scrypt hash with
its own salt, so reading the file gives no one a way in. Each reset also moves the learner's *generation* on, which
ends every sign-in made with an older password. A learner's games stay in ``learners/<name>`` below the home; the
teacher's table (``cut-tutor class``) names learners, and a name alone opens nothing.

>>> import tempfile
>>> home = tempfile.mkdtemp()
>>> password = add(home, "ann")
>>> verify(home, "ann", password), verify(home, "ann", "guess"), verify(home, "ben", password)
(1, None, None)
>>> names(home)
['ann']
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

#: The roster's file in a tutor home; its presence makes the home a class whose learners sign in.
ROSTER_FILE = "class.json"
#: A learner's name: their folder's name under ``learners/`` and what they type to sign in.
LEARNER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
#: scrypt's cost (n, r, p): about 16 MiB and a few tens of milliseconds per check.
COST = (2**14, 8, 1)
#: The letters a password is made of: no 0/O or 1/l/I to misread when it is handed out on paper.
LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
#: Three groups of four letters: 31**12, about 59 bits.
GROUPS, GROUP = 3, 4


class RosterError(ValueError):
    """A roster change that cannot be made (a bad or unknown name, a learner already there, a damaged file)."""


def _hash(password: str, salt: bytes, cost: tuple[int, int, int] = COST) -> bytes:
    n, r, p = cost
    return hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, maxmem=64 * 2**20, dklen=32)


def _read(home: str | os.PathLike[str]) -> dict[str, Any]:
    path = Path(home) / ROSTER_FILE
    if not path.exists():
        return {"learners": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not isinstance(data.get("learners"), dict):
            raise ValueError("no learners")
    except (ValueError, UnicodeDecodeError) as exc:
        raise RosterError(f"{path} cannot be read ({exc}); it is left as it is") from exc
    return data


def _write(home: str | os.PathLike[str], data: dict[str, Any]) -> None:
    """The whole roster, written beside its place then moved over it, readable by its owner only."""
    folder = Path(home)
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".class-", suffix=".json", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.chmod(temporary, 0o600)
        os.replace(temporary, folder / ROSTER_FILE)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _password() -> str:
    return "-".join("".join(secrets.choice(LETTERS) for _ in range(GROUP)) for _ in range(GROUPS))


def _entry(password: str, generation: int) -> dict[str, Any]:
    salt = secrets.token_bytes(16)
    return {"salt": salt.hex(), "hash": _hash(password, salt).hex(), "cost": list(COST), "generation": generation}


def names(home: str | os.PathLike[str]) -> list[str]:
    """The learners of the class in ``home``, by name (empty when the home holds no class)."""
    return sorted(_read(home)["learners"])


def add(home: str | os.PathLike[str], name: str) -> str:
    """Add a learner to the class in ``home`` (making the roster if it is the first); their new password, which
    is shown now and never kept."""
    if not isinstance(name, str) or not LEARNER.fullmatch(name):
        raise RosterError(f"{name!r}: a learner is named by 1 to 64 letters, digits, '-' or '_'")
    data = _read(home)
    if name in data["learners"]:
        raise RosterError(f"{name} is already in the class (reset gives them a new password)")
    password = _password()
    data["learners"][name] = _entry(password, 1)
    _write(home, data)
    return password


def reset(home: str | os.PathLike[str], name: str) -> str:
    """A new password for a learner of the class; their old password and every sign-in made with it end."""
    data = _read(home)
    if name not in data["learners"]:
        raise RosterError(f"{name} is not in the class")
    password = _password()
    data["learners"][name] = _entry(password, int(data["learners"][name]["generation"]) + 1)
    _write(home, data)
    return password


def remove(home: str | os.PathLike[str], name: str) -> None:
    """Take a learner off the class: they can no longer sign in (their games stay in their folder)."""
    data = _read(home)
    if data["learners"].pop(name, None) is None:
        raise RosterError(f"{name} is not in the class")
    _write(home, data)


@cache
def _decoy() -> dict[str, Any]:
    """Checked against when a name is unknown, so a wrong name costs as long as a wrong password."""
    return _entry(secrets.token_hex(8), 0)


def verify(home: str | os.PathLike[str], name: str, password: str) -> int | None:
    """The learner's generation if ``password`` is theirs; ``None`` for a wrong password or an unknown name."""
    entry = _read(home)["learners"].get(name) if isinstance(name, str) else None
    known = entry is not None
    entry = entry if known else _decoy()
    cost = tuple(int(x) for x in entry["cost"])
    given = _hash(
        password if isinstance(password, str) else "", bytes.fromhex(entry["salt"]), (cost[0], cost[1], cost[2])
    )
    if hmac.compare_digest(given, bytes.fromhex(entry["hash"])) and known:
        return int(entry["generation"])
    return None


def generation(home: str | os.PathLike[str], name: str) -> int | None:
    """The learner's current generation (a sign-in made under another has ended); ``None`` if not in the class."""
    entry = _read(home)["learners"].get(name)
    return None if entry is None else int(entry["generation"])
