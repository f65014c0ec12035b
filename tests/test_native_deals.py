"""The compiled core deals an analysis' samples as the Python path does (C2): a generator seeded from a str as
random.Random seeds it, the same hidden hands, bare takes' hands (R11), face-down stack cards and undealt cards, the
same seats' seeds, so the rollouts and the evaluations built on them are the same numbers on both paths, in CUT and
in Clear 4 (R22); a malformed plan is refused with an error that says what was wrong, never a crash.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_native_coach import ai_play
from test_native_engine import random_rules
from test_native_fuzz import values

from cut_tutor.analysis import native, run
from cut_tutor.analysis import search as S
from cut_tutor.analysis.deals import Deals
from cut_tutor.analysis.memory import Memory
from cut_tutor.coach import Knowledge
from cut_tutor.engine import Rules, State, view
from cut_tutor.engine import packed as P
from cut_tutor.engine.cards import CODES, NCODES
from cut_tutor.engine.packed import hand_at
from cut_tutor.engine.view import sight

NATIVE = native.NATIVE
pytestmark = pytest.mark.skipif(NATIVE is None, reason="the compiled core (cut_tutor._native) is not built")
#: The seat the deals read the pile by: the rollouts' policy, as an analysis seat reads it.
READER = "Expert:Balanced"


def sample_packed(deals: Deals, seed: int, i: int) -> tuple[list[int], list[int]]:
    """The Python path's sample ``i`` of an analysis with ``seed`` (search.sample), its deal packed as the core deals
    it (Deals.packed) and the seats' seeds."""
    rng = S._draws(seed, i)
    start = deals.packed(rng)
    return start, [rng.getrandbits(32) for _ in deals.hidden_hands]


def reading_positions(seed: int, count: int) -> list[Deals]:
    """Deals of positions met in AI play under random rules whose turns on the pile are read by :data:`READER`
    (CUT only: Clear 4 has none to read)."""
    reader = S.players(READER, [0])[0]
    found = [Deals(view(state, state.turn), reader) for state, _ in ai_play(seed, count)
             if state.rules.game == "CUT" and len(state.legal_moves()) > 1]  # fmt: skip
    return [deals for deals in found if deals.reads]


def remembering_positions(seed: int, count: int) -> list[Deals]:
    """Deals of CUT positions under random rules whose seat to move watched every move of the hand
    (:class:`~cut_tutor.analysis.memory.Memory`) and reads, by :data:`READER`, turns it remembers: ``count`` hands
    of :data:`READER` seats, one position a hand at most every few turns."""
    rng, reader, found = random.Random(seed), S.players(READER, [0])[0], []
    for _ in range(count):
        rules = random_rules(rng)
        if rules.game != "CUT":
            continue
        state = State.deal(rules, rng.getrandbits(32), rng.randrange(rules.players))
        seats, memories = S.players(READER, range(rules.players)), [Memory(k) for k in range(rules.players)]
        while not state.over and state.turns < 200:
            seen = view(state, state.turn)
            if len(seen["legal"]) > 1 and memories[state.turn].follows(seen) and rng.random() < 0.2:
                deals = Deals({**seen, "memory": memories[state.turn].entries()}, reader)
                if deals.reads:
                    found.append(deals)
            move = seats[state.turn].choose(Knowledge.from_sight(sight(state, state.turn)))
            for k, memory in enumerate(memories):
                memory.observe(view(state, k), move)
            state.apply(move)
    return found


def test_a_str_seed_gives_the_generator_python_gives() -> None:
    """random.Random(text): the UTF-8 bytes and their SHA-512 as one number, for texts of every length around the
    hash's block sizes, non-ASCII ones and the empty text; the numbers drawn after it agree too."""
    from cut_tutor._native import Random

    rng = random.Random(1)
    texts = ["", "a", "analysis:0:0", "é€😀", f"analysis:{2**64 - 1}:{10**12}", "\x00", "\x00a"]
    texts += ["x" * n for n in (55, 56, 63, 64, 111, 112, 127, 128, 129, 239, 240, 500)]
    texts += ["".join(chr(rng.choice((rng.randrange(32, 127), rng.randrange(160, 0xD7FF)))) for _ in range(n))
              for n in range(0, 300, 7)]  # fmt: skip
    for text in texts:
        compiled, python = Random(text), random.Random(text)
        assert compiled.getstate() == python.getstate(), text
        assert [compiled.getrandbits(32) for _ in range(3)] == [python.getrandbits(32) for _ in range(3)]
        compiled.seed(text)
        python.seed(text)
        assert compiled.getstate() == python.getstate()
    with pytest.raises(ValueError, match="UTF-8"):
        Random("\udc80")


