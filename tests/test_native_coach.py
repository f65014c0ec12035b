"""The compiled AI seat against the Python coach: the same knowledge (C2), the same move values to the last bit for
every Level and Style (C1, C3–C6), the same choice with the same noise draws (C4), and the same rollouts (the
guide's *Analysis*); bad input refused, never a crash.

Positions come from AI play on random deals under random rules: CUT with 2–8 seats and every option (R1–R21), and
Clear 4 (R22) one time in four.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from itertools import product

import pytest
from test_clear4 import JOKER_LAYS, JokerLay, joker_lay
from test_native_engine import random_rules

from cut_tutor.analysis import native
from cut_tutor.analysis import search as S
from cut_tutor.analysis.deals import Deals
from cut_tutor.coach import AIPlayer, Knowledge
from cut_tutor.coach.styles import LEVELS, STYLES
from cut_tutor.coach.values import evaluate_knowledge
from cut_tutor.engine import Move, Rules, State, view
from cut_tutor.engine import packed as P
from cut_tutor.engine.cards import UP
from cut_tutor.engine.view import sight

NATIVE = native.NATIVE
if NATIVE is not None:
    from cut_tutor._native import Random
needs_native = pytest.mark.skipif(NATIVE is None, reason="the compiled core (cut_tutor._native) is not built")
POLICIES = [(level, style) for level, style in product(LEVELS.values(), STYLES.values())]


def ai_play(seed: int, count: int) -> Iterator[tuple[State, AIPlayer]]:
    """``count`` positions met as AI seats of random Levels and Styles play random deals, each with the seat to move."""
    rng = random.Random(seed)
    met = 0
    while True:
        rules = random_rules(rng)
        state = State.deal(rules, rng.getrandbits(32), rng.randrange(rules.players))
        seats = [
            AIPlayer(level.name, style.name, rng.getrandbits(32))
            for level, style in rng.choices(POLICIES, k=rules.players)
        ]
        while not state.over:
            yield state, seats[state.turn]
            met += 1
            if met == count:
                return
            move = seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn)))
            state = state.copy()
            state.apply(move)


def compiled_choice(ai: AIPlayer, state: State) -> tuple[int, list[tuple[int, float]], Random]:
    """The core's choice for ``ai``'s seat, from a compiled generator in ``ai``'s generator's state."""
    assert NATIVE is not None
    rng = Random(0)
    rng.setstate(ai.rng.getstate())
    code, totals = NATIVE.choose(native._policy(ai.level, ai.style, state.rules), P.pack(state), rng)
    return code, totals, rng


@needs_native
@pytest.mark.parametrize(("seed", "count"), [(1, 1200), pytest.param(6, 8000, marks=pytest.mark.slow)])
def test_knowledge_values_and_choices_match_the_python_seat(seed: int, count: int) -> None:
    """Thousands of positions: the core's knowledge is Knowledge.from_sight's field for field (C2); every move's
    total is the Python scorer's as the same double, for a Level and Style turn about (C1, C3–C6); the seat to move
    chooses the same move from the same noise draws, and leaves its generator where the Python seat does (C4)."""
    assert NATIVE is not None
    chosen = 0
    for i, (state, ai) in enumerate(ai_play(seed, count)):
        packed, seat = P.pack(state), state.turn
        know = Knowledge.from_sight(sight(state, seat))
        level, style = POLICIES[i % len(POLICIES)]
        policy = native._policy(level, style, state.rules)
        core = NATIVE.knowledge(policy, packed, seat)
        for name in ("hand", "pile", "left", "out_of_sight", "counted"):
            assert core[name] == list(getattr(know, name)), name
        for name in ("seat", "turns", "top", "run", "stack_cards", "cards_left", "pile_points", "next_left",
                     "min_left", "clears_held"):  # fmt: skip
            assert core[name] == getattr(know, name), name
        assert core["stacks"] == [list(stack) for stack in know.stacks]
        assert core["run"] == view(state, seat)["top_run"]  # the game module's top run, as the view sends it
        assert core["legal"] == [P.code_of(m) for m in know.legal]
        reference = [(P.code_of(c.move), c.total) for c in evaluate_knowledge(know, style, level)]
        assert NATIVE.evaluate(policy, packed) == reference, (level.name, style.name, state.to_position())
        code, _, rng = compiled_choice(ai, state)
        assert code == P.code_of(ai.choose(know)), (ai, state.to_position())
        assert rng.getstate() == ai.rng.getstate()
        chosen += len(know.legal) > 1
    assert chosen > count // 2


@needs_native
@pytest.mark.parametrize("case", JOKER_LAYS, ids=[f"{c[4]} on '{c[1]}'" for c in JOKER_LAYS])
def test_jokers_clear_on_the_core_as_in_the_engine(case: JokerLay) -> None:
    """R22: the lays random play seldom meets, four JOKERs with no value to take among them, score on the core as
    the Python seat scores them, for every Level and Style (C1, C3–C6)."""
    assert NATIVE is not None
    state = joker_lay(case)
    know = Knowledge.from_sight(sight(state, state.turn))
    for level, style in POLICIES:
        reference = [(P.code_of(c.move), c.total) for c in evaluate_knowledge(know, style, level)]
        assert NATIVE.evaluate(native._policy(level, style, state.rules), P.pack(state)) == reference, level.name


@needs_native
def test_a_long_hand_adds_the_loop_noise_on_the_core() -> None:
    """Past the long-hand mark every Level plays with the loop noise (R15), Expert too: the same draws and choice."""
    for state, _ in ai_play(2, 300):
        if len(state.legal_moves()) < 3:
            continue
        state = state.copy()
        state.turns = 400
        for level, style in POLICIES:
            seat = AIPlayer(level.name, style.name, 11)
            code, _, rng = compiled_choice(seat, state)
            assert code == P.code_of(seat.choose(Knowledge.from_sight(sight(state, state.turn))))
            assert rng.getstate() == seat.rng.getstate()
        return
    raise AssertionError("no position with three moves")


def hidden_swaps(state: State, rng: random.Random) -> list[State]:
    """Copies of ``state`` with cards the seat to move cannot see exchanged (C2): between two other seats' unknown
    hand cards, and between another seat's unknown hand card and a face-down stack card."""
    me = state.turn
    hidden = [(o, c) for o in range(state.players) if o != me for c in range(len(state.hands[o]))
              if state.hands[o][c] > (state.known[o][c] if c < len(state.known[o]) else 0)]  # fmt: skip
    down = [(o, k, i) for o in range(state.players) for k, stack in enumerate(state.stacks[o])
            for i, card in enumerate(stack) if not card & UP]  # fmt: skip
    out = []
    for _ in range(3):
        if len(hidden) >= 2:
            (o1, c1), (o2, c2) = rng.sample(hidden, 2)
            if o1 != o2 and c1 != c2:
                swapped = state.copy()
                swapped.hands[o1][c1] -= 1
                swapped.hands[o1][c2] += 1
                swapped.hands[o2][c2] -= 1
                swapped.hands[o2][c1] += 1
                out.append(swapped)
        if hidden and down:
            (o, c), (so, k, i) = rng.choice(hidden), rng.choice(down)
            card = state.stacks[so][k][i]
            if card != c:
                swapped = state.copy()
                swapped.stacks[so] = [list(stack) for stack in swapped.stacks[so]]
                swapped.stacks[so][k][i] = c
                swapped.hands[o][c] -= 1
                swapped.hands[o][card] += 1
                out.append(swapped)
    return out


