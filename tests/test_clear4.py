"""Clear 4 (R22) on the CUT engine: one test class per rule of its rulebook, on hand-built positions.

Positions use the JSON position format with ``"rules": {"game": "Clear 4", ...}``; moves use their text form
(``2×5+J*``, ``push → 1``, ``clear CL``). Every test pins an exact legal-move list or an exact result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cut_tutor.engine import (
    Game,
    IllegalMoveError,
    Move,
    PositionError,
    Rules,
    RulesError,
    State,
    record_of,
    replay,
    state_from_deal,
    view,
)
from cut_tutor.engine.cards import CLEAR_CARD, PUSH, WILD, card_name, counts_of, parse_card
from cut_tutor.engine.outcome import NATURAL, OUT
from cut_tutor.engine.rules import CLEAR4
from cut_tutor.engine.view import sight
from cut_tutor.storage import load_game, save_game


def S(hand: str = "", stacks: Sequence[str] = (), known: str = "") -> dict[str, Any]:
    """One seat as the position format writes it; unnamed stacks are empty."""
    return {"hand": hand, "known": known, "stacks": list(stacks) + [""] * (4 - len(stacks))}


def pos(seats: Sequence[dict[str, Any] | str], pile: str = "", turn: int = 0, **extra: Any) -> State:
    """A Clear 4 state from a compact position: a seat given as text is a hand with no stacks."""
    full = [S(seat) if isinstance(seat, str) else seat for seat in seats]
    data: dict[str, Any] = {
        "rules": Rules.from_preset(CLEAR4, players=len(full)).to_dict(),
        "seats": full,
        "pile": pile,
        "turn": turn,
        "dealer": (turn - 1) % len(full),
    }
    return State.from_position(data | extra)


def legal(state: State) -> list[str]:
    return [str(move) for move in state.legal_moves()]


def seat_info(state: State, seat: int) -> dict[str, Any]:
    info: dict[str, Any] = state.to_position()["seats"][seat]
    return info


def pile(state: State) -> str:
    text: str = state.to_position()["pile"]
    return text


# -- the preset ---------------------------------------------------------------------------------------


class TestR22Preset:
    """A rules preset on the same engine: one frozen value, its name derived, CUT-only settings refused."""

    def test_preset_is_derived(self) -> None:
        rules = Rules.from_preset("Clear 4")
        assert rules.preset == "Clear 4" and rules.game == "Clear 4" and rules.clear4
        assert Rules.from_preset("clear4").preset == "Clear 4"
        assert Rules().preset == "USA" and not Rules().clear4

    def test_rounds_default_to_one_per_seat(self) -> None:
        assert Rules.from_preset(CLEAR4, players=3).rounds == 3
        assert Rules.from_preset(CLEAR4, players=3, rounds=7).rounds == 7
        assert Rules.from_preset(CLEAR4).end_condition == "rounds"

    @pytest.mark.parametrize(
        ("setting", "value", "message"),
        [
            ("risk_play", True, "risk_play: True is not allowed; Clear 4 has no such setting: leave it at False"),
            ("clear_rank", None, "clear_rank: None is not allowed; Clear 4 has no such setting: leave it at 10"),
            ("bust_penalty", 25, "bust_penalty: 25 is not allowed; Clear 4 has no such setting"),
            ("four_plus_clears", True, "four_plus_clears: True is not allowed; Clear 4 has no such"),
            ("decks", 2, "decks: 2 is not allowed; Clear 4 plays its own single deck"),
            ("cards_dealt", 19, "cards_dealt: 19 is not allowed; Clear 4 deals 20 cards"),
            ("players", 7, "players: 7 is not allowed; Clear 4's 120 cards deal 20 each to 2 to 6 seats"),
            ("end_condition", "score", "end_condition: 'score' is not allowed; Clear 4 is played over a number"),
        ],
    )
    def test_cut_only_settings_are_refused(self, setting: str, value: Any, message: str) -> None:
        with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
            Rules.from_preset(CLEAR4, **{setting: value})

    def test_unknown_game(self) -> None:
        with pytest.raises(RulesError, match="game: 'Clear 5' is not allowed; use 'CUT' or 'Clear 4'"):
            Rules(game="Clear 5")  # type: ignore[arg-type]

    def test_json_round_trip_and_cut_form_unchanged(self) -> None:
        rules = Rules.from_preset(CLEAR4, players=5)
        assert rules.to_dict()["game"] == "Clear 4"
        assert Rules.from_dict(rules.to_dict()) == rules
        assert "game" not in Rules().to_dict()

    def test_switching_presets(self) -> None:
        rules = Rules(players=8, risk_play=True).with_preset(CLEAR4)
        assert rules == Rules.from_preset(CLEAR4, players=6, rounds=6)  # one round per seat: everyone leads once
        assert Rules(players=3).with_preset(CLEAR4).rounds == 3
        assert Rules(players=3, end_condition="rounds", rounds=7).with_preset(CLEAR4).rounds == 7  # a count chosen
        back = rules.with_preset("Canada")
        assert back.preset == "Canada" and back.game == "CUT" and back.players == 6


# -- the cards and the deal -----------------------------------------------------------------------------


class TestR22Deck:
    """120 cards: 1–10 ten times each, 7 PUSH, 7 JOKER, 6 CLEAR; names that no CUT card uses."""

    def test_deck(self) -> None:
        deck = Rules.from_preset(CLEAR4).deck()
        counts = counts_of(deck)
        assert len(deck) == 120
        assert counts[1:11] == [10] * 10
        assert (counts[PUSH], counts[WILD], counts[CLEAR_CARD]) == (7, 7, 6)
        assert counts[11:15] == [0, 0, 0, 0]  # no J Q K, no CUT Joker

    def test_names_are_unambiguous(self) -> None:
        assert [card_name(c) for c in (PUSH, WILD, CLEAR_CARD)] == ["P", "J*", "CL"]
        assert [parse_card(t) for t in ("P", "push", "J*", "MJ", "CL", "clear", "1")] == [
            PUSH, PUSH, WILD, WILD, CLEAR_CARD, CLEAR_CARD, 1,
        ]  # fmt: skip
        assert card_name(parse_card("JK")) == "JK" and parse_card("JK") != WILD

    def test_cut_cards_are_refused_in_clear4_positions(self) -> None:
        with pytest.raises(PositionError, match=r"position\.seats\[0\]\.hand: K is not a card of Clear 4"):
            pos(["K 5", "3"])
        with pytest.raises(PositionError, match=r"position\.seats\[0\]\.hand: P is not a card of CUT"):
            State.from_position({"rules": {"players": 2}, "seats": [{"hand": "P"}, {}]})


class TestR22Deal:
    """20 cards each: 4 stacks of three (final and middle face-down, top face-up) and a hand of 8."""

    @pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
    def test_deal(self, players: int) -> None:
        state = State.deal(Rules.from_preset(CLEAR4, players=players), seed=9)
        for seat in range(players):
            info = seat_info(state, seat)
            assert len(info["hand"].split()) == 8
            for stack in info["stacks"]:
                final, middle, top = stack.split()
                assert final.startswith("[") and middle.startswith("[") and not top.startswith("[")
            assert state.cards_left(seat) == 20
        assert sum(state.undealt) == 120 - 20 * players

    def test_deal_code(self) -> None:
        rules = Rules.from_preset(CLEAR4, players=3)
        state = State.deal(rules, seed=12345, dealer=2)
        assert state.deal_code == "3-C4-20-2-C1S"
        assert state_from_deal("3-C4-20-2-C1S").to_position() == state.to_position()
        with pytest.raises(PositionError, match="deals a Clear 4 hand, but the rules are for CUT"):
            state_from_deal("3-C4-20-2-C1S", Rules(players=3))


# -- a turn ---------------------------------------------------------------------------------------------


class TestR22NumberPlay:
    """One or more number cards of one value, each equal or lower than the top; anything on an empty pile."""

    def test_equal_or_lower(self) -> None:
        state = pos(["9 7 7 3", "5"], pile="7@1")
        assert legal(state) == ["1×3", "1×7", "2×7", "take"]

    def test_any_value_on_an_empty_pile(self) -> None:
        assert legal(pos(["10 2", "5"])) == ["1×2", "1×10"]

    def test_a_higher_card_is_refused_with_a_reason(self) -> None:
        state = pos(["9 3", "5"], pile="7@1")
        with pytest.raises(IllegalMoveError, match="9 is above the pile's value 7: play equal or lower"):
            state.play("1×9")


class TestR22Stacks:
    """Face-up stack cards play as if in hand; the middle card turns up and, if it matches, may join at once."""

    def test_face_up_tops_play_at_any_time_with_hand_cards(self) -> None:
        state = pos([S("6 4", ["[2] [3] 6", "[2] [3] 9"]), "5"], pile="8@1")
        assert legal(state) == ["1×4", "1×6", "1×6 s1", "2×6 s1", "take"]

    def test_middle_card_turns_up_and_a_match_may_join(self) -> None:
        state = pos([S("7", ["[2] [6] 6"]), "5"], pile="8@1")
        state.play("1×6 s1")
        assert seat_info(state, 0)["stacks"][0] == "[2] 6"
        assert (state.turn, state.phase, state.to_position()["exposed"]) == (0, "add", [1])
        assert legal(state) == ["add 0", "add 1×6 s1"]
        state.play("add 1×6 s1")
        assert pile(state) == "8@1 6@0 6@0" and state.turn == 1
        assert seat_info(state, 0)["stacks"][0] == "[2]"

    def test_a_middle_card_that_does_not_match_stays_up_for_later(self) -> None:
        state = pos([S("7", ["[2] [9] 6"]), "5"], pile="8@1")
        state.play("1×6 s1")
        assert (state.turn, state.phase) == (1, "play")
        assert seat_info(state, 0)["stacks"][0] == "[2] 9"

    def test_only_the_turned_up_card_may_join(self) -> None:
        """Hand cards of the value are not offered again after the play: only the card just turned up."""
        state = pos([S("6 6", ["[2] [6] 6"]), "5"], pile="8@1")
        state.play("1×6 s1")
        assert legal(state) == ["add 0", "add 1×6 s1"]
        with pytest.raises(IllegalMoveError, match="only the middle cards just turned up"):
            state.play("add 1×6")


class TestR22Joker:
    """JOKER: the value of the cards it joins; alone, the top card's value; opening the pile, anything follows."""

    def test_joins_a_number_play(self) -> None:
        state = pos(["J* 5 5", "3"], pile="8@1")
        assert legal(state) == ["1×5", "1×5+J*", "2×5", "2×5+J*", "1×J*", "take"]
        state.play("2×5+J*")
        assert view(state, 0)["pile"][-1] == {"card": "J*", "by": 0, "as": "5"}
        assert view(state, 0)["pile_value"] == "5"

    def test_alone_it_takes_the_top_value_and_can_complete_four(self) -> None:
        state = pos(["J* 9", "3"], pile="6@1 6@1 6@1")
        assert legal(state) == ["1×J*", "take"]
        state.play("1×J*")
        assert pile(state) == "" and state.turn == 0 and state.clears[0] == 1  # four 6s: cleared, go again

    def test_opening_the_pile_any_value_may_follow(self) -> None:
        state = pos(["J* 2", "10 3"])
        state.play("1×J*")
        assert view(state, 1)["pile_value"] is None
        assert legal(state) == ["1×3", "1×10", "take"]
        state.play("1×10")
        assert state.value() == 10

    def test_a_stack_joker_joins_as_the_value(self) -> None:
        state = pos([S("5", ["[2] [3] J*"]), "3"], pile="8@1")
        assert legal(state) == ["1×5", "2×5 s1", "1×J* s1", "take"]
        state.play("2×5 s1")
        assert view(state, 1)["pile"][-1]["as"] == "5"

    def test_jokers_opening_the_pile_have_no_cap(self) -> None:
        """R22: the cap at four counts cards of one value; JOKERs that open the pile have none."""
        state = pos([S("J* J* J* J* J* 2", ["[2] [3] J*", "[2] [3] J*"]), "3"])
        assert "5×J*" in legal(state) and legal(state)[-1] == "7×J* s1 s2"
        state.play("7×J* s1 s2")
        assert pile(state) == " ".join(["J*@0"] * 7) and state.turn == 1  # seven JOKERs: no clear, turn passes
        assert view(state, 1)["pile_value"] is None

    def test_a_joker_turned_up_beneath_joins_them(self) -> None:
        state = pos([S("J* J* J* J* 2", ["[2] [J*] J*"]), "3"])
        state.play("5×J* s1")
        assert state.phase == "add" and legal(state) == ["add 0", "add 1×J* s1"]
        state.play("add 1×J* s1")
        assert pile(state) == " ".join(["J*@0"] * 6) and state.turn == 1

    def test_jokers_in_hand_join_a_blind_joker_that_opens_the_pile(self) -> None:
        state = pos([S("J* J* J* J* J* 2", ["[J*]"]), "3"])
        state.play("flip 1")
        assert legal(state) == ["add 0"] + [f"add {n}×J*" for n in range(1, 6)]
        state.play("add 5×J*")
        assert pile(state) == " ".join(["J*@0"] * 6) and state.turn == 1

    def test_opening_jokers_never_make_a_clear_and_any_value_follows(self) -> None:
        """R22: JOKERs with no value are not a value's cards: the four that clear are four of the number alone."""
        state = pos(["J* J* J* J* 2", "4 4 4 4 9 10"])
        state.play("4×J*")
        assert pile(state) == " ".join(["J*@0"] * 4) and state.clears == [0, 0]
        assert legal(state)[0] == "1×4" and "1×10" in legal(state) and "4×4" in legal(state)
        state.play("3×4")
        assert state.run() == 3 and state.turn == 0  # three 4s on the JOKERs: no clear
        again = pos(["J* J* J* 2", "4 4 4 4 9 10"], pile="J*@0 J*@0 J*@0", turn=1)
        again.play("4×4")
        assert (pile(again), again.turn, again.clears[1]) == ("", 1, 1)  # four 4s clear, the JOKERs with them