def test_the_core_deals_each_sample_as_python_does() -> None:
    """Every sample of every position met in AI play under random rules (2–8 seats, every CUT option, Clear 4 one time
    in four) is dealt the same by the core: hidden hands, bare takes' hands (R11), face-down stack cards, undealt
    cards and the seats' seeds, for analysis seeds of any size."""
    assert NATIVE is not None
    dealt_first = games = 0
    for state in (s for seed in (7, 12) for s, _ in ai_play(seed, 500) if s.turns % 2 == 0):
        deals = Deals(view(state, state.turn))
        plan = deals.plan()
        dealt_first += bool(deals.first)
        games += state.rules.game == "Clear 4"
        for seed in (0, state.turns, 2**64 - 1):
            for i in (0, 1, 17):
                assert plan.sample(S._stream(seed), i) == sample_packed(deals, seed, i)
    assert dealt_first > 5 and games > 5


def test_the_core_reads_the_pile_as_python_does() -> None:
    """Deals that read the turns on the pile (the guide's *Reading the pile*) are dealt the same by the core: every
    hand drawn again until the reader, rebuilt before each turn, would have made them, up to deals.TRIES draws, the
    best kept past that; bare takes' hands (R11) read as well, under random CUT rules."""
    assert NATIVE is not None
    read = bare = longest = 0
    for deals in reading_positions(31, 700):
        policy = native.policy(READER, deals.rules)
        plan = deals.plan()
        read += 1
        bare += bool(deals.bare)
        for seed in (0, 2**64 - 1):
            for i in (0, 3):
                assert plan.sample(S._stream(seed), i, policy) == sample_packed(deals, seed, i)
        longest = max(longest, *map(len, deals.reads.values()))
    assert read > 40 and longest >= 3 and bare > 0, (read, longest, bare)


def test_play_out_reading_the_pile_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """An analysis that reads the pile (``infer``) plays out the same matrix with or without the core."""
    deals = reading_positions(8, 300)[3]
    seen = dict(deals.view)
    moves = seen["legal"][:3]
    compiled = S.play_out(seen, READER, 4, [0, 2, 11], moves, infer=True)
    monkeypatch.setattr(native, "NATIVE", None)
    assert S.play_out(seen, READER, 4, [0, 2, 11], moves, infer=True) == compiled


def test_the_core_reads_remembered_turns_as_python_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns a seat remembers from before the pile's last clear are read the same by the core, sample for sample,
    and an analysis reading them plays out the same matrix on both paths."""
    assert NATIVE is not None
    found = remembering_positions(5, 40)
    reader, beyond = S.players(READER, [0])[0], 0
    for deals in found:
        plan, policy = deals.plan(), native.policy(READER, deals.rules)
        for i in (0, 7):
            assert plan.sample(S._stream(9), i, policy) == sample_packed(deals, 9, i)
        pile = Deals({k: v for k, v in deals.view.items() if k != "memory"}, reader)
        beyond += sum(map(len, deals.reads.values())) > sum(map(len, pile.reads.values()))
    assert len(found) > 30 and beyond > 10, (len(found), beyond)
    seen = dict(found[len(found) // 2].view)
    moves = seen["legal"][:3]
    compiled = S.play_out(seen, READER, 4, [0, 2, 11], moves, infer=True)
    monkeypatch.setattr(native, "NATIVE", None)
    assert S.play_out(seen, READER, 4, [0, 2, 11], moves, infer=True) == compiled


def test_a_malformed_read_is_refused() -> None:
    """Reads that name no first hand or seat, tables under other rules or with another seat to move, bad counts
    or moves, and a reading plan sampled without a reader: each a ValueError that says what was wrong."""
    assert NATIVE is not None
    deals = reading_positions(5, 300)[0]
    plan = deals.plan()
    base = plan.sample("x", 0, native.policy(READER, deals.rules))[0]
    seat, turns = next(iter(deals.reads.items()))
    before, _, move = turns[0]
    j = next(j for j, (k, _) in enumerate(deals.first) if k == seat)
    first = [(hand_at(k, 0), deals.hidden_hands[k], fits or [True] * len(deals.pool)) for k, fits in deals.first]
    parts = (base, [CODES[name] for name in deals.pool], first, deals.slots)
    table, code, counts = P.pack(before), P.code_of(move), [0] * NCODES
    other = P.pack(State.deal(Rules(players=2 if deals.rules.players > 2 else 3), 1))
    elsewhere = [*table[:13], (table[13] + 1) % deals.rules.players, *table[14:]]
    for reads, tries, words in [
        ([(len(first), seat, counts, [])], 64, "first hand"),
        ([(j, deals.rules.players, counts, [])], 64, "seat"),
        ([(j, seat, counts[1:], [])], 64, "18 counts"),
        ([(j, seat, [-1, *counts[1:]], [])], 64, "bad count"),
        ([(j, seat, counts, [(other, counts, code)])], 64, "other rules"),
        ([(j, seat, counts, [(elsewhere, counts, code)])], 64, "to move"),
        ([(j, seat, counts, [(table, [0, 999, *counts[2:]], code)])], 64, "bad count"),
        ([(j, seat, [0, 250, *counts[2:]], [(table, [0, 10, *counts[2:]], code)])], 64, "too many"),
        ([(j, seat, counts, [(table, counts, -1)])], 64, "out of range"),
        ([(j, seat, counts, []), (j, seat, counts, [])], 64, "two reads"),
        ([], 0, "tries"),
    ]:
        with pytest.raises(ValueError, match=words):
            NATIVE.Deals(*parts, reads, tries)
    with pytest.raises(ValueError, match="the policy that reads them"):
        plan.sample("x", 0)


def test_a_clear4_deal_is_the_same_on_the_core() -> None:
    """R22: Clear 4's three-card stacks, face down below and face up on top, are dealt the same."""
    rules = Rules.from_preset("Clear 4", players=4)
    for seed in range(4):
        state = State.deal(rules, seed)
        deals = Deals(view(state, state.turn))
        for i in range(5):
            assert deals.plan().sample(S._stream(seed), i) == sample_packed(deals, seed, i)


