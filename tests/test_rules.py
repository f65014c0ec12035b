"""One test class per rule of the guide's How to play page (R1–R21), each on hand-built positions.

Positions use the JSON position format of :mod:`cut_tutor.engine.codes`; moves use their text form.
Every test pins an exact legal-move list or an exact resulting position, so a wrong reading fails loudly.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Any

import pytest

from cut_tutor.engine import (
    Game,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    PositionError,
    Rules,
    RulesError,
    State,
    cut_for_dealer,
    view,
)
from cut_tutor.engine.cards import JOKER, counts_of
from cut_tutor.engine.game import HandResult

# -- helpers ------------------------------------------------------------------------------------------


def S(
    hand: str = "",
    stacks: Sequence[str] = (),
    known: str = "",
    busts: int = 0,
    clears: int = 0,
    blind_plays: int = 0,
    above: str = "",
) -> dict[str, Any]:
    """One seat as the position format writes it; unnamed stacks are empty."""
    seat: dict[str, Any] = {
        "hand": hand,
        "known": known,
        "stacks": list(stacks) + [""] * (4 - len(stacks)),
        "busts": busts,
        "clears": clears,
        "blind_plays": blind_plays,
    }
    if above:
        seat["above"] = above
    return seat


def pos(
    seats: Sequence[dict[str, Any] | str],
    pile: str = "",
    turn: int = 0,
    rules: dict[str, Any] | None = None,
    **extra: Any,
) -> State:
    """A state from a compact position: a seat given as text is a hand with no stacks."""
    full = [S(seat) if isinstance(seat, str) else seat for seat in seats]
    data: dict[str, Any] = {
        "rules": Rules(players=len(full), **(rules or {})).to_dict(),
        "seats": full,
        "pile": pile,
        "turn": turn,
        "dealer": (turn - 1) % len(full),
    }
    return State.from_position(data | extra)


def legal(state: State) -> list[str]:
    """The legal moves as text, in the engine's order."""
    return [str(move) for move in state.legal_moves()]


def seats(state: State) -> list[dict[str, Any]]:
    """Every seat of the resulting position."""
    return list(state.to_position()["seats"])


def table(state: State) -> dict[str, Any]:
    """The shared part of the resulting position: whose turn, the phase, pile and what left the game."""
    p = state.to_position()
    keys = ("turn", "phase", "pile", "cleared", "exposed", "winner", "stalemate")
    return {key: p[key] for key in keys if key in p}


def T(
    turn: int,
    pile: str = "",
    cleared: str = "",
    phase: str = "play",
    exposed: Sequence[int] = (),
    **end: Any,
) -> dict[str, Any]:
    """The expected :func:`table`; ``winner=`` or ``stalemate=True`` for a finished hand."""
    return {"turn": turn, "phase": phase, "pile": pile, "cleared": cleared, "exposed": list(exposed)} | end


def assert_illegal(state: State, text: str, *phrases: str) -> None:
    """The move is refused with a reason naming ``phrases``, and the position is left exactly as it was."""
    before = copy.deepcopy(state.to_position())
    move = Move.parse(text)
    reason = state.why_illegal(move)
    assert reason is not None, f"{text} should be illegal"
    for phrase in phrases:
        assert phrase in reason, f"{phrase!r} not in {reason!r}"
    with pytest.raises(IllegalMoveError) as info:
        state.play(move)
    assert isinstance(info.value, ValueError)
    assert reason in str(info.value)
    assert state.to_position() == before
    assert move not in state.legal_moves()


def finish(state: State, move: str) -> State:
    """Play a move that should end the hand, and check that it did."""
    state.play(move)
    assert state.over
    return state


# -- R1 decks -----------------------------------------------------------------------------------------


class TestR1Decks:
    """R1: standard 54-card decks; Auto by seat count; a manual count that cannot deal names the minimum."""

    def test_auto_deck_counts(self) -> None:
        auto = {players: Rules(players=players).deck_count for players in range(2, 9)}
        assert auto == {2: 2, 3: 2, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5}

    def test_decks_are_54_cards_with_two_jokers_each(self) -> None:
        deck = Rules(players=5).deck()
        assert len(deck) == 4 * 54
        counts = counts_of(deck)
        assert counts[JOKER] == 8
        assert all(counts[rank] == 16 for rank in range(1, 14))

    def test_manual_count_is_used(self) -> None:
        rules = Rules(players=4, decks=5)
        assert rules.deck_count == 5
        state = State.deal(rules, seed=1)
        assert sum(state.undealt) == 5 * 54 - 4 * 20

    @pytest.mark.parametrize(
        ("players", "dealt", "decks", "minimum"),
        [(8, 20, 2, 3), (6, 20, 2, 3), (3, 19, 1, 2), (5, 20, 1, 2), (8, 19, 2, 3)],
    )
    def test_too_few_decks_refused_naming_minimum(self, players: int, dealt: int, decks: int, minimum: int) -> None:
        with pytest.raises(RulesError, match=rf"^decks: .*the minimum is {minimum}$"):
            Rules(players=players, cards_dealt=dealt, decks=decks)
        assert Rules(players=players, cards_dealt=dealt, decks=minimum).deck_count == minimum

    def test_one_deck_deals_two_seats(self) -> None:
        state = State.deal(Rules(players=2, decks=1), seed=3)
        assert sum(state.undealt) == 54 - 40


# -- R2 clear cards and ranks -------------------------------------------------------------------------


class TestR2ClearCardsAndRanks:
    """R2: Jokers always clear; the clear rank is 10, None or any rank; the rest run A low to K high."""

    def test_default_clear_cards_are_tens_and_jokers(self) -> None:
        is_clear = Rules().is_clear
        assert [rank for rank in range(1, 15) if is_clear[rank]] == [10, JOKER]

    def test_clear_cards_stand_outside_the_ranking(self) -> None:
        state = pos([S("10 JK 9"), "K"], pile="J@1")
        assert legal(state) == ["1×9", "clear JK", "clear 10", "clear 10+JK"]
        assert_illegal(state, "1×10", "clear card", "R9")

    def test_only_jokers_clear_makes_ten_an_ordinary_rank(self) -> None:
        rules = dict(clear_rank=None)
        assert legal(pos([S("10 JK 9"), "K"], pile="J@1", rules=rules)) == ["1×9", "1×10", "clear JK"]
        # On a 9 an ordinary 10 is too high: it can only be shown to take.
        assert legal(pos([S("10 JK 9"), "K"], pile="9@1", rules=rules)) == ["1×9", "clear JK", "take 10"]

    def test_another_clear_rank(self) -> None:
        state = pos([S("5 10 4"), "K"], pile="9@1", rules=dict(clear_rank=5))
        assert legal(state) == ["1×4", "clear 5", "take 10"]

    def test_ace_is_low_and_king_high(self) -> None:
        assert legal(pos([S("A 2 K"), "K"], pile="A@1")) == ["1×A", "take 2", "take K"]
        assert legal(pos([S("A 2 Q"), "Q"], pile="K@1")) == ["1×A", "1×2", "1×Q"]


# -- R3 card points -----------------------------------------------------------------------------------


