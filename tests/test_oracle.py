"""A counted oracle for move generation: ``legal_moves()`` against a reference generator written from the rules.

The reference (``tests/perft/oracle.py``) lists every combination of the mover's hand cards and stacks and keeps
each that a direct rule predicate accepts (R7–R18 of How to play and Optional rules; R22 for Clear 4). Here both
generators meet on every position of seeded random hands over every rule combination — USA and Canada, each
clear rank setting, Piles Face Down, Risk Play, Pile Card Flip, 2–8 seats — and over Clear 4 with 2–6 seats.
Some hands start thinned to a few hand cards so blind plays, additions (R13), gambles (R17) and pushes (R22)
come early. The two must list the same moves, and the engine each move once.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from cut_tutor.engine import Move, Rules, State

#: Decisions played per hand: enough to reach empty hands, blind plays and gambles.
MOVES_PER_HAND = 120


def _reference() -> ModuleType:
    """The reference generator, loaded by path so the tests need no package layout."""
    spec = importlib.util.spec_from_file_location("perft_oracle", Path(__file__).parent / "perft" / "oracle.py")
    assert spec and spec.loader
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


oracle = _reference()

#: Every CUT rule combination the move generator can see: preset (R21; 4+ Card Clears with it, R10),
#: clear rank (R2: 10, none, another rank), Piles Face Down (R16), Risk Play (R17), Pile Card Flip (R18).
CUT_CASES = [
    (preset, clear_rank, face_down, risk, flip)
    for preset, clear_rank, face_down, risk, flip in itertools.product(
        ("USA", "Canada"), ("10", None, "other"), (False, True), (False, True), (False, True)
    )
]


def cut_rules(index: int) -> Rules:
    """The rules of one CUT case, the seats cycling through 2–8 and the other clear rank through A–K."""
    preset, clear_rank, face_down, risk, flip = CUT_CASES[index]
    rank = {"10": 10, None: None, "other": [r for r in range(1, 14) if r != 10][index % 12]}[clear_rank]
    return Rules.from_preset(
        preset,
        players=2 + index % 7,
        clear_rank=rank,
        piles_face_down=face_down,
        risk_play=risk,
        pile_card_flip=flip,
    )


def thinned(state: State, rng: random.Random) -> State:
    """The same deal with each hand cut to 0–3 cards (the rest left undealt), so stacks come into play at once."""
    position = state.to_position()
    for seat in position["seats"]:
        cards = seat["hand"].split()
        seat["hand"] = " ".join(rng.sample(cards, rng.randint(0, 3)))
    del position["undealt"]
    return State.from_position(position)


def hands(rules: Rules, seed: int) -> Iterator[State]:
    """Every position of two seeded random hands, one dealt in full and one thinned, played mostly to shed."""
    rng = random.Random(seed)
    for start in (State.deal(rules, seed, dealer=seed % rules.players), None):
        state = start if start is not None else thinned(State.deal(rules, seed + 1, dealer=0), rng)
        for _ in range(MOVES_PER_HAND):
            if state.over:
                break
            yield state
            legal = state.legal_moves()
            plays = [m for m in legal if m.kind != "take"]
            state.play(rng.choice(plays if plays and rng.random() < 0.8 else legal))


@dataclass
class Comparison:
    """What one case's hands showed: every disagreement, and which phases and kinds of move were met."""

    mismatches: list[str] = field(default_factory=list)
    phases: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)


@cache
def compare(rules: Rules, seed: int) -> Comparison:
    result = Comparison()
    for state in hands(rules, seed):
        legal = state.legal_moves()
        expected = oracle.reference_moves(state)
        result.phases[state.phase] += 1
        result.kinds.update(move.kind + (" shown" if move.kind == "take" and move.rank else "") for move in legal)
        if set(legal) != expected or len(legal) != len(set(legal)):
            duplicates = [str(m) for m, count in Counter(legal).items() if count > 1]
            result.mismatches.append(
                f"{state.to_position()}\n  engine only: {sorted(map(str, set(legal) - expected))}"
                f"\n  rules only: {sorted(map(str, expected - set(legal)))}\n  listed twice: {duplicates}"
            )
    return result


CLEAR4_CASES = [(players, seed) for players in range(2, 7) for seed in (1, 2, 3, 4)]


def all_comparisons() -> list[Comparison]:
    return [compare(cut_rules(i), i) for i in range(len(CUT_CASES))] + [
        compare(Rules.from_preset("Clear 4", players=players), seed) for players, seed in CLEAR4_CASES
    ]


@pytest.mark.parametrize("index", range(len(CUT_CASES)), ids=["-".join(map(str, case)) for case in CUT_CASES])
def test_cut_moves_match_the_rules(index: int) -> None:
    result = compare(cut_rules(index), index)
    assert result.phases, "no position was checked"
    assert not result.mismatches, f"{len(result.mismatches)} positions disagree; the first:\n{result.mismatches[0]}"


@pytest.mark.parametrize(("players", "seed"), CLEAR4_CASES)
def test_clear4_moves_match_the_rules(players: int, seed: int) -> None:
    result = compare(Rules.from_preset("Clear 4", players=players), seed)
    assert result.phases, "no position was checked"
    assert not result.mismatches, f"{len(result.mismatches)} positions disagree; the first:\n{result.mismatches[0]}"


def test_every_phase_and_kind_of_move_is_met() -> None:
    """The random hands reach every phase and every kind of move, so the comparison covers them all."""
    phases: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for result in all_comparisons():
        phases.update(result.phases)
        kinds.update(result.kinds)
    assert set(phases) == {"play", "add", "gamble", "push"}, phases
    every_kind = {"play", "clear", "take", "take shown", "flip", "turnup", "add", "gamble", "done", "push"}
    assert set(kinds) == every_kind, kinds
    assert min(phases.values()) >= 5, phases


def test_r11_shows_with_no_legal_play() -> None:
    """No legal play onto a 5 with K Q in hand: R11 (Clarified) allows 'take', 'take K' and 'take Q'."""
    rules = Rules(players=2)
    state = State.from_position(
        {"rules": rules.to_dict(), "turn": 0, "pile": "5@1", "seats": [{"hand": "K Q"}, {"hand": "4 8"}]}
    )
    assert oracle.reference_moves(state) == {Move.parse(text) for text in ("take", "take K", "take Q")}
    assert set(state.legal_moves()) == oracle.reference_moves(state)
