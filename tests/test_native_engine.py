"""The compiled engine against the Python engine: the same legal moves in the same order, the same next position
after every move, the same perft counts, and bad input refused with a clear error (R5–R22).

Positions come from random play on random deals under random rules: 2–8 seats with every CUT option toggled, and
Clear 4 (R22). The Python engine is the reference; the packed form (:mod:`cut_tutor.engine.packed`) carries
positions across.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cut_tutor.engine import Move, Rules, State, state_from_deal
from cut_tutor.engine import packed as P

NATIVE = P.NATIVE
if NATIVE is not None:
    from cut_tutor._native import Random
needs_native = pytest.mark.skipif(NATIVE is None, reason="the compiled engine (cut_tutor._native) is not built")
PERFT: list[dict[str, Any]] = json.loads((Path(__file__).parent / "perft" / "positions.json").read_text("utf-8"))


def random_rules(rng: random.Random) -> Rules:
    """Clear 4 one time in four, else CUT with every setting that changes play drawn at random (R1–R21)."""
    if rng.random() < 0.25:
        return Rules.from_preset("Clear 4", players=rng.randint(2, 6))
    players, dealt = rng.randint(2, 8), rng.choice((19, 20))
    need = -(-players * dealt // 54)
    return Rules(
        players=players, cards_dealt=dealt, decks=rng.choice((None, rng.randint(need, 12))),
        clear_rank=rng.choice((None, *range(1, 14))), clear_value=rng.choice((25, 50)),
        card_scoring=rng.choice(("rank", "flat5")), bust_penalty=rng.choice((0, 25, 50)),
        four_plus_clears=rng.random() < 0.5, piles_face_down=rng.random() < 0.5,
        pile_card_flip=rng.random() < 0.5, risk_play=rng.random() < 0.5,
    )  # fmt: skip


def positions(seed: int, count: int) -> Iterator[State]:
    """``count`` positions met in random play from random deals under random rules, hand ends included."""
    rng = random.Random(seed)
    met = 0
    while True:
        rules = random_rules(rng)
        state = State.deal(rules, rng.getrandbits(32), rng.randrange(rules.players))
        while True:
            yield state
            met += 1
            if met == count:
                return
            if state.over:
                break
            moves = state.legal_moves()
            state = state.copy()
            state.apply(moves[rng.randrange(len(moves))])


def test_a_packed_position_reads_back_the_same() -> None:
    """Packing loses nothing a position holds, hidden cards, knowledge, marks and counters included."""
    for state in positions(1, 400):
        again = P.unpack(state.rules, P.pack(state), state.moves)
        assert again.to_position() == state.to_position()
        assert again.turn_start == state.turn_start and P.pack(again) == P.pack(state)


def test_move_codes_name_their_moves() -> None:
    for state in positions(2, 300):
        for move in state.legal_moves():
            assert P.move_of(P.code_of(move)) == move


@needs_native
def test_same_moves_same_order_same_successors() -> None:
    """Thousands of positions: the core's legal moves are the reference's, in order; at one in eight, every move's
    successor is the reference's, as a position and packed (turn and move counters included)."""
    assert NATIVE is not None
    checked = ended = 0
    for i, state in enumerate(positions(3, 3000)):
        moves = state.legal_moves()
        assert P.legal_moves(state) == moves, state.to_position()
        if state.over:
            ended += 1
        if i % 8:
            continue
        before = P.pack(state)
        for move in moves:
            reference = state.copy()
            reference.apply(move)
            native = P.successor(state, move)
            assert native.to_position() == reference.to_position(), (state.to_position(), str(move))
            assert P.pack(native) == P.pack(reference)
            checked += 1
        assert P.pack(state) == before  # the position given is untouched
    assert checked > 2000 and ended >= 3


def clear4_position(hands: list[str], stacks: list[str] | None = None, pile: str = "") -> State:
    """A two- or three-seat Clear 4 position, seat 0 to move: its hand and stacks, the others' hands."""
    seats = [{"hand": hand} for hand in hands]
    seats[0]["stacks"] = [*(stacks or []), *[""] * (4 - len(stacks or []))]  # type: ignore[assignment]
    rules = Rules.from_preset("Clear 4", players=len(hands)).to_dict()
    return State.from_position({"rules": rules, "turn": 0, "pile": pile, "seats": seats})


EDGES = {
    "JOKERs opening the pile have no cap": (clear4_position(["J* J* J* J* J* 2", "3"], ["[2] [3] J*", "[2] [3] J*"]),
                                           ["7×J* s1 s2"]),
    "a hand ends during an addition": (clear4_position(["5", "3"], ["[5]"], "8@1"), ["flip 1", "add 1×5"]),
    "a hand ends with a blind PUSH": (clear4_position(["", "3", "4 4"], ["[P]"], "8@1"), ["flip 1", "push blind → 2"]),
}  # fmt: skip


