"""The move-value coach (C1–C6): the guide's worked examples, styles that differ, honesty and determinism."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cut_tutor import RandomPlayer, Rules, State, view
from cut_tutor.coach import COMPONENTS, LEVELS, AIPlayer, Knowledge, advise, compare
from cut_tutor.engine.cards import RANK_MASK, UP
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
        assert a.text == "Play your K — leads high on an empty pile."

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

    def test_playing_the_line(self) -> None:
        a = advice(pos("J 7 7 5 5", "Q@1"))
        assert a.text == (
            "Play your J — it sheds less right now, but it sets up your next turns: your 2 7s, then your 2 5s."
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

    def test_compare_shows_where_the_coaches_disagree(self) -> None:
        state = pos("8 8 4", "Q@0", stacks=["[5]", "[6]", "", ""], phase="gamble", exposed=[1], risk_play=True)
        frame = compare(view(state, 0))
        assert list(frame["coach"]) == ["Daryl", "Madonna", "Marty"]
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
        state = State.deal(rules, seed=199, dealer=199 % 4)
        seats = [AIPlayer("Expert", style, seed=199) for style in ("Rock", "Balanced", "Gambler", "Balanced")]
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