class TestR22Push:
    """PUSH, on its own on any pile: the pile goes to a seat you choose, and your turn ends."""

    def test_push_to_a_chosen_seat(self) -> None:
        state = pos(["P 9", "3", "4 4"], pile="8@1 7@2")
        assert legal(state) == ["push → 1", "push → 2", "take"]
        state.play("push 2")
        assert seat_info(state, 2)["hand"] == "8 7 4 4" and seat_info(state, 2)["known"] == "8 7"
        assert (pile(state), state.turn, state.to_position()["cleared"]) == ("", 1, "P")

    def test_push_from_a_stack_and_on_an_empty_pile(self) -> None:
        state = pos([S("9", ["[2] [3] P"]), "3"])
        assert legal(state) == ["1×9", "push s1 → 1"]
        state.play("push s1 → 1")
        assert seat_info(state, 0)["stacks"][0] == "[2] 3" and state.turn == 1

    def test_not_to_yourself(self) -> None:
        state = pos(["P 9", "3"], pile="8@1")
        with pytest.raises(IllegalMoveError, match="push the pile to another seat, not to yourself"):
            state.play("push → 0")

    def test_a_last_card_push_turned_blind_saves_and_loads(self) -> None:
        """The seat holds nothing while it names the PUSH's seat: the hand is not over yet, the position is legal."""
        state = pos([S("", ["[P]"]), "3", "4 4"], pile="8@1")
        state.play("flip 1")
        again = State.from_position(state.to_position())
        assert (again.phase, again.turn, again.to_position()) == ("push", 0, state.to_position())
        assert legal(again) == legal(state)

    def test_move_text(self) -> None:
        assert Move.parse("push → 2") == Move.parse("push 2") == Move("push", n=1, to=2)
        assert str(Move("push", stacks=(2,), to=1)) == "push s3 → 1"


