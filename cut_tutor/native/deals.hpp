// The hidden cards of an analysis' samples dealt in C++, draw for draw as cut_tutor/analysis/deals.py's
// Deals._draw and Deals._place deal them, and each sample's generator seeded from its text as
// cut_tutor/analysis/search.py's _draws seeds random.Random: the same packed deal and the same seats' seeds for a
// sample, so the compiled rollouts need nothing from Python per sample. Python builds the plan (where each drawn
// card goes, and the turns on the pile a hand dealt first must agree with) once per position; it stays the reference.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "coach.hpp"
#include "engine.hpp"
#include "rng.hpp"

namespace cut_native {

struct DealPlan {
    // A hand dealt before the rest (a bare take's, R11): where the packed position counts its codes (hand_at(k,
    // 0)), how many hidden cards it has, and which pool cards it may hold.
    struct First {
        int64_t at = 0, count = 0;
        std::vector<bool> fits;
    };
    // One turn on the pile read (Deals.reads): the table before it, the cards the seat's turns laid down to it, and
    // the move it made.
    struct Turn {
        State before;
        int back[NCODES] = {};
        uint64_t move = 0;
    };
    // The turns a hand dealt first must agree with (Deals._agreed), latest first: whose hand, the cards of it the
    // table knows, and which of ``first`` it is.
    struct Read {
        size_t first = 0;
        int seat = 0;
        int known[NCODES] = {};
        std::vector<Turn> turns;
    };
    // Where the next card of the shuffled rest goes: counted (packed[at + code] += 1) or laid (packed[at] = code).
    struct Slot {
        int64_t at = 0;
        bool count = true;
    };
    std::vector<int64_t> base;  // the packed position without its hidden cards
    std::vector<int> pool;      // the hidden cards' codes, in the pool's order
    std::vector<First> first;
    std::vector<Slot> slots;
    std::vector<Read> reads;
    int tries = 1;  // draws of a hand that reads turns, at most (deals.TRIES)
    Rules rules;  // the base position's
};

// How many of a read hand's turns, latest first, ``reader`` would have made with ``hidden`` as the cards it hides
// (Deals._agreed): the hand rebuilt before each turn (State.with_hand), the seat's knowledge and choice taken there.
// ``quiet`` is there for the noise of a reader that has some; one without (the only kind Python reads with) draws
// nothing from it.
inline size_t agreed(const DealPlan& plan, const DealPlan::Read& read, const int (&hidden)[NCODES], const Policy& reader,
                     cut_tutor::Random& quiet) {
    Moves legal;
    Knowledge k;
    std::vector<Candidate> scored;
    for (size_t t = 0; t < read.turns.size(); ++t) {
        const DealPlan::Turn& turn = read.turns[t];
        State s = turn.before;
        int count = 0;
        for (int c = 0; c < NCODES; ++c) {
            const int n = read.known[c] + hidden[c] + turn.back[c];
            s.hands[read.seat][c] = static_cast<uint8_t>(n);
            count += n;
        }
        s.hand_count[read.seat] = static_cast<uint16_t>(count);
        legal_moves(plan.rules, s, legal);
        if (legal.empty()) return t;
        know(plan.rules, s, read.seat, reader, legal, k);
        if (choose(k, reader, quiet, scored).code != turn.move) return t;
    }
    return read.turns.size();
}

// One sample: the deal Deals.packed(rng) gives and the seats' seeds (one getrandbits(32) each), with ``rng`` seeded
// from the sample's text (random.Random(text)); ``reader`` (the plan's reads need one) judges the hands that read
// turns on the pile.
inline void deal(const DealPlan& plan, const std::string& text, std::vector<int64_t>& packed,
                 std::vector<int64_t>& seeds, const Policy* reader) {
    if (!plan.reads.empty() && reader == nullptr)
        throw std::invalid_argument("this plan reads turns on the pile: it needs the policy that reads them");
    cut_tutor::Random rng(cut_tutor::Random::text_key(text));
    packed = plan.base;
    cut_tutor::Random quiet(cut_tutor::Random::seed_key(0));
    std::vector<size_t> cards(plan.pool.size());
    for (size_t i = 0; i < cards.size(); ++i) cards[i] = i;
    for (size_t which = 0; which < plan.first.size(); ++which) {  // rng.sample of the free cards that fit, the
        const DealPlan::First& f = plan.first[which];              // best of ``tries`` for a hand that reads turns
        const auto read = std::find_if(plan.reads.begin(), plan.reads.end(),
                                       [which](const DealPlan::Read& r) { return r.first == which; });
        const bool reads = read != plan.reads.end();
        std::vector<size_t> among;
        for (size_t i : cards)
            if (f.fits[i]) among.push_back(i);
        std::vector<size_t> chosen;
        long best = -1;
        for (int attempt = 0; attempt < (reads ? plan.tries : 1); ++attempt) {
            std::vector<size_t> draw = rng.sample_indices(among.size(), static_cast<size_t>(f.count));
            long more = 0;
            if (reads) {
                int hidden[NCODES] = {};
                for (size_t j : draw) hidden[plan.pool[among[j]]] += 1;
                more = static_cast<long>(agreed(plan, *read, hidden, *reader, quiet));
            }
            if (more > best) chosen.swap(draw), best = more;
            if (best == static_cast<long>(reads ? read->turns.size() : 0)) break;
        }
        std::vector<bool> taken(plan.pool.size());
        for (size_t j : chosen) {
            taken[among[j]] = true;
            packed[static_cast<size_t>(f.at + plan.pool[among[j]])] += 1;
        }
        std::vector<size_t> left;
        for (size_t i : cards)
            if (!taken[i]) left.push_back(i);
        cards.swap(left);
    }
    rng.shuffle(cards);
    for (size_t j = 0; j < cards.size(); ++j) {
        const DealPlan::Slot& slot = plan.slots[j];
        const int code = plan.pool[cards[j]];
        if (slot.count) {
            packed[static_cast<size_t>(slot.at + code)] += 1;
        } else {
            packed[static_cast<size_t>(slot.at)] = code;
        }
    }
    seeds.clear();
    for (int k = 0; k < plan.rules.players; ++k) seeds.push_back(static_cast<int64_t>(rng.getrandbits(32)));
}

}  // namespace cut_native
