// The AI seat's Python face: a Policy built once from the coach's own records (cut_tutor/analysis/native.py fills
// it), then whole positions or whole batches of rollouts per call. Every argument is checked and a bad one raises
// ValueError or TypeError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "coach.hpp"
#include "deals.hpp"

namespace py = pybind11;
using namespace cut_native;

namespace {

// A Policy with the packed rules it was built for: its Numbers and points belong to those rules.
struct PolicyObject {
    Policy policy;
    std::vector<int64_t> rules;
};

py::object field(const py::dict& d, const char* where, const char* key) {
    if (!d.contains(key)) throw py::value_error(std::string(where) + " has no field '" + key + "'");
    return d[key];
}

template <class T>
T get(const py::dict& d, const char* where, const char* key) {
    py::object value = field(d, where, key);
    try {
        return value.cast<T>();
    } catch (const py::cast_error&) {
        throw py::type_error(std::string(where) + "." + key + " has the wrong type: " +
                             std::string(py::str(py::type::of(value))));
    }
}

template <size_t N, class T>
void table(const py::dict& d, const char* where, const char* key, T (&out)[N]) {
    auto values = get<std::vector<T>>(d, where, key);
    if (values.size() != N)
        throw py::value_error(std::string(where) + "." + key + " must hold " + std::to_string(N) + " values, not " +
                              std::to_string(values.size()));
    std::copy(values.begin(), values.end(), out);
}

std::vector<int> ranks(const py::dict& d, const char* where, const char* key) {
    auto values = get<std::vector<int>>(d, where, key);
    for (int v : values)
        if (v < 1 || v >= NCODES)
            throw py::value_error(std::string(where) + "." + key + " holds a bad code " + std::to_string(v));
    return values;
}

std::shared_ptr<PolicyObject> make_policy(const std::vector<int64_t>& rules, const py::dict& level,
                                          const py::dict& style, const py::dict& constants, const py::dict& numbers) {
    auto out = std::make_shared<PolicyObject>();
    Rules r = rules_from(rules);
    out->rules.assign(rules.begin(), rules.begin() + 12);
    Policy& p = out->policy;
    p.clear4 = r.clear4;
    LevelData& l = p.level;
    l.depth = get<int>(level, "level", "depth");
    if (l.depth < 0 || l.depth > 64) throw py::value_error("level.depth must be from 0 to 64");
    l.hinder_at = get<int>(level, "level", "hinder_at");
    l.noise = get<double>(level, "level", "noise");
    l.odds_margin = get<double>(level, "level", "odds_margin");
    l.hinder = get<double>(level, "level", "hinder");
    l.line_weight = get<double>(level, "level", "line_weight");
    l.strand_weight = get<double>(level, "level", "strand_weight");
    l.clear_weight = get<double>(level, "level", "clear_weight");
    l.lead_weight = get<double>(level, "level", "lead_weight");
    l.spare_low_weight = get<double>(level, "level", "spare_low_weight");
    l.counts_cards = get<bool>(level, "level", "counts_cards");
    StyleData& s = p.style;
    s.risk_aversion = get<double>(style, "style", "risk_aversion");
    s.blind_into_pile = get<double>(style, "style", "blind_into_pile");
    s.high_pile_flip = get<double>(style, "style", "high_pile_flip");
    s.low_asset = get<double>(style, "style", "low_asset");
    s.clear_asset = get<double>(style, "style", "clear_asset");
    s.high_dump = get<double>(style, "style", "high_dump");
    s.group = get<double>(style, "style", "group");
    s.spare_clear = get<double>(style, "style", "spare_clear");
    s.take = get<double>(style, "style", "take");
    s.dump_clears_at = get<int>(style, "style", "dump_clears_at");
    s.empty_pile_flips = get<bool>(style, "style", "empty_pile_flips");
    s.high_pile_flips = get<bool>(style, "style", "high_pile_flips");
    p.per_card = get<double>(constants, "constants", "per_card");
    p.go_again = get<double>(constants, "constants", "go_again");
    p.barred = get<double>(constants, "constants", "barred");
    p.turn_cost = get<double>(constants, "constants", "turn_cost");
    p.loop_noise = get<double>(constants, "constants", "loop_noise");
    p.near_out = get<int>(constants, "constants", "near_out");
    p.long_hand = get<int>(constants, "constants", "long_hand");
    p.compensated = get<bool>(constants, "constants", "compensated");
    table(constants, "constants", "points", p.points);
    NumbersData& n = p.nums;
    n.middling = get<int>(numbers, "numbers", "middling");
    if (n.middling < 0 || n.middling >= NCODES) throw py::value_error("numbers.middling must be a code");
    n.groups = ranks(numbers, "numbers", "groups");
    n.spares = ranks(numbers, "numbers", "spares");
    table(numbers, "numbers", "shed", n.shed);
    table(numbers, "numbers", "strand", n.strand);
    table(numbers, "numbers", "is_clear", n.is_clear);
    n.board = get<double>(numbers, "numbers", "board");
    // Numbers.playable and Numbers.high, derived the same way.
    for (int top = 0; top < NCODES; ++top)
        for (int rank : n.groups) {
            if (top && rank > top) break;
            n.playable[top].emplace_back(rank, n.shed[rank]);
        }
    for (int rank : n.groups)
        if (rank > n.middling) n.high.push_back(rank);
    return out;
}

struct Position {
    Rules rules;
    State state;
};

Position read(const PolicyObject& policy, const std::vector<int64_t>& packed, const std::string& what) {
    Position p;
    p.rules = rules_from(packed);
    if (!std::equal(policy.rules.begin(), policy.rules.end(), packed.begin()))
        throw py::value_error(what + " is under other rules than the policy was built for");
    p.state = state_from(p.rules, packed);
    return p;
}

int seat_of(const Position& p, int64_t seat) {
    if (seat < 0 || seat >= p.rules.players)
        throw py::value_error("seat " + std::to_string(seat) + " is not one of the " +
                              std::to_string(p.rules.players) + " seats");
    return static_cast<int>(seat);
}

py::dict knowledge(const PolicyObject& policy, const std::vector<int64_t>& packed, int64_t which) {
    Position p = read(policy, packed, "the position");
    const int seat = seat_of(p, which);
    Moves legal;
    if (!p.state.over() && p.state.turn == seat) legal_moves(p.rules, p.state, legal);
    Knowledge k;
    know(p.rules, p.state, seat, policy.policy, legal, k);
    py::dict out;
    std::vector<int64_t> codes;
    for (const Move& m : legal) codes.push_back(static_cast<int64_t>(m.code));
    std::vector<std::vector<py::object>> stacks;
    for (int st = 0; st < STACKS; ++st) {
        std::vector<py::object> cards;
        for (int i = 0; i < k.slen[st]; ++i)
            cards.push_back(k.stacks[st][i] < 0 ? py::object(py::none()) : py::object(py::int_(k.stacks[st][i])));
        stacks.push_back(cards);
    }
    out["seat"] = k.seat;
    out["turns"] = k.turns;
    out["legal"] = codes;
    out["hand"] = std::vector<int>(k.hand, k.hand + NCODES);
    out["stacks"] = stacks;
    out["pile"] = std::vector<int>(k.pile, k.pile + k.pile_len);
    out["top"] = k.top;
    out["run"] = k.run;
    out["left"] = std::vector<int>(k.left, k.left + k.players);
    out["out_of_sight"] = std::vector<int>(k.out_of_sight, k.out_of_sight + NCODES);
    out["counted"] = std::vector<int>(k.counted, k.counted + NCODES);
    out["stack_cards"] = k.stack_cards;
    out["cards_left"] = k.cards_left;
    out["pile_points"] = k.pile_points;
    out["next_left"] = k.next_left;
    out["min_left"] = k.min_left;
    out["clears_held"] = k.clears_held;
    return out;
}

std::vector<std::pair<int64_t, double>> totals(const std::vector<Candidate>& cands) {
    std::vector<std::pair<int64_t, double>> out;
    for (const Candidate& c : cands) out.emplace_back(static_cast<int64_t>(c.move.code), c.total);
    return out;
}

// The seat to move's decision: the move, and the candidates' codes and totals as it chose from them (noise added).
std::pair<int64_t, std::vector<std::pair<int64_t, double>>> decide(const PolicyObject& policy,
                                                                   const std::vector<int64_t>& packed,
                                                                   cut_tutor::Random& rng) {
    Position p = read(policy, packed, "the position");
    if (p.state.over()) throw py::value_error("the hand is over: no seat is to move");
    Moves legal;
    legal_moves(p.rules, p.state, legal);
    if (legal.empty()) throw py::value_error("the seat to move has no legal move");
    Knowledge k;
    know(p.rules, p.state, p.state.turn, policy.policy, legal, k);
    std::vector<Candidate> scored;
    cut_tutor::Random own = rng;  // the caller's generator changes only when the call succeeds
    Move m = choose(k, policy.policy, own, scored);
    rng = own;
    return {static_cast<int64_t>(m.code), totals(scored)};
}

std::vector<std::pair<int64_t, double>> scores(const PolicyObject& policy, const std::vector<int64_t>& packed) {
    Position p = read(policy, packed, "the position");
    if (p.state.over()) throw py::value_error("the hand is over: no seat is to move");
    Moves legal;
    legal_moves(p.rules, p.state, legal);
    Knowledge k;
    know(p.rules, p.state, p.state.turn, policy.policy, legal, k);
    std::vector<Candidate> scored;
    evaluate(k, policy.policy, scored);
    return totals(scored);
}

std::vector<std::vector<std::pair<int64_t, bool>>> play(const PolicyObject& policy,
                                                        const std::vector<std::vector<int64_t>>& starts,
                                                        const std::vector<std::vector<int64_t>>& seeds,
                                                        const std::vector<int64_t>& moves, int64_t which) {
    if (seeds.size() != starts.size())
        throw py::value_error(std::to_string(seeds.size()) + " seed lists for " + std::to_string(starts.size()) +
                              " starts");
    std::vector<State> states;
    Rules rules;
    int seat = 0;
    for (size_t i = 0; i < starts.size(); ++i) {
        Position p = read(policy, starts[i], "start " + std::to_string(i));
        seat = seat_of(p, which);
        if (p.state.over()) throw py::value_error("start " + std::to_string(i) + " is a finished hand");
        if (seeds[i].size() != static_cast<size_t>(p.rules.players))
            throw py::value_error("start " + std::to_string(i) + " has " + std::to_string(seeds[i].size()) +
                                  " seeds for " + std::to_string(p.rules.players) + " seats");
        rules = p.rules;
        states.push_back(p.state);
    }
    std::vector<Move> parsed;
    for (int64_t code : moves) parsed.push_back(move_of(code));
    std::vector<std::vector<Outcome>> done;
    {
        py::gil_scoped_release free;
        done = states.empty() ? std::vector<std::vector<Outcome>>(parsed.size())
                              : rollouts(rules, states, seeds, parsed, seat, policy.policy);
    }
    std::vector<std::vector<std::pair<int64_t, bool>>> out;
    for (const auto& row : done) {
        std::vector<std::pair<int64_t, bool>> line;
        for (const Outcome& o : row) line.emplace_back(o.points, o.won);
        out.push_back(std::move(line));
    }
    return out;
}

using TurnRead = std::tuple<std::vector<int64_t>, std::vector<int>, int64_t>;
using HandRead = std::tuple<int64_t, int64_t, std::vector<int>, std::vector<TurnRead>>;

// Counts of each card code, checked: NCODES of them, none negative or past what one hand may hold.
void counts(const std::vector<int>& values, const char* what, int (&out)[NCODES]) {
    if (values.size() != NCODES)
        throw py::value_error(std::string(what) + " must hold " + std::to_string(NCODES) + " counts, not " +
                              std::to_string(values.size()));
    for (int c = 0; c < NCODES; ++c) {
        if (values[c] < 0 || values[c] > MAX_CARDS)
            throw py::value_error(std::string(what) + " holds a bad count " + std::to_string(values[c]));
        out[c] = values[c];
    }
}

// A hand's turns to read (Deals.reads), checked: which first hand, whose, the cards of it known, and each turn's
// table before it (under the plan's rules, that seat to move), the cards laid back to it and the move.
DealPlan::Read make_read(const DealPlan& plan, const std::vector<int64_t>& base, const HandRead& hand) {
    const auto& [first, seat, known, turns] = hand;
    if (first < 0 || first >= static_cast<int64_t>(plan.first.size()))
        throw py::value_error("a read names first hand " + std::to_string(first) + ", not one of the " +
                              std::to_string(plan.first.size()));
    if (seat < 0 || seat >= plan.rules.players) throw py::value_error("a read names seat " + std::to_string(seat));
    DealPlan::Read read;
    read.first = static_cast<size_t>(first);
    read.seat = static_cast<int>(seat);
    counts(known, "a read's known cards", read.known);
    int most[NCODES] = {};  // what the pool could add to the hand, at most
    for (int code : plan.pool) most[code] += 1;
    for (const auto& [before, back, move] : turns) {
        DealPlan::Turn turn;
        if (before.size() < 12 || !std::equal(base.begin(), base.begin() + 12, before.begin()))
            throw py::value_error("a read turn's table is under other rules than the plan's");
        turn.before = state_from(plan.rules, before);
        if (turn.before.over() || turn.before.turn != read.seat)
            throw py::value_error("a read turn's table does not have seat " + std::to_string(seat) + " to move");
        counts(back, "a read turn's cards laid back", turn.back);
        int held = 0;
        for (int c = 0; c < NCODES; ++c) {
            if (read.known[c] + turn.back[c] + most[c] > UINT8_MAX)
                throw py::value_error("a read turn's hand would hold too many cards of one code");
            held += read.known[c] + turn.back[c] + most[c];
        }
        if (held > MAX_CARDS) throw py::value_error("a read turn's hand would hold more cards than the decks");
        turn.move = move_of(move).code;
        read.turns.push_back(turn);
    }
    return read;
}

// A deal plan from Python's Deals (deals.py, Deals.plan), checked whole: every slot inside the position, every
// card a code, as many places as pool cards, every read's table a position of the plan's rules.
DealPlan make_plan(const std::vector<int64_t>& base, const std::vector<int>& pool,
                   const std::vector<std::tuple<int64_t, int64_t, std::vector<bool>>>& first,
                   const std::vector<std::pair<int64_t, bool>>& slots, const std::vector<HandRead>& reads,
                   int64_t tries) {
    DealPlan plan;
    plan.rules = rules_from(base);
    if (tries < 1 || tries > 4096) throw py::value_error("tries must be from 1 to 4096, not " + std::to_string(tries));
    plan.tries = static_cast<int>(tries);
    plan.base = base;
    const auto size = static_cast<int64_t>(base.size());
    for (int code : pool)
        if (code < 1 || code >= NCODES) throw py::value_error("the pool holds a bad card code " + std::to_string(code));
    plan.pool = pool;
    size_t places = slots.size();
    for (const auto& [at, count, fits] : first) {
        if (at < 0 || at > size - NCODES) throw py::value_error("a first hand's place is outside the position");
        if (fits.size() != pool.size())
            throw py::value_error("a first hand's fits name " + std::to_string(fits.size()) + " cards, not the pool's " +
                                  std::to_string(pool.size()));
        if (count < 0 || count > static_cast<int64_t>(pool.size()))
            throw py::value_error("a first hand's count " + std::to_string(count) + " is not from 0 to the pool's size");
        places += static_cast<size_t>(count);
        plan.first.push_back({at, count, fits});
    }
    for (const auto& [at, count] : slots) {
        if (at < 0 || at > size - (count ? NCODES : 1)) throw py::value_error("a slot is outside the position");
        plan.slots.push_back({at, count});
    }
    if (places != pool.size())
        throw py::value_error(std::to_string(places) + " places for " + std::to_string(pool.size()) + " pool cards");
    for (const HandRead& hand : reads) {
        plan.reads.push_back(make_read(plan, base, hand));
        for (size_t j = 0; j + 1 < plan.reads.size(); ++j)
            if (plan.reads[j].first == plan.reads.back().first)
                throw py::value_error("two reads of first hand " + std::to_string(plan.reads.back().first));
    }
    return plan;
}

// The reader of a plan's reads: the policy, under the plan's rules (none needed where nothing is read).
const Policy* reader_of(const DealPlan& plan, const PolicyObject* policy) {
    if (policy == nullptr) return nullptr;
    if (!std::equal(policy->rules.begin(), policy->rules.end(), plan.base.begin()))
        throw py::value_error("the reader is under other rules than the plan's");
    return &policy->policy;
}

// Sample ``i`` of a stream: its packed deal and seats' seeds (search.sample_packed).
std::pair<std::vector<int64_t>, std::vector<int64_t>> sample_of(const DealPlan& plan, const std::string& stream,
                                                                int64_t i, const PolicyObject* reader) {
    std::pair<std::vector<int64_t>, std::vector<int64_t>> out;
    deal(plan, stream + std::to_string(i), out.first, out.second, reader_of(plan, reader));
    return out;
}

// Each move played out on each sample dealt from the plan (search.play_out on the core): per move, per sample.
std::vector<std::vector<std::pair<int64_t, bool>>> sampled(const PolicyObject& policy, const DealPlan& plan,
                                                           const std::string& stream,
                                                           const std::vector<int64_t>& samples,
                                                           const std::vector<int64_t>& moves, int64_t which) {
    std::vector<std::vector<int64_t>> starts(samples.size()), seeds(samples.size());
    const Policy* reader = reader_of(plan, &policy);
    for (size_t i = 0; i < samples.size(); ++i)
        deal(plan, stream + std::to_string(samples[i]), starts[i], seeds[i], reader);
    return play(policy, starts, seeds, moves, which);
}

// A whole hand by seats of their own policies and seeds (None: a Random seat): the finished position and each
// seat's decisions.
std::pair<std::vector<int64_t>, std::vector<int64_t>> play_one(
    const std::vector<std::shared_ptr<PolicyObject>>& policies, const std::vector<int64_t>& packed,
    const std::vector<int64_t>& seeds) {
    if (policies.empty()) throw py::value_error("no policies: one per seat");
    const auto first = std::find_if(policies.begin(), policies.end(), [](const auto& q) { return q != nullptr; });
    if (first == policies.end())
        throw py::value_error("no AI seat: every policy is None (a Random seat), so none gives the rules");
    Position p = read(**first, packed, "the position");
    const size_t n = static_cast<size_t>(p.rules.players);
    if (policies.size() != n || seeds.size() != n)
        throw py::value_error(std::to_string(policies.size()) + " policies and " + std::to_string(seeds.size()) +
                              " seeds for " + std::to_string(n) + " seats");
    std::vector<const Policy*> chosen;
    for (const auto& policy : policies) {
        if (policy && policy->rules != (*first)->rules)
            throw py::value_error("the policies are built for different rules");
        chosen.push_back(policy ? &policy->policy : nullptr);
    }
    std::vector<cut_tutor::Random> seats;
    for (int64_t seed : seeds) seats.emplace_back(cut_tutor::Random::seed_key(seed));
    std::vector<int64_t> decisions(n);
    {
        py::gil_scoped_release free;
        play_hand(p.rules, p.state, chosen.data(), seats.data(), decisions.data());
    }
    return {pack_state(p.rules, p.state), decisions};
}

}  // namespace

