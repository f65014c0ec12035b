// The generator's seeds and states as Python writes them, for every part of the compiled core that takes a
// generator from Python or hands one back (defined in rng_bind.cpp). A Python caller may also pass a
// _native.Random itself: it converts to cut_tutor::Random& in any bound function.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

#include "rng.hpp"

namespace cut_tutor {

// The 32-bit words random.Random.seed makes of an int (abs(seed), least significant first) or of a str (its
// UTF-8 bytes and their SHA-512); TypeError for any other seed.
std::vector<std::uint32_t> seed_key(pybind11::handle seed);

// The state as random.Random().getstate() returns it: (3, (624 words..., index), gauss_next or None).
pybind11::tuple state_to_python(const Random& rng);

// A state random.Random().getstate() returned, checked whole before any of it is used (TypeError or ValueError
// saying which part is wrong).
Random::State state_from_python(pybind11::handle state);

// A generator seeded from an int, or set from such a state.
Random random_from_python(pybind11::handle seed_or_state);

}  // namespace cut_tutor
