// The AI seat's decision (coach.hpp): each function names the Python function it follows and keeps its order of
// floating-point operations, so every value is the same double.
#include "coach.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace cut_native {

double round2(double x) {
    if (!std::isfinite(x) || x == 0.0) return x;
    const double y = x * 100.0;
    if (std::fabs(y) >= 1e15) {  // beyond any value here: the exact decimal rounding, as CPython does
        char buf[512];
        std::snprintf(buf, sizeof buf, "%.2f", x);
        return std::strtod(buf, nullptr);
    }
    // x * 100 is within 2^-50 |y| of the exact product, so unless that lies near a half the nearest integer is the
    // decimal Python rounds to, and d / 100 is the double nearest to it.
    const double fl = std::floor(y), frac = y - fl;
    double d = frac < 0.5 ? fl : fl + 1.0;
    if (std::fabs(frac - 0.5) <= 1e-6) {
        // Near a half: compare x * 200 with the odd integer 2 fl + 1 exactly (the product's error by fma, the
        // difference exact by Sterbenz's lemma); a tie goes to the even neighbour (round-half-even).
        const double half = 2.0 * fl + 1.0, p = x * 200.0, e = std::fma(x, 200.0, -p);
        const double above = (p - half) + e;
        d = above > 0.0 ? fl + 1.0 : above < 0.0 ? fl : std::fmod(fl, 2.0) == 0.0 ? fl : fl + 1.0;
    }
    return d == 0.0 ? std::copysign(0.0, x) : d / 100.0;
}