@needs_native
@pytest.mark.parametrize("name", EDGES)
def test_clear4_edges_on_the_core(name: str) -> None:
    """R22's edges, move by move: JOKERs that open the pile take any number, and a hand that ends during an
    addition or a blind PUSH ends with no step open."""
    state, line = EDGES[name]
    for text in line:
        assert P.legal_moves(state) == state.legal_moves()
        native = P.successor(state, Move.parse(text))
        state = state.copy()
        state.play(text)
        assert native.to_position() == state.to_position()
    assert P.legal_moves(state) == state.legal_moves()


@needs_native
def test_the_hand_that_first_ended_on_an_addition_plays_the_same_on_the_core() -> None:
    """A random Clear 4 hand that went out on an addition that cleared the pile (R14, R22), replayed on the core."""
    state = State.deal(Rules.from_preset("Clear 4", players=4), seed=2570711190, dealer=2)
    rng = random.Random(148)
    while not state.over:
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        native = P.successor(state, move)
        state.apply(move)
        assert P.pack(native) == P.pack(state)
    assert (state.winner, state.phase, len(state.moves)) == (3, "play", 84)


@needs_native
@pytest.mark.parametrize("entry", PERFT, ids=[entry["name"] for entry in PERFT])
def test_perft_counts_on_the_core(entry: dict[str, Any]) -> None:
    """The pinned counts of ``tests/perft`` (made by the engine and the reference generator) on the core, and one
    level deeper against the Python engine."""
    rules = Rules.from_dict(entry["rules"]) if "deal" in entry else None
    state = state_from_deal(entry["deal"], rules) if rules else State.from_position(entry["position"])
    assert [P.perft(state, depth) for depth in (1, 2, 3)] == entry["perft"]


@needs_native
def test_perft_deeper_matches_the_python_engine() -> None:
    state = State.from_position(next(e for e in PERFT if "JOKERs in hand" in e["name"])["position"])

    def reference(state: State, depth: int) -> int:
        if depth == 0 or state.over:
            return 1
        total = 0
        for move in state.legal_moves():
            child = state.copy()
            child.apply(move)
            total += reference(child, depth - 1)
        return total

    assert P.perft(state, 4) == reference(state, 4)


@needs_native
def test_bad_input_is_refused_with_what_was_wrong() -> None:
    """Malformed positions, codes and arguments raise ValueError naming the fault; nothing crashes."""
    assert NATIVE is not None
    state = State.deal(Rules(players=3), seed=4)
    good = P.pack(state)
    hand = P.HEAD_INTS + 5  # seat 0's fives

    def refused(packed: list[int], words: str) -> None:
        with pytest.raises(ValueError, match=words):
            NATIVE.legal_moves(packed)

    refused(good[:-3], "too short")
    refused([*good, 0], "too many")
    refused([0, 9, *good[2:]], "rules.players")
    refused([*good[:hand], good[hand] + 20, *good[hand + 1 :]], r"seats\[0\]\.hand")
    refused([*good[:hand], good[hand] + 1, *good[hand + 1 :]], "placed, but the deck holds")
    refused([*good[:14], 2, *good[15:]], "gamble.*Risk Play")
    refused([*good[:14], 3, *good[15:]], "push.*Clear 4")
    clear4 = P.pack(State.deal(Rules.from_preset("Clear 4"), seed=5))
    refused([*clear4[:20], 1, 2, *clear4[22:]], "only while it adds cards or offers a gamble")
    refused([*clear4[:14], 1, *clear4[15:16], 0, *clear4[17:]], "a finished hand leaves no step open")
    with pytest.raises(ValueError, match="not a legal move"):
        NATIVE.successor(good, P.code_of(Move.parse("done")))
    with pytest.raises(ValueError, match=r"out of range"):
        NATIVE.successor(good, -1)
    with pytest.raises(ValueError, match="depth"):
        NATIVE.perft(good, -1)
    with pytest.raises(TypeError):
        NATIVE.legal_moves([*good[:-1], "x"])


@needs_native
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_playouts_match_the_python_play_loop(seed: int) -> None:
    """Playouts from random positions give the Python loop's scores, winners and decision counts, and leave the
    generator where the Python loop leaves it (R14, R15, R19, R20)."""
    for i, state in enumerate(positions(10 + seed, 60)):
        if i % 6:
            continue
        native_rng, python_rng = random.Random(seed), random.Random(seed)
        assert P.random_playouts(state, 3, native_rng) == P.reference_playouts(state, 3, python_rng)
        assert native_rng.getstate() == python_rng.getstate()


@needs_native
def test_playouts_refuse_bad_arguments() -> None:
    assert NATIVE is not None
    state = State.deal(Rules.from_preset("Clear 4"), seed=2)
    with pytest.raises(ValueError, match="negative"):
        NATIVE.random_playouts(P.pack(state), -1, Random(1))
    with pytest.raises(TypeError):
        NATIVE.random_playouts(P.pack(state), 1, random.Random(1))  # type: ignore[arg-type]
