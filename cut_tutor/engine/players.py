"""Baseline players for tests and benchmarks. They look only at the legal moves, which every seat knows.

>>> import random
>>> from cut_tutor.engine import Rules, State
>>> state = State.deal(Rules(), seed=5)
>>> GreedyPlayer().choose(state, random.Random(0)) in state.legal_moves()
True
"""

from __future__ import annotations

import random
from typing import Protocol

from .moves import CLEAR, PLAY, TAKE, Move
from .state import State


class Player(Protocol):
    """Anything that picks a move for the seat to move."""

    def choose(self, state: State, rng: random.Random) -> Move: ...


class RandomPlayer:
    """Picks uniformly among the legal moves."""

    def choose(self, state: State, rng: random.Random) -> Move:
        moves = state.legal_moves()
        return moves[rng.randrange(len(moves))]


class GreedyPlayer:
    """Sheds the most cards, highest rank first; clears only when nothing else plays; takes last."""

    def choose(self, state: State, rng: random.Random) -> Move:
        return max(state.legal_moves(), key=_greedy_key)


def _greedy_key(move: Move) -> tuple[int, int, int]:
    if move.kind == PLAY:
        return (3, move.size, move.rank)
    if move.kind == CLEAR:
        return (2, -move.size, 0)
    if move.kind == TAKE:
        return (0, 0, -move.rank)
    return (1, move.size, 0)


def play_hand(state: State, players: list[Player], rng: random.Random) -> State:
    """Play a hand to its end with one player per seat."""
    while not state.over:
        state.apply(players[state.turn].choose(state, rng))
    return state