namespace {

// Python's sum() over floats from 0: left to right, compensated (Neumaier) from Python 3.12.
struct Sum {
    bool compensated;
    double f = 0.0, c = 0.0;
    explicit Sum(bool comp) : compensated(comp) {}
    void add(double x) {
        if (!compensated) {
            f += x;
            return;
        }
        const double t = f + x;
        if (std::fabs(f) >= std::fabs(x))
            c += (f - t) + x;
        else
            c += (x - t) + f;
        f = t;
    }
    double value() const { return compensated && c != 0.0 && std::isfinite(c) ? f + c : f; }
};

inline int size_of(const Move& m) { return m.size(); }

// -- scoring.py ------------------------------------------------------------------------------------------------

// best_group: the value a simple player sheds next on a pile topped by ``top``, and what it sheds.
std::pair<int, double> best_group(const NumbersData& nums, const int* hand, int top) {
    int best = 0;
    double best_value = 0.0;
    for (const auto& [rank, unit] : nums.playable[top]) {
        const int held = hand[rank];
        if (held) {
            const double value = (held < 4 ? held : 4) * unit;
            if (value > best_value) best = rank, best_value = value;
        }
    }
    return {best, best_value};
}

double again(const NumbersData& nums, const int* hand) { return best_group(nums, hand, 0).second; }

double go_again(const LevelData& level, const Candidate& cand) { return level.depth == 0 ? cand.again : 0.0; }

bool only_blind_choice(const Knowledge& k, const Move& move) {
    if (!k.pile_len || k.cards_left == 1) return true;
    for (const Move& m : *k.legal)
        if (m.kind() != move.kind()) return false;
    return true;
}

void by_principle(Candidate& cand, Part part, double value, bool named) {
    if (named) cand.principle += value;
    cand.parts[part] = round2(cand.parts[part] + value);
}

// _played: the line's turns for a kept hand: their value and the stranded cards' cost.
std::pair<double, double> played(const Policy& p, int depth, const int* kept, const Knowledge& k, const Move& move,
                                 bool empty_first) {
    const NumbersData& nums = p.nums;
    int hand[NCODES], held = 0;
    for (int c = 0; c < NCODES; ++c) held += hand[c] = kept[c];  // counts are never negative: any(hand) is held > 0
    double value = 0.0, weight = 0.8;
    bool read = false;  // the board: read only once the hand runs out
    int board[STACKS], n_board = 0, face_up = 0;
    for (int turn = 0; turn < depth; ++turn) {
        if (!held) {
            if (!read) {
                read = true;
                for (int i = 0; i < STACKS; ++i) {
                    bool spent = false;
                    for (int j = 0; j < move.ns(); ++j)
                        if (move.stack(j) == i) spent = true;
                    if (!spent && k.slen[i] && k.stacks[i][k.slen[i] - 1] >= 0)
                        board[n_board++] = k.stacks[i][k.slen[i] - 1];
                }
                face_up = n_board;
            }
            if (!n_board) {
                const bool bare = k.stack_cards == move.ns() + face_up;
                value += weight * (bare ? 15.0 : nums.board);
                break;
            }
            for (int i = 0; i < n_board; ++i) hand[board[i]] += 1;
            held += n_board;
            n_board = 0;
        }
        const auto [rank, shed] = best_group(nums, hand, empty_first && turn == 0 ? 0 : nums.middling);
        if (rank) {
            const int count = std::min(hand[rank], 4);
            value += weight * shed;
            hand[rank] -= count;
            held -= count;
        } else {
            int spare = 0;
            for (int card : nums.spares)
                if (hand[card]) {
                    spare = card;
                    break;
                }
            if (!spare) {
                value -= weight * 6.0;
                break;
            }
            hand[spare] -= 1;
            --held;
            value += weight * p.per_card;
        }
        weight *= 0.8;
    }
    Sum stranded(p.compensated);
    for (int c = 0; c < NCODES; ++c)  // a code not held adds 0.0, which changes no sum: skipped
        if (hand[c]) stranded.add(hand[c] * nums.strand[c]);
    return {value, stranded.value()};
}

// line: C5, the kept hand played forward ``level.depth`` turns.
double line(const Knowledge& k, const Policy& p, const int* hand, const Move& move, bool empty_first = false) {
    const LevelData& level = p.level;
    if (level.depth == 0) return 0.0;
    const auto [value, stranded] = played(p, level.depth, hand, k, move, empty_first);
    const double continues = k.min_left <= p.near_out ? 0.25 : 1.0;
    return round2(level.line_weight * continues * (value - level.strand_weight * stranded));
}

// -- cut.py ----------------------------------------------------------------------------------------------------

double asset_change(const Knowledge& k, const Policy& p, int rank, int count) {
    if (k.is_clear[rank]) {
        if (k.min_left <= p.style.dump_clears_at) return count * p.points[rank] * 0.5;
        return -count * p.style.clear_asset * p.level.clear_weight;
    }
    if (rank <= 3) return -count * p.style.low_asset * (4 - rank);
    if (rank >= 11) return count * p.style.high_dump;
    return 0.0;
}

bool about_to_go_out(const Knowledge& k, const Policy& p) { return k.next_left <= p.level.hinder_at; }

double control(const Knowledge& k, const Policy& p, int top_after) {
    if (top_after == 0 || !about_to_go_out(k, p)) return 0.0;
    return p.level.hinder * 2.8 * (13 - top_after);
}

int stack_top(const Knowledge& k, int stack) { return k.slen[stack] ? k.stacks[stack][k.slen[stack] - 1] : -1; }

double clear_assets(const Knowledge& k, const Policy& p, const Move& move) {
    double value = 0.0;
    if (move.n()) value += asset_change(k, p, move.rank(), move.n());
    if (move.jokers()) value += asset_change(k, p, JOKER, move.jokers());
    for (int j = 0; j < move.ns(); ++j) {
        const int card = stack_top(k, move.stack(j));
        if (card >= 0) value += asset_change(k, p, card, 1);
    }
    if (k.pile_len && k.min_left > p.near_out) {
        const double saved = 0.5 * k.pile_len + 0.1 * k.pile_points;
        value += saved < 8.0 ? saved : 8.0;
    }
    return value;
}

bool one_play_empties(const Knowledge& k, const int* hand, int left) {
    int total = 0;
    for (int c = 0; c < NCODES; ++c) total += hand[c];
    if (left != total) return false;
    int ranks = 0, only = 0;
    bool all_clear = true;
    for (int r = 1; r < NCODES; ++r)
        if (hand[r]) {
            ++ranks, only = r;
            if (!k.is_clear[r]) all_clear = false;
        }
    if (all_clear) return true;
    return ranks == 1 && (k.four_plus_clears || hand[only] <= 4);
}

void score_lay(const Knowledge& k, const Policy& p, Candidate& cand) {
    const Move& move = cand.move;
    double* parts = cand.parts;
    const int rank = move.rank(), count = size_of(move);
    const int left = k.cards_left - count;
    parts[SHED] = count * p.nums.shed[rank] + (p.style.group - 1.0) * count * p.per_card;
    parts[ASSETS] = asset_change(k, p, rank, count) - 1.5 * move.ns();
    int hand[NCODES];
    std::copy(k.hand, k.hand + NCODES, hand);
    hand[rank] -= move.n();
    if (left == 0) {
        cand.goes_out = true;
        parts[GO_OUT] = 100.0;
        return;
    }
    if (count && cut::completes_four(k.top, k.run, move)) {
        cand.clears = true;
        cand.again = again(p.nums, hand);
        parts[CONTROL] = go_again(p.level, cand);
        if (one_play_empties(k, hand, left)) parts[GO_OUT] = 80.0;
        parts[LINE] = line(k, p, hand, move, true);
        return;
    }
    parts[CONTROL] = control(k, p, rank);
    if (k.pile_len && rank <= 3 && count > 1) {
        cand.spare_low = p.level.spare_low_weight * (count - 1) * (4 - rank);
        parts[ASSETS] -= cand.spare_low;
    }
    if (!k.pile_len && !about_to_go_out(k, p)) parts[SHED] += p.level.lead_weight * rank;
    parts[LINE] = line(k, p, hand, move);
}

void hand_after_clear(const Knowledge& k, const Move& move, int* hand) {
    std::copy(k.hand, k.hand + NCODES, hand);
    hand[move.rank()] -= move.n();
    hand[JOKER] -= move.jokers();
}

struct Odds {
    double clear, fit, bust;
};

Odds blind_odds(const Knowledge& k, const Policy& p) {
    const int* pool = p.level.counts_cards ? k.counted : k.out_of_sight;
    int64_t total = 0, clear = 0, fit = 0;
    for (int r = 0; r < NCODES; ++r) total += pool[r];
    if (!total) total = 1;
    for (int r = 0; r < NCODES; ++r)
        if (k.is_clear[r]) clear += pool[r];
    const double p_clear = static_cast<double>(clear) / static_cast<double>(total);
    if (!k.pile_len) return {p_clear, 1.0 - p_clear, 0.0};
    for (int r = 1; r <= k.top; ++r)
        if (!k.is_clear[r]) fit += pool[r];
    const double p_fit = static_cast<double>(fit) / static_cast<double>(total);
    const double bust = 1.0 - p_clear - p_fit;
    return {p_clear, p_fit, bust > 0.0 ? bust : 0.0};
}

double take_cost(const Knowledge& k, const Policy& p) {
    return (k.pile_len + 1) * p.per_card + 0.5 * (k.pile_points + 6) + k.bust_penalty;
}

void score_blind(const Knowledge& k, const Policy& p, Candidate& cand) {
    double* parts = cand.parts;
    const Odds odds = blind_odds(k, p);
    cand.bust = odds.bust;
    const bool last = k.cards_left == 1;
    parts[SHED] = round2((odds.clear + odds.fit) * p.per_card + odds.fit * 2.5);
    parts[CONTROL] = round2(odds.clear * (p.level.depth == 0 ? p.go_again : 0.0));
    if (last) parts[GO_OUT] = round2((odds.clear + odds.fit) * 100.0);
    double cost = p.style.risk_aversion * odds.bust * take_cost(k, p) + p.level.odds_margin * odds.bust;
    if (k.pile_len) cost += p.style.blind_into_pile;
    parts[RISK] = round2(-cost);
    if (k.pile_len && k.top >= 10 && p.style.high_pile_flip != 0.0)
        by_principle(cand, RISK, p.style.high_pile_flip, p.style.high_pile_flips);
}

// cut.score: one legal CUT move, its components filled in.
void score(const Knowledge& k, const Policy& p, Candidate& cand) {
    const Move& move = cand.move;
    double* parts = cand.parts;
    const int kind = move.kind();
    if (kind == K_PLAY || kind == K_ADD) {
        score_lay(k, p, cand);
    } else if (kind == K_CLEAR) {
        const int count = size_of(move);
        const int left = k.cards_left - count;
        parts[SHED] = count * p.per_card;
        parts[ASSETS] = clear_assets(k, p, move);
        int hand[NCODES];
        hand_after_clear(k, move, hand);
        cand.again = again(p.nums, hand);
        const bool spare = k.clears_held - move.n() - move.jokers() >= 1;
        const double seize = spare ? p.style.spare_clear * (1.0 + 0.1 * k.pile_points) : 0.0;
        double extra = go_again(p.level, cand);
        if (extra != 0.0) {
            const double beyond = extra - best_group(p.nums, k.hand, k.top).second;
            extra = beyond > 0.0 ? beyond : 0.0;
        }
        parts[CONTROL] = extra + seize;
        if (left == 0) {
            cand.goes_out = true;
            parts[GO_OUT] = 100.0;
        } else {
            if (one_play_empties(k, hand, left)) parts[GO_OUT] = 80.0;
            parts[LINE] = line(k, p, hand, move, true);
        }
    } else if (kind == K_TAKE) {
        Sum shed(p.compensated), assets(p.compensated);
        for (int i = 0; i < k.pile_len; ++i) shed.add(p.nums.shed[k.pile[i]]);
        for (int i = 0; i < k.pile_len; ++i) assets.add(asset_change(k, p, k.pile[i], -1));
        parts[SHED] = -shed.value() * p.style.take;
        parts[ASSETS] = assets.value() * 0.5;
        parts[CONTROL] = about_to_go_out(k, p) ? -8.0 * p.level.hinder : 0.0;
        int hand[NCODES];
        std::copy(k.hand, k.hand + NCODES, hand);
        for (int i = 0; i < k.pile_len; ++i) hand[k.pile[i]] += 1;
        for (int j = 0; j < move.ns(); ++j) {
            const int shown = stack_top(k, move.stack(j));
            if (shown >= 0) hand[shown] += 1;
        }
        parts[LINE] = line(k, p, hand, move);
    } else if (kind == K_FLIP || kind == K_GAMBLE) {
        score_blind(k, p, cand);
        if (p.style.empty_pile_flips && !only_blind_choice(k, move)) by_principle(cand, RISK, -p.barred, true);
    } else if (kind == K_TURNUP) {
        const Odds odds = blind_odds(k, p);
        cand.bust = odds.bust;
        parts[RISK] = round2(-p.style.risk_aversion * odds.bust * take_cost(k, p) * 0.25);
        parts[SHED] = -p.turn_cost;
    }
}

// -- clear4.py ----------------------------------------------------------------------------------------------

namespace c4 {

bool special(int card) { return card == WILD || card == PUSH || card == CLEAR_CARD; }

double asset(const Knowledge& k, const Policy& p, int card, int count) {
    if (special(card)) {
        if (k.min_left <= p.style.dump_clears_at) return count * 1.0;
        return -count * p.style.clear_asset * (card == WILD ? 0.6 : 1.0);
    }
    if (card <= 3) return -count * p.style.low_asset * (4 - card) * 0.75;
    if (card >= 9) return count * p.style.high_dump;
    return 0.0;
}

bool hinders(const Knowledge& k, const Policy& p) { return k.next_left <= p.near_out; }  // clear4.hinder_at

void score_lay(const Knowledge& k, const Policy& p, Candidate& cand) {
    const Move& move = cand.move;
    double* parts = cand.parts;
    const int value = move.rank() == WILD ? k.top : move.rank();
    const int count = size_of(move);
    const int left = k.cards_left - count;
    // The cards laid, in the reference's order: the hand's, its JOKERs, then each stack's top (face down: a JOKER).
    Sum shed(p.compensated), assets(p.compensated);
    auto laid = [&](int card, int times) {
        for (int i = 0; i < times; ++i) shed.add(p.nums.shed[card]), assets.add(asset(k, p, card, 1));
    };
    laid(move.rank(), move.n());
    laid(WILD, move.jokers());
    for (int j = 0; j < move.ns(); ++j) {
        const int top = stack_top(k, move.stack(j));
        laid(top > 0 ? top : WILD, 1);
    }
    parts[SHED] = shed.value() + (p.style.group - 1.0) * count * p.per_card;
    parts[ASSETS] = assets.value() + 1.0 * move.ns();
    int hand[NCODES];
    std::copy(k.hand, k.hand + NCODES, hand);
    hand[move.rank()] -= move.n();
    hand[WILD] -= move.jokers();
    if (left == 0) {
        cand.goes_out = true;
        parts[GO_OUT] = 100.0;
        return;
    }
    if (clear4::completes_four(k.top, k.run, move)) {  // knowledge.completes_clear: the game's answer
        cand.clears = true;
        cand.again = again(p.nums, hand);
        parts[CONTROL] = go_again(p.level, cand);
        parts[LINE] = line(k, p, hand, move, true);
        return;
    }
    if (hinders(k, p)) parts[CONTROL] = value ? p.level.hinder * 2.8 * (10 - value) : -4.0 * p.level.hinder;
    parts[LINE] = line(k, p, hand, move);
}

void score_special(const Knowledge& k, const Policy& p, Candidate& cand) {
    const Move& move = cand.move;
    double* parts = cand.parts;
    const bool clear = move.kind() == K_CLEAR;
    const int card = clear ? CLEAR_CARD : PUSH;
    const int spent = move.n() || move.ns() ? 1 : 0;
    const int left = k.cards_left - spent;
    parts[SHED] = spent * p.nums.shed[card];
    parts[ASSETS] = asset(k, p, card, spent) + 1.0 * move.ns();
    if (k.pile_len) {
        const double saved = 0.6 * k.pile_len;
        parts[ASSETS] += saved < 8.0 ? saved : 8.0;
    }
    int hand[NCODES];
    std::copy(k.hand, k.hand + NCODES, hand);
    hand[card] -= move.n();
    if (!clear) {
        const int target = k.left[move.to()];
        parts[CONTROL] = k.pile_len * (1.0 + 6.0 / (target > 1 ? target : 1)) * (0.5 + 0.5 * p.level.hinder);
    } else {
        cand.again = again(p.nums, hand);
        parts[CONTROL] = go_again(p.level, cand);
        parts[CONTROL] += p.style.spare_clear * 0.5 * (k.pile_len < 6 ? k.pile_len : 6) / 6;
    }
    if (left == 0) {
        cand.goes_out = true;
        parts[GO_OUT] = 100.0;
        return;
    }
    parts[LINE] = line(k, p, hand, move, clear);
}

void score_blind(const Knowledge& k, const Policy& p, Candidate& cand) {
    double* parts = cand.parts;
    const int* pool = p.level.counts_cards ? k.counted : k.out_of_sight;
    int64_t total = 0;
    for (int r = 0; r < NCODES; ++r) total += pool[r];
    if (!total) total = 1;
    const double t = static_cast<double>(total);
    const double p_clear = pool[CLEAR_CARD] / t, p_push = pool[PUSH] / t;
    int64_t fits = pool[WILD];
    for (int r = 1; r <= 10; ++r)
        if (!k.top || r <= k.top) fits += pool[r];
    const double p_fit = static_cast<double>(fits) / t;
    const double miss = 1.0 - p_clear - p_push - p_fit;
    const double p_bust = miss > 0.0 ? miss : 0.0;
    cand.bust = p_bust;
    parts[SHED] = round2((1.0 - p_bust) * p.per_card + p_fit * 2.5);
    parts[CONTROL] = round2(p_clear * (p.level.depth == 0 ? p.go_again : 0.0) + p_push * 0.6 * k.pile_len);
    if (k.cards_left == 1) parts[GO_OUT] = round2((1.0 - p_bust) * 100.0);
    const double take = (k.pile_len + 1) * (p.per_card + 0.5);
    double cost = p.style.risk_aversion * p_bust * take + p.level.odds_margin * p_bust;
    if (k.pile_len) cost += p.style.blind_into_pile * 0.5;
    parts[RISK] = round2(-cost);
    if (k.pile_len && k.top >= 8 && p.style.high_pile_flip != 0.0)
        by_principle(cand, RISK, p.style.high_pile_flip, p.style.high_pile_flips);
}

// clear4.score: one legal Clear 4 move, its components filled in.
void score(const Knowledge& k, const Policy& p, Candidate& cand) {
    const Move& move = cand.move;
    double* parts = cand.parts;
    const int kind = move.kind();
    if (kind == K_PLAY || kind == K_ADD) {
        score_lay(k, p, cand);
    } else if (kind == K_CLEAR || kind == K_PUSH) {
        score_special(k, p, cand);
    } else if (kind == K_TAKE) {
        Sum shed(p.compensated), assets(p.compensated);
        for (int i = 0; i < k.pile_len; ++i) shed.add(p.nums.shed[k.pile[i]]);
        for (int i = 0; i < k.pile_len; ++i) assets.add(asset(k, p, k.pile[i], -1));
        parts[SHED] = -shed.value() * p.style.take;
        parts[ASSETS] = assets.value() * 0.5;
        parts[CONTROL] = hinders(k, p) ? -8.0 * p.level.hinder : 0.0;
        int hand[NCODES];
        std::copy(k.hand, k.hand + NCODES, hand);
        for (int i = 0; i < k.pile_len; ++i) hand[k.pile[i]] += 1;
        parts[LINE] = line(k, p, hand, move);
    } else if (kind == K_FLIP) {
        score_blind(k, p, cand);
        if (p.style.empty_pile_flips && !only_blind_choice(k, move)) by_principle(cand, RISK, -p.barred, true);
    }
}

}  // namespace c4

// advice.choose: the recommendation (a move that goes out wins; lookahead never overrules a sure clear).
const Candidate& pick(const std::vector<Candidate>& cands, const LevelData& level) {
    const Candidate* by_turn = &cands[0];
    double best_turn = by_turn->turn_value();
    for (const Candidate& c : cands) {
        const double v = c.turn_value();
        if (v > best_turn) by_turn = &c, best_turn = v;
    }
    const Candidate* out = nullptr;
    for (const Candidate& c : cands)
        if (c.goes_out && (!out || c.total > out->total)) out = &c;
    if (out) return *out;
    if (by_turn->clears || level.depth == 0) return *by_turn;
    return cands[0];
}

// sorted(key=lambda c: -c.total): a stable insertion sort, best first (a few candidates, no allocation).
void by_total(std::vector<Candidate>& cands) {
    for (size_t i = 1; i < cands.size(); ++i) {
        if (!(-cands[i].total < -cands[i - 1].total)) continue;
        Candidate moving = cands[i];
        size_t j = i;
        for (; j > 0 && -moving.total < -cands[j - 1].total; --j) cands[j] = cands[j - 1];
        cands[j] = moving;
    }
}

}  // namespace

