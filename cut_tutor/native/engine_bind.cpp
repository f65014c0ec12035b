// The engine's Python face: whole positions in, whole results out, so one call crosses the boundary once.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "engine.hpp"
#include "rng.hpp"

namespace py = pybind11;
using namespace cut_native;

namespace {

struct Position {
    Rules rules;
    State state;
};

Position read(const std::vector<int64_t>& packed) {
    Position p;
    p.rules = rules_from(packed);
    p.state = state_from(p.rules, packed);
    return p;
}

std::vector<int64_t> codes(const Moves& moves) {
    std::vector<int64_t> out;
    out.reserve(moves.size());
    for (const Move& m : moves) out.push_back(static_cast<int64_t>(m.code));
    return out;
}

std::vector<int64_t> legal(const std::vector<int64_t>& packed) {
    Position p = read(packed);
    Moves moves;
    legal_moves(p.rules, p.state, moves);
    return codes(moves);
}

std::vector<int64_t> successor(const std::vector<int64_t>& packed, int64_t code) {
    Position p = read(packed);
    Move move = move_of(code);
    Moves moves;
    legal_moves(p.rules, p.state, moves);
    for (const Move& m : moves)
        if (m.code == move.code) {
            apply(p.rules, p.state, move);
            return pack_state(p.rules, p.state);
        }
    throw std::invalid_argument("move code " + std::to_string(code) + " is not a legal move in this position" +
                                (p.state.over() ? " (the hand is over)" : ""));
}

uint64_t count(const std::vector<int64_t>& packed, int depth) {
    if (depth < 0 || depth > 12) throw std::invalid_argument("perft depth " + std::to_string(depth) + " is not from 0 to 12");
    Position p = read(packed);
    py::gil_scoped_release free;
    return perft(p.rules, p.state, depth);
}

// Random-policy playouts: rows of each seat's score, the seat that went out (-1: stalemate) and the decisions made;
// ``rng`` (a compiled random.Random) is left where the Python path would leave its generator.
std::vector<std::vector<int64_t>> playouts(const std::vector<int64_t>& packed, int64_t count, cut_tutor::Random& rng) {
    if (count < 0) throw std::invalid_argument("playout count " + std::to_string(count) + " is negative");
    Position p = read(packed);
    std::vector<Playout> done;
    cut_tutor::Random own = rng;  // played without the GIL on a copy, so no other thread sees it half-way
    {
        py::gil_scoped_release free;
        done = random_playouts(p.rules, p.state, count, [&own](uint64_t n) { return own.randbelow(n); });
    }
    rng = own;
    std::vector<std::vector<int64_t>> rows;
    rows.reserve(done.size());
    for (Playout& one : done) {
        one.scores.push_back(one.winner);
        one.scores.push_back(one.decisions);
        rows.push_back(std::move(one.scores));
    }
    return rows;
}

}  // namespace

void bind_engine(py::module_& m) {
    py::module_ e = m.def_submodule("engine", "The rules engine (CUT and Clear 4) on packed positions.");
    e.def("legal_moves", &legal, py::arg("position"),
          "The legal moves of a packed position as move codes, in the reference engine's order.");
    e.def("successor", &successor, py::arg("position"), py::arg("move"),
          "The packed position after a legal move; ValueError for a move that is not legal there.");
    e.def("perft", &count, py::arg("position"), py::arg("depth"),
          "Move sequences of ``depth`` decisions from a packed position; a finished hand is one leaf.");
    e.def("random_playouts", &playouts, py::arg("position"), py::arg("count"), py::arg("rng"),
          "Play a packed position to its end ``count`` times, every seat choosing moves[rng.randrange(len(moves))];"
          " one row per playout: each seat's score, the seat that went out (-1: stalemate), decisions made.");
}
