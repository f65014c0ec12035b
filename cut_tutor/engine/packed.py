"""The compiled engine's side door: a :class:`State` packed into a flat list of ints, moves as one int each.

The compiled core (``cut_tutor/native/engine*.cpp``, module ``cut_tutor._native``) plays the same rules as this
package, move for move; this module is the one place that translates. A call crosses into C++ once with a whole
position and comes back with a whole result (the legal moves, the next position, a perft count, a batch of random
playouts), so the crossing costs nothing per move. Without the compiled module every function here answers with the
Python engine, which stays the reference: the tests play both and compare.

A packed position, every field an int:

- rules (12): game (0 CUT, 1 Clear 4), players, decks in play, cards dealt, clear rank (0: only Jokers), clear value,
  card scoring (1: flat5), bust penalty, 4+ Card Clears, Piles Face Down, Pile Card Flip, Risk Play;
- dealer, turn, phase (play, add, gamble, push: 0–3), turns, winner (-1: none), stalemate, moves played,
  the move count when this turn began, then the exposed (CUT) or turned-up (Clear 4) stacks: a count and four slots;
- per seat: the hand's counts (18 codes), the known counts (18), the bare-take mark ``above``, busts, clears,
  blind plays, then four stacks, each a length and three cards (bottom first, :data:`~.cards.UP` on face-up cards);
- cleared counts (18), undealt counts (18), the pile's length, its cards, and the seat that laid each.

A move code packs ``kind | rank << 4 | n << 9 | jokers << 15 | to << 21 | len(stacks) << 24``, then each stack
in two bits from bit 27.

>>> from cut_tutor.engine import Rules, State
>>> state = State.deal(Rules(), seed=7)
>>> unpack(state.rules, pack(state)).to_position() == state.to_position()
True
>>> move_of(code_of(Move.parse("3×9 s1 s3")))
Move(kind='play', rank=9, n=1, stacks=(0, 2), jokers=0, to=-1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from ..compiled import NATIVE as _COMPILED
from .cards import NCODES, STACKS
from .moves import ADD, CLEAR, DONE, FLIP, GAMBLE, PLAY, PUSH, TAKE, TURNUP, Move
from .players import Player, RandomPlayer, play_hand
from .rules import Rules
from .state import State

#: Move kinds by their number in a move code.
KINDS = (PLAY, CLEAR, TAKE, FLIP, ADD, GAMBLE, DONE, TURNUP, PUSH)
_KIND_CODES = {kind: code for code, kind in enumerate(KINDS)}
#: Turn phases by their number in a packed position.
PHASES = ("play", "add", "gamble", "push")
_PHASE_CODES = {phase: code for code, phase in enumerate(PHASES)}
#: Cards one stack holds at most (Clear 4's three).
DEPTH = 3
#: Where the first seat starts in a packed position: the rules (12) and the table's fields (9 + 4 exposed slots).
RULES_INTS, HEAD_INTS = 12, 25

#: The ints of one seat: hand and known counts, four marks, then each stack's length and cards.
SEAT_INTS = 2 * NCODES + 4 + STACKS * (1 + DEPTH)


def hand_at(seat: int, code: int) -> int:
    """Where a packed position holds how many cards of ``code`` are in ``seat``'s hand."""
    return HEAD_INTS + seat * SEAT_INTS + code


def stack_at(seat: int, stack: int, depth: int) -> int:
    """Where a packed position holds the card ``depth`` from the bottom of one of ``seat``'s stacks."""
    return HEAD_INTS + seat * SEAT_INTS + 2 * NCODES + 4 + stack * (1 + DEPTH) + 1 + depth


def undealt_at(players: int, code: int) -> int:
    """Where a packed position of ``players`` seats holds how many cards of ``code`` are undealt."""
    return HEAD_INTS + players * SEAT_INTS + NCODES + code


#: The compiled engine (``cut_tutor._native.engine``), or ``None`` on the Python path (see :mod:`cut_tutor.compiled`).
NATIVE = None if _COMPILED is None else _COMPILED.engine


def pack_rules(rules: Rules) -> list[int]:
    """The 12 ints of the rules that change play or scoring."""
    return [
        int(rules.clear4), rules.players, rules.deck_count, rules.cards_dealt, rules.clear_rank or 0,
        rules.clear_value, int(rules.card_scoring == "flat5"), rules.bust_penalty, int(rules.four_plus_clears),
        int(rules.piles_face_down), int(rules.pile_card_flip), int(rules.risk_play),
    ]  # fmt: skip


def _counts(counts: Sequence[int]) -> list[int]:
    """A count array padded to every code (CUT's stop at its Joker)."""
    return [*counts, *[0] * (NCODES - len(counts))]


def pack(state: State) -> list[int]:
    """The packed position of a state (every card, hidden ones too)."""
    offered = state.game.offered(state)
    winner = -1 if state.winner is None else state.winner
    out = pack_rules(state.rules)
    out += [state.dealer, state.turn, _PHASE_CODES[state.phase], state.turns, winner, int(state.stalemate)]
    out += [len(state.moves), state.turn_start, len(offered), *offered, *[0] * (STACKS - len(offered))]
    for seat in range(state.players):
        out += _counts(state.hands[seat]) + _counts(state.known[seat])
        out += [state.above[seat], state.busts[seat], state.clears[seat], state.blind_plays[seat]]
        for stack in state.stacks[seat]:
            out += [len(stack), *stack, *[0] * (DEPTH - len(stack))]
    out += _counts(state.cleared) + _counts(state.undealt)
    out += [len(state.pile), *state.pile, *state.pile_by]
    return out


