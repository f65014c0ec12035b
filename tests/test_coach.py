"""The move-value coach (C1–C6): the guide's worked examples, styles that differ, honesty and determinism."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cut_tutor import RandomPlayer, Rules, State, view
from cut_tutor.coach import COMPONENTS, LEVELS, AIPlayer, Candidate, Knowledge, advise, compare, style_of
from cut_tutor.coach.scoring import (
    BUST,
    CLEARS,
    DUMPS,
    FINISHES,
    HINDERS,
    HOLDS,
    NEAR_OUT,
    OUT,
    PRINCIPLE,
    SPARE_LOW,
    STRANDED,
)
from cut_tutor.engine.cards import JACK, JOKER, QUEEN, RANK_MASK, UP, WILD
from cut_tutor.engine.moves import Move
from cut_tutor.engine.view import sight
from cut_tutor.sim import simulate

EMPTY = ["", "", "", ""]
FAR = "K K Q Q J J 9 9"  # an opponent nowhere near going out


def pos(
    hand: str,
    pile: str = "",
    *,
    others: list[str] | None = None,
    stacks: list[str] | None = None,
    phase: str = "play",
    exposed: list[int] | None = None,
    **rules: Any,
) -> State:
    """Seat 0 to move against one opponent (or ``others``), with the rules given."""
    rules = {"players": 1 + len(others or [FAR])} | rules
    seats = [{"hand": hand, "stacks": stacks or EMPTY}] + [{"hand": o, "stacks": EMPTY} for o in others or [FAR]]
    return State.from_position({"rules": rules, "turn": 0, "pile": pile, "seats": seats, "phase": phase,
                                "exposed": exposed or []})  # fmt: skip


def advice(state: State, coach: str = "Madonna", level: str = "Expert") -> Any:
    return advise(view(state, 0), coach, level)


class TestWorkedExamples:
    """The guide's *Strategy* and *Playing the line* habits, each on a position where it decides (C5, C6)."""

    def test_go_out_when_a_play_empties_your_cards(self) -> None:
        a = advice(pos("5 5", "9@1"))
        assert str(a.move) == "2×5"
        assert "wins the hand" in a.text
        assert a.candidates[0].components["go out"] == 100

    def test_lead_high_on_an_empty_pile(self) -> None:
        a = advice(pos("K Q 9 5 3"))
        assert str(a.move) == "1×K"
        assert a.text == "Play your K — leads high on an empty pile, the highest you can lay."  # the Q is next best

    def test_dump_a_clear_card_when_a_seat_is_down_to_two(self) -> None:
        calm = advice(pos("10 7 6", "8@1"))
        urgent = advice(pos("10 7 6", "8@1", others=[FAR, "4 4"]))
        assert str(calm.move) != "clear 10"
        assert str(urgent.move) == "clear 10"
        assert "before seat 2 goes out" in urgent.text

    def test_play_low_when_the_next_seat_is_about_to_go_out(self) -> None:
        calm = advice(pos("9 3", "J@1"))
        urgent = advice(pos("9 3", "J@1", others=["4"]))
        assert str(calm.move) == "1×9"
        assert str(urgent.move) == "1×3"
        assert "plays low so seat 1" in urgent.text

    def test_a_high_card_that_hinders_is_the_lowest_not_low(self) -> None:
        """C6 with only J, Q and K: the J leaves the lowest top, which is what decides, but a J is no low card."""
        a = advice(pos("K Q J", others=["4 4"]), level="Experienced")
        assert a.text == (
            "Play your J — plays the lowest card it can so seat 1, down to 2 cards, must match or take the pile."
        )

    def test_a_face_up_pile_card_is_kept_as_a_way_out(self) -> None:
        """R7: the A on top of pile 4 plays like a hand card, so the lone hand A keeps it back as the way out."""
        a = advice(pos("A", "5@1 5@1", stacks=["[5] 2", "[10] 4", "[4] 3", "[3] A"]))
        assert [str(c.move) for c in a.candidates] == ["1×A", "2×A s4"]
        assert a.text.endswith("— the next seat faces the same A either way, so it keeps your other A as a way out.")

    def test_keep_a_spare_low_card_back_on_a_pile(self, monkeypatch: pytest.MonkeyPatch) -> None:
        state = pos("J 9 7 5 2 2", "4@1")
        a = advice(state)
        assert str(a.move) == "1×2"
        assert (
            a.text == "Play your 2 — the next seat faces the same 2 either way, so it keeps your other 2 as a way out."
        )
        both = next(c for c in a.candidates if str(c.move) == "2×2")
        assert both.fact(SPARE_LOW) == LEVELS["Expert"].spare_low_weight * 2 > 0
        assert all(c.fact(SPARE_LOW) == 0 for c in advice(pos("J 9 7 5 2 2")).candidates)  # an empty pile: no next top
        without = dataclasses.replace(LEVELS["Expert"], spare_low_weight=0.0)
        monkeypatch.setitem(LEVELS, "Expert", without)
        assert str(advice(state).move) == "2×2"  # it is the spare card's cost that decides

    def test_playing_the_line(self) -> None:
        a = advice(pos("J 7 7 5 5", "Q@1"))
        assert a.text == (
            "Play your J — it sheds less right now, but it saves your J from being stranded, and it sets up your next"
            " turns: your 2 7s, then your 2 5s."
        )
        assert a.plan == "your 2 7s, then your 2 5s"
        by_turn = max(a.candidates, key=lambda c: c.turn_value)
        assert str(by_turn.move) == "2×7"

    def test_average_weighs_this_turn_only(self) -> None:
        a = advice(pos("J 7 7 5 5", "Q@1"), level="Average")
        assert str(a.move) == "2×7"
        assert all(c.components["line"] == 0 for c in a.candidates)

    def test_lookahead_never_overrules_a_completed_clear(self) -> None:
        # Three 6s on the pile: the lone 6 completes four and clears, though the line would rather keep it.
        a = advice(pos("6 5 5 4 4", "6@1 6@1 6@1"))
        assert str(a.move) == "1×6"
        assert "completes four 6s" in a.text

    def test_never_overrules_going_out(self) -> None:
        a = advice(pos("2 2", "3@1"))
        assert str(a.move) == "2×2" and a.candidates[0].goes_out


