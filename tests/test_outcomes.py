"""What a move did: every kind of :class:`Outcome` on a hand-built position, and a property that an outcome's cards
account for the state's change over random games of both games."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cut_tutor.engine import IllegalMoveError, Move, Outcome, Rules, State
from cut_tutor.engine.cards import CLEAR_CARD, JOKER, PUSH, RANK_MASK, UP
from cut_tutor.engine.moves import FLIP, GAMBLE, TURNUP
from cut_tutor.engine.moves import PUSH as PUSH_MOVE
from cut_tutor.engine.rules import STALEMATE_TURNS

CLEAR4_RULES = Rules.from_preset("Clear 4", players=2)


def pos(seats: Sequence[tuple[str, Sequence[str]] | str], pile: str = "", rules: Rules | None = None,
        **extra: Any) -> State:  # fmt: skip
    """A two-seat position, seat 0 to move: a seat is a hand, or a hand with its stacks."""
    full = [(seat, ()) if isinstance(seat, str) else seat for seat in seats]
    data = {
        "rules": (rules or Rules(players=len(full))).to_dict(),
        "turn": 0,
        "dealer": len(full) - 1,
        "pile": pile,
        "seats": [{"hand": hand, "stacks": list(stacks) + [""] * (4 - len(stacks))} for hand, stacks in full],
    }
    return State.from_position(data | extra)


def outcome_of(kind: str, seat: int, next_seat: int | None, **cards: tuple[int, ...]) -> Outcome:
    return Outcome(kind, seat, next_seat, **cards)


class TestCutOutcomes:
    def test_landed(self) -> None:
        state = pos(["7 7 K", "Q"], "9@1")
        assert state.play("2×7") == outcome_of("landed", 0, 1, laid=(7, 7))

    def test_landed_with_stack_cards(self) -> None:
        state = pos([("", ["[3] 7", "[4] 7"]), "Q"], "9@1")
        assert state.play("2×7 s1 s2") == outcome_of("landed", 0, 1, laid=(7, 7))

    def test_bust_by_taking(self) -> None:
        assert pos(["K", "Q"], "Q@1").play("take") == outcome_of("bust", 0, 1, taken=(12,))

    def test_bust_by_showing_a_card(self) -> None:
        assert pos(["K 5", "Q"], "9@1").play("take K") == outcome_of("bust", 0, 1, laid=(13,), taken=(9, 13))

    def test_bust_of_a_blind_card(self) -> None:
        state = pos([("", ["[3] [K]"]), "Q"], "9@1")
        assert state.play("flip 1") == outcome_of("bust", 0, 1, turned=(13,), taken=(9, 13))

    def test_a_blind_card_that_lands(self) -> None:
        state = pos([("", ["[3] [5]"]), "Q"], "9@1")
        assert state.play("flip 1") == outcome_of("landed", 0, 1, turned=(5,))

    def test_a_blind_card_that_lands_waits_for_additions(self) -> None:
        state = pos([("5 K", ["[3] [5]"]), "Q"], "9@1", Rules(players=2, piles_face_down=True))
        assert state.play("flip 1") == outcome_of("landed", 0, 0, turned=(5,))
        assert state.play("add 0") == outcome_of("pass", 0, 1)

    def test_clear_by_clear_cards(self) -> None:
        outcome = pos(["10 JK 5", "Q"], "9@1 8@0").play("clear 10+JK")
        assert outcome == outcome_of("clear", 0, 0, laid=(10, JOKER), swept=(9, 8, 10, JOKER))

    def test_clear_by_a_blind_clear_card(self) -> None:
        state = pos([("", ["[3] [10]"]), "Q"], "9@1")
        assert state.play("flip 1") == outcome_of("clear", 0, 0, turned=(10,), swept=(9, 10))

    def test_natural_clear(self) -> None:
        outcome = pos(["9 5", "Q"], "9@1 9@1 9@1").play("1×9")
        assert outcome == outcome_of("natural", 0, 0, laid=(9,), swept=(9, 9, 9, 9))

    def test_went_out(self) -> None:
        state = pos(["9", "Q"], "K@1")
        assert state.play("1×9") == outcome_of("out", 0, None, laid=(9,)) and state.winner == 0

    def test_went_out_with_a_clear(self) -> None:
        assert pos(["10", "Q"], "K@1").play("clear 10") == outcome_of("out", 0, None, laid=(10,), swept=(13, 10))

    def test_gamble_offer_and_done(self) -> None:
        state = pos([("8", ["[5] 8", "[6] 3"]), "Q"], "Q@1", Rules(players=2, risk_play=True))
        assert state.play("2×8 s1") == outcome_of("landed", 0, 0, laid=(8, 8))
        assert state.play("done") == outcome_of("pass", 0, 1)

    def test_turn_up(self) -> None:
        state = pos([("", ["[3] [5]"]), "Q"], "9@1", Rules(players=2, pile_card_flip=True))
        assert state.play(Move(TURNUP, stacks=(0,))) == outcome_of("pass", 0, 1, turned=(5,))

    def test_stalemate_ends_the_hand(self) -> None:
        state = pos(["7 7 K", "Q"], "9@1", turns=STALEMATE_TURNS)
        assert state.play("1×7") == outcome_of("landed", 0, None, laid=(7,)) and state.stalemate

    def test_an_illegal_move_names_the_position_and_the_ply(self) -> None:
        state = State.deal(Rules(), seed=7)
        state.play(state.legal_moves()[0])
        with pytest.raises(IllegalMoveError, match=r"^illegal move 'gamble 2' in 4-3-20-0-7 at ply 1 for seat 2: "):
            state.play("gamble 2")
        with pytest.raises(IllegalMoveError, match=r" in position at ply 0 for seat 0: .*above the pile top"):
            pos(["K", "Q"], "9@1").play("1×K")


class TestClear4Outcomes:
    def test_landed_with_a_joker(self) -> None:
        state = pos(["5 J* 9", "8"], "7@1", CLEAR4_RULES)
        assert state.play("1×5+J*") == outcome_of("landed", 0, 1, laid=(5, 16))

    def test_natural_clear_counts_jokers(self) -> None:
        state = pos(["7 9", "8"], "7@1 J*@1 7@1", CLEAR4_RULES)
        assert state.play("1×7") == outcome_of("natural", 0, 0, laid=(7,), swept=(7, 16, 7, 7))

    def test_clear_card(self) -> None:
        state = pos(["CL 9", "8"], "7@1", CLEAR4_RULES)
        assert state.play("clear CL") == outcome_of("clear", 0, 0, laid=(CLEAR_CARD,), swept=(7, CLEAR_CARD))

    def test_push(self) -> None:
        state = pos(["P 9", "8"], "7@1 6@1", CLEAR4_RULES)
        assert state.play("push → 1") == outcome_of("pushed", 0, 1, laid=(PUSH,), swept=(PUSH,), taken=(7, 6))
        assert state.hand_count[1] == 3 and state.busts[1] == 1

    def test_blind_push_then_its_seat(self) -> None:
        state = pos([("", ["[P]"]), "8"], "7@1", CLEAR4_RULES)
        assert state.play("flip 1") == outcome_of("pass", 0, 0, turned=(PUSH,), swept=(PUSH,))
        assert state.play(Move(PUSH_MOVE, to=1)) == outcome_of("out", 0, None, taken=(7,))

    def test_bust(self) -> None:
        assert pos(["9", "8"], "7@1", CLEAR4_RULES).play("take") == outcome_of("bust", 0, 1, taken=(7,))

    def test_blind_bust(self) -> None:
        state = pos([("", ["[9]"]), "8"], "7@1", CLEAR4_RULES)
        assert state.play("flip 1") == outcome_of("bust", 0, 1, turned=(9,), taken=(7, 9))

    def test_a_turned_up_middle_card_may_join(self) -> None:
        state = pos([("4", ["[2] [5] 5"]), "8"], "7@1", CLEAR4_RULES)
        assert state.play("1×5 s1") == outcome_of("landed", 0, 0, laid=(5,), turned=(5,))
        assert state.play("add 1×5 s1") == outcome_of("landed", 0, 1, laid=(5,))

    def test_a_played_top_turns_up_the_middle_card(self) -> None:
        state = pos([("4", ["[2] [9] 5", "[3] 6"]), "8"], "7@1", CLEAR4_RULES)
        assert state.play("1×5 s1") == outcome_of("landed", 0, 1, laid=(5,), turned=(9,))
        assert state.stacks[0][0][-1] & UP  # it stays on its stack, face up now (R22)

    def test_a_top_over_the_final_card_turns_nothing(self) -> None:
        state = pos([("4", ["[2] 6"]), "8"], "7@1", CLEAR4_RULES)
        assert state.play("1×6 s1") == outcome_of("landed", 0, 1, laid=(6,))

    def test_a_clear_or_push_from_a_stack_turns_up_its_middle_card(self) -> None:
        clear = pos([("4", ["[2] [9] CL"]), "8"], "7@1", CLEAR4_RULES).play("clear s1")
        assert clear == outcome_of("clear", 0, 0, laid=(CLEAR_CARD,), turned=(9,), swept=(7, CLEAR_CARD))
        push = pos([("4", ["[2] [9] P"]), "8"], "7@1", CLEAR4_RULES).play("push s1 → 1")
        assert push == outcome_of("pushed", 0, 1, laid=(PUSH,), turned=(9,), swept=(PUSH,), taken=(7,))


# -- the outcome's cards account for the change ----------------------------------------------------------------

RULES = [
    Rules(),
    Rules.from_preset("Canada", players=3),
    Rules(players=5, clear_rank=None, risk_play=True, pile_card_flip=True),
    Rules(players=2, piles_face_down=True, risk_play=True),
    *(Rules.from_preset("Clear 4", players=n) for n in (2, 4, 6)),
]


def holdings(state: State, seat: int) -> Counter[int]:
    """Every card a seat holds, hand and stacks."""
    return Counter(state.held(seat))


def hidden(state: State, seat: int) -> int:
    """How many of a seat's stack cards lie face down."""
    return sum(not card & UP for stack in state.stacks[seat] for card in stack)