@needs_native
def test_cards_hidden_from_the_seat_never_change_its_choice() -> None:
    """C2: exchanging cards the seat cannot see (others' unknown hand cards, face-down stack cards) changes nothing
    the core decides from: the same totals and the same move from the same generator."""
    assert NATIVE is not None
    rng = random.Random(3)
    changed = 0
    for state, ai in ai_play(3, 300):
        if len(state.legal_moves()) < 2:
            continue
        policy = native._policy(ai.level, ai.style, state.rules)
        seen = NATIVE.evaluate(policy, P.pack(state))
        choice = compiled_choice(ai, state)[:2]
        for swapped in hidden_swaps(state, rng):
            assert P.pack(swapped) != P.pack(state)
            assert NATIVE.evaluate(policy, P.pack(swapped)) == seen
            assert compiled_choice(ai, swapped)[:2] == choice
            changed += 1
    assert changed > 150


def python_rollouts(starts: list[State], seeds: list[list[int]], moves: list[Move], spec: str) -> list[list[S.Result]]:
    """The reference: :func:`~cut_tutor.analysis.search.play_out`'s loop on given starts."""
    out: list[list[S.Result]] = [[] for _ in moves]
    for start, seed_list in zip(starts, seeds, strict=True):
        for row, move in zip(out, moves, strict=True):
            state = start.copy()
            state.apply(move)
            S.play(state, S.players(spec, seed_list))
            row.append((state.scores()[start.turn], state.winner == start.turn))
    return out


