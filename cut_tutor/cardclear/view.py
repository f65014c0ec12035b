"""The JSON view of a game: everything a board widget draws, and no card of the stock beyond the three Next.

>>> from .state import Puzzle
>>> v = view(Puzzle.from_code("4-2"))
>>> len(v["board"]), len(v["next"]), "stock" in v
(6, 3, False)
"""

from __future__ import annotations

from typing import Any

from .cards import RANK_NAMES, card_name
from .hands import BASE, EXAMPLES, SHORT
from .levels import top_rank
from .state import SIZE, Puzzle


def tags(state: Puzzle) -> list[dict[str, Any]]:
    """Each legal swap with the hands it makes at once, as the tags on a lifted card's neighbours ("Trips 30")."""
    listed = []
    for swap in state.legal_swaps():
        made = state.hands_through(swap, state.live)
        label = ", ".join(f"{SHORT[kind]} {BASE[kind]}" for kind in made)
        listed.append({"swap": str(swap), "cells": [list(divmod(swap.a, SIZE)), list(divmod(swap.b, SIZE))],
                       "hands": made, "tag": label})  # fmt: skip
    return listed


def view(state: Puzzle) -> dict[str, Any]:
    """The board (rows from the top), the Next cards, goals with progress, moves, score, stars and live hands."""
    row = state.row
    goals = [{"goal": str(goal), "have": have, "need": goal.target, "met": have >= goal.target}
             for goal, have in zip(row.goals, state.amounts(), strict=True)]  # fmt: skip
    return {
        "code": state.code,
        "level": state.level,
        "ranks": f"A-{RANK_NAMES[top_rank(state.level)]}",
        "hands": [
            {"hand": kind, "short": SHORT[kind], "points": BASE[kind], "example": list(EXAMPLES[kind])}
            for kind in BASE
            if kind in state.live
        ],
        "board": [[card_name(state.board[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)],
        "next": [card_name(card) for card in state.next_cards],
        "moves_left": state.moves_left,
        "score": state.score,
        "goals": goals,
        "star_lines": [row.two_stars, row.three_stars],
        "stars": state.stars,
        "over": state.over,
        "passed": state.passed,
        "legal": [] if state.over else tags(state),
        "result": state.result() if state.over else None,
    }