class TestR22Clear:
    """CLEAR, on its own on any pile: the pile leaves the game and you go again."""

    def test_clear_and_go_again(self) -> None:
        state = pos(["CL 9", "3"], pile="8@1 7@1")
        assert "clear CL" in legal(state)
        state.play("clear CL")
        assert (pile(state), state.turn, state.clears[0]) == ("", 0, 1)
        assert state.to_position()["cleared"] == "CL 8 7"

    def test_from_a_stack(self) -> None:
        state = pos([S("9", ["[2] [3] CL"]), "3"], pile="4@1")
        assert legal(state) == ["clear s1", "take"]


class TestR22FourOfAValue:
    """Four of a value on the pile clears and you go again; never more than four."""

    def test_completing_four_across_turns(self) -> None:
        state = pos(["5 5 9", "3"], pile="8@1 5@1 5@1")
        state.play("2×5")
        assert (pile(state), state.turn, state.clears[0]) == ("", 0, 1)

    def test_never_more_than_four(self) -> None:
        state = pos(["5 5 5 5 J*", "3"], pile="8@1 5@1 5@1")
        assert legal(state) == ["1×5", "1×5+J*", "2×5", "1×J*", "take"]
        with pytest.raises(IllegalMoveError, match="never more than four of a value on the pile: at most 2 more 5"):
            state.play("3×5")

    def test_a_joker_keeps_the_value_it_took(self) -> None:
        # the JOKER on the pile counts as a 7: two 5s and a JOKER on top make three 5s, not four
        state = pos(["5 5 J* 9", "3"], pile="8@1 7@1 7@1 J*@1")
        state.play("2×5+J*")
        assert pile(state) == "8@1 7@1 7@1 J*@1 5@0 5@0 J*@0" and state.turn == 1
        assert [p["as"] for p in view(state, 1)["pile"]][-4:] == ["7", "5", "5", "5"]

    def test_four_at_once_on_an_empty_pile(self) -> None:
        state = pos(["7 7 7 7 9", "3"])
        assert "4×7" in legal(state) and "5×7" not in legal(state)
        state.play("4×7")
        assert (pile(state), state.turn) == ("", 0)


