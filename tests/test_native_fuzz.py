"""Malformed arguments to every entry point of the compiled generator: each raises a Python exception that says what
was wrong (never a crash) and leaves the generator as it was; whatever the core accepts, it answers as CPython does.
Run under the sanitizers too (``make test-native-sanitized``), where a memory error would stop the run."""

from __future__ import annotations

import contextlib
import math
import random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cut_tutor.compiled import ACTIVE, NATIVE

if NATIVE is None:
    pytest.skip(f"the compiled core is not in use here: {ACTIVE}", allow_module_level=True)

Native = NATIVE.Random
#: What a wrong argument may raise (KeyError: ``choice`` of a mapping, as CPython).
REFUSALS = (TypeError, ValueError, OverflowError, IndexError, KeyError)
FUZZ = settings(max_examples=300, deadline=None)

EDGE_INTS = [0, 1, -1, 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63, 2**64 - 1, 2**64, 2**100, -(2**64), -(2**100)]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-300, 300), st.sampled_from(EDGE_INTS), st.floats(), st.text(max_size=5),
    st.binary(max_size=5), st.complex_numbers(max_magnitude=10),
)  # fmt: skip


def containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists, tuples, dicts and frozensets of ``inner``: sequences and things that only look like them."""
    items = st.lists(inner, max_size=6)
    mappings = st.dictionaries(st.integers(-3, 3), inner, max_size=3)
    return st.one_of(items, items.map(tuple), mappings, st.frozensets(st.integers(), max_size=3))


values = st.recursive(scalars, containers, max_leaves=12)


def valid_state(seed: int = 7) -> tuple[Any, ...]:
    python = random.Random(seed)
    python.gauss()
    return python.getstate()


def mangled_states() -> st.SearchStrategy[Any]:
    """A real state with one part broken: length, a word, the index, gauss_next, the version, the types."""
    version, internal, gauss_next = valid_state()
    word = st.integers(0, 623)
    return st.one_of(
        values,
        st.builds(lambda v: (v, internal, gauss_next), values),
        st.builds(lambda v: (version, v, gauss_next), values),
        st.builds(lambda v: (version, internal, v), values.filter(lambda v: not isinstance(v, float))),
        st.builds(lambda i, v: (version, (*internal[:i], v, *internal[i + 1 :]), gauss_next),
                  word, st.one_of(st.sampled_from([-1, 2**32, 2**64, 2**100, 1.0, "1", None]), values)),
        st.builds(lambda v: (version, (*internal[:624], v), gauss_next),
                  st.one_of(st.sampled_from([-1, 625, 2**63, 624.0]), values)),
        st.builds(lambda n: (version, internal[:n], gauss_next), st.integers(0, 624)),
        st.just((version, (*internal, 0), gauss_next)),
        st.just([version, internal, gauss_next]),
        st.just((version, list(internal), gauss_next)),
        st.just((version, internal, gauss_next, None)),
    )  # fmt: skip


def refused_or_same(call: Any, *args: Any) -> Any:
    """Call the core with ``args``: it answers, or refuses with a Python exception and its state unchanged."""
    native = Native(valid_state())
    before = native.getstate()
    try:
        return getattr(native, call)(*args)
    except REFUSALS as error:
        assert str(error), f"{call}{args!r} refused without saying why"
        if not isinstance(error, KeyError):
            assert native.getstate() == before, f"{call}{args!r} changed the generator before refusing"
        return error


@FUZZ
@given(state=mangled_states())
def test_a_broken_state_is_refused_whole(state: Any) -> None:
    outcome = refused_or_same("setstate", state)
    if not isinstance(outcome, Exception):  # accepted: then CPython accepts it too and reads it the same
        python = random.Random()
        python.setstate(state)
        native = Native(state)
        assert native.getstate() == python.getstate() and native.gauss() == python.gauss()
    if not isinstance(state, int):  # an int is a seed to the constructor; anything else, a state read as setstate does
        with pytest.raises(REFUSALS) if isinstance(outcome, Exception) else contextlib.nullcontext():
            Native(state)


@FUZZ
@given(seed=values)
def test_any_seed(seed: Any) -> None:
    try:
        native = Native(seed)
    except (TypeError, ValueError, OverflowError) as error:
        assert "seed" in str(error) or "state" in str(error), error
        return
    assert isinstance(seed, (int, str)) and native.getstate() == random.Random(seed).getstate()


@FUZZ
@given(call=st.sampled_from(["getrandbits", "randrange", "shuffle", "choice", "seed"]), arg=values)
@example(call="choice", arg=[math.nan])
def test_one_argument_calls(call: str, arg: Any) -> None:
    shuffled = list(arg) if isinstance(arg, list) else arg
    outcome = refused_or_same(call, shuffled)
    if isinstance(outcome, Exception) or call == "seed":
        return
    python = random.Random()
    python.setstate(valid_state())
    if call == "shuffle":
        expected = list(arg)
        python.shuffle(expected)
        assert shuffled == expected
    else:
        # compared as list elements, where the very object chosen is equal to itself (a nan included)
        assert [outcome] == [getattr(python, call)(arg)]


@FUZZ
@given(population=values, k=values)
def test_sample(population: Any, k: Any) -> None:
    outcome = refused_or_same("sample", population, k)
    if not isinstance(outcome, Exception):
        python = random.Random()
        python.setstate(valid_state())
        assert outcome == python.sample(population, k)


@FUZZ
@given(mu=values, sigma=values)
def test_gauss(mu: Any, sigma: Any) -> None:
    outcome = refused_or_same("gauss", mu, sigma)
    if not isinstance(outcome, Exception):
        python = random.Random()
        python.setstate(valid_state())
        expected = python.gauss(mu, sigma)
        assert outcome == expected or (outcome != outcome and expected != expected)  # NaN in, NaN out


@pytest.mark.parametrize(
    ("call", "args", "error", "words"),
    [("getrandbits", (-1,), ValueError, "non-negative"), ("getrandbits", (2**31,), OverflowError, "2**31"),
     ("getrandbits", (1.5,), TypeError, "must be an int"), ("randrange", (0,), ValueError, "empty range"),
     ("randrange", (-5,), ValueError, "empty range"), ("randrange", (2**64,), OverflowError, "2**64"),
     ("randrange", ("7",), TypeError, "must be an int"), ("shuffle", ((1, 2),), TypeError, "list"),
     ("choice", ([],), IndexError, "empty"), ("choice", (5,), TypeError, "len"),
     ("sample", ({1, 2}, 1), TypeError, "sequence"), ("sample", ([1, 2], 3), ValueError, "larger"),
     ("sample", ([1, 2], -1), ValueError, "negative"), ("sample", ([1, 2], 2**70), ValueError, "larger"),
     ("sample", ([1, 2], None), TypeError, "must be an int"), ("gauss", ("a", 1.0), TypeError, "incompatible"),
     ("setstate", ((2, (0,) * 625, None),), ValueError, "version 3"),
     ("setstate", ((3, (0,) * 624, None),), ValueError, "625"),
     ("setstate", ((3, (2**32,) + (0,) * 624, None),), ValueError, "word 0"),
     ("setstate", ((3, (0,) * 624 + (625,), None),), ValueError, "index"),
     ("setstate", ((3, (0,) * 625, "x"),), TypeError, "gauss_next"), ("seed", (1.0,), TypeError, "int")],
)  # fmt: skip
def test_the_messages_say_what_was_wrong(call: str, args: tuple[Any, ...], error: type[Exception], words: str) -> None:
    native = Native(3)
    before = native.getstate()
    with pytest.raises(error, match=words.replace("*", r"\*")):
        getattr(native, call)(*args)
    assert native.getstate() == before
