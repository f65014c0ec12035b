// The rules engine in C++: CUT (R5–R21) and Clear 4 (R22), move for move the same as cut_tutor/engine.
//
// The Python engine (cut_tutor/engine/cut.py, clear4.py, core.py) is the reference: every function here names the
// Python function it follows, lists moves in the same order and changes a state the same way. A position crosses
// into C++ once per call as a flat list of ints (cut_tutor/engine/packed.py writes and reads it); moves cross as
// one int each. A State is fixed-size arrays of small ints, so copying one is a memcpy: rollouts and perft copy
// freely, and a seat's view can later be read off the same arrays.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cut_native {

// Card codes (cut_tutor/engine/cards.py).
constexpr int JOKER = 14, PUSH = 15, WILD = 16, CLEAR_CARD = 17;
constexpr int NCODES = 18, NRANKS = 15;
constexpr int UP = 32, RANK_MASK = 31;
constexpr int STACKS = 4, MAX_DEPTH = 3, MAX_SEATS = 8, MAX_DECKS = 12;
// The most cards in play: twelve 54-card decks (R1).
constexpr int MAX_CARDS = MAX_DECKS * 54;
constexpr int STALEMATE_TURNS = 2000;  // R15
constexpr int NO_CAP = 99;             // 4+ Card Clears lifts the USA cap (R10)

// Move kinds (cut_tutor/engine/moves.py), in the order of the packed move code.
enum Kind : uint8_t { K_PLAY, K_CLEAR, K_TAKE, K_FLIP, K_ADD, K_GAMBLE, K_DONE, K_TURNUP, K_PUSH, K_KINDS };
// Turn phases (cut_tutor/engine/core.py).
enum Phase : uint8_t { P_PLAY, P_ADD, P_GAMBLE, P_PUSH };

// The fields of cut_tutor.engine.rules.Rules that change play or scoring, with the tables derived from them.
struct Rules {
    bool clear4 = false;
    int players = 4, decks = 3, cards_dealt = 20, clear_rank = 10, clear_value = 25, bust_penalty = 0;
    bool flat5 = false, four_plus_clears = false, piles_face_down = false, pile_card_flip = false, risk_play = false;
    // derived
    bool is_clear[NCODES] = {};
    int points[NCODES] = {};
    int deck[NCODES] = {};
    int number_ranks[13] = {};
    int n_number = 0;
    int ncodes = NRANKS, depth = 2;
};

// One decision (cut_tutor.engine.moves.Move), held as its code: kind | rank << 4 | n << 9 | jokers << 15 | to << 21
// | the number of stacks << 24, then each stack named in two bits from bit 27, in the order the move names them.
// One word, so generating a move is one store.
struct Move {
    uint64_t code = 0;
    static Move of(int kind, int rank = 0, int n = 0, int jokers = 0, int to = 0) {
        return Move{static_cast<uint64_t>(kind | rank << 4 | n << 9 | jokers << 15 | to << 21)};
    }
    int kind() const { return static_cast<int>(code & 15); }
    int rank() const { return static_cast<int>(code >> 4 & 31); }
    int n() const { return static_cast<int>(code >> 9 & 63); }
    int jokers() const { return static_cast<int>(code >> 15 & 63); }
    int to() const { return static_cast<int>(code >> 21 & 7); }
    int ns() const { return static_cast<int>(code >> 24 & 7); }
    int stack(int i) const { return static_cast<int>(code >> (27 + 2 * i) & 3); }
    void add_stack(int k) {
        const int i = ns();
        code += uint64_t{1} << 24;
        code |= static_cast<uint64_t>(k) << (27 + 2 * i);
    }
    int size() const { return n() + ns() + jokers(); }
};