class TestR22FinalCard:
    """The final card: played blind, only as the first card of a turn, picked up with the pile if it misses."""

    def test_offered_at_the_start_of_a_turn_even_with_cards_in_hand(self) -> None:
        state = pos([S("9", ["[4]"]), "3"], pile="8@1")
        assert legal(state) == ["flip 1", "take"]

    def test_not_after_another_card_this_turn(self) -> None:
        state = pos([S("7", ["[4]", "[2] [6] 6"]), "5"], pile="8@1")
        state.play("1×6 s2")
        assert legal(state) == ["add 0", "add 1×6 s2"]
        assert "first choose" in (state.why_illegal(Move.parse("flip 1")) or "") or "may join" in (
            state.why_illegal(Move.parse("flip 1")) or ""
        )

    def test_a_card_that_fits_lands_and_matching_cards_may_join(self) -> None:
        state = pos([S("4 4 J*", ["[4]", "[2] [3] 4"]), "5"], pile="8@1")
        state.play("flip 1")
        assert (pile(state), state.phase, state.blind_plays[0]) == ("8@1 4@0", "add", 1)
        assert legal(state)[:4] == ["add 0", "add 1×4", "add 1×4+J*", "add 2×4"]
        state.play("add 2×4+J*")
        assert (pile(state), state.turn) == ("", 0)  # 4 4 4 J*: four 4s, cleared, go again

    def test_a_card_that_does_not_fit_is_picked_up_with_the_pile(self) -> None:
        state = pos([S("", ["[9]", "[2] [3] 4"]), "5"], pile="8@1 7@1")
        state.play("flip 1")
        assert seat_info(state, 0)["hand"] == "9 8 7" and state.turn == 1 and state.busts[0] == 1

    def test_a_special_card_plays_by_its_own_rules(self) -> None:
        state = pos([S("9", ["[P]"]), "3", "4"], pile="8@1")
        state.play("flip 1")
        assert state.phase == "push" and legal(state) == ["push blind → 1", "push blind → 2"]
        state.play("push blind → 2")
        assert seat_info(state, 2)["hand"] == "8 4" and state.turn == 1
        cleared = pos([S("9", ["[CL]"]), "3"], pile="8@1")
        cleared.play("flip 1")
        assert (pile(cleared), cleared.turn) == ("", 0)
        joker = pos([S("9", ["[J*]"]), "3"], pile="8@1 6@1 6@1 6@1")
        joker.play("flip 1")
        assert (pile(joker), joker.turn) == ("", 0)  # the JOKER is the fourth 6

    def test_a_blind_last_card_that_misses_does_not_go_out(self) -> None:
        state = pos([S("", ["[9]"]), "3"], pile="8@1")
        state.play("flip 1")
        assert not state.over and seat_info(state, 0)["hand"] == "9 8"