class TestExplanations:
    """Each reason the coach gives matches the numbers behind it (C1, C5)."""

    def test_plays_low_is_said_only_of_the_play_that_hinders_most(self) -> None:
        """Next seat down to one card, a pair of 9s chosen over the lone 3: the 3 is the low play, not the 9s."""
        a = advice(pos("9 9 3", others=["4"]))
        assert str(a.move) == "2×9" and max(c.components["control"] for c in a.candidates[1:]) > 2
        assert a.text.startswith("Play your 2 9s — sheds two cards at once") and "plays low" not in a.text

    @pytest.mark.parametrize("level", ["Experienced", "Expert"])
    def test_the_line_plays_the_board_once_the_hand_is_empty(self, level: str) -> None:
        """Hand 8 8 with a Board 8 on a Q: the three 8s go together, not split for a line of one 8."""
        state = pos("8 8", "Q@1", stacks=["[3] 8", "[5]", "[6]", "[7]"])
        a = advice(state, level=level)
        assert str(a.move) == "3×8 s1"
        assert "sets up" not in a.text
        split = next(c for c in a.candidates if str(c.move) == "2×8")
        assert split.steps == [(8, 1)]  # the Board 8 the split leaves plays next: the line saw it

    def test_a_blind_card_against_the_odds_says_so(self) -> None:
        """A flip with a bust chance over 50% is never "the odds favour the flip": it gives the chance."""
        state = pos("", "2@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True)
        a = advice(state, "Marty")
        assert str(a.move) == "flip 1"
        assert "odds favour" not in a.text
        assert a.text.endswith("the odds are against it (bust chance 75%), but the pile costs only 2 pts to take"
                               " and the other moves cost more.")  # fmt: skip

    def test_a_small_pile_is_not_called_costly(self) -> None:
        a = advice(pos("", "2@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True), level="Average")
        assert str(a.move) == "turn up 1"
        assert "costly" not in a.text and "bust chance 75%" in a.text
        big = advice(pos("", "K@1 Q@1 J@1 9@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True), "Daryl")
        assert str(big.move) == "turn up 1"

    def test_a_turn_up_names_both_of_its_reasons(self) -> None:
        """R18, the guide's *Pile Card Flip*: caution (the bust it avoids) and positioning (a card known for later)."""
        small = advice(pos("", "2@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True), level="Average")
        big = advice(pos("", "K@1 Q@1 J@1 9@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True), "Daryl")
        for a, caution in ((small, "costs only this turn"), (big, "cheaper than a blind card on this pile")):
            assert str(a.move) == "turn up 1" and caution in a.text
            assert a.text.endswith("it stays on your pile as a known card, to play when it fits.")

    def test_no_low_cards_or_clears_are_claimed_that_the_hand_lacks(self) -> None:
        a = advice(pos("9 8 6", "9@1"))
        assert str(a.move) == "1×9"
        assert "low cards" not in a.text and "clears" not in a.text
        assert "most valuable" not in a.text
        # "keeping" names what the next best would spend, and nothing the next best keeps as well
        kept = advice(pos("9 3", "9@1"), level="Average")
        assert kept.text == "Play your 9 — sheds a card while keeping your 3."
        assert str(kept.candidates[1].move) == "1×3"
        kept = advice(pos("9 10 A", "9@1"))
        assert kept.text == "Play your 9 — sheds a card while keeping your A."
        assert str(kept.candidates[1].move) == "1×A"

    def test_a_take_that_shows_a_card_says_nothing_held_plays_when_nothing_does(self) -> None:
        """Every Board card is above the 5: the shown card joins the pile in the hand (R11), which the words say."""
        a = advice(pos("", "7@1 5@1", stacks=["[3] Q", "[4] 8", "[6]", "[2] J"]))
        assert {c.move.kind for c in a.candidates} == {"take"}
        assert a.text == (
            "Take the pile, showing your 8 — nothing you hold plays, and your 8 from pile 2 joins the cards you take."
        )
        assert advice(pos("5 3", "K@1 2@1")).text == "Take the pile — nothing you hold plays."

    def test_a_take_says_what_it_keeps_or_what_it_turns_down(self) -> None:
        """Against a lay, what the take keeps that the lay would spend; with nothing in the hand that plays, the
        blind cards' odds and the turn-ups it turns down (R11, R18)."""
        a = advice(pos("Q A", "2@1"), "Daryl")
        assert a.text == "Take the pile, showing your Q — it keeps your A, and every other move costs more."
        stacks = ["[4] [9]", "[5] [K]", "[6] [Q]", "[7] [J]"]
        a = advice(pos("8 6", "2@1", stacks=stacks, piles_face_down=True, pile_card_flip=True), "Daryl")
        assert {c.move.kind for c in a.candidates} == {"take", "flip", "turnup"}
        assert a.text == (
            "Take the pile, showing your 6 — nothing in your hand plays, and neither a blind card (bust chance 74%)"
            " nor turning one up is worth it here."
        )

    def test_a_lay_whose_only_alternatives_are_takes_says_what_it_saves(self) -> None:
        """A take's shown card goes back with the pile: the A is the only play that sheds, and it saves the pile."""
        a = advice(pos("K Q 7 A", "2@1 5@1"))
        assert [c.move.kind for c in a.candidates[1:]] == ["take"] * 3
        assert a.text == "Play your A — it keeps you from taking the pile (2 cards, 7 pts)."

    def test_the_highest_card_the_pile_allows_is_named_as_the_habit(self) -> None:
        """The guide's "play the highest card the pile allows", said when the next best lays a lower card that spends
        no low card: keeping the 3 against the 7 would set nothing apart (both keep it)."""
        a = advice(pos("9 7 3", "9@1"), level="Average")
        assert [str(c.move) for c in a.candidates[:2]] == ["1×9", "1×7"]
        assert a.text == "Play your 9 — it plays the highest card the pile allows, before a lower top strands it."
        assert "highest" not in advice(pos("J 9 7", "Q@1"), level="Average").text  # a J: the high-card words

    def test_the_deciding_component_is_named(self) -> None:
        """No advice rests on "the most valuable play": it names the part that set the move apart."""
        a = advice(pos("9 8 6", "9@1"))
        assert a.text == "Play your 9 — the cards it keeps play best over your next turns."

    def test_a_take_never_sheds_less(self) -> None:
        for state in advised_positions(80, seed=7):
            a = advise(view(state, state.turn), "Madonna", "Expert")
            if a.move.kind == "take":
                assert "sheds less" not in a.text

    def test_a_take_gains_the_pile_and_not_the_card_shown(self) -> None:
        """R11: the card shown was the seat's already, so every take of one pile gains the same cards."""
        takes = [c for c in advice(pos("9 8", "6@1")).candidates if c.move.kind == "take"]
        assert len(takes) == 3 and len({(c.components["shed"], c.components["assets"]) for c in takes}) == 1
        board = advice(pos("", "6@1", stacks=["[5]", "[7] Q", "[9]", "[3]"])).candidates
        shown = next(c for c in board if str(c.move) == "take Q s2")
        assert (
            QUEEN in shown.facts[STRANDED].cards
        )  # the Queen shown comes into the hand, where the line still holds it

    def test_average_holds_its_only_clear_when_a_number_plays(self) -> None:
        """Hold clears as a way out: no clear on an empty or a cheap pile when a number play is open."""
        for pile in ("", "7@1"):
            a = advice(pos("10 9 6 6 5", pile), level="Average")
            assert str(a.move) == "2×6", pile
            assert "a pile of 0 cards" not in a.text
        swept = advice(pos("10 K K", "7@1 5@1 4@1 3@1"), level="Average")
        assert str(swept.move) == "clear 10"  # nothing else plays: the clear is the way out

    def test_the_line_says_why_it_sheds_less(self) -> None:
        """Overriding "shed the most", the line names the high card the bigger play would strand."""
        a = advice(pos("J 9 7 7 5", "K@1"), level="Expert")  # on a K: not a lead, where leading high decides
        assert str(a.move) == "1×J"
        assert "it sheds less right now, but it saves your J from being stranded" in a.text


class TestStyles:
    """C3: each coach is one principle, and it changes the move, not only the words."""

    def test_gamble_on_a_cheap_pile_rock_stops(self) -> None:
        state = pos("8 8 4", "Q@0", stacks=["[5]", "[6]", "", ""], phase="gamble", exposed=[1], risk_play=True)
        moves = {coach: str(advice(state, coach).move) for coach in ("Daryl", "Madonna", "Marty")}
        assert moves == {"Daryl": "done", "Madonna": "gamble 1", "Marty": "gamble 1"}

    def test_turn_up_or_flip_on_a_cheap_pile(self) -> None:
        state = pos("", "4@1", stacks=["[5]", "[6]", "", ""], pile_card_flip=True)
        moves = {coach: str(advice(state, coach).move) for coach in ("Daryl", "Madonna", "Marty")}
        assert moves["Daryl"] == "turn up 1"
        assert moves["Marty"] == "flip 1"

    def test_rock_holds_a_clear_where_gambler_spends_it(self) -> None:
        state = pos("10 10 9 8", "Q@1 J@1 Q@1 9@1")
        daryl, marty = advice(state, "Daryl"), advice(state, "Marty")
        assert daryl.move.kind != "clear"
        assert marty.move.kind == "clear"

    def test_daryl_flips_onto_a_pile_only_when_nothing_else_plays(self) -> None:
        """C3: Daryl turns the card up, stops or plays from his cards rather than flip onto a pile, and says so."""
        costly = pos("", "Q@1 Q@1 J@1 9@1 9@1 K@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True)
        a = advice(costly, "Daryl")
        assert str(a.move) == "turn up 1"
        assert "Daryl flips only into an empty pile" in a.text
        assert str(advice(costly, "Madonna").move) == "flip 1"
        gamble = pos("", "9@1", stacks=["[4]", "[5]", "", ""], phase="gamble", exposed=[1], risk_play=True)
        assert str(advice(gamble, "Daryl").move) == "done"
        forced = advice(pos("", "J@1 9@1", stacks=["[4]", "[5]", "", ""]), "Daryl")
        assert str(forced.move) == "flip 1" and "all you can play" in forced.text
        last = advice(pos("", "9@1", stacks=["[4]", "", "", ""], pile_card_flip=True), "Daryl")
        assert str(last.move) == "flip 1" and "your last card goes out unless it busts" in last.text
        empty = advice(pos("", "", stacks=["[4]", "[5]", "", ""], pile_card_flip=True), "Daryl")
        assert empty.move.kind == "flip" and "always lands" in empty.text

    def test_marty_flips_on_a_high_pile_and_says_why(self) -> None:
        state = pos("", "K@1 K@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True)
        marty, daryl = advice(state, "Marty"), advice(state, "Daryl")
        assert str(marty.move) == "flip 1" and "Marty flips on a high pile" in marty.text
        assert str(daryl.move) == "turn up 1"

    def test_madonna_weighs_the_bust_chance_against_the_pile(self) -> None:
        cheap = advice(pos("", "9@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True), "Madonna")
        assert cheap.text == (
            "Flip pile 1 — the pile costs 9 pts to take and the odds favour the flip (bust chance 22%)."
        )
        risky = advice(pos("", "A@1", stacks=["[4]", "[5]", "", ""], pile_card_flip=True), "Madonna")
        assert str(risky.move) == "turn up 1" and "bust chance 82%" in risky.text

    def test_compare_shows_where_the_coaches_disagree(self) -> None:
        state = pos("8 8 4", "Q@0", stacks=["[5]", "[6]", "", ""], phase="gamble", exposed=[1], risk_play=True)
        frame = compare(view(state, 0))
        assert list(frame["coach"]) == ["Daryl", "Madonna", "Marty"]
        assert list(frame["agrees"]) == [False, True, True]

    def test_compare_names_each_move_as_its_button_reads_when_asked(self) -> None:
        state = pos("8 8 4", "Q@0", stacks=["[5]", "[6]", "", ""], phase="gamble", exposed=[1], risk_play=True)
        frame = compare(view(state, 0), labels=True)
        assert list(frame["move"]) == [advise(view(state, 0), coach).label for coach in frame["coach"]]
        assert list(frame["move"]) != list(compare(view(state, 0))["move"])
        assert list(frame["agrees"]) == [False, True, True]


class TestAdviceTable:
    def test_every_legal_move_is_scored_with_components(self) -> None:
        state = State.deal(Rules(), seed=11)
        a = advise(view(state, state.turn))
        frame = a.to_frame()
        assert sorted(frame["move"]) == sorted(str(m) for m in state.legal_moves())
        assert list(frame.columns) == ["move", *COMPONENTS, "total", "recommended"]
        assert frame["recommended"].sum() == 1
        assert (frame[list(COMPONENTS)].sum(axis=1) - frame["total"]).abs().max() < 0.05
        worded = a.to_frame(labels=True)  # what a notebook shows a learner: the moves as the buttons read
        assert list(worded["move"]) == [a.labels[Move.parse(text)] for text in frame["move"]]
        assert worded.drop(columns="move").equals(frame.drop(columns="move"))
        assert worded.loc[worded["recommended"], "move"].item() == a.label

    def test_no_advice_off_turn(self) -> None:
        state = State.deal(Rules(), seed=11)
        with pytest.raises(ValueError, match="no move to advise"):
            advise(view(state, (state.turn + 1) % 4))

    def test_unknown_coach_or_level(self) -> None:
        v = view(State.deal(Rules(), seed=1), 1)
        with pytest.raises(ValueError, match="style"):
            advise(v, "Bob")
        with pytest.raises(ValueError, match="level"):
            advise(v, "Marty", "Grandmaster")


def redeal_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position as ``seat`` sees it, every card hidden from it shuffled among the hidden slots."""
    new = state.copy()
    hidden: list[int] = []
    for other in range(state.players):
        if other != seat:
            for rank in range(1, 15):
                free = new.hands[other][rank] - new.known[other][rank]
                hidden += [rank] * free
                new.hands[other][rank] -= free
        for stack in new.stacks[other]:
            hidden += [c & RANK_MASK for c in stack if not c & UP]
    hidden += [r for r in range(1, 15) for _ in range(new.undealt[r])]
    new.undealt = [0] * 15
    rng.shuffle(hidden)
    for other in range(state.players):
        if other != seat:
            for _ in range(state.hands[other][0] * 0 + sum(state.hands[other]) - sum(state.known[other])):
                new.hands[other][hidden.pop()] += 1
        for stack in new.stacks[other]:
            for i, card in enumerate(stack):
                if not card & UP:
                    stack[i] = hidden.pop()
    for rank in hidden:
        new.undealt[rank] += 1
    return new


class TestHonestInformation:
    """C2: advice depends only on the seat's view; re-dealing hidden cards never changes it."""

    @pytest.mark.parametrize("seed", range(12))
    def test_redealt_hidden_cards_leave_advice_unchanged(self, seed: int) -> None:
        rng = random.Random(seed)
        rules = Rules(players=2 + seed % 4, risk_play=seed % 2 == 0, pile_card_flip=seed % 3 == 0)
        state = State.deal(rules, seed=seed)
        for _ in range(rng.randrange(0, 60)):
            if state.over:
                break
            state.apply(RandomPlayer().choose(state, rng))
        if state.over:
            return
        seat = state.turn
        other = redeal_hidden(state, seat, rng)
        assert view(other, seat) == view(state, seat)
        for coach in ("Daryl", "Madonna", "Marty"):
            a, b = advise(view(state, seat), coach), advise(view(other, seat), coach)
            assert a.move == b.move and a.text == b.text
            assert [(c.move, c.components) for c in a.candidates] == [(c.move, c.components) for c in b.candidates]


def knowledge(state: State) -> Knowledge:
    """What the seat to move knows, read as simulations read it: through the view's own sight (C2)."""
    return Knowledge.from_sight(sight(state, state.turn))


class TestKnowledgeFromSight:
    """AI seats in simulations skip the JSON view but know exactly what it shows (C2)."""

    @pytest.mark.parametrize("seed", range(24))
    def test_same_knowledge_as_the_view(self, seed: int) -> None:
        rng = random.Random(seed)
        if seed % 4 == 3:
            rules = Rules.from_preset("Clear 4", players=2 + seed % 5)
        else:
            rules = Rules(players=2 + seed % 7, risk_play=seed % 2 == 0, piles_face_down=seed % 5 == 0,
                          pile_card_flip=seed % 3 == 0, clear_rank=[10, None, 7][seed % 3],
                          four_plus_clears=seed % 4 == 1, card_scoring=["rank", "flat5"][seed % 2])  # fmt: skip
        state = State.deal(rules, seed=seed)
        checked = 0
        for step in range(rng.randrange(20, 300)):
            if state.over:
                break
            state.apply(RandomPlayer().choose(state, rng))
            if step % 7 == 0:
                for seat in range(state.players):
                    known = Knowledge.from_sight(sight(state, seat))
                    assert Knowledge.from_view(view(state, seat)) == known
                    assert (known.top, known.run) == (state.value(), state.run())
                    checked += 1
        assert checked

    @pytest.mark.parametrize("seed", range(6))
    def test_ai_choice_ignores_hidden_cards(self, seed: int) -> None:
        rng = random.Random(seed)
        state = State.deal(Rules(risk_play=True), seed=seed)
        for _ in range(rng.randrange(0, 60)):
            if state.over:
                return
            state.apply(RandomPlayer().choose(state, rng))
        if state.over:
            return
        other = redeal_hidden(state, state.turn, rng)
        for style in ("Rock", "Balanced", "Gambler"):
            picks = [AIPlayer("Expert", style, seed=1).choose(knowledge(s)) for s in (state, other)]
            assert picks[0] == picks[1] == AIPlayer("Expert", style, seed=1).choose_view(view(state, state.turn))


class TestDeterminism:
    def test_ai_noise_is_seeded(self) -> None:
        state = State.deal(Rules(), seed=4)
        v = view(state, state.turn)
        picks = [[AIPlayer("Average", "Gambler", seed=s).choose_view(v) for _ in range(20)] for s in (7, 7)]
        assert picks[0] == picks[1]

    def test_simulate_same_with_one_or_two_workers(self) -> None:
        seats = ["Expert:Rock", "Average:Gambler", "Random"]
        alone = simulate(seats, Rules(players=3), hands=6, seed=3, duplicate=True, chunk=2)
        with ThreadPoolExecutor(2) as pool:
            shared = simulate(seats, Rules(players=3), hands=6, seed=3, duplicate=True, chunk=2, executor=pool)
        assert alone.equals(shared)
        assert len(alone) == 6 * 3 * 3


class TestLoopingHands:
    """R15: AI play makes stalemates rare. Expert seats loop in this hand for over 300 turns."""

    def test_a_looping_hand_ends(self) -> None:
        rules = Rules(risk_play=True, pile_card_flip=True)
        state = State.deal(rules, seed=3196, dealer=3196 % 4)
        seats = [AIPlayer("Expert", style, seed=3196) for style in ("Rock", "Balanced", "Gambler", "Balanced")]
        while not state.over:
            state.apply(seats[state.turn].choose(knowledge(state)))
        assert state.winner is not None and not state.stalemate
        assert state.turns > 300  # it did loop for a while, then the varied play broke it


def test_advice_names_players_when_the_table_has_names() -> None:
    state = pos("10 7 6", "8@1", others=[FAR, "4 4"])
    named = advise(view(state, 0), names=["You", "Daryl", "Marty"])
    assert named.text == "Clear with your 10 — dumps a clear card worth 25 points before Marty goes out."
    assert advice(state).text.endswith("before seat 2 goes out.")


def test_levels_carry_their_hints() -> None:
    """C7: Average shows the most hints, Experienced one, Expert none."""
    hints = [level.hints for level in LEVELS.values()]
    assert list(LEVELS) == ["Average", "Experienced", "Expert"]
    assert hints[0] > hints[1] == 1 and hints[2] == 0


# -- every reason against its numbers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "pile", "stacks", "coach", "said"),
    [
        # the next best takes; the one play that sheds more, 2×A, spends the other A that this play keeps
        ("J 8 8 A A", "6@1", None, "Daryl", "Play your A — sheds a card while keeping your other A."),
        # the other stack's A ties with it on every part: nothing brings it "closest to going out"
        ("", "", ["[5] A", "[6] A", "[7]", "[8]"], "Daryl", "taken together, its parts add up to the most"),
        # the 9 (next best, by 0.1) sheds one card, and the one play that sheds more spends the 2s the 7s keep
        ("9 7 7 6 4 2 2 2", "", None, "Madonna", "Play your 2 7s — sheds two cards while keeping your 2s."),
    ],
)
def test_a_reason_holds_against_every_move_not_only_the_runner_up(
    hand: str, pile: str, stacks: list[str] | None, coach: str, said: str
) -> None:
    a = advice(pos(hand, pile, stacks=stacks), coach)
    assert said in a.text
    assert not contradictions(a, view(pos(hand, pile, stacks=stacks), 0))


def test_a_pass_that_turns_down_a_blind_card_says_so() -> None:
    """Clear 4: nothing in the hand plays, but the blind cards could: the pass names the odds it turned down."""
    seats = [
        {"hand": "6 6", "stacks": ["[CL]", "", "[A]", "[CL]"]},
        {"hand": "", "stacks": ["[8]", "[9]", "[J*]", "[8]"]},
        {"hand": "", "stacks": ["[6]", "", "", "[5]"]},
    ]
    rules = {"players": 3, "game": "Clear 4", "end_condition": "rounds", "rounds": 3}
    state = State.from_position({"rules": rules, "turn": 2, "pile": "A@1", "seats": seats})
    a = advise(view(state, 2), "Madonna", "Average")
    assert a.text.startswith("Pass — nothing in your hand plays, and a blind card is not worth its risk here (bust")
    assert not contradictions(a, view(state, 2))


BLIND = ("flip", "gamble", "turnup")
#: The value the line assumes the pile comes back at, by game: only cards above it are stranded (C5).
MIDDLING = {"CUT": 8, "Clear 4": 6}


def laid(known: Knowledge, move: Move) -> list[int]:
    """The cards a move lays, worked out from the position alone: hand, jokers, face-up stack tops."""
    wild = WILD if known.rules.game == "Clear 4" else JOKER
    tops = [card for k in move.stacks if (card := known.stacks[k][-1]) is not None]
    return [move.rank] * move.n + [wild] * move.jokers + tops


def hand_after(known: Knowledge, move: Move) -> list[int]:
    """The hand a move leaves, from the position alone: a take keeps its own cards, the pile aside."""
    held = list(known.hand)
    if move.kind != "take":
        held[move.rank] -= move.n
        held[WILD if known.rules.game == "Clear 4" else JOKER] -= move.jokers
    return held


def held_after(known: Knowledge, move: Move) -> list[int]:
    """What the seat holds after a move, from the position alone: the hand, and the face-up stack tops it leaves."""
    held = hand_after(known, move)
    for k, stack in enumerate(known.stacks):
        if stack and stack[-1] is not None and (move.kind == "take" or k not in move.stacks):
            held[stack[-1]] += 1
    return held


def fact_problems(c: Candidate, known: Knowledge, coach: str) -> list[str]:
    """Where a scorer's recorded facts disagree with its own numbers, or with the position (C1)."""
    move, parts, facts = c.move, c.components, c.facts
    found = []
    if (OUT in facts) != (parts["go out"] == 100.0 and move.kind not in BLIND):  # a blind last card may bust
        found.append("goes out, or not, against its 'go out' part")
    if FINISHES in facts and parts["go out"] != 80.0:
        found.append("finishes after a clear, against its 'go out' part")
    if (BUST in facts) != (move.kind in BLIND) or not 0.0 <= c.fact(BUST) <= 1.0:
        found.append("a bust chance of a move that plays no blind card, or none of one that does")
    if HINDERS in facts and (c.fact(HINDERS) != parts["control"] or known.next_left > NEAR_OUT):
        found.append("hinders other than by its control part, or a seat not about to go out")
    if DUMPS in facts and known.min_left > style_of(coach).dump_clears_at:
        found.append("dumps clears with no seat near going out")
    if SPARE_LOW in facts and (not known.pile or move.rank > 3 or move.size < 2):
        found.append("a charge for spare low cards of a lay that has none")
    if STRANDED in facts and any(card <= MIDDLING[known.rules.game] for card in facts[STRANDED].cards):
        found.append("a stranded card no higher than the middling value")
    if PRINCIPLE in facts and move.kind not in ("flip", "gamble"):
        found.append("a principle of a move that is not blind")
    if HOLDS in facts and list(facts[HOLDS].cards) != hand_after(known, move):
        found.append("holds another hand than the move leaves")
    if CLEARS in facts:
        value = facts[CLEARS].cards[0]
        if not value or (known.run if value == known.top else 0) + move.size < 4:  # R22: a valueless JOKER never clears
            found.append("completes four with fewer than four, or of no value")
    return found


def keeps_what_others_spend(a: Any, best: Candidate, others: list[Candidate], known: Knowledge) -> bool:
    """Every card the advice names as kept (``a.kept``: a low card, or 0 for clears) is one the move still holds and
    that the next best lays more of; or, when the next best sheds fewer cards, that every play shedding more lays
    more of; for a take, that the best lay spends. Worked out from the position alone."""
    held, mine = held_after(known, best.move), laid(known, best.move)
    runner = max(others, key=lambda c: c.total)

    def sheds(move: Move) -> int:
        return 0 if move.kind == "take" else move.size

    def spends(move: Move, rank: int) -> bool:
        cards = laid(known, move)
        if rank == 0:
            return move.kind in ("play", "add", "clear") and any(known.is_clear[r] for r in cards)
        return move.kind in ("play", "add", "clear") and cards.count(rank) > mine.count(rank)

    def holds(rank: int) -> bool:
        return any(n and known.is_clear[r] for r, n in enumerate(held)) if rank == 0 else held[rank] > 0

    groups = [[runner.move]]
    if best.move.kind == "take":
        groups = [[max((c for c in others if c.move.kind not in (*BLIND, "take")), key=lambda c: c.total).move]]
    bigger = [c.move for c in others if sheds(c.move) > best.move.size]
    if best.move.kind != "take" and sheds(runner.move) < best.move.size and bigger:
        groups.append(bigger)
    low = all(rank == 0 or (rank in (1, 2, 3) and not known.is_clear[rank]) for rank in a.kept)
    return low and any(all(holds(r) and all(spends(m, r) for m in group) for r in a.kept) for group in groups)


def apart(best: Candidate, others: list[Candidate], part: str) -> bool:
    return all(best.components[part] > c.components[part] + 1e-6 for c in others)


def claim_holds(a: Any, seen: dict[str, Any]) -> bool:
    """Whether the reason the advice names (``a.reason``) is borne out by the numbers and the position."""
    best = next(c for c in a.candidates if c.move == a.move)
    others = [c for c in a.candidates if c is not best]
    known = Knowledge.from_view(seen)
    move, name = best.move, a.reason
    runner = max(others, key=lambda c: c.total, default=None)
    high = known.rules.game == "CUT" and move.rank >= JACK
    shed = [0 if c.move.kind == "take" else c.move.size for c in others]
    kinds = {"push": "push", "blind": ("flip", "gamble"), "clear": "clear", "turn up": "turnup", "take": "take",
             "done": "done"}  # fmt: skip
    if a.kept and not keeps_what_others_spend(a, best, others, known):
        return False
    if name in kinds:
        return move.kind in kinds[name]
    if name == "out":
        return best.goes_out
    if name == "finishes":
        return best.components["go out"] == 80.0
    if name == "clears":
        return best.clears
    if name == "adds nothing":
        return move.kind == "add" and not move.size
    if name == "hinders":
        return best.components["control"] > 0 and apart(best, others, "control")
    if name == "only move":
        return not others
    assert runner is not None
    if name == "saves a take":
        return all(c.move.kind == "take" for c in others)
    if name in ("leads high", "sheds high"):
        return high and (name == "sheds high" or not seen["pile"])
    if name == "keeps back":
        same = [c for c in others if c.move.kind == "play" and c.move.rank == move.rank]
        spare = best.fact(SPARE_LOW)
        return held_after(known, move)[move.rank] > 0 and any(c.total + c.fact(SPARE_LOW) - spare > best.total
                                                             for c in same)  # fmt: skip
    if name == "at once":
        return move.size > 1 and move.size >= max(shed) and move.size > shed[others.index(runner)]
    if name == "keeping":
        return bool(a.kept) and keeps_what_others_spend(a, best, others, known)
    if name == "shed":
        lays = [c.move.rank for c in others if c.move.kind == "play"]
        highest = move.kind == "play" and runner.move.kind == "play" and all(r <= move.rank for r in lays)
        return move.size > max(shed) or (highest and runner.move.rank < move.rank and apart(best, others, "shed"))
    if name in COMPONENTS:
        return apart(best, others, name) and (name != "control" or best.components[name] > 0)
    if name == "on balance":
        return not any(claim_holds(dataclasses.replace(a, reason=part), seen) for part in COMPONENTS)
    by_turn = max(a.candidates, key=lambda c: c.turn_value)
    if name.startswith("line: "):
        lead = {"takes now": move.kind == "take", "sheds less": move.size < by_turn.move.size,
                "worth less": best.components["shed"] < by_turn.components["shed"]}  # fmt: skip
        return by_turn.turn_value - best.turn_value > 1e-6 and lead[name.removeprefix("line: ")]
    if name == "barred":
        return any(c.fact(PRINCIPLE) < 0 and c.total - c.fact(PRINCIPLE) > best.total for c in others)
    if name == "high pile":
        return best.fact(PRINCIPLE) > 0 and best.total - best.fact(PRINCIPLE) < runner.total
    raise AssertionError(f"no claim known for the reason {name!r}")


def contradictions(a: Any, seen: dict[str, Any]) -> list[str]:
    """What in an advice the numbers behind it contradict (C1, C5): every candidate's facts against its numbers and
    the position, and the reason said against the numbers of every move. Empty when they hold."""
    known = Knowledge.from_view(seen)
    best = next(c for c in a.candidates if c.move == a.move)
    found = [problem for c in a.candidates for problem in fact_problems(c, known, a.coach)]
    if not claim_holds(a, seen):
        found.append(f"'{a.reason}' not borne out")
    if a.plan and a.move.kind in ("play", "add") and all(rank == a.move.rank for rank, _ in best.steps):
        found.append("a plan of only the rank just played")
    return found


def advised_positions(count: int, seed: int) -> Iterator[State]:
    """Positions of seeded hands under varied rules, played by Expert seats with some random moves."""
    rng = random.Random(seed)
    rule_sets = [Rules(), Rules(risk_play=True, pile_card_flip=True), Rules.from_preset("Canada"),
                 Rules(piles_face_down=True), Rules(players=3, clear_rank=None),
                 Rules.from_preset("Clear 4")]  # fmt: skip
    found = 0
    for hand in itertools.count():
        rules = rule_sets[hand % len(rule_sets)]
        state = State.deal(rules, seed=seed + hand)
        ai = AIPlayer("Expert", "Balanced", seed=hand)
        while not state.over and state.turns < 400:
            if rng.random() < 0.3:
                yield state
                found += 1
                if found == count:
                    return
            seen = view(state, state.turn)
            state.play(RandomPlayer().choose(state, rng) if rng.random() < 0.3 else ai.choose_view(seen))


def test_no_reason_contradicts_its_numbers() -> None:
    """Over many advices, by every coach at every Level, the words agree with the numbers behind them."""
    problems: Counter[str] = Counter()
    examples: dict[str, str] = {}
    advices = 0
    for state in advised_positions(150, seed=2026):
        seen = view(state, state.turn)
        for coach in ("Daryl", "Madonna", "Marty"):
            for level in LEVELS:
                a = advise(seen, coach, level)
                advices += 1
                for problem in contradictions(a, seen):
                    problems[problem] += 1
                    examples.setdefault(problem, f"{coach} {level} {state.to_position()}: {a.text}")
    assert advices == 150 * 9
    assert not problems, f"{dict(problems)}; for example: {list(examples.values())[:3]}"
