// Clear 4 (R22), following cut_tutor/engine/clear4.py function for function.
#include "engine.hpp"

namespace cut_native {
namespace clear4 {

// The value to play equal or lower to: the last number on the pile (0: empty, or opened by JOKERs).
int top_value(const State& s) {
    for (int i = s.pile_len - 1; i >= 0; --i)
        if (s.pile[i] != WILD) return s.pile[i];
    return 0;
}

// How many cards of the top value lie on the pile, JOKERs counted as the value they took (R22).
int run(const State& s) {
    const int value = top_value(s);
    if (!value) return 0;
    int count = 0;
    for (int i = s.pile_len - 1; i >= 0;) {  // a block of JOKERs counts as the number just below it
        int j = i;
        while (j >= 0 && s.pile[j] == WILD) --j;
        if (j < 0 || s.pile[j] != value) break;
        count += i - j + 1;
        i = j - 1;
    }
    return count;
}

namespace {

constexpr int FOUR = 4;
// More cards than any play can lay: no cap.
constexpr int UNCAPPED = 1 << 20;

int top_rank(const State& s, int seat, int k) { return s.stacks[seat][k][s.slen[seat][k] - 1] & RANK_MASK; }
bool top_up(const State& s, int seat, int k) {
    int len = s.slen[seat][k];
    return len && s.stacks[seat][k][len - 1] & UP;
}

// The most cards of ``value`` one play may lay: never more than four of a value on the pile; JOKERs with no value
// to take (``value`` 0, opening the pile) have no cap (R22).
int cap(const State& s, int value) {
    if (!value) return UNCAPPED;
    return value == top_value(s) ? FOUR - run(s) : FOUR;
}

Move one_stack(int kind, int k, int rank = 0) {
    Move m = Move::of(kind, rank);
    m.add_stack(k);
    return m;
}

// Every way to lay cards of ``value``: hand cards, stack cards (a stack's JOKER joins as the value) and the hand's
// JOKERs, at least one real card of the value, at most ``limit`` cards (_number_plays).
void number_plays(int kind, int value, int held, const int* mine, int n_mine, int jokers, const int* joker_tops,
                  int n_jokers, int limit, Moves& out) {
    int items[STACKS], n_items = 0;
    bool real[STACKS];
    {  // sorted(mine + joker_tops): both hold stacks in increasing order
        int i = 0, j = 0;
        while (i < n_mine || j < n_jokers) {
            bool from_mine = j >= n_jokers || (i < n_mine && mine[i] < joker_tops[j]);
            real[n_items] = from_mine;
            items[n_items++] = from_mine ? mine[i++] : joker_tops[j++];
        }
    }
    for (uint8_t subset : subsets(n_items)) {
        int size = __builtin_popcount(subset);
        if (size > limit) return;
        int from_stacks = 0;
        for (int i = 0; i < n_items; ++i) from_stacks += (subset >> i & 1) && real[i];
        int most = held < limit - size ? held : limit - size;
        for (int n = 0; n <= most; ++n) {
            if (n + from_stacks == 0) continue;
            int most_j = jokers < limit - size - n ? jokers : limit - size - n;
            for (int j = 0; j <= most_j; ++j) {
                Move m = Move::of(kind, value, n, j);
                set_stacks(m, items, subset);
                out.push_back(m);
            }
        }
    }
}

// JOKERs alone: they take the top card's value (_joker_plays).
void joker_plays(int kind, int jokers, const int* joker_tops, int n_jokers, int limit, Moves& out) {
    for (uint8_t subset : subsets(n_jokers)) {
        int size = __builtin_popcount(subset);
        if (size > limit) return;
        int most = jokers < limit - size ? jokers : limit - size;
        for (int n = 0; n <= most; ++n)
            if (n || subset) {
                Move m = Move::of(kind, WILD, n);
                set_stacks(m, joker_tops, subset);
                out.push_back(m);
            }
    }
}

// The stacks of ``seat`` showing ``rank`` face-up, in stack order.
int tops_of(const State& s, int seat, int rank, int* out) {
    int n = 0;
    for (int k = 0; k < STACKS; ++k)
        if (top_up(s, seat, k) && top_rank(s, seat, k) == rank) out[n++] = k;
    return n;
}

// The cards that may join what just landed (``add 0`` aside).
void additions(const State& s, Moves& out) {
    const int seat = s.turn, value = top_value(s), limit = cap(s, value);
    int mine[STACKS], joker_tops[STACKS], n_mine = 0, n_jokers = 0, held, jokers;
    if (s.n_offered) {
        for (int i = 0; i < s.n_offered; ++i) {
            int k = s.offered[i];
            if (!top_up(s, seat, k)) continue;
            if (value && top_rank(s, seat, k) == value) mine[n_mine++] = k;
            if (top_rank(s, seat, k) == WILD) joker_tops[n_jokers++] = k;
        }
        held = jokers = 0;
    } else {
        n_mine = value ? tops_of(s, seat, value, mine) : 0;
        n_jokers = tops_of(s, seat, WILD, joker_tops);
        held = value ? s.hands[seat][value] : 0;
        jokers = s.hands[seat][WILD];
    }
    if (value) number_plays(K_ADD, value, held, mine, n_mine, jokers, joker_tops, n_jokers, limit, out);
    joker_plays(K_ADD, jokers, joker_tops, n_jokers, limit, out);
}

bool any_addition(const State& s) {
    static thread_local Moves some;
    some.clear();
    additions(s, some);
    return !some.empty();
}

// Play a stack's top card; the middle card beneath is turned up at once (R22).
int pop(State& s, int seat, int k) {
    int card = pop_stack(s, seat, k);
    int len = s.slen[seat][k];
    if (len >= 2 && !(s.stacks[seat][k][len - 1] & UP)) {
        s.stacks[seat][k][len - 1] |= UP;
        s.offered[s.n_offered++] = static_cast<uint8_t>(k);
    }
    return card;
}

// Lay a play's cards, numbers first so its JOKERs take their value; returns how many were laid.
int lay_move(State& s, int seat, const Move& m) {
    s.n_offered = 0;
    if (m.n()) spend_hand(s, seat, m.rank(), m.n());
    if (m.jokers()) spend_hand(s, seat, WILD, m.jokers());
    int popped[STACKS];
    for (int i = 0; i < m.ns(); ++i) popped[i] = pop(s, seat, m.stack(i));
    int laid = 0;
    for (int i = 0; i < m.n(); ++i, ++laid) lay(s, seat, m.rank());
    if (m.rank() != WILD)
        for (int i = 0; i < m.ns(); ++i)
            if (popped[i] != WILD) lay(s, seat, popped[i]), ++laid;
    for (int i = 0; i < m.jokers(); ++i, ++laid) lay(s, seat, WILD);
    for (int i = 0; i < m.ns(); ++i)
        if (popped[i] == WILD || m.rank() == WILD) lay(s, seat, popped[i]), ++laid;
    return laid;
}

// After cards land: a fourth card clears (go again), going out, a turned-up match may join, or the turn passes.
void after_lay(const Rules& r, State& s, int seat, int laid) {
    if (run(s) >= FOUR) {
        clear_pile(r, s, seat);
        return;
    }
    if (gone_out(s, seat)) return;
    const int value = top_value(s);
    int n = 0;
    if (laid)
        for (int i = 0; i < s.n_offered; ++i) {
            int k = s.offered[i], rank = top_rank(s, seat, k);
            if (rank == value || rank == WILD) s.offered[n++] = static_cast<uint8_t>(k);
        }
    s.n_offered = static_cast<uint8_t>(n);
    if (n && any_addition(s))
        s.phase = P_ADD;
    else
        next_turn(r, s);
}

// The final card, played blind as the first card of a turn (R22).
void blind(const Rules& r, State& s, int seat, int k) {
    s.n_offered = 0;
    int card = pop_stack(s, seat, k);
    ++s.blind_plays[seat];
    if (card == CLEAR_CARD) {
        ++s.cleared[card];
        clear_pile(r, s, seat);
        return;
    }
    if (card == PUSH) {
        ++s.cleared[card];
        s.phase = P_PUSH;
        return;
    }
    const int value = top_value(s);
    lay(s, seat, card);
    if (card != WILD && value && card > value) {
        pick_up(s, seat);
        next_turn(r, s);
        return;
    }
    if (run(s) >= FOUR) {
        clear_pile(r, s, seat);
        return;
    }
    if (gone_out(s, seat)) return;
    if (any_addition(s))
        s.phase = P_ADD;
    else
        next_turn(r, s);
}

}  // namespace

void generate(const Rules& r, const State& s, Moves& out) {
    const int seat = s.turn;
    if (s.phase == P_ADD) {
        out.push_back(Move::of(K_ADD));
        additions(s, out);
        return;
    }
    if (s.phase == P_PUSH) {
        for (int t = 0; t < r.players; ++t)
            if (t != seat) out.push_back(Move::of(K_PUSH, 0, 0, 0, t));
        return;
    }
    const uint8_t* hand = s.hands[seat];
    const int value = top_value(s);
    int joker_tops[STACKS], mine[STACKS];
    const int n_jokers = tops_of(s, seat, WILD, joker_tops), jokers = hand[WILD];
    for (int rank = 1; rank <= 10; ++rank) {
        if (value && rank > value) break;
        int n_mine = tops_of(s, seat, rank, mine);
        if (hand[rank] || n_mine)
            number_plays(K_PLAY, rank, hand[rank], mine, n_mine, jokers, joker_tops, n_jokers, cap(s, rank), out);
    }
    if (jokers || n_jokers) joker_plays(K_PLAY, jokers, joker_tops, n_jokers, cap(s, value), out);
    if (hand[PUSH])
        for (int t = 0; t < r.players; ++t)
            if (t != seat) out.push_back(Move::of(K_PUSH, 0, 1, 0, t));
    int pushes[STACKS];
    const int n_push = tops_of(s, seat, PUSH, pushes);
    for (int i = 0; i < n_push; ++i)
        for (int t = 0; t < r.players; ++t)
            if (t != seat) {
                Move m = Move::of(K_PUSH, 0, 0, 0, t);
                m.add_stack(pushes[i]);
                out.push_back(m);
            }
    if (hand[CLEAR_CARD]) out.push_back(Move::of(K_CLEAR, CLEAR_CARD, 1));
    int clears[STACKS];
    const int n_clear = tops_of(s, seat, CLEAR_CARD, clears);
    for (int i = 0; i < n_clear; ++i) out.push_back(one_stack(K_CLEAR, clears[i]));
    for (int k = 0; k < STACKS; ++k)
        if (s.slen[seat][k] && !(s.stacks[seat][k][s.slen[seat][k] - 1] & UP)) out.push_back(one_stack(K_FLIP, k));
    if (s.pile_len) out.push_back(Move::of(K_TAKE));
}

void apply(const Rules& r, State& s, const Move& m) {
    const int seat = s.turn;
    switch (m.kind()) {
        case K_PLAY:
        case K_ADD:
            after_lay(r, s, seat, m.size() ? lay_move(s, seat, m) : 0);
            return;
        case K_CLEAR:
            if (m.n())
                spend_hand(s, seat, CLEAR_CARD, 1);
            else
                pop(s, seat, m.stack(0));
            ++s.cleared[CLEAR_CARD];
            clear_pile(r, s, seat);
            return;
        case K_PUSH: {
            bool spent = m.n() || m.ns();
            if (m.n())
                spend_hand(s, seat, PUSH, 1);
            else if (m.ns())
                pop(s, seat, m.stack(0));
            if (spent) ++s.cleared[PUSH];
            pick_up(s, m.to());
            if (!gone_out(s, seat)) next_turn(r, s);
            return;
        }
        case K_TAKE:
            pick_up(s, seat);
            next_turn(r, s);
            return;
        default:  // FLIP
            blind(r, s, seat, m.stack(0));
    }
}

}  // namespace clear4
}  // namespace cut_native