class TestR22Passing:
    """Passing: take the pile, no card shown, whenever it is not empty; the turn ends."""

    def test_pass_with_a_legal_play(self) -> None:
        state = pos(["5", "3"], pile="8@1")
        assert legal(state) == ["1×5", "take"]
        state.play("take")
        assert seat_info(state, 0)["hand"] == "8 5" and state.turn == 1

    def test_no_card_is_shown_and_an_empty_pile_cannot_be_taken(self) -> None:
        state = pos(["9 5", "3"], pile="8@1")
        with pytest.raises(IllegalMoveError, match="in Clear 4 you pass without showing a card: 'take'"):
            state.play("take 9")
        empty = pos(["9 5", "3"])
        assert "take" not in legal(empty)
        assert empty.why_illegal(Move.parse("take")) == "there is nothing to take from an empty pile (R22)"


class TestR22GoingOut:
    """The first seat to shed all 20 cards wins, at once; over several rounds, cards left count against you."""

    def test_going_out_ends_the_hand(self) -> None:
        state = pos(["5 5", "3 3 J*"], pile="8@1")
        state.play("2×5")
        assert state.winner == 0 and state.over and state.scores() == [0, 3]

    def test_a_going_out_fourth_card_counts_as_a_clear(self) -> None:
        state = pos(["6", "3"], pile="8@1 6@1 6@1 6@1")
        state.play("1×6")
        assert state.winner == 0 and state.clears[0] == 1
        blind = pos([S("", ["[6]"]), "3"], pile="8@1 6@1 6@1 6@1")
        blind.play("flip 1")
        assert blind.winner == 0 and blind.clears[0] == 1

    def test_a_push_as_the_last_card_still_sends_the_pile(self) -> None:
        state = pos(["P", "3", "4"], pile="8@1 7@2")
        state.play("push → 2")
        assert state.winner == 0 and state.scores() == [0, 1, 3]

    def test_a_hand_that_ends_during_an_addition_leaves_no_step_open(self) -> None:
        """R22: going out while adding ends the hand like any other; the finished position loads back."""
        state = pos([S("5", ["[5]"]), "3"], pile="8@1")
        state.play("flip 1")
        assert state.phase == "add"
        state.play("add 1×5")
        assert (state.winner, state.phase, state.to_position()["exposed"]) == (0, "play", [])
        assert State.from_position(state.to_position()).to_position() == state.to_position()

    def test_a_random_hand_that_clears_and_goes_out_while_adding_loads_back(self) -> None:
        """The deal and play that first ended a hand on an addition that cleared the pile (R22)."""
        state = State.deal(Rules.from_preset(CLEAR4, players=4), seed=2570711190, dealer=2)
        rng = random.Random(148)
        while not state.over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        assert (len(state.moves), str(state.moves[-1]), state.pile) == (84, "add 3×9", [])
        assert state.phase == "play" and state.winner == 3
        assert State.from_position(state.to_position()).to_position() == state.to_position()
        assert replay(record_of(state)).to_position() == state.to_position()

    def test_a_hand_won_with_a_blind_push_leaves_no_step_open(self) -> None:
        state = pos([S("", ["[P]"]), "3", "4 4"], pile="8@1")
        state.play("flip 1")
        state.play("push blind → 2")
        assert (state.winner, state.phase, state.scores()) == (0, "play", [0, 1, 3])
        assert State.from_position(state.to_position()).to_position() == state.to_position()

    def test_a_finished_position_with_a_step_open_is_refused(self) -> None:
        state = pos(["5", "3"], pile="8@1")
        state.play("1×5")
        for extra in ({"phase": "add"}, {"phase": "push"}):
            with pytest.raises(PositionError, match="a finished hand leaves no step open"):
                State.from_position(state.to_position() | extra)

    def test_rounds_rotate_the_lead_and_cards_left_count(self) -> None:
        rules = Rules.from_preset(CLEAR4, players=3)
        game = Game(rules, seed=4)
        rng = random.Random(4)
        dealers = []
        while not game.over:
            dealers.append(game.dealer)
            while not game.state.over:
                moves = game.state.legal_moves()
                game.play(moves[rng.randrange(len(moves))])
            if not game.over:
                game.next_hand()
        assert len(game.results) == 3
        assert dealers == [(dealers[0] + i) % 3 for i in range(3)]  # everyone leads once
        for result in game.results:
            assert result.winner is None or result.scores[result.winner] == 0
        assert game.winners == [s for s, t in enumerate(game.totals) if t == min(game.totals)]