class TestR3CardPoints:
    """R3: clear cards score the Clear Card value, J Q K and an ordinary 10 score 10, A–9 rank or flat 5."""

    HAND, STACKS = "JK 10 K 9 2 A", ["[Q] 3"]

    def score(self, **rules: Any) -> int:
        return pos([S(self.HAND, self.STACKS), "K"], rules=rules).scores()[0]

    def test_rank_value(self) -> None:
        assert self.score() == 25 + 25 + 10 + 9 + 2 + 1 + 10 + 3

    def test_flat_five(self) -> None:
        assert self.score(card_scoring="flat5") == 25 + 25 + 10 + 5 + 5 + 5 + 10 + 5

    def test_clear_value_fifty(self) -> None:
        assert self.score(clear_value=50) == 50 + 50 + 10 + 9 + 2 + 1 + 10 + 3

    def test_ordinary_ten_scores_ten(self) -> None:
        assert self.score(clear_rank=None) == 25 + 10 + 10 + 9 + 2 + 1 + 10 + 3

    def test_other_clear_rank_scores_clear_value(self) -> None:
        assert self.score(clear_rank=2, card_scoring="flat5") == 25 + 10 + 10 + 5 + 25 + 5 + 10 + 5

    def test_points_table(self) -> None:
        assert Rules().points[1:] == (1, 2, 3, 4, 5, 6, 7, 8, 9, 25, 10, 10, 10, 25)


# -- R4 cut for dealer --------------------------------------------------------------------------------


def check_cut(rules: Rules, dealer: int, cuts: list[tuple[int, int]]) -> tuple[bool, bool]:
    """Walk a cut by R4 and return (a clear card was re-cut, a tie was re-cut)."""
    cards = iter(cuts)
    contenders = list(range(rules.players))
    recut_clear = recut_tie = False
    while True:
        final = {}
        for seat in contenders:
            who, card = next(cards)
            assert who == seat
            while rules.is_clear[card]:
                recut_clear = True
                who, card = next(cards)
                assert who == seat, "a clear card is re-cut by the same seat"
            final[seat] = card
        best = max(final.values())
        contenders = [seat for seat, card in final.items() if card == best]
        if len(contenders) == 1:
            break
        recut_tie = True
    assert next(cards, None) is None, "no cards are cut after the dealer is found"
    assert dealer == contenders[0]
    return recut_clear, recut_tie


class TestR4CutForDealer:
    """R4: each seat cuts, the highest deals (A low, K high); clear cards re-cut; ties re-cut; seeded."""

    def test_same_seed_same_cut(self) -> None:
        rules = Rules(players=5)
        assert cut_for_dealer(rules, 42) == cut_for_dealer(rules, 42)
        game = Game(rules, seed=42)
        assert (game.dealer, game.cut) == cut_for_dealer(rules, 42)

    def test_seeds_vary_the_dealer(self) -> None:
        assert {cut_for_dealer(Rules(), seed)[0] for seed in range(40)} == {0, 1, 2, 3}

    @pytest.mark.parametrize("players", [2, 4, 8])
    def test_every_cut_follows_the_rule(self, players: int) -> None:
        rules = Rules(players=players)
        seen_clear = seen_tie = False
        for seed in range(300):
            clear, tie = check_cut(rules, *cut_for_dealer(rules, seed))
            seen_clear |= clear
            seen_tie |= tie
        assert seen_clear and seen_tie, "the sample exercises both kinds of re-cut"

    def test_clear_card_recut_example(self) -> None:
        # Seed 1: seat 2 cuts a 10, a clear card, and cuts again; seat 3's Q then deals.
        dealer, cuts = cut_for_dealer(Rules(), 1)
        assert cuts == [(0, 5), (1, 11), (2, 10), (2, 9), (3, 10), (3, 12)]
        assert dealer == 3

    def test_ordinary_ten_is_not_recut(self) -> None:
        rules = Rules(clear_rank=None)
        stood = False
        for seed in range(100):
            dealer, cuts = cut_for_dealer(rules, seed)
            check_cut(rules, dealer, cuts)
            stood |= any(card == 10 for _, card in cuts)
        assert stood


# -- R5 deal ------------------------------------------------------------------------------------------


class TestR5Deal:
    """R5: each seat gets 4 face-down Risk cards under 4 face-up Board cards, and the rest as the hand."""

    STACK = re.compile(r"^\[(A|[2-9]|10|J|Q|K|JK)\] (A|[2-9]|10|J|Q|K|JK)$")

    @pytest.mark.parametrize(("preset", "players", "hand"), [("USA", 4, 12), ("Canada", 4, 11), ("USA", 8, 12)])
    def test_deal_sizes(self, preset: str, players: int, hand: int) -> None:
        rules = Rules.from_preset(preset, players=players)
        state = State.deal(rules, seed=11, dealer=0)
        for seat in seats(state):
            assert len(seat["hand"].split()) == hand
            assert all(self.STACK.match(stack) for stack in seat["stacks"])
        assert state.hand_count == [hand] * players
        assert [state.cards_left(seat) for seat in range(players)] == [rules.cards_dealt] * players
        assert sum(state.undealt) == rules.deck_count * 54 - players * rules.cards_dealt

    def test_every_card_is_accounted_for(self) -> None:
        state = State.deal(Rules(players=3), seed=5)
        placed = [rank for seat in range(3) for rank in state.held(seat)]
        total = counts_of(placed)
        assert [total[r] + state.undealt[r] for r in range(15)] == counts_of(state.rules.deck())

    def test_no_stock(self) -> None:
        """Undealt cards never come back: a hand shrinks as it plays."""
        state = State.deal(Rules(), seed=2, dealer=3)
        undealt = list(state.undealt)
        play = next(m for m in state.legal_moves() if m.kind == "play" and not m.stacks)
        state.play(play)
        assert state.hand_count[0] == 12 - play.size
        assert state.undealt == undealt

    def test_same_seed_same_deal(self) -> None:
        a, b = State.deal(Rules(), seed=9), State.deal(Rules(), seed=9)
        assert a.to_position() == b.to_position()
        assert a.to_position() != State.deal(Rules(), seed=10).to_position()


# -- R6 who leads -------------------------------------------------------------------------------------


def one_move_from_the_end(rules: Rules, dealer: int, winner: int, losers: dict[int, str]) -> State:
    """A position where ``winner`` goes out by playing its last card, a 9; other seats hold ``losers``."""
    hands = [S(losers.get(seat, "K")) for seat in range(rules.players)]
    hands[winner] = S("9")
    data = {"rules": rules.to_dict(), "seats": hands, "pile": "", "turn": winner, "dealer": dealer}
    return State.from_position(data)


class TestR6WhoLeads:
    """R6: the seat left of the dealer leads; play passes i → i+1; the winner deals next, stalemate passes left."""

    @pytest.mark.parametrize("dealer", [0, 1, 2])
    def test_seat_left_of_dealer_leads(self, dealer: int) -> None:
        state = State.deal(Rules(players=3), seed=4, dealer=dealer)
        assert state.turn == (dealer + 1) % 3
        assert state.pile == []

    def test_first_hand_follows_the_cut(self) -> None:
        game = Game(Rules(players=5), seed=8)
        assert game.state.dealer == game.dealer
        assert game.state.turn == (game.dealer + 1) % 5

    def test_play_passes_left_and_wraps(self) -> None:
        state = pos(["7 7", "7 7", "9 9"], turn=2)
        state.play("1×9")
        assert state.turn == 0
        state.play("1×7")
        assert state.turn == 1

    def test_winner_deals_next(self) -> None:
        rules = Rules(players=4)
        game = Game(rules, seed=3)
        game.state = one_move_from_the_end(rules, dealer=0, winner=2, losers={})
        game.play("1×9")
        assert game.results[-1].winner == 2
        state = game.next_hand()
        assert (game.dealer, state.dealer, state.turn) == (2, 2, 3)

    def test_stalemate_passes_the_deal_left(self) -> None:
        rules = Rules(players=4)
        game = Game(rules, seed=3)
        data = pos(["9 9", "K", "K", "K"], turn=0).to_position() | {"dealer": 3, "turns": 2000}
        game.state = State.from_position(data)
        game.play("1×9")
        assert game.state.stalemate and game.results[-1].winner is None
        state = game.next_hand()
        assert (game.dealer, state.turn) == (0, 1)

    def test_no_next_hand_before_this_one_ends(self) -> None:
        game = Game(Rules(), seed=1)
        with pytest.raises(ValueError, match="still being played"):
            game.next_hand()


