// The hidden cards of an analysis' samples dealt in C++, draw for draw as cut_tutor/analysis/deals.py's
// Deals._draw and Deals._place deal them, and each sample's generator seeded from its text as
// cut_tutor/analysis/search.py's _draws seeds random.Random: the same packed deal and the same seats' seeds for a
// sample, so the compiled rollouts need nothing from Python per sample. Python builds the plan (where each drawn
// card goes) once per position; it stays the reference.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

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
    // Where the next card of the shuffled rest goes: counted (packed[at + code] += 1) or laid (packed[at] = code).
    struct Slot {
        int64_t at = 0;
        bool count = true;
    };
    std::vector<int64_t> base;  // the packed position without its hidden cards
    std::vector<int> pool;      // the hidden cards' codes, in the pool's order
    std::vector<First> first;
    std::vector<Slot> slots;
    int seats = 0;
};

// One sample: the deal Deals.packed(rng) gives and the seats' seeds (one getrandbits(32) each), with ``rng`` seeded
// from the sample's text (random.Random(text)).
inline void deal(const DealPlan& plan, const std::string& text, std::vector<int64_t>& packed,
                 std::vector<int64_t>& seeds) {
    cut_tutor::Random rng(cut_tutor::Random::text_key(text));
    packed = plan.base;
    std::vector<size_t> cards(plan.pool.size());
    for (size_t i = 0; i < cards.size(); ++i) cards[i] = i;
    for (const DealPlan::First& f : plan.first) {  // rng.sample of the free cards that fit, then the rest stay free
        std::vector<size_t> among;
        for (size_t i : cards)
            if (f.fits[i]) among.push_back(i);
        std::vector<bool> taken(plan.pool.size());
        for (size_t j : rng.sample_indices(among.size(), static_cast<size_t>(f.count))) {
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
    for (int k = 0; k < plan.seats; ++k) seeds.push_back(static_cast<int64_t>(rng.getrandbits(32)));
}

}  // namespace cut_native