void know(const Rules& r, const State& s, int seat, const Policy& p, const Moves& legal, Knowledge& k) {
    // sight(): the seat's own hand, every face-up stack card, the pile, counts, public pick-ups and cleared cards.
    k.seat = seat;
    k.turns = s.turns;
    k.players = r.players;
    k.legal = &legal;
    k.is_clear = r.is_clear;
    k.bust_penalty = r.bust_penalty;
    k.four_plus_clears = r.four_plus_clears;
    int out_of_sight[NCODES], pub[NCODES];
    for (int c = 0; c < NCODES; ++c) {
        k.hand[c] = s.hands[seat][c];
        out_of_sight[c] = r.deck[c] - k.hand[c];
        pub[c] = s.cleared[c];
    }
    k.pile = s.pile;
    k.pile_len = s.pile_len;
    k.pile_points = 0;
    for (int i = 0; i < s.pile_len; ++i) {
        out_of_sight[s.pile[i]] -= 1;
        k.pile_points += p.points[s.pile[i]];
    }
    k.top = r.clear4 ? clear4::top_value(s) : s.top();
    k.run = r.clear4 ? clear4::run(s) : cut::run(s);  // the view's top_run, as the game counts it
    for (int other = 0; other < r.players; ++other) {
        int cards = s.hand_count[other];
        for (int st = 0; st < STACKS; ++st) {
            const int len = s.slen[other][st];
            cards += len;
            for (int i = 0; i < len; ++i) {
                const int card = s.stacks[other][st][i];
                const int face = card & UP ? card & RANK_MASK : -1;
                if (face >= 0) out_of_sight[face] -= 1;
                if (other == seat) k.stacks[st][i] = face;
            }
            if (other == seat) k.slen[st] = len;
        }
        k.left[other] = cards;
        if (other != seat)
            for (int c = 0; c < NCODES; ++c) pub[c] += s.known[other][c];
    }
    for (int c = 0; c < NCODES; ++c) {
        k.out_of_sight[c] = out_of_sight[c] > 0 ? out_of_sight[c] : 0;
        const int counted = out_of_sight[c] - pub[c];
        k.counted[c] = counted > 0 ? counted : 0;
    }
    k.stack_cards = 0;
    for (int st = 0; st < STACKS; ++st) k.stack_cards += k.slen[st];
    int held = 0;
    k.clears_held = 0;
    for (int c = 0; c < NCODES; ++c) {
        held += k.hand[c];
        if (r.is_clear[c]) k.clears_held += k.hand[c];
    }
    k.cards_left = held + k.stack_cards;
    k.next_left = k.left[(seat + 1) % r.players];
    k.min_left = -1;
    for (int other = 0; other < r.players; ++other)
        if (other != seat && (k.min_left < 0 || k.left[other] < k.min_left)) k.min_left = k.left[other];
}