# -- R7 sources ---------------------------------------------------------------------------------------


class TestR7Sources:
    """R7: hand first; stack tops join only a play that empties the hand; blind last; stacks are distinct."""

    def test_stack_top_joins_only_a_play_that_empties_the_hand(self) -> None:
        state = pos([S("9 9", ["[3] 9", "[4] 5"]), "K"], pile="J@1")
        assert legal(state) == ["1×9", "2×9", "3×9 s1"]
        state.play("3×9 s1")
        assert seats(state)[0] == S("", ["[3]", "[4] 5"])
        assert table(state) == T(1, "J@1 9@0 9@0 9@0")

    def test_stack_top_waits_while_other_hand_cards_remain(self) -> None:
        state = pos([S("9 9 4", ["[3] 9"]), "K"], pile="J@1")
        assert legal(state) == ["1×4", "1×9", "2×9"]
        assert_illegal(state, "3×9 s1", "empties your hand", "R7")
        assert_illegal(state, "1×9 s1", "empties your hand")

    def test_stack_top_of_another_rank_cannot_play_with_hand_cards(self) -> None:
        state = pos([S("9", ["[3] 5"]), "K"], pile="J@1")
        assert legal(state) == ["1×9"]
        assert_illegal(state, "1×5 s1", "empties your hand")

    def test_empty_hand_stack_tops_play_like_hand_cards(self) -> None:
        state = pos([S("", ["[3] 9", "[4] 9", "[5] 7"]), "K"], pile="J@1")
        assert legal(state) == ["1×7 s3", "1×9 s1", "1×9 s2", "2×9 s1 s2"]

    def test_different_stacks_are_different_moves(self) -> None:
        state = pos([S("", ["[3] 9", "[4] 9"]), "K"], pile="J@1")
        first, second = state.copy(), state.copy()
        first.play("1×9 s1")
        second.play("1×9 s2")
        assert seats(first)[0]["stacks"] == ["[3]", "[4] 9", "", ""]
        assert seats(second)[0]["stacks"] == ["[3] 9", "[4]", "", ""]

    def test_clear_plays_follow_the_same_sources(self) -> None:
        assert legal(pos([S("10 JK", ["[3] 10"]), "K"], pile="J@1")) == [
            "clear JK", "clear 10", "clear 10+JK", "clear 10+JK s1",
        ]  # fmt: skip
        assert legal(pos([S("10 JK 4", ["[3] 10"]), "K"], pile="J@1")) == [
            "1×4", "clear JK", "clear 10", "clear 10+JK",
        ]  # fmt: skip

    def test_blind_only_with_empty_hand_and_no_face_up_top(self) -> None:
        assert legal(pos([S("", ["[3] 9", "[4]"]), "K"], pile="J@1")) == ["1×9 s1"]
        assert legal(pos([S("5", ["[4]"]), "K"], pile="J@1")) == ["1×5"]
        assert legal(pos([S("", ["[4]", "", "[6]"]), "K"], pile="J@1")) == ["flip 1", "flip 3"]

    def test_why_blind_is_refused(self) -> None:
        assert_illegal(pos([S("5", ["[4]"]), "K"], pile="J@1"), "flip 1", "hand is empty", "R7")
        assert_illegal(pos([S("", ["[3] 9", "[4]"]), "K"], pile="J@1"), "flip 2", "no face-up stack card")
        assert_illegal(pos([S("", ["[3] 9", "[4]"]), "K"], pile="J@1"), "flip 1", "face-up")
        assert_illegal(pos([S("", ["[3] 9", "[4]"]), "K"], pile="J@1"), "flip 3", "empty")

    def test_face_down_top_is_not_played_as_a_card(self) -> None:
        assert_illegal(pos([S("", ["[4]"]), "K"], pile="J@1"), "1×4 s1", "face-down", "flip 1")

    def test_a_stack_is_used_once_per_play(self) -> None:
        with pytest.raises(MoveSyntaxError, match="named twice"):
            Move.parse("2×9 s1 s1")


# -- R8 number play -----------------------------------------------------------------------------------


class TestR8NumberPlay:
    """R8: one or more cards of one ordinary rank, equal to or below the top; any rank on an empty pile."""

    def test_equal_or_lower(self) -> None:
        state = pos([S("A 5 9 9 J K"), "K"], pile="9@1")
        assert legal(state) == ["1×A", "1×5", "1×9", "2×9", "take J", "take K"]

    def test_any_rank_on_an_empty_pile(self) -> None:
        assert legal(pos([S("A K K"), "Q"])) == ["1×A", "1×K", "2×K"]

    def test_the_pile_grows(self) -> None:
        state = pos([S("A K K"), "Q"], pile="K@1")
        state.play("2×K")
        assert seats(state)[0] == S("A")
        assert table(state) == T(1, "K@1 K@0 K@0")

    def test_above_the_top_is_refused(self) -> None:
        state = pos([S("A 5 J K"), "K"], pile="9@1")
        assert_illegal(state, "1×K", "above the pile top 9", "R8")
        assert_illegal(state, "2×5", "you hold 1 5")
        assert_illegal(state, "1×7", "you hold 0 7")


# -- R9 clear play ------------------------------------------------------------------------------------


class TestR9ClearPlay:
    """R9: any mix of clear-rank cards and Jokers plays on any pile; the pile leaves and the player goes again."""

    def test_every_mix_is_offered(self) -> None:
        state = pos([S("10 10 JK 3"), "K"], pile="K@1 Q@1")
        assert legal(state) == [
            "1×3", "clear JK", "clear 10", "clear 10+JK", "clear 2×10", "clear 2×10+JK",
        ]  # fmt: skip

    def test_clear_removes_the_pile_and_gives_another_turn(self) -> None:
        state = pos([S("10 10 JK 3"), "K"], pile="K@1 Q@1", turns=5)
        state.play("clear 2×10+JK")
        assert seats(state)[0] == S("3", clears=1)
        assert table(state) == T(0, cleared="JK K Q 10 10")
        assert state.turns == 6
        assert legal(state) == ["1×3"]

    def test_clear_on_an_empty_pile(self) -> None:
        state = pos([S("JK 3"), "K"])
        assert legal(state) == ["1×3", "clear JK"]
        state.play("clear JK")
        assert table(state) == T(0, cleared="JK")

    def test_clear_from_stacks(self) -> None:
        state = pos([S("", ["[4] JK", "[5] 10"]), "K"], pile="2@1")
        assert legal(state) == ["clear s1", "clear s2", "clear s1 s2"]
        state.play("clear s1 s2")
        assert seats(state)[0] == S("", ["[4]", "[5]"], clears=1)
        assert table(state) == T(0, cleared="JK 10 2")
        assert legal(state) == ["flip 1", "flip 2"]

    def test_the_label_is_clear_not_a_rank(self) -> None:
        assert str(Move.parse("clear 10+2×JK")) == "clear 10+2×JK"
        assert_illegal(pos([S("10 10"), "K"], pile="K@1"), "2×10", "clear card", "clear 10")
        assert_illegal(pos([S("9 9"), "K"], pile="K@1"), "clear 9", "not a clear card")


