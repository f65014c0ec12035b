// What module.cpp calls to fill the cut_tutor._native module, one function per part of the compiled core.
#pragma once

#include <pybind11/pybind11.h>

void bind_rng(pybind11::module_& m);
void bind_engine(pybind11::module_& m);
void bind_coach(pybind11::module_& m);
