// The packed forms, the mechanics both games share, and the game-independent calls (legal moves, apply, perft).
#include "engine.hpp"

#include <cstring>

namespace cut_native {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

// Reads the packed ints in order, naming the field of any bad value.
struct Reader {
    const std::vector<int64_t>& ints;
    size_t at = 0;
    int64_t next(const std::string& field, int64_t low, int64_t high) {
        if (at >= ints.size()) bad("packed position: too short (ends before " + field + ")");
        int64_t v = ints[at++];
        if (v < low || v > high)
            bad("packed position: " + field + " is " + std::to_string(v) + ", not from " + std::to_string(low) +
                " to " + std::to_string(high));
        return v;
    }
};

constexpr int RULE_INTS = 12;

}  // namespace

// -- rules -------------------------------------------------------------------------------------------------

Rules rules_from(const std::vector<int64_t>& ints) {
    Reader in{ints};
    Rules r;
    r.clear4 = in.next("rules.game", 0, 1) == 1;
    r.players = static_cast<int>(in.next("rules.players", 2, r.clear4 ? 6 : MAX_SEATS));
    r.decks = static_cast<int>(in.next("rules.decks", 1, r.clear4 ? 1 : MAX_DECKS));
    r.cards_dealt = static_cast<int>(in.next("rules.cards_dealt", r.clear4 ? 20 : 19, 20));
    r.clear_rank = static_cast<int>(in.next("rules.clear_rank", 0, 13));
    r.clear_value = static_cast<int>(in.next("rules.clear_value", 25, 50));
    r.flat5 = in.next("rules.card_scoring", 0, 1) == 1;
    r.bust_penalty = static_cast<int>(in.next("rules.bust_penalty", 0, 50));
    r.four_plus_clears = in.next("rules.four_plus_clears", 0, 1) == 1;
    r.piles_face_down = in.next("rules.piles_face_down", 0, 1) == 1;
    r.pile_card_flip = in.next("rules.pile_card_flip", 0, 1) == 1;
    r.risk_play = in.next("rules.risk_play", 0, 1) == 1;
    if (r.clear_value != 25 && r.clear_value != 50) bad("packed position: rules.clear_value must be 25 or 50");
    if (r.bust_penalty % 25) bad("packed position: rules.bust_penalty must be 0, 25 or 50");
    if (r.clear4 && (r.clear_rank != 10 || r.clear_value != 25 || r.flat5 || r.bust_penalty || r.four_plus_clears ||
                     r.piles_face_down || r.pile_card_flip || r.risk_play))
        bad("packed position: Clear 4 has none of CUT's settings: they must keep their defaults (R22)");
    if (r.players * r.cards_dealt > r.decks * (r.clear4 ? 120 : 54))
        bad("packed position: rules.decks cannot deal every seat its cards");
    r.ncodes = r.clear4 ? NCODES : NRANKS;
    r.depth = r.clear4 ? 3 : 2;
    if (r.clear4) {
        r.is_clear[CLEAR_CARD] = true;
        for (int c = 1; c < NCODES; ++c) r.points[c] = 1;
        for (int c = 1; c <= 10; ++c) r.deck[c] = 10;
        r.deck[PUSH] = 7, r.deck[WILD] = 7, r.deck[CLEAR_CARD] = 6;
        for (int c = 1; c <= 10; ++c) r.number_ranks[r.n_number++] = c;
    } else {
        r.is_clear[JOKER] = true;
        if (r.clear_rank) r.is_clear[r.clear_rank] = true;
        for (int c = 1; c <= JOKER; ++c) {
            r.points[c] = r.is_clear[c] ? r.clear_value : c >= 10 ? 10 : r.flat5 ? 5 : c;
            r.deck[c] = c == JOKER ? 2 * r.decks : 4 * r.decks;
        }
        for (int c = 1; c < JOKER; ++c)
            if (!r.is_clear[c]) r.number_ranks[r.n_number++] = c;
    }
    return r;
}

// -- positions ---------------------------------------------------------------------------------------------