# -- R10 natural clear --------------------------------------------------------------------------------


class TestR10NaturalClear:
    """R10: four of a rank on top of the pile clear it; USA caps a play at four, Canada lays any number."""

    def test_four_in_one_play(self) -> None:
        state = pos([S("9 9 9 9 5"), "K"], pile="K@1")
        assert legal(state) == ["1×5", "1×9", "2×9", "3×9", "4×9"]
        state.play("4×9")
        assert seats(state)[0] == S("5", clears=1)
        assert table(state) == T(0, cleared="K 9 9 9 9")

    def test_usa_cap_onto_an_existing_run(self) -> None:
        state = pos([S("9 9 9 5"), "K"], pile="J@1 9@1 9@1")
        assert legal(state) == ["1×5", "1×9", "2×9"]
        assert_illegal(state, "3×9", "at most 2", "R10")
        state.play("2×9")
        assert seats(state)[0] == S("9 5", clears=1)
        assert table(state) == T(0, cleared="J 9 9 9 9")

    def test_usa_cap_counts_stack_cards(self) -> None:
        state = pos([S("", ["[2] 9", "[3] 9"]), "K"], pile="9@1 9@1 9@1")
        assert legal(state) == ["1×9 s1", "1×9 s2"]
        assert_illegal(state, "2×9 s1 s2", "at most 1")

    def test_canada_lays_five_and_all_clear(self) -> None:
        state = pos([S("9 9 9 9 9 5"), "K"], pile="K@1", rules=dict(four_plus_clears=True))
        assert legal(state) == ["1×5", "1×9", "2×9", "3×9", "4×9", "5×9"]
        state.play("5×9")
        assert table(state) == T(0, cleared="K 9 9 9 9 9")

    def test_canada_onto_an_existing_run(self) -> None:
        state = pos([S("9 9 9 K"), "K"], pile="9@1 9@1", rules=dict(four_plus_clears=True))
        assert legal(state) == ["1×9", "2×9", "3×9", "take K"]
        state.play("3×9")
        assert seats(state)[0] == S("K", clears=1)
        assert table(state) == T(0, cleared="9 9 9 9 9")

    def test_across_turns_and_the_extra_turn(self) -> None:
        state = pos([S("9 K"), S("9 9")], pile="9@1 9@0 9@1")
        state.play("1×9")
        assert seats(state)[0] == S("K", clears=1)
        assert table(state) == T(0, cleared="9 9 9 9")
        assert legal(state) == ["1×K"]

    def test_run_must_lie_together_on_top(self) -> None:
        state = pos([S("5 2"), "K"], pile="5@1 5@0 5@1 6@0")
        state.play("1×5")
        assert table(state) == T(1, "5@1 5@0 5@1 6@0 5@0")

    def test_stack_cards_complete_the_four(self) -> None:
        state = pos([S("", ["[2] 9", "[3] 9", "[4] 8"]), "K"], pile="9@1 9@1")
        assert legal(state) == ["1×8 s3", "1×9 s1", "1×9 s2", "2×9 s1 s2"]
        state.play("2×9 s1 s2")
        assert seats(state)[0] == S("", ["[2]", "[3]", "[4] 8"], clears=1)
        assert table(state) == T(0, cleared="9 9 9 9")


# -- R11 take -----------------------------------------------------------------------------------------


class TestR11Take:
    """R11: forced take with no legal play; deliberate take by showing a higher card; known cards; empty pile."""

    def test_with_no_legal_play_take_bare_or_show_a_higher_card(self) -> None:
        state = pos([S("K Q"), S("4 8")], pile="5@1")
        assert legal(state) == ["take", "take Q", "take K"]
        assert_illegal(state, "take J", "you hold 0 J")
        state.play("take")
        assert seats(state)[0] == S("K Q 5", known="5", busts=1, above="5")
        assert table(state) == T(1)

    def test_a_bare_take_tells_the_table_the_hand_held_nothing_at_or_below_the_top(self) -> None:
        state = pos([S("K Q 9"), S("4 8")], pile="7@1 5@1")
        state.play("take")
        assert state.above == [5, 0]
        assert view(state, 1)["seats"][0]["above"] == "5"  # public: every seat saw the bare take
        state.play("1×4")
        state.play("take")  # bare again, on a 4: the mark keeps the higher top, as the hidden K Q 9 are above both
        assert state.above[0] == 5

    def test_a_shown_take_or_a_take_from_an_empty_hand_marks_nothing(self) -> None:
        state = pos([S("K Q"), S("4 8")], pile="5@1")
        state.play("take K")
        assert state.above == [0, 0]
        state = pos([S("", ["[2] Q"]), S("4 8")], pile="5@1")
        state.play("take")
        assert state.above == [0, 0]

    def test_a_position_keeps_the_mark_and_refuses_a_hand_that_breaks_it(self) -> None:
        state = pos([S("K Q 5", known="5", above="5"), S("4 8")], pile="")
        assert state.to_position()["seats"][0]["above"] == "5"
        with pytest.raises(PositionError, match=r"took the pile bare on 5, so it holds no 3 beyond those it picked up"):
            pos([S("K 3 5", known="5", above="5"), S("4 8")])
        with pytest.raises(PositionError, match=r"holds no JK"):
            pos([S("K JK", above="5"), S("4 8")])
        with pytest.raises(PositionError, match=r"above: 10 is a clear card"):
            pos([S("K", above="10"), S("4 8")])

    def test_a_card_shown_with_no_legal_play_joins_the_pile(self) -> None:
        state = pos([S("K Q"), S("4 8")], pile="5@1")
        state.play("take K")
        assert seats(state)[0] == S("K Q 5", known="K 5", busts=1)
        assert table(state) == T(1)

    def test_next_seat_starts_an_empty_pile(self) -> None:
        state = pos([S("K Q"), S("4 8")], pile="5@1")
        state.play("take")
        assert legal(state) == ["1×4", "1×8"]

    def test_deliberate_take_shows_a_card_above_the_top(self) -> None:
        state = pos([S("K 3 5 10"), "K"], pile="5@1")
        assert legal(state) == ["1×3", "1×5", "clear 10", "take K"]
        state.play("take K")
        assert seats(state)[0] == S("K 10 5 5 3", known="K 5", busts=1)
        assert table(state) == T(1)

    def test_a_play_stops_a_plain_take(self) -> None:
        assert_illegal(pos([S("K 3"), "K"], pile="5@1"), "take", "legal play", "R11")

    def test_clear_card_cannot_be_shown(self) -> None:
        state = pos([S("10 JK 3"), "K"], pile="5@1")
        assert legal(state) == ["1×3", "clear JK", "clear 10", "clear 10+JK"]
        assert_illegal(state, "take 10", "never higher")
        assert_illegal(state, "take JK", "never higher")

    def test_shown_card_must_be_above_the_top(self) -> None:
        state = pos([S("K 3 5"), "K"], pile="5@1")
        assert_illegal(state, "take 5", "above the top (5)")
        assert_illegal(state, "take 3", "above the top (5)")
        assert_illegal(state, "take Q", "you hold 0 Q")

    def test_nothing_to_take_from_an_empty_pile(self) -> None:
        state = pos([S("K"), "K"])
        assert legal(state) == ["1×K"]
        assert_illegal(state, "take", "empty pile")
        assert_illegal(state, "take K", "empty pile")

    def test_known_cards_are_spent_first(self) -> None:
        state = pos([S("5 5 5 K", known="5 5"), "K"], pile="9@1")
        state.play("1×5")
        assert seats(state)[0] == S("K 5 5", known="5")
        state = pos([S("5 5 5 K", known="5 5"), "K"], pile="9@1")
        state.play("3×5")
        assert seats(state)[0] == S("K")

    def test_take_with_a_face_up_stack_card_when_the_hand_is_empty(self) -> None:
        state = pos([S("", ["[2] K", "[3] 4"]), "K"], pile="5@1")
        assert legal(state) == ["1×4 s2", "take K s1"]
        state.play("take K s1")
        assert seats(state)[0] == S("K 5", ["[2]", "[3] 4"], known="K 5", busts=1)
        assert table(state) == T(1)

    def test_stack_card_cannot_be_shown_while_the_hand_holds_cards(self) -> None:
        state = pos([S("4", ["[2] K"]), "K"], pile="5@1")
        assert legal(state) == ["1×4"]
        assert_illegal(state, "take K s1", "empties your hand")

    def test_empty_hand_with_nothing_playable_takes(self) -> None:
        state = pos([S("", ["[2] K", "[3] Q"]), "K"], pile="5@1")
        assert legal(state) == ["take", "take K s1", "take Q s2"]
        state.play("take")
        assert seats(state)[0] == S("5", ["[2] K", "[3] Q"], known="5", busts=1)

    def test_showing_a_stack_card_with_no_legal_play_uncovers_the_card_beneath(self) -> None:
        state = pos([S("", ["[2] K", "[3] Q"]), "K"], pile="5@1")
        state.play("take Q s2")
        assert seats(state)[0] == S("Q 5", ["[2] K", "[3]"], known="Q 5", busts=1)
        assert table(state) == T(1)

    def test_no_take_when_only_blind_plays_remain(self) -> None:
        assert legal(pos([S("", ["[2]", "[3]"]), "K"], pile="5@1")) == ["flip 1", "flip 2"]