void evaluate(const Knowledge& k, const Policy& p, std::vector<Candidate>& out) {
    out.clear();
    for (const Move& m : *k.legal) {
        Candidate cand;
        cand.move = m;
        if (p.clear4)
            c4::score(k, p, cand);
        else
            score(k, p, cand);
        Sum total(p.compensated);
        for (double part : cand.parts) total.add(part);
        cand.total = round2(total.value());
        out.push_back(cand);
    }
    by_total(out);
}

Move choose(const Knowledge& k, const Policy& p, cut_tutor::Random& rng, std::vector<Candidate>& scored) {
    const double noise = p.level.noise + (k.turns > p.long_hand ? p.loop_noise : 0.0);
    scored.clear();
    if (k.legal->size() == 1) {
        if (noise != 0.0) rng.gauss(0.0, noise);
        return (*k.legal)[0];
    }
    evaluate(k, p, scored);
    if (noise != 0.0) {
        for (Candidate& c : scored) c.total += rng.gauss(0.0, noise);
        by_total(scored);
    }
    return pick(scored, p.level).move;
}

void play_hand(const Rules& r, State& s, const Policy* const* policies, cut_tutor::Random* seats, int64_t* decisions) {
    Moves legal;
    Knowledge k;
    std::vector<Candidate> scored;
    while (!s.over()) {
        legal_moves(r, s, legal);
        if (legal.empty()) throw std::invalid_argument("the seat to move has no legal move, yet the hand goes on");
        const int seat = s.turn;
        if (policies[seat] == nullptr) {
            apply(r, s, legal[static_cast<size_t>(seats[seat].randbelow(legal.size()))]);
        } else {
            know(r, s, seat, *policies[seat], legal, k);
            apply(r, s, choose(k, *policies[seat], seats[seat], scored));
        }
        if (decisions) ++decisions[seat];
    }
}