@needs_native
@pytest.mark.parametrize(
    "spec",
    [
        "Expert:Balanced",
        "Average:Rock",
        *[pytest.param(s, marks=pytest.mark.slow) for s in ("Experienced:Gambler", "Expert:Rock")],
    ],
)
def test_rollout_matrices_match_the_python_loop(spec: str) -> None:
    """Whole outcome matrices for fixed seeds: each move played out from each start by seeded AI seats gives the
    Python loop's points and winners (R14, R19, R20)."""
    assert NATIVE is not None
    rng = random.Random(spec)
    for _ in range(2):
        state = next(s for s, _ in ai_play(rng.getrandbits(16), 40) if s.turns >= 4 and len(s.legal_moves()) > 1)
        moves = state.legal_moves()[:3]
        seeds = [[rng.getrandbits(32) for _ in range(state.players)] for _ in range(2)]
        starts = [state] * len(seeds)
        policy = native.policy(spec, state.rules)
        assert policy is not None
        codes = [P.code_of(m) for m in moves]
        got = NATIVE.rollouts(policy, [P.pack(s) for s in starts], seeds, codes, state.turn)
        assert got == python_rollouts(starts, seeds, moves, spec)


@needs_native
@pytest.mark.parametrize("infer", [False, True])
def test_play_out_is_the_same_on_the_core_and_the_python_path(monkeypatch: pytest.MonkeyPatch, infer: bool) -> None:
    """play_out gives the same matrix whether the core plays it or the Python path does (CUT_TUTOR_PURE=1)."""
    state = next(s for s, _ in ai_play(4, 30) if s.turns >= 6 and len(s.legal_moves()) > 1)
    seen, moves = view(state, state.turn), [str(m) for m in state.legal_moves()[:3]]
    compiled = S.play_out(seen, "Expert:Balanced", 5, range(2, 5), moves, infer=infer)
    monkeypatch.setattr(native, "NATIVE", None)
    assert native.policy("Expert:Balanced", state.rules) is None
    assert S.play_out(seen, "Expert:Balanced", 5, range(2, 5), moves, infer=infer) == compiled