State state_from(const Rules& r, const std::vector<int64_t>& ints) {
    State s;
    std::memset(&s, 0, sizeof s);
    Reader in{ints};
    in.at = RULE_INTS;
    const int n = r.players;
    s.dealer = static_cast<uint8_t>(in.next("dealer", 0, n - 1));
    s.turn = static_cast<uint8_t>(in.next("turn", 0, n - 1));
    s.phase = static_cast<uint8_t>(in.next("phase", 0, 3));
    s.turns = static_cast<int32_t>(in.next("turns", 1, 1000000));
    s.winner = static_cast<int8_t>(in.next("winner", -1, n - 1));
    s.stalemate = in.next("stalemate", 0, 1) == 1;
    s.ply = static_cast<int32_t>(in.next("ply", 0, 1000000000));
    s.turn_start = static_cast<int32_t>(in.next("turn_start", 0, s.ply));
    s.n_offered = static_cast<uint8_t>(in.next("exposed count", 0, STACKS));
    for (int i = 0; i < STACKS; ++i) {
        s.offered[i] = static_cast<uint8_t>(in.next("exposed", 0, STACKS - 1));
        for (int j = 0; j < i && i < s.n_offered; ++j)
            if (s.offered[j] == s.offered[i]) bad("packed position: exposed names a stack twice");
    }
    if (s.phase == P_GAMBLE && !(r.risk_play && !r.clear4)) bad("packed position: phase 'gamble' needs Risk Play on (R17)");
    if (s.phase == P_PUSH && !r.clear4) bad("packed position: phase 'push' is Clear 4's (R22)");
    if (s.n_offered && s.phase != P_ADD && s.phase != P_GAMBLE)
        bad("packed position: exposed stacks wait on a turn only while it adds cards or offers a gamble (R17, R22)");
    if (s.over() && s.phase != P_PLAY) bad("packed position: a finished hand leaves no step open (R14, R22)");
    int placed[NCODES] = {};
    for (int seat = 0; seat < n; ++seat) {
        const std::string where = "seats[" + std::to_string(seat) + "].";
        int count = 0;
        for (int c = 0; c < NCODES; ++c) {
            int held = static_cast<int>(in.next(where + "hand", 0, c && c < r.ncodes ? r.deck[c] : 0));
            s.hands[seat][c] = static_cast<uint8_t>(held);
            count += held;
            placed[c] += held;
        }
        s.hand_count[seat] = static_cast<uint16_t>(count);
        for (int c = 0; c < NCODES; ++c)
            s.known[seat][c] = static_cast<uint8_t>(in.next(where + "known", 0, s.hands[seat][c]));
        s.above[seat] = static_cast<uint8_t>(in.next(where + "above", 0, r.clear4 ? 0 : 13));
        if (s.above[seat] && r.is_clear[s.above[seat]]) bad("packed position: " + where + "above is a clear card");
        s.busts[seat] = static_cast<int32_t>(in.next(where + "busts", 0, 1000000));
        s.clears[seat] = static_cast<int32_t>(in.next(where + "clears", 0, 1000000));
        s.blind_plays[seat] = static_cast<int32_t>(in.next(where + "blind_plays", 0, 1000000));
        for (int k = 0; k < STACKS; ++k) {
            const std::string at = where + "stacks[" + std::to_string(k) + "]";
            s.slen[seat][k] = static_cast<uint8_t>(in.next(at + " length", 0, r.depth));
            bool up_below = false;
            for (int i = 0; i < MAX_DEPTH; ++i) {
                if (i >= s.slen[seat][k]) {
                    in.next(at + " (past its end)", 0, 0);
                    continue;
                }
                int card = static_cast<int>(in.next(at, 1, RANK_MASK | UP));
                int rank = card & RANK_MASK;
                if ((card & ~(RANK_MASK | UP)) || rank >= r.ncodes || !r.deck[rank])
                    bad("packed position: " + at + " holds " + std::to_string(card) + ", not a card of this game");
                if (up_below && !(card & UP)) bad("packed position: " + at + ": a face-down card lies on a face-up one");
                up_below = card & UP;
                s.stacks[seat][k][i] = static_cast<uint8_t>(card);
                placed[rank] += 1;
            }
        }
        bool empty = !count && !any_stack(s, seat);
        bool pushing = s.phase == P_PUSH && seat == s.turn;
        if (empty && !s.over() && !pushing)
            bad("packed position: " + where + " holds no cards, but the hand has no winner (R14)");
        if (s.winner == seat && !empty) bad("packed position: the winner still holds cards (R14)");
    }
    for (int c = 0; c < NCODES; ++c) {
        s.cleared[c] = static_cast<uint8_t>(in.next("cleared", 0, c && c < r.ncodes ? r.deck[c] : 0));
        placed[c] += s.cleared[c];
    }
    for (int c = 0; c < NCODES; ++c) {
        s.undealt[c] = static_cast<uint8_t>(in.next("undealt", 0, c && c < r.ncodes ? r.deck[c] : 0));
        placed[c] += s.undealt[c];
    }
    s.pile_len = static_cast<uint16_t>(in.next("pile length", 0, r.decks * (r.clear4 ? 120 : 54)));
    for (int i = 0; i < s.pile_len; ++i) {
        int card = static_cast<int>(in.next("pile", 1, r.ncodes - 1));
        if (r.is_clear[card] || !r.deck[card] || card == PUSH)
            bad("packed position: pile holds " + std::to_string(card) + ", which never lies on the pile (R9, R22)");
        s.pile[i] = static_cast<uint8_t>(card);
        placed[card] += 1;
    }
    for (int i = 0; i < s.pile_len; ++i) s.pile_by[i] = static_cast<uint8_t>(in.next("pile seat", 0, n - 1));
    if (in.at != ints.size()) bad("packed position: " + std::to_string(ints.size() - in.at) + " ints too many");
    // at most the deck's cards (a seat's hidden cards dealt again may leave fewer): no count can overflow
    for (int c = 1; c < r.ncodes; ++c)
        if (placed[c] > r.deck[c])
            bad("packed position: " + std::to_string(placed[c]) + " cards of code " + std::to_string(c) +
                " are placed, but the deck holds " + std::to_string(r.deck[c]));
    if (s.phase == P_ADD && !s.pile_len) bad("packed position: phase 'add' needs a landed card on the pile");
    return s;
}