std::vector<std::vector<Outcome>> rollouts(const Rules& r, const std::vector<State>& starts,
                                           const std::vector<std::vector<int64_t>>& seeds,
                                           const std::vector<Move>& moves, int seat, const Policy& policy) {
    std::vector<std::vector<Outcome>> out(moves.size());
    Moves legal;
    const std::vector<const Policy*> policies(static_cast<size_t>(r.players), &policy);
    std::vector<cut_tutor::Random> seats;
    for (size_t i = 0; i < starts.size(); ++i) {
        std::vector<cut_tutor::Random> fresh;
        fresh.reserve(seeds[i].size());
        for (int64_t seed : seeds[i]) fresh.emplace_back(cut_tutor::Random::seed_key(seed));
        for (size_t j = 0; j < moves.size(); ++j) {
            State s = starts[i];
            legal_moves(r, s, legal);
            if (std::find_if(legal.begin(), legal.end(), [&](const Move& m) { return m.code == moves[j].code; }) ==
                legal.end())
                throw std::invalid_argument("move code " + std::to_string(moves[j].code) +
                                            " is not a legal move in start position " + std::to_string(i));
            apply(r, s, moves[j]);
            seats = fresh;
            play_hand(r, s, policies.data(), seats.data(), nullptr);
            out[j].push_back(Outcome{hand_points(r, s, seat), s.winner == seat});
        }
    }
    return out;
}

}  // namespace cut_native