# -- R12 blind play -----------------------------------------------------------------------------------


class TestR12BlindPlay:
    """R12: a face-down top turns onto the pile: a clear clears, a legal card stays, a higher card busts."""

    def test_clear_card_clears(self) -> None:
        state = pos([S("", ["[JK]", "[4]"]), "K"], pile="5@1 5@1")
        state.play("flip 1")
        assert seats(state)[0] == S("", ["", "[4]"], clears=1, blind_plays=1)
        assert table(state) == T(0, cleared="JK 5 5")
        assert legal(state) == ["flip 2"]

    def test_clear_rank_card_clears(self) -> None:
        state = pos([S("", ["[10]", "[4]"]), "K"], pile="5@1")
        state.play("flip 1")
        assert table(state) == T(0, cleared="10 5")

    @pytest.mark.parametrize("card", ["7", "9"])
    def test_legal_card_lands(self, card: str) -> None:
        state = pos([S("", [f"[{card}]", "[4]"]), "K"], pile="9@1")
        state.play("flip 1")
        assert seats(state)[0] == S("", ["", "[4]"], blind_plays=1)
        assert table(state) == T(1, f"9@1 {card}@0")

    def test_higher_card_busts(self) -> None:
        state = pos([S("", ["[K]", "[4]"]), "Q"], pile="5@1")
        state.play("flip 1")
        assert seats(state)[0] == S("K 5", ["", "[4]"], known="K 5", busts=1, blind_plays=1)
        assert table(state) == T(1)

    def test_empty_pile_always_lands(self) -> None:
        state = pos([S("", ["[K]", "[4]"]), "Q"])
        state.play("flip 1")
        assert seats(state)[0] == S("", ["", "[4]"], blind_plays=1)
        assert table(state) == T(1, "K@0")

    def test_landed_card_completes_a_natural_clear(self) -> None:
        state = pos([S("", ["[9]", "[4]"]), "Q"], pile="9@1 9@0 9@1")
        state.play("flip 1")
        assert table(state) == T(0, cleared="9 9 9 9")
        assert seats(state)[0] == S("", ["", "[4]"], clears=1, blind_plays=1)


# -- R13 adding matching cards ------------------------------------------------------------------------

FACE_DOWN = dict(piles_face_down=True)


class TestR13AddingMatchingCards:
    """R13: after a blind card lands, add 0, 1, 2 … matching cards from allowed sources; cap; clear after."""

    def test_every_count_and_stack_choice(self) -> None:
        state = pos([S("A A 3", ["[A]", "[2] A", "[6] A"]), "K"], pile="5@1", rules=FACE_DOWN)
        state.play("flip 1")
        assert table(state) == T(0, "5@1 A@0", phase="add")
        assert seats(state)[0] == S("3 A A", ["", "[2] A", "[6] A"], blind_plays=1)  # nothing added for you
        assert legal(state) == [
            "add 0", "add 1×A", "add 2×A",
            "add 1×A s2", "add 1×A s3", "add 2×A s2 s3",
            "add 2×A s2", "add 2×A s3", "add 3×A s2 s3",
            "add 3×A s2", "add 3×A s3",
        ]  # fmt: skip

    def test_stack_cards_expose_the_card_beneath(self) -> None:
        state = pos([S("A A 3", ["[A]", "[2] A", "[6] A"]), "K"], pile="5@1", rules=FACE_DOWN)
        state.play("flip 1")
        state.play("add 2×A s3")
        assert seats(state)[0] == S("3 A", ["", "[2] A", "[6]"], blind_plays=1)
        assert table(state) == T(1, "5@1 A@0 A@0 A@0")

    def test_add_zero(self) -> None:
        state = pos([S("A A 3", ["[A]"]), "K"], pile="5@1", rules=FACE_DOWN)
        state.play("flip 1")
        state.play("add 0")
        assert seats(state)[0] == S("3 A A", blind_plays=1)
        assert table(state) == T(1, "5@1 A@0")

    def test_addition_completing_four_clears(self) -> None:
        state = pos([S("A A 3", ["[A]", "[2] A", "[6] A"]), "K"], pile="5@1", rules=FACE_DOWN)
        state.play("flip 1")
        state.play("add 3×A s2 s3")
        assert seats(state)[0] == S("3 A", ["", "[2]", "[6]"], clears=1, blind_plays=1)
        assert table(state) == T(0, cleared="5 A A A A")

    def test_usa_cap(self) -> None:
        state = pos([S("9 9 3", ["[9]"]), "K"], pile="9@1 9@1", rules=FACE_DOWN)
        state.play("flip 1")
        assert legal(state) == ["add 0", "add 1×9"]
        assert_illegal(state, "add 2×9", "at most 1", "R10")
        assert_illegal(state, "add 1×3", "landed blind card", "R13")

    def test_canada_adds_past_four_and_all_clear(self) -> None:
        state = pos([S("9 9 3", ["[9]"]), "K"], pile="9@1 9@1", rules=FACE_DOWN | dict(four_plus_clears=True))
        state.play("flip 1")
        assert legal(state) == ["add 0", "add 1×9", "add 2×9"]
        state.play("add 2×9")
        assert seats(state)[0] == S("3", clears=1, blind_plays=1)
        assert table(state) == T(0, cleared="9 9 9 9 9")

    def test_not_asked_when_nothing_can_be_added(self) -> None:
        state = pos([S("K 3", ["[7]"]), "Q"], pile="9@1", rules=FACE_DOWN)
        state.play("flip 1")
        assert table(state) == T(1, "9@1 7@0")

    def test_not_asked_when_the_cap_is_reached(self) -> None:
        state = pos([S("9 3", ["[9]"]), "Q"], pile="9@1 9@1 9@1", rules=FACE_DOWN)
        state.play("flip 1")
        assert table(state) == T(0, cleared="9 9 9 9")

    def test_natural_clear_is_judged_after_the_addition(self) -> None:
        rules = FACE_DOWN | dict(four_plus_clears=True)
        state = pos([S("9 3", ["[9]"]), "Q"], pile="9@1 9@1 9@1", rules=rules)
        state.play("flip 1")
        assert legal(state) == ["add 0", "add 1×9"]
        clone = state.copy()
        state.play("add 1×9")
        assert table(state) == T(0, cleared="9 9 9 9 9")
        clone.play("add 0")
        assert table(clone) == T(0, cleared="9 9 9 9")
        assert seats(clone)[0] == S("9 3", clears=1, blind_plays=1)

    def test_below_four_the_addition_decides(self) -> None:
        state = pos([S("4 3", ["[4]"]), "Q"], pile="4@1 4@1", rules=FACE_DOWN)
        state.play("flip 1")
        clone = state.copy()
        state.play("add 1×4")
        assert table(state) == T(0, cleared="4 4 4 4")
        clone.play("add 0")
        assert table(clone) == T(1, "4@1 4@1 4@0")

    def test_only_additions_while_choosing(self) -> None:
        state = pos([S("A A 3", ["[A]"]), "K"], pile="5@1", rules=FACE_DOWN)
        state.play("flip 1")
        assert_illegal(state, "1×3", "choose which matching cards to add", "R13")
        assert_illegal(state, "add 3×A", "you hold 2 A")

    def test_no_addition_outside_the_choice(self) -> None:
        assert_illegal(pos([S("A A"), "K"], pile="5@1"), "add 1×A", "only after a blind card lands")