def check(before: State, move: Move, outcome: Outcome, after: State) -> None:
    """The outcome names the mover and the next seat, and its cards are exactly what moved where."""
    seat = before.turn
    assert outcome.seat == seat
    assert outcome.next_seat == (None if after.over else after.turn)
    # a blind card leaves its stack; a card turned up (R18) or a Clear 4 middle card (R22) stays on it
    left_stack = outcome.turned if move.kind in (FLIP, GAMBLE) else ()
    assert Counter(before.pile) + Counter(outcome.laid) + Counter(left_stack) == (
        Counter(after.pile) + Counter(outcome.swept) + Counter(outcome.taken)
    )
    assert Counter(dict(enumerate(after.cleared))) - Counter(dict(enumerate(before.cleared))) == Counter(outcome.swept)
    taker = move.to if outcome.kind == "pushed" or (outcome.kind == "out" and move.kind == PUSH_MOVE) else seat
    for other in range(before.players):
        gained = Counter(outcome.taken) if other == taker else Counter()
        lost = Counter(outcome.laid) + Counter(left_stack) if other == seat else Counter()
        assert holdings(before, other) + gained == holdings(after, other) + lost
    if outcome.kind in ("clear", "natural"):
        assert outcome.swept and not after.pile and not outcome.taken
    if outcome.kind == "bust":
        assert outcome.taken and not after.pile and after.busts[seat] == before.busts[seat] + 1
    if outcome.kind == "landed":
        assert (outcome.laid or outcome.turned) and not outcome.swept and not outcome.taken
    if outcome.kind == "pass":
        assert not outcome.laid and not outcome.taken
    if outcome.kind == "out":
        assert after.winner == seat
    # ``turned`` names exactly the mover's hidden cards the move showed: what Undo asks of it (C9)
    assert len(outcome.turned) == hidden(before, seat) - hidden(after, seat)
    assert all(card == card & RANK_MASK for cards in outcome[3:] for card in cards)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1))
def test_outcome_cards_match_the_state_change(rules: Rules, seed: int) -> None:
    state, rng = State.deal(rules, seed, dealer=seed % rules.players), random.Random(seed)
    kinds = set()
    while not state.over:
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        before = state.copy()
        outcome = state.play(move)
        check(before, move, outcome, state)
        kinds.add(outcome.kind)
    assert kinds & {"out"} or state.stalemate