def test_pure_path_is_asked_for_by_the_variable() -> None:
    """CUT_TUTOR_PURE=1 takes the compiled seat out of play_out: no policy is built for the core."""
    code = "from cut_tutor.analysis import native; from cut_tutor import Rules; print(native.policy('Expert', Rules()))"
    env = {**os.environ, "CUT_TUTOR_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "None"


@needs_native
def test_clear4_plays_out_the_same_on_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """R22: Clear 4 has its scorer in the core too: play_out gives the Python path's matrix."""
    rules = Rules.from_preset("Clear 4", players=3)
    assert native.policy("Expert:Balanced", rules) is not None
    state = State.deal(rules, 3)
    seen, moves = view(state, state.turn), [str(m) for m in state.legal_moves()[:3]]
    compiled = S.play_out(seen, "Average:Gambler", 1, range(3), moves)
    monkeypatch.setattr(native, "NATIVE", None)
    assert S.play_out(seen, "Average:Gambler", 1, range(3), moves) == compiled


@needs_native
def test_bad_input_raises_and_never_crashes() -> None:
    """A few hundred malformed positions, seeds, moves and policies: each raises a Python exception or, where the
    damage still leaves a valid position, plays; the process never crashes."""
    assert NATIVE is not None
    rng = random.Random(9)
    state = next(s for s, _ in ai_play(5, 20) if s.turns >= 3)
    good, policy = P.pack(state), native._policy(LEVELS["Expert"], STYLES["Rock"], state.rules)
    seeds = [[1] * state.players]
    move = P.code_of(state.legal_moves()[0])
    refused = 0
    for _ in range(300):
        bad = list(good)
        kind = rng.randrange(4)
        if kind == 0:
            bad = bad[: rng.randrange(len(bad))]
        elif kind == 1:
            bad[rng.randrange(len(bad))] = rng.choice((-1, 255, 1 << 40, rng.randrange(64)))
        elif kind == 2:
            bad.insert(rng.randrange(len(bad)), rng.randrange(8))
        else:
            bad[rng.randrange(12)] = rng.randrange(-2, 20)
        turn = state.turn
        for call, args in (
            (NATIVE.knowledge, (policy, bad, turn)),
            (NATIVE.evaluate, (policy, bad)),
            (NATIVE.choose, (policy, bad, Random(1))),
            (NATIVE.rollouts, (policy, [bad], seeds, [move], turn)),
            (NATIVE.play, ([policy] * state.players, bad, seeds[0])),
        ):
            try:
                call(*args)  # type: ignore[operator]
            except (ValueError, TypeError, OverflowError):
                refused += 1
    assert refused > 750
    for policies, seed_list, words in [
        ([], seeds[0], "no policies"),
        ([policy], seeds[0], "seats"),
        ([policy] * state.players, [1], "seats"),
        ([None] * state.players, seeds[0], "no AI seat"),
    ]:
        with pytest.raises(ValueError, match=words):
            NATIVE.play(policies, good, seed_list)
    for args, words in [
        (([good], seeds, [move], state.players), "seat"),
        (([good], seeds, [move], -1), "seat"),
        (([good], [[1]], [move], 0), "seeds for"),
        (([good], [], [move], 0), "seed lists"),
        (([good], seeds, [-1], 0), "out of range"),
        (([good], seeds, [P.code_of(P.move_of(2))], 0), "not a legal move"),
        (([P.pack(State.deal(Rules(players=state.players + 1 if state.players < 8 else 2), 1))], seeds, [move], 0),
         "other rules"),
    ]:  # fmt: skip
        with pytest.raises(ValueError, match=words):
            NATIVE.rollouts(policy, *args)
    with pytest.raises(TypeError):
        NATIVE.rollouts(policy, [good], [["x"] * state.players], [move], 0)  # type: ignore[list-item]
    rules = P.pack_rules(state.rules)
    for level, words in [({}, "no field 'depth'"), ({"depth": "deep"}, "level.depth has the wrong type")]:
        with pytest.raises((ValueError, TypeError), match=words):
            NATIVE.Policy(rules, level, {}, {}, {})
    with pytest.raises(ValueError, match="rules"):
        NATIVE.Policy(rules[:5], {}, {}, {}, {})


@pytest.mark.parametrize("infer", [False, True])
def test_a_packed_sample_is_the_sample_packed(infer: bool) -> None:
    """Deals.packed places the same hidden cards as Deals.sample draws with the same generator (C2): hidden hands,
    bare takes' hands and hands read from the pile (R11), face-down stack cards, undealt cards."""
    reader = AIPlayer("Expert", "Balanced") if infer else None
    dealt_first = 0
    for state, _ in ai_play(7 + infer, 400):
        if state.turns < 2 or state.turns % 4:
            continue
        deals = Deals(view(state, state.turn), reader)
        dealt_first += bool(deals.first)
        for i in range(2):
            assert deals.packed(random.Random(i)) == P.pack(deals.sample(random.Random(i)))
    assert dealt_first > 5


@needs_native
def test_the_core_rounds_as_python_does() -> None:
    """Every part and total is round(x, 2): the same double, halves and the doubles either side of them included
    (ties to even on the exact value), negative values and zero's sign too."""
    assert NATIVE is not None
    rng = random.Random(2)
    values = [0.125, -0.125, 0.375, 2.675, 1.005, -0.005, 1e300, -0.0, 5e-324, float("inf")]
    for _ in range(20000):
        half = (2 * rng.randrange(-(10**6), 10**6) + 1) / 200
        values += [half, math.nextafter(half, math.inf), math.nextafter(half, -math.inf), rng.uniform(-1e4, 1e4)]
    for x in values:
        got, want = NATIVE.round2(x), round(x, 2)
        assert (got, math.copysign(1.0, got)) == (want, math.copysign(1.0, want)), x


@needs_native
def test_simulations_of_ai_seats_are_the_same_on_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """sim.simulate plays hands of Level:Style seats and Random ones on the core, each seat its own policy and seed:
    the same table as the Python path, busts, clears, blind plays, turns and decisions included (R14, R15, R19, R20,
    R22); a table with a Greedy seat, or of Random seats alone, stays on the Python path."""
    from cut_tutor import sim
    from cut_tutor.sim import simulate

    tables = [
        (["Expert:Rock", "Average:Gambler", "Experienced:Balanced"], Rules(players=3, bust_penalty=25)),
        (["Expert:Balanced", "Expert:Gambler"], Rules(players=2, risk_play=True, pile_card_flip=True)),
        (["Expert:Rock", "Random"], Rules(players=2)),
        (["Random", "Expert:Balanced", "Random", "Average:Balanced"], Rules(risk_play=True)),
        (["Expert:Gambler", "Random", "Experienced:Balanced"], Rules.from_preset("Clear 4", players=3)),
        (["Random", "Greedy"], Rules(players=2)),
        (["Random", "Random"], Rules(players=2)),
    ]
    on_core = [sim._compiled(seats, rules) is not None for seats, rules in tables]
    assert on_core == [True] * 5 + [False] * 2
    two = Rules(players=2)
    assert sim._compiled(["Random", "Expert:Rock"], two) == [None, native.policy("Expert:Rock", two)]
    compiled = [simulate(seats, rules, hands=3, seed=4) for seats, rules in tables]
    monkeypatch.setattr(native, "NATIVE", None)
    for (seats, rules), frame in zip(tables, compiled, strict=True):
        assert simulate(seats, rules, hands=3, seed=4).equals(frame)


@needs_native
def test_deal_luck_rollouts_are_the_same_on_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's fresh deals (its yardstick of the deal's luck) give each seat the same points whether the core
    plays them or the Python path does, in CUT under random rules and in Clear 4 (R14, R19, R20, R22)."""
    from cut_tutor.review.hand import deal_points

    rng = random.Random(11)
    tables = [(random_rules(rng), "Expert:Balanced"), (random_rules(rng), "Average:Gambler"),
              (Rules.from_preset("Clear 4", players=3), "Experienced:Rock")]  # fmt: skip
    runs = [(rules.to_dict(), seat % rules.players, spec) for seat, (rules, spec) in enumerate(tables)]
    compiled = [deal_points(rules, 1, seat, spec, 5, range(6)) for rules, seat, spec in runs]
    monkeypatch.setattr(native, "NATIVE", None)
    assert [deal_points(rules, 1, seat, spec, 5, range(6)) for rules, seat, spec in runs] == compiled


@needs_native
def test_a_review_is_the_same_on_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand's review, every decision's figures, grade and luck and the summary, is the same whether the core
    plays its rollouts and its fresh deals or the Python path does (the guide's *Hand review*)."""
    from cut_tutor.analysis.evaluations import forget
    from cut_tutor.engine import record_of
    from cut_tutor.review import review

    state, seats = State.deal(Rules(players=3), seed=8), [AIPlayer("Average", "Balanced", k) for k in range(3)]
    while not state.over:
        state.apply(seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn))))
    record = record_of(state)
    forget()  # evaluations made afresh on each path, not read from the other's
    compiled = review(record, 1, seed=3, rollouts=16, deal_rollouts=8).rows()
    forget()
    monkeypatch.setattr(native, "NATIVE", None)
    assert review(record, 1, seed=3, rollouts=16, deal_rollouts=8).rows() == compiled
    forget()