# -- R14 going out ------------------------------------------------------------------------------------


class TestR14GoingOut:
    """R14: holding no cards ends the hand at once, even mid-turn; a blind last card that busts does not."""

    def test_last_card_goes_out(self) -> None:
        state = finish(pos([S("", ["9"]), S("K 5")], pile="J@1"), "1×9 s1")
        assert table(state) == T(0, "J@1 9@0", winner=0)
        assert legal(state) == []
        assert state.scores() == [0, 15]

    def test_going_out_with_a_clear_ends_before_the_extra_turn(self) -> None:
        state = finish(pos([S("JK"), "K"], pile="5@1"), "clear JK")
        assert state.winner == 0
        assert legal(state) == []

    def test_going_out_on_a_natural_clear_counts_the_clear(self) -> None:
        state = finish(pos([S("9"), "K"], pile="5@1 9@1 9@1 9@1"), "1×9")
        assert state.winner == 0
        assert seats(state)[0]["clears"] == 1
        assert table(state) == T(0, cleared="9 9 9 9 5", winner=0)
        assert state.scores() == [0, 10]

    def test_going_out_with_a_clear_play_counts_the_clear(self) -> None:
        state = finish(pos([S("JK"), "K"], pile="5@1 9@1"), "clear JK")
        assert seats(state)[0]["clears"] == 1

    def test_a_blind_last_card_that_completes_four_counts_the_clear(self) -> None:
        state = finish(pos([S("", ["[9]"]), "K"], pile="9@1 9@1 9@1"), "flip 1")
        assert seats(state)[0] == S("", clears=1, blind_plays=1)
        assert state.winner == 0

    def test_blind_last_card_that_lands(self) -> None:
        state = finish(pos([S("", ["[4]"]), "K"], pile="9@1"), "flip 1")
        assert table(state) == T(0, "9@1 4@0", winner=0)

    def test_blind_last_clear_card(self) -> None:
        state = finish(pos([S("", ["[JK]"]), "K"], pile="9@1"), "flip 1")
        assert state.winner == 0

    def test_mid_turn_during_a_run_of_gambles(self) -> None:
        state = pos([S("", ["[4] 9"]), "K"], pile="J@1", rules=dict(risk_play=True))
        state.play("1×9 s1")
        assert legal(state) == ["gamble 1", "done"]
        finish(state, "gamble 1")
        assert (state.winner, state.to_position()["pile"]) == (0, "J@1 9@0 4@0")

    def test_blind_last_card_that_busts_goes_on(self) -> None:
        state = pos([S("", ["[K]"]), "Q"], pile="9@1")
        state.play("flip 1")
        assert not state.over
        assert seats(state)[0] == S("K 9", known="K 9", busts=1, blind_plays=1)
        assert table(state) == T(1)


# -- R15 stalemate ------------------------------------------------------------------------------------


class TestR15Stalemate:
    """R15: a hand reaching 2,000 turns ends as a stalemate; nobody went out and every seat scores."""

    def test_a_hand_starts_at_turn_one(self) -> None:
        assert State.deal(Rules(), seed=1).turns == 1

    def test_turn_two_thousand_is_played(self) -> None:
        state = pos([S("9 9"), S("K 5")], turns=1999)
        state.play("1×9")
        assert (state.turns, state.stalemate, state.over) == (2000, False, False)
        assert legal(state) == ["1×5", "take K"]

    def test_stalemate_after_two_thousand_turns(self) -> None:
        state = finish(pos([S("9 9"), S("K 5")], turns=2000), "1×9")
        assert state.stalemate and state.winner is None
        assert table(state) == T(1, "9@0", stalemate=True)
        assert legal(state) == []
        assert state.scores() == [9, 15]
        assert_illegal(state, "take", "the hand is over")

    def test_an_extra_turn_counts(self) -> None:
        state = finish(pos([S("JK 9"), S("K 5")], turns=2000), "clear JK")
        assert state.stalemate and state.winner is None


# -- R16 piles face down ------------------------------------------------------------------------------


class TestR16PilesFaceDown:
    """R16: both stack cards dealt face-down; blind play any time; face-up tops play any time."""

    def test_deal_is_all_face_down(self) -> None:
        state = State.deal(Rules(piles_face_down=True), seed=6)
        for seat in seats(state):
            assert all(re.fullmatch(r"\[\w+\] \[\w+\]", stack) for stack in seat["stacks"])

    def test_blind_play_with_cards_in_hand(self) -> None:
        state = pos([S("9 5", ["[3] [7]"]), "K"], pile="J@1", rules=FACE_DOWN)
        assert legal(state) == ["1×5", "1×9", "flip 1"]
        state.play("flip 1")
        assert seats(state)[0] == S("9 5", ["[3]"], blind_plays=1)
        assert table(state) == T(1, "J@1 7@0")

    def test_face_up_tops_play_any_time(self) -> None:
        state = pos([S("9 5", ["[3] 9"]), "K"], pile="J@1", rules=FACE_DOWN)
        assert legal(state) == ["1×5", "1×9", "1×9 s1", "2×9 s1"]

    def test_face_up_top_shown_to_take(self) -> None:
        state = pos([S("5", ["[3] K"]), "K"], pile="9@1", rules=FACE_DOWN)
        assert legal(state) == ["1×5", "take K s1"]

    def test_blind_offered_with_only_high_cards_in_hand(self) -> None:
        state = pos([S("K", ["[3] [7]"]), "K"], pile="9@1", rules=FACE_DOWN)
        assert legal(state) == ["flip 1", "take K"]

    def test_risk_play_waits_for_a_face_up_card(self) -> None:
        rules = FACE_DOWN | dict(risk_play=True)
        state = pos([S("5", ["[3] [7]"]), "K"], pile="J@1", rules=rules)
        state.play("flip 1")
        assert table(state) == T(1, "J@1 7@0")
        state = pos([S("5", ["[3] 9"]), "K"], pile="J@1", rules=rules)
        state.play("1×9 s1")
        assert table(state) == T(0, "J@1 9@0", phase="gamble", exposed=[1])
        assert legal(state) == ["gamble 1", "done"]