std::vector<int64_t> pack_state(const Rules& r, const State& s) {
    std::vector<int64_t> out{r.clear4,     r.players,        r.decks,           r.cards_dealt,
                             r.clear_rank, r.clear_value,    r.flat5,           r.bust_penalty,
                             r.four_plus_clears, r.piles_face_down, r.pile_card_flip, r.risk_play};
    out.insert(out.end(), {s.dealer, s.turn, s.phase, s.turns, s.winner, s.stalemate, s.ply, s.turn_start,
                           s.n_offered});
    for (int i = 0; i < STACKS; ++i) out.push_back(i < s.n_offered ? s.offered[i] : 0);
    for (int seat = 0; seat < r.players; ++seat) {
        out.insert(out.end(), s.hands[seat], s.hands[seat] + NCODES);
        out.insert(out.end(), s.known[seat], s.known[seat] + NCODES);
        out.insert(out.end(), {s.above[seat], s.busts[seat], s.clears[seat], s.blind_plays[seat]});
        for (int k = 0; k < STACKS; ++k) {
            out.push_back(s.slen[seat][k]);
            for (int i = 0; i < MAX_DEPTH; ++i) out.push_back(i < s.slen[seat][k] ? s.stacks[seat][k][i] : 0);
        }
    }
    out.insert(out.end(), s.cleared, s.cleared + NCODES);
    out.insert(out.end(), s.undealt, s.undealt + NCODES);
    out.push_back(s.pile_len);
    out.insert(out.end(), s.pile, s.pile + s.pile_len);
    out.insert(out.end(), s.pile_by, s.pile_by + s.pile_len);
    return out;
}