def unpack(rules: Rules, packed: Sequence[int], moves: Sequence[Move] = ()) -> State:
    """The state a packed position holds, under ``rules`` (the ones it was packed with), after ``moves``."""
    state = State(rules)
    size, n = rules.ncodes, rules.players
    head = packed[RULES_INTS:HEAD_INTS]
    state.dealer, state.turn, phase, state.turns, winner, stalemate = head[:6]
    state.phase, state.winner, state.stalemate = PHASES[phase], None if winner < 0 else winner, bool(stalemate)
    state.moves, state.turn_start = list(moves), head[7]
    state.game.offered(state)[:] = head[9 : 9 + head[8]]
    at = HEAD_INTS
    for seat in range(n):
        state.hands[seat] = list(packed[at : at + size])
        state.known[seat] = list(packed[at + NCODES : at + NCODES + size])
        state.hand_count[seat] = sum(state.hands[seat])
        at += 2 * NCODES
        state.above[seat], state.busts[seat], state.clears[seat], state.blind_plays[seat] = packed[at : at + 4]
        at += 4
        for k in range(STACKS):
            state.stacks[seat][k] = list(packed[at + 1 : at + 1 + packed[at]])
            at += 1 + DEPTH
    state.cleared = list(packed[at : at + size])
    state.undealt = list(packed[at + NCODES : at + NCODES + size])
    at += 2 * NCODES
    length = packed[at]
    state.pile = list(packed[at + 1 : at + 1 + length])
    state.pile_by = list(packed[at + 1 + length : at + 1 + 2 * length])
    return state


def code_of(move: Move) -> int:
    """A move's code (see the module's docstring)."""
    code = _KIND_CODES[move.kind] | move.rank << 4 | move.n << 9 | move.jokers << 15 | max(move.to, 0) << 21
    code |= len(move.stacks) << 24
    for i, k in enumerate(move.stacks):
        code |= k << (27 + 2 * i)
    return code


@lru_cache(maxsize=65536)
def move_of(code: int) -> Move:
    """The move a code names; the same few hundred codes come back again and again, so each is read once."""
    stacks = tuple(code >> (27 + 2 * i) & 3 for i in range(code >> 24 & 7))
    kind = KINDS[code & 15]
    return Move(kind, code >> 4 & 31, code >> 9 & 63, stacks, code >> 15 & 63, code >> 21 & 7 if kind == PUSH else -1)


# -- the engine's calls, compiled where built ---------------------------------------------------------------


def legal_moves(state: State) -> list[Move]:
    """:meth:`State.legal_moves`, from the compiled engine where it is built."""
    if NATIVE is None:
        return list(state.legal_moves())
    return [move_of(code) for code in NATIVE.legal_moves(pack(state))]


def successor(state: State, move: Move) -> State:
    """A new state after a legal ``move`` (``state`` unchanged); an illegal one raises :class:`ValueError`."""
    if NATIVE is None:
        new = state.copy()
        new.play(move)
        return new
    new = unpack(state.rules, NATIVE.successor(pack(state), code_of(move)), [*state.moves, move])
    new.deal_code = state.deal_code
    return new


def perft(state: State, depth: int) -> int:
    """Move sequences of ``depth`` decisions from ``state``; a finished hand counts as one leaf."""
    if NATIVE is not None:
        return int(NATIVE.perft(pack(state), depth))
    if depth == 0 or state.over:
        return 1
    return sum(perft(successor(state, move), depth - 1) for move in state.legal_moves())


class Playout(NamedTuple):
    """How one random-policy playout ended: each seat's score for the hand (R19, R20), the seat that went out
    (``None``: stalemate, R15) and the decisions played."""

    scores: tuple[int, ...]
    winner: int | None
    decisions: int


def random_playouts(state: State, count: int, rng: random.Random) -> list[Playout]:
    """Play ``state`` to its end ``count`` times with every seat a :class:`~.players.RandomPlayer`, one generator
    throughout: compiled where built, with the same results and the same generator state after as
    :func:`reference_playouts`."""
    if NATIVE is None or _COMPILED is None:
        return reference_playouts(state, count, rng)
    native_rng = _COMPILED.Random(rng.getstate())
    rows = NATIVE.random_playouts(pack(state), count, native_rng)
    rng.setstate(native_rng.getstate())
    return [Playout(tuple(row[:-2]), None if row[-2] < 0 else row[-2], row[-1]) for row in rows]


def reference_playouts(state: State, count: int, rng: random.Random) -> list[Playout]:
    """:func:`random_playouts` on the Python engine: the play loop of :func:`~.players.play_hand`."""
    players: list[Player] = [RandomPlayer()] * state.players
    out = []
    for _ in range(count):
        hand = play_hand(state.copy(), players, rng)
        out.append(Playout(tuple(hand.scores()), hand.winner, len(hand.moves) - len(state.moves)))
    return out