@pytest.mark.parametrize("seed", [3, 8])
def test_play_out_is_the_same_under_random_rules(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """play_out on the core (the samples dealt there too) gives the Python path's matrix under random rules."""
    state = next(s for s, _ in ai_play(seed, 60) if s.turns >= 5 and len(s.legal_moves()) > 1)
    seen, moves = view(state, state.turn), [str(m) for m in state.legal_moves()[:3]]
    compiled = S.play_out(seen, "Expert:Balanced", seed, [0, 4, 9], moves)
    monkeypatch.setattr(native, "NATIVE", None)
    assert S.play_out(seen, "Expert:Balanced", seed, [0, 4, 9], moves) == compiled


def test_an_analysis_is_the_same_with_or_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole analysis on a rollout budget: every move's figures, verdicts and rollouts equal, bit for bit."""
    state = next(s for s, _ in ai_play(21, 80) if s.turns >= 4 and len(s.legal_moves()) > 2)
    seen = view(state, state.turn)
    compiled = run.analyse(seen, seconds=None, seed=5, max_rollouts=120, aim="gaps")
    monkeypatch.setattr(native, "NATIVE", None)
    pure = run.analyse(seen, seconds=None, seed=5, max_rollouts=120, aim="gaps")
    assert compiled.moves == pure.moves and compiled.rollouts == pure.rollouts
    assert compiled.search is not None and pure.search is not None
    assert compiled.search.results == pure.search.results


def test_a_view_held_is_its_own_copy() -> None:
    """The deals kept for a view do not change when the caller's view does: a later call with the changed view is
    another position."""
    state = next(s for s, _ in ai_play(2, 40) if s.turns >= 4)
    seen = view(state, state.turn)
    deals = S._deals(seen, None)
    assert S._deals(dict(seen), None) is deals
    seen["turns"] += 1
    assert S._deals(seen, None) is not deals and deals.view["turns"] == seen["turns"] - 1


def test_a_malformed_plan_or_call_is_refused() -> None:
    """Plans with a bad position, bad codes, places outside the position or the wrong number of places, and calls
    with bad samples, rules or seats: each a ValueError or TypeError that says what was wrong."""
    assert NATIVE is not None
    state = next(s for s, _ in ai_play(5, 30) if s.turns >= 3 and len(s.legal_moves()) > 1)
    deals = Deals(view(state, state.turn))
    plan = deals.plan()
    base, pool = plan.sample("x", 0)[0], [1] * len(deals.pool)
    slots, size = list(deals.slots), len(base)
    policy = native.policy("Expert:Balanced", state.rules)
    assert policy is not None
    move = P.code_of(state.legal_moves()[0])
    for args, words in [
        ((base[:5], pool, [], slots), "rules"),
        ((base, [0, *pool[1:]], [], slots), "card code 0"),
        ((base, [*pool[1:], 18], [], slots), "card code 18"),
        ((base, pool, [], slots[1:]), "places for"),
        ((base, pool, [], [*slots[:-1], (size - 1, True)]), "slot is outside"),
        ((base, pool, [], [*slots[:-1], (-1, False)]), "slot is outside"),
        ((base, pool, [], [*slots[:-1], (2**63 - 1, True)]), "slot is outside"),
        ((base, pool, [(2**63 - 1, 1, [True] * len(pool))], slots[1:]), "place is outside"),
        ((base, pool, [(hand_at(0, 0), 1, [True])], slots[1:]), "fits name"),
        ((base, pool, [(size, 1, [True] * len(pool))], slots[1:]), "place is outside"),
        ((base, pool, [(hand_at(0, 0), -1, [True] * len(pool))], slots), "count -1"),
    ]:
        with pytest.raises(ValueError, match=words):
            NATIVE.Deals(*args)
    with pytest.raises(TypeError):
        NATIVE.Deals(base, ["A"], [], slots)  # type: ignore[list-item]
    with pytest.raises(TypeError):
        plan.sample("x", "0")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="larger"):  # a first hand with more cards than fit
        NATIVE.Deals(base, pool, [(hand_at(0, 0), 1, [False] * len(pool))], slots[1:]).sample("x", 0)
    tight = [*slots[:-1], (P.stack_at(0, 0, 0), False)]  # a card where no stack is: the position refused
    with pytest.raises(ValueError):
        NATIVE.sampled_rollouts(policy, NATIVE.Deals(base, pool, [], tight), "x", [0], [move], state.turn)
    other = native.policy("Expert:Balanced", Rules(players=2 if state.players > 2 else 3))
    assert other is not None
    for used, moves, seat, words in [
        (other, [move], state.turn, "other rules"),
        (policy, [move], state.players, "seat"),
        (policy, [-1], state.turn, "out of range"),
    ]:
        with pytest.raises(ValueError, match=words):
            NATIVE.sampled_rollouts(used, plan, "x", [0], moves, seat)
    assert NATIVE.sampled_rollouts(policy, plan, "x", [], [move], state.turn) == [[]]


