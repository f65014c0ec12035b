"""The compiled core's Python face (built from ``cut_tutor/native/``); ``cut_tutor.compiled`` loads it."""

from collections.abc import Sequence
from typing import Any, TypeVar

_T = TypeVar("_T")

_State = tuple[int, tuple[int, ...], float | None]

class Random:
    """CPython's ``random.Random``, compiled: the same numbers and the same state for a seed."""

    def __init__(self, seed: int | str | _State) -> None: ...
    def seed(self, seed: int | str) -> None: ...
    def getstate(self) -> _State: ...
    def setstate(self, state: _State) -> None: ...
    def random(self) -> float: ...
    def getrandbits(self, k: int) -> int: ...
    def randrange(self, n: int) -> int: ...
    def shuffle(self, x: list[Any]) -> None: ...
    def choice(self, seq: Sequence[_T]) -> _T: ...
    def sample(self, population: Sequence[_T], k: int) -> list[_T]: ...
    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float: ...

class _Engine:
    """The rules engine (CUT and Clear 4) on packed positions; ``cut_tutor.engine.packed`` packs and reads them."""

    @staticmethod
    def legal_moves(position: Sequence[int]) -> list[int]: ...
    @staticmethod
    def successor(position: Sequence[int], move: int) -> list[int]: ...
    @staticmethod
    def perft(position: Sequence[int], depth: int) -> int: ...
    @staticmethod
    def random_playouts(position: Sequence[int], count: int, rng: Random) -> list[list[int]]: ...

engine: _Engine

class _Policy:
    """A Level and Style's weights and the scorers' numbers under one set of rules (``cut_tutor.analysis.native``)."""

    def __init__(
        self,
        rules: Sequence[int],
        level: dict[str, Any],
        style: dict[str, Any],
        constants: dict[str, Any],
        numbers: dict[str, Any],
    ) -> None: ...

class _Deals:
    """Where an analysis' hidden cards go and the turns on the pile they agree with
    (``cut_tutor.analysis.deals.Deals.plan``), dealt per sample in the core."""

    def __init__(
        self,
        base: Sequence[int],
        pool: Sequence[int],
        first: Sequence[tuple[int, int, Sequence[bool]]],
        slots: Sequence[tuple[int, bool]],
        reads: Sequence[tuple[int, int, Sequence[int], Sequence[tuple[Sequence[int], Sequence[int], int]]]] = (),
        tries: int = 1,
    ) -> None: ...
    def sample(self, stream: str, i: int, reader: _Policy | None = None) -> tuple[list[int], list[int]]: ...

class _Coach:
    """The AI seat's decision (CUT and Clear 4) and rollouts of AI seats on packed positions."""

    Policy: type[_Policy]
    Deals: type[_Deals]

    @staticmethod
    def round2(x: float) -> float: ...
    @staticmethod
    def knowledge(policy: _Policy, position: Sequence[int], seat: int) -> dict[str, Any]: ...
    @staticmethod
    def evaluate(policy: _Policy, position: Sequence[int]) -> list[tuple[int, float]]: ...
    @staticmethod
    def choose(policy: _Policy, position: Sequence[int], rng: Random) -> tuple[int, list[tuple[int, float]]]: ...
    @staticmethod
    def play(
        policies: Sequence[_Policy | None], position: Sequence[int], seeds: Sequence[int]
    ) -> tuple[list[int], list[int]]: ...
    @staticmethod
    def rollouts(
        policy: _Policy,
        starts: Sequence[Sequence[int]],
        seeds: Sequence[Sequence[int]],
        moves: Sequence[int],
        seat: int,
    ) -> list[list[tuple[int, bool]]]: ...
    @staticmethod
    def sampled_rollouts(
        policy: _Policy,
        deals: _Deals,
        stream: str,
        samples: Sequence[int],
        moves: Sequence[int],
        seat: int,
    ) -> list[list[tuple[int, bool]]]: ...

coach: _Coach
