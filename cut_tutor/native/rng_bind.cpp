// cut_tutor._native.Random: the compiled generator seen from Python, so its numbers and its state can be
// compared with random.Random and handed across in both directions. Every argument is checked here and a
// wrong one raises TypeError, ValueError or OverflowError; the generator is unchanged when a call fails.
#include <pybind11/pybind11.h>

#include <climits>
#include <stdexcept>
#include <cstdint>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "rng.hpp"
#include "rng_py.hpp"

namespace py = pybind11;

namespace {

using cut_tutor::Random;
using cut_tutor::seed_key;

std::string type_name(py::handle value) { return Py_TYPE(value.ptr())->tp_name; }

// An int, or anything with __index__, as Python's operator.index gives it; TypeError otherwise.
py::int_ as_index(py::handle value, const char* what) {
    PyObject* index = PyNumber_Index(value.ptr());
    if (index == nullptr) {
        PyErr_Clear();
        throw py::type_error(std::string(what) + " must be an int, not " + type_name(value));
    }
    return py::reinterpret_steal<py::int_>(index);
}

}  // namespace

namespace cut_tutor {

std::vector<std::uint32_t> seed_key(py::handle seed) {
    if (PyUnicode_Check(seed.ptr())) {
        Py_ssize_t size = 0;
        const char* utf8 = PyUnicode_AsUTF8AndSize(seed.ptr(), &size);
        if (utf8 == nullptr) {  // a lone surrogate: str.encode() refuses it too
            PyErr_Clear();
            throw py::value_error("a str seed must encode to UTF-8, as random.Random encodes it");
        }
        return Random::text_key(std::string(utf8, static_cast<std::size_t>(size)));
    }
    if (!PyLong_Check(seed.ptr())) {
        throw py::type_error("a seed must be an int or a str (or a state from getstate()), not " + type_name(seed));
    }
    py::int_ magnitude = py::reinterpret_steal<py::int_>(PyNumber_Absolute(seed.ptr()));
    auto bits = magnitude.attr("bit_length")().cast<std::size_t>();
    std::size_t words = (bits + 31) / 32;
    auto raw = magnitude.attr("to_bytes")(words * 4, "little").cast<std::string>();
    std::vector<std::uint32_t> key(words);
    for (std::size_t i = 0; i < raw.size(); i++) {
        key[i / 4] |= static_cast<std::uint32_t>(static_cast<unsigned char>(raw[i])) << (8 * (i % 4));
    }
    return key;
}

py::tuple state_to_python(const Random& rng) {
    Random::State state = rng.getstate();
    py::tuple internal(Random::N + 1);
    for (int i = 0; i < Random::N; i++) internal[i] = py::int_(state.words[i]);
    internal[Random::N] = py::int_(state.index);
    py::object gauss_next = state.gauss_next ? py::object(py::float_(*state.gauss_next)) : py::object(py::none());
    return py::make_tuple(3, internal, gauss_next);
}

Random::State state_from_python(py::handle value) {
    if (!PyTuple_Check(value.ptr())) {
        throw py::type_error("a state must be the tuple getstate() returns, not " + type_name(value));
    }
    auto outer = py::reinterpret_borrow<py::tuple>(value);
    if (outer.size() != 3) {
        throw py::value_error("a state must be (version, internal state, gauss_next), got a tuple of " +
                              std::to_string(outer.size()) + " items");
    }
    py::handle version = outer[0];
    int version_overflow = 0;
    if (!PyLong_Check(version.ptr()) || PyLong_AsLongLongAndOverflow(version.ptr(), &version_overflow) != 3 ||
        version_overflow != 0) {
        throw py::value_error("only version 3 states (random.Random's) are supported, got version " +
                              py::repr(version).cast<std::string>());
    }
    if (!PyTuple_Check(outer[1].ptr())) {
        throw py::type_error("the internal state must be a tuple, not " + type_name(outer[1]));
    }
    auto internal = py::reinterpret_borrow<py::tuple>(outer[1]);
    if (internal.size() != Random::N + 1) {
        throw py::value_error("the internal state must hold 625 ints (624 words and an index), got " +
                              std::to_string(internal.size()));
    }
    Random::State state;
    for (int i = 0; i <= Random::N; i++) {
        py::handle item = internal[i];
        if (!PyLong_Check(item.ptr())) {
            throw py::type_error("the internal state holds ints only; item " + std::to_string(i) + " is " +
                                 type_name(item));
        }
        int overflow = 0;
        long long number = PyLong_AsLongLongAndOverflow(item.ptr(), &overflow);
        long long limit = i < Random::N ? 0xFFFFFFFFLL : Random::N;
        if (overflow != 0 || number < 0 || number > limit) {
            throw py::value_error(i < Random::N ? "word " + std::to_string(i) + " of the state is not in 0..2**32-1"
                                                : std::string("the state's index is not in 0..624"));
        }
        if (i < Random::N) {
            state.words[i] = static_cast<std::uint32_t>(number);
        } else {
            state.index = static_cast<int>(number);
        }
    }
    py::handle gauss_next = outer[2];
    if (PyFloat_Check(gauss_next.ptr())) {
        state.gauss_next = PyFloat_AsDouble(gauss_next.ptr());
    } else if (!gauss_next.is_none()) {
        throw py::type_error("gauss_next must be None or a float, not " + type_name(gauss_next));
    }
    return state;
}

Random random_from_python(py::handle seed_or_state) {
    if (PyTuple_Check(seed_or_state.ptr())) return Random(state_from_python(seed_or_state));
    return Random(seed_key(seed_or_state));
}

}  // namespace cut_tutor