Move move_of(int64_t code) {
    if (code < 0 || code >= (int64_t{1} << 35)) bad("move code " + std::to_string(code) + " is out of range");
    Move m{static_cast<uint64_t>(code)};
    bool past_end = (code >> (27 + 2 * m.ns())) != 0;  // bits past the stacks it names
    if (m.kind() >= K_KINDS || m.ns() > STACKS || past_end)
        bad("move code " + std::to_string(code) + " names no move");
    return m;
}

// -- shared mechanics (core.py) --------------------------------------------------------------------------------

void clear_pile(const Rules&, State& s, int seat) {
    for (int i = 0; i < s.pile_len; ++i) ++s.cleared[s.pile[i]];
    s.pile_len = 0;
    ++s.clears[seat];
    if (!gone_out(s, seat)) new_turn(s, seat);
}

void pick_up(State& s, int seat) {
    if (!s.pile_len) return;
    for (int i = 0; i < s.pile_len; ++i) {
        ++s.hands[seat][s.pile[i]];
        ++s.known[seat][s.pile[i]];
    }
    s.hand_count[seat] = static_cast<uint16_t>(s.hand_count[seat] + s.pile_len);
    s.pile_len = 0;
    ++s.busts[seat];
}

const std::vector<uint8_t>& subsets(int n) {
    static const std::array<std::vector<uint8_t>, STACKS + 1> table = [] {
        std::array<std::vector<uint8_t>, STACKS + 1> t;
        for (int items = 0; items <= STACKS; ++items)
            for (int size = 0; size <= items; ++size) {
                // combinations in lexicographic order: as bit patterns read from the lowest position
                std::vector<uint8_t> same;
                for (int mask = 0; mask < 1 << items; ++mask)
                    if (__builtin_popcount(static_cast<unsigned>(mask)) == size) same.push_back(static_cast<uint8_t>(mask));
                auto key = [](uint8_t mask) {  // positions as digits, most significant first
                    int k = 0;
                    for (int i = 0; i < STACKS; ++i)
                        if (mask >> i & 1) k = k * 8 + i + 1;
                    return k;
                };
                for (size_t i = 1; i < same.size(); ++i)
                    for (size_t j = i; j > 0 && key(same[j]) < key(same[j - 1]); --j) std::swap(same[j], same[j - 1]);
                t[static_cast<size_t>(items)].insert(t[static_cast<size_t>(items)].end(), same.begin(), same.end());
            }
        return t;
    }();
    return table[static_cast<size_t>(n)];
}

// -- the game-independent calls (state.py) ---------------------------------------------------------------------

void legal_moves(const Rules& r, const State& s, Moves& out) {
    out.clear();
    if (s.over()) return;
    if (r.clear4)
        clear4::generate(r, s, out);
    else
        cut::generate(r, s, out);
}

void apply(const Rules& r, State& s, const Move& m) {
    ++s.ply;
    if (r.clear4)
        clear4::apply(r, s, m);
    else
        cut::apply(r, s, m);
}

int hand_points(const Rules& r, const State& s, int seat) {
    int total = 0;
    for (int c = 1; c < NCODES; ++c) total += r.points[c] * s.hands[seat][c];
    for (int k = 0; k < STACKS; ++k)
        for (int i = 0; i < s.slen[seat][k]; ++i) total += r.points[s.stacks[seat][k][i] & RANK_MASK];
    return total + s.busts[seat] * r.bust_penalty;
}

namespace {
uint64_t perft_from(const Rules& r, const State& s, int depth, std::vector<Moves>& buffers) {
    if (depth == 0 || s.over()) return 1;
    Moves& moves = buffers[static_cast<size_t>(depth)];
    legal_moves(r, s, moves);
    if (depth == 1) return moves.size();
    uint64_t total = 0;
    for (const Move& m : moves) {
        State child = s;
        apply(r, child, m);
        total += perft_from(r, child, depth - 1, buffers);
    }
    return total;
}
}  // namespace

uint64_t perft(const Rules& r, const State& s, int depth) {
    std::vector<Moves> buffers(static_cast<size_t>(depth) + 1);
    return perft_from(r, s, depth, buffers);
}

}  // namespace cut_native
