// CUT (R5–R21), following cut_tutor/engine/cut.py function for function.
#include <cstring>

#include "engine.hpp"

namespace cut_native {
namespace cut {

// How many cards of the top rank lie together on top of the pile (R10).
int run(const State& s) {
    if (!s.pile_len) return 0;
    int top = s.pile[s.pile_len - 1], k = s.pile_len - 1;
    while (k > 0 && s.pile[k - 1] == top) --k;
    return s.pile_len - k;
}

namespace {

// The seat's face-up stack tops: per rank, the stacks showing it, in stack order (core.face_up_tops).
struct Tops {
    int ks[NCODES][STACKS];
    int count[NCODES];
    int any = 0;
};

void face_up_tops(const State& s, int seat, Tops& t) {
    for (int c = 0; c < NCODES; ++c) t.count[c] = 0;
    t.any = 0;
    for (int k = 0; k < STACKS; ++k) {
        int len = s.slen[seat][k];
        if (len && s.stacks[seat][k][len - 1] & UP) {
            int rank = s.stacks[seat][k][len - 1] & RANK_MASK;
            t.ks[rank][t.count[rank]++] = k;
            ++t.any;
        }
    }
}

bool top_up(const State& s, int seat, int k) {
    int len = s.slen[seat][k];
    return len && s.stacks[seat][k][len - 1] & UP;
}

bool top_down(const State& s, int seat, int k) {
    int len = s.slen[seat][k];
    return len && !(s.stacks[seat][k][len - 1] & UP);
}

bool stacks_free(const Rules& r, const State& s, int seat) { return r.piles_face_down || s.hand_count[seat] == 0; }

int cap(const Rules& r, const State& s, int rank) {
    if (r.four_plus_clears) return NO_CAP;
    return s.pile_len && s.top() == rank ? 4 - run(s) : 4;
}

Move one_stack(int kind, int k, int rank = 0) {
    Move m = Move::of(kind, rank);
    m.add_stack(k);
    return m;
}

// Stacks whose face-down top may be played blind now (R7, R16): _blind_allowed.
int blind_allowed(const Rules& r, const State& s, int seat, int* down) {
    int n = 0;
    for (int k = 0; k < STACKS; ++k)
        if (top_down(s, seat, k)) down[n++] = k;
    if (!n || r.piles_face_down) return n;
    for (int k = 0; k < STACKS; ++k)
        if (top_up(s, seat, k)) return 0;
    return n;
}

// Ways to lay hand cards of ``rank`` with face-up stack tops ``mine`` (a few of ``n_mine``).
void with_stacks(int kind, int rank, int low, int high, const int* mine, int n_mine, int limit, Moves& out) {
    for (int n = low; n <= high; ++n)
        for (uint8_t subset : subsets(n_mine)) {
            int size = __builtin_popcount(subset);
            if (subset && n + size <= limit) {
                Move m = Move::of(kind, rank, n);
                set_stacks(m, mine, subset);
                out.push_back(m);
            }
        }
}

void clear_plays(const Rules& r, const State& s, int seat, const int* mine, int n_mine, bool free, Moves& out) {
    const uint8_t* hand = s.hands[seat];
    int tens = r.clear_rank ? hand[r.clear_rank] : 0, jokers = hand[JOKER];
    if (!(tens || jokers || n_mine)) return;
    bool empties_hand = tens + jokers == s.hand_count[seat];
    for (int a = 0; a <= tens; ++a)
        for (int b = 0; b <= jokers; ++b) {
            bool stacks = free || (empties_hand && a == tens && b == jokers);
            for (uint8_t subset : subsets(stacks ? n_mine : 0))
                if (a || b || subset) {
                    Move m = Move::of(K_CLEAR, a ? r.clear_rank : 0, a, b);
                    set_stacks(m, mine, subset);
                    out.push_back(m);
                }
        }
}

// Is the hand all of one rank (``hand_count in hand``)? Eight counts at a time: a count equal to ``hand_count``
// makes a zero byte in ``counts ^ repeated``, which the bit test finds exactly.
bool one_rank(const uint8_t* hand, int hand_count) {
    if (hand_count > 255) return false;  // no count of one code passes 255
    const uint64_t repeated = 0x0101010101010101ULL * static_cast<uint64_t>(hand_count);
    uint64_t zero = 0;
    for (int at = 0; at < 16; at += 8) {
        uint64_t counts;
        std::memcpy(&counts, hand + at, 8);
        uint64_t x = counts ^ repeated;
        zero |= (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
    }
    static_assert(NCODES == 18, "two words and two counts");
    return zero || hand[16] == hand_count || hand[17] == hand_count;
}

// Every hand-only play of each rank, one to four cards, to copy four at a time.
const std::array<std::array<Move, 4>, NRANKS> PLAYS = [] {
    std::array<std::array<Move, 4>, NRANKS> table{};
    for (int rank = 0; rank < NRANKS; ++rank)
        for (int n = 0; n < 4; ++n) table[static_cast<size_t>(rank)][static_cast<size_t>(n)] = Move::of(K_PLAY, rank, n + 1);
    return table;
}();

void plays(const Rules& r, const State& s, int seat, bool free, Moves& out) {
    const uint8_t* hand = s.hands[seat];
    const int hand_count = s.hand_count[seat];
    const int clear_held = hand[JOKER] + (r.clear_rank ? hand[r.clear_rank] : 0);
    Tops tops;
    tops.any = 0;
    bool look = free || clear_held == hand_count || one_rank(hand, hand_count);
    if (look) face_up_tops(s, seat, tops);  // else no top is read: ``tops.any`` guards every use
    // join: the tops that may join a number play (all when free, else those of a rank the hand holds only)
    bool join_any = false;
    if (tops.any)
        for (int c = 0; c < NCODES && !join_any; ++c)
            join_any = tops.count[c] && (free || hand[c] == hand_count);
    const int top = s.top();
    const bool no_cap = r.four_plus_clears;
    const int top_cap = no_cap ? NO_CAP : (s.pile_len ? 4 - run(s) : 4);
    if (!join_any && !no_cap) {  // the common case: hand cards only, at most four of a rank (R10)
        Move* at = out.room(4 * 13);
        for (int i = 0; i < r.n_number; ++i) {
            int rank = r.number_ranks[i];
            if (top && rank > top) break;
            int held = hand[rank], limit = rank == top ? top_cap : 4;
            std::memcpy(at, PLAYS[static_cast<size_t>(rank)].data(), sizeof(Move) * 4);
            at += held < limit ? held : limit;
        }
        out.commit(at);
    } else {
        for (int i = 0; i < r.n_number; ++i) {
            int rank = r.number_ranks[i];
            if (top && rank > top) break;
            int held = hand[rank];
            int limit = rank == top ? top_cap : (no_cap ? NO_CAP : 4);
            int most = held < limit ? held : limit;
            for (int n = 1; n <= most; ++n) out.push_back(Move::of(K_PLAY, rank, n));
            if (!tops.any || !tops.count[rank] || !(free || hand[rank] == hand_count)) continue;
            with_stacks(K_PLAY, rank, free ? 0 : held, held, tops.ks[rank], tops.count[rank], limit, out);
        }
    }
    int clear_tops[STACKS], n_clear = 0;
    for (int k = 0; k < STACKS && tops.any; ++k)
        if (top_up(s, seat, k) && r.is_clear[s.stacks[seat][k][s.slen[seat][k] - 1] & RANK_MASK]) clear_tops[n_clear++] = k;
    if (clear_held || n_clear) clear_plays(r, s, seat, clear_tops, n_clear, free, out);
}

void deliberate_takes(const Rules& r, const State& s, int seat, bool free, Moves& out) {
    const int top = s.top();
    Move* at = out.room(NRANKS);
    for (int rank = top + 1; rank < NRANKS; ++rank) {
        *at = Move::of(K_TAKE, rank, 1);
        at += (s.hands[seat][rank] != 0) & !r.is_clear[rank];
    }
    out.commit(at);
    if (!free) return;
    for (int k = 0; k < STACKS; ++k) {
        int rank = top_up(s, seat, k) ? s.stacks[seat][k][s.slen[seat][k] - 1] & RANK_MASK : 0;
        if (rank > top && !r.is_clear[rank]) out.push_back(one_stack(K_TAKE, k, rank));
    }
}

// R13: after a blind card lands, the ways to add cards of its rank (``add 0`` aside).
void additions(const Rules& r, const State& s, int seat, Moves& out) {
    const int rank = s.top(), limit = cap(r, s, rank), held = s.hands[seat][rank];
    for (int n = 1; n <= held && n <= limit; ++n) out.push_back(Move::of(K_ADD, rank, n));
    int mine[STACKS], n_mine = 0;
    for (int k = 0; k < STACKS; ++k)
        if (top_up(s, seat, k) && (s.stacks[seat][k][s.slen[seat][k] - 1] & RANK_MASK) == rank) mine[n_mine++] = k;
    if (!n_mine) return;
    if (stacks_free(r, s, seat))
        with_stacks(K_ADD, rank, 0, held, mine, n_mine, limit, out);
    else if (held == s.hand_count[seat])
        with_stacks(K_ADD, rank, held, held, mine, n_mine, limit, out);
}

bool any_addition(const Rules& r, const State& s, int seat) {
    static thread_local Moves some;
    some.clear();
    additions(r, s, seat, some);
    return !some.empty();
}

int gamble_offer(const State& s, int* out) {
    int n = 0;
    for (int i = 0; i < s.n_offered; ++i)
        if (top_down(s, s.turn, s.offered[i])) out[n++] = s.offered[i];
    return n;
}

// Play a stack's top card; a Board card that leaves a Risk card on top exposes it (R17).
int pop(State& s, int seat, int k) {
    bool face_up = top_up(s, seat, k);
    int card = pop_stack(s, seat, k);
    if (face_up && top_down(s, seat, k)) {
        for (int i = 0; i < s.n_offered; ++i)
            if (s.offered[i] == k) return card;
        s.offered[s.n_offered++] = static_cast<uint8_t>(k);
    }
    return card;
}

// Lay a play's cards (hand cards, Jokers, then stack cards); a clear play's go out of the game (R9).
void lay_move(State& s, int seat, const Move& m) {
    if (m.n()) spend_hand(s, seat, m.rank(), m.n());
    if (m.jokers()) spend_hand(s, seat, JOKER, m.jokers());
    if (m.kind() == K_CLEAR) {
        s.cleared[m.rank()] = static_cast<uint8_t>(s.cleared[m.rank()] + m.n());
        s.cleared[JOKER] = static_cast<uint8_t>(s.cleared[JOKER] + m.jokers());
        for (int i = 0; i < m.ns(); ++i) ++s.cleared[pop(s, seat, m.stack(i))];
        return;
    }
    for (int i = 0; i < m.n(); ++i) lay(s, seat, m.rank());
    for (int i = 0; i < m.jokers(); ++i) lay(s, seat, JOKER);
    for (int i = 0; i < m.ns(); ++i) lay(s, seat, pop(s, seat, m.stack(i)));
}

// After cards land: a natural clear (R10), going out (R14), a gamble offer (R17), or the turn passes.
void after_play(const Rules& r, State& s, int seat) {
    const int len = s.pile_len;
    if (len >= 4 && s.pile[len - 1] == s.pile[len - 2] && s.pile[len - 2] == s.pile[len - 3] &&
        s.pile[len - 3] == s.pile[len - 4]) {
        clear_pile(r, s, seat);
        return;
    }
    if (!s.hand_count[seat] && gone_out(s, seat)) return;
    int offer[STACKS];
    if (r.risk_play && gamble_offer(s, offer))
        s.phase = P_GAMBLE;
    else
        next_turn(r, s);
}

// R12: turn a face-down stack top onto the pile.
void blind(const Rules& r, State& s, int seat, int k) {
    int card = pop(s, seat, k);
    ++s.blind_plays[seat];
    if (r.is_clear[card]) {
        ++s.cleared[card];
        clear_pile(r, s, seat);
        return;
    }
    lay(s, seat, card);
    if (s.pile_len == 1 || card <= s.pile[s.pile_len - 2]) {
        if (any_addition(r, s, seat))
            s.phase = P_ADD;
        else
            after_play(r, s, seat);
        return;
    }
    pick_up(s, seat);
    next_turn(r, s);
}

// R11: show a card (or not) and take the pile into the hand.
void take(const Rules& r, State& s, int seat, const Move& m) {
    int laid = 0;
    if (m.n()) {
        spend_hand(s, seat, m.rank(), 1);
        laid = m.rank();
    } else if (m.ns()) {
        laid = pop(s, seat, m.stack(0));
    }
    if (laid)
        lay(s, seat, laid);
    else if (s.hand_count[seat] && s.top() > s.above[seat])
        s.above[seat] = static_cast<uint8_t>(s.top());
    pick_up(s, seat);
    next_turn(r, s);
}

}  // namespace

void generate(const Rules& r, const State& s, Moves& out) {
    const int seat = s.turn;
    if (s.phase == P_ADD) {
        out.push_back(Move::of(K_ADD));
        additions(r, s, seat, out);
        return;
    }
    if (s.phase == P_GAMBLE) {
        int offer[STACKS];
        int n = gamble_offer(s, offer);
        for (int i = 0; i < n; ++i) out.push_back(one_stack(K_GAMBLE, offer[i]));
        out.push_back(Move::of(K_DONE));
        return;
    }
    const bool free = stacks_free(r, s, seat);
    plays(r, s, seat, free, out);
    if (free) {
        int down[STACKS];
        int n = blind_allowed(r, s, seat, down);
        for (int i = 0; i < n; ++i) out.push_back(one_stack(K_FLIP, down[i]));
        if (r.pile_card_flip)
            for (int i = 0; i < n; ++i) out.push_back(one_stack(K_TURNUP, down[i]));
    }
    if (!s.pile_len) return;
    if (out.empty()) out.push_back(Move::of(K_TAKE));
    deliberate_takes(r, s, seat, free, out);
}

void apply(const Rules& r, State& s, const Move& m) {
    const int seat = s.turn;
    switch (m.kind()) {
        case K_PLAY:
        case K_ADD:
            lay_move(s, seat, m);
            after_play(r, s, seat);
            return;
        case K_CLEAR:
            lay_move(s, seat, m);
            clear_pile(r, s, seat);
            return;
        case K_TAKE:
            take(r, s, seat, m);
            return;
        case K_GAMBLE:
            for (int i = 0; i < s.n_offered; ++i)
                if (s.offered[i] == m.stack(0)) {
                    for (int j = i + 1; j < s.n_offered; ++j) s.offered[j - 1] = s.offered[j];
                    --s.n_offered;
                    break;
                }
            blind(r, s, seat, m.stack(0));
            return;
        case K_FLIP:
            blind(r, s, seat, m.stack(0));
            return;
        case K_TURNUP: {
            int k = m.stack(0);
            s.stacks[seat][k][s.slen[seat][k] - 1] |= UP;
            next_turn(r, s);
            return;
        }
        default:  // DONE
            next_turn(r, s);
    }
}

}  // namespace cut
}  // namespace cut_native