def mangled_plans() -> st.SearchStrategy[tuple[Any, ...]]:
    """A real plan's parts with one of them broken: a number changed, a slot moved, a first hand added, the slots
    cut short, a part replaced by anything."""
    state = State.deal(Rules(players=3), 4)
    deals = Deals(view(state, state.turn))
    base = deals.plan().sample("x", 0)[0]
    parts: tuple[Any, ...] = (base, [CODES[name] for name in deals.pool], [], deals.slots)
    numbers = st.one_of(st.integers(-3, 700), st.sampled_from([2**31, 2**63 - 1, -(2**63), 2**64]))

    def changed(part: Sequence[Any], at: int, value: Any) -> list[Any]:
        return [*part[:at], value, *part[at + 1 :]]

    return st.one_of(
        st.builds(lambda i, v: (changed(base, i % len(base), v), *parts[1:]), st.integers(0), numbers),
        st.builds(lambda i, v: (base, changed(parts[1], i % len(parts[1]), v), *parts[2:]), st.integers(0), numbers),
        st.builds(lambda i, a, c: (*parts[:3], changed(parts[3], i % len(parts[3]), (a, c))),
                  st.integers(0), numbers, st.booleans()),
        st.builds(lambda a, n, f: (*parts[:2], [(a, n, f)], parts[3][n:] if 0 <= n <= len(parts[3]) else []),
                  numbers, numbers, st.lists(st.booleans(), min_size=len(parts[1]) - 1, max_size=len(parts[1]) + 1)),
        st.builds(lambda n: (*parts[:3], parts[3][:n]), st.integers(0, len(parts[3]))),
        st.builds(lambda v: (v, *parts[1:]), values),
        st.builds(lambda v: (*parts[:3], v), values),
    )  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(plan=mangled_plans(), i=st.one_of(st.integers(-5, 10**6), values))
def test_a_mangled_plan_is_refused_or_deals_a_valid_position(plan: tuple[Any, ...], i: Any) -> None:
    """Whatever the parts, the core refuses with a Python exception or deals; a dealt sample is played out only if
    it is a position the engine accepts (else that too is refused). Run under the sanitizers as well."""
    assert NATIVE is not None
    try:
        made = NATIVE.Deals(*plan)
        start, seeds = made.sample("analysis:1:", i)
    except (TypeError, ValueError, OverflowError):
        return
    assert len(start) == len(plan[0]) and all(0 <= s < 2**32 for s in seeds)
    state = State.deal(Rules(players=3), 4)
    policy = native.policy("Expert:Balanced", state.rules)
    assert policy is not None
    with contextlib.suppress(TypeError, ValueError, OverflowError):
        NATIVE.sampled_rollouts(policy, made, "analysis:1:", [i], [P.code_of(state.legal_moves()[0])], state.turn)