void bind_coach(py::module_& m) {
    py::module_ c = m.def_submodule(
        "coach", "The AI seat's decision (CUT and Clear 4) and rollouts of AI seats on packed positions.");
    py::class_<PolicyObject, std::shared_ptr<PolicyObject>>(
        c, "Policy", "A Level and Style's weights and the scorers' numbers under one set of rules.")
        .def(py::init(&make_policy), py::arg("rules"), py::arg("level"), py::arg("style"), py::arg("constants"),
             py::arg("numbers"));
    py::class_<DealPlan>(c, "Deals",
                         "Where an analysis' hidden cards go (cut_tutor.analysis.deals.Deals.plan): the packed position"
                         " without them, the pool's codes, the hands dealt first (place, count, fits) and the slots"
                         " of the shuffled rest (place, counted).")
        .def(py::init(&make_plan), py::arg("base"), py::arg("pool"), py::arg("first"), py::arg("slots"),
             py::arg("reads") = std::vector<HandRead>{}, py::arg("tries") = 1)
        .def("sample", &sample_of, py::arg("stream"), py::arg("i"), py::arg("reader") = nullptr,
             "Sample ``i``: the packed deal and one seed per seat, from random.Random(stream + str(i)); a plan that"
             " reads turns on the pile needs their ``reader`` policy.");
    c.def("sampled_rollouts", &sampled, py::arg("policy"), py::arg("deals"), py::arg("stream"), py::arg("samples"),
          py::arg("moves"), py::arg("seat"),
          "Each move played out on each sample the plan deals (Deals.sample, ``policy`` reading its turns on the pile):"
          " per move, per sample, (``seat``'s points, whether it went out first). The rollouts run without the GIL.");
    c.def("round2", &round2, py::arg("x"),
          "Python's round(x, 2), as every part and total of a move's value is rounded.");
    c.def("knowledge", &knowledge, py::arg("policy"), py::arg("position"), py::arg("seat"),
          "What ``seat`` knows of a packed position, as Knowledge.from_sight has it (codes for moves).");
    c.def("evaluate", &scores, py::arg("policy"), py::arg("position"),
          "The seat to move's candidates, best first: (move code, total) as values.evaluate_knowledge has them.");
    c.def("choose", &decide, py::arg("policy"), py::arg("position"), py::arg("rng"),
          "AIPlayer.choose on a packed position with a compiled Random: the move's code and the candidates' totals"
          " with noise, as they were chosen from (empty when forced).");
    c.def("play", &play_one, py::arg("policies"), py::arg("position"), py::arg("seeds"),
          "A packed position played to the end of the hand by one seat per seat, seeded by its seed: an AI seat of its"
          " policy, or a Random seat where the policy is None; the finished packed position and each seat's"
          " decisions. Runs without the GIL.");
    c.def("rollouts", &play, py::arg("policy"), py::arg("starts"), py::arg("seeds"), py::arg("moves"), py::arg("seat"),
          "Each move played out from each packed start by AI seats seeded per start: per move, per start, (``seat``'s"
          " points, whether it went out first). Runs without the GIL.");
}