# -- R17 risk play ------------------------------------------------------------------------------------

RISK = dict(risk_play=True)


class TestR17RiskPlay:
    """R17: after a play spends Board cards without clearing, gamble their Risk cards one by one, or stop."""

    def start(self, *stacks: str, pile: str = "K@1", hand: str = "") -> State:
        return pos([S(hand, stacks), "Q"], pile=pile, rules=RISK)

    def test_offer_after_spending_board_cards(self) -> None:
        state = self.start("[4] 9", "[7] 9", "[2] 7")
        assert legal(state) == ["1×7 s3", "1×9 s1", "1×9 s2", "2×9 s1 s2"]
        state.play("2×9 s1 s2")
        assert table(state) == T(0, "K@1 9@0 9@0", phase="gamble", exposed=[1, 2])
        assert legal(state) == ["gamble 1", "gamble 2", "done"]

    def test_offer_after_a_hand_emptying_play(self) -> None:
        state = self.start("[4] 9", hand="9")
        state.play("2×9 s1")
        assert legal(state) == ["gamble 1", "done"]

    def test_landing_asks_for_additions_then_offers_the_rest(self) -> None:
        state = self.start("[4] 9", "[7] 9", "[2] 7")
        state.play("2×9 s1 s2")
        state.play("gamble 2")
        assert table(state) == T(0, "K@1 9@0 9@0 7@0", phase="add", exposed=[1])
        assert legal(state) == ["add 0", "add 1×7 s3"]
        state.play("add 1×7 s3")
        assert table(state) == T(0, "K@1 9@0 9@0 7@0 7@0", phase="gamble", exposed=[1, 3])
        assert legal(state) == ["gamble 1", "gamble 3", "done"]
        state.play("done")
        assert seats(state)[0] == S("", ["[4]", "", "[2]"], blind_plays=1)
        assert table(state) == T(1, "K@1 9@0 9@0 7@0 7@0")

    def test_landing_without_additions_offers_the_rest(self) -> None:
        state = self.start("[4] 9", "[3] 9", "[K]")
        state.play("2×9 s1 s2")
        state.play("gamble 1")
        assert table(state) == T(0, "K@1 9@0 9@0 4@0", phase="gamble", exposed=[2])
        assert legal(state) == ["gamble 2", "done"]
        state.play("gamble 2")
        assert table(state) == T(1, "K@1 9@0 9@0 4@0 3@0")
        assert seats(state)[0] == S("", ["", "", "[K]"], blind_plays=2)

    def test_bust_ends_the_turn(self) -> None:
        state = self.start("[Q] 9", "[7] 9")
        state.play("2×9 s1 s2")
        state.play("gamble 1")
        assert seats(state)[0] == S("K Q 9 9", ["", "[7]"], known="K Q 9 9", busts=1, blind_plays=1)
        assert table(state) == T(1)

    def test_clear_ends_the_run_but_the_extra_turn_follows(self) -> None:
        state = self.start("[JK] 9", "[5] 9")
        state.play("2×9 s1 s2")
        state.play("gamble 1")
        assert seats(state)[0] == S("", ["", "[5]"], clears=1, blind_plays=1)
        assert table(state) == T(0, cleared="JK K 9 9")
        assert legal(state) == ["flip 2"]

    def test_natural_clear_from_an_addition_ends_the_run(self) -> None:
        state = self.start("[9] 9", "[5] 9", "[2] 9")
        state.play("2×9 s1 s2")
        state.play("gamble 1")
        assert legal(state) == ["add 0", "add 1×9 s3"]
        state.play("add 1×9 s3")
        assert seats(state)[0] == S("", ["", "[5]", "[2]"], clears=1, blind_plays=1)
        assert table(state) == T(0, cleared="K 9 9 9 9")
        assert legal(state) == ["flip 2", "flip 3"]

    def test_no_offer_after_a_clear(self) -> None:
        state = self.start("[4] 9", "[7] 9", pile="9@1 9@1")
        state.play("2×9 s1 s2")
        assert table(state) == T(0, cleared="9 9 9 9")
        assert legal(state) == ["flip 1", "flip 2"]

    def test_no_offer_when_off(self) -> None:
        state = pos([S("", ["[4] 9"]), "Q"], pile="K@1")
        state.play("1×9 s1")
        assert table(state) == T(1, "K@1 9@0")

    def test_no_offer_after_a_hand_play(self) -> None:
        state = self.start("[4] 9", hand="9 5")
        state.play("1×9")
        assert table(state) == T(1, "K@1 9@0")

    def test_refusals(self) -> None:
        state = self.start("[4] 9", "[7] 9")
        assert_illegal(state, "gamble 1", "spent a Board card", "R17")
        assert_illegal(state, "done", "R17")
        state.play("1×9 s1")
        assert_illegal(state, "gamble 2", "no exposed Risk card", "R17")
        assert_illegal(state, "1×9 s2", "gamble", "R17")


# -- R18 pile card flip -------------------------------------------------------------------------------

FLIP = dict(pile_card_flip=True)


class TestR18PileCardFlip:
    """R18: where a blind play is allowed at the start of a turn, the seat may spend the turn turning it up."""

    def test_offered_beside_the_blind_play(self) -> None:
        state = pos([S("", ["[4]", "[6]"]), "Q"], pile="9@1", rules=FLIP)
        assert legal(state) == ["flip 1", "flip 2", "turn up 1", "turn up 2"]
        state.play("turn up 2")
        assert seats(state)[0] == S("", ["[4]", "6"])
        assert table(state) == T(1, "9@1")

    def test_the_turned_card_then_plays_as_a_known_card(self) -> None:
        state = pos([S("", ["[4]", "6"]), "Q"], pile="9@1", rules=FLIP)
        assert legal(state) == ["1×6 s2"]

    def test_not_while_the_hand_holds_cards(self) -> None:
        state = pos([S("5", ["[4]"]), "Q"], pile="9@1", rules=FLIP)
        assert legal(state) == ["1×5"]
        assert_illegal(state, "turn up 1", "hand is empty")

    def test_off_by_default(self) -> None:
        assert_illegal(pos([S("", ["[4]"]), "Q"], pile="9@1"), "turn up 1", "Pile Card Flip", "R18")

    def test_on_the_extra_turn_after_a_clear(self) -> None:
        state = pos([S("JK", ["[4]"]), "Q"], pile="9@1", rules=FLIP)
        state.play("clear JK")
        assert legal(state) == ["flip 1", "turn up 1"]

    def test_with_piles_face_down_at_any_time(self) -> None:
        state = pos([S("5", ["[3] [7]"]), "Q"], pile="9@1", rules=FLIP | FACE_DOWN)
        assert legal(state) == ["1×5", "flip 1", "turn up 1"]
        state.play("turn up 1")
        assert seats(state)[0] == S("5", ["[3] 7"])
        assert table(state) == T(1, "9@1")

    def test_not_in_the_middle_of_a_turn(self) -> None:
        state = pos([S("", ["[4] 9", "[5]"]), "Q"], pile="K@1", rules=FLIP | RISK)
        state.play("1×9 s1")
        assert legal(state) == ["gamble 1", "done"]


# -- R19 bust penalty ---------------------------------------------------------------------------------