class TestR22WorkedExample:
    """The rulebook's example: Erica plays two 8s; Peter plays two 5s and a stack 5, turns up a 5 and clears."""

    def test_erica_and_peter(self) -> None:
        erica = S("8 8 9 2")
        peter = S("5 5 7 3", ["[9] [5] 5", "[2] [4] 10", "[6] [A] 10", "[8] [7] 3"])
        state = pos([erica, peter], turn=0)
        state.play("2×8")  # (A)
        assert (pile(state), state.turn) == ("8@0 8@0", 1)
        # (B) + (C): the two 5s from his hand with the 5 from his stack
        assert "3×5 s1" in legal(state)
        state.play("3×5 s1")
        # he turns the card below face-up: another 5, which may join at once (D)
        assert seat_info(state, 1)["stacks"][0] == "[9] 5"
        assert legal(state) == ["add 0", "add 1×5 s1"]
        state.play("add 1×5 s1")
        # four 5s: he clears the pile and it is his turn again
        assert (pile(state), state.turn, state.clears[1]) == ("", 1, 1)
        # a good moment for the face-down card (E) ...
        assert "flip 1" in legal(state)
        # ... but he plays the two 10s from his two middle stacks (F), turning up a 4 and a 1
        state.play("2×10 s2 s3")
        assert seat_info(state, 1)["stacks"] == ["[9]", "[2] 4", "[6] A", "[8] [7] 3"]
        assert (pile(state), state.turn, state.phase) == ("10@1 10@1", 0, "play")  # nothing matches: turn over


