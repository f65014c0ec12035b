// The compiled core of cut_tutor: the extension module cut_tutor._native (cut_tutor/compiled.py loads it).
#include <pybind11/pybind11.h>

#include "bindings.hpp"

PYBIND11_MODULE(_native, m) {
    m.doc() = "The compiled core of cut_tutor: the same numbers as the Python path, faster.";
    bind_rng(m);
    bind_engine(m);
    bind_coach(m);
}