class TestR19BustPenalty:
    """R19: 25 or 50 points per bust, added to the hand score, the winner's included."""

    @pytest.mark.parametrize(("penalty", "expected"), [(0, [0, 15]), (25, [50, 40]), (50, [100, 65])])
    def test_penalty_per_bust_winner_included(self, penalty: int, expected: list[int]) -> None:
        start = pos([S("", ["9"], busts=2), S("K 5", busts=1)], pile="J@1", rules=dict(bust_penalty=penalty))
        state = finish(start, "1×9 s1")
        assert state.scores() == expected

    def test_every_kind_of_bust_counts(self) -> None:
        state = pos([S("K Q"), S("K 2 A"), S("", ["[K]"])], pile="5@2", rules=dict(bust_penalty=25))
        state.play("take")  # forced: seat 0
        state.play("1×2")
        state.play("flip 1")  # blind: seat 2 turns a K onto the 2
        state.play("1×5")
        state.play("take K")  # deliberate: seat 1
        assert state.busts == [1, 1, 1]
        assert state.scores() == [10 + 10 + 25, 10 + 5 + 1 + 25, 10 + 2 + 25]


# -- R20 end condition --------------------------------------------------------------------------------


def play_hand_to(game: Game, dealer: int, winner: int, losers: dict[int, str]) -> None:
    """Finish the game's current hand with a hand-built ending."""
    game.state = one_move_from_the_end(game.rules, dealer, winner, losers)
    game.play("1×9")


class TestR20EndCondition:
    """R20: the game ends at the Game End Total or after N hands; lowest total wins, ties share."""

    def test_score_total_reached(self) -> None:
        game = Game(Rules(players=2), seed=1)
        play_hand_to(game, 0, 0, {1: "JK JK JK JK K K K K"})
        assert game.totals == [0, 140] and not game.over
        game.next_hand()
        play_hand_to(game, 0, 1, {0: "JK JK JK JK K K Q Q Q Q Q Q"})
        assert game.totals == [180, 140] and not game.over
        game.next_hand()
        play_hand_to(game, 1, 1, {0: "JK JK JK JK K K"})
        assert game.totals == [300, 140]
        assert game.over and game.winners == [1]
        with pytest.raises(ValueError, match="over"):
            game.next_hand()

    def test_game_end_total_five_hundred(self) -> None:
        game = Game(Rules(players=2, game_end_total=500, clear_value=50), seed=1)
        play_hand_to(game, 0, 0, {1: "JK JK JK JK K K K K Q Q Q Q Q Q Q Q"})
        assert game.totals == [0, 320] and not game.over

    def test_after_n_rounds(self) -> None:
        game = Game(Rules(players=3, end_condition="rounds", rounds=2), seed=1)
        play_hand_to(game, 0, 0, {1: "K", 2: "2"})
        assert not game.over
        game.next_hand()
        play_hand_to(game, 0, 2, {0: "3", 1: "A"})
        assert game.totals == [3, 11, 2]
        assert game.over and game.winners == [2]

    def test_rounds_ignore_the_total(self) -> None:
        game = Game(Rules(players=2, end_condition="rounds", rounds=2), seed=1)
        play_hand_to(game, 0, 0, {1: "JK JK JK JK K K K K Q Q Q Q Q Q Q Q J J J J J J J J"})
        assert game.totals == [0, 300] and not game.over

    def test_equal_totals_share_the_win(self) -> None:
        game = Game(Rules(players=3, end_condition="rounds", rounds=2), seed=1)
        play_hand_to(game, 0, 0, {1: "5", 2: "9"})
        game.next_hand()
        play_hand_to(game, 0, 1, {0: "5", 2: "K"})
        assert game.totals == [5, 5, 19]
        assert game.over and game.winners == [0, 1]

    def test_bust_penalties_count_towards_the_total(self) -> None:
        game = Game(Rules(players=2, bust_penalty=50), seed=1)
        game.state = pos([S("9"), S("K", busts=6)], rules=dict(bust_penalty=50))
        game.play("1×9")
        assert game.results[-1] == HandResult(1, 1, 0, (0, 310), (0, 6), (False, False), "", ("1×9",))
        assert game.over and game.winners == [0]


# -- R21 presets --------------------------------------------------------------------------------------


class TestR21Presets:
    """R21: USA and Canada fill four settings and lock nothing; the preset name is derived (Custom otherwise)."""

    def test_preset_values(self) -> None:
        usa, canada = Rules.from_preset("USA"), Rules.from_preset("Canada")
        assert (usa.cards_dealt, usa.clear_value, usa.game_end_total, usa.four_plus_clears) == (20, 25, 300, False)
        assert (canada.cards_dealt, canada.clear_value, canada.game_end_total, canada.four_plus_clears) == (
            19, 50, 500, True,
        )  # fmt: skip
        assert Rules() == usa and Rules().preset == "USA" and canada.preset == "Canada"

    def test_other_settings_keep_the_preset(self) -> None:
        rules = Rules.from_preset("Canada", players=6, risk_play=True, bust_penalty=25, clear_rank=None)
        assert rules.preset == "Canada"

    @pytest.mark.parametrize(
        "change", [dict(cards_dealt=19), dict(clear_value=50), dict(game_end_total=500), dict(four_plus_clears=True)]
    )
    def test_changing_a_preset_setting_reads_custom(self, change: dict[str, Any]) -> None:
        assert Rules(**change).preset == "Custom"
        assert Rules.from_preset("Canada", **{k: getattr(Rules(), k) for k in change}).preset == "Custom"

    def test_preset_is_derived_never_chosen(self) -> None:
        assert Rules(cards_dealt=19, clear_value=50, game_end_total=500, four_plus_clears=True).preset == "Canada"
        assert Rules(cards_dealt=19).with_preset("USA").preset == "USA"
        with pytest.raises(TypeError):
            Rules(preset="Canada")  # type: ignore[call-arg]
        with pytest.raises(RulesError, match="unknown preset"):
            Rules.from_preset("Custom")

    def test_preset_names_are_case_insensitive(self) -> None:
        assert Rules.from_preset("canada") == Rules.from_preset("Canada")


# -- refusals in general ------------------------------------------------------------------------------


class TestIllegalMoves:
    """Every refusal says why in plain English and leaves the position exactly as it was."""

    def test_illegal_move_error_is_a_value_error(self) -> None:
        assert issubclass(IllegalMoveError, ValueError)

    def test_refused_text_moves_change_nothing(self) -> None:
        state = pos([S("9 9 K", ["[3] 9"]), "K"], pile="J@1")
        before = copy.deepcopy(state.to_position())
        for text in ("3×9 s1", "take", "flip 1", "1×K", "add 0", "done", "gamble 1", "clear 10", "turn up 1"):
            with pytest.raises(IllegalMoveError, match=r"illegal move .* for seat 0: \S"):
                state.play(text)
            assert state.to_position() == before
        assert legal(state) == ["1×9", "2×9", "take K"]

    def test_move_syntax_errors_are_value_errors_too(self) -> None:
        with pytest.raises(MoveSyntaxError, match="moves look like"):
            pos([S("9"), "K"]).play("nine")

    def test_every_reason_is_a_sentence(self) -> None:
        state = pos([S("9 9 K 5", ["[3] 9"]), "K"], pile="J@1")
        for text in ("3×9 s1", "take", "flip 1", "1×Q", "add 0", "done", "gamble 1", "clear JK", "turn up 1"):
            reason = state.why_illegal(Move.parse(text))
            assert reason and len(reason.split()) >= 4 and "Move(" not in reason, (text, reason)
        assert state.why_illegal(Move.parse("1×9")) is None
