"""The compiled generator (``cut_tutor._native.Random``) against CPython's ``random.Random``: the same numbers,
compared with ``==``, and the same state after, for many seeds; a state handed across either way mid-stream
carries on identically. The compiled core and the Python path must agree bit for bit for a seed."""

from __future__ import annotations

import math
import random

import pytest

from cut_tutor.compiled import ACTIVE, NATIVE

if NATIVE is None:
    pytest.skip(f"the compiled core is not in use here: {ACTIVE}", allow_module_level=True)

Native = NATIVE.Random

SEEDS = [0, 1, 2, 42, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**64 - 1, 2**64, 2**64 + 7, 3**200,
         -1, -42, -(2**32), -(2**64) - 3, 123456789012345678901234567890]  # fmt: skip


def pair(seed: int) -> tuple[random.Random, Native]:
    return random.Random(seed), Native(seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seed_gives_the_same_state_and_floats(seed: int) -> None:
    python, native = pair(seed)
    assert native.getstate() == python.getstate()
    assert [native.random() for _ in range(2000)] == [python.random() for _ in range(2000)]
    assert native.getstate() == python.getstate()


def test_many_seeds() -> None:
    for seed in [*range(-300, 300), *(random.Random(7).getrandbits(bits) for bits in range(1, 300))]:
        python, native = pair(seed)
        assert native.getstate() == python.getstate(), seed
        assert native.random() == python.random(), seed


def test_reseeding_resets_the_state_and_the_pending_gauss() -> None:
    python, native = pair(5)
    python.gauss()
    native.gauss()
    python.seed(99)
    native.seed(99)
    assert native.getstate() == python.getstate() and python.getstate()[2] is None


@pytest.mark.parametrize("seed", SEEDS[:8])
def test_getrandbits_for_every_width(seed: int) -> None:
    python, native = pair(seed)
    widths = [*range(0, 140), 191, 192, 193, 1000, 4096, 4097]
    assert [native.getrandbits(k) for k in widths * 3] == [python.getrandbits(k) for k in widths * 3]
    assert native.getstate() == python.getstate()


@pytest.mark.parametrize("seed", SEEDS[:6])
def test_randrange(seed: int) -> None:
    python, native = pair(seed)
    bounds = [*range(1, 300), 2**31, 2**32 - 1, 2**32, 2**32 + 1, 10**15, 2**53 + 1, 2**63, 2**64 - 1]
    assert [native.randrange(n) for n in bounds * 2] == [python.randrange(n) for n in bounds * 2]
    assert native.getstate() == python.getstate()


@pytest.mark.parametrize("seed", SEEDS[:6])
def test_shuffle_of_every_length(seed: int) -> None:
    python, native = pair(seed)
    for length in [*range(0, 120), 500, 5000]:
        expected, got = list(range(length)), list(range(length))
        python.shuffle(expected)
        native.shuffle(got)
        assert got == expected, length
    assert native.getstate() == python.getstate()


def test_shuffle_keeps_the_objects() -> None:
    items = [object() for _ in range(52)]
    python, native = list(items), list(items)
    random.Random(3).shuffle(python)
    Native(3).shuffle(native)
    assert all(a is b for a, b in zip(python, native, strict=True))


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_choice(seed: int) -> None:
    python, native = pair(seed)
    for length in range(1, 200):
        assert native.choice(range(length)) == python.choice(range(length))
    assert native.choice("CUT") == python.choice("CUT") and native.choice((7,)) == 7 == python.choice((7,))
    assert native.getstate() == python.getstate()


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_sample_both_branches(seed: int) -> None:
    """Every (n, k) for small n, then sizes either side of CPython's set-or-pool threshold (21 + 4**ceil(log4 3k))."""
    python, native = pair(seed)
    cases = [(n, k) for n in range(0, 40) for k in range(0, n + 1)]
    cases += [(n, k) for k in (6, 7, 21, 22, 85, 86, 300) for n in range(k, k + 4000, 97)]
    cases += [(21 + 4**3, 6), (22 + 4**3, 6), (21 + 4**4, 22), (22 + 4**4, 22), (10**6, 1000)]
    pooled = [n <= 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0) for n, k in cases]
    assert 100 < sum(pooled) < len(cases) - 100, "both branches, many times each"
    for n, k in cases:
        assert native.sample(range(n), k) == python.sample(range(n), k), (n, k)
    assert native.getstate() == python.getstate()


def test_sample_takes_any_sequence_and_keeps_it() -> None:
    cards = ["A", "K", "Q", "J", "10"] * 3
    python, native = pair(11)
    assert native.sample(cards, 9) == python.sample(cards, 9)
    assert native.sample(tuple(cards), 4) == python.sample(tuple(cards), 4)
    assert native.sample("ABCDEFG", 3) == python.sample("ABCDEFG", 3)
    assert cards == ["A", "K", "Q", "J", "10"] * 3


@pytest.mark.parametrize("seed", SEEDS)
def test_gauss_sequences(seed: int) -> None:
    python, native = pair(seed)
    args = [(0.0, 1.0), (1.5, 0.25), (-3.0, 7.0), (0.0, 0.0), (2.0, -1.0)]
    for mu, sigma in args * 201:
        assert native.gauss(mu, sigma) == python.gauss(mu, sigma)
        assert native.getstate() == python.getstate()
    assert native.gauss() == python.gauss()


def test_state_handed_across_mid_stream_with_a_pending_gauss() -> None:
    python = random.Random(2024)
    for _ in range(700):  # past one regeneration of the 624 words
        python.random()
    python.gauss()
    state = python.getstate()
    assert isinstance(state[2], float)  # a gauss is pending
    native = Native(state)
    assert native.getstate() == state
    assert native.gauss() == python.gauss()
    assert [native.random() for _ in range(50)] == [python.random() for _ in range(50)]
    native.gauss()
    back = random.Random()
    back.setstate(native.getstate())  # and back from the core to Python
    python.gauss()
    assert back.getstate() == python.getstate()
    assert [back.gauss() for _ in range(11)] == [python.gauss() for _ in range(11)]


def test_setstate_replaces_everything() -> None:
    python = random.Random(8)
    python.getrandbits(5)
    native = Native(1)
    native.gauss()
    native.setstate(python.getstate())
    assert native.getstate() == python.getstate()
    assert native.sample(range(100), 10) == python.sample(range(100), 10)