// Everything cut_tutor.engine.core.Core holds but the rules and the move list (whose length is ``ply``).
struct State {
    uint8_t hands[MAX_SEATS][NCODES];
    uint8_t known[MAX_SEATS][NCODES];
    uint8_t above[MAX_SEATS];
    uint16_t hand_count[MAX_SEATS];
    uint8_t stacks[MAX_SEATS][STACKS][MAX_DEPTH];  // bottom first, UP bit on face-up cards
    uint8_t slen[MAX_SEATS][STACKS];
    uint8_t cleared[NCODES];
    uint8_t undealt[NCODES];
    uint8_t offered[STACKS];  // CUT: Risk cards exposed this turn (R17); Clear 4: middle cards turned up (R22)
    uint8_t n_offered;
    uint8_t dealer, turn, phase;
    int8_t winner;  // -1: none
    bool stalemate;
    int32_t turns, ply, turn_start;
    int32_t busts[MAX_SEATS], clears[MAX_SEATS], blind_plays[MAX_SEATS];
    uint16_t pile_len;
    uint8_t pile[MAX_CARDS];
    uint8_t pile_by[MAX_CARDS];

    bool over() const { return winner >= 0 || stalemate; }
    int top() const { return pile_len ? pile[pile_len - 1] : 0; }
};

// A move list that keeps its memory between calls: clearing it frees nothing, and a generator may write a run of
// moves straight into ``room`` and keep the first few with ``commit`` (no branch per move).
class Moves {
public:
    void clear() { n_ = 0; }
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    const Move& operator[](size_t i) const { return buf_[i]; }
    const Move* begin() const { return buf_.data(); }
    const Move* end() const { return buf_.data() + n_; }
    void push_back(Move m) { *room(1) = m, ++n_; }
    Move* room(size_t k) {
        if (n_ + k > buf_.size()) buf_.resize(std::max(2 * buf_.size(), n_ + k + 64));
        return buf_.data() + n_;
    }
    void commit(const Move* end) { n_ = static_cast<size_t>(end - buf_.data()); }

private:
    std::vector<Move> buf_;
    size_t n_ = 0;
};

// -- the packed forms (cut_tutor/engine/packed.py) -----------------------------------------------------------

// Rules from their packed ints; raises std::invalid_argument naming a bad field.
Rules rules_from(const std::vector<int64_t>& ints);
// A state from its packed ints (after the rules' ints); every field checked, raising std::invalid_argument.
State state_from(const Rules& rules, const std::vector<int64_t>& ints);
std::vector<int64_t> pack_state(const Rules& rules, const State& s);
// The move a code names; raises std::invalid_argument for a code no move has.
Move move_of(int64_t code);

// -- the rules ------------------------------------------------------------------------------------------------

// Every legal move of the seat to move, in the reference's order (State.legal_moves).
void legal_moves(const Rules& r, const State& s, Moves& out);
// Apply a move known to be legal (State.apply).
void apply(const Rules& r, State& s, const Move& m);
// Each seat's score for the hand: card points plus bust penalties (R3, R19, R20).
int hand_points(const Rules& r, const State& s, int seat);
// Move sequences of ``depth`` decisions; a finished hand is one leaf.
uint64_t perft(const Rules& r, const State& s, int depth);

// Each game's answers to the pile's two questions, as its Python module gives them (GameModule.run and
// completes_four): the pile's top run, and whether a play leaves four of its value on top. The coach asks these;
// it counts no run of its own.
namespace cut {
void generate(const Rules& r, const State& s, Moves& out);
void apply(const Rules& r, State& s, const Move& m);
// How many cards of the top rank lie together on top of the pile (R10).
int run(const State& s);
// Does this play leave four or more of its rank on top, ``run`` cards of ``top`` lying there (R10)?
inline bool completes_four(int top, int run, const Move& m) { return (top == m.rank() ? run : 0) + m.size() >= 4; }
}  // namespace cut
namespace clear4 {
void generate(const Rules& r, const State& s, Moves& out);
void apply(const Rules& r, State& s, const Move& m);
// The value to play equal or lower to (0: any), and how many cards of it lie on top of the pile (R22).
int top_value(const State& s);
int run(const State& s);
// Does this play leave four or more of one value on top, ``run`` cards of value ``top`` lying there (R22)? Its
// cards take the play's number, or the pile's value when they are JOKERs alone; JOKERs with no number below them
// never clear; a landed card sent alone (no cards) clears when it is itself the fourth.
inline bool completes_four(int top, int run, const Move& m) {
    if (!m.size()) return run >= 4;
    const int value = m.rank() == WILD ? top : m.rank();
    return value && (value == top ? run : 0) + m.size() >= 4;
}
}  // namespace clear4

