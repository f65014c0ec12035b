"""Write the golden playthroughs: seeded random hands recorded step by step.

Each file holds one hand: at every step the position, the legal moves, the move chosen and the view of the
seat to move. ``tests/test_playthroughs.py`` replays them exactly, so any change of behaviour shows up as a
diff of these files in review. After a deliberate change, regenerate and read the diff::

    python -m tests.playthroughs.generate          # every case
    python -m tests.playthroughs.generate clear4   # only the cases named
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

if not __package__:  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cut_tutor.engine import RandomPlayer, Rules, State, view

FORMAT = "cut_tutor.playthrough"
HERE = Path(__file__).resolve().parent
#: A hand longer than this makes a file too big to review: choose another seed.
MAX_STEPS = 400

#: name -> (rules, deal seed, dealer); the random player is seeded with the deal seed.
CASES: dict[str, tuple[Rules, int, int]] = {
    "usa_seed3": (Rules(), 3, 0),
    "usa_seed13": (Rules(), 13, 2),
    "canada": (Rules.from_preset("Canada"), 2, 1),
    "usa_risk_flip": (Rules(risk_play=True, pile_card_flip=True), 18, 0),
    "piles_face_down": (Rules(piles_face_down=True), 14, 3),
    "jokers_only": (Rules(clear_rank=None), 5, 0),
    "clear4": (Rules.from_preset("Clear 4", players=3), 1, 1),
}


def _step(state: State, move: str | None) -> dict[str, Any]:
    """One recorded step; the rules, the same at every step, live once in the file's header."""
    position = {k: v for k, v in state.to_position().items() if k != "rules"}
    seen = {k: v for k, v in view(state, state.turn).items() if k not in ("rules", "legal")}
    return {"position": position, "legal": [str(m) for m in state.legal_moves()], "move": move, "view": seen}


def playthrough(name: str) -> dict[str, Any]:
    """Play the named case's hand with a seeded :class:`RandomPlayer` and record every step."""
    rules, seed, dealer = CASES[name]
    state = State.deal(rules, seed, dealer)
    rng = random.Random(seed)
    player = RandomPlayer()
    steps = []
    while not state.over:
        live = view(state, state.turn)
        assert live["legal"] == [str(m) for m in state.legal_moves()], "the view's legal moves differ"
        assert live["rules"] == rules.to_dict()
        move = player.choose(state, rng)
        steps.append(_step(state, str(move)))
        state.apply(move)
        if len(steps) > MAX_STEPS:
            raise ValueError(f"{name}: the hand runs past {MAX_STEPS} steps; choose another seed")
    steps.append(_step(state, None))
    return {
        "format": FORMAT,
        "name": name,
        "rules": rules.to_dict(),
        "deal": state.deal_code,
        "seed": seed,
        "dealer": dealer,
        "result": {"winner": state.winner, "stalemate": state.stalemate, "scores": state.scores()},
        "steps": steps,
    }


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def dumps(data: dict[str, Any]) -> str:
    """JSON with one step per line, so a review diff points at the steps that changed."""
    head = _compact({k: v for k, v in data.items() if k != "steps"})
    lines = ",\n".join(_compact(step) for step in data["steps"])
    return head[:-1] + ',\n"steps":[\n' + lines + "\n]}\n"


def main(names: list[str] | None = None) -> None:
    """Write every case's file, or only the cases named (``python -m tests.playthroughs.generate clear4``)."""
    for name in names or CASES:
        path = HERE / f"{name}.json"
        path.write_text(dumps(playthrough(name)), encoding="utf-8")
        print(f"{path.relative_to(HERE.parents[1])}: {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(sys.argv[1:])
