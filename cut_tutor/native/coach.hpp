// The AI seat's decision in C++: what a seat knows, every legal move's value and the Level's noise, move for move
// the same as cut_tutor/coach (knowledge.py, values.py, scoring.py, cut.py, clear4.py, advice.py's choose and
// AIPlayer.choose).
//
// The Python coach is the reference and holds the numbers: a Policy is filled from its Level and Style records, its
// constants and the game's Numbers (styles.py, scoring.py, cut.py, clear4.py) at call time, so no weight is written
// twice. Every sum adds in the reference's order and every round is Python's round(x, 2), so the totals are the same
// doubles. CUT (cut.py) and Clear 4 (clear4.py, R22) each have their scorer.
#pragma once

#include <cstdint>
#include <vector>

#include "engine.hpp"
#include "rng.hpp"

namespace cut_native {

// A Style's weights (cut_tutor.coach.styles.Style).
struct StyleData {
    double risk_aversion = 0, blind_into_pile = 0, high_pile_flip = 0, low_asset = 0, clear_asset = 0, high_dump = 0,
           group = 0, spare_clear = 0, take = 0;
    int dump_clears_at = 0;
    bool empty_pile_flips = false, high_pile_flips = false;
};

// A Level's weights (cut_tutor.coach.styles.Level).
struct LevelData {
    int depth = 0, hinder_at = 0;
    double noise = 0, odds_margin = 0, hinder = 0, line_weight = 0, strand_weight = 0, clear_weight = 0,
           lead_weight = 0, spare_low_weight = 0;
    bool counts_cards = false;
};

// One game's numbers for the lookahead under one set of rules (cut_tutor.coach.scoring.Numbers), with the tables
// its cached properties derive.
struct NumbersData {
    int middling = 0;
    std::vector<int> groups, spares, high;
    double shed[NCODES] = {}, strand[NCODES] = {};
    double board = 0;
    bool is_clear[NCODES] = {};
    std::vector<std::pair<int, double>> playable[NCODES];  // per pile top: the groups that play on it
};

// Everything a decision reads besides the position: the seat's Level and Style, the scorers' constants
// (scoring.py, cut.py, advice.py) and the Numbers.
struct Policy {
    LevelData level;
    StyleData style;
    NumbersData nums;
    int points[NCODES] = {};  // Knowledge.points: the rules' points, 0 for codes the game has not
    double per_card = 0, go_again = 0, barred = 0, turn_cost = 0, loop_noise = 0;
    int near_out = 0, long_hand = 0;
    bool clear4 = false;       // which game's scorer (the rules the policy was built for)
    bool compensated = false;  // Python's sum() of floats is compensated from 3.12 (Neumaier)
};

// A seat's knowledge (cut_tutor.coach.knowledge.Knowledge), read off the state by ``sight`` alone (C2).
struct Knowledge {
    int seat = 0, turns = 0, players = 0;
    const Moves* legal = nullptr;
    int hand[NCODES] = {};
    int slen[STACKS] = {};
    int stacks[STACKS][MAX_DEPTH] = {};  // the seat's own stacks, bottom first: -1 face down
    const uint8_t* pile = nullptr;
    int pile_len = 0;
    int top = 0, run = 0;
    int left[MAX_SEATS] = {};
    int out_of_sight[NCODES] = {}, counted[NCODES] = {};
    int stack_cards = 0, cards_left = 0, pile_points = 0, next_left = 0, min_left = 0, clears_held = 0;
    int bust_penalty = 0;
    bool four_plus_clears = false;
    const bool* is_clear = nullptr;
};

// The components, in cut_tutor.coach.scoring.COMPONENTS' order.
enum Part { GO_OUT, SHED, ASSETS, CONTROL, RISK, LINE, PARTS };

struct Candidate {
    Move move;
    double parts[PARTS] = {};
    double total = 0, again = 0, bust = 0, principle = 0, spare_low = 0;
    bool goes_out = false, clears = false;
    double turn_value() const { return total - parts[LINE] + (parts[LINE] != 0.0 ? again : 0.0); }
};

// Python's round(x, 2): the nearest double to x correctly rounded to two decimals (ties to even).
double round2(double x);

// What ``seat`` knows of ``s`` (Knowledge.from_sight(sight(state, seat))); ``legal`` the seat's legal moves (empty
// unless it is to move). Reads only what the seat's view shows.
void know(const Rules& r, const State& s, int seat, const Policy& p, const Moves& legal, Knowledge& k);

// Every legal move scored, best first with ties in move order (values.evaluate_knowledge).
void evaluate(const Knowledge& k, const Policy& p, std::vector<Candidate>& out);

// AIPlayer.choose: the move played, noise drawn from ``rng``; ``scored`` keeps the candidates as they were chosen
// from (empty when the move was forced).
Move choose(const Knowledge& k, const Policy& p, cut_tutor::Random& rng, std::vector<Candidate>& scored);

// Seats playing ``s`` to the end of the hand, each with its own policy and generator (search.play, sim.play_one);
// a null policy is a Random seat (players.py's RandomPlayer: ``moves[randbelow(len(moves))]``). ``decisions``, when
// given, counts each seat's decisions.
void play_hand(const Rules& r, State& s, const Policy* const* policies, cut_tutor::Random* seats, int64_t* decisions);

// One rollout's result for the analysed seat: its points for the hand, and whether it went out first.
struct Outcome {
    int64_t points;
    bool won;
};

// Each of ``moves`` played from each start to the end of the hand by AI seats of ``policy`` seeded with that start's
// seeds (search.play_out): per move, per start.
std::vector<std::vector<Outcome>> rollouts(const Rules& r, const std::vector<State>& starts,
                                           const std::vector<std::vector<int64_t>>& seeds,
                                           const std::vector<Move>& moves, int seat, const Policy& policy);

}  // namespace cut_native