// -- shared mechanics (cut_tutor/engine/core.py) ----------------------------------------------------------

// The small ones inline: every decision calls them.
inline bool any_stack(const State& s, int seat) {
    for (int k = 0; k < STACKS; ++k)
        if (s.slen[seat][k]) return true;
    return false;
}

inline void spend_hand(State& s, int seat, int rank, int n) {
    s.hands[seat][rank] = static_cast<uint8_t>(s.hands[seat][rank] - n);
    s.hand_count[seat] = static_cast<uint16_t>(s.hand_count[seat] - n);
    uint8_t& known = s.known[seat][rank];
    if (known) known = static_cast<uint8_t>(known > n ? known - n : 0);
}

// A stack's top card, removed (0 for an empty stack, which no legal move pops).
inline int pop_stack(State& s, int seat, int k) {
    uint8_t& len = s.slen[seat][k];
    return len ? s.stacks[seat][k][--len] & RANK_MASK : 0;
}

inline void lay(State& s, int seat, int card) {
    s.pile[s.pile_len] = static_cast<uint8_t>(card);
    s.pile_by[s.pile_len++] = static_cast<uint8_t>(seat);
}

inline void new_turn(State& s, int seat) {
    s.turn = static_cast<uint8_t>(seat);
    s.phase = P_PLAY;
    s.n_offered = 0;
    s.turn_start = s.ply;
    if (++s.turns > STALEMATE_TURNS) s.stalemate = true;
}

inline void next_turn(const Rules& r, State& s) { new_turn(s, (s.turn + 1) % r.players); }

// A seat out of cards wins (R14), and the hand ends with no step open: no addition, no blind PUSH's seat (R22).
inline bool gone_out(State& s, int seat) {
    if (s.hand_count[seat] || any_stack(s, seat)) return false;
    s.winner = static_cast<int8_t>(seat);
    s.phase = P_PLAY;
    s.n_offered = 0;
    return true;
}

void clear_pile(const Rules& r, State& s, int seat);
void pick_up(State& s, int seat);

// Every subset of ``n`` items as position masks, smallest first, each size in combinations' order.
const std::vector<uint8_t>& subsets(int n);
// A move laying ``subset`` (positions into ``items``) as its stacks.
inline void set_stacks(Move& m, const int* items, uint8_t subset) {
    for (int i = 0; i < STACKS; ++i)
        if (subset >> i & 1) m.add_stack(items[i]);
}

// -- random playouts ----------------------------------------------------------------------------------------

// One playout's result: each seat's hand score, the seat that went out (-1: stalemate), decisions made.
struct Playout {
    std::vector<int64_t> scores;
    int winner;
    int64_t decisions;
};

// Play ``s`` to its end ``count`` times with every seat choosing ``moves[randbelow(len(moves))]`` (players.py's
// RandomPlayer with play_hand), one generator across all playouts.
template <class RandBelow>
std::vector<Playout> random_playouts(const Rules& r, const State& start, int64_t count, RandBelow&& randbelow) {
    std::vector<Playout> out;
    out.reserve(static_cast<size_t>(count));
    Moves moves;
    State s;
    for (int64_t i = 0; i < count; ++i) {
        s = start;
        int64_t decisions = 0;
        while (!s.over()) {
            legal_moves(r, s, moves);
            if (moves.empty()) throw std::invalid_argument("the seat to move has no legal move, yet the hand goes on");
            apply(r, s, moves[static_cast<size_t>(randbelow(static_cast<uint64_t>(moves.size())))]);
            ++decisions;
        }
        Playout p{std::vector<int64_t>(static_cast<size_t>(r.players)), s.winner, decisions};
        for (int seat = 0; seat < r.players; ++seat) p.scores[static_cast<size_t>(seat)] = hand_points(r, s, seat);
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace cut_native
