"""The coach's words and numbers pinned over seeded hands (C1): a change to how a reason is worded or chosen must
leave every move value as it was, and change only the sentences it means to.

The positions are ``benchmarks/report_reasons.py``'s (USA, the optional rules, Canada and Clear 4, AI seats of
every Level and Style), fewer of them. Each advice keeps its text and a digest of its numbers: every part and total
of every candidate and the move chosen; each hand keeps a digest of the moves its AI seats played, noise draws and
all. Run ``python tests/test_advice_pins.py`` to write the pins again after a deliberate change of words.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cut_tutor import State, view  # noqa: E402
from cut_tutor.coach import COACH_STYLE, COMPONENTS, LEVELS, STYLES, Advice, AIPlayer, advise  # noqa: E402

PINS = Path(__file__).parent / "data" / "advice_pins.json"
#: Seeded hands, and the share of their turns with a choice at which all three coaches advise.
HANDS, SHARE = 40, 0.18


def _report() -> Any:
    spec = importlib.util.spec_from_file_location("report_reasons", ROOT / "benchmarks" / "report_reasons.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def digest(rows: Any) -> str:
    """A short digest of numbers, exact to the last digit Python prints."""
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def numbers(advice: Advice) -> str:
    """Every candidate's parts and total, in rank order, and the move chosen."""
    table = [(str(c.move), [c.components[p] for p in COMPONENTS], c.total) for c in advice.candidates]
    return digest((table, str(advice.move)))


def advices() -> Iterator[tuple[str, Any]]:
    """Each advice as ``("advice", [hand, turn, coach, level, text, numbers])``; after each hand, its played moves as
    ``("hand", [hand, digest])``."""
    rules_of = _report().rules_of
    levels = list(LEVELS)
    for hand in range(HANDS):
        _, rules = rules_of(hand)
        rng = random.Random(hand)
        seats = [
            AIPlayer(rng.choice(levels), rng.choice(list(STYLES)), seed=hand * 10 + k) for k in range(rules.players)
        ]
        state = State.deal(rules, seed=hand)
        played = []
        while not state.over and state.turns < 350:
            seen = view(state, state.turn)
            if len(seen["legal"]) > 1 and rng.random() < SHARE:
                level = levels[state.turns % len(levels)]
                for coach in COACH_STYLE:
                    a = advise(seen, coach, level)
                    yield "advice", [hand, state.turns, coach, level, a.text, numbers(a)]
            move = seats[state.turn].choose_view(seen)
            played.append(str(move))
            state.play(move)
        yield "hand", [hand, digest(played)]


def pins() -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {"advice": [], "hand": []}
    for key, row in advices():
        found[key].append(row)
    return found


def test_words_and_numbers_are_pinned() -> None:
    """Every move value, choice and noise draw is as pinned; and every sentence (C1)."""
    pinned = json.loads(PINS.read_text(encoding="utf-8"))
    now = pins()
    assert now["hand"] == pinned["hand"], "an AI seat played another move"
    pairs = list(zip(pinned["advice"], now["advice"], strict=True))
    moved = [(old, new) for old, new in pairs if old[:4] + old[5:] != new[:4] + new[5:]]
    assert not moved, f"{len(moved)} advices' numbers changed, e.g. {moved[0]}"
    worded = [(old[4], new[4]) for old, new in pairs if old[4] != new[4]]
    assert not worded, f"{len(worded)} sentences changed, e.g. {worded[:3]}"


if __name__ == "__main__":
    PINS.parent.mkdir(exist_ok=True)
    found = pins()
    text = "{\n" + ",\n".join(
        f'"{key}": [\n' + ",\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + "\n]"
        for key, rows in found.items()
    )
    PINS.write_text(text + "\n}\n", encoding="utf-8")
    print(f"{len(found['advice'])} advices over {len(found['hand'])} hands -> {PINS}")