namespace {

py::int_ getrandbits(Random& rng, py::handle k_value) {
    py::int_ k_int = as_index(k_value, "the number of bits");
    int overflow = 0;
    long long k = PyLong_AsLongLongAndOverflow(k_int.ptr(), &overflow);
    if (overflow < 0 || (overflow == 0 && k < 0)) throw py::value_error("number of bits must be non-negative");
    if (overflow > 0 || k > INT_MAX) throw std::overflow_error("number of bits must be below 2**31");
    std::vector<std::uint32_t> words = rng.getrandbits_words(static_cast<std::size_t>(k));
    std::string raw(words.size() * 4, '\0');
    for (std::size_t i = 0; i < raw.size(); i++) raw[i] = static_cast<char>(words[i / 4] >> (8 * (i % 4)));
    return py::int_(py::module_::import("builtins").attr("int").attr("from_bytes")(py::bytes(raw), "little"));
}

std::uint64_t positive_bound(py::handle n_value, const char* what) {
    py::int_ n = as_index(n_value, what);
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
    if (overflow < 0 || (overflow == 0 && small <= 0)) throw py::value_error("empty range for randrange()");
    unsigned long long bound = PyLong_AsUnsignedLongLong(n.ptr());
    if (bound == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        throw std::overflow_error(std::string(what) + " must be below 2**64 in the compiled core");
    }
    return bound;
}

py::list sample(Random& rng, py::handle population, py::handle k_value) {
    py::object sequence_abc = py::module_::import("collections.abc").attr("Sequence");
    if (!py::isinstance(population, sequence_abc)) {
        throw py::type_error("Population must be a sequence.  For dicts or sets, use sorted(d).");
    }
    Py_ssize_t n = PyObject_Length(population.ptr());
    if (n < 0) throw py::error_already_set();
    py::int_ k_int = as_index(k_value, "k");
    int overflow = 0;
    long long k = PyLong_AsLongLongAndOverflow(k_int.ptr(), &overflow);
    if (overflow != 0 || k < 0 || k > n) throw py::value_error("Sample larger than population or is negative");
    py::list result;
    for (std::size_t i : rng.sample_indices(static_cast<std::size_t>(n), static_cast<std::size_t>(k))) {
        result.append(population[py::int_(i)]);
    }
    return result;
}

}  // namespace

void bind_rng(py::module_& m) {
    py::class_<Random>(m, "Random", "CPython's random.Random, compiled: the same numbers and state for a seed.")
        .def(py::init(&cut_tutor::random_from_python), py::arg("seed"),
             "Seeded like random.Random(seed) from an int or a str, or set from a state random.Random().getstate() gave.")
        .def("seed", [](Random& rng, py::handle seed) { rng.seed(seed_key(seed)); }, py::arg("seed"))
        .def("getstate", &cut_tutor::state_to_python)
        .def("setstate", [](Random& rng, py::handle state) { rng.setstate(cut_tutor::state_from_python(state)); }, py::arg("state"))
        .def("random", &Random::random)
        .def("getrandbits", &getrandbits, py::arg("k"))
        .def("randrange", [](Random& rng, py::handle n) { return rng.randrange(positive_bound(n, "randrange()'s argument")); },
             py::arg("n"))
        .def(
            "shuffle",
            [](Random& rng, py::handle x) {
                if (!PyList_Check(x.ptr())) throw py::type_error("shuffle() takes a list, not " + type_name(x));
                auto items = py::reinterpret_borrow<py::list>(x);
                for (std::size_t i = items.size(); i-- > 1;) {
                    auto j = static_cast<std::size_t>(rng.randbelow(i + 1));
                    py::object held = items[i];
                    items[i] = items[j];
                    items[j] = held;
                }
            },
            py::arg("x"))
        .def(
            "choice",
            [](Random& rng, py::handle seq) {
                Py_ssize_t n = PyObject_Length(seq.ptr());
                if (n < 0) throw py::error_already_set();
                if (n == 0) throw py::index_error("Cannot choose from an empty sequence");
                if (!PyMapping_Check(seq.ptr())) {  // refused before drawing, so the generator stays as it was
                    throw py::type_error("choice() takes a sequence, not " + type_name(seq));
                }
                return py::object(seq[py::int_(rng.randbelow(static_cast<std::uint64_t>(n)))]);
            },
            py::arg("seq"))
        .def("sample", &sample, py::arg("population"), py::arg("k"))
        .def("gauss", &Random::gauss, py::arg("mu") = 0.0, py::arg("sigma") = 1.0);
}