# -- the same API as CUT ----------------------------------------------------------------------------------


class TestR22SameAPI:
    """Records, positions, views, saves and resume work for Clear 4 as for CUT."""

    def _played(self, seed: int = 3) -> State:
        state = State.deal(Rules.from_preset(CLEAR4, players=3), seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.over:
                break
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        return state

    def test_record_and_position_round_trip(self) -> None:
        state = self._played()
        assert replay(record_of(state)).to_position() == state.to_position()
        assert State.from_position(state.to_position()).to_position() == state.to_position()

    def test_view_hides_face_down_cards(self) -> None:
        state = State.deal(Rules.from_preset(CLEAR4, players=2), seed=1)
        seen = view(state, 0)
        assert all(stack[:2] == [None, None] and stack[2] is not None for stack in seen["seats"][0]["stacks"])
        assert seen["rules"]["game"] == "Clear 4"

    def test_save_and_resume(self, tmp_path: Path) -> None:
        rules = Rules.from_preset(CLEAR4, players=3)
        game = Game(rules, seed=8)
        rng = random.Random(8)
        for _ in range(40):
            moves = game.state.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
            if game.state.over:
                break
        path = save_game(game, tmp_path / "clear4.json")
        loaded = load_game(path, rules)
        assert loaded.state.moves == game.state.moves[: len(loaded.state.moves)]
        assert loaded.rules.preset == "Clear 4"

    def test_illegal_moves_name_the_rule(self) -> None:
        state = pos(["9 5 P", "3"], pile="8@1")
        assert state.why_illegal(Move.parse("gamble 1")) == "Clear 4 has no Risk gambles and no Pile Card Flip (R22)"
        reason = state.why_illegal(Move.parse("2×5"))
        assert reason == "you hold 1 5 in your hand, not 2"


# -- the coach and the AI -----------------------------------------------------------------------------------

#: Lays the coach must call a clear, or not, as the engine plays them (R22): JOKERs with no number below them have
#: no value and never clear, however many lie together (the first four); where a value is there to take, the four
#: that clear count the JOKERs that took it. Each: seats, pile, the seat to move, moves first played, the lay, clears.
JokerLay = tuple[list[dict[str, Any] | str], str, int, list[str], str, bool]
JOKER_LAYS: list[JokerLay] = [
    (["J* J* J* J* 5 7", "3 3 3"], "", 0, [], "4×J*", False),
    ([S("J* J* J* J* 2", ["[2] [3] J*"]), "3"], "", 0, [], "5×J* s1", False),
    (["J* J* J* J* 5 7", "3"], "J*@1 J*@1", 0, [], "4×J*", False),
    ([S("J* J* J* J* 2 9", ["[J*]"]), "3"], "", 0, ["flip 1"], "add 4×J*", False),
    (["J* J* J* J* 5 7", "3 3 3"], "", 0, [], "1×7+3×J*", True),
    (["J* J* J* 5 7", "3"], "J*@1 J*@1", 0, [], "1×7+3×J*", True),
    (["J* 9", "3"], "6@1 6@1 6@1", 0, [], "1×J*", True),
    ([S("4 4 J*", ["[4]", "[2] [3] 4"]), "5"], "8@1", 0, ["flip 1"], "add 2×4+J*", True),
    (["J* J* J* 2", "4 4 4 4 9 10"], "J*@0 J*@0 J*@0", 1, [], "4×4", True),
    (["J* J* J* 2", "4 4 4 4 9 10"], "J*@0 J*@0 J*@0", 1, [], "3×4", False),
]


def joker_lay(case: JokerLay) -> State:
    """The position of a :data:`JOKER_LAYS` case, its first moves played: the lay is the seat's to make."""
    seats, on_pile, turn, first, lay, _ = case
    state = pos(seats, pile=on_pile, turn=turn)
    for text in first:
        state.play(text)
    assert lay in legal(state)
    return state


class TestR22Coach:
    """The move-value engine advises and plays Clear 4 (C1): whom to push to is a scored decision."""

    def test_push_goes_to_the_seat_closest_to_going_out(self) -> None:
        from cut_tutor.coach import advise, evaluate, level_of, style_of

        state = pos(["P 10 10", "5 5 5 5 5 5", "4", "6 6 6"], pile="9@1 9@1 8@2 7@1")
        seen = view(state, 0)
        advice = advise(seen, coach="Madonna", level="Expert")
        assert str(advice.move) == "push → 2"
        assert (
            advice.text == "Push the pile to seat 2 — sends 4 cards to seat 2, the closest to going out (1 card left)."
        )
        pushes = {str(c.move): c.total for c in evaluate(seen, style_of("Balanced"), level_of("Expert"))}
        assert pushes["push → 2"] > pushes["push → 3"] > pushes["push → 1"]

    def test_every_legal_move_is_scored(self) -> None:
        from cut_tutor.coach import advise

        state = State.deal(Rules.from_preset(CLEAR4, players=3), seed=5)
        advice = advise(view(state, state.turn), coach="Marty", level="Average")
        assert sorted(str(c.move) for c in advice.candidates) == sorted(legal(state))

    @pytest.mark.parametrize("case", JOKER_LAYS, ids=[f"{c[4]} on '{c[1]}'" for c in JOKER_LAYS])
    def test_the_coach_expects_a_clear_where_the_engine_makes_one(self, case: JokerLay) -> None:
        """R22: four JOKERs opening the pile are no clear to the coach either; a lay that makes four of a value is."""
        from cut_tutor.coach import Knowledge, level_of, style_of
        from cut_tutor.coach.values import evaluate_knowledge

        state, clears = joker_lay(case), case[-1]
        known = Knowledge.from_view(view(state, state.turn))
        scored = evaluate_knowledge(known, style_of("Balanced"), level_of("Expert"))
        cand = next(c for c in scored if str(c.move) == case[4])
        outcome = state.copy().apply(cand.move)
        assert (cand.clears, outcome.kind == NATURAL, cand.goes_out) == (clears, clears, False)

    def test_the_coachs_clears_are_the_engines_in_random_play(self) -> None:
        """R22: over positions met in random play, every lay the coach scores as a clear (go again) is one the engine
        clears when it is applied, and every other lay is not; a lay that goes out is scored as going out (R14)."""
        from cut_tutor.coach import Knowledge, level_of, style_of
        from cut_tutor.coach.values import evaluate_knowledge

        rng, met, clears, others = random.Random(22), 0, 0, 0
        style, level = style_of("Balanced"), level_of("Expert")
        while met < 3000:
            state = State.deal(Rules.from_preset(CLEAR4, players=rng.randint(2, 6)), rng.getrandbits(32))
            while not state.over and met < 3000:
                met += 1
                known = Knowledge.from_sight(sight(state, state.turn))
                for cand in evaluate_knowledge(known, style, level):
                    if cand.move.kind not in ("play", "add"):
                        continue
                    after = state.copy()
                    outcome = after.apply(cand.move)
                    if outcome.kind == NATURAL:
                        assert not after.pile and after.turn == state.turn  # the pile cleared, the seat goes again
                    if cand.goes_out:
                        assert outcome.kind == OUT, (str(cand.move), state.to_position())
                        continue
                    assert cand.clears == (outcome.kind == NATURAL), (str(cand.move), state.to_position())
                    clears += cand.clears
                    others += not cand.clears
                moves = state.legal_moves()
                state.apply(moves[rng.randrange(len(moves))])
        assert clears > 500 and others > 5000

    def test_ai_beats_random_play(self) -> None:
        from cut_tutor.sim import simulate

        frame = simulate(["Expert:Balanced", "Random"], Rules.from_preset(CLEAR4, players=2), hands=30, seed=3,
                         duplicate=True)  # fmt: skip
        by_player = frame.groupby("player").agg(points=("points", "mean"), out=("went_out", "mean"))
        assert by_player.loc[0, "out"] > 0.8 > by_player.loc[1, "out"]
        assert by_player.loc[0, "points"] * 3 < by_player.loc[1, "points"]
        assert not frame["stalemate"].any()


def test_every_table_of_games_keys_on_the_same_names() -> None:
    """R22: Clear 4 is a game beside CUT, named once in the rules; the engine's modules, the coach's scorers and the
    rules' setting all key on those names, so a game cannot be in one table and missing from another."""
    from typing import get_args

    from cut_tutor.coach.values import SCORERS
    from cut_tutor.engine.games import GAME_MODULES
    from cut_tutor.engine.rules import CUT, GAME_NAMES, GameName

    assert set(get_args(GameName)) == set(GAME_NAMES) == set(GAME_MODULES) == set(SCORERS) == {CUT, CLEAR4}
    assert Rules().game == CUT and Rules.from_preset(CLEAR4).game == CLEAR4
